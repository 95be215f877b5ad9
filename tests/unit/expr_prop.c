/*
 * expr_prop.c - pebs_expr against a deliberately simple per-sample
 * tree-walking reference, on random expressions over random data; block
 * analysis checked against the real evaluation of the same block.
 * Constants include the ends of the 64-bit range and of line()/page().
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_field.h"

/* ------------------------------------------------------------ random */

static uint64_t rs;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned rn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static const char *const events[] = { "load-latency", "precise-store",
				      "frontend" };

#define NDSRC 18
static uint64_t dsrcs[NDSRC];

static void init_dsrcs(void)
{
	int k = 0;
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L1, PEBS_DS_SNOOP_NONE, PEBS_DS_LOCK_NA,
		     PEBS_DS_TLB_HIT | PEBS_DS_TLB_L1, PEBS_DS_LNUM_L1, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_LFB, PEBS_DS_SNOOP_NONE, 0, PEBS_DS_TLB_MISS |
		     PEBS_DS_TLB_L2, PEBS_DS_LNUM_LFB, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L2, PEBS_DS_SNOOP_NONE, 0, PEBS_DS_TLB_HIT,
		     PEBS_DS_LNUM_L2, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HITM, PEBS_DS_LOCK_LOCKED,
		     PEBS_DS_TLB_HIT, PEBS_DS_LNUM_L3, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HIT, 0, PEBS_DS_TLB_HIT,
		     PEBS_DS_LNUM_L3, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_LOC_RAM, PEBS_DS_SNOOP_MISS, 0,
		     PEBS_DS_TLB_MISS, PEBS_DS_LNUM_RAM, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_REM_RAM1, PEBS_DS_SNOOP_HIT, 0,
		     PEBS_DS_TLB_HIT, PEBS_DS_LNUM_RAM, 1, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_HITM, 0,
		     PEBS_DS_TLB_HIT, PEBS_DS_LNUM_ANY_CACHE, 1, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_STORE, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L1, PEBS_DS_SNOOP_NA, PEBS_DS_LOCK_LOCKED,
		     PEBS_DS_TLB_HIT, 0, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_STORE, PEBS_DS_LVL_MISS |
		     PEBS_DS_LVL_L1, PEBS_DS_SNOOP_NA, 0, PEBS_DS_TLB_MISS, 0,
		     0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_MISS |
		     PEBS_DS_LVL_L3, PEBS_DS_SNOOP_NA, 0, 0, 0, 0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HIT, 0, 0, PEBS_DS_LNUM_L3,
		     0, PEBS_DS_SNOOPX_FWD);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_NA, PEBS_DS_LVL_NA,
		     PEBS_DS_SNOOP_NA, PEBS_DS_LOCK_NA, PEBS_DS_TLB_NA,
		     PEBS_DS_LNUM_NA, 0, 0);
	dsrcs[k++] = 0;
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_IO, PEBS_DS_SNOOP_NONE, 0, 0, PEBS_DS_LNUM_IO,
		     0, 0);
	dsrcs[k++] = pebs_dsrc_make(PEBS_DS_OP_PFETCH, PEBS_DS_LVL_HIT |
		     PEBS_DS_LVL_UNC, 0, 0, 0, 0, 0, 0);
	/* the second remote RAM and cache bits, as older kernels fill
	 * them: mem_lvl only, no lvl_num, no remote bit */
	dsrcs[k++] = 0x4042;	/* load, LVL_HIT | LVL_REM_RAM2 */
	dsrcs[k++] = 0x10042;	/* load, LVL_HIT | LVL_REM_CCE2 */
	cr_assert_eq(k, NDSRC);
}

/* Random data with many repeats, so comparisons hit both ways. */
static void fill(struct pebs_batch *b, size_t n, int runs)
{
	pebs_batch_reset(b);
	for (int i = 0; i < 3; i++)
		pebs_batch_intern(b, events[i]);
	uint64_t t = 1000 + rn(1000);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < n; i++) {
		if (!runs || rn(8) == 0) {
			s.cpu = rn(8);
			s.pid = 100 + rn(3);
			s.tid = s.pid + rn(4);
			s.event = rn(4);	/* 3 = outside the dictionary */
			s.ip = 0x400000 + 16 * rn(50);
			s.addr = rn(4) ? 0x7f0000000000ull + rn(1 << 14) : 0;
			s.lat = rn(4) ? rn(600) : rn(8);
			s.ins_lat = rn(3) ? 0 : rn(600);
			s.dsrc = dsrcs[rn(NDSRC)];
		}
		t += rn(100);
		s.time = t;
		pebs_batch_push(b, &s);
	}
}

/* ------------------------------------------------ reference evaluator */

enum { R_AND, R_OR, R_NOT, R_CMP, R_SET, R_STR, R_CLASS, R_CMP2, R_BOOL,
       R_CONST };

struct ref {
	int kind;
	struct ref *a, *b;
	int field;		/* field id (line/page: their own ids) */
	int fn;			/* 0, or 6 / 12: line() / page() applied */
	int op;			/* 0 == 1 != 2 < 3 <= 4 > 5 >= */
	uint64_t c;
	uint64_t lo[4], hi[4];
	int nset, neg;
	char str[4][32];
	int field2;
};

static const char *const opstr[] = { "==", "!=", "<", "<=", ">", ">=" };
static const char *const opalt[] = { "=", "!=", "<", "<=", ">", ">=" };

static uint64_t ref_val(const struct pebs_batch *b, size_t i, int field,
			int fn)
{
	uint64_t v = pebs_field_num(b, i, field);
	if (fn)
		v &= ~((1ull << fn) - 1);
	return v;
}

static int ref_cmp(int op, uint64_t x, uint64_t y)
{
	switch (op) {
	case 0: return x == y;
	case 1: return x != y;
	case 2: return x < y;
	case 3: return x <= y;
	case 4: return x > y;
	default: return x >= y;
	}
}

/*
 * The tlb and lock names straight from the perf_mem_data_src bits (bits
 * 26-32 and 24-25), written out here rather than asked of the library.
 */
static const char *ref_tlb(uint64_t d)
{
	unsigned t = (unsigned)(d >> 26) & 0x7f;
	return t & 0x4 ? "miss" : t & 0x2 ? "hit" : "na";
}

static const char *ref_lock(uint64_t d)
{
	unsigned l = (unsigned)(d >> 24) & 0x3;
	return l & 0x2 ? "locked" : l & 0x1 ? "na" : "no";
}

/* remote: the remote bit (37), or mem_lvl (bits 5-18) REM_RAM1 (0x100),
 * REM_RAM2 (0x200), REM_CCE1 (0x400) or REM_CCE2 (0x800) */
static int ref_remote(uint64_t d)
{
	return (d >> 37 & 1) || ((d >> 5) & 0xf00);
}

static int ref_class(const char *name, uint64_t d)
{
	const char *mem = pebs_dsrc_mem_name(pebs_dsrc_mem(d));
	if (!strcmp(name, "hitm"))
		return (PEBS_DS_SNOOP(d) & PEBS_DS_SNOOP_HITM) != 0;
	if (!strcmp(name, "remote"))
		return ref_remote(d);
	if (!strcmp(name, "dram"))
		return !strcmp(mem, "LOCAL_RAM") || !strcmp(mem, "REMOTE_RAM");
	if (!strcmp(name, "l1"))
		return !strcmp(mem, "L1");
	if (!strcmp(name, "lfb"))
		return !strcmp(mem, "LFB");
	if (!strcmp(name, "l2"))
		return !strcmp(mem, "L2");
	if (!strcmp(name, "l3"))
		return !strcmp(mem, "L3");
	if (!strcmp(name, "stlb_miss"))
		return (PEBS_DS_TLB(d) & PEBS_DS_TLB_MISS) != 0;
	if (!strcmp(name, "locked"))
		return (PEBS_DS_LOCK(d) & PEBS_DS_LOCK_LOCKED) != 0;
	if (!strcmp(name, "store"))
		return pebs_dsrc_op(d) == PEBS_OP_STORE;
	if (!strcmp(name, "load"))
		return pebs_dsrc_op(d) == PEBS_OP_LOAD;
	cr_assert_fail("bad class %s", name);
	return 0;
}

static int ref_eval(const struct ref *r, const struct pebs_batch *b,
		    size_t i)
{
	int m = 0;
	switch (r->kind) {
	case R_AND: return ref_eval(r->a, b, i) && ref_eval(r->b, b, i);
	case R_OR: return ref_eval(r->a, b, i) || ref_eval(r->b, b, i);
	case R_NOT: return !ref_eval(r->a, b, i);
	case R_CONST: return (int)r->c;
	case R_BOOL: return ref_val(b, i, r->field, r->fn) != 0;
	case R_CMP:
		return ref_cmp(r->op, ref_val(b, i, r->field, r->fn), r->c);
	case R_CMP2:
		return ref_cmp(r->op, ref_val(b, i, r->field, 0),
			       ref_val(b, i, r->field2, 0));
	case R_SET: {
		uint64_t v = ref_val(b, i, r->field, r->fn);
		for (int k = 0; k < r->nset; k++)
			m |= v >= r->lo[k] && v <= r->hi[k];
		return m ^ r->neg;
	}
	case R_STR: {
		uint64_t d = b->c64[PEBS_COL_DSRC][i];
		const char *s = r->field == PEBS_F_TLB ? ref_tlb(d) :
				r->field == PEBS_F_LOCK ? ref_lock(d) :
				pebs_field_str(b, i, r->field);
		for (int k = 0; k < r->nset; k++)
			m |= r->field == PEBS_COL_EVENT ? !strcmp(s, r->str[k])
			     : !strcasecmp(s, r->str[k]);
		return m ^ r->neg;
	}
	case R_CLASS:
		return ref_class(r->str[0], b->c64[PEBS_COL_DSRC][i]);
	}
	return 0;
}

static void ref_free(struct ref *r)
{
	if (!r)
		return;
	ref_free(r->a);
	ref_free(r->b);
	free(r);
}

/* ------------------------------------------------ expression generator */

static const char *const numf[] = { "lat", "cpu", "tid", "pid", "time",
				    "ip", "addr", "ins_lat", "line", "page" };
static const char *const classes[] = { "hitm", "remote", "dram", "l1",
				       "lfb", "l2", "l3", "stlb_miss",
				       "locked", "store", "load" };
static const char *const mems[] = { "L1", "LFB", "L2", "L3", "LOCAL_RAM",
				    "REMOTE_RAM", "REMOTE_CACHE", "L3_MISS",
				    "L1_MISS", "NA", "IO", "UNCACHED" };
static const char *const snoops[] = { "none", "hit", "miss", "hitm", "fwd",
				      "na" };
static const char *const tlbs[] = { "hit", "miss", "na" };
static const char *const locks[] = { "locked", "na", "no" };

/* Constants at the ends of the 64-bit range and of line()/page()
 * rounding, where "x > c" and the unmasked intervals must not wrap. */
static const uint64_t edges[] = {
	0, 1, UINT64_MAX, UINT64_MAX - 1,
	0xffffffffffffffc0ull, 0xffffffffffffffc1ull,	/* last line */
	0xfffffffffffff000ull, 0xfffffffffffff001ull,	/* last page */
	0xffffffffffffffbfull, 0xffffffffffffefffull,
};

/* A constant near the data: a value of a random sample, nudged. */
static uint64_t near(const struct pebs_batch *b, int field, int fn)
{
	if (rn(6) == 0)
		return edges[rn(sizeof(edges) / sizeof(edges[0]))];
	uint64_t v = ref_val(b, rn((unsigned)b->n), field, fn);
	switch (rn(4)) {
	case 0: return v + 1;
	case 1: return v ? v - 1 : 0;
	default: return v;
	}
}

/* @v + @d, at most 2^64 - 1 (a range's end near an edge) */
static uint64_t plus(uint64_t v, uint64_t d)
{
	return v > UINT64_MAX - d ? UINT64_MAX : v + d;
}

static int put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t o = strlen(buf);
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
	return 0;
}

/* Number as text in one of its spellings. */
static void num(char *buf, size_t len, uint64_t v)
{
	if (v && v % 1000000 == 0 && rn(2))
		put(buf, len, "%lluM", (unsigned long long)(v / 1000000));
	else if (v && v % 1000 == 0 && rn(2))
		put(buf, len, "%lluk", (unsigned long long)(v / 1000));
	else if (rn(3) == 0)
		put(buf, len, "0x%llx", (unsigned long long)v);
	else
		put(buf, len, "%llu", (unsigned long long)v);
}

/* Value operand text: FIELD, line(addr), page(addr) */
static void operand(char *buf, size_t len, struct ref *r)
{
	const char *f = numf[rn(10)];
	const struct pebs_field *pf = pebs_field_lookup(f);
	r->field = pf->id;
	r->fn = 0;
	if (!strcmp(f, "addr") && rn(3) == 0) {
		r->fn = rn(2) ? 6 : 12;
		put(buf, len, "%s(addr)", r->fn == 6 ? "line" : "page");
		r->field = PEBS_COL_ADDR;
		return;
	}
	put(buf, len, "%s", f);
}

static struct ref *gen(char *buf, size_t len, const struct pebs_batch *b,
		       int depth)
{
	struct ref *r = calloc(1, sizeof(*r));
	int k = depth <= 0 ? 3 + rn(9) : rn(12);
	switch (k) {
	case 0:
	case 1:
		r->kind = k ? R_OR : R_AND;
		put(buf, len, "(");
		r->a = gen(buf, len, b, depth - 1);
		put(buf, len, k ? (rn(2) ? " or " : " || ") :
		    (rn(2) ? " and " : " && "));
		r->b = gen(buf, len, b, depth - 1);
		put(buf, len, ")");
		break;
	case 2:
		r->kind = R_NOT;
		put(buf, len, rn(2) ? "not " : "!");
		put(buf, len, "(");
		r->a = gen(buf, len, b, depth - 1);
		put(buf, len, ")");
		break;
	case 3:
	case 4:
	case 5:
		r->kind = R_CMP;
		r->op = rn(6);
		if (rn(5) == 0) {	/* constant on the left */
			r->field = PEBS_COL_LAT;
			r->c = near(b, r->field, 0);
			num(buf, len, r->c);
			put(buf, len, " %s lat", opstr[r->op]);
			static const int flipped[] = { 0, 1, 4, 5, 2, 3 };
			r->op = flipped[r->op];
			break;
		}
		operand(buf, len, r);
		r->c = near(b, r->field, r->fn);
		put(buf, len, " %s ", rn(2) ? opstr[r->op] : opalt[r->op]);
		num(buf, len, r->c);
		break;
	case 6:
	case 7: {
		r->kind = R_SET;
		operand(buf, len, r);
		r->neg = rn(3) == 0;
		put(buf, len, r->neg ? " not in " : " in ");
		if (rn(2)) {
			r->nset = 1;
			r->lo[0] = near(b, r->field, r->fn);
			r->hi[0] = plus(r->lo[0], rn(200));
			num(buf, len, r->lo[0]);
			put(buf, len, "..");
			num(buf, len, r->hi[0]);
			break;
		}
		r->nset = 1 + rn(4);
		put(buf, len, "(");
		for (int i = 0; i < r->nset; i++) {
			r->lo[i] = r->hi[i] = near(b, r->field, r->fn);
			if (i)
				put(buf, len, ", ");
			num(buf, len, r->lo[i]);
			if (rn(3) == 0) {
				r->hi[i] = plus(r->lo[i], rn(50));
				put(buf, len, "..");
				num(buf, len, r->hi[i]);
			}
		}
		put(buf, len, ")");
		break;
	}
	case 8: {
		r->kind = R_STR;
		int which = rn(6);
		const char *fname = which == 0 ? "mem" : which == 1 ? "snoop" :
				    which == 2 ? "op" : which == 3 ? "event" :
				    which == 4 ? "tlb" : "lock";
		r->field = pebs_field_lookup(fname)->id;
		r->nset = 1 + rn(3);
		r->neg = rn(3) == 0;
		for (int i = 0; i < r->nset; i++) {
			const char *v = which == 0 ? mems[rn(12)] :
				which == 1 ? snoops[rn(6)] :
				which == 2 ? (rn(2) ? "load" : "store") :
				which == 3 ? events[rn(3)] :
				which == 4 ? tlbs[rn(3)] : locks[rn(3)];
			snprintf(r->str[i], sizeof(r->str[i]), "%s", v);
		}
		if (r->nset == 1 && rn(2)) {
			const char *q = rn(2) ? "\"" : "";
			put(buf, len, "%s %s %s%s%s", fname,
			    r->neg ? "!=" : "==", q, r->str[0], q);
			break;
		}
		put(buf, len, "%s %sin (", fname, r->neg ? "not " : "");
		for (int i = 0; i < r->nset; i++)
			put(buf, len, "%s\"%s\"", i ? ", " : "", r->str[i]);
		put(buf, len, ")");
		break;
	}
	case 9:
		r->kind = R_CLASS;
		snprintf(r->str[0], sizeof(r->str[0]), "%s", classes[rn(11)]);
		put(buf, len, "%s", r->str[0]);
		break;
	case 10:
		r->kind = R_CMP2;
		r->field = rn(2) ? PEBS_COL_LAT : PEBS_COL_CPU;
		r->field2 = rn(2) ? PEBS_COL_INS_LAT : PEBS_COL_TID;
		r->op = rn(6);
		put(buf, len, "%s %s %s", pebs_field_by_id(r->field)->name,
		    opstr[r->op], pebs_field_by_id(r->field2)->name);
		break;
	default:
		if (rn(4) == 0) {
			r->kind = R_CONST;
			r->c = rn(2);
			put(buf, len, r->c ? "true" : "false");
			break;
		}
		r->kind = R_BOOL;
		operand(buf, len, r);
		break;
	}
	return r;
}

/* Block info computed the plain way from the batch. */
static void info_of(const struct pebs_batch *b, struct pebs_block_info *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->nsamples = b->n;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		uint64_t mn = UINT64_MAX, mx = 0;
		for (size_t i = 0; i < b->n; i++) {
			uint64_t v = b->c64[c] ? b->c64[c][i] : b->c32[c][i];
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
		bi->min[c] = b->n ? mn : 0;
		bi->max[c] = mx;
		bi->present |= 1ull << c;
	}
}

Test(expr_prop, random_expressions_match_reference)
{
	struct pebs_batch *b = pebs_batch_new(4096);
	uint32_t *sel = malloc(4096 * sizeof(*sel));
	init_dsrcs();
	rs = 42;
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = iter % 50 == 0 ? 1 + rn(3) : 1 + rn(2000);
		fill(b, n, (int)rn(2));
		char text[4096] = "";
		struct ref *r = gen(text, sizeof(text), b, (int)rn(5));
		if (iter % 100 == 0)
			b->n = 0;	/* an empty batch */
		struct pebs_expr *e;
		struct pebs_expr_error err;
		int rc = pebs_expr_parse(text, &e, &err);
		cr_assert_eq(rc, 0, "parse \"%s\": col %zu: %s", text, err.col,
			     err.msg);
		size_t got = pebs_expr_eval(e, b, sel);
		size_t k = 0;
		for (size_t i = 0; i < b->n; i++) {
			if (!ref_eval(r, b, i))
				continue;
			cr_assert(k < got && sel[k] == i,
				  "\"%s\": sample %zu should match (iter %d)",
				  text, i, iter);
			k++;
		}
		cr_assert_eq(k, got, "\"%s\": %zu matches, reference %zu",
			     text, got, k);
		/* block analysis must agree with the evaluation */
		struct pebs_block_info bi;
		info_of(b, &bi);
		enum pebs_expr_match m = pebs_expr_block(e, &bi);
		if (m == PEBS_MATCH_NONE)
			cr_assert_eq(got, 0, "\"%s\": block NONE but %zu match",
				     text, got);
		if (m == PEBS_MATCH_ALL)
			cr_assert_eq(got, b->n, "\"%s\": block ALL but %zu of "
				     "%zu match", text, got, b->n);
		/* inverted: the complement */
		cr_assert_eq(pebs_expr_invert(e), 0);
		size_t inv = pebs_expr_eval(e, b, sel);
		cr_assert_eq(inv, b->n - got, "\"%s\": invert", text);
		pebs_expr_free(e);
		ref_free(r);
	}
	free(sel);
	pebs_batch_free(b);
}

/* Single-valued blocks make block analysis answer ALL/NONE often. */
Test(expr_prop, block_analysis_on_uniform_blocks)
{
	struct pebs_batch *b = pebs_batch_new(512);
	uint32_t *sel = malloc(512 * sizeof(*sel));
	init_dsrcs();
	rs = 7;
	int decided = 0;
	for (int iter = 0; iter < 2000; iter++) {
		fill(b, 1 + rn(511), 1);
		/* make most columns constant */
		for (size_t i = 1; i < b->n; i++) {
			b->c32[PEBS_COL_LAT][i] = b->c32[PEBS_COL_LAT][0] +
						  (uint32_t)rn(3);
			b->c64[PEBS_COL_DSRC][i] = b->c64[PEBS_COL_DSRC][0];
			b->c32[PEBS_COL_CPU][i] = b->c32[PEBS_COL_CPU][0];
		}
		char text[4096] = "";
		struct ref *r = gen(text, sizeof(text), b, (int)rn(3));
		struct pebs_expr *e;
		cr_assert_eq(pebs_expr_parse(text, &e, NULL), 0, "%s", text);
		size_t got = pebs_expr_eval(e, b, sel);
		size_t want = 0;
		for (size_t i = 0; i < b->n; i++)
			want += ref_eval(r, b, i) != 0;
		cr_assert_eq(got, want, "\"%s\"", text);
		struct pebs_block_info bi;
		info_of(b, &bi);
		enum pebs_expr_match m = pebs_expr_block(e, &bi);
		if (m != PEBS_MATCH_SOME)
			decided++;
		cr_assert(m != PEBS_MATCH_NONE || got == 0, "%s", text);
		cr_assert(m != PEBS_MATCH_ALL || got == b->n, "%s", text);
		pebs_expr_free(e);
		ref_free(r);
	}
	/* the analysis is not vacuous */
	cr_assert_gt(decided, 500, "only %d blocks decided", decided);
	free(sel);
	pebs_batch_free(b);
}

/*
 * Every comparison of addr, line(addr) and page(addr) with every constant
 * of edges[], on data that holds those values: "x > 2^64-1" matches
 * nothing, and neither does "line(addr) >= 2^64-63" (no line starts
 * there), however the interval arithmetic rounds.
 */
Test(expr_prop, edge_constants_every_operator)
{
	const size_t ne = sizeof(edges) / sizeof(edges[0]);
	struct pebs_batch *b = pebs_batch_new(64);
	uint32_t *sel = malloc(64 * sizeof(*sel));
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	pebs_batch_reset(b);
	pebs_batch_intern(b, events[0]);
	for (size_t i = 0; i < ne + 2; i++) {
		s.addr = i < ne ? edges[i] : 0x7f0000001234ull * i;
		s.lat = (uint32_t)i;
		s.time = 1000 + i;
		pebs_batch_push(b, &s);
	}
	static const int fns[] = { 0, 6, 12 };
	for (int f = 0; f < 3; f++)
		for (int op = 0; op < 6; op++)
			for (size_t j = 0; j < ne; j++) {
				char text[128];
				uint64_t c = edges[j];
				snprintf(text, sizeof(text), "%s %s %llu",
					 fns[f] == 0 ? "addr" : fns[f] == 6 ?
					 "line(addr)" : "page(addr)",
					 opstr[op], (unsigned long long)c);
				struct pebs_expr *e;
				cr_assert_eq(pebs_expr_parse(text, &e, NULL),
					     0, "%s", text);
				size_t want = 0;
				for (size_t i = 0; i < b->n; i++)
					want += ref_cmp(op, ref_val(b, i,
						PEBS_COL_ADDR, fns[f]), c);
				size_t got = pebs_expr_eval(e, b, sel);
				cr_assert_eq(got, want, "\"%s\": %zu matches, "
					     "want %zu", text, got, want);
				struct pebs_block_info bi;
				info_of(b, &bi);
				enum pebs_expr_match m = pebs_expr_block(e,
									 &bi);
				cr_assert(m != PEBS_MATCH_NONE || !got, "%s",
					  text);
				cr_assert(m != PEBS_MATCH_ALL || got == b->n,
					  "%s", text);
				pebs_expr_free(e);
			}
	free(sel);
	pebs_batch_free(b);
}
