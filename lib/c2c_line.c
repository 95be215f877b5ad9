/*
 * c2c_line.c - per-line results: statistics, percentiles, the sharing
 * verdict with its evidence and fix, per-offset rows, heat maps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c_int.h"

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

/* Sorts @v (@n values) and returns the number of distinct ones. */
static size_t uniq_u64(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

struct latc {
	uint32_t lat;
	uint64_t n;
};

static int cmp_latc(const void *a, const void *b)
{
	uint32_t x = ((const struct latc *)a)->lat;
	uint32_t y = ((const struct latc *)b)->lat;
	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile @p of the sorted (lat, count) list. */
static uint32_t pctl(const struct latc *v, size_t n, uint64_t total,
		     unsigned p)
{
	if (!total)
		return 0;
	uint64_t rank = (total * p + 99) / 100;
	if (!rank)
		rank = 1;
	uint64_t seen = 0;
	for (size_t i = 0; i < n; i++) {
		seen += v[i].n;
		if (seen >= rank)
			return v[i].lat;
	}
	return n ? v[n - 1].lat : 0;
}

/* ------------------------------------------------------ cell ordering */

/*
 * Orders the line cells by address: a stable LSD radix sort of the cell
 * indices (bytes equal in every address are skipped), as the comparison
 * sort dominated the run time.  Cells with the same address stay in
 * insertion order; no result depends on their order.  0 or -PEBS_E_NOMEM.
 */
static int sort_by_addr(struct pebs_c2c *c)
{
	size_t n = c->norder, m = n ? n : 1;
	uint64_t *k = malloc(m * sizeof(*k)), *kt = malloc(m * sizeof(*kt));
	uint32_t *a = c->order, *t = malloc(m * sizeof(*t));
	size_t (*cnt)[256] = calloc(8, sizeof(*cnt));
	int r = -PEBS_E_NOMEM;
	if (!k || !kt || !t || !cnt)
		goto out;
	/* all eight byte histograms in one sequential pass */
	for (size_t i = 0; i < n; i++) {
		k[i] = c->cells[a[i]].addr;
		for (unsigned d = 0; d < 8; d++)
			cnt[d][(k[i] >> (8 * d)) & 255]++;
	}
	for (unsigned d = 0; d < 8; d++) {
		int skip = 0;
		for (unsigned b = 0; b < 256; b++)
			skip |= cnt[d][b] == n;
		if (skip)
			continue;
		size_t pos = 0;
		for (unsigned b = 0; b < 256; b++) {
			size_t x = cnt[d][b];
			cnt[d][b] = pos;
			pos += x;
		}
		for (size_t i = 0; i < n; i++) {
			size_t j = cnt[d][(k[i] >> (8 * d)) & 255]++;
			kt[j] = k[i];
			t[j] = a[i];
		}
		uint64_t *ks = k;
		k = kt;
		kt = ks;
		uint32_t *sw = a;
		a = t;
		t = sw;
	}
	if (a != c->order) {
		memcpy(c->order, a, n * sizeof(*a));
		t = a;
	}
	r = 0;
out:
	free(k);
	free(kt);
	free(t);
	free(cnt);
	return r;
}

static uint64_t line_of(const struct pebs_c2c *c, uint64_t addr)
{
	return addr & ~(uint64_t)(c->o.line_size - 1);
}

static uint64_t thread_key(const struct c2c_cell *k)
{
	return (uint64_t)k->pid << 32 | k->tid;
}

/* --------------------------------------------------------- the verdict */

typedef uint64_t bmask[C2C_MASK_WORDS];

static void mask_range(bmask m, unsigned lo, unsigned hi)
{
	memset(m, 0, sizeof(bmask));
	for (unsigned b = lo; b < hi; b++)
		m[b / 64] |= 1ull << (b % 64);
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

struct vctx {
	const struct pebs_c2c *c;
	const struct c2c_line_int *l;
	uint64_t *threads;	/* sorted keys */
	size_t nt;
	bmask *w, *a;		/* per thread: written / accessed bytes */
};

static size_t thread_index(const struct vctx *v, uint64_t key)
{
	size_t lo = 0, hi = v->nt;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v->threads[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* "tid 1, 2 and 3 more" for the threads with byte @b in mask set @m. */
static void list_threads(struct sbuf *s, const struct vctx *v,
			 const bmask *m, const bmask *not, unsigned b)
{
	size_t shown = 0, more = 0;
	for (size_t t = 0; t < v->nt; t++) {
		if (!bit(m[t], b) || (not && bit(not[t], b)))
			continue;
		if (shown < 4)
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
 * Decides the verdict of line @l; with @text also its reason, evidence and
 * fix (kept for listed lines only: they cost time and memory).
 */
static int verdict(const struct pebs_c2c *c, struct c2c_line_int *l,
		   const unsigned char *cls, int text)
{
	const unsigned L = c->o.line_size, A = c->o.access_size;
	struct pebs_c2c_line *p = &l->pub;
	struct sbuf why = { 0 }, ev = { 0 }, fix = { 0 };
	struct vctx v = { c, l, NULL, 0, NULL, NULL };
	struct field *fields = NULL;
	int rc = -PEBS_E_NOMEM;

	v.threads = malloc(l->n * sizeof(uint64_t));
	if (!v.threads)
		goto out;
	for (size_t i = 0; i < l->n; i++)
		v.threads[i] = thread_key(&c->cells[c->order[l->first + i]]);
	v.nt = uniq_u64(v.threads, l->n);
	v.w = calloc(v.nt, sizeof(bmask));
	v.a = calloc(v.nt, sizeof(bmask));
	fields = calloc(L, sizeof(*fields));
	if (!v.w || !v.a || !fields)
		goto out;

	uint64_t N = 0;
	for (size_t i = 0; i < l->n; i++) {
		uint32_t ci = c->order[l->first + i];
		const struct c2c_cell *k = &c->cells[ci];
		size_t t = thread_index(&v, thread_key(k));
		unsigned off = (unsigned)(k->addr & (L - 1));
		unsigned hi = off + A < L ? off + A : L;
		for (unsigned b = off; b < hi; b++) {
			v.a[t][b / 64] |= 1ull << (b % 64);
			if (cls[ci] & PEBS_C2C_STORE)
				v.w[t][b / 64] |= 1ull << (b % 64);
		}
		N += k->count;
	}
	unsigned nw[C2C_MAX_LINE] = { 0 }, na[C2C_MAX_LINE] = { 0 };
	size_t writers = 0;
	for (size_t t = 0; t < v.nt; t++) {
		int any = 0;
		for (unsigned b = 0; b < L; b++) {
			nw[b] += (unsigned)bit(v.w[t], b);
			na[b] += (unsigned)bit(v.a[t], b);
			any |= bit(v.w[t], b);
		}
		writers += (size_t)any;
	}
	bmask cont;
	memset(cont, 0, sizeof(cont));
	for (unsigned b = 0; b < L; b++)
		if (nw[b] >= 2 || (nw[b] == 1 && na[b] >= 2))
			cont[b / 64] |= 1ull << (b % 64);

	/*
	 * Each cell's samples are "true" when their bytes include a contended
	 * byte, and "false" when a thread that uses none of their bytes writes
	 * the line (or, for a store, uses the line): both can hold.  The
	 * answer depends only on (offset, load or store), and cells come
	 * sorted by address, so it is computed once per run of cells.
	 */
	uint64_t s_true = 0, s_false = 0, s_any = 0;
	unsigned last_off = ~0u;
	int last_st = -1, tr = 0, fl = 0;
	for (size_t i = 0; i < l->n; i++) {
		uint32_t ci = c->order[l->first + i];
		const struct c2c_cell *k = &c->cells[ci];
		unsigned off = (unsigned)(k->addr & (L - 1));
		int st = (cls[ci] & PEBS_C2C_STORE) != 0;
		if (off != last_off || st != last_st) {
			unsigned hi = off + A < L ? off + A : L;
			bmask m;
			mask_range(m, off, hi);
			tr = 0;
			for (unsigned w = 0; w < C2C_MASK_WORDS; w++)
				tr |= (m[w] & cont[w]) != 0;
			fl = 0;
			for (size_t t = 0; t < v.nt && !fl; t++) {
				int touches = 0, wr = 0, any = 0;
				for (unsigned w = 0; w < C2C_MASK_WORDS; w++) {
					touches |= (v.a[t][w] & m[w]) != 0;
					wr |= v.w[t][w] != 0;
					any |= v.a[t][w] != 0;
				}
				fl = !touches && (wr || (st && any));
			}
			last_off = off;
			last_st = st;
		}
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
			continue;
		}
		struct field *f = &fields[nf++];
		f->lo = f->hi = b;
		f->contended = bit(cont, b);
	}
	for (size_t i = 0, f = 0; i < l->n; i++) {
		uint32_t ci = c->order[l->first + i];
		const struct c2c_cell *k = &c->cells[ci];
		unsigned off = (unsigned)(k->addr & (L - 1));
		while (f < nf && fields[f].hi < off)
			f++;
		if (f == nf)
			break;
		if (cls[ci] & PEBS_C2C_STORE)
			fields[f].stores += k->count;
		else
			fields[f].loads += k->count;
	}
	for (size_t f = 0; f < nf; f++) {
		const struct field *x = &fields[f];
		if (f == 8) {
			sb_printf(&ev, "; and %zu more fields", nf - 8);
			break;
		}
		sb_printf(&ev, "%s", f ? "; " : "");
		field_desc(&ev, &v, x);
		sb_printf(&ev, ": %" PRIu64 " stores, %" PRIu64 " loads%s",
			  x->stores, x->loads,
			  x->contended ? ", shared" : "");
	}

	/* The decision. */
	uint64_t both = s_any;
	unsigned pct = c->o.verdict_pct;
	if (N < c->o.min_samples) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "%" PRIu64 " samples on this line; a verdict "
			  "needs at least %u", N, c->o.min_samples);
	} else if (v.nt < 2) {
		p->verdict = PEBS_C2C_V_UNKNOWN;
		sb_printf(&why, "all %" PRIu64 " samples come from one thread "
			  "(tid %" PRIu32 "): the other side of the sharing "
			  "was not sampled", N, (uint32_t)v.threads[0]);
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
	} else if (s_false * 100 >= both * pct &&
		   s_true * 100 <= both * (100 - pct)) {
		p->verdict = PEBS_C2C_V_FALSE;
	} else if (s_true * 100 >= both * pct &&
		   s_false * 100 <= both * (100 - pct)) {
		p->verdict = PEBS_C2C_V_TRUE;
	} else {
		p->verdict = PEBS_C2C_V_MIXED;
	}
	if (p->verdict != PEBS_C2C_V_UNKNOWN && text)
		sb_printf(&why, "of %" PRIu64 " samples in contention, %"
			  PRIu64 " (%.0f%%) touch bytes that another thread "
			  "also uses, with a store (true sharing), and %"
			  PRIu64 " (%.0f%%) share the line with a thread that "
			  "writes other bytes of it (false sharing); "
			  "%u%% decides", both,
			  s_true, 100.0 * (double)s_true / (double)both,
			  s_false, 100.0 * (double)s_false / (double)both,
			  pct);

	/* The fix. */
	int want_false = text && (p->verdict == PEBS_C2C_V_FALSE ||
				  p->verdict == PEBS_C2C_V_MIXED);
	int want_true = text && (p->verdict == PEBS_C2C_V_TRUE ||
				 p->verdict == PEBS_C2C_V_MIXED);
	if (want_false) {
		size_t fa = nf, fb = nf;
		for (size_t f = 0; f < nf; f++)
			if (has_any(&v, v.w, NULL, fields[f].lo) &&
			    (fa == nf || fields[f].stores + fields[f].loads >
			     fields[fa].stores + fields[fa].loads))
				fa = f;
		for (size_t f = 0; fa < nf && f < nf; f++)
			if (!same_access(&v, fields[f].lo, fields[fa].lo) &&
			    (fb == nf || fields[f].stores + fields[f].loads >
			     fields[fb].stores + fields[fb].loads))
				fb = f;
		if (fb < nf) {
			const struct field *first = &fields[fa < fb ? fa : fb];
			const struct field *second = &fields[fa < fb ? fb : fa];
			sb_printf(&fix, "move offset ");
			field_desc(&fix, &v, second);
			sb_printf(&fix, " away from ");
			field_desc(&fix, &v, first);
			sb_printf(&fix, ": pad with %u bytes after 0x%02x or "
				  "align each to %u", L - (first->hi -
				  first->lo + 1), first->hi, L);
			size_t groups = 0;
			for (size_t f = 0; f < nf; f++) {
				size_t g = 0;
				while (g < f && !same_access(&v, fields[g].lo,
							    fields[f].lo))
					g++;
				groups += g == f;
			}
			if (groups > 2)
				sb_printf(&fix, " (%zu fields are used by "
					  "different threads: align each of "
					  "them to %u)", groups, L);
		}
	}
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
	free(v.threads);
	free(v.w);
	free(v.a);
	free(fields);
	return rc;
}

/* ------------------------------------------------------ line statistics */

static int line_stats(struct pebs_c2c *c, struct c2c_line_int *l,
		      const unsigned char *cls, struct latc *ld,
		      struct latc *hm, uint64_t *tmp)
{
	struct pebs_c2c_line *p = &l->pub;
	size_t nld = 0, nhm = 0;
	uint64_t ldsum = 0, hmsum = 0, lcls = 0, lcln = 0, rmts = 0, rmtn = 0;
	uint64_t oths = 0, othn = 0;
	for (size_t i = 0; i < l->n; i++) {
		uint32_t ci = c->order[l->first + i];
		const struct c2c_cell *k = &c->cells[ci];
		pebs_c2c_classify(&p->st, k->dsrc, k->addr, k->count,
				  c->o.perf_compat);
		if (!(cls[ci] & PEBS_C2C_LOAD))
			continue;
		ld[nld++] = (struct latc){ k->lat, k->count };
		p->nloads += k->count;
		ldsum += (uint64_t)k->lat * k->count;
		int lh = (cls[ci] & PEBS_C2C_LCL_HITM) != 0;
		int rh = (cls[ci] & PEBS_C2C_RMT_HITM) != 0;
		if (lh || rh) {
			hm[nhm++] = (struct latc){ k->lat, k->count };
			p->nhitm += k->count;
			hmsum += (uint64_t)k->lat * k->count;
		}
		/* perf's compute_stats: remote HITM, else local, else load */
		if (rh) {
			rmts += (uint64_t)k->lat * k->count;
			rmtn += k->count;
		} else if (lh) {
			lcls += (uint64_t)k->lat * k->count;
			lcln += k->count;
		} else {
			oths += (uint64_t)k->lat * k->count;
			othn += k->count;
		}
		if ((rh && c->o.display != PEBS_C2C_D_LCL) ||
		    (lh && !rh && c->o.display != PEBS_C2C_D_RMT))
			p->hitm_cycles += (uint64_t)k->lat * k->count;
	}
	qsort(ld, nld, sizeof(*ld), cmp_latc);
	qsort(hm, nhm, sizeof(*hm), cmp_latc);
	p->lat_mean = p->nloads ? (double)ldsum / (double)p->nloads : 0;
	p->lat_p50 = pctl(ld, nld, p->nloads, 50);
	p->lat_p99 = pctl(ld, nld, p->nloads, 99);
	p->hitm_mean = p->nhitm ? (double)hmsum / (double)p->nhitm : 0;
	p->hitm_p50 = pctl(hm, nhm, p->nhitm, 50);
	p->hitm_p99 = pctl(hm, nhm, p->nhitm, 99);
	p->lcl_hitm_cyc = lcln ? (double)lcls / (double)lcln : 0;
	p->rmt_hitm_cyc = rmtn ? (double)rmts / (double)rmtn : 0;
	p->ld_cyc = othn ? (double)oths / (double)othn : 0;
	p->sort_hitm = c->o.display == PEBS_C2C_D_LCL ? p->st.lcl_hitm :
		       c->o.display == PEBS_C2C_D_RMT ? p->st.rmt_hitm :
		       p->st.tot_hitm;

	for (size_t i = 0; i < l->n; i++)
		tmp[i] = thread_key(&c->cells[c->order[l->first + i]]);
	p->nthreads = (uint32_t)uniq_u64(tmp, l->n);
	for (size_t i = 0; i < l->n; i++)
		tmp[i] = c->cells[c->order[l->first + i]].pid;
	p->npids = (uint32_t)uniq_u64(tmp, l->n);
	for (size_t i = 0; i < l->n; i++)
		tmp[i] = c->cells[c->order[l->first + i]].cpu;
	size_t nc = uniq_u64(tmp, l->n);
	p->ncpus = (uint32_t)nc;
	if (!c->topo.nnodes) {
		p->nnodes = -1;
	} else {
		for (size_t i = 0; i < nc; i++)
			tmp[i] = (uint64_t)(int64_t)c2c_node_of(c,
							(uint32_t)tmp[i]);
		p->nnodes = (int)uniq_u64(tmp, nc);
	}
	return 0;
}

static int cmp_rank(const void *a, const void *b, void *ctx)
{
	const struct c2c_line_int *lines = ctx;
	const struct pebs_c2c_line *x = &lines[*(const uint32_t *)a].pub;
	const struct pebs_c2c_line *y = &lines[*(const uint32_t *)b].pub;
	if (x->hitm_cycles != y->hitm_cycles)
		return x->hitm_cycles > y->hitm_cycles ? -1 : 1;
	if (x->sort_hitm != y->sort_hitm)
		return x->sort_hitm > y->sort_hitm ? -1 : 1;
	uint64_t rx = pebs_c2c_tot_recs(&x->st), ry = pebs_c2c_tot_recs(&y->st);
	if (rx != ry)
		return rx > ry ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int pebs_c2c_finish(struct pebs_c2c *c)
{
	c2c_free_results(c);
	unsigned char *cls = malloc(c->ncells ? c->ncells : 1);
	if (!cls)
		return -PEBS_E_NOMEM;
	memset(&c->totals, 0, sizeof(c->totals));
	c->order = malloc((c->ncells ? c->ncells : 1) * sizeof(uint32_t));
	if (!c->order)
		goto nomem;
	for (size_t i = 0; i < c->ncells; i++) {
		const struct c2c_cell *k = &c->cells[i];
		cls[i] = (unsigned char)pebs_c2c_classify(&c->totals, k->dsrc,
				k->addr, k->count, c->o.perf_compat);
		if (cls[i] & (PEBS_C2C_LOAD | PEBS_C2C_STORE))
			c->order[c->norder++] = (uint32_t)i;
	}
	if (sort_by_addr(c))
		goto nomem;
	size_t nl = 0;
	for (size_t i = 0; i < c->norder; i++)
		if (!i || line_of(c, c->cells[c->order[i]].addr) !=
			  line_of(c, c->cells[c->order[i - 1]].addr))
			nl++;
	c->lines = calloc(nl ? nl : 1, sizeof(*c->lines));
	c->rank = malloc((nl ? nl : 1) * sizeof(uint32_t));
	if (!c->lines || !c->rank)
		goto nomem;
	for (size_t i = 0; i < c->norder; i++) {
		uint64_t la = line_of(c, c->cells[c->order[i]].addr);
		if (!c->nlines || c->lines[c->nlines - 1].pub.addr != la) {
			struct c2c_line_int *l = &c->lines[c->nlines++];
			l->pub.addr = la;
			l->first = i;
		}
		c->lines[c->nlines - 1].n++;
	}
	size_t maxn = 1;
	for (size_t i = 0; i < c->nlines; i++)
		if (c->lines[i].n > maxn)
			maxn = c->lines[i].n;
	struct latc *ld = malloc(maxn * sizeof(*ld));
	struct latc *hm = malloc(maxn * sizeof(*hm));
	uint64_t *tmp = malloc(maxn * sizeof(*tmp));
	int r = ld && hm && tmp ? 0 : -PEBS_E_NOMEM;
	for (size_t i = 0; !r && i < c->nlines; i++)
		r = line_stats(c, &c->lines[i], cls, ld, hm, tmp);
	free(ld);
	free(hm);
	free(tmp);
	if (r)
		goto nomem;
	for (size_t i = 0; i < c->nlines; i++)
		c->rank[i] = (uint32_t)i;
	qsort_r(c->rank, c->nlines, sizeof(uint32_t), cmp_rank, c->lines);
	size_t listed = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[c->rank[i]];
		l->listed = (c->o.show_all || (l->pub.sort_hitm &&
			     l->pub.sort_hitm >= c->o.min_hitm)) &&
			    (!c->o.top || listed < c->o.top);
		listed += (size_t)l->listed;
	}
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[i];
		if (verdict(c, l, cls, l->listed))
			goto nomem;
		l->pub.why = l->why ? l->why : "";
		l->pub.evidence = l->evidence ? l->evidence : "";
		l->pub.fix = l->fix ? l->fix : "";
	}
	free(cls);
	c->finished = 1;
	return 0;
nomem:
	free(cls);
	return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
}

size_t pebs_c2c_nlines(const struct pebs_c2c *c)
{
	return c->finished ? c->nlines : 0;
}

const struct pebs_c2c_line *pebs_c2c_line_at(const struct pebs_c2c *c,
					     size_t i)
{
	if (!c->finished || i >= c->nlines)
		return NULL;
	return &c->lines[c->rank[i]].pub;
}

int pebs_c2c_line_listed(const struct pebs_c2c *c, size_t i)
{
	if (!c->finished || i >= c->nlines)
		return 0;
	return c->lines[c->rank[i]].listed;
}

const struct pebs_c2c_stats *pebs_c2c_totals(const struct pebs_c2c *c)
{
	return &c->totals;
}

/* ------------------------------------------------------ per-offset rows */

struct rowctx {
	const struct pebs_c2c *c;
	unsigned by;
};

static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct rowctx *r = ctx;
	const struct c2c_cell *x = &r->c->cells[*(const uint32_t *)a];
	const struct c2c_cell *y = &r->c->cells[*(const uint32_t *)b];
	uint64_t L = r->c->o.line_size - 1;
	if ((x->addr & L) != (y->addr & L))
		return (x->addr & L) < (y->addr & L) ? -1 : 1;
#define C(bit, f) if ((r->by & bit) && x->f != y->f) return x->f < y->f ? -1 : 1
	C(PEBS_C2C_BY_PID, pid);
	C(PEBS_C2C_BY_TID, tid);
	C(PEBS_C2C_BY_IADDR, ip);
	C(PEBS_C2C_BY_CPU, cpu);
#undef C
	return 0;
}

long c2c_line_rows(const struct pebs_c2c *c, const struct c2c_line_int *l,
		   struct c2c_row **rows)
{
	uint32_t *idx = malloc((l->n ? l->n : 1) * sizeof(*idx));
	uint64_t *tmp = malloc((l->n ? l->n : 1) * sizeof(*tmp));
	struct c2c_row *out = calloc(l->n ? l->n : 1, sizeof(*out));
	if (!idx || !tmp || !out) {
		free(idx);
		free(tmp);
		free(out);
		return -PEBS_E_NOMEM;
	}
	memcpy(idx, c->order + l->first, l->n * sizeof(*idx));
	struct rowctx rc = { c, c->o.coalesce };
	qsort_r(idx, l->n, sizeof(*idx), cmp_row, &rc);
	size_t nr = 0;
	for (size_t i = 0; i < l->n;) {
		size_t j = i + 1;
		while (j < l->n && !cmp_row(&idx[i], &idx[j], &rc))
			j++;
		struct c2c_row *r = &out[nr++];
		const struct c2c_cell *k0 = &c->cells[idx[i]];
		r->offset = (uint32_t)(k0->addr & (c->o.line_size - 1));
		r->pid = k0->pid;
		r->tid = k0->tid;
		r->cpu = k0->cpu;
		for (size_t x = i; x < j; x++) {
			const struct c2c_cell *k = &c->cells[idx[x]];
			unsigned cl = c2c_cell_class(c, k);
			if (cl & PEBS_C2C_STORE)
				r->stores += k->count;
			if (cl & PEBS_C2C_LOAD) {
				r->loads += k->count;
				r->lat_sum += (uint64_t)k->lat * k->count;
				r->lat_n += k->count;
			}
			if (cl & PEBS_C2C_LCL_HITM)
				r->lcl_hitm += k->count;
			if (cl & PEBS_C2C_RMT_HITM)
				r->rmt_hitm += k->count;
		}
		for (size_t x = i; x < j; x++)
			tmp[x - i] = thread_key(&c->cells[idx[x]]);
		r->nthreads = (uint32_t)uniq_u64(tmp, j - i);
		for (size_t x = i; x < j; x++)
			tmp[x - i] = c->cells[idx[x]].cpu;
		r->ncpus = (uint32_t)uniq_u64(tmp, j - i);
		/* instructions, most sampled first */
		for (size_t x = i; x < j; x++)
			tmp[x - i] = c->cells[idx[x]].ip;
		size_t nu = uniq_u64(tmp, j - i);
		r->nips = (uint32_t)nu;
		uint64_t best[3] = { 0 }, bestn[3] = { 0 };
		for (size_t u = 0; u < nu; u++) {
			uint64_t n = 0;
			for (size_t x = i; x < j; x++)
				if (c->cells[idx[x]].ip == tmp[u])
					n += c->cells[idx[x]].count;
			for (int s = 0; s < 3; s++) {
				if (n > bestn[s]) {
					for (int m = 2; m > s; m--) {
						best[m] = best[m - 1];
						bestn[m] = bestn[m - 1];
					}
					best[s] = tmp[u];
					bestn[s] = n;
					break;
				}
			}
		}
		memcpy(r->ips, best, sizeof(best));
		r->ip = best[0];
		i = j;
	}
	free(idx);
	free(tmp);
	*rows = out;
	return (long)nr;
}

/* ------------------------------------------------------------ heat map */

int c2c_line_heat(const struct pebs_c2c *c, const struct c2c_line_int *l,
		  struct c2c_heat *h)
{
	memset(h, 0, sizeof(*h));
	h->nwords = c->o.line_size / 8;
	h->thread = malloc((l->n ? l->n : 1) * sizeof(uint64_t));
	if (!h->thread)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < l->n; i++)
		h->thread[i] = thread_key(&c->cells[c->order[l->first + i]]);
	h->nthreads = (uint32_t)uniq_u64(h->thread, l->n);
	h->loads = calloc((size_t)h->nthreads * h->nwords, sizeof(uint64_t));
	h->stores = calloc((size_t)h->nthreads * h->nwords, sizeof(uint64_t));
	if (!h->loads || !h->stores) {
		c2c_heat_free(h);
		return -PEBS_E_NOMEM;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct c2c_cell *k = &c->cells[c->order[l->first + i]];
		uint64_t key = thread_key(k);
		size_t lo = 0, hi = h->nthreads;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (h->thread[mid] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t cell = lo * h->nwords +
			      (k->addr & (c->o.line_size - 1)) / 8;
		unsigned cl = c2c_cell_class(c, k);
		if (cl & PEBS_C2C_STORE)
			h->stores[cell] += k->count;
		else
			h->loads[cell] += k->count;
	}
	return 0;
}

void c2c_heat_free(struct c2c_heat *h)
{
	free(h->thread);
	free(h->loads);
	free(h->stores);
	memset(h, 0, sizeof(*h));
}
