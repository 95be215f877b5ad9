/*
 * capture_enc.c - block encoding for the capture on worker threads.
 *
 * The capture thread fills batches of a block's worth of samples; each
 * full batch is encoded (pebs_block_encode) by a worker while the capture
 * goes on, and the encoded blocks are written, in submission order, by
 * the capture thread itself (pebs_writer_copy_block), so the writer is
 * only ever used from one thread and the file is the same whatever the
 * number of workers.  With no workers the encoding happens inline.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "capture_int.h"
#include "pebs_format.h"

enum { J_FREE, J_QUEUED, J_RUNNING, J_DONE };

struct job {
	struct pebs_batch *b;	/* NULL: a lost record (cpu, time, lost) */
	void *out;
	size_t len;
	int rc;
	int state;
	uint32_t cpu;
	uint64_t time, lost;
};

struct cap_enc {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	pthread_t th[CENC_MAX_THREADS];
	unsigned nth;
	int level, quit;
	struct job *jobs;	/* ring in submission order */
	unsigned njobs, head, count;
	struct pebs_batch **spare;
	unsigned nspare;
	size_t cap;
};

static void *worker(void *arg)
{
	struct cap_enc *e = arg;

	pthread_mutex_lock(&e->mu);
	for (;;) {
		struct job *j = NULL;
		for (unsigned k = 0; k < e->count; k++) {
			struct job *x = &e->jobs[(e->head + k) % e->njobs];
			if (x->state == J_QUEUED) {
				j = x;
				break;
			}
		}
		if (!j) {
			if (e->quit)
				break;
			pthread_cond_wait(&e->work, &e->mu);
			continue;
		}
		j->state = J_RUNNING;
		pthread_mutex_unlock(&e->mu);
		j->rc = pebs_block_encode(j->b, e->level, &j->out, &j->len);
		pthread_mutex_lock(&e->mu);
		j->state = J_DONE;
		pthread_cond_broadcast(&e->done);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

int cenc_open(struct cap_enc **out, unsigned threads, int level, size_t cap)
{
	struct cap_enc *e = calloc(1, sizeof(*e));

	*out = NULL;
	if (!e)
		return -PEBS_E_NOMEM;
	if (threads > CENC_MAX_THREADS)
		threads = CENC_MAX_THREADS;
	e->level = level;	/* 0: pebs_block_encode()'s default */
	e->cap = cap;
	e->njobs = 2 * (threads ? threads : 1);
	e->jobs = calloc(e->njobs, sizeof(*e->jobs));
	e->spare = calloc(e->njobs + 2, sizeof(*e->spare));
	if (!e->jobs || !e->spare) {
		free(e->jobs);
		free(e->spare);
		free(e);
		return -PEBS_E_NOMEM;
	}
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->work, NULL);
	pthread_cond_init(&e->done, NULL);
	for (unsigned i = 0; i < threads; i++) {
		if (pthread_create(&e->th[i], NULL, worker, e) != 0)
			break;	/* fewer workers still work */
		e->nth++;
	}
	*out = e;
	return 0;
}

/* The capture fills batches only through pebs_ds_decode() and
 * pebs_batch_push(), which mark every column they make non-zero: so a
 * batch starts with no column dirty, and the decoder need not store the
 * columns a record shape leaves zero (registers of adaptive records
 * without GPRs), nor the encoder scan them. */
struct pebs_batch *cenc_batch(struct cap_enc *e)
{
	struct pebs_batch *b;

	if (e->nspare) {
		b = e->spare[--e->nspare];
		pebs_batch_reset(b);
	} else {
		b = pebs_batch_new(e->cap);
	}
	if (b)
		b->dirty = 0;
	return b;
}

static void recycle(struct cap_enc *e, struct pebs_batch *b)
{
	if (e->nspare < e->njobs + 2)
		e->spare[e->nspare++] = b;
	else
		pebs_batch_free(b);
}

enum { R_ROOM, R_ALL, R_NOWAIT };

/* Writes the finished jobs at the head, in order.  @mode R_ROOM waits
 * only while the ring is full, R_ALL for every job, R_NOWAIT never.
 * Caller holds no lock. */
static int retire(struct cap_enc *e, struct pebs_writer *w, int mode,
		  int *werr)
{
	int rc = 0;

	pthread_mutex_lock(&e->mu);
	while (e->count) {
		struct job *j = &e->jobs[e->head];
		if (j->state != J_DONE) {
			if (mode == R_NOWAIT ||
			    (mode == R_ROOM && e->count < e->njobs))
				break;
			pthread_cond_wait(&e->done, &e->mu);
			continue;
		}
		pthread_mutex_unlock(&e->mu);
		if (j->rc < 0) {
			rc = rc ? rc : j->rc;
		} else if (!rc) {
			int r = j->b ? pebs_writer_copy_block(w, j->out,
							      j->len) :
				pebs_writer_lost(w, j->cpu, j->time, j->lost);
			if (r < 0) {
				rc = r;
				*werr = 1;
			}
		}
		free(j->out);
		j->out = NULL;
		if (j->b)
			recycle(e, j->b);
		j->b = NULL;
		pthread_mutex_lock(&e->mu);
		j->state = J_FREE;
		e->head = (e->head + 1) % e->njobs;
		e->count--;
	}
	pthread_mutex_unlock(&e->mu);
	return rc;
}

int cenc_submit(struct cap_enc *e, struct pebs_batch *b,
		struct pebs_writer *w, int *werr)
{
	struct job *j;
	int rc;

	if (!b->n) {
		recycle(e, b);
		return 0;
	}
	/* Make room: the ring holds at most njobs blocks in flight. */
	rc = retire(e, w, R_ROOM, werr);
	if (rc < 0) {
		recycle(e, b);
		return rc;
	}
	if (!e->nth) {
		/* No workers: encode here, in order. */
		void *out;
		size_t len;
		rc = pebs_block_encode(b, e->level, &out, &len);
		if (rc == 0) {
			rc = pebs_writer_copy_block(w, out, len);
			if (rc < 0)
				*werr = 1;
			free(out);
		}
		recycle(e, b);
		return rc;
	}
	pthread_mutex_lock(&e->mu);
	j = &e->jobs[(e->head + e->count) % e->njobs];
	j->b = b;
	j->out = NULL;
	j->rc = 0;
	j->state = J_QUEUED;
	e->count++;
	pthread_cond_signal(&e->work);
	pthread_mutex_unlock(&e->mu);
	return 0;
}

int cenc_lost(struct cap_enc *e, struct pebs_writer *w, uint32_t cpu,
	      uint64_t time, uint64_t count, int *werr)
{
	int rc = retire(e, w, R_ROOM, werr);

	if (rc < 0)
		return rc;
	if (!e->nth) {
		/* No workers: every block before it is written already. */
		rc = pebs_writer_lost(w, cpu, time, count);
		if (rc < 0)
			*werr = 1;
		return rc;
	}
	pthread_mutex_lock(&e->mu);
	struct job *j = &e->jobs[(e->head + e->count) % e->njobs];
	*j = (struct job){ .state = J_DONE, .cpu = cpu, .time = time,
			   .lost = count };
	e->count++;
	pthread_mutex_unlock(&e->mu);
	return 0;
}

int cenc_poll(struct cap_enc *e, struct pebs_writer *w, int *werr)
{
	return retire(e, w, R_NOWAIT, werr);
}

int cenc_sync(struct cap_enc *e, struct pebs_writer *w, int *werr)
{
	return retire(e, w, R_ALL, werr);
}

void cenc_close(struct cap_enc *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&e->mu);
	e->quit = 1;
	pthread_cond_broadcast(&e->work);
	pthread_mutex_unlock(&e->mu);
	for (unsigned i = 0; i < e->nth; i++)
		pthread_join(e->th[i], NULL);
	for (unsigned k = 0; k < e->count; k++) {
		struct job *j = &e->jobs[(e->head + k) % e->njobs];
		free(j->out);
		pebs_batch_free(j->b);
	}
	for (unsigned i = 0; i < e->nspare; i++)
		pebs_batch_free(e->spare[i]);
	pthread_mutex_destroy(&e->mu);
	pthread_cond_destroy(&e->work);
	pthread_cond_destroy(&e->done);
	free(e->jobs);
	free(e->spare);
	free(e);
}
