/*
 * c2c_line.c - per-line results: classification per data source, the
 * grouping of the line samples, statistics, percentiles, the sharing
 * verdict with its evidence and fix, per-offset rows, heat maps.
 *
 * finish() touches every sample a few times, in order (collect_lines()):
 * a pass over the columns (totals per data source, bucket sizes), a
 * scatter of the line keys into hash buckets, and per bucket a small hash
 * table of its lines (distinct lines, which ones can be listed).  Only the
 * samples of lines that can be listed (a HITM of any kind, or every line
 * with show_all) are gathered into per-line records and get the per-line
 * work: without show_all a listed line has a HITM of the display kind, and
 * "shared" lines of --stats have a HITM of any kind.  Samples are classified
 * once per distinct data source, never per sample.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c_int.h"
#include "pebs_sym.h"

/* ------------------------------------------------------------- helpers */

struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void sb_printf(struct sbuf *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = s->cap - s->len;
		va_start(ap, fmt);
		int n = vsnprintf(s->p ? s->p + s->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			s->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			s->len += (size_t)n;
			return;
		}
		size_t nc = (s->cap + (size_t)n + 1) * 2;
		char *np = realloc(s->p, nc);
		if (!np) {
			s->oom = 1;
			return;
		}
		s->p = np;
		s->cap = nc;
	}
}

static char *sb_take(struct sbuf *s)
{
	if (!s->p && !s->oom)
		return strdup("");
	return s->p;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The index of the first of sorted @a[0..n) that is not below @k. */
static size_t lower_u64(const uint64_t *a, size_t n, uint64_t k)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (a[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 29);
}

/*
 * A set of u64 keys with dense values in insertion order, emptied in O(1)
 * by bumping a generation: the per-line distinct counts reuse one set
 * instead of sorting or allocating per line.
 */
struct sset {
	uint64_t *key;
	uint32_t *gen, *val;
	uint64_t *list;		/* keys in insertion order */
	size_t cap, n;
	uint32_t g;
};

static int sset_begin(struct sset *s, size_t maxn)
{
	size_t need = 16;
	while (need < maxn * 2)
		need *= 2;
	if (need > s->cap) {
		free(s->key);
		free(s->gen);
		free(s->val);
		free(s->list);
		s->key = malloc(need * sizeof(*s->key));
		s->gen = calloc(need, sizeof(*s->gen));
		s->val = malloc(need * sizeof(*s->val));
		s->list = malloc(need / 2 * sizeof(*s->list));
		s->cap = need;
		s->g = 0;
		if (!s->key || !s->gen || !s->val || !s->list) {
			s->cap = 0;
			return -PEBS_E_NOMEM;
		}
	}
	if (++s->g == 0) {
		memset(s->gen, 0, s->cap * sizeof(*s->gen));
		s->g = 1;
	}
	s->n = 0;
	return 0;
}

/* Value (insertion index) of @k, added when new; @isnew tells which. */
static uint32_t sset_add(struct sset *s, uint64_t k, int *isnew)
{
	size_t m = s->cap - 1, j = mix64(k) & m;
	for (;;) {
		if (s->gen[j] != s->g) {
			s->gen[j] = s->g;
			s->key[j] = k;
			s->list[s->n] = k;
			s->val[j] = (uint32_t)s->n++;
			if (isnew)
				*isnew = 1;
			return s->val[j];
		}
		if (s->key[j] == k) {
			if (isnew)
				*isnew = 0;
			return s->val[j];
		}
		j = (j + 1) & m;
	}
}

static void sset_free(struct sset *s)
{
	free(s->key);
	free(s->gen);
	free(s->val);
	free(s->list);
	memset(s, 0, sizeof(*s));
}

struct latc {
	uint32_t lat;
	uint64_t n;
};

static void latc_isort(struct latc *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct latc x = v[i];
		size_t j = i;
		while (j && v[j - 1].lat > x.lat) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/*
 * Nearest-rank percentile @p of the (lat, count) list @v (any order; it is
 * permuted): the smallest latency whose cumulative count reaches
 * ceil(total * p / 100).  A weighted quickselect, linear on average, where
 * sorting every line's latencies dominated the run time.
 */
static uint32_t pctl(struct latc *v, size_t n, uint64_t total, unsigned p)
{
	if (!total || !n)
		return 0;
	/* total may reach C2C_MAX_SAMPLES (2^60): times p in 128 bits */
	uint64_t rank = (uint64_t)(((unsigned __int128)total * p + 99) / 100);
	if (!rank)
		rank = 1;
	size_t lo = 0, hi = n;
	for (;;) {
		if (hi - lo <= 16) {
			latc_isort(v + lo, hi - lo);
			uint64_t seen = 0;
			for (size_t i = lo; i < hi; i++) {
				seen += v[i].n;
				if (seen >= rank)
					return v[i].lat;
			}
			return v[hi - 1].lat;
		}
		uint32_t a = v[lo].lat, b = v[lo + (hi - lo) / 2].lat;
		uint32_t c = v[hi - 1].lat;
		uint32_t piv = a < b ? (b < c ? b : (a < c ? c : a)) :
				       (a < c ? a : (b < c ? c : b));
		/* three-way partition: [lo,lt) < piv, [lt,gt) == piv */
		size_t lt = lo, i = lo, gt = hi;
		uint64_t wl = 0, we = 0;
		while (i < gt) {
			if (v[i].lat < piv) {
				struct latc t = v[i];
				wl += t.n;
				v[i++] = v[lt];
				v[lt++] = t;
			} else if (v[i].lat > piv) {
				struct latc t = v[i];
				v[i] = v[--gt];
				v[gt] = t;
			} else {
				we += v[i++].n;
			}
		}
		if (rank <= wl) {
			hi = lt;
		} else if (rank <= wl + we) {
			return piv;
		} else {
			rank -= wl + we;
			lo = gt;
		}
	}
}

/* --------------------------------------------------------- the verdict */

typedef uint64_t bmask[C2C_MASK_WORDS];

static void mask_or_range(bmask m, unsigned lo, unsigned hi)
{
	for (unsigned w = lo / 64; w * 64 < hi; w++) {
		unsigned a = w * 64 > lo ? 0 : lo - w * 64;
		unsigned b = hi - w * 64 >= 64 ? 64 : hi - w * 64;
		uint64_t x = b == 64 ? ~0ull : (1ull << b) - 1;
		m[w] |= x & ~((1ull << a) - 1);
	}
}

static int bit(const bmask m, unsigned b)
{
	return (m[b / 64] >> (b % 64)) & 1;
}

struct field {
	unsigned lo, hi;	/* bytes [lo, hi] */
	int contended;
	uint64_t loads, stores;
};

/* Scratch reused by every line (no allocation per line). */
struct work {
	struct sset set, set2;
	uint64_t *kacc;		/* per kind: count in this line */
	uint32_t *kgen, kg;
	uint32_t *klist;
	struct latc *ld, *hm;
	uint32_t *tix;		/* per record: thread index in the line */
	uint64_t *threads;	/* sorted thread keys */
	uint32_t *perm;
	bmask *w, *a;
	struct addrix *byaddr;	/* the lines by address (line_before()),
				 * only when accesses can cross a line end */
	struct spill *spill;	/* by line (spill_scan()) */
	size_t nspill;
};

struct addrix {
	uint64_t addr;
	size_t line;		/* index in c->lines */
};

/* A sample of a line without results that runs into a listed line. */
struct spill {
	uint64_t line;		/* address of the line it is on */
	uint64_t key;		/* thread key */
	uint64_t count;
	unsigned off;
};

static int cmp_addrix(const void *a, const void *b)
{
	const struct addrix *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void work_free(struct work *x)
{
	sset_free(&x->set);
	sset_free(&x->set2);
	free(x->kacc);
	free(x->kgen);
	free(x->klist);
	free(x->ld);
	free(x->hm);
	free(x->tix);
	free(x->threads);
	free(x->perm);
	free(x->w);
	free(x->a);
	free(x->byaddr);
	free(x->spill);
	/* a failed work_init() frees, then pebs_c2c_finish() frees again */
	memset(x, 0, sizeof(*x));
}

static int work_init(struct work *x, const struct pebs_c2c *c, size_t maxn)
{
	memset(x, 0, sizeof(*x));
	size_t nk = c->kinds.n ? c->kinds.n : 1, m = maxn ? maxn : 1;
	x->kacc = malloc(nk * sizeof(*x->kacc));
	x->kgen = calloc(nk, sizeof(*x->kgen));
	x->klist = malloc(nk * sizeof(*x->klist));
	x->ld = malloc(m * sizeof(*x->ld));
	x->hm = malloc(m * sizeof(*x->hm));
	x->tix = malloc(m * sizeof(*x->tix));
	x->threads = malloc(m * sizeof(*x->threads));
	x->perm = malloc(m * sizeof(*x->perm));
	x->w = malloc(m * sizeof(bmask));
	x->a = malloc(m * sizeof(bmask));
	if (!x->kacc || !x->kgen || !x->klist || !x->ld || !x->hm ||
	    !x->tix || !x->threads || !x->perm || !x->w || !x->a) {
		work_free(x);
		return -PEBS_E_NOMEM;
	}
	return 0;
}

struct vctx {
	uint64_t *threads;	/* sorted keys */
	size_t nt;
	bmask *w, *a;		/* per thread: written / accessed bytes */
	int pids;		/* threads of more than one process */
};

/*
 * The distinct threads of line @l, sorted by key, in x->threads[0..nt),
 * and each record's index among them in x->tix.  Returns nt or <0.
 */
static long line_threads(const struct pebs_c2c *c,
			 const struct c2c_line_int *l, struct work *x)
{
	const struct c2c_rec *r = c->recs + l->first;
	if (sset_begin(&x->set, l->n))
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < l->n; i++)
		x->tix[i] = sset_add(&x->set, r[i].thr, NULL);
	size_t nt = x->set.n;
	for (size_t t = 0; t < nt; t++)
		x->threads[t] = c->threads.keys[x->set.list[t]];
	qsort(x->threads, nt, sizeof(*x->threads), cmp_u64);
	/* insertion index -> sorted index */
	for (size_t t = 0; t < nt; t++) {
		uint64_t key = c->threads.keys[x->set.list[t]];
		x->perm[t] = (uint32_t)lower_u64(x->threads, nt, key);
	}
	for (size_t i = 0; i < l->n; i++)
		x->tix[i] = x->perm[x->tix[i]];
	return (long)nt;
}

/*
 * "tid 1, 2 and 3 more" for the threads with byte @b in mask set @m.  On a
 * line of several processes a tid alone is ambiguous, so there each thread
 * is named by (pid, tid), the order of the report's thread keys and
 * columns: "pid 100 tid 7, pid 200 tid 7" (no parentheses: the list is
 * inside some already).
 */
static void list_threads(struct sbuf *s, const struct vctx *v,
			 const bmask *m, const bmask *not, unsigned b)
{
	size_t shown = 0, more = 0;
	for (size_t t = 0; t < v->nt; t++) {
		if (!bit(m[t], b) || (not && bit(not[t], b)))
			continue;
		if (shown < 4 && v->pids)
			sb_printf(s, "%spid %" PRIu32 " tid %" PRIu32,
				  shown ? ", " : "",
				  (uint32_t)(v->threads[t] >> 32),
				  (uint32_t)v->threads[t]);
		else if (shown < 4)
			sb_printf(s, "%s%" PRIu32, shown ? ", " : "tid ",
				  (uint32_t)v->threads[t]);
		else
			more++;
		shown++;
	}
	if (more)
		sb_printf(s, " and %zu more", more);
}

static int has_any(const struct vctx *v, const bmask *m, const bmask *not,
		   unsigned b)
{
	for (size_t t = 0; t < v->nt; t++)
		if (bit(m[t], b) && !(not && bit(not[t], b)))
			return 1;
	return 0;
}

/* "0x20-0x27 (written by tid 1, read by tid 2)" */
static void field_desc(struct sbuf *s, const struct vctx *v,
		       const struct field *f)
{
	sb_printf(s, "0x%02x-0x%02x (", f->lo, f->hi);
	int w = has_any(v, v->w, NULL, f->lo);
	if (w) {
		sb_printf(s, "written by ");
		list_threads(s, v, v->w, NULL, f->lo);
	}
	if (has_any(v, v->a, v->w, f->lo)) {
		sb_printf(s, "%sread by ", w ? ", " : "");
		list_threads(s, v, v->a, v->w, f->lo);
	}
	sb_printf(s, ")");
}

/* The fields of group @g: "0x00-0x07 (...) and 0x20-0x27 (...)". */
static void group_desc(struct sbuf *s, const struct vctx *v,
		       const struct field *fields, size_t nf,
		       const size_t *grp, size_t g)
{
	size_t n = 0, k = 0;
	for (size_t f = 0; f < nf; f++)
		n += grp[f] == g;
	for (size_t f = 0; f < nf; f++) {
		if (grp[f] != g)
			continue;
		if (k == 4) {
			sb_printf(s, " and %zu more", n - 4);
			break;
		}
		sb_printf(s, "%s", !k ? "" : k + 1 == n ? " and " : ", ");
		field_desc(s, v, &fields[f]);
		k++;
	}
}

static int same_sig(const struct vctx *v, unsigned b1, unsigned b2)
{
	for (size_t t = 0; t < v->nt; t++)
		if (bit(v->w[t], b1) != bit(v->w[t], b2) ||
		    bit(v->a[t], b1) != bit(v->a[t], b2))
			return 0;
	return 1;
}

static int same_access(const struct vctx *v, unsigned b1, unsigned b2)
{
	for (size_t t = 0; t < v->nt; t++)
		if (bit(v->a[t], b1) != bit(v->a[t], b2))
			return 0;
	return 1;
}

/*
 * The groups of a line's fields: fields with the same accessing threads,
 * each group named by its first field (so a lower name starts first).
 * Per group, how many threads write it and access it, and one of each:
 * two groups need different lines when a thread writes one and another
 * thread uses the other (conflict()).
 */
struct groups {
	size_t grp[C2C_MAX_LINE];	/* per field: its group */
	size_t n;			/* groups */
	size_t written;			/* groups with a writer */
	size_t nwr[C2C_MAX_LINE], nacc[C2C_MAX_LINE];	/* per group */
	size_t wr1[C2C_MAX_LINE], acc1[C2C_MAX_LINE];	/* a thread of each */
	size_t seen[C2C_MAX_LINE];	/* last thread counted as writer + 1 */
	unsigned lo[C2C_MAX_LINE], hi[C2C_MAX_LINE];	/* first, last byte */
};

static void group_fields(struct groups *G, const struct vctx *v,
			 const struct field *fields, size_t nf)
{
	G->n = G->written = 0;
	for (size_t f = 0; f < nf; f++) {
		size_t g = 0;
		while (g < f && !same_access(v, fields[g].lo, fields[f].lo))
			g++;
		G->grp[f] = g == f ? f : G->grp[g];
		if (g == f) {
			G->n++;
			G->nwr[f] = G->nacc[f] = G->seen[f] = 0;
			G->lo[f] = fields[f].lo;
		}
		G->hi[G->grp[f]] = fields[f].hi;
	}
	for (size_t t = 0; t < v->nt; t++) {
		for (size_t f = 0; f < nf; f++) {
			size_t g = G->grp[f];
			/* all fields of a group have the same accessors */
			if (g == f && bit(v->a[t], fields[f].lo)) {
				G->acc1[g] = t;
				G->nacc[g]++;
			}
			/* count t once per group it writes */
			if (bit(v->w[t], fields[f].lo) && G->seen[g] != t + 1) {
				G->seen[g] = t + 1;
				G->wr1[g] = t;
				G->nwr[g]++;
			}
		}
	}
	for (size_t f = 0; f < nf; f++)
		G->written += G->grp[f] == f && G->nwr[f];
}

/*
 * Whether a thread writes group @g while another thread uses group @h, or
 * the other way round: then they belong on different lines.  The only
 * writer of one being the only user of the other is no conflict.
 */
static int writes_under(const struct groups *G, size_t g, size_t h)
{
	return G->nwr[g] && G->nacc[h] &&
	       !(G->nwr[g] == 1 && G->nacc[h] == 1 && G->wr1[g] == G->acc1[h]);
}

static int conflict(const struct groups *G, size_t g, size_t h)
{
	return g != h && (writes_under(G, g, h) || writes_under(G, h, g));
}

static uint64_t field_samples(const struct field *f)
{
	return f->stores + f->loads;
}

/*
 * Whether cutting the line before field @cut (fields [0, @cut) stay, the
 * others move to the next line) leaves no two conflicting groups on one
 * line.  A group with fields on both sides is on both lines.
 */
static int cut_separates(const struct groups *G, size_t nf, size_t cut)
{
	unsigned char side[C2C_MAX_LINE] = { 0 };	/* per group: 1, 2 */
	for (size_t f = 0; f < nf; f++)
		side[G->grp[f]] |= f < cut ? 1 : 2;
	for (size_t g = 0; g < nf; g++)
		for (size_t h = g + 1; side[g] && h < nf; h++)
			if ((side[g] & side[h]) && conflict(G, g, h))
				return 0;
	return 1;
}

/*
 * The fix for false sharing.  A is the field with the most samples among
 * those whose group is written and conflicts with another, B the field with
 * the most samples among the groups that conflict with A's; F is the one
 * of their groups that starts first, G the other.  One pad moves every
 * field after it to the next line, so it is advised only where the move
 * was checked to leave no two conflicting groups on either line: after the
 * last byte of the first field before the earliest cut between F's last
 * byte and G's first that does so.  Else (F and G interleave, or every cut
 * keeps a conflict, as when three written groups sit in a row) each group
 * goes on a line of its own.  Returns nonzero when out of memory.
 */
static int fix_false(struct sbuf *fix, const struct vctx *v,
		     const struct field *fields, size_t nf, unsigned L)
{
	struct groups *G = malloc(sizeof(*G));
	if (!G)
		return 1;
	group_fields(G, v, fields, nf);
	size_t fa = nf, fb = nf;
	for (size_t f = 0; f < nf; f++) {
		if (!G->nwr[G->grp[f]] || (fa < nf && field_samples(&fields[f])
					   <= field_samples(&fields[fa])))
			continue;
		for (size_t h = 0; h < nf; h++)
			if (conflict(G, G->grp[f], G->grp[h])) {
				fa = f;
				break;
			}
	}
	for (size_t f = 0; fa < nf && f < nf; f++)
		if (conflict(G, G->grp[fa], G->grp[f]) &&
		    (fb == nf || field_samples(&fields[f]) >
		     field_samples(&fields[fb])))
			fb = f;
	if (fb == nf) {
		free(G);
		return 0;
	}
	size_t g1 = G->grp[fa] < G->grp[fb] ? G->grp[fa] : G->grp[fb];
	size_t g2 = G->grp[fa] < G->grp[fb] ? G->grp[fb] : G->grp[fa];
	int apart = G->hi[g1] < G->lo[g2];
	size_t cut = nf;	/* the first field that moves */
	for (size_t f = 1; apart && f < nf && fields[f].lo <= G->lo[g2]; f++)
		if (fields[f].lo > G->hi[g1] && cut_separates(G, nf, f)) {
			cut = f;
			break;
		}
	sb_printf(fix, "move offset ");
	group_desc(fix, v, fields, nf, G->grp, g2);
	sb_printf(fix, " away from ");
	group_desc(fix, v, fields, nf, G->grp, g1);
	/*
	 * Two groups have different accessors, so any two written groups
	 * conflict; groups only read never conflict with each other, so they
	 * can share a line.
	 */
	size_t ro = G->n - G->written;
	unsigned pad = cut < nf ? L - fields[cut - 1].hi - 1 : 0;
	if (cut < nf && G->n == 2)
		sb_printf(fix, ": pad with %u byte%s after 0x%02x or align "
			  "each to %u", pad, pad == 1 ? "" : "s",
			  fields[cut - 1].hi, L);
	else if (cut < nf)
		sb_printf(fix, ": pad with %u byte%s after 0x%02x (the fields "
			  "after it move with it, and neither line keeps two "
			  "groups of fields that conflict)",
			  pad, pad == 1 ? "" : "s", fields[cut - 1].hi);
	else if (G->n == 2)
		sb_printf(fix, ": their fields interleave, so no one pad "
			  "separates them: put each group's fields next to "
			  "each other and align each group to %u", L);
	else if (!ro)
		sb_printf(fix, ": %s (%zu groups of fields, all written: "
			  "give each its own line, aligned to %u)",
			  apart ? "no one pad removes every conflict" :
			  "their fields interleave, so no one pad separates "
			  "them", G->n, L);
	else
		sb_printf(fix, ": %s (%zu groups of fields, %zu of them "
			  "written: give each written group its own line, "
			  "aligned to %u, and %s)",
			  apart ? "no one pad removes every conflict" :
			  "their fields interleave, so no one pad separates "
			  "them", G->n, G->written, L, ro == 1 ?
			  "the group only read one more" :
			  "the groups only read one line together");
	free(G);
	return 0;
}

/*
 * The samples of a line whose accesses, taken as @A bytes, run past its
 * end (cross_scan()).  A sample counts only on the line of its address,
 * clipped there, so the bytes past the end are judged on no line.
 */
struct cross {
	uint64_t n;		/* such samples */
	uint64_t nother;	/* of them, by threads not on the line judged */
	uint64_t thr;		/* a thread of them, one not on it if any */
	int member;		/* thr is one of the line's threads */
	int several;		/* more threads like thr */
	unsigned lo;		/* lowest offset of them */
	unsigned past;		/* most bytes past the line end */
};

/* Is thread key @k one of @v's (sorted) threads? */
static int vctx_has(const struct vctx *v, uint64_t k)
{
	size_t i = lower_u64(v->threads, v->nt, k);
	return i < v->nt && v->threads[i] == k;
}

/*
 * Adds @count samples of thread @key at offset @off that cross the line
 * end with accesses of @A bytes to @x (cleared, x->lo = L, before the
 * first).  Threads not among @v's are preferred as x->thr, as they are
 * what a line with one thread of its own did not see; among those the
 * lowest key, so that the text does not depend on the order the samples
 * come in (merged parts give the text of the whole).
 */
static void cross_add(struct cross *x, const struct vctx *v, uint64_t key,
		      unsigned off, uint64_t count, unsigned A, unsigned L)
{
	int in = vctx_has(v, key), had = x->lo < L;	/* off < L */
	x->n += count;
	if (!in)
		x->nother += count;
	if (off < x->lo)
		x->lo = off;
	if (off + A - L > x->past)
		x->past = off + A - L;
	if (!had || (x->member && !in)) {
		/* a first thread, or the first one not on the line */
		x->thr = key;
		x->member = in;
		x->several = 0;
	} else if (key != x->thr && in == x->member) {
		x->several = 1;
		if (key < x->thr)
			x->thr = key;
	}
}

/*
 * The samples of line @l that cross its end with accesses of @A bytes,
 * into @x.
 */
static void cross_scan(const struct pebs_c2c *c, const struct c2c_line_int *l,
		       unsigned A, const struct vctx *v, struct cross *x)
{
	const unsigned L = c->o.line_size;
	const struct c2c_rec *rec = c->recs + l->first;
	memset(x, 0, sizeof(*x));
	x->lo = L;
	for (size_t i = 0; i < l->n; i++)
		if (rec[i].off + A > L)
			cross_add(x, v, c->threads.keys[rec[i].thr],
				  rec[i].off, rec[i].count, A, L);
}

static int cmp_spill(const void *a, const void *b)
{
	const struct spill *x = a, *y = b;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The line at address @addr, or NULL (not sampled, or no results: no
 * HITM without --show-all). */
static const struct c2c_line_int *line_at(const struct pebs_c2c *c,
					  const struct work *x, uint64_t addr)
{
	if (!x->byaddr)
		return NULL;
	/* addresses are unique: an exact match, by the sort's comparison */
	struct addrix want = { addr, 0 };
	const struct addrix *f = bsearch(&want, x->byaddr, c->nlines,
					 sizeof(*x->byaddr), cmp_addrix);
	return f ? &c->lines[f->line] : NULL;
}

/* The line at address @addr - line size, or NULL (as line_at()). */
static const struct c2c_line_int *line_before(const struct pebs_c2c *c,
					      const struct work *x,
					      uint64_t addr)
{
	return addr < c->o.line_size ? NULL :
	       line_at(c, x, addr - c->o.line_size);
}

/*
 * The samples that run, as accesses of --access-size bytes, from a line
 * without results into a listed line, into x->spill sorted by line, so
 * that the listed line's texts say what runs into it (cross_before())
 * though the line they start on is not in the report.  A pass over every
 * sample, made only when a listed line has no line with results before
 * it.  0 or -PEBS_E_NOMEM.
 */
static int spill_scan(const struct pebs_c2c *c, struct work *x)
{
	const unsigned L = c->o.line_size, A = c->o.access_size;
	const uint64_t lmask = L - 1;
	size_t cap = 0;
	int need = 0;
	for (size_t i = 0; i < c->nlines && !need; i++) {
		uint64_t a = c->lines[i].pub.addr;
		need = c->lines[i].listed && a >= L && !line_before(c, x, a);
	}
	for (size_t b = 0; need && c->bk && b < (size_t)1 << C2C_BUCKET_BITS;
	     b++) {
		C2C_BUCKET_CELLS(c, b, q, {
			uint64_t addr = c->ls[q].addr, la = addr & ~lmask;
			const struct c2c_line_int *nx;
			if ((addr & lmask) + A <= L || la > UINT64_MAX - L ||
			    line_at(c, x, la) ||
			    !(nx = line_at(c, x, la + L)) || !nx->listed)
				continue;
			if (x->nspill == cap) {
				size_t nc = cap ? 2 * cap : 64;
				struct spill *p = realloc(x->spill,
							  nc * sizeof(*p));
				if (!p)
					return -PEBS_E_NOMEM;
				x->spill = p;
				cap = nc;
			}
			x->spill[x->nspill++] = (struct spill){
				la, c->threads.keys[c->ls[q].thr],
				c2c_count(c, q), (unsigned)(addr & lmask) };
		});
	}
	if (x->nspill)
		qsort(x->spill, x->nspill, sizeof(*x->spill), cmp_spill);
	return 0;
}

/*
 * The samples of the line before line @addr that run into it with
 * accesses of @A bytes, into @x: from its records when it has results,
 * else from x->spill (spill_scan()).  So a line says what runs into it
 * whether or not the line they start on is in the report.
 */
static void cross_before(const struct pebs_c2c *c, const struct work *w,
			 uint64_t addr, unsigned A, const struct vctx *v,
			 struct cross *x)
{
	const unsigned L = c->o.line_size;
	const struct c2c_line_int *before = line_before(c, w, addr);
	memset(x, 0, sizeof(*x));
	x->lo = L;
	if (before) {
		cross_scan(c, before, A, v, x);
		return;
	}
	if (!w->nspill || addr < L)
		return;
	struct spill want = { addr - L, 0, 0, 0 };
	const struct spill *s = bsearch(&want, w->spill, w->nspill,
					sizeof(*w->spill), cmp_spill);
	if (!s)
		return;
	/* bsearch finds any of the run: back to its first */
	while (s > w->spill && s[-1].line == want.line)
		s--;
	for (; s < w->spill + w->nspill && s->line == want.line; s++)
		cross_add(x, v, s->key, s->off, s->count, A, L);
}

/* "tid 7", or "pid 200 tid 7" when @k's process is not @pid's. */
static void thread_name(struct sbuf *s, uint64_t k, uint32_t pid)
{
	if ((uint32_t)(k >> 32) != pid)
		sb_printf(s, "pid %" PRIu32 " ", (uint32_t)(k >> 32));
	sb_printf(s, "tid %" PRIu32, (uint32_t)k);
}

/*
 * The share @s of @n against @pct percent: <0, 0 or >0 as s / n is below,
 * at or above it.  Counts may reach C2C_MAX_SAMPLES (2^60), so the
 * products are taken in 128 bits: in 64 they wrap above about 1.8e17.
 */
static int share_cmp(uint64_t s, uint64_t n, unsigned pct)
{
	unsigned __int128 a = (unsigned __int128)s * 100;
	unsigned __int128 b = (unsigned __int128)n * pct;
	return a < b ? -1 : a > b;
}

/*
 * @s of @n (s <= n, n > 0) in whole percent, to nearest (a half to even,
 * as printf's %.0f).  The verdict compares exact shares with @pct and
 * 100 - @pct, so a share that is not exactly one of them is never printed
 * as it: it goes to the next whole percent on its side (20.5% where 20%
 * decides prints as 21%), and the printed shares explain the verdict.
 * The two thresholds are at least 2 apart, so that step meets neither.
 */
static unsigned share_pct(uint64_t s, uint64_t n, unsigned pct)
{
	/* counts may reach C2C_MAX_SAMPLES (2^60): times 100 in 128 bits */
	typedef unsigned __int128 u128;
	u128 s100 = (u128)s * 100;
	uint64_t r = (uint64_t)(s100 / n), rem = (uint64_t)(s100 % n);
	if (rem > n - rem || (rem == n - rem && (r & 1)))
		r++;
	const unsigned th[2] = { pct, 100 - pct };
	for (int i = 0; i < 2; i++) {
		int side = share_cmp(s, n, th[i]);
		if (r == th[i] && side)
			r = side > 0 ? r + 1 : r - 1;
	}
	return (unsigned)r;
}

/*
 * Decides the verdict of line @l; with @text also its reason, evidence and
 * fix (kept for listed lines only: they cost time and memory).
 */
static int verdict(const struct pebs_c2c *c, struct c2c_line_int *l,
		   struct work *x, int text)
{
	const unsigned L = c->o.line_size;
	const struct c2c_rec *rec = c->recs + l->first;
	unsigned A = c->o.access_size;
	if (!A) {
		/*
		 * PEBS does not record the size of an access; accesses are
		 * aligned to their size, so the alignment of the offsets
		 * bounds it: 4-byte counters 4 bytes apart do not overlap.
		 */
		unsigned any = 0;
		for (size_t i = 0; i < l->n; i++)
			any |= rec[i].off;
		A = any & (0u - any);
		if (!A || A > 8)
			A = 8;
	}
	struct pebs_c2c_line *p = &l->pub;
	struct sbuf why = { 0 }, ev = { 0 }, fix = { 0 };
	struct field fields[C2C_MAX_LINE];
	int rc = -PEBS_E_NOMEM;

	long ntl = line_threads(c, l, x);
	if (ntl < 0)
		return (int)ntl;
	struct vctx v = { x->threads, (size_t)ntl, x->w, x->a, 0 };
	/* threads are sorted by (pid, tid): the first and last pid differ */
	v.pids = ntl > 1 &&
		 (x->threads[0] >> 32) != (x->threads[ntl - 1] >> 32);
	memset(v.w, 0, v.nt * sizeof(bmask));
	memset(v.a, 0, v.nt * sizeof(bmask));
	uint64_t offld[C2C_MAX_LINE], offst[C2C_MAX_LINE];
	memset(offld, 0, L * sizeof(*offld));
	memset(offst, 0, L * sizeof(*offst));

	uint64_t N = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_rec *k = &rec[i];
		size_t t = x->tix[i];
		unsigned off = k->off;
		unsigned hi = off + A < L ? off + A : L;
		mask_or_range(v.a[t], off, hi);
		if (k->cls & PEBS_C2C_STORE) {
			mask_or_range(v.w[t], off, hi);
			offst[off] += k->count;
		} else {
			offld[off] += k->count;
		}
		N += k->count;
	}
	/*
	 * Accesses that cross a line end (only a given --access-size can
	 * make them: auto sizes divide their offsets): this line's run past
	 * its end, the line before's run into it.  Each counts, clipped, on
	 * the line of its address only.
	 */
	struct cross out = { 0 }, in = { 0 };
	if (text && c->o.access_size) {
		cross_scan(c, l, A, &v, &out);
		cross_before(c, x, p->addr, A, &v, &in);
	}
	unsigned nw[C2C_MAX_LINE] = { 0 }, na[C2C_MAX_LINE] = { 0 };
	size_t writers = 0;
	for (size_t t = 0; t < v.nt; t++) {
		int any = 0;
		for (unsigned b = 0; b < L; b++) {
			nw[b] += (unsigned)bit(v.w[t], b);
			na[b] += (unsigned)bit(v.a[t], b);
		}
		for (unsigned w = 0; w < C2C_MASK_WORDS; w++)
			any |= v.w[t][w] != 0;
		writers += (size_t)any;
	}
	bmask cont;
	memset(cont, 0, sizeof(cont));
	for (unsigned b = 0; b < L; b++)
		if (nw[b] >= 2 || (nw[b] == 1 && na[b] >= 2))
			cont[b / 64] |= 1ull << (b % 64);

	/*
	 * Each sample is "true" when its bytes include a contended byte, and
	 * "false" when a thread that uses none of its bytes writes the line
	 * (or, for a store, uses the line): both can hold.  The answer
	 * depends only on (offset, load or store): computed once per pair.
	 */
	unsigned char memo[2 * C2C_MAX_LINE];	/* 0 unknown, 1+tr+2*fl */
	memset(memo, 0, 2 * L);
	uint64_t s_true = 0, s_false = 0, s_any = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_rec *k = &rec[i];
		unsigned off = k->off;
		int st = (k->cls & PEBS_C2C_STORE) != 0;
		unsigned char *mo = &memo[2 * off + (unsigned)st];
		if (!*mo) {
			unsigned hi = off + A < L ? off + A : L;
			bmask m;
			memset(m, 0, sizeof(m));
			mask_or_range(m, off, hi);
			int tr = 0, fl = 0;
			for (unsigned w = 0; w < C2C_MASK_WORDS; w++)
				tr |= (m[w] & cont[w]) != 0;
			for (size_t t = 0; t < v.nt && !fl; t++) {
				int touches = 0, wr = 0, any = 0;
				for (unsigned w = 0; w < C2C_MASK_WORDS; w++) {
					touches |= (v.a[t][w] & m[w]) != 0;
					wr |= v.w[t][w] != 0;
					any |= v.a[t][w] != 0;
				}
				fl = !touches && (wr || (st && any));
			}
			*mo = (unsigned char)(1 + tr + 2 * fl);
		}
		int tr = (*mo - 1) & 1, fl = (*mo - 1) >> 1;
		if (tr)
			s_true += k->count;
		if (fl)
			s_false += k->count;
		if (tr || fl)
			s_any += k->count;
	}

	/* Fields: runs of bytes with the same (accessors, writers). */
	size_t nf = 0;
	for (unsigned b = 0; text && b < L; b++) {
		if (!na[b])
			continue;
		if (nf && fields[nf - 1].hi == b - 1 &&
		    same_sig(&v, fields[nf - 1].lo, b)) {
			fields[nf - 1].hi = b;
		} else {
			struct field *f = &fields[nf++];
			memset(f, 0, sizeof(*f));
			f->lo = f->hi = b;
			f->contended = bit(cont, b);
		}
		fields[nf - 1].loads += offld[b];
		fields[nf - 1].stores += offst[b];
	}
	for (size_t f = 0; f < nf; f++) {
		const struct field *fx = &fields[f];
		if (f == 8) {
			sb_printf(&ev, "; and %zu more field%s", nf - 8,
				  nf - 8 == 1 ? "" : "s");
			break;
		}
		sb_printf(&ev, "%s", f ? "; " : "");
		field_desc(&ev, &v, fx);
		sb_printf(&ev, ": %" PRIu64 " stores, %" PRIu64 " loads%s",
			  fx->stores, fx->loads,
			  fx->contended ? ", shared" : "");
	}
	/* the last line of the address space has no line after it: its
	 * end + L wrapped to 0, shown as "line 0x0" */
	int top = p->addr > UINT64_MAX - L;
	if (out.n) {
		sb_printf(&ev, "; %" PRIu64 " sample%s (%u-byte accesses from "
			  "0x%02x) run%s up to %u byte%s past the line end ",
			  out.n, out.n == 1 ? "" : "s", A, out.lo,
			  out.n == 1 ? "s" : "", out.past,
			  out.past == 1 ? "" : "s");
		if (top)
			sb_printf(&ev, "and the end of the address space");
		else
			sb_printf(&ev, "into line 0x%" PRIx64, p->addr + L);
		sb_printf(&ev, ": %s here up to 0x%02x, and on no line past "
			  "it", out.n == 1 ? "it counts" : "they count", L - 1);
	}
	if (in.n)
		sb_printf(&ev, "; %" PRIu64 " sample%s of line 0x%" PRIx64
			  " run%s into 0x00-0x%02x of this one: %s counted "
			  "there, clipped, not here", in.n,
			  in.n == 1 ? "" : "s", p->addr - L,
			  in.n == 1 ? "s" : "", in.past - 1,
			  in.n == 1 ? "it is" : "they are");

	/* The decision. */
	uint64_t both = s_any;
	unsigned pct = c->o.verdict_pct;
	if (N < c->o.min_samples) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "%" PRIu64 " sample%s on this line; a verdict "
			  "needs at least %u", N, N == 1 ? "" : "s",
			  c->o.min_samples);
	} else if (v.nt < 2) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "%s %" PRIu64 " sample%s from one thread "
			  "(tid %" PRIu32 ")", N == 1 ? "the" : "all", N,
			  N == 1 ? " comes" : "s come",
			  (uint32_t)v.threads[0]);
		/* the other side may have been sampled across a line end */
		if (in.nother) {
			sb_printf(&why, ", but %" PRIu64 " sample%s of ",
				  in.nother, in.nother == 1 ? "" : "s");
			thread_name(&why, in.thr, (uint32_t)(v.threads[0] >>
							     32));
			sb_printf(&why, "%s on the line before (0x%" PRIx64
				  ") %s %u-byte accesses that run into "
				  "0x00-0x%02x of this one: a sample counts "
				  "only on the line of its address, clipped "
				  "at its end, so sharing across the line end "
				  "is judged on neither line",
				  in.several ? " and other threads" : "",
				  p->addr - L, in.nother == 1 ? "is an" :
				  "are", A, in.past - 1);
		} else if (out.n) {
			sb_printf(&why, "; %" PRIu64 " of them %s %u-byte "
				  "access%s from 0x%02x that run%s up to %u "
				  "byte%s ", out.n, out.n == 1 ? "is a" : "are",
				  A, out.n == 1 ? "" : "es", out.lo,
				  out.n == 1 ? "s" : "", out.past,
				  out.past == 1 ? "" : "s");
			if (top)
				sb_printf(&why, "past the end of the address "
					  "space, counted only up to 0x%02x "
					  "here: no line is past it", L - 1);
			else
				sb_printf(&why, "into the next line (0x%"
					  PRIx64 "), counted only up to "
					  "0x%02x here: sharing with a thread "
					  "that uses those bytes is judged on "
					  "neither line", p->addr + L, L - 1);
		} else {
			sb_printf(&why, ": the other side of the sharing "
				  "was not sampled");
		}
	} else if (!writers && !(p->st.lcl_hitm + p->st.rmt_hitm)) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "only loads were sampled on this line (%"
			  PRIu64 " by %zu threads) and none hit a modified "
			  "line: read sharing, no conflict", N, v.nt);
	} else if (!writers && c->totals.store > c->totals.st_noadrs) {
		/* a HITM says someone wrote the line: its stores are rare */
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "no store to this line was sampled (%" PRIu64
			  " loads by %zu threads), though stores to other "
			  "lines were: sample stores more often (a lower "
			  "precise-store period) to tell false from true "
			  "sharing", N, v.nt);
	} else if (!writers && c->totals.store) {
		/*
		 * Stores were sampled, but a store without an address is on
		 * no line: more of them would not help, an address would.
		 */
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "no store to this line was sampled (%" PRIu64
			  " loads by %zu threads), and no sampled store has a "
			  "data address (%" PRIu64 " without, see --stats), so "
			  "none is on a line: record stores with their address "
			  "(a store event whose records carry one, see "
			  "pebs-c2c(1)) to tell false from true sharing", N,
			  v.nt, c->totals.st_noadrs);
	} else if (!writers) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "no store to this line was sampled (%" PRIu64
			  " loads by %zu threads); record stores too "
			  "(precise-store) to tell false from true sharing",
			  N, v.nt);
	} else if (!both) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "no sampled access meets another thread's "
			  "store on this line");
	} else if (share_cmp(s_false, both, pct) >= 0 &&
		   share_cmp(s_true, both, 100 - pct) <= 0) {
		p->verdict = PEBS_C2C_V_FALSE;
	} else if (share_cmp(s_true, both, pct) >= 0 &&
		   share_cmp(s_false, both, 100 - pct) <= 0) {
		p->verdict = PEBS_C2C_V_TRUE;
	} else {
		p->verdict = PEBS_C2C_V_MIXED;
	}
	if (p->verdict != PEBS_C2C_V_UNKNOWN && text)
		sb_printf(&why, "of %" PRIu64 " samples in contention, %"
			  PRIu64 " (%u%%) touch bytes that another thread "
			  "also uses, with a store (true sharing), and %"
			  PRIu64 " (%u%%) share the line with a thread that "
			  "writes other bytes of it (false sharing); "
			  "%u%% decides", both,
			  s_true, share_pct(s_true, both, pct),
			  s_false, share_pct(s_false, both, pct),
			  pct);
	if (p->verdict != PEBS_C2C_V_UNKNOWN && text && !c->o.access_size &&
	    A < 8)
		sb_printf(&why, "; each access taken as %u byte%s (the "
			  "alignment of the offsets; --access-size sets it)",
			  A, A == 1 ? "" : "s");

	/* The fix. */
	int want_false = text && (p->verdict == PEBS_C2C_V_FALSE ||
				  p->verdict == PEBS_C2C_V_MIXED);
	int want_true = text && (p->verdict == PEBS_C2C_V_TRUE ||
				 p->verdict == PEBS_C2C_V_MIXED);
	if (want_false && fix_false(&fix, &v, fields, nf, L))
		goto out;
	if (want_true) {
		size_t fc = nf;
		for (size_t f = 0; f < nf; f++)
			if (fields[f].contended &&
			    (fc == nf || fields[f].stores + fields[f].loads >
			     fields[fc].stores + fields[fc].loads))
				fc = f;
		if (fc < nf) {
			sb_printf(&fix, "%s", fix.len ? "; then: " : "");
			sb_printf(&fix, "offset ");
			field_desc(&fix, &v, &fields[fc]);
			sb_printf(&fix, " is the same data used by several "
				  "threads, so padding cannot help: give each "
				  "thread its own copy (per-thread or per-CPU, "
				  "combined when read) or write it less often");
		}
	}
	if (why.oom || ev.oom || fix.oom)
		goto out;
	if (!text) {
		rc = 0;
		goto out;
	}
	l->why = sb_take(&why);
	l->evidence = sb_take(&ev);
	l->fix = sb_take(&fix);
	why.p = ev.p = fix.p = NULL;
	if (!l->why || !l->evidence || !l->fix)
		goto out;
	rc = 0;
out:
	free(why.p);
	free(ev.p);
	free(fix.p);
	return rc;
}

/* ------------------------------------------------------ line statistics */

static int line_stats(struct pebs_c2c *c, struct c2c_line_int *l,
		      struct work *x)
{
	struct pebs_c2c_line *p = &l->pub;
	const struct c2c_rec *rec = c->recs + l->first;
	size_t nld = 0, nhm = 0, nk = 0;
	uint64_t ldsum = 0, hmsum = 0, lcls = 0, lcln = 0, rmts = 0, rmtn = 0;
	uint64_t oths = 0, othn = 0;
	if (++x->kg == 0) {
		memset(x->kgen, 0, c->kinds.n * sizeof(*x->kgen));
		x->kg = 1;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_rec *k = &rec[i];
		if (x->kgen[k->kind] != x->kg) {
			x->kgen[k->kind] = x->kg;
			x->kacc[k->kind] = 0;
			x->klist[nk++] = k->kind;
		}
		x->kacc[k->kind] += k->count;
		if (!(k->cls & PEBS_C2C_LOAD))
			continue;
		uint64_t w = (uint64_t)k->lat * k->count;
		x->ld[nld++] = (struct latc){ k->lat, k->count };
		p->nloads += k->count;
		ldsum += w;
		int lh = (k->cls & PEBS_C2C_LCL_HITM) != 0;
		int rh = (k->cls & PEBS_C2C_RMT_HITM) != 0;
		if (lh || rh) {
			x->hm[nhm++] = (struct latc){ k->lat, k->count };
			p->nhitm += k->count;
			hmsum += w;
		}
		/* perf's compute_stats: remote HITM, else local, else load */
		if (rh) {
			rmts += w;
			rmtn += k->count;
		} else if (lh) {
			lcls += w;
			lcln += k->count;
		} else {
			oths += w;
			othn += k->count;
		}
		if ((rh && c->o.display != PEBS_C2C_D_LCL) ||
		    (lh && !rh && c->o.display != PEBS_C2C_D_RMT))
			p->hitm_cycles += w;
	}
	/* the counters are linear in the count: one call per data source */
	for (size_t i = 0; i < nk; i++)
		pebs_c2c_classify(&p->st, c->kinds.keys[x->klist[i]], 1,
				  x->kacc[x->klist[i]], c->o.perf_compat);
	p->lat_mean = p->nloads ? (double)ldsum / (double)p->nloads : 0;
	p->lat_p50 = pctl(x->ld, nld, p->nloads, 50);
	p->lat_p99 = pctl(x->ld, nld, p->nloads, 99);
	p->hitm_mean = p->nhitm ? (double)hmsum / (double)p->nhitm : 0;
	p->hitm_p50 = pctl(x->hm, nhm, p->nhitm, 50);
	p->hitm_p99 = pctl(x->hm, nhm, p->nhitm, 99);
	p->lcl_hitm_cyc = lcln ? (double)lcls / (double)lcln : 0;
	p->rmt_hitm_cyc = rmtn ? (double)rmts / (double)rmtn : 0;
	p->ld_cyc = othn ? (double)oths / (double)othn : 0;
	p->sort_hitm = c->o.display == PEBS_C2C_D_LCL ? p->st.lcl_hitm :
		       c->o.display == PEBS_C2C_D_RMT ? p->st.rmt_hitm :
		       p->st.tot_hitm;

	/* distinct threads, processes, CPUs, nodes */
	if (sset_begin(&x->set, l->n) || sset_begin(&x->set2, l->n))
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < l->n; i++) {
		sset_add(&x->set, rec[i].thr, NULL);
		sset_add(&x->set2, rec[i].cpu, NULL);
	}
	p->nthreads = (uint32_t)x->set.n;
	size_t nc = x->set2.n;
	p->ncpus = (uint32_t)nc;
	for (size_t t = 0; t < x->set.n; t++)
		x->threads[t] = c->threads.keys[x->set.list[t]] >> 32;
	size_t nt = x->set.n, np = 0;
	if (sset_begin(&x->set, nt > nc ? nt : nc))
		return -PEBS_E_NOMEM;
	for (size_t t = 0; t < nt; t++)
		sset_add(&x->set, x->threads[t], NULL);
	np = x->set.n;
	p->npids = (uint32_t)np;
	if (!c->topo.nnodes) {
		p->nnodes = -1;
	} else {
		if (sset_begin(&x->set, nc))
			return -PEBS_E_NOMEM;
		/* a cpu outside the topology is no node (as in perf) */
		for (size_t i = 0; i < nc; i++) {
			int nd = c2c_node_of(c, (uint32_t)x->set2.list[i]);
			if (nd >= 0)
				sset_add(&x->set, (uint64_t)nd, NULL);
		}
		p->nnodes = (int)x->set.n;
	}
	return 0;
}

/* A rank: three counts, the larger first, then a tie-break, the smaller
 * first (lines: cycles lost, HITM, records, address; heat map threads:
 * see c2c_line_heat()). */
struct rankkey {
	uint64_t most[3], tie;
	uint32_t at;		/* what is ranked: its index */
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rankkey *x = a, *y = b;
	for (int i = 0; i < 3; i++)
		if (x->most[i] != y->most[i])
			return x->most[i] > y->most[i] ? -1 : 1;
	return x->tie < y->tie ? -1 : x->tie > y->tie;
}

static void fill_rec(const struct pebs_c2c *c, struct c2c_rec *rc,
		     size_t q, uint32_t lmask)
{
	const struct c2c_ls *x = &c->ls[q];
	rc->ip = x->ip;
	rc->thr = x->thr;
	rc->cpu = x->cpu;
	rc->lat = x->lat;
	rc->kind = x->kind;
	rc->count = c2c_count(c, q);
	rc->off = (uint16_t)(x->addr & lmask);
	rc->cls = (uint16_t)c->kcls[x->kind];
}

/* A line within one bucket (collect_lines). */
struct bline {
	uint64_t line;
	uint32_t n, at;		/* samples; next record slot */
	int hitm, shared;
};

/*
 * Counts the distinct lines and gathers the records of the lines that get
 * results, grouped by line, bucket by bucket (the cells were partitioned
 * by a hash of their line as they came): each bucket's lines are found
 * with a small hash table that stays in cache, and the records filled
 * from its cells in order.  The report does not depend on the order lines
 * are found in (it is ranked afterwards, ties broken by address).  0 or
 * -PEBS_E_NOMEM.
 */
static int collect_lines(struct pebs_c2c *c, uint64_t *shk,
			 uint64_t **shl)
{
	size_t nb = c->bk ? (size_t)1 << C2C_BUCKET_BITS : 0, maxb = 1;
	uint32_t *tab = NULL, *lid = NULL;
	size_t capshl = 0;
	struct bline *bl = NULL;
	size_t tcap = 0, caplines = 0, caprecs = 0;
	const uint32_t lmask = c->o.line_size - 1;
	const unsigned hitm = PEBS_C2C_LCL_HITM | PEBS_C2C_RMT_HITM;
	int r = -PEBS_E_NOMEM;
	for (size_t b = 0; b < nb; b++)
		if (c->bk[b].n > maxb)
			maxb = c->bk[b].n;
	lid = malloc(maxb * sizeof(*lid));
	bl = malloc(maxb * sizeof(*bl));
	if (!lid || !bl)
		goto out;
	/*
	 * Per bucket: its lines (table of line ids), which get results, and
	 * their records.  Lines and records are appended as found; the
	 * arrays grow with the results only.
	 */
	for (size_t b = 0; b < nb; b++) {
		size_t m = c->bk[b].n, nl = 0, x = 0;
		if (!m)
			continue;
		size_t need = 16;
		while (need < 2 * m)
			need *= 2;
		if (need > tcap) {
			free(tab);
			tab = malloc(need * sizeof(*tab));
			if (!tab)
				goto out;
			tcap = need;
		}
		memset(tab, 0xff, need * sizeof(*tab));
		C2C_BUCKET_CELLS(c, b, q, {
			uint64_t line = c->ls[q].addr >> c->line_shift;
			size_t h = (size_t)((line * 0xc2b2ae3d27d4eb4full) >>
					    32) & (need - 1);
			while (tab[h] != UINT32_MAX && bl[tab[h]].line != line)
				h = (h + 1) & (need - 1);
			if (tab[h] == UINT32_MAX) {
				tab[h] = (uint32_t)nl;
				bl[nl++] = (struct bline){ line, 0, 0, 0, 0 };
			}
			struct bline *ln = &bl[tab[h]];
			unsigned cls = c->kcls[c->ls[q].kind];
			ln->n++;
			ln->hitm |= (cls & hitm) != 0;
			ln->shared |= (cls & C2C_SHARED_CLS) != 0;
			lid[x++] = tab[h];
		});
		c->nsampled += nl;
		size_t addl = 0, addr = 0, nsh = 0;
		for (size_t k = 0; k < nl; k++) {
			if (c->o.show_all || bl[k].hitm) {
				addl++;
				addr += bl[k].n;
			}
			if (!bl[k].shared)
				continue;
			nsh++;
			/* their numbers, for the samples of c->xs */
			if (!c->nxs)
				continue;
			if (c->nshared + nsh > capshl) {
				size_t nc = capshl ? 2 * capshl : 64;
				uint64_t *p = realloc(*shl, nc * sizeof(*p));
				if (!p)
					goto out;
				*shl = p;
				capshl = nc;
			}
			(*shl)[c->nshared + nsh - 1] = bl[k].line;
		}
		c->nshared += nsh;
		if (!addl && !nsh)
			continue;
		if (c->nlines + addl > caplines) {
			size_t nc = caplines ? caplines : 64;
			while (nc < c->nlines + addl)
				nc *= 2;
			struct c2c_line_int *nl2 = lib_big_realloc(c->lines,
							nc * sizeof(*nl2));
			if (!nl2)
				goto out;
			c->lines = nl2;
			caplines = nc;
		}
		if (c->nrecs + addr > caprecs) {
			size_t nc = caprecs ? caprecs : 1024;
			while (nc < c->nrecs + addr)
				nc *= 2;
			struct c2c_rec *nr = lib_big_realloc(c->recs,
						nc * sizeof(*nr));
			if (!nr)
				goto out;
			c->recs = nr;
			caprecs = nc;
		}
		for (size_t k = 0; k < nl; k++) {
			if (!c->o.show_all && !bl[k].hitm) {
				bl[k].at = UINT32_MAX;
				continue;
			}
			struct c2c_line_int *l = &c->lines[c->nlines++];
			memset(l, 0, sizeof(*l));
			l->pub.addr = bl[k].line << c->line_shift;
			l->first = c->nrecs;
			l->n = bl[k].n;
			bl[k].at = (uint32_t)c->nrecs;
			c->nrecs += bl[k].n;
		}
		x = 0;
		C2C_BUCKET_CELLS(c, b, q, {
			struct bline *ln = &bl[lid[x++]];
			if (ln->shared)
				shk[c->ls[q].kind] += c2c_count(c, q);
			if (ln->at != UINT32_MAX)
				fill_rec(c, &c->recs[ln->at++], q, lmask);
		});
	}
	if (!c->lines && !(c->lines = lib_big_realloc(NULL,
						       sizeof(*c->lines))))
		goto out;
	if (!c->recs && !(c->recs = lib_big_realloc(NULL, sizeof(*c->recs))))
		goto out;
	r = 0;
out:
	free(tab);
	free(lid);
	free(bl);
	return r;
}

/*
 * Lists @l's verdict strings in c->texts (they are freed through the
 * lines; the list is for LeakSanitizer).  0 or -PEBS_E_NOMEM.
 */
static int keep_texts(struct pebs_c2c *c, const struct c2c_line_int *l)
{
	if (c->ntexts + 3 > c->textcap) {
		size_t nc = c->textcap ? c->textcap * 2 : 192;
		char **t = realloc(c->texts, nc * sizeof(*t));
		if (!t)
			return -PEBS_E_NOMEM;
		c->texts = t;
		c->textcap = nc;
	}
	c->texts[c->ntexts++] = l->why;
	c->texts[c->ntexts++] = l->evidence;
	c->texts[c->ntexts++] = l->fix;
	return 0;
}

static int cmp_u64v(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * collect_lines(), and perf's "Global Shared Cache Line" table: the lines
 * with a HITM or a peer hit (perf 6.1 resort_shared_cl_cb) and every
 * sample perf files under them.  perf files every sample under the line
 * of its address: the loads and stores (the cells), the locked or blocked
 * samples that are neither (c->xs) and, only with perf_compat, every
 * sample without an address under line 0 (pebs-c2c(1), DIFFERENCES FROM
 * PERF).  0 or -PEBS_E_NOMEM.
 */
static int shared_lines(struct pebs_c2c *c)
{
	uint64_t *shk = calloc(c->nkinds ? c->nkinds : 1, sizeof(*shk));
	uint64_t *shl = NULL;
	int r = -PEBS_E_NOMEM;
	if (!shk || collect_lines(c, shk, &shl))
		goto out;
	/* the counters are linear in the count: one call per data source */
	for (size_t k = 0; k < c->nkinds; k++)
		if (shk[k])
			pebs_c2c_classify(&c->shared, c->kinds.keys[k], 1,
					  shk[k], c->o.perf_compat);
	if (c->nxs && c->nshared) {	/* shl is NULL without shared lines */
		qsort(shl, c->nshared, sizeof(*shl), cmp_u64v);
		for (size_t i = 0; i < c->nxs; i++) {
			uint64_t ln = c->xs[i].addr >> c->line_shift;
			if (bsearch(&ln, shl, c->nshared, sizeof(*shl),
				    cmp_u64v))
				pebs_c2c_classify(&c->shared,
						  c->kinds.keys[c->xs[i].kind],
						  c->xs[i].addr, c->xs[i].count,
						  c->o.perf_compat);
		}
	}
	if (c->o.perf_compat && c->nshared && c->bk) {
		/* is line 0 shared?  Its cells are all in one bucket */
		int zero = 0;
		C2C_BUCKET_CELLS(c, 0, q, {
			if (!(c->ls[q].addr >> c->line_shift) &&
			    (c->kcls[c->ls[q].kind] & C2C_SHARED_CLS))
				zero = 1;
		});
		for (size_t k = 0; zero && k < c->nkinds; k++)
			if (c->other[2 * k])
				pebs_c2c_classify(&c->shared, c->kinds.keys[k],
						  0, c->other[2 * k], 1);
	}
	r = 0;
out:
	free(shk);
	free(shl);
	return r;
}

/*
 * With perf_compat, the samples without an address on line 0's own
 * counters, as perf 6.1 files them (its per-line c2c_add_stats takes every
 * sample of the line): they add to its loads, stores, locked and blocked
 * counts and their "no address" counters, never to a level, a HITM, the
 * records or the loads of perf's table (total_loads, total_records).  Only
 * when line 0 has results (its loads or stores with an address put it
 * there); default mode puts them on no line (pebs-c2c(1)).
 */
static void line0_noaddr(struct pebs_c2c *c)
{
	for (size_t i = 0; i < c->nlines; i++) {
		if (c->lines[i].pub.addr)
			continue;
		for (size_t k = 0; k < c->nkinds; k++)
			if (c->other[2 * k])
				pebs_c2c_classify(&c->lines[i].pub.st,
						  c->kinds.keys[k], 0,
						  c->other[2 * k], 1);
		return;
	}
}

static int cmp_xs_addr(const void *a, const void *b)
{
	const struct c2c_xs *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The samples of c->xs (neither load nor store, locked or blocked, with
 * an address) on the own counters of the line of their address, when it
 * has results: perf files every sample with an address under its line
 * and counts it there (nr_entries, locks, blk_data, blk_addr, noparse),
 * as the shared-line table of --stats does (shared_lines()).  They are
 * no load or store, so none of the line's loads, stores, records, HITM,
 * latencies, offset rows, threads or CPUs change (struct c2c_xs keeps
 * neither instruction nor thread), nor the verdict, which is about the
 * accesses.  0 or -PEBS_E_NOMEM.
 */
static int line_xs(struct pebs_c2c *c)
{
	if (!c->nxs || !c->nlines)
		return 0;
	struct c2c_xs *v = malloc(c->nxs * sizeof(*v));
	if (!v)
		return -PEBS_E_NOMEM;
	/* a sorted copy: c->xs stays in the order the samples came */
	memcpy(v, c->xs, c->nxs * sizeof(*v));
	qsort(v, c->nxs, sizeof(*v), cmp_xs_addr);
	for (size_t i = 0; i < c->nlines; i++) {
		struct pebs_c2c_line *p = &c->lines[i].pub;
		uint64_t ln = p->addr >> c->line_shift;
		size_t lo = 0, hi = c->nxs;
		while (lo < hi) {	/* the first at or after the line */
			size_t m = lo + (hi - lo) / 2;
			if (v[m].addr < p->addr)
				lo = m + 1;
			else
				hi = m;
		}
		for (; lo < c->nxs && v[lo].addr >> c->line_shift == ln; lo++)
			pebs_c2c_classify(&p->st, c->kinds.keys[v[lo].kind],
					  v[lo].addr, v[lo].count,
					  c->o.perf_compat);
	}
	free(v);
	return 0;
}

int pebs_c2c_finish(struct pebs_c2c *c)
{
	struct work x;
	struct rankkey *rk = NULL;
	c2c_free_results(c);
	memset(&c->totals, 0, sizeof(c->totals));
	memset(&x, 0, sizeof(x));
	/* the totals, per data source */
	for (size_t kd = 0; kd < c->nkinds; kd++) {
		uint64_t d = c->kinds.keys[kd], n1 = c->other[2 * kd + 1] +
						     c->lkn[kd];
		if (c->other[2 * kd])
			pebs_c2c_classify(&c->totals, d, 0, c->other[2 * kd],
					  c->o.perf_compat);
		if (n1)
			pebs_c2c_classify(&c->totals, d, 1, n1,
					  c->o.perf_compat);
	}
	if (shared_lines(c))
		goto nomem;
	size_t maxn = 1;
	for (size_t i = 0; i < c->nlines; i++)
		if (c->lines[i].n > maxn)
			maxn = c->lines[i].n;
	if (work_init(&x, c, maxn))
		goto nomem;
	for (size_t i = 0; i < c->nlines; i++)
		if (line_stats(c, &c->lines[i], &x))
			goto nomem;
	if (line_xs(c))
		goto nomem;
	if (c->o.perf_compat)
		line0_noaddr(c);
	rk = malloc((c->nlines ? c->nlines : 1) * sizeof(*rk));
	if (!rk)
		goto nomem;
	for (size_t i = 0; i < c->nlines; i++) {
		const struct pebs_c2c_line *p = &c->lines[i].pub;
		rk[i] = (struct rankkey){ { p->hitm_cycles, p->sort_hitm,
					    pebs_c2c_tot_recs(&p->st) },
					  p->addr, (uint32_t)i };
	}
	qsort(rk, c->nlines, sizeof(*rk), cmp_rank);
	/*
	 * The lines into report order, in place (cycle by cycle, rk[j].at
	 * marked j once line j is in place), so that the verdict and every
	 * writer read them in order: with --show-all they are hundreds of
	 * thousands of 400-byte records, met at random otherwise.
	 */
	for (size_t i = 0; i < c->nlines; i++) {
		if (rk[i].at == i)
			continue;
		struct c2c_line_int tmp = c->lines[i];
		size_t j = i;
		for (;;) {
			size_t k = rk[j].at;
			rk[j].at = (uint32_t)j;
			if (k == i) {
				c->lines[j] = tmp;
				break;
			}
			c->lines[j] = c->lines[k];
			j = k;
		}
	}
	size_t listed = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[i];
		l->listed = (c->o.show_all || (l->pub.sort_hitm &&
			     l->pub.sort_hitm >= c->o.min_hitm)) &&
			    (!c->o.top || listed < c->o.top);
		listed += (size_t)l->listed;
	}
	c->nlisted = listed;
	if (c->o.access_size > 1 && listed) {
		/* for the texts of accesses that cross a line end */
		x.byaddr = malloc(c->nlines * sizeof(*x.byaddr));
		if (!x.byaddr)
			goto nomem;
		for (size_t i = 0; i < c->nlines; i++)
			x.byaddr[i] = (struct addrix){ c->lines[i].pub.addr, i };
		qsort(x.byaddr, c->nlines, sizeof(*x.byaddr), cmp_addrix);
		if (spill_scan(c, &x))
			goto nomem;
	}
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[i];
		if (verdict(c, l, &x, l->listed) || keep_texts(c, l))
			goto nomem;
		l->pub.why = l->why ? l->why : "";
		l->pub.evidence = l->evidence ? l->evidence : "";
		l->pub.fix = l->fix ? l->fix : "";
	}
	free(rk);
	work_free(&x);
	c->finished = 1;
	return 0;
nomem:
	free(rk);
	work_free(&x);
	c2c_free_results(c);
	return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
}

size_t pebs_c2c_nlines(const struct pebs_c2c *c)
{
	return c->finished ? c->nlines : 0;
}

size_t pebs_c2c_nlines_sampled(const struct pebs_c2c *c)
{
	return c->finished ? c->nsampled : 0;
}

const struct pebs_c2c_line *pebs_c2c_line_at(const struct pebs_c2c *c,
					     size_t i)
{
	if (!c->finished || i >= c->nlines)
		return NULL;
	return &c->lines[i].pub;
}

int pebs_c2c_line_listed(const struct pebs_c2c *c, size_t i)
{
	if (!c->finished || i >= c->nlines)
		return 0;
	return c->lines[i].listed;
}

const struct pebs_c2c_stats *pebs_c2c_totals(const struct pebs_c2c *c)
{
	return &c->totals;
}

/* ------------------------------------------------------ per-offset rows */

struct rowctx {
	const struct pebs_c2c *c;
	const struct c2c_rec *rec;
	unsigned by;
	const char **dso;	/* per record, when coalesced by dso */
};

static uint32_t rec_pid(const struct pebs_c2c *c, const struct c2c_rec *r)
{
	return (uint32_t)(c->threads.keys[r->thr] >> 32);
}

static uint32_t rec_tid(const struct pebs_c2c *c, const struct c2c_rec *r)
{
	return (uint32_t)c->threads.keys[r->thr];
}

/* Order of the coalescing keys within one offset. */
static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct rowctx *r = ctx;
	const struct c2c_rec *x = &r->rec[*(const uint32_t *)a];
	const struct c2c_rec *y = &r->rec[*(const uint32_t *)b];
	if (r->by & PEBS_C2C_BY_PID) {
		uint32_t px = rec_pid(r->c, x), py = rec_pid(r->c, y);
		if (px != py)
			return px < py ? -1 : 1;
	}
	if (r->by & PEBS_C2C_BY_TID) {
		uint32_t tx = rec_tid(r->c, x), ty = rec_tid(r->c, y);
		if (tx != ty)
			return tx < ty ? -1 : 1;
	}
	if (r->by & PEBS_C2C_BY_DSO) {
		const char *dx = r->dso[*(const uint32_t *)a];
		const char *dy = r->dso[*(const uint32_t *)b];
		int d = dx == dy ? 0 : strcmp(dx, dy);
		if (d)
			return d < 0 ? -1 : 1;
	}
	if ((r->by & PEBS_C2C_BY_IADDR) && x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if ((r->by & PEBS_C2C_BY_CPU) && x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return 0;
}

long c2c_line_rows(const struct pebs_c2c *c, const struct c2c_line_int *l,
		   struct c2c_row **rows)
{
	const struct c2c_rec *rec = c->recs + l->first;
	const unsigned L = c->o.line_size;
	size_t n = l->n, m = n ? n : 1;
	uint32_t *idx = malloc(m * sizeof(*idx));
	uint64_t *ipn = malloc(m * sizeof(*ipn));
	struct c2c_row *out = calloc(m, sizeof(*out));
	const char **dso = NULL;
	size_t start[C2C_MAX_LINE + 1];
	struct sset ts = { 0 }, cs = { 0 }, is = { 0 };
	long ret = -PEBS_E_NOMEM;
	if (!idx || !ipn || !out)
		goto out;
	if (c->o.coalesce & PEBS_C2C_BY_DSO) {
		/* the object of each instruction: from the maps, when there
		 * are (a symbolizer), else all unknown */
		if (!(dso = malloc(m * sizeof(*dso))))
			goto out;
		for (size_t i = 0; i < n; i++) {
			const char *d = c->sym ? pebs_sym_dso(c->sym,
					rec_pid(c, &rec[i]), rec[i].ip) : NULL;
			dso[i] = d ? d : PEBS_SYM_UNKNOWN;
		}
		/* NULL for want of memory is no "[unknown]" */
		if (pebs_sym_error(c->sym) < 0)
			goto out;
	}
	/* counting sort by offset (stable), then keys within each offset */
	memset(start, 0, sizeof(start));
	for (size_t i = 0; i < n; i++)
		start[rec[i].off + 1]++;
	for (unsigned o = 0; o < L; o++)
		start[o + 1] += start[o];
	{
		size_t pos[C2C_MAX_LINE];
		memcpy(pos, start, L * sizeof(*pos));
		for (size_t i = 0; i < n; i++)
			idx[pos[rec[i].off]++] = (uint32_t)i;
	}
	struct rowctx rc = { c, rec, c->o.coalesce, dso };
	for (unsigned o = 0; o < L; o++)
		if (start[o + 1] - start[o] > 1)
			qsort_r(idx + start[o], start[o + 1] - start[o],
				sizeof(*idx), cmp_row, &rc);
	size_t nr = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && rec[idx[j]].off == rec[idx[i]].off &&
		       !cmp_row(&idx[i], &idx[j], &rc))
			j++;
		struct c2c_row *r = &out[nr++];
		const struct c2c_rec *k0 = &rec[idx[i]];
		r->offset = k0->off;
		r->pid = rec_pid(c, k0);
		r->tid = rec_tid(c, k0);
		r->cpu = k0->cpu;
		r->dso = dso ? dso[idx[i]] : NULL;
		if (sset_begin(&ts, j - i) || sset_begin(&cs, j - i) ||
		    sset_begin(&is, j - i))
			goto out;
		for (size_t x = i; x < j; x++) {
			const struct c2c_rec *k = &rec[idx[x]];
			if (k->cls & PEBS_C2C_STORE)
				r->stores += k->count;
			if (k->cls & PEBS_C2C_LOAD) {
				r->loads += k->count;
				r->lat_sum += (uint64_t)k->lat * k->count;
				r->lat_n += k->count;
			}
			if (k->cls & PEBS_C2C_LCL_HITM)
				r->lcl_hitm += k->count;
			if (k->cls & PEBS_C2C_RMT_HITM)
				r->rmt_hitm += k->count;
			sset_add(&ts, k->thr, NULL);
			sset_add(&cs, k->cpu, NULL);
			int isnew;
			uint32_t u = sset_add(&is, k->ip, &isnew);
			if (isnew)
				ipn[u] = 0;
			ipn[u] += k->count;
		}
		r->nthreads = (uint32_t)ts.n;
		r->ncpus = (uint32_t)cs.n;
		r->nips = (uint32_t)is.n;
		/* the three most sampled instructions; ties: lower ip first */
		uint64_t best[3] = { 0 }, bestn[3] = { 0 };
		unsigned nb = 0;
		for (size_t u = 0; u < is.n; u++) {
			uint64_t ip = is.list[u], cnt = ipn[u];
			unsigned s = 0;
			while (s < nb && (bestn[s] > cnt ||
					  (bestn[s] == cnt && best[s] < ip)))
				s++;
			if (s >= 3)
				continue;
			for (unsigned q = 2; q > s; q--) {
				best[q] = best[q - 1];
				bestn[q] = bestn[q - 1];
			}
			best[s] = ip;
			bestn[s] = cnt;
			if (nb < 3)
				nb++;
		}
		memcpy(r->ips, best, sizeof(best));
		r->ip = best[0];
		for (size_t x = i; x < j; x++)
			if (rec[idx[x]].ip == best[0]) {
				r->ip_pid = rec_pid(c, &rec[idx[x]]);
				break;
			}
		i = j;
	}
	*rows = out;
	out = NULL;
	ret = (long)nr;
out:
	free(idx);
	free(ipn);
	free(dso);
	free(out);
	sset_free(&ts);
	sset_free(&cs);
	sset_free(&is);
	return ret;
}

/* ------------------------------------------------------------ heat map */

/* Heat map threads are ranked (struct rankkey) by most[]: */
enum { HEAT_BUSY, HEAT_STORES, HEAT_LOADS };	/* busy: HITM loads + stores */

/*
 * Which of the @n threads @r (in key order) get rows: all, or the
 * @max_rows busiest; @row[t] gets thread t's row or UINT32_MAX, in key
 * order, and the totals of the others go to @h.  Returns the rows, or
 * <0 when memory is short.
 */
static long heat_choose(struct rankkey *r, size_t n, uint32_t max_rows,
			uint32_t *row, struct c2c_heat *h)
{
	if (n > max_rows) {
		qsort(r, n, sizeof(*r), cmp_rank);
		for (size_t i = 0; i < n; i++)
			row[r[i].at] = i < max_rows ? 0 : UINT32_MAX;
		for (size_t i = max_rows; i < n; i++) {
			const uint64_t *m = r[i].most;
			h->left_hitm += m[HEAT_BUSY] - m[HEAT_STORES];
			h->left_stores += m[HEAT_STORES];
			h->left_loads += m[HEAT_LOADS];
		}
	} else {
		memset(row, 0, n * sizeof(*row));
	}
	uint32_t k = 0;
	for (size_t t = 0; t < n; t++)
		if (row[t] != UINT32_MAX)
			row[t] = k++;
	return k;
}

int c2c_line_heat(const struct pebs_c2c *c, const struct c2c_line_int *l,
		  uint32_t max_rows, struct c2c_heat *h)
{
	const struct c2c_rec *rec = c->recs + l->first;
	const unsigned hitm = PEBS_C2C_LCL_HITM | PEBS_C2C_RMT_HITM;
	struct sset ts = { 0 };
	size_t m = l->n ? l->n : 1;
	uint64_t *all = malloc(m * sizeof(*all));
	struct rankkey *r = malloc(m * sizeof(*r));
	uint32_t *row = malloc(m * sizeof(*row));
	int ret = -PEBS_E_NOMEM;
	memset(h, 0, sizeof(*h));
	h->nwords = c->o.line_size / 8;
	if (!all || !r || !row || sset_begin(&ts, l->n))
		goto out;
	for (size_t i = 0; i < l->n; i++)
		sset_add(&ts, rec[i].thr, NULL);
	size_t n = ts.n;
	for (size_t t = 0; t < n; t++)
		all[t] = c->threads.keys[ts.list[t]];
	qsort(all, n, sizeof(*all), cmp_u64);
	for (size_t t = 0; t < n; t++)
		r[t] = (struct rankkey){ { 0, 0, 0 }, all[t], (uint32_t)t };
	/* per thread: its HITM loads, stores and loads, to rank it */
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_rec *k = &rec[i];
		size_t t = lower_u64(all, n, c->threads.keys[k->thr]);
		uint64_t *most = r[t].most;
		if (k->cls & PEBS_C2C_STORE) {
			most[HEAT_STORES] += k->count;
			most[HEAT_BUSY] += k->count;
		} else {
			most[HEAT_LOADS] += k->count;
			if (k->cls & hitm)
				most[HEAT_BUSY] += k->count;
		}
	}
	h->nall = (uint32_t)n;
	long rows = heat_choose(r, n, max_rows, row, h);
	h->nthreads = (uint32_t)rows;
	h->thread = malloc((rows ? (size_t)rows : 1) * sizeof(uint64_t));
	h->loads = calloc((size_t)rows * h->nwords + 1, sizeof(uint64_t));
	h->stores = calloc((size_t)rows * h->nwords + 1, sizeof(uint64_t));
	if (!h->thread || !h->loads || !h->stores)
		goto out;
	for (size_t t = 0; t < n; t++)
		if (row[t] != UINT32_MAX)
			h->thread[row[t]] = all[t];
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_rec *k = &rec[i];
		size_t t = lower_u64(all, n, c->threads.keys[k->thr]);
		if (row[t] == UINT32_MAX)
			continue;
		size_t cell = (size_t)row[t] * h->nwords + k->off / 8;
		if (k->cls & PEBS_C2C_STORE)
			h->stores[cell] += k->count;
		else
			h->loads[cell] += k->count;
	}
	ret = 0;
out:
	sset_free(&ts);
	free(all);
	free(r);
	free(row);
	if (ret)
		c2c_heat_free(h);
	return ret;
}

void c2c_heat_free(struct c2c_heat *h)
{
	free(h->thread);
	free(h->loads);
	free(h->stores);
	memset(h, 0, sizeof(*h));
}
