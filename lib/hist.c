/*
 * hist.c - exact value counts per group, statistics, bins, YAML merge.
 *
 * A group's counter is a dense array for values below DENSE (latencies
 * live there: one increment per sample); every other count is appended
 * to one log of (group, value, count) shared by all groups, compacted by
 * sorting.  Groups with few samples stay sparse-only so that grouping by
 * a field with many values (ip, line) costs neither DENSE words nor
 * allocations per group.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ascii.h"
#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_hist.h"
#include "pebs_sym.h"

#include "bigmem.h"
#include "dsrc_int.h"
#include "hist_int.h"
#include "output_fmt.h"
#include "radix.h"
#include "strhash.h"

/* ------------------------------------------------------------- counters */

/* Doubles @t (or makes it @first slots), rehashing every entry. */
static int table_grow(struct table *t, size_t vsize, size_t first)
{
	size_t nc = t->cap ? t->cap * 2 : first;
	uint64_t *k = calloc(nc, sizeof(*k));
	uint8_t *v = calloc(nc, vsize), *u = calloc(nc, 1);
	if (!k || !v || !u) {
		free(k);
		free(v);
		free(u);
		return -PEBS_E_NOMEM;
	}
	const uint8_t *ov = t->v;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->u[i])
			continue;
		size_t j = hist_hash(t->k[i]) & (nc - 1);
		while (u[j])
			j = (j + 1) & (nc - 1);
		u[j] = 1;
		k[j] = t->k[i];
		memcpy(v + j * vsize, ov + i * vsize, vsize);
	}
	free(t->k);
	free(t->v);
	free(t->u);
	*t = (struct table){ k, v, u, nc };
	return 0;
}

/* A sparse count of one group while the log is sorted. */
struct vn {
	uint64_t v, n;
};

static int vn_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct vn *)a)->v, y = ((const struct vn *)b)->v;
	return x < y ? -1 : x > y;
}

static void vn_sort(struct vn *e, size_t n)
{
	if (n > 16) {
		qsort(e, n, sizeof(*e), vn_cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct vn x = e[i];
		size_t j = i;
		for (; j && e[j - 1].v > x.v; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

/*
 * @p (a lib_big_realloc() array of *@cap bytes, or NULL) grown to hold at
 * least @n bytes: the array, or NULL when memory is short (@p kept).
 */
static void *big_reserve(void *p, size_t *cap, size_t n)
{
	if (p && n <= *cap)
		return p;
	void *q = lib_big_realloc(p, n ? n : 1);
	if (q)
		*cap = n;
	return q;
}

/*
 * Sorts the sparse log by group and value and adds up equal pairs:
 * bucketed by group (a stable counting sort, so each bucket is the group's
 * run from the last compaction, already sorted, then its new entries), the
 * new entries sorted and merged into the run.  The buckets are in group
 * order, or with @pos (h->pos) in output order, so that the writers read
 * the runs in order.  Leaves the start of each bucket's run in
 * h->off[0, ng].
 */
static int sp_compact(struct pebs_hist *h, const uint32_t *pos)
{
	size_t ng = h->ng, n = h->spn;
	size_t *off = big_reserve(h->off, &h->offcap,
				  2 * (ng + 1) * sizeof(size_t));
	if (off)
		h->off = off;
	void *scr = big_reserve(h->scratch, &h->scratchcap,
				n * sizeof(struct vn));
	if (scr)
		h->scratch = scr;
	if (!off || !scr)
		return -PEBS_E_NOMEM;
	size_t *o = h->off, *old = o + ng + 1;
	struct vn *e = h->scratch;
	memset(o, 0, 2 * (ng + 1) * sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		uint32_t bk = pos ? pos[h->sp[i].g] : h->sp[i].g;
		o[bk + 1]++;
		old[bk] += i < h->spsorted;
	}
	for (size_t g = 0; g < ng; g++)
		o[g + 1] += o[g];
	/* o[bk] becomes the end of bucket bk as it fills */
	for (size_t i = 0; i < n; i++) {
		const struct spent *x = &h->sp[i];
		uint32_t bk = pos ? pos[x->g] : x->g;
		e[o[bk]++] = (struct vn){ x->v, x->n };
	}
	size_t w = 0, from = 0;
	for (size_t g = 0; g < ng; g++) {
		uint32_t grp = pos ? h->order[g] : (uint32_t)g;
		struct vn *p = e + from, *q = p + old[g];
		size_t a = old[g], b = o[g] - from - a, i = 0, j = 0;
		from = o[g];
		o[g] = w;
		vn_sort(q, b);
		while (i < a || j < b) {
			struct vn x = j == b || (i < a && p[i].v <= q[j].v) ?
				      p[i++] : q[j++];
			if (w > o[g] && h->sp[w - 1].v == x.v)
				h->sp[w - 1].n += x.n;
			else
				h->sp[w++] = (struct spent){ x.v, x.n, grp };
		}
	}
	o[ng] = w;
	h->spn = h->spsorted = w;
	return 0;
}

/* Appends @n samples of value @v in group @g to the sparse log. */
static int sp_add(struct pebs_hist *h, size_t g, uint64_t v, uint64_t n)
{
	if (h->spn == h->spcap) {
		/* add up equal pairs once the unsorted part is the larger:
		 * memory stays within a few times the distinct pairs */
		if (h->spn >= (1u << 16) && h->spn - h->spsorted > h->spsorted &&
		    sp_compact(h, NULL) < 0)
			return -PEBS_E_NOMEM;
		if (h->spn + h->spn / 3 >= h->spcap) {	/* < 1/4 free */
			size_t nc = h->spcap ? h->spcap * 2 : 4096;
			struct spent *t = lib_big_realloc(h->sp,
							  nc * sizeof(*t));
			if (!t)
				return -PEBS_E_NOMEM;
			h->sp = t;
			h->spcap = nc;
		}
	}
	h->sp[h->spn++] = (struct spent){ v, n, (uint32_t)g };
	return 0;
}

/* Gives group @g a dense array.  0 or -PEBS_E_NOMEM. */
static int make_dense(struct pebs_hist *h, size_t g)
{
	if (h->ndl == h->dlcap) {
		size_t nc = h->dlcap ? h->dlcap * 2 : 64;
		uint64_t **d = realloc(h->dense, nc * sizeof(*d));
		if (d)
			h->dense = d;
		uint32_t *dg = realloc(h->dg, nc * sizeof(*dg));
		if (dg)
			h->dg = dg;
		if (!d || !dg)
			return -PEBS_E_NOMEM;
		h->dlcap = nc;
	}
	if (!(h->dense[h->ndl] = calloc(DENSE, sizeof(uint64_t))))
		return -PEBS_E_NOMEM;
	h->dg[h->ndl++] = (uint32_t)g;
	h->g[g].c.ds = (uint32_t)h->ndl;
	return 0;
}

/* Adds @n samples of value @v to group @g. */
static int counter_add(struct pebs_hist *h, size_t g, uint64_t v, uint64_t n)
{
	struct counter *c = &h->g[g].c;
	/* the group's earlier small values stay in the sparse log:
	 * hist_sort() adds the two up */
	if (v < DENSE && !c->ds && c->small + n >= PROMOTE_AT &&
	    make_dense(h, g) < 0)
		return -PEBS_E_NOMEM;
	if (v < DENSE && c->ds) {
		h->dense[c->ds - 1][v] += n;
		return 0;
	}
	if (v < DENSE)
		c->small += n;
	return sp_add(h, g, v, n);
}

static int order_groups(struct pebs_hist *h);

/*
 * @key in decimal, or in hex with "0x", into @buf (24 bytes): by hand, as
 * snprintf() for each of millions of groups is most of their printing.
 */
static void print_key(char *buf, uint64_t key, int hex)
{
	char t[24];
	size_t n = 0;
	do {
		unsigned d = hex ? (unsigned)(key & 15) : (unsigned)(key % 10);
		t[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		key = hex ? key >> 4 : key / 10;
	} while (key);
	size_t o = 0;
	if (hex) {
		buf[o++] = '0';
		buf[o++] = 'x';
	}
	while (n)
		buf[o++] = t[--n];
	buf[o] = 0;
}

/* A group with a dense array, at its output position. */
struct dpos {
	uint32_t pos, slot;	/* slot: index in h->dense */
};

static int dpos_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct dpos *)a)->pos;
	uint32_t y = ((const struct dpos *)b)->pos;
	return x < y ? -1 : x > y;
}

/*
 * All groups at once, since the writers ask for every group, laid out in
 * output order so that the writers read memory in order: each group's
 * sorted sparse run merged with its dense array, which holds values below
 * DENSE only (and the run may hold small ones from before it existed).
 */
int hist_sort(struct pebs_hist *h)
{
	if (h->sgen == h->gen)
		return 0;
	size_t ng = h->ng;
	if (!h->order_valid) {
		if (order_groups(h) < 0)
			return -PEBS_E_NOMEM;
		h->order_valid = 1;
	}
	if (sp_compact(h, h->pos) < 0)
		return -PEBS_E_NOMEM;
	/* the dense groups by position: the walk below then reads no group
	 * but the dense ones (and texts' names) */
	struct dpos *dp = malloc((h->ndl ? h->ndl : 1) * sizeof(*dp));
	if (!dp)
		return -PEBS_E_NOMEM;
	size_t total = h->spn;
	for (size_t j = 0; j < h->ndl; j++) {
		const uint64_t *d = h->dense[j];
		for (size_t v = 0; v < DENSE; v++)
			total += d[v] != 0;
		dp[j] = (struct dpos){ h->pos[h->dg[j]], (uint32_t)j };
	}
	qsort(dp, h->ndl, sizeof(*dp), dpos_cmp);
	struct gview *view = big_reserve(h->view, &h->viewcap,
					 ng * sizeof(*view));
	if (view)
		h->view = view;
	uint64_t *sv = view ? big_reserve(h->sv, &h->svcap,
					  total * sizeof(*sv)) : NULL;
	if (sv)
		h->sv = sv;
	uint64_t *sc = sv ? big_reserve(h->sc, &h->sccap,
					total * sizeof(*sc)) : NULL;
	if (!sc) {
		free(dp);
		return -PEBS_E_NOMEM;
	}
	h->sc = sc;
	const size_t *off = h->off;
	size_t o = 0, nd = 0;
	int hex = h->bykind == BY_NUM &&
		  pebs_field_by_id(h->by)->kind == PEBS_FK_HEX;
	for (size_t i = 0; i < ng; i++) {
		const uint64_t *dense = NULL;
		if (nd < h->ndl && dp[nd].pos == i)
			dense = h->dense[dp[nd++].slot];
		size_t m = off[i + 1] - off[i], k = 0, start = o;
		/* sp is NULL while every count went to dense arrays */
		const struct spent *p = m ? h->sp + off[i] : NULL;
		uint64_t n = 0;
		for (size_t v = 0; dense && v < DENSE; v++) {
			uint64_t cnt = dense[v];
			for (; k < m && p[k].v < v; k++)
				if (p[k].n) {
					sv[o] = p[k].v;
					sc[o++] = p[k].n;
				}
			if (k < m && p[k].v == v)
				cnt += p[k++].n;
			if (cnt) {
				sv[o] = v;
				sc[o++] = cnt;
			}
		}
		for (; k < m; k++)
			if (p[k].n) {
				sv[o] = p[k].v;
				sc[o++] = p[k].n;
			}
		for (size_t j = start; j < o; j++)
			n += sc[j];
		/* value 0 of a latency is no measurement: its count (the
		 * first, values ascend) becomes the group's unmeasured */
		uint64_t un = 0;
		if (h->skip0 && o > start && sv[start] == 0) {
			un = sc[start++];
			n -= un;
		}
		struct gview *w = &view[i];
		*w = (struct gview){ NULL, n, un, sv + start, sc + start,
				     o - start, "" };
		if (h->bykind == BY_NUM) {
			print_key(w->num, h->okey[i], hex);
			w->name = w->num;
		} else {
			w->name = h->g[h->order[i]].name;
		}
	}
	free(dp);
	h->sgen = h->gen;
	return 0;
}

/* --------------------------------------------------------------- groups */

static int by_kind(int by)
{
	switch (by) {
	case -1: return BY_NONE;
	case PEBS_F_OP: case PEBS_F_MEM: case PEBS_F_SNOOP: case PEBS_F_TLB:
	case PEBS_F_LOCK:
		return BY_DSRC;
	case PEBS_COL_EVENT: return BY_EVENT;
	default: return pebs_field_is_sym(by) ? BY_STR : BY_NUM;
	}
}

static void col_mask(int id, int *col, uint64_t *mask)
{
	*mask = UINT64_MAX;
	*col = id;
	if (id == PEBS_F_LINE) {
		*col = PEBS_COL_ADDR;
		*mask = ~(uint64_t)63;
	} else if (id == PEBS_F_PAGE) {
		*col = PEBS_COL_ADDR;
		*mask = ~(uint64_t)4095;
	}
}

/*
 * Whether @v is a value of the field counted from column @col with @mask
 * (col_mask()): a u32 column holds at most 2^32-1, line and page have
 * their low bits clear.
 */
static int value_fits(int col, uint64_t mask, uint64_t v)
{
	const struct pebs_col_info *ci = pebs_col_info((unsigned)col);
	if (ci && ci->type == PEBS_T_U32 && v > UINT32_MAX)
		return 0;
	return (v & ~mask) == 0;
}

/*
 * Whether 0 of field @field means "not measured": a latency in cycles
 * (lat, ins_lat) is filled only by the events that measure it (load
 * latency, above its threshold of at least 3; SPR stores; ...) and is 0
 * for every other sample.  The column's unit says so, not a list of
 * names, so a latency column added later follows.
 */
static int zero_unmeasured(int field)
{
	const struct pebs_col_info *ci = field < PEBS_COL_COUNT ?
		pebs_col_info((unsigned)field) : NULL;
	return ci && ci->unit && strcmp(ci->unit, "cycles") == 0;
}

int pebs_hist_new(struct pebs_hist **hp, int field, int by)
{
	*hp = NULL;
	const struct pebs_field *f = pebs_field_by_id(field);
	if (!f || f->kind == PEBS_FK_STR)
		return -PEBS_E_INVAL;
	if (by != -1 && !pebs_field_by_id(by))
		return -PEBS_E_INVAL;
	struct pebs_hist *h = calloc(1, sizeof(*h));
	if (!h)
		return -PEBS_E_NOMEM;
	h->field = field;
	h->by = by;
	h->bykind = by_kind(by);
	h->unm = h->skip0 = zero_unmeasured(field);
	col_mask(field, &h->fcol, &h->fmask);
	if (h->bykind == BY_NUM)
		col_mask(by, &h->bycol, &h->bymask);
	h->symf = h->bykind == BY_STR ? by - PEBS_F_SYM : 0;
	h->gen = 1;
	*hp = h;
	return 0;
}

void pebs_hist_free(struct pebs_hist *h)
{
	if (!h)
		return;
	for (size_t j = 0; j < h->ndl; j++)
		free(h->dense[j]);
	free(h->dense);
	free(h->dg);
	lib_big_free(h->g);
	lib_big_free(h->gs);
	lib_big_free(h->sp);
	lib_big_free(h->sv);
	lib_big_free(h->sc);
	lib_big_free(h->scratch);
	lib_big_free(h->view);
	lib_big_free(h->off);
	for (size_t i = 0; i < h->nev; i++)
		free(h->ev[i]);
	free(h->ev);
	free(h->gidx);
	free(h->evmap);
	free(h->sh);
	free(h->pc.k);
	free(h->pc.v);
	free(h->pc.u);
	free(h->order);
	free(h->pos);
	free(h->okey);
	free(h->where);
	free(h);
}

int pebs_hist_set_where(struct pebs_hist *h, const char *where)
{
	char *w = NULL;
	if (where && !(w = strdup(where)))
		return -PEBS_E_NOMEM;
	free(h->where);
	h->where = w;
	return 0;
}

const char *pebs_hist_where(const struct pebs_hist *h)
{
	return h->where;
}

/* The compiled form of filter @w into @buf ("" when it does not parse). */
static void where_canon(const char *w, char *buf, size_t len)
{
	struct pebs_expr *e;
	buf[0] = 0;
	if (pebs_expr_parse(w, &e, NULL) < 0)
		return;
	if (pebs_expr_dump(e, buf, len) >= len)
		buf[0] = 0;
	pebs_expr_free(e);
}

/*
 * Do filters @a and @b (NULL: none) select the same samples?  The same
 * text, or the same compiled program: "hitm" and " hitm", "lat>100" and
 * "100 < lat" are one filter, so two runs need not have typed it alike.
 */
static int same_where(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	if (!strcmp(a, b))
		return 1;
	char ca[1024], cb[1024];
	where_canon(a, ca, sizeof(ca));
	where_canon(b, cb, sizeof(cb));
	return ca[0] && !strcmp(ca, cb);
}

uint64_t pebs_hist_cols(const struct pebs_hist *h)
{
	uint64_t c = 1ull << h->fcol;
	if (h->by >= 0)
		c |= pebs_field_by_id(h->by)->deps;
	return c;
}

int pebs_hist_field(const struct pebs_hist *h)
{
	return h->field;
}

int pebs_hist_by(const struct pebs_hist *h)
{
	return h->by;
}

/*
 * The samples of all groups into *@all and those of value 0 into *@zero:
 * summed from the counts, as the cached totals may be stale.
 */
static void totals(const struct pebs_hist *h, uint64_t *all, uint64_t *zero)
{
	uint64_t n = 0, z = 0;
	for (size_t j = 0; j < h->ndl; j++) {
		z += h->dense[j][0];
		for (size_t v = 0; v < DENSE; v++)
			n += h->dense[j][v];
	}
	for (size_t j = 0; j < h->spn; j++) {
		n += h->sp[j].n;
		if (!h->sp[j].v)
			z += h->sp[j].n;
	}
	*all = n;
	*zero = z;
}

uint64_t pebs_hist_total(const struct pebs_hist *h)
{
	uint64_t n, z;
	totals(h, &n, &z);
	return h->skip0 ? n - z : n;
}

uint64_t pebs_hist_unmeasured_total(const struct pebs_hist *h)
{
	uint64_t n, z;
	totals(h, &n, &z);
	return h->skip0 ? z : 0;
}

uint64_t pebs_hist_unmeasured(struct pebs_hist *h, size_t g)
{
	const struct gview *c = hist_group(h, g);
	return c ? c->unmeasured : 0;
}

void pebs_hist_set_zeros(struct pebs_hist *h, int as_values)
{
	h->skip0 = h->unm && !as_values;
	h->gen++;	/* the views change */
}

size_t pebs_hist_ngroups(const struct pebs_hist *h)
{
	return h->ng;
}

/*
 * Printed name of group key @key (not to be freed); NULL for numeric keys,
 * printed by hist_sort() instead.
 */
static const char *key_name(const struct pebs_hist *h, uint64_t key)
{
	switch (h->bykind) {
	case BY_NONE: return "all";
	case BY_EVENT: case BY_STR: return h->ev[key];
	case BY_DSRC:
		switch (h->by) {
		case PEBS_F_OP: return pebs_dsrc_op_name((enum pebs_op)key);
		case PEBS_F_MEM: return pebs_dsrc_mem_name((enum pebs_mem)key);
		case PEBS_F_SNOOP:
			return pebs_dsrc_snoop_name((enum pebs_snoop)key);
		case PEBS_F_TLB:
			return lib_dsrc_tlb_names[key % LIB_DSRC_TLB_COUNT];
		default:
			return lib_dsrc_lock_names[key % LIB_DSRC_LOCK_COUNT];
		}
	default:
		return NULL;
	}
}

static int gs_grow(struct pebs_hist *h)
{
	size_t nc = h->gscap ? h->gscap * 2 : 64;
	struct gslot *t = lib_big_realloc(NULL, nc * sizeof(*t));
	if (!t)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < h->gscap; i++) {
		if (!h->gs[i].g1)
			continue;
		size_t j = hist_hash(h->gs[i].key) & (nc - 1);
		while (t[j].g1)
			j = (j + 1) & (nc - 1);
		t[j] = h->gs[i];
	}
	lib_big_free(h->gs);
	h->gs = t;
	h->gscap = nc;
	return 0;
}

/* Index of the group with @key, created on first use; < 0 on error. */
static long group_of(struct pebs_hist *h, uint64_t key)
{
	if (h->ng && h->last_key == key && h->have_last)
		return (long)h->last_idx;
	if ((h->ng + 1) * 4 > h->gscap * 3 && gs_grow(h) < 0)
		return -PEBS_E_NOMEM;
	size_t m = h->gscap - 1, j = hist_hash(key) & m;
	while (h->gs[j].g1) {
		if (h->gs[j].key == key) {
			h->last_key = key;
			h->last_idx = h->gs[j].g1 - 1;
			h->have_last = 1;
			return (long)h->last_idx;
		}
		j = (j + 1) & m;
	}
	if (h->ng == h->gcap) {
		size_t nc = h->gcap ? h->gcap * 2 : 16;
		struct group *ng = lib_big_realloc(h->g, nc * sizeof(*ng));
		if (!ng)
			return -PEBS_E_NOMEM;
		h->g = ng;
		h->gcap = nc;
	}
	struct group *g = &h->g[h->ng];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->name = key_name(h, key);
	/* the first groups get a dense array at once: the common case of
	 * few groups then never touches the sparse log for small values */
	if (h->ng < 64 && make_dense(h, h->ng) < 0)
		return -PEBS_E_NOMEM;
	h->gs[j] = (struct gslot){ key, (uint32_t)h->ng + 1 };
	h->last_key = key;
	h->last_idx = (uint32_t)h->ng;
	h->have_last = 1;
	h->order_valid = 0;
	return (long)h->ng++;
}

/* Appends a copy of @name to ev[]: its index, or < 0. */
static long ev_append(struct pebs_hist *h, const char *name)
{
	if (h->nev == h->evcap) {
		size_t nc = h->evcap ? h->evcap * 2 : 8;
		char **n = realloc(h->ev, nc * sizeof(*n));
		if (!n)
			return -PEBS_E_NOMEM;
		h->ev = n;
		h->evcap = nc;
	}
	if (!(h->ev[h->nev] = strdup(name)))
		return -PEBS_E_NOMEM;
	return (long)h->nev++;
}

/*
 * @s with each byte that is not valid UTF-8 replaced by U+FFFD, as
 * pebs-decode's YAML and JSON have it: a group is named so in every
 * output, YAML (which must be UTF-8) reads back as the same name, and the
 * groups of a merge sort as those of the whole.  @s itself when it is
 * ASCII, else a copy in *@buf (to free); NULL when memory is short.
 */
static const char *utf8_name(const char *s, char **buf)
{
	size_t n = 0;
	int high = 0;
	*buf = NULL;
	for (; s[n]; n++)
		high |= (unsigned char)s[n] >= 0x80;
	if (!high)
		return s;
	if (!(*buf = malloc(3 * n + 1)))
		return NULL;
	(*buf)[pebs_outfmt_utf8_fix(*buf, s, n)] = 0;
	return *buf;
}

/* str_id() of a valid UTF-8 @name. */
static long str_find(struct pebs_hist *h, const char *name)
{
	if ((h->nev + 1) * 2 > h->shcap) {
		size_t nc = h->shcap ? h->shcap * 2 : 256;
		uint32_t *t = malloc(nc * sizeof(*t));
		if (!t)
			return -PEBS_E_NOMEM;
		memset(t, 0xff, nc * sizeof(*t));
		for (size_t i = 0; i < h->nev; i++) {
			size_t j = lib_str_hash(h->ev[i]) & (nc - 1);
			while (t[j] != UINT32_MAX)
				j = (j + 1) & (nc - 1);
			t[j] = (uint32_t)i;
		}
		free(h->sh);
		h->sh = t;
		h->shcap = nc;
	}
	size_t j = lib_str_hash(name) & (h->shcap - 1);
	while (h->sh[j] != UINT32_MAX) {
		if (strcmp(h->ev[h->sh[j]], name) == 0)
			return (long)h->sh[j];
		j = (j + 1) & (h->shcap - 1);
	}
	long id = ev_append(h, name);
	if (id >= 0)
		h->sh[j] = (uint32_t)id;
	return id;
}

/*
 * BY_STR and BY_EVENT: index of text or event name @raw (UTF-8 fixed) in
 * ev[], added on first sight; < 0 error.  Hashed: a file may hold 65,535
 * event names, and a linear search per name was quadratic.
 */
static long str_id(struct pebs_hist *h, const char *raw)
{
	char *buf;
	const char *name = utf8_name(raw, &buf);
	long id = name ? str_find(h, name) : -PEBS_E_NOMEM;
	free(buf);
	return id;
}

void pebs_hist_set_sym(struct pebs_hist *h, struct pebs_sym *s)
{
	if (s == h->sym)
		return;
	h->sym = s;
	if (h->pc.u)
		memset(h->pc.u, 0, h->pc.cap);
	h->pn = 0;
}

/* BY_STR: group of symbol string @str (address-keyed cache); < 0 error. */
static long sym_group(struct pebs_hist *h, const char *str)
{
	struct table *pc = &h->pc;
	if ((h->pn + 1) * 2 > pc->cap &&
	    table_grow(pc, sizeof(uint32_t), 256) < 0)
		return -PEBS_E_NOMEM;
	uint64_t key = (uintptr_t)str;
	uint32_t *val = pc->v;
	size_t j = hist_hash(key) & (pc->cap - 1);
	while (pc->u[j]) {
		if (pc->k[j] == key)
			return (long)val[j];
		j = (j + 1) & (pc->cap - 1);
	}
	long id = str_id(h, str);
	long g = id < 0 ? id : group_of(h, (uint64_t)id);
	if (g < 0)
		return g;
	pc->u[j] = 1;
	pc->k[j] = key;
	val[j] = (uint32_t)g;
	h->pn++;
	return g;
}

static uint64_t dsrc_key(int by, uint64_t d)
{
	switch (by) {
	case PEBS_F_OP: return pebs_dsrc_op(d);
	case PEBS_F_MEM: return pebs_dsrc_mem(d);
	case PEBS_F_SNOOP: return pebs_dsrc_snoop(d);
	case PEBS_F_TLB: return lib_dsrc_tlb(d);
	default: return lib_dsrc_lock(d);
	}
}

/* Group index of every sample of @b into h->gidx. */
static int group_batch(struct pebs_hist *h, const struct pebs_batch *b)
{
	size_t n = b->n;
	uint32_t *gi = h->gidx;
	long g;
	if (h->bykind == BY_DSRC) {
		const uint64_t *d = b->c64[PEBS_COL_DSRC];
		for (size_t i = 0; i < n; i++) {
			unsigned s = (unsigned)((d[i] * 0x9e3779b97f4a7c15ull)
						>> 54);
			if (h->dmap[s].key != d[i] || !h->dmap[s].g1) {
				g = group_of(h, dsrc_key(h->by, d[i]));
				if (g < 0)
					return (int)g;
				h->dmap[s].key = d[i];
				h->dmap[s].g1 = (uint32_t)g + 1;
			}
			gi[i] = h->dmap[s].g1 - 1;
		}
	} else if (h->bykind == BY_EVENT) {
		uint32_t nn = b->nnames;
		uint32_t *m = realloc(h->evmap, (nn + 1) * sizeof(*m));
		if (!m)
			return -PEBS_E_NOMEM;
		h->evmap = m;
		/* groups are made on first use: a name of the dictionary that
		 * no sample carries makes no (empty) group */
		for (uint32_t i = 0; i <= nn; i++)
			m[i] = UINT32_MAX;
		const uint32_t *c = b->c32[PEBS_COL_EVENT];
		for (size_t i = 0; i < n; i++) {
			uint32_t id = c[i] < nn ? c[i] : nn;
			if (m[id] == UINT32_MAX) {
				long e = str_id(h, id < nn ? b->names[id] :
						"");
				if (e < 0 || (g = group_of(h, (uint64_t)e)) < 0)
					return -PEBS_E_NOMEM;
				m[id] = (uint32_t)g;
			}
			gi[i] = m[id];
		}
	} else if (h->bykind == BY_STR) {
		const char *last = NULL;
		g = 0;
		for (size_t i = 0; i < n; i++) {
			const char *s = h->sym ? pebs_sym_key(h->sym, b, i,
					h->symf) : PEBS_SYM_UNKNOWN;
			if (!s)
				return -PEBS_E_NOMEM;
			if (s != last) {
				g = sym_group(h, s);
				if (g < 0)
					return (int)g;
				last = s;
			}
			gi[i] = (uint32_t)g;
		}
	} else {
		/*
		 * A few keys (cpu, tid) are found in the small direct-mapped
		 * cache; keys with many values (line, ip) miss the cache in
		 * the group index: their slots are fetched a run ahead, so the
		 * misses overlap instead of following one another.
		 */
		const uint64_t *c64 = b->c64[h->bycol];
		const uint32_t *c32 = b->c32[h->bycol];
		uint64_t key[64];
		for (size_t i0 = 0; i0 < n; i0 += 64) {
			size_t m = n - i0 < 64 ? n - i0 : 64;
			for (size_t k = 0; k < m; k++) {
				uint64_t x = (c64 ? c64[i0 + k] : c32[i0 + k]) &
					     h->bymask;
				unsigned s = (unsigned)((x *
					0x9e3779b97f4a7c15ull) >> 54);
				key[k] = x;
				if ((!h->dmap[s].g1 || h->dmap[s].key != x) &&
				    h->gscap)
					__builtin_prefetch(&h->gs[hist_hash(x) &
							   (h->gscap - 1)]);
			}
			for (size_t k = 0; k < m; k++) {
				uint64_t x = key[k];
				unsigned s = (unsigned)((x *
					0x9e3779b97f4a7c15ull) >> 54);
				if (h->dmap[s].g1 && h->dmap[s].key == x) {
					gi[i0 + k] = h->dmap[s].g1 - 1;
					continue;
				}
				g = group_of(h, x);
				if (g < 0)
					return (int)g;
				gi[i0 + k] = (uint32_t)g;
				h->dmap[s].key = x;
				h->dmap[s].g1 = (uint32_t)g + 1;
			}
		}
	}
	return 0;
}

#define COUNT_LOOP(T)							\
	do {								\
		const T *col = (const T *)vals;				\
		if (h->bykind == BY_NONE) {				\
			uint64_t *d = h->dense[h->g[0].c.ds - 1];	\
			for (size_t i = 0; i < n; i++) {		\
				uint64_t v = col[i] & mask;		\
				if (v < DENSE)				\
					d[v]++;				\
				else if (counter_add(h, 0, v, 1))	\
					return -PEBS_E_NOMEM;		\
			}						\
			break;						\
		}							\
		/* locals: the stores below could alias *h */	\
		struct group *grp = h->g;				\
		const uint32_t *gix = h->gidx;				\
		for (size_t i = 0; i < n; i++) {			\
			struct counter *c = &grp[gix[i]].c;		\
			uint64_t v = col[i] & mask;			\
			if (v < DENSE && c->ds) {			\
				h->dense[c->ds - 1][v]++;		\
			} else if (counter_add(h, gix[i], v, 1)) {	\
				return -PEBS_E_NOMEM;			\
			}						\
		}							\
	} while (0)

int pebs_hist_add(struct pebs_hist *h, const struct pebs_batch *b)
{
	size_t n = b->n;
	uint64_t mask = h->fmask;
	if (!n)
		return 0;
	if (n > UINT64_MAX - h->added)
		return -PEBS_E_RANGE;
	h->added += n;	/* each sample counts once, in its group */
	h->gen++;
	if (h->bykind == BY_NONE) {
		if (!h->ng && group_of(h, 0) < 0)
			return -PEBS_E_NOMEM;
	} else {
		if (!h->gidx && !(h->gidx = malloc(PEBS_BATCH_MAX *
						   sizeof(uint32_t))))
			return -PEBS_E_NOMEM;
		int r = group_batch(h, b);
		if (r < 0)
			return r;
	}
	const void *vals = b->c64[h->fcol] ? (const void *)b->c64[h->fcol] :
			   (const void *)b->c32[h->fcol];
	if (b->c64[h->fcol])
		COUNT_LOOP(uint64_t);
	else
		COUNT_LOOP(uint32_t);
	return 0;
}

/* Group key of printed name @s; 0 or -PEBS_E_PARSE. */
static int key_parse(struct pebs_hist *h, const char *s, uint64_t *key)
{
	int k = -1;
	switch (h->bykind) {
	case BY_NONE:
		*key = 0;
		return strcmp(s, "all") ? -PEBS_E_PARSE : 0;
	case BY_STR:
	case BY_EVENT: {
		long e = str_id(h, s);
		if (e < 0)
			return (int)e;
		*key = (uint64_t)e;
		return 0;
	}
	case BY_DSRC:
		switch (h->by) {
		case PEBS_F_OP: k = pebs_dsrc_op_parse(s); break;
		case PEBS_F_MEM: k = pebs_dsrc_mem_parse(s); break;
		case PEBS_F_SNOOP: k = pebs_dsrc_snoop_parse(s); break;
		default:
			for (int i = 0; i < 3; i++)
				if (!strcmp(s, h->by == PEBS_F_TLB ?
					    lib_dsrc_tlb_names[i] :
					    lib_dsrc_lock_names[i]))
					k = i;
		}
		if (k < 0)
			return -PEBS_E_PARSE;
		*key = (uint64_t)k;
		return 0;
	default:
		/* as printed: decimal or 0x hex (strtoull() would read "010"
		 * as octal, and clamp what exceeds 64 bits into another
		 * group) */
		if (pebs_outfmt_parse_u64(s, strlen(s), key) ||
		    !value_fits(h->bycol, h->bymask, *key))
			return -PEBS_E_PARSE;
		return 0;
	}
}

/*
 * Index of the group printed @name, made on first use (the counts are
 * about to change: gen moves on); -PEBS_E_PARSE when @name is not a value
 * of the group key, or -PEBS_E_NOMEM.
 */
static long group_named(struct pebs_hist *h, const char *name)
{
	uint64_t key = 0;
	int r = key_parse(h, name, &key);
	if (r < 0)
		return r;
	long g = group_of(h, key);
	if (g >= 0)
		h->gen++;
	return g;
}

int pebs_hist_add_value(struct pebs_hist *h, const char *group,
			uint64_t value, uint64_t count)
{
	if (count > UINT64_MAX - h->added)
		return -PEBS_E_RANGE;
	long g = group_named(h, group);
	if (g < 0)
		return (int)g;
	int r = counter_add(h, (size_t)g, value, count);
	if (!r)
		h->added += count;
	return r;
}

int pebs_hist_merge(struct pebs_hist *h, const struct pebs_hist *src)
{
	if (src->field != h->field || src->by != h->by ||
	    !same_where(src->where, h->where))
		return -PEBS_E_INVAL;
	if (src->added > UINT64_MAX - h->added)
		return -PEBS_E_RANGE;
	/* every group first: making one may move h->g */
	uint32_t *map = malloc((src->ng ? src->ng : 1) * sizeof(*map));
	if (!map)
		return -PEBS_E_NOMEM;
	int r = 0;
	uint64_t key[64];
	for (size_t i0 = 0; i0 < src->ng && !r; i0 += 64) {
		size_t m = src->ng - i0 < 64 ? src->ng - i0 : 64;
		for (size_t k = 0; k < m && !r; k++) {
			const struct group *sg = &src->g[i0 + k];
			key[k] = sg->key;
			/* names, not ids: the two histograms met events and
			 * texts in their own orders */
			if (h->bykind == BY_EVENT || h->bykind == BY_STR) {
				long id = str_id(h, sg->name);
				if (id < 0)
					r = (int)id;
				key[k] = (uint64_t)id;
			} else if (h->gscap) {
				/* many groups: fetch their slots ahead */
				__builtin_prefetch(&h->gs[hist_hash(key[k]) &
							  (h->gscap - 1)]);
			}
		}
		for (size_t k = 0; k < m && !r; k++) {
			long g = group_of(h, key[k]);
			if (g < 0)
				r = (int)g;
			else
				map[i0 + k] = (uint32_t)g;
		}
	}
	for (size_t j = 0; j < src->ndl && !r; j++) {
		const uint64_t *d = src->dense[j];
		for (size_t v = 0; v < DENSE && !r; v++)
			if (d[v])
				r = counter_add(h, map[src->dg[j]], v, d[v]);
	}
	/* straight into the log, even small values of a group with a dense
	 * array: hist_sort() adds the two up, and the log is read in order */
	for (size_t j = 0; j < src->spn && !r; j++) {
		const struct spent *e = &src->sp[j];
		r = sp_add(h, map[e->g], e->v, e->n);
	}
	free(map);
	h->gen++;
	/* after an error part of src is in: counting all of it errs on the
	 * safe side */
	h->added += src->added;
	return r;
}

/* ------------------------------------------------------------ statistics */

static int name_cmp(const void *a, const void *b, void *ctx)
{
	const struct pebs_hist *h = ctx;
	return strcmp(h->g[*(const uint32_t *)a].name,
		      h->g[*(const uint32_t *)b].name);
}

/* Output order: by name for texts, else by key.  0 or -PEBS_E_NOMEM. */
static int order_groups(struct pebs_hist *h)
{
	size_t n = h->ng, sz = n ? n : 1;
	uint32_t *o = realloc(h->order, sz * sizeof(*o));
	if (o)
		h->order = o;
	uint32_t *pos = realloc(h->pos, sz * sizeof(*pos));
	if (pos)
		h->pos = pos;
	if (!o || !pos)
		return -PEBS_E_NOMEM;
	int r = 0;
	if (h->bykind == BY_EVENT || h->bykind == BY_STR) {
		for (size_t i = 0; i < n; i++)
			o[i] = (uint32_t)i;
		qsort_r(o, n, sizeof(*o), name_cmp, h);
	} else {
		/* the keys apart, so the sort reads no group; the sorted
		 * keys are kept for printing the names */
		uint64_t *k = malloc(sz * sizeof(*k));
		uint64_t *kt = malloc(sz * sizeof(*kt));
		uint32_t *p = malloc(sz * sizeof(*p));
		uint32_t *pt = malloc(sz * sizeof(*pt));
		r = -PEBS_E_NOMEM;
		if (k && kt && p && pt) {
			for (size_t i = 0; i < n; i++) {
				k[i] = h->g[i].key;
				p[i] = (uint32_t)i;
			}
			r = lib_radix_sort(&k, &p, &kt, &pt, n);
		}
		if (!r) {
			memcpy(o, p, n * sizeof(*o));
			free(h->okey);
			h->okey = k;
			k = NULL;
		}
		free(k);
		free(kt);
		free(p);
		free(pt);
	}
	for (size_t i = 0; !r && i < n; i++)
		pos[o[i]] = (uint32_t)i;
	return r;
}

const struct gview *hist_group(struct pebs_hist *h, size_t i)
{
	if (i >= h->ng || hist_sort(h) < 0)
		return NULL;
	return &h->view[i];
}

/*
 * hist_group() for the public functions, which tell the caller's index out
 * of range (-PEBS_E_INVAL) from memory short (-PEBS_E_NOMEM).
 */
static int group_at(struct pebs_hist *h, size_t i, const struct gview **c)
{
	if (i >= h->ng)
		return -PEBS_E_INVAL;
	*c = hist_group(h, i);
	return *c ? 0 : -PEBS_E_NOMEM;
}

int pebs_hist_group_stats(struct pebs_hist *h, size_t i,
			  struct pebs_hist_stats *st)
{
	const struct gview *c;
	int r = group_at(h, i, &c);
	if (r)
		return r;
	memset(st, 0, sizeof(*st));
	st->group = c->name;
	st->count = c->n;
	if (!c->sn)
		return 0;
	st->min = c->sv[0];
	st->max = c->sv[c->sn - 1];
	for (size_t k = 0; k < c->sn; k++)
		st->sum += (unsigned __int128)c->sv[k] * c->sc[k];
	st->mean = (double)((long double)st->sum / (long double)c->n);
	return 0;
}

int pebs_hist_pct_parse(const char *list, struct pebs_hist_pct *p,
			size_t cap)
{
	size_t n = 0;
	const char *s = list;
	for (;;) {
		uint64_t num = 0, den = 1;
		size_t digits = 0, len = 0;
		int dot = 0;
		const char *start = s;
		for (; *s && *s != ','; s++, len++) {
			if (*s == '.' && !dot) {
				dot = 1;
				continue;
			}
			/* 19 digits: num and den fit in 64 bits */
			if (*s < '0' || *s > '9' || digits >= 19)
				return -PEBS_E_PARSE;
			num = num * 10 + (uint64_t)(*s - '0');
			digits++;
			if (dot)
				den *= 10;
		}
		if (!digits || len >= sizeof(p[0].name) ||
		    num > (unsigned __int128)100 * den)
			return -PEBS_E_PARSE;
		/* apart from PARSE: the caller says why, naming its limit */
		if (n == cap)
			return -PEBS_E_RANGE;
		/* each percentile names an output key (p50) and a column:
		 * a repeat, even one written differently (50, 50.0),
		 * would make duplicate keys or two equal columns */
		for (size_t k = 0; k < n; k++)
			if ((unsigned __int128)p[k].num * den ==
			    (unsigned __int128)num * p[k].den)
				return -PEBS_E_INVAL;
		p[n].num = num;
		p[n].den = den;
		memcpy(p[n].name, start, len);
		p[n].name[len] = 0;
		n++;
		if (!*s)
			break;
		s++;
	}
	return (int)n;
}

int pebs_hist_percentile(struct pebs_hist *h, size_t i,
			 const struct pebs_hist_pct *p, uint64_t *v)
{
	const struct gview *c;
	int r = group_at(h, i, &c);
	if (r)
		return r;
	if (!c->n)
		return -PEBS_E_RANGE;
	/* rank = ceil(P * n / 100) exactly, at least 1 */
	unsigned __int128 q = (unsigned __int128)p->num * c->n;
	unsigned __int128 d = (unsigned __int128)p->den * 100;
	unsigned __int128 rank = (q + d - 1) / d;
	if (rank == 0)
		rank = 1;
	unsigned __int128 cum = 0;
	for (size_t k = 0; k < c->sn; k++) {
		cum += c->sc[k];
		if (cum >= rank) {
			*v = c->sv[k];
			return 0;
		}
	}
	*v = c->sv[c->sn - 1];
	return 0;
}

/* ------------------------------------------------------------------ bins */

int pebs_hist_bins_parse(const char *spec, struct pebs_hist_bins *b)
{
	memset(b, 0, sizeof(*b));
	if (strcmp(spec, "log2") == 0) {
		b->kind = PEBS_BINS_LOG2;
		return 0;
	}
	if (strncmp(spec, "linear:", 7) == 0) {
		b->kind = PEBS_BINS_LINEAR;
		int r = pebs_num_parse(spec + 7, strlen(spec + 7), &b->width);
		return r < 0 ? r : !b->width ? -PEBS_E_INVAL : 0;
	}
	b->kind = PEBS_BINS_EDGES;
	/* the spelling the help's "edges E0,E1,..." invites; no number
	 * starts so, so the prefix is never part of an edge */
	if (strncmp(spec, "edges:", 6) == 0)
		spec += 6;
	for (const char *s = spec;; s++) {
		size_t n = strcspn(s, ",");
		uint64_t e;
		/* a limit, not a malformed spec: the caller says so */
		if (b->nedges == PEBS_HIST_MAX_EDGES)
			return -PEBS_E_UNSUPPORTED;
		int r = pebs_num_parse(s, n, &e);
		if (r < 0)
			return r;
		if (b->nedges && e <= b->edges[b->nedges - 1]) {
			/* kept, uncounted, for the caller's message */
			b->edges[b->nedges] = e;
			return -PEBS_E_INVAL;
		}
		b->edges[b->nedges++] = e;
		s += n;
		if (!*s)
			return 0;
	}
}

static unsigned log2_bin(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

struct binv {
	struct pebs_hist_bin *v;
	size_t n, cap;
};

static int bin_push(struct binv *bv, uint64_t lo, unsigned __int128 hi,
		    uint64_t count)
{
	if (bv->n == bv->cap) {
		size_t nc = bv->cap ? bv->cap * 2 : 64;
		struct pebs_hist_bin *n = realloc(bv->v, nc * sizeof(*n));
		if (!n)
			return -PEBS_E_NOMEM;
		bv->v = n;
		bv->cap = nc;
	}
	bv->v[bv->n++] = (struct pebs_hist_bin){ lo, hi, count };
	return 0;
}

int pebs_hist_bins_of(struct pebs_hist *h, size_t i,
		      const struct pebs_hist_bins *bins,
		      struct pebs_hist_bin **out, size_t *nout)
{
	const struct gview *c;
	struct binv bv = { 0 };
	*out = NULL;
	*nout = 0;
	int r = group_at(h, i, &c);
	if (r)
		return r;
	if (!c->sn)
		return 0;
	const unsigned __int128 top = (unsigned __int128)1 << 64;
	size_t k = 0;
	if (bins->kind == PEBS_BINS_LOG2) {
		unsigned b0 = log2_bin(c->sv[0]);
		unsigned b1 = log2_bin(c->sv[c->sn - 1]);
		for (unsigned b = b0; b <= b1 && !r; b++) {
			uint64_t lo = b ? 1ull << (b - 1) : 0;
			unsigned __int128 hi = (unsigned __int128)1 << b;
			uint64_t cnt = 0;
			while (k < c->sn && log2_bin(c->sv[k]) == b)
				cnt += c->sc[k++];
			r = bin_push(&bv, lo, hi, cnt);
		}
	} else if (bins->kind == PEBS_BINS_LINEAR) {
		uint64_t w = bins->width;
		uint64_t b0 = c->sv[0] / w, b1 = c->sv[c->sn - 1] / w;
		int sparse = b1 - b0 >= 10000;
		for (uint64_t b = b0; b <= b1 && !r;) {
			uint64_t cnt = 0;
			while (k < c->sn && c->sv[k] / w == b)
				cnt += c->sc[k++];
			unsigned __int128 hi = (unsigned __int128)b * w + w;
			if (!sparse || cnt)
				r = bin_push(&bv, b * w, hi > top ? top : hi,
					     cnt);
			if (b == b1)
				break;
			b = sparse && k < c->sn ? c->sv[k] / w : b + 1;
		}
	} else {
		const uint64_t *e = bins->edges;
		size_t ne = bins->nedges;
		uint64_t under = 0, over = 0;
		while (k < c->sn && c->sv[k] < e[0])
			under += c->sc[k++];
		if (under)
			r = bin_push(&bv, 0, e[0], under);
		for (size_t j = 0; j + 1 < ne && !r; j++) {
			uint64_t cnt = 0;
			while (k < c->sn && c->sv[k] < e[j + 1])
				cnt += c->sc[k++];
			r = bin_push(&bv, e[j], e[j + 1], cnt);
		}
		while (k < c->sn)
			over += c->sc[k++];
		if (over && !r)
			r = bin_push(&bv, e[ne - 1], top, over);
	}
	if (r < 0) {
		free(bv.v);
		return r;
	}
	*out = bv.v;
	*nout = bv.n;
	return 0;
}

/* ------------------------------------------------------------ YAML merge */

/*
 * The YAML is read as a stream of events, not loaded as documents: the
 * result of grouping by line holds millions of [value, count] pairs, and
 * libyaml's document tree for 90 MB of them took 3 GB and 40 s (now
 * memory stays flat).  The one constraint this puts on documents:
 * pebs_hist, field, by and where come before groups (as pebs-hist writes
 * them), and a group's name before its values.
 */
struct ys {
	yaml_parser_t p;
	yaml_event_t ev;
	int have;		/* ev holds an event */
	struct pebs_outfmt_yin in;	/* the input */
	/* pebs_hist_merge_yaml_read() of no histogram: the histogram to
	 * create from the first document's head */
	struct pebs_hist **make;
	char *err;
	size_t errlen;
};

/*
 * The next event into y->ev.  0, -PEBS_E_PARSE, or -PEBS_E_IO when the
 * input could not be read (message in y->err).
 */
static int ys_next(struct ys *y)
{
	if (y->have)
		yaml_event_delete(&y->ev);
	y->have = 0;
	if (!yaml_parser_parse(&y->p, &y->ev)) {
		if (y->in.ioerr) {
			snprintf(y->err, y->errlen, "read error");
			return -PEBS_E_IO;
		}
		snprintf(y->err, y->errlen, "YAML: line %zu: %s",
			 pebs_outfmt_yin_err_line(&y->p, &y->in),
			 y->p.problem ? y->p.problem : "syntax error");
		return -PEBS_E_PARSE;
	}
	y->have = 1;
	return 0;
}

/* The current event's text when it is a scalar, else NULL. */
static const char *ys_scalar(const struct ys *y)
{
	return y->ev.type == YAML_SCALAR_EVENT ?
	       (const char *)y->ev.data.scalar.value : NULL;
}

/* Skips the node the current event starts; leaves its last event. */
static int ys_skip(struct ys *y)
{
	int depth = 0, r;
	for (;;) {
		if (y->ev.type == YAML_MAPPING_START_EVENT ||
		    y->ev.type == YAML_SEQUENCE_START_EVENT)
			depth++;
		else if (y->ev.type == YAML_MAPPING_END_EVENT ||
			 y->ev.type == YAML_SEQUENCE_END_EVENT)
			depth--;
		if (depth <= 0)
			return 0;
		if ((r = ys_next(y)) < 0)
			return r;
	}
}

/*
 * A number as pebs-hist writes them: decimal or 0x hex (not strtoull()'s
 * octal, nor its clamping of what exceeds 64 bits to 2^64-1).  0, or -1
 * when @s (NULL: not a scalar) is none; *@big set when it is too large.
 */
static int parse_u64(const char *s, uint64_t *v, int *big)
{
	int r = s ? pebs_outfmt_parse_u64(s, strlen(s), v) : -1;
	*big |= r == -2;
	return r ? -1 : 0;
}

static int field_id(const char *name, int *id)
{
	if (name && strcmp(name, "none") == 0) {
		*id = -1;
		return 0;
	}
	const struct pebs_field *f = name ? pebs_field_find(name) : NULL;
	if (!f)
		return -1;
	*id = f->id;
	return 0;
}

#define ERR(...) do { ys_errl(y, 0, __VA_ARGS__); \
		      r = -PEBS_E_PARSE; goto out; } while (0)
/* ERR() with "line @ln: " first */
#define ERRL(ln, ...) do { ys_errl(y, (ln), __VA_ARGS__); \
			   r = -PEBS_E_PARSE; goto out; } while (0)

static void ys_errl(struct ys *y, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The message, after "line @line: " unless @line is 0.  Groups, field
 * names and --where come from the input (libyaml decoded "\e" into an
 * ESC), and the message ends on a terminal: pebs_outfmt_msg_fix().
 */
static void ys_errl(struct ys *y, size_t line, const char *fmt, ...)
{
	int n = line ? snprintf(y->err, y->errlen, "line %zu: ", line) : 0;
	if (n < 0 || (size_t)n >= y->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(y->err + n, y->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	pebs_outfmt_msg_fix(y->err);
}

/* The line of the current event, from 1. */
static size_t ys_line(const struct ys *y)
{
	return y->ev.start_mark.line + 1;
}

/*
 * The number of key @key (the current event) into *@v.  0 or
 * -PEBS_E_PARSE naming the line.
 */
static int ys_u64(struct ys *y, const char *key, uint64_t *v)
{
	int big = 0, r = 0;
	if (parse_u64(ys_scalar(y), v, &big) < 0) {
		if (big)
			ERRL(ys_line(y), "%s %s: number too large (more than "
			     "64 bits)", key, ys_scalar(y));
		ERRL(ys_line(y), "%s %s: not a number", key,
		     ys_scalar(y) ? ys_scalar(y) : "(not a scalar)");
	}
out:
	return r;
}

/*
 * The group named @name (read on line @nline) into *@g, made on first use
 * as the counting would.  0 or < 0.
 */
static int ys_make_group(struct ys *y, struct pebs_hist *h, const char *name,
			 size_t nline, long *g)
{
	int r = 0;
	if (*g >= 0)
		return 0;
	if ((*g = group_named(h, name)) < 0) {
		if (*g == -PEBS_E_PARSE)
			ERRL(nline, "group \"%s\" is not a value of %s", name,
			     h->by < 0 ? "none" : pebs_field_by_id(h->by)->name);
		r = (int)*g;
	}
out:
	return r;
}

/*
 * One group mapping (the current event starts it) into @h: its values are
 * counted as they are read.  Its count is optional (it follows from the
 * values), and checked when given.  Its unmeasured (samples of a latency
 * 0, not measured; optional: YAML from before it has them as value 0) is
 * counted as value 0, which they are.  0 or < 0.
 */
static int ys_group(struct ys *y, struct pebs_hist *h)
{
	char *name = NULL;
	uint64_t count = 0, sum = 0, unm = 0;
	int have_count = 0, have_unm = 0, have_values = 0, big = 0, r;
	size_t gline = ys_line(y), nline = 0, cline = 0;
	long g = -1;
	for (;;) {
		if ((r = ys_next(y)) < 0)
			goto out;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			break;
		const char *k = ys_scalar(y);
		int key = !k ? 0 : !strcmp(k, "group") ? 1 :
			  !strcmp(k, "count") ? 2 : !strcmp(k, "values") ? 3 :
			  !strcmp(k, "unmeasured") ? 4 : 0;
		if ((!k && (r = ys_skip(y)) < 0) || (r = ys_next(y)) < 0)
			goto out;
		if (key == 1 && ys_scalar(y) && !name) {
			nline = ys_line(y);
			if (!(name = strdup(ys_scalar(y)))) {
				r = -PEBS_E_NOMEM;
				goto out;
			}
		} else if (key == 2 && !have_count) {
			cline = ys_line(y);
			if ((r = ys_u64(y, "count", &count)) < 0)
				goto out;
			have_count = 1;
		} else if (key == 4 && !have_unm) {
			/* a 0 of addr, cpu, ... is a value: counting such
			 * samples as 0 would make up values */
			if (!h->unm)
				ERRL(ys_line(y), "unmeasured: %s has no "
				     "unmeasured samples (its 0 is a value)",
				     pebs_field_by_id(h->field)->name);
			if ((r = ys_u64(y, "unmeasured", &unm)) < 0)
				goto out;
			have_unm = 1;
		} else if (key == 3 && name &&
			   y->ev.type == YAML_SEQUENCE_START_EVENT) {
			have_values = 1;
			for (;;) {
				uint64_t v = 0, n = 0;
				if ((r = ys_next(y)) < 0)
					goto out;
				if (y->ev.type == YAML_SEQUENCE_END_EVENT)
					break;
				size_t ln = ys_line(y);
				int ok = y->ev.type ==
					 YAML_SEQUENCE_START_EVENT;
				if (ok && !(r = ys_next(y)))
					ok = !parse_u64(ys_scalar(y), &v,
							&big);
				if (ok && !(r = ys_next(y)))
					ok = !parse_u64(ys_scalar(y), &n,
							&big);
				if (ok && !(r = ys_next(y)))
					ok = y->ev.type ==
					     YAML_SEQUENCE_END_EVENT;
				if (r < 0)
					goto out;
				if (big)
					ERRL(ln, "group %s: a value or count "
					     "is too large (more than 64 "
					     "bits)", name);
				if (!ok)
					ERRL(ln, "group %s: values must be "
					     "[value, count] pairs", name);
				/* a value the field cannot hold, or a
				 * count of nothing, is no histogram
				 * pebs-hist writes (it would make up a
				 * group of no samples) */
				int fits = value_fits(h->fcol, h->fmask, v);
				if (!fits || !n) {
					const struct pebs_field *f =
						pebs_field_by_id(h->field);
					char vs[24];
					snprintf(vs, sizeof(vs), f->kind ==
						 PEBS_FK_HEX ? "0x%llx" :
						 "%llu", (unsigned long long)v);
					if (!fits)
						ERRL(ln, "group %s: %s is not a "
						     "value of %s", name, vs,
						     f->name);
					ERRL(ln, "group %s: value %s has "
					     "count 0", name, vs);
				}
				if (n > UINT64_MAX - sum)
					ERRL(ln, "group %s: counts add up to "
					     "more than 64 bits", name);
				/* every count is part of the total: a bin
				 * or group cannot wrap if it cannot */
				if (n > UINT64_MAX - h->added)
					ERRL(ln, "group %s: count %llu takes "
					     "the samples merged past 2^64-1",
					     name, (unsigned long long)n);
				/* the group is made by its first value,
				 * as the counting would */
				if ((r = ys_make_group(y, h, name, nline,
						       &g)) < 0)
					goto out;
				if ((r = counter_add(h, (size_t)g, v, n)) < 0)
					goto out;
				h->added += n;
				sum += n;
			}
		} else if (key == 3 || (r = ys_skip(y)) < 0) {
			if (key == 3)
				ERRL(gline, "group without group or values");
			goto out;
		}
	}
	if (!name || !have_values)
		ERRL(gline, "group without group or values");
	if (!sum && !unm)
		ERRL(gline, "group %s: no values (a group has samples)", name);
	if (have_count && sum != count)
		ERRL(cline, "group %s: count %llu but values add up to %llu",
		     name, (unsigned long long)count,
		     (unsigned long long)sum);
	if (unm > UINT64_MAX - sum)
		ERRL(gline, "group %s: counts add up to more than 64 bits",
		     name);
	if (unm > UINT64_MAX - h->added)
		ERRL(gline, "group %s: unmeasured %llu takes the samples "
		     "merged past 2^64-1", name, (unsigned long long)unm);
	if (unm && ((r = ys_make_group(y, h, name, nline, &g)) < 0 ||
		    (r = counter_add(h, (size_t)g, 0, unm)) < 0))
		goto out;
	h->added += unm;
	r = 0;
out:
	free(name);
	return r;
}

/* Why a head key's value is not usable. */
enum { YS_KEY_OK, YS_KEY_NOT_NAME, YS_KEY_UNKNOWN, YS_KEY_NOT_NUMERIC };

/* What a document's head said: pebs_hist, field, by and where. */
struct ys_head {
	int tag;		/* pebs_hist: 1 seen */
	int have[2];		/* [0] field, [1] by seen */
	int id[2];		/* their ids, when known */
	int why[2];		/* YS_KEY_* */
	size_t line[2];		/* their lines */
	char name[2][64];	/* their values, for messages */
	char *where;		/* the filter (malloc'd); NULL: none */
	size_t wline;		/* its line */
	int have_where, bad_where;	/* where seen; not a string */
};

/* Reads the value of head key where, the current event, into @hd. */
static int ys_head_where(const struct ys *y, struct ys_head *hd)
{
	const char *v = ys_scalar(y);
	hd->have_where = 1;
	hd->wline = ys_line(y);
	hd->bad_where = !v;
	if (v && !(hd->where = strdup(v)))
		return -PEBS_E_NOMEM;
	return 0;
}

/*
 * Reads the value of head key field (@by 0) or by (@by 1), the current
 * event, into @hd: the field counted must be numeric (the histogram
 * counts its values), the key may be any field or none.
 */
static void ys_head_key(const struct ys *y, struct ys_head *hd, int by)
{
	const char *v = ys_scalar(y);
	hd->have[by] = 1;
	hd->line[by] = ys_line(y);
	snprintf(hd->name[by], sizeof(hd->name[by]), "%s", v ? v : "");
	if (!v)
		hd->why[by] = YS_KEY_NOT_NAME;
	else if (field_id(v, &hd->id[by]) < 0 || (!by && hd->id[by] < 0))
		hd->why[by] = YS_KEY_UNKNOWN;
	else if (!by && pebs_field_by_id(hd->id[by])->kind == PEBS_FK_STR)
		hd->why[by] = YS_KEY_NOT_NUMERIC;
	else
		hd->why[by] = YS_KEY_OK;
}

/*
 * The checks of a document's head @hd, then its field and by ids into
 * *@field, *@by; with @h, that they are @h's (else -PEBS_E_INVAL).  0 or
 * -PEBS_E_PARSE.
 */
static int ys_head(struct ys *y, const struct pebs_hist *h,
		   const struct ys_head *hd, int *field, int *by)
{
	int r = 0;
	if (!hd->tag)
		ERR("not a pebs-hist YAML document");
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "by" : "field";
		if (!hd->have[k])
			ERR("no %s", key);
		if (hd->why[k] == YS_KEY_NOT_NAME)
			ERRL(hd->line[k], "%s: expected a field name", key);
		if (hd->why[k] == YS_KEY_UNKNOWN)
			ERRL(hd->line[k], "%s: unknown field \"%s\"", key,
			     hd->name[k]);
		if (hd->why[k] == YS_KEY_NOT_NUMERIC)
			ERRL(hd->line[k], "field \"%s\" is not numeric (a "
			     "histogram counts numbers)", hd->name[k]);
	}
	if (hd->bad_where)
		ERRL(hd->wline, "where: expected the --where expression");
	*field = hd->id[0];
	*by = hd->id[1];
	/*
	 * Another field or group-by, as in pebs_hist_merge(), is the
	 * caller's mistake (INVAL), not damaged input: a result cannot be
	 * regrouped.  It was PARSE, so pebs-hist wrote the first input's
	 * histogram and exited 1.
	 */
	if (h && (*field != h->field || *by != h->by)) {
		ys_errl(y, 0, "histogram of %s by %s cannot merge into one of "
			"%s by %s", pebs_field_by_id(*field)->name,
			*by < 0 ? "none" : pebs_field_by_id(*by)->name,
			pebs_field_by_id(h->field)->name,
			h->by < 0 ? "none" : pebs_field_by_id(h->by)->name);
		r = -PEBS_E_INVAL;
		goto out;
	}
	/*
	 * Counts of different samples do not add up to anything: refused
	 * as another field is.  No where key (older results too): every
	 * sample.
	 */
	if (h && !same_where(hd->where, h->where)) {
		ys_errl(y, hd->have_where ? hd->wline : 0,
			"histogram %s%s%s cannot merge into one %s%s%s "
			"(the inputs must be counted with the same --where)",
			hd->where ? "with --where \"" : "without --where",
			hd->where ? hd->where : "", hd->where ? "\"" : "",
			h->where ? "with --where \"" : "without --where",
			h->where ? h->where : "", h->where ? "\"" : "");
		r = -PEBS_E_INVAL;
	}
out:
	return r;
}

/*
 * Creates in *@hp the empty histogram of @field by @by, of filter @where
 * (copied; NULL: none), as a document's head gave them.  0 or < 0 with a
 * message in @err.
 */
static int hist_of_head(struct pebs_hist **hp, int field, int by,
			const char *where, char *err, size_t errlen)
{
	int r = pebs_hist_new(hp, field, by);
	if (!r && (r = pebs_hist_set_where(*hp, where)) < 0) {
		pebs_hist_free(*hp);
		*hp = NULL;
	}
	/* the head's checks refuse what _new() would: INVAL is a bug */
	if (r < 0)
		snprintf(err, errlen, "%s", r == -PEBS_E_NOMEM ?
			 "out of memory" : pebs_strerror(r));
	return r;
}

/*
 * With y->make and no histogram *@h yet, makes it there (and in *@h) from
 * a document's head.  0 or < 0.
 */
static int ys_make(struct ys *y, struct pebs_hist **h, int field, int by,
		   const char *where)
{
	if (*h || !y->make)
		return 0;
	int r = hist_of_head(y->make, field, by, where, y->err, y->errlen);
	if (!r)
		*h = *y->make;
	return r;
}

/*
 * One document's root mapping (the current event starts it): its field
 * and by into *@field, *@by, and with @where its filter (malloc'd, or
 * NULL) into *@where; with @h, its groups counted into @h (whose field,
 * by and filter must be the same); with @h NULL and y->make, into the
 * histogram its head makes there.  0 or < 0.
 */
static int ys_doc(struct ys *y, struct pebs_hist *h, int *field, int *by,
		  char **where)
{
	int groups = 0, r = 0;
	struct ys_head hd = { .id = { 0, -1 } };
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		ERR("not a pebs-hist YAML document");
	for (;;) {
		if ((r = ys_next(y)) < 0)
			goto out;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			break;
		const char *k = ys_scalar(y);
		int key = !k ? 0 : !strcmp(k, "pebs_hist") ? 1 :
			  !strcmp(k, "field") ? 2 : !strcmp(k, "by") ? 3 :
			  !strcmp(k, "groups") ? 4 :
			  !strcmp(k, "where") ? 5 : 0;
		if ((!k && (r = ys_skip(y)) < 0) || (r = ys_next(y)) < 0)
			goto out;
		if (key == 1) {
			/* a later version may mean something else by the
			 * same keys: refused rather than misread */
			const char *v = ys_scalar(y);
			if (!v || strcmp(v, "1"))
				ERR("unknown pebs_hist version %s (this "
				    "pebs-hist reads version 1)",
				    v ? v : "(not a number)");
			hd.tag = 1;
		} else if (key == 2 && !hd.have[0]) {
			ys_head_key(y, &hd, 0);
		} else if (key == 3 && !hd.have[1]) {
			ys_head_key(y, &hd, 1);
		} else if (key == 5 && !hd.have_where) {
			if ((r = ys_head_where(y, &hd)) < 0)
				goto out;
		}
		if (key == 4) {
			if (hd.tag && (!hd.have[0] || !hd.have[1]))
				ERR("field and by must come before groups");
			if ((r = ys_head(y, h, &hd, field, by)) < 0)
				goto out;
			if (!h && !y->make)
				goto peeked;	/* that is all */
			if ((r = ys_make(y, &h, *field, *by, hd.where)) < 0)
				goto out;
			if (y->ev.type != YAML_SEQUENCE_START_EVENT)
				ERR("no groups sequence");
			groups = 1;
			for (;;) {
				if ((r = ys_next(y)) < 0)
					goto out;
				if (y->ev.type == YAML_SEQUENCE_END_EVENT)
					break;
				if (y->ev.type != YAML_MAPPING_START_EVENT)
					ERRL(ys_line(y), "group without group "
					     "or values");
				if ((r = ys_group(y, h)) < 0)
					goto out;
			}
		} else if ((r = ys_skip(y)) < 0) {
			goto out;
		}
	}
	if ((r = ys_head(y, h, &hd, field, by)) < 0)
		goto out;
	/* a head without groups makes the histogram, then is refused */
	if ((r = ys_make(y, &h, *field, *by, hd.where)) < 0)
		goto out;
	if (h && !groups)
		ERR("no groups sequence");
peeked:
	if (where) {
		*where = hd.where;
		hd.where = NULL;
	}
out:
	free(hd.where);
	return r;
}

#undef ERR

/*
 * Each document of @y's input: merged into @h (or with y->make, into the
 * histogram the first one makes), or with @h NULL only the first one's
 * field and by read (and with @where its filter, see ys_doc()).  0 or < 0
 * with a message in y->err.  Frees @y's parser and input.
 */
static int ys_run(struct ys *y, struct pebs_hist *h, int *field, int *by,
		  char **where)
{
	int r = ys_next(y), ndocs = 0;	/* stream start */
	while (!r) {
		if ((r = ys_next(y)) < 0 ||
		    y->ev.type != YAML_DOCUMENT_START_EVENT)
			break;
		if ((r = ys_next(y)) < 0 ||
		    (r = ys_doc(y, h, field, by, where)) < 0)
			break;
		ndocs++;
		if (y->make)
			h = *y->make;
		if (!h || (r = ys_next(y)) < 0)	/* document end */
			break;
	}
	if (y->have)
		yaml_event_delete(&y->ev);
	yaml_parser_delete(&y->p);
	pebs_outfmt_yin_free(&y->in);
	if (r == -PEBS_E_NOMEM)
		snprintf(y->err, y->errlen, "out of memory");
	if (!r && !ndocs) {
		snprintf(y->err, y->errlen, "no histogram in the input");
		r = -PEBS_E_PARSE;
	}
	return r;
}

/* ys_run() of string @text. */
static int ys_text(const char *text, size_t len, struct pebs_hist *h,
		   int *field, int *by, char **where, char *err, size_t errlen)
{
	struct ys y = { .err = err, .errlen = errlen };
	if (!yaml_parser_initialize(&y.p)) {
		snprintf(err, errlen, "out of memory");
		return -PEBS_E_NOMEM;
	}
	pebs_outfmt_yin_string(&y.p, &y.in, text, len);
	return ys_run(&y, h, field, by, where);
}

int pebs_hist_yaml_peek(const char *text, size_t len, int *field, int *by,
			char *err, size_t errlen)
{
	*field = 0;
	*by = -1;
	return ys_text(text, len, NULL, field, by, NULL, err, errlen);
}

int pebs_hist_yaml_new(struct pebs_hist **hp, const char *text, size_t len,
		       char *err, size_t errlen)
{
	int field = 0, by = -1;
	char *where = NULL;
	*hp = NULL;
	int r = ys_text(text, len, NULL, &field, &by, &where, err, errlen);
	if (!r)
		r = hist_of_head(hp, field, by, where, err, errlen);
	free(where);
	return r;
}

int pebs_hist_merge_yaml(struct pebs_hist *h, const char *text, size_t len,
			 char *err, size_t errlen)
{
	int field, by;
	return ys_text(text, len, h, &field, &by, NULL, err, errlen);
}

int pebs_hist_merge_yaml_read(struct pebs_hist **hp, pebs_read_fn rd,
			      void *ctx, char *err, size_t errlen)
{
	struct ys y = { .make = *hp ? NULL : hp, .err = err,
			.errlen = errlen };
	int field = 0, by = -1;
	if (!yaml_parser_initialize(&y.p)) {
		snprintf(err, errlen, "out of memory");
		return -PEBS_E_NOMEM;
	}
	if (pebs_outfmt_yin_stream(&y.p, &y.in, rd, ctx) < 0) {
		yaml_parser_delete(&y.p);
		snprintf(err, errlen, "out of memory");
		return -PEBS_E_NOMEM;
	}
	return ys_run(&y, *hp, &field, &by, NULL);
}
