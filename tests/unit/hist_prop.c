/*
 * hist_prop.c - pebs_hist against a straightforward reference (sort the
 * values of each group; nearest rank by index; a latency of 0 is no
 * measurement, counted apart), bins against direct counting, and --merge
 * of parts against the whole.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_field.h"
#include "pebs_hist.h"

static uint64_t rs;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const char *const events[] = { "load-latency", "precise-store" };

static void fill(struct pebs_batch *b, size_t n)
{
	pebs_batch_reset(b);
	pebs_batch_intern(b, events[0]);
	pebs_batch_intern(b, events[1]);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < n; i++) {
		s.cpu = (uint32_t)(rnd() % 5);
		s.event = (uint32_t)(rnd() % 2);
		/* mostly small latencies, some beyond the dense range;
		 * stores (event 1) measure none, as on skx */
		uint64_t k = rnd() % 100;
		s.lat = k < 90 ? (uint32_t)(rnd() % 700) : k < 98 ?
			(uint32_t)(4096 + rnd() % 100000) : UINT32_MAX -
			(uint32_t)(rnd() % 3);
		if (s.event == 1)
			s.lat = 0;
		s.ins_lat = k % 3 ? (uint32_t)(rnd() % 40) : 0;
		/* an address 0 now and then: a value, not unmeasured */
		s.addr = k == 50 ? 0 : 0x7f0000000000ull + (rnd() % 5000) * 8;
		/* load; mem_lvl NA/HIT/MISS bits; dtlb NA/HIT/MISS bits
		 * (26-28); lock NA/LOCKED bits (24-25) */
		s.dsrc = (uint64_t)(rnd() % 4) << 5 | 2 |
			 (uint64_t)(rnd() % 8) << 26 |
			 (uint64_t)(rnd() % 4) << 24;
		s.time += 1 + rnd() % 10;
		pebs_batch_push(b, &s);
	}
}

struct refgroup {
	char name[64];
	uint64_t *v;
	size_t n, cap;
	uint64_t unm;		/* samples without a measurement */
};

/* The reference's rule: 0 of a latency is no measurement. */
static int is_latency(int field)
{
	return field == PEBS_COL_LAT || field == PEBS_COL_INS_LAT;
}

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static struct refgroup *ref_find(struct refgroup *g, size_t *ng,
				 const char *name)
{
	for (size_t i = 0; i < *ng; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	struct refgroup *r = &g[(*ng)++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	return r;
}

static void ref_add(struct refgroup *r, uint64_t v)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = realloc(r->v, r->cap * sizeof(uint64_t));
	}
	r->v[r->n++] = v;
}

/*
 * The group name of sample @i as the hist prints it; tlb and lock written
 * out from the perf_mem_data_src bits (dtlb MISS 0x4 and HIT 0x2 at bit
 * 26, lock LOCKED 0x2 and NA 0x1 at bit 24), not asked of the library.
 */
static void group_name(const struct pebs_batch *b, size_t i, int by,
		       char *buf, size_t len)
{
	const struct pebs_field *f = by < 0 ? NULL : pebs_field_by_id(by);
	uint64_t d = b->c64[PEBS_COL_DSRC][i];
	unsigned t = (unsigned)(d >> 26) & 0x7f, l = (unsigned)(d >> 24) & 3;
	if (!f)
		snprintf(buf, len, "all");
	else if (by == PEBS_F_TLB)
		snprintf(buf, len, "%s", t & 4 ? "miss" : t & 2 ? "hit" :
			 "na");
	else if (by == PEBS_F_LOCK)
		snprintf(buf, len, "%s", l & 2 ? "locked" : l & 1 ? "na" :
			 "no");
	else if (f->kind == PEBS_FK_STR)
		snprintf(buf, len, "%s", pebs_field_str(b, i, by));
	else
		snprintf(buf, len, f->kind == PEBS_FK_HEX ? "0x%llx" : "%llu",
			 (unsigned long long)pebs_field_num(b, i, by));
}

/*
 * @field by @by against the reference, with 0 of a latency counted as a
 * value (@zeros) or apart (the default).
 */
static void check_one(int field, int by, const struct pebs_hist_bins *bins,
		      int zeros)
{
	struct pebs_batch *b = pebs_batch_new(5000);
	struct pebs_hist *h;
	struct refgroup *g = calloc(20000, sizeof(*g));
	size_t ng = 0;
	uint64_t measured = 0, unm = 0;
	int skip0 = !zeros && is_latency(field);
	cr_assert_eq(pebs_hist_new(&h, field, by), 0);
	for (int rep = 0; rep < 4; rep++) {
		fill(b, 1000 + rnd() % 4000);
		cr_assert_eq(pebs_hist_add(h, b), 0);
		for (size_t i = 0; i < b->n; i++) {
			char name[64];
			group_name(b, i, by, name, sizeof(name));
			struct refgroup *r = ref_find(g, &ng, name);
			uint64_t v = pebs_field_num(b, i, field);
			if (skip0 && !v) {
				r->unm++;
				unm++;
			} else {
				ref_add(r, v);
				measured++;
			}
		}
	}
	/* a read before the setting: it must redo the views */
	struct pebs_hist_stats st0;
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st0), 0);
	pebs_hist_set_zeros(h, zeros);
	cr_assert_eq(pebs_hist_ngroups(h), ng);
	cr_assert_eq(pebs_hist_total(h), measured);
	cr_assert_eq(pebs_hist_unmeasured_total(h), unm);
	if (skip0)
		cr_assert_gt(unm, 0, "the data must have unmeasured samples");
	struct pebs_hist_pct p[6];
	int np = pebs_hist_pct_parse("0,0.1,50,90,99.9,100", p, 6);
	cr_assert_eq(np, 6);
	for (size_t k = 0; k < ng; k++) {
		struct pebs_hist_stats st;
		cr_assert_eq(pebs_hist_group_stats(h, k, &st), 0);
		struct refgroup *r = NULL;
		for (size_t j = 0; j < ng; j++)
			if (!strcmp(g[j].name, st.group))
				r = &g[j];
		cr_assert_not_null(r, "group %s unknown", st.group);
		cr_assert_eq(pebs_hist_unmeasured(h, k), r->unm, "group %s",
			     st.group);
		if (!r->n) {
			/* only unmeasured samples: an empty histogram */
			struct pebs_hist_bin *bv;
			size_t nb;
			uint64_t v;
			cr_assert_eq(st.count, 0);
			cr_assert_eq(pebs_hist_percentile(h, k, &p[0], &v),
				     -PEBS_E_RANGE);
			cr_assert_eq(pebs_hist_bins_of(h, k, bins, &bv, &nb), 0);
			cr_assert_eq(nb, 0);
			free(bv);
			continue;
		}
		qsort(r->v, r->n, sizeof(uint64_t), cmp64);
		unsigned __int128 sum = 0;
		for (size_t j = 0; j < r->n; j++)
			sum += r->v[j];
		cr_assert_eq(st.count, r->n);
		cr_assert_eq(st.min, r->v[0]);
		cr_assert_eq(st.max, r->v[r->n - 1]);
		cr_assert(st.sum == sum);
		for (int j = 0; j < np; j++) {
			/* nearest rank: ceil(P/100 * n), P = num/den */
			uint64_t d = p[j].den * 100;
			size_t rank = (size_t)((p[j].num * r->n + d - 1) / d);
			if (rank < 1)
				rank = 1;
			uint64_t v;
			cr_assert_eq(pebs_hist_percentile(h, k, &p[j], &v), 0);
			cr_assert_eq(v, r->v[rank - 1], "group %s p%s: %llu "
				     "want %llu", st.group, p[j].name,
				     (unsigned long long)v,
				     (unsigned long long)r->v[rank - 1]);
		}
		/* bins: each value in exactly the bin [lo, hi) counted */
		struct pebs_hist_bin *bv;
		size_t nb;
		cr_assert_eq(pebs_hist_bins_of(h, k, bins, &bv, &nb), 0);
		uint64_t total = 0;
		for (size_t j = 0; j < nb; j++) {
			uint64_t want = 0;
			for (size_t i = 0; i < r->n; i++)
				want += r->v[i] >= bv[j].lo &&
					(unsigned __int128)r->v[i] < bv[j].hi;
			cr_assert_eq(bv[j].count, want, "bin %zu", j);
			if (j)
				cr_assert(bv[j].lo >= bv[j - 1].hi);
			total += bv[j].count;
		}
		cr_assert_eq(total, r->n, "bins must cover every value");
		free(bv);
	}
	for (size_t k = 0; k < ng; k++)
		free(g[k].v);
	free(g);
	pebs_hist_free(h);
	pebs_batch_free(b);
}

Test(hist_prop, counts_stats_percentiles_bins)
{
	struct pebs_hist_bins lg, lin, ed;
	cr_assert_eq(pebs_hist_bins_parse("log2", &lg), 0);
	cr_assert_eq(pebs_hist_bins_parse("linear:50", &lin), 0);
	cr_assert_eq(pebs_hist_bins_parse("10,100,1000,5000", &ed), 0);
	rs = 1;
	for (int z = 0; z < 2; z++) {
		check_one(PEBS_COL_LAT, -1, &lg, z);
		check_one(PEBS_COL_LAT, PEBS_F_MEM, &lin, z);
		/* precise-store: a group of only unmeasured samples */
		check_one(PEBS_COL_LAT, PEBS_COL_EVENT, &ed, z);
		check_one(PEBS_COL_LAT, PEBS_COL_CPU, &lg, z);
		check_one(PEBS_COL_INS_LAT, PEBS_COL_CPU, &lin, z);
		/* 0 is a value of addr and line, with or without --zeros */
		check_one(PEBS_COL_ADDR, PEBS_F_OP, &lg, z);
		check_one(PEBS_COL_LAT, PEBS_F_TLB, &lg, z);
		check_one(PEBS_COL_INS_LAT, PEBS_F_LOCK, &lin, z);
		check_one(PEBS_F_LINE, PEBS_COL_CPU, &ed, z);
		/* many groups: most stay hash-only, some become dense */
		check_one(PEBS_COL_LAT, PEBS_F_LINE, &lin, z);
	}
}

Test(hist_prop, nearest_rank_small)
{
	struct pebs_hist *h;
	struct pebs_hist_pct p[5];
	uint64_t v;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, -1), 0);
	uint64_t vals[] = { 1, 2, 2, 3, 100 };
	for (int i = 0; i < 5; i++)
		cr_assert_eq(pebs_hist_add_value(h, "all", vals[i], 1), 0);
	cr_assert_eq(pebs_hist_pct_parse("0,20,50,80.1,100", p, 5), 5);
	uint64_t want[] = { 1, 1, 2, 100, 100 };
	for (int i = 0; i < 5; i++) {
		cr_assert_eq(pebs_hist_percentile(h, 0, &p[i], &v), 0);
		cr_assert_eq(v, want[i], "p%s = %llu", p[i].name,
			     (unsigned long long)v);
	}
	cr_assert_eq(pebs_hist_add_value(h, "L1", 3, 1), -PEBS_E_PARSE);
	pebs_hist_free(h);
}

Test(hist_prop, parse_errors)
{
	struct pebs_hist_pct p[4];
	struct pebs_hist_bins b;
	cr_assert_lt(pebs_hist_pct_parse("", p, 4), 0);
	cr_assert_lt(pebs_hist_pct_parse("50,", p, 4), 0);
	cr_assert_lt(pebs_hist_pct_parse("100.1", p, 4), 0);
	cr_assert_lt(pebs_hist_pct_parse("1,2,3,4,5", p, 4), 0);
	cr_assert_lt(pebs_hist_pct_parse("-5", p, 4), 0);
	/* a repeat, also written differently, would duplicate a key */
	cr_assert_eq(pebs_hist_pct_parse("50,50", p, 4), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_pct_parse("50,90,50.00", p, 4), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_pct_parse("0,0.0", p, 4), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_pct_parse("99.9,99.90,1", p, 4),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_pct_parse("9.9,99", p, 4), 2);
	cr_assert_eq(pebs_hist_pct_parse("99.99", p, 4), 1);
	cr_assert_eq(p[0].num, 9999);
	cr_assert_eq(p[0].den, 100);
	cr_assert_lt(pebs_hist_bins_parse("linear:0", &b), 0);
	cr_assert_lt(pebs_hist_bins_parse("linear:", &b), 0);
	cr_assert_lt(pebs_hist_bins_parse("10,5", &b), 0);
	cr_assert_lt(pebs_hist_bins_parse("10,,20", &b), 0);
	cr_assert_lt(pebs_hist_bins_parse("log3", &b), 0);
	cr_assert_eq(pebs_hist_bins_parse("0,10,100", &b), 0);
	cr_assert_eq(b.nedges, 3);
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_F_MEM, -1), -PEBS_E_INVAL);
}

static char *yaml_of(struct pebs_hist *h, const struct pebs_hist_bins *b)
{
	char *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert_eq(pebs_hist_write(h, fp, PEBS_HIST_YAML, b, NULL, 0), 0);
	fclose(fp);
	return buf;
}

/*
 * YAML of parts merged equals the whole, unmeasured counts included (the
 * stores' latencies 0): from YAML with the unmeasured key, and from YAML
 * written with the zeros as values (--zeros, or from before the key).
 */
Test(hist_prop, merge_of_parts_equals_whole)
{
	static const int bys[] = { -1, PEBS_F_MEM, PEBS_COL_EVENT,
				   PEBS_COL_CPU, PEBS_F_PAGE, PEBS_F_LINE };
	struct pebs_hist_bins lg;
	struct pebs_batch *b = pebs_batch_new(4000);
	pebs_hist_bins_parse("log2", &lg);
	rs = 99;
	for (size_t t = 0; t < sizeof(bys) / sizeof(bys[0]); t++) {
		struct pebs_hist *whole, *part[3], *merged, *merged0;
		pebs_hist_new(&whole, PEBS_COL_LAT, bys[t]);
		for (int i = 0; i < 3; i++)
			pebs_hist_new(&part[i], PEBS_COL_LAT, bys[t]);
		for (int k = 0; k < 6; k++) {
			fill(b, 1 + rnd() % 4000);
			pebs_hist_add(whole, b);
			pebs_hist_add(part[rnd() % 3], b);
		}
		pebs_hist_new(&merged, PEBS_COL_LAT, bys[t]);
		pebs_hist_new(&merged0, PEBS_COL_LAT, bys[t]);
		char err[256];
		for (int i = 0; i < 3; i++) {
			pebs_hist_set_zeros(part[i], 1);
			char *y0 = yaml_of(part[i], &lg);
			cr_assert_null(strstr(y0, "unmeasured"));
			cr_assert_eq(pebs_hist_merge_yaml(merged0, y0,
							  strlen(y0), err,
							  sizeof(err)),
				     0, "%s", err);
			free(y0);
			pebs_hist_set_zeros(part[i], 0);
			char *y = yaml_of(part[i], &lg);
			int f, by;
			cr_assert_eq(pebs_hist_yaml_peek(y, strlen(y), &f, &by,
							 err, sizeof(err)), 0,
				     "%s", err);
			cr_assert_eq(f, PEBS_COL_LAT);
			cr_assert_eq(by, bys[t]);
			cr_assert_eq(pebs_hist_merge_yaml(merged, y, strlen(y),
							  err, sizeof(err)),
				     0, "%s", err);
			free(y);
			pebs_hist_free(part[i]);
		}
		char *a = yaml_of(whole, &lg), *m = yaml_of(merged, &lg);
		char *m0 = yaml_of(merged0, &lg);
		cr_assert_str_eq(m, a, "merge differs for by=%d", bys[t]);
		cr_assert_str_eq(m0, a, "merge of zeros as values differs for "
				 "by=%d", bys[t]);
		cr_assert_gt(pebs_hist_unmeasured_total(whole), 0);
		cr_assert_eq(pebs_hist_unmeasured_total(merged),
			     pebs_hist_unmeasured_total(whole));
		cr_assert_eq(pebs_hist_total(merged), pebs_hist_total(whole));
		free(m0);
		pebs_hist_free(merged0);
		/* a mismatched histogram is refused, as by pebs_hist_merge() */
		struct pebs_hist *other;
		pebs_hist_new(&other, PEBS_COL_INS_LAT, bys[t]);
		cr_assert_eq(pebs_hist_merge_yaml(other, a, strlen(a), err,
						  sizeof(err)), -PEBS_E_INVAL);
		cr_assert(strstr(err, "cannot merge") != NULL, "%s", err);
		pebs_hist_free(other);
		free(a);
		free(m);
		pebs_hist_free(whole);
		pebs_hist_free(merged);
	}
	pebs_batch_free(b);
}

/*
 * pebs_hist_merge(), as pebs-hist's decode threads use it: parts counted
 * apart and merged in memory equal the whole, groups of events matched
 * by name (one part meets "precise-store" first, so its ids differ).
 */
Test(hist_prop, merge_in_memory_equals_whole)
{
	static const int bys[] = { -1, PEBS_F_MEM, PEBS_COL_EVENT,
				   PEBS_COL_CPU, PEBS_F_PAGE, PEBS_F_LINE };
	struct pebs_hist_bins lg;
	struct pebs_batch *b = pebs_batch_new(4000);
	pebs_hist_bins_parse("log2", &lg);
	rs = 7;
	for (size_t t = 0; t < sizeof(bys) / sizeof(bys[0]); t++) {
		struct pebs_hist *whole, *part[3];
		pebs_hist_new(&whole, PEBS_COL_LAT, bys[t]);
		for (int i = 0; i < 3; i++)
			pebs_hist_new(&part[i], PEBS_COL_LAT, bys[t]);
		fill(b, 500);
		for (size_t i = 0; i < b->n; i++)
			b->c32[PEBS_COL_EVENT][i] = 1;
		pebs_hist_add(whole, b);
		pebs_hist_add(part[2], b);
		for (int k = 0; k < 8; k++) {
			fill(b, 1 + rnd() % 4000);
			pebs_hist_add(whole, b);
			pebs_hist_add(part[rnd() % 3], b);
		}
		for (int i = 1; i < 3; i++) {
			cr_assert_eq(pebs_hist_merge(part[0], part[i]), 0);
			pebs_hist_free(part[i]);
		}
		char *a = yaml_of(whole, &lg), *m = yaml_of(part[0], &lg);
		cr_assert_str_eq(m, a, "merge differs for by=%d", bys[t]);
		cr_assert_eq(pebs_hist_total(part[0]), pebs_hist_total(whole));
		cr_assert_eq(pebs_hist_unmeasured_total(part[0]),
			     pebs_hist_unmeasured_total(whole));
		struct pebs_hist *other;
		pebs_hist_new(&other, PEBS_COL_INS_LAT, bys[t]);
		cr_assert_eq(pebs_hist_merge(other, whole), -PEBS_E_INVAL);
		pebs_hist_free(other);
		free(a);
		free(m);
		pebs_hist_free(whole);
		pebs_hist_free(part[0]);
	}
	pebs_batch_free(b);
}

Test(hist_prop, merge_rejects_bad_yaml)
{
	static const char *const bad[] = {
		"", "[1, 2", "pebs_hist: 1\nfield: lat\nby: none\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 3\n  values:\n  - [1, 2]\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: L1\n"
		"  count: 1\n  values:\n  - [1, 1]\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 1\n  values:\n  - [x, 1]\n",
		"pebs_hist: 1\nfield: nope\nby: none\ngroups: []\n",
		"field: lat\nby: none\ngroups: []\n",
		/* read as a stream: field and by before groups, a group's
		 * name before its values */
		"pebs_hist: 1\ngroups: []\nfield: lat\nby: none\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- count: 1\n"
		"  values:\n  - [1, 1]\n  group: all\n",
		/* a pair of three, a nested pair, a mapping for a pair */
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 1\n  values:\n  - [1, 1, 1]\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 1\n  values:\n  - [[1], 1]\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 1\n  values:\n  - {1: 1}\n",
		/* unmeasured: a number; a group of none has no samples */
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  unmeasured: -1\n  values: []\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  unmeasured: 0\n  values: []\n",
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  unmeasured: 18446744073709551615\n  values:\n  - [1, 1]\n",
		/* count: the measured samples only */
		"pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"
		"  count: 3\n  unmeasured: 2\n  values:\n  - [1, 1]\n",
		/* a 0 of addr is a value: it has no unmeasured */
		"pebs_hist: 1\nfield: addr\nby: none\ngroups:\n- group: all\n"
		"  unmeasured: 2\n  values:\n  - [1, 1]\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pebs_hist *h;
		char err[256] = "";
		pebs_hist_new(&h, strstr(bad[i], "field: addr") ?
			      PEBS_COL_ADDR : PEBS_COL_LAT, -1);
		cr_assert_lt(pebs_hist_merge_yaml(h, bad[i], strlen(bad[i]),
						  err, sizeof(err)), 0,
			     "case %zu accepted", i);
		cr_assert_neq(err[0], 0, "case %zu: no message", i);
		pebs_hist_free(h);
	}
}

/*
 * Many groups and more sparse counts than the log keeps unsorted: the log
 * is compacted while counting, groups go dense after some of their small
 * values were logged, and totals are read between adds (the sorted lists
 * must follow).  Reference: the (group, value) pairs sorted.
 */
struct gv {
	uint64_t g, v;
};

static int cmp_gv(const void *a, const void *b)
{
	const struct gv *x = a, *y = b;
	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

Test(hist_prop, many_groups_compacted_log)
{
	enum { N = 400000, NG = 50000 };
	struct gv *ref = malloc(N * sizeof(*ref));
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_ADDR), 0);
	/* latencies 0 as values: the reference has them (the rule for them
	 * is check_one()'s) */
	pebs_hist_set_zeros(h, 1);
	rs = 7;
	size_t n = 0;
	while (n < N) {
		pebs_batch_reset(b);
		struct pebs_sample s;
		memset(&s, 0, sizeof(s));
		for (size_t i = 0; i < 4096 && n < N; i++, n++) {
			/* group 0..9 heavy (they go dense), the rest light */
			uint64_t k = rnd() % 100;
			s.addr = k < 20 ? k % 10 : 10 + rnd() % NG;
			s.lat = rnd() % 8 == 0 ? (uint32_t)(4096 + rnd() % 50)
					       : (uint32_t)(rnd() % 300);
			pebs_batch_push(b, &s);
			ref[n] = (struct gv){ s.addr, s.lat };
		}
		cr_assert_eq(pebs_hist_add(h, b), 0);
		if (n % (4096 * 30) == 0) {
			/* a read between adds */
			struct pebs_hist_stats st;
			cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
		}
	}
	qsort(ref, N, sizeof(*ref), cmp_gv);
	size_t ng = pebs_hist_ngroups(h), i = 0;
	struct pebs_hist_pct p;
	cr_assert_eq(pebs_hist_pct_parse("50", &p, 1), 1);
	cr_assert_eq(pebs_hist_total(h), N);
	for (size_t k = 0; k < ng; k++) {
		size_t j = i;
		while (j < N && ref[j].g == ref[i].g)
			j++;
		struct pebs_hist_stats st;
		cr_assert_eq(pebs_hist_group_stats(h, k, &st), 0);
		char want[32];
		snprintf(want, sizeof(want), "0x%llx",
			 (unsigned long long)ref[i].g);
		cr_assert_str_eq(st.group, want);
		cr_assert_eq(st.count, j - i, "group %s", want);
		cr_assert_eq(st.min, ref[i].v);
		cr_assert_eq(st.max, ref[j - 1].v);
		unsigned __int128 sum = 0;
		for (size_t x = i; x < j; x++)
			sum += ref[x].v;
		cr_assert(st.sum == sum, "group %s sum", want);
		uint64_t v;
		cr_assert_eq(pebs_hist_percentile(h, k, &p, &v), 0);
		cr_assert_eq(v, ref[i + (j - i + 1) / 2 - 1].v, "group %s p50",
			     want);
		i = j;
	}
	cr_assert_eq(i, N, "every sample in a group");
	pebs_hist_free(h);
	pebs_batch_free(b);
	free(ref);
}

/* A histogram of @field by @by with YAML @y merged into it. */
static struct pebs_hist *merged_of(const char *y, int field, int by)
{
	struct pebs_hist *h;
	char err[256];
	cr_assert_eq(pebs_hist_new(&h, field, by), 0);
	cr_assert_eq(pebs_hist_merge_yaml(h, y, strlen(y), err, sizeof(err)),
		     0, "%s", err);
	return h;
}

/* Keys the merge does not read are skipped, however nested. */
Test(hist_prop, merge_skips_unknown_keys)
{
	static const char y[] =
		"pebs_hist: 1\nextra: {a: [1, {b: 2}], c: d}\nfield: lat\n"
		"by: cpu\nnote: [x, [y, z]]\ngroups:\n"
		"- group: \"3\"\n  count: 5\n  bins:\n  - {lo: 0, hi: 1}\n"
		"  odd: {deep: [[1, 2], {e: f}]}\n"
		"  values:\n  - [7, 2]\n  - [9000, 3]\n"
		"total: 5\n---\n"
		"pebs_hist: 1\nfield: lat\nby: cpu\ngroups:\n"
		"- group: \"3\"\n  count: 1\n  values:\n  - [7, 1]\n";
	struct pebs_hist *h = merged_of(y, PEBS_COL_LAT, PEBS_COL_CPU);
	struct pebs_hist_stats st;
	cr_assert_eq(pebs_hist_ngroups(h), 1);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_str_eq(st.group, "3");
	cr_assert_eq(st.count, 6);
	cr_assert_eq(st.min, 7);
	cr_assert_eq(st.max, 9000);
	cr_assert(st.sum == 7 * 3 + 9000 * 3);
	pebs_hist_free(h);
}

/*
 * unmeasured is counted as the value 0 it stands for: in any key order, in
 * a group of no other values, added to a [0, n] pair of YAML with zeros as
 * values; --zeros then shows them as values.
 */
Test(hist_prop, merge_unmeasured)
{
	static const char y[] =
		"pebs_hist: 1\nfield: lat\nby: event\ngroups:\n"
		"- unmeasured: 4\n  group: st\n  count: 0\n  values: []\n"
		"- group: ld\n  values:\n  - [7, 2]\n  unmeasured: 1\n"
		"---\npebs_hist: 1\nfield: lat\nby: event\ngroups:\n"
		"- group: ld\n  count: 3\n  values:\n  - [0, 2]\n  - [9, 1]\n";
	struct pebs_hist *h = merged_of(y, PEBS_COL_LAT, PEBS_COL_EVENT);
	cr_assert_eq(pebs_hist_ngroups(h), 2);
	cr_assert_eq(pebs_hist_total(h), 3);
	cr_assert_eq(pebs_hist_unmeasured_total(h), 7);
	struct pebs_hist_stats st;
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_str_eq(st.group, "ld");
	cr_assert_eq(st.count, 3);
	cr_assert_eq(st.min, 7);
	cr_assert_eq(pebs_hist_unmeasured(h, 0), 3);
	cr_assert_eq(pebs_hist_group_stats(h, 1, &st), 0);
	cr_assert_str_eq(st.group, "st");
	cr_assert_eq(st.count, 0);
	cr_assert_eq(pebs_hist_unmeasured(h, 1), 4);
	pebs_hist_set_zeros(h, 1);
	cr_assert_eq(pebs_hist_total(h), 10);
	cr_assert_eq(pebs_hist_unmeasured_total(h), 0);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_eq(st.count, 6);
	cr_assert_eq(st.min, 0);
	cr_assert_eq(pebs_hist_unmeasured(h, 0), 0);
	cr_assert_eq(pebs_hist_group_stats(h, 1, &st), 0);
	cr_assert_eq(st.count, 4);
	cr_assert_eq(st.max, 0);
	pebs_hist_free(h);
}
