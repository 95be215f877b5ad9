/*
 * false_sharing.c - several threads each increment their own counter, but
 * the counters sit side by side in one 64-byte cache line, together with
 * the loop limit every thread reads: every increment steals the line from
 * the other cores (false sharing), and every read of the limit finds it
 * modified in another core (HITM).  No byte is used by two threads.
 *
 * Build for a trace (see formats/trace-format.md):
 *   cc -O1 -g -fsanitize=thread -c false_sharing.c
 *   cc -o false_sharing false_sharing.o $(B)/libpebs-trace.a -pthread -ldl
 *   PEBS_TRACE_OUT=fs.trace ./false_sharing
 * The fix, -DPADDED: each counter (and the limit) on a line of its own.
 */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4
#define ITERS 50000

#ifdef PADDED
#define PAD(n) char pad##n[64 - sizeof(long)];
#else
#define PAD(n)
#endif

static struct {
	struct {
		volatile long v;
		PAD(0)
	} count[NTHREADS];
	volatile long limit;
	PAD(1)
} shared __attribute__((aligned(64))) = { .limit = ITERS };

static void *worker(void *arg)
{
	long id = (long)arg;
	for (long i = 0; i < shared.limit; i++)
		shared.count[id].v++;	/* the write that bounces the line */
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i)) {
			fputs("false_sharing: pthread_create failed\n",
			      stderr);
			return 1;
		}
	long total = 0;
	for (long i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		total += shared.count[i].v;
	}
	printf("total %ld (expected %ld)\n", total, (long)NTHREADS * ITERS);
	return total == (long)NTHREADS * ITERS ? 0 : 1;
}
