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
	/* cenc_order()'s scratch, for ocap samples: their times, two
	 * index arrays for the merges, the runs' starts, a column. */
	void *omem;
	size_t ocap;
	uint64_t *okey, *ocol;
	uint32_t *operm, *operm2, *oruns;
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
	free(e->omem);
	free(e);
}

/* ------------------------------------------------------ drain order */

/* cenc_order()'s scratch for @n samples: grown by doubling, kept. */
static int order_room(struct cap_enc *e, size_t n)
{
	size_t cap = e->ocap ? e->ocap : 4096;
	char *m;

	if (n <= e->ocap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* indices are 32-bit (a drain is far smaller) */
	if (cap > UINT32_MAX - 1)
		return -PEBS_E_NOMEM;
	m = malloc(cap * (2 * sizeof(uint64_t) + 3 * sizeof(uint32_t)) +
		   sizeof(uint32_t));
	if (!m)
		return -PEBS_E_NOMEM;
	free(e->omem);
	e->omem = m;
	e->ocap = cap;
	e->okey = (uint64_t *)m;
	e->ocol = e->okey + cap;
	e->operm = (uint32_t *)(e->ocol + cap);
	e->operm2 = e->operm + cap;
	e->oruns = e->operm2 + cap;
	return 0;
}

/* Merges runs src[lo, mid) and src[mid, hi) (indices into @key) into
 * dst[lo, hi); on equal keys the left run first (a stable sort). */
static void merge(const uint64_t *key, const uint32_t *src, uint32_t *dst,
		  size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		dst[k++] = key[src[j]] < key[src[i]] ? src[j++] : src[i++];
	while (i < mid)
		dst[k++] = src[i++];
	while (j < hi)
		dst[k++] = src[j++];
}

/*
 * The order of the @n keys as indices, stably sorted: a merge sort of
 * the runs already in order (a drain is one run per CPU, or a few: log2
 * of that many passes).  Returns the array holding it.
 */
static const uint32_t *sort_runs(struct cap_enc *e, size_t n)
{
	uint32_t *src = e->operm, *dst = e->operm2, *runs = e->oruns, *t;
	const uint64_t *key = e->okey;
	size_t nr = 0;

	for (size_t k = 0; k < n; k++) {
		src[k] = (uint32_t)k;
		if (k == 0 || key[k] < key[k - 1])
			runs[nr++] = (uint32_t)k;
	}
	runs[nr] = (uint32_t)n;
	while (nr > 1) {
		size_t m = 0;
		/* an odd last run is merged with nothing: copied */
		for (size_t r = 0; r < nr; r += 2) {
			size_t hi = runs[r + 2 <= nr ? r + 2 : nr];
			merge(key, src, dst, runs[r], runs[r + 1], hi);
			runs[m++] = runs[r];
		}
		runs[m] = (uint32_t)n;
		nr = m;
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/* The segment of batch @s of the drain: [*lo, b[s]->n). */
#define SEG_LO(s, from)	((s) ? 0 : (from))

/* Copies column @c of the drain into e->ocol (u32 columns as u32); a
 * column clean in a batch is zero there, whatever its memory holds. */
static void col_out(struct cap_enc *e, struct pebs_batch *const *b,
		    size_t nb, size_t from, unsigned c)
{
	uint32_t *o32 = (uint32_t *)e->ocol;
	size_t k = 0;

	for (size_t s = 0; s < nb; s++) {
		size_t lo = SEG_LO(s, from), m = b[s]->n - lo;
		int dirty = (b[s]->dirty >> c) & 1;
		if (b[s]->c64[c] && dirty)
			memcpy(e->ocol + k, b[s]->c64[c] + lo, m * 8);
		else if (b[s]->c64[c])
			memset(e->ocol + k, 0, m * 8);
		else if (dirty)
			memcpy(o32 + k, b[s]->c32[c] + lo, m * 4);
		else
			memset(o32 + k, 0, m * 4);
		k += m;
	}
}

/* Writes column @c of the drain back from @v (u64, or u32 for u32
 * columns) in the order @perm. */
static void col_in(struct pebs_batch *const *b, size_t nb, size_t from,
		   unsigned c, const void *v, const uint32_t *perm)
{
	const uint64_t *v64 = v;
	const uint32_t *v32 = v;
	size_t k = 0;

	for (size_t s = 0; s < nb; s++) {
		size_t lo = SEG_LO(s, from), hi = b[s]->n;
		if (b[s]->c64[c]) {
			uint64_t *p = b[s]->c64[c];
			for (size_t j = lo; j < hi; j++)
				p[j] = v64[perm[k++]];
		} else {
			uint32_t *p = b[s]->c32[c];
			for (size_t j = lo; j < hi; j++)
				p[j] = v32[perm[k++]];
		}
	}
}

/*
 * Several batches: their event dictionaries differ.  Rewrites the event
 * column in the order @perm with each batch's own ids, interning the
 * names a batch gets from another.  Everything is interned before any
 * id is written: on -PEBS_E_NOMEM the column is as it was.
 */
static int events_in(struct cap_enc *e, struct pebs_batch *const *b,
		     size_t nb, size_t from, size_t n, const uint32_t *perm)
{
	uint32_t *v = (uint32_t *)e->ocol;	/* the column, then new ids */
	uint32_t *id = v + n;			/* e->ocol holds 2n u32 */
	const char **gn = NULL;			/* names of the drain */
	uint32_t *map = NULL;
	size_t ngn = 0, maxn = 0, k = 0;
	int r = 0;

	for (size_t s = 0; s < nb; s++) {
		ngn += b[s]->nnames;
		maxn = b[s]->nnames > maxn ? b[s]->nnames : maxn;
	}
	gn = malloc((ngn + 1) * sizeof(*gn));
	map = malloc((ngn + maxn + 1) * sizeof(*map));
	if (!gn || !map) {
		r = -PEBS_E_NOMEM;
		goto out;
	}
	/* batch ids -> drain-wide ids (into gn) */
	ngn = 0;
	for (size_t s = 0; s < nb; s++) {
		size_t lo = SEG_LO(s, from);
		for (uint32_t i = 0; i < b[s]->nnames; i++) {
			size_t g = 0;
			while (g < ngn && strcmp(gn[g], b[s]->names[i]))
				g++;
			if (g == ngn)
				gn[ngn++] = b[s]->names[i];
			map[i] = (uint32_t)g;
		}
		for (size_t j = lo; j < b[s]->n; j++) {
			uint32_t x = (b[s]->dirty >> PEBS_COL_EVENT) & 1 ?
				     b[s]->c32[PEBS_COL_EVENT][j] : 0;
			/* an id outside the dictionary stays as it was */
			v[k++] = x < b[s]->nnames ? map[x] : UINT32_MAX - x;
		}
	}
	/* drain-wide ids -> the ids of the batch each sample lands in */
	k = 0;
	for (size_t s = 0; s < nb; s++) {
		for (size_t g = 0; g < ngn; g++)
			map[g] = UINT32_MAX;
		for (size_t j = SEG_LO(s, from); j < b[s]->n; j++, k++) {
			uint32_t g = v[perm[k]];
			if (g >= ngn) {
				id[k] = UINT32_MAX - g;
				continue;
			}
			if (map[g] == UINT32_MAX) {
				int x = pebs_batch_intern(b[s], gn[g]);
				if (x < 0) {
					r = x;
					goto out;
				}
				map[g] = (uint32_t)x;
			}
			id[k] = map[g];
		}
	}
	k = 0;
	for (size_t s = 0; s < nb; s++)
		for (size_t j = SEG_LO(s, from); j < b[s]->n; j++)
			b[s]->c32[PEBS_COL_EVENT][j] = id[k++];
out:
	free(gn);
	free(map);
	return r;
}

int cenc_order(struct cap_enc *e, struct pebs_batch *const *b, size_t nb,
	       size_t from)
{
	uint64_t dirty = 0, present = 0;
	const uint32_t *perm;
	size_t n = 0, k = 0;
	int sorted = 1, r;

	for (size_t s = 0; s < nb; s++) {
		n += b[s]->n - SEG_LO(s, from);
		dirty |= b[s]->dirty;
		present |= b[s]->present;
	}
	if (n < 2)
		return 0;
	if (order_room(e, n) < 0)
		return -PEBS_E_NOMEM;
	/* The times, and whether they are in order already (one CPU, or
	 * the records of only one CPU in this drain). */
	for (size_t s = 0; s < nb; s++) {
		const uint64_t *t = b[s]->c64[PEBS_COL_TIME];
		int clean = !((b[s]->dirty >> PEBS_COL_TIME) & 1);
		for (size_t j = SEG_LO(s, from); j < b[s]->n; j++, k++) {
			e->okey[k] = clean ? 0 : t[j];
			if (k && e->okey[k] < e->okey[k - 1])
				sorted = 0;
		}
	}
	if (sorted)
		return 0;
	perm = sort_runs(e, n);
	/* The event column first: only it can fail (the names a batch
	 * gets from another), and nothing has moved yet then. */
	if (nb > 1) {
		r = events_in(e, b, nb, from, n, perm);
		if (r < 0)
			return r;
	} else if ((dirty >> PEBS_COL_EVENT) & 1) {
		col_out(e, b, nb, from, PEBS_COL_EVENT);
		col_in(b, nb, from, PEBS_COL_EVENT, e->ocol, perm);
	}
	col_in(b, nb, from, PEBS_COL_TIME, e->okey, perm);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		if (c == PEBS_COL_TIME || c == PEBS_COL_EVENT ||
		    !((dirty >> c) & 1) || (!b[0]->c64[c] && !b[0]->c32[c]))
			continue;
		col_out(e, b, nb, from, c);
		col_in(b, nb, from, c, e->ocol, perm);
	}
	/* Values moved between batches: a column non-zero in one may be
	 * in every one now. */
	for (size_t s = 0; nb > 1 && s < nb; s++) {
		b[s]->dirty |= dirty;
		b[s]->present |= present;
	}
	return 0;
}
