/*
 * true_sharing.c - several threads increment one shared counter with an
 * atomic add and read it back: the same offset of one cache line is
 * written by every thread (true sharing; the fix is per-thread counters
 * summed at the end, not padding).
 *
 * Build for a trace (see formats/trace-format.md):
 *   cc -O1 -g -fsanitize=thread -c true_sharing.c
 *   cc -o true_sharing true_sharing.o -L$(B) -lpebs-trace -pthread
 *   PEBS_TRACE_OUT=ts.trace ./true_sharing
 */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define ITERS 50000

static long counter __attribute__((aligned(64)));
static long seen[NTHREADS];

static void *worker(void *arg)
{
	long id = (long)arg;
	long last = 0;
	for (long i = 0; i < ITERS; i++) {
		__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		if ((i & 15) == 0)
			last = __atomic_load_n(&counter, __ATOMIC_RELAXED);
	}
	seen[id] = last;
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i)) {
			fputs("true_sharing: pthread_create failed\n",
			      stderr);
			return 1;
		}
	for (long i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("counter %ld (expected %ld)\n", counter,
	       (long)NTHREADS * ITERS);
	return counter == (long)NTHREADS * ITERS ? 0 : 1;
}
