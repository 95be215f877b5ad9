/*
 * hist_exact.c - pebs_hist at the edges of its number and text handling:
 * the mean printed exactly beyond 2^53, numbers of --bins as pebs-filter
 * writes them (no octal, no silent clamping), percentiles of many digits,
 * the YAML merge refusing what it cannot read exactly (numbers beyond 64
 * bits, unknown versions), group names that are not valid UTF-8, and
 * where linear bins turn sparse (more than 10000 bins).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_field.h"
#include "pebs_hist.h"

#include "output_fmt.h"

static char *write_fmt(struct pebs_hist *h, int fmt, const char *pct)
{
	struct pebs_hist_bins lg = { .kind = PEBS_BINS_LOG2 };
	struct pebs_hist_pct p[4];
	int np = pct ? pebs_hist_pct_parse(pct, p, 4) : 0;
	char *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert_geq(np, 0);
	cr_assert_eq(pebs_hist_write(h, fp, fmt, &lg, p, (size_t)np), 0);
	fclose(fp);
	return buf;
}

/* @want is in the yaml, text and csv (percentile table) outputs. */
static void check_mean(struct pebs_hist *h, const char *want)
{
	char yw[64], tw[64], cw[64];
	snprintf(yw, sizeof(yw), "  mean: %s\n", want);
	snprintf(tw, sizeof(tw), "mean %s ", want);
	snprintf(cw, sizeof(cw), ",%s,", want);
	char *y = write_fmt(h, PEBS_HIST_YAML, NULL);
	char *t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	char *c = write_fmt(h, PEBS_HIST_CSV, "50");
	cr_assert(strstr(y, yw), "yaml: want %s in\n%s", want, y);
	cr_assert(strstr(t, tw), "text: want %s in\n%s", want, t);
	cr_assert(strstr(c, cw), "csv: want %s in\n%s", want, c);
	free(y);
	free(t);
	free(c);
}

static struct pebs_hist *hist_of(const uint64_t *vc, size_t n)
{
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_TIME, -1), 0);
	for (size_t i = 0; i < n; i += 2)
		cr_assert_eq(pebs_hist_add_value(h, "all", vc[i], vc[i + 1]),
			     0);
	return h;
}

Test(hist_exact, mean_beyond_2_53)
{
	const uint64_t k = 1ull << 63;
	static const struct {
		uint64_t vc[4];
		const char *mean;
	} t[] = {
		/* (5 (2^64-1) + 100) / 6: a double gave ...293696.000 */
		{ { UINT64_MAX, 5, 100, 1 }, "15372286728091293029.167" },
		/* a double gave 2^64, more than the maximum */
		{ { UINT64_MAX, 2, 0, 0 }, "18446744073709551615.000" },
		/* 2^63 + 0.9995: rounded half up, carried */
		{ { k + 1, 1999, k, 1 }, "9223372036854775809.000" },
		/* 2^63 + 0.0005, 2^63 + 0.00049975 */
		{ { k, 1999, k + 1, 1 }, "9223372036854775808.001" },
		{ { k, 2000, k + 1, 1 }, "9223372036854775808.000" },
		{ { 7, 3, 0, 0 }, "7.000" },
		{ { 1, 1, 2, 2 }, "1.667" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pebs_hist *h = hist_of(t[i].vc, t[i].vc[3] ? 4 : 2);
		check_mean(h, t[i].mean);
		/* the YAML of such a histogram merges into the same one */
		char *y = write_fmt(h, PEBS_HIST_YAML, NULL), err[256];
		struct pebs_hist *m;
		cr_assert_eq(pebs_hist_new(&m, PEBS_COL_TIME, -1), 0);
		cr_assert_eq(pebs_hist_merge_yaml(m, y, strlen(y), err,
						  sizeof(err)), 0, "%s", err);
		char *y2 = write_fmt(m, PEBS_HIST_YAML, NULL);
		cr_assert_str_eq(y2, y);
		free(y);
		free(y2);
		pebs_hist_free(m);
		pebs_hist_free(h);
	}
}

Test(hist_exact, bins_numbers)
{
	struct pebs_hist_bins b;
	/* leading zeros are decimal, as in pebs-filter */
	cr_assert_eq(pebs_hist_bins_parse("010,020", &b), 0);
	cr_assert_eq(b.nedges, 2);
	cr_assert_eq(b.edges[0], 10);
	cr_assert_eq(b.edges[1], 20);
	cr_assert_eq(pebs_hist_bins_parse("08,09", &b), 0);
	cr_assert_eq(b.edges[0], 8);
	cr_assert_eq(b.edges[1], 9);
	cr_assert_eq(pebs_hist_bins_parse("0x10,1k,2K,3M,4G", &b), 0);
	cr_assert_eq(b.nedges, 5);
	cr_assert_eq(b.edges[0], 16);
	cr_assert_eq(b.edges[1], 1000);
	cr_assert_eq(b.edges[2], 2000);
	cr_assert_eq(b.edges[3], 3000000);
	cr_assert_eq(b.edges[4], 4000000000ull);
	/* the "edges:" spelling is the same spec */
	cr_assert_eq(pebs_hist_bins_parse("edges:0,10,100", &b), 0);
	cr_assert_eq(b.kind, PEBS_BINS_EDGES);
	cr_assert_eq(b.nedges, 3);
	cr_assert_eq(b.edges[2], 100);
	cr_assert_neq(pebs_hist_bins_parse("edges:", &b), 0);
	/* numbers that make no bins are told from a malformed spec, with
	 * the edge out of order kept for the message */
	cr_assert_eq(pebs_hist_bins_parse("edges:10,5", &b), -PEBS_E_INVAL);
	cr_assert_eq(b.nedges, 1);
	cr_assert_eq(b.edges[1], 5);
	cr_assert_eq(pebs_hist_bins_parse("1,5,5", &b), -PEBS_E_INVAL);
	cr_assert_eq(b.edges[b.nedges - 1], 5);
	cr_assert_eq(b.edges[b.nedges], 5);
	cr_assert_eq(pebs_hist_bins_parse("linear:0", &b), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_bins_parse("1k,1000", &b), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_bins_parse("linear:", &b), -PEBS_E_PARSE);
	cr_assert_eq(pebs_hist_bins_parse("1,,2", &b), -PEBS_E_PARSE);
	cr_assert_eq(pebs_hist_bins_parse("linear:4k", &b), 0);
	cr_assert_eq(b.width, 4000);
	cr_assert_eq(pebs_hist_bins_parse("linear:010", &b), 0);
	cr_assert_eq(b.width, 10);
	cr_assert_eq(pebs_hist_bins_parse("0,18446744073709551615", &b), 0);
	cr_assert_eq(b.edges[1], UINT64_MAX);
	cr_assert_eq(pebs_hist_bins_parse("linear:0xffffffffffffffff", &b),
		     0);
	cr_assert_eq(b.width, UINT64_MAX);
	/* beyond 64 bits: refused, not clamped */
	static const char *const big[] = {
		"18446744073709551616", "1,18446744073709551616",
		"linear:99999999999999999999999", "linear:18446744073709552k",
		"linear:0x10000000000000000", "18446744073709552G",
	};
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		cr_assert_eq(pebs_hist_bins_parse(big[i], &b), -PEBS_E_RANGE,
			     "%s", big[i]);
	static const char *const bad[] = {
		"", ",", "10,", ",10", "10,,20", "linear:k",
		"linear:0x", "linear:-1", "linear: 1", "0x", "1kk", "1m",
		"1.5k", "+1", "log2,1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(pebs_hist_bins_parse(bad[i], &b), -PEBS_E_PARSE,
			     "%s", bad[i]);
	/* PEBS_HIST_MAX_EDGES edges, and one more: a limit of its own, not
	 * a malformed spec (the message names the limit) */
	char spec[PEBS_HIST_MAX_EDGES * 6 + 16];
	size_t o = 0;
	for (int i = 1; i <= PEBS_HIST_MAX_EDGES; i++)
		o += (size_t)snprintf(spec + o, sizeof(spec) - o, "%s%d",
				      i > 1 ? "," : "", i);
	cr_assert_eq(pebs_hist_bins_parse(spec, &b), 0);
	cr_assert_eq(b.nedges, PEBS_HIST_MAX_EDGES);
	snprintf(spec + o, sizeof(spec) - o, ",%d", PEBS_HIST_MAX_EDGES + 1);
	cr_assert_eq(pebs_hist_bins_parse(spec, &b), -PEBS_E_UNSUPPORTED);
}

Test(hist_exact, percentiles_of_many_digits)
{
	struct pebs_hist_pct p[3];
	cr_assert_eq(pebs_hist_pct_parse("33.333333333333", p, 3), 1);
	cr_assert_eq(p[0].num, 33333333333333ull);
	cr_assert_eq(p[0].den, 1000000000000ull);
	/* 19 digits fit; 100 with 17 decimals is 20 */
	cr_assert_eq(pebs_hist_pct_parse("99.99999999999999999,"
					 "100.0000000000000000", p, 3), 2);
	cr_assert_eq(p[1].num, 1000000000000000000ull);
	cr_assert_lt(pebs_hist_pct_parse("33.3333333333333333333", p, 3), 0);
	cr_assert_lt(pebs_hist_pct_parse("100.00000000000000000", p, 3), 0);
	cr_assert_lt(pebs_hist_pct_parse("100.0000000000000001", p, 3), 0);
	/* more than @cap: a limit (RANGE), not a malformed list (PARSE) */
	cr_assert_eq(pebs_hist_pct_parse("1,2,3,4", p, 3), -PEBS_E_RANGE);
	cr_assert_eq(pebs_hist_pct_parse("1,2,3,x", p, 3), -PEBS_E_PARSE);
	/* ranks: ceil(P/100 n) exactly, for n = 3 */
	struct pebs_hist *h;
	uint64_t v;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, -1), 0);
	for (uint64_t x = 1; x <= 3; x++)
		cr_assert_eq(pebs_hist_add_value(h, "all", x, 1), 0);
	cr_assert_eq(pebs_hist_pct_parse("33.333333333333,33.34,"
					 "99.99999999999999999", p, 3), 3);
	uint64_t want[] = { 1, 2, 3 };
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pebs_hist_percentile(h, 0, &p[i], &v), 0);
		cr_assert_eq(v, want[i], "p%s", p[i].name);
	}
	pebs_hist_free(h);
}

/*
 * @y is refused by the merge into a histogram of @field by @by (and by the
 * peek when @peek), @msg in the error.
 */
static void refused_in(const char *y, int field, int by, int peek,
		       const char *msg)
{
	struct pebs_hist *h;
	char err[256] = "";
	int f, b;
	cr_assert_eq(pebs_hist_new(&h, field, by), 0);
	cr_assert_eq(pebs_hist_merge_yaml(h, y, strlen(y), err, sizeof(err)),
		     -PEBS_E_PARSE, "accepted:\n%s", y);
	cr_assert(strstr(err, msg), "error \"%s\" lacks \"%s\"", err, msg);
	if (peek) {
		err[0] = 0;
		cr_assert_eq(pebs_hist_yaml_peek(y, strlen(y), &f, &b, err,
						 sizeof(err)), -PEBS_E_PARSE);
		cr_assert(strstr(err, msg), "peek: %s", err);
	}
	pebs_hist_free(h);
}

/* refused_in() a histogram of lat. */
static void refused(const char *y, int by, int peek, const char *msg)
{
	refused_in(y, PEBS_COL_LAT, by, peek, msg);
}

#define HEAD "pebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n"

Test(hist_exact, merge_refuses_what_it_cannot_read)
{
	/* strtoull() clamped these to 2^64-1 */
	refused(HEAD "  count: 1\n  values:\n  - [18446744073709551616, 1]\n",
		-1, 0, "too large");
	refused(HEAD "  count: 1\n  values:\n  - [1, 18446744073709551616]\n",
		-1, 0, "too large");
	refused(HEAD "  count: 18446744073709551616\n  values:\n  - [1, 1]\n",
		-1, 0, "too large");
	refused(HEAD "  count: 1\n  values:\n  - [0x10000000000000000, 1]\n",
		-1, 0, "too large");
	refused("pebs_hist: 1\nfield: lat\nby: cpu\ngroups:\n"
		"- group: \"18446744073709551616\"\n  count: 1\n"
		"  values:\n  - [1, 1]\n", PEBS_COL_CPU, 0, "not a value");
	/* a field that is not a number cannot be counted: refused with its
	 * line, by the peek too (a histogram of it was "out of memory") */
	refused("pebs_hist: 1\nfield: mem\nby: none\ngroups: []\n", -1, 1,
		"line 2: field \"mem\" is not numeric");
	refused("pebs_hist: 1\nfield: sym\nby: none\ngroups: []\n", -1, 1,
		"line 2: field \"sym\" is not numeric");
	refused("pebs_hist: 1\nfield: bogus\nby: none\ngroups: []\n", -1, 1,
		"line 2: field: unknown field \"bogus\"");
	refused("pebs_hist: 1\nfield: lat\nby: bogus\ngroups: []\n", -1, 1,
		"line 3: by: unknown field \"bogus\"");
	refused("pebs_hist: 1\nfield: [lat]\nby: none\ngroups: []\n", -1, 1,
		"line 2: field: expected a field name");
	/* an unknown version is refused, by the peek too */
	refused("pebs_hist: 2\nfield: lat\nby: none\ngroups: []\n", -1, 1,
		"version 2");
	refused("pebs_hist: [1]\nfield: lat\nby: none\ngroups: []\n", -1, 1,
		"version");
	refused("pebs_hist: 1.0\nfield: lat\nby: none\ngroups: []\n", -1, 1,
		"version 1.0");
}

/* Merges @y into a histogram of @field by @by: 0 and its stats. */
static void merged(const char *y, int field, int by, uint64_t count,
		   uint64_t min, uint64_t max)
{
	struct pebs_hist *h;
	struct pebs_hist_stats st;
	char err[256] = "";
	cr_assert_eq(pebs_hist_new(&h, field, by), 0);
	cr_assert_eq(pebs_hist_merge_yaml(h, y, strlen(y), err, sizeof(err)),
		     0, "%s\n%s", err, y);
	cr_assert_eq(pebs_hist_ngroups(h), 1);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_eq(st.count, count);
	cr_assert_eq(st.min, min);
	cr_assert_eq(st.max, max);
	pebs_hist_free(h);
}

/*
 * A group's values are what pebs-hist writes: counts of at least one,
 * values the field can hold; no group without samples.  Its count is
 * optional (it follows from the values) and checked when given.  Each
 * refusal names its line.
 */
Test(hist_exact, merge_group_checks)
{
	/* line 7 is the values' first pair */
	refused(HEAD "  values:\n  - [1, 0]\n", -1, 0,
		"line 7: group all: value 1 has count 0");
	refused(HEAD "  count: 2\n  values:\n  - [1, 2]\n  - [5, 0]\n", -1, 0,
		"line 9: group all: value 5 has count 0");
	refused(HEAD "  count: 0\n  values: []\n", -1, 0,
		"line 5: group all: no values");
	refused(HEAD "  values:\n  - [4294967296, 1]\n", -1, 0,
		"line 7: group all: 4294967296 is not a value of lat");
	refused_in("pebs_hist: 1\nfield: line\nby: none\ngroups:\n"
		   "- group: all\n  values:\n  - [0x40, 1]\n  - [0x41, 1]\n",
		   PEBS_F_LINE, -1, 0,
		   "line 8: group all: 0x41 is not a value of line");
	refused("pebs_hist: 1\nfield: lat\nby: cpu\ngroups:\n"
		"- group: \"4294967296\"\n  values:\n  - [1, 1]\n",
		PEBS_COL_CPU, 0, "line 5: group \"4294967296\" is not a value "
		"of cpu");
	/* a count, when given, must be a number and match the values */
	refused(HEAD "  count: 3\n  values:\n  - [1, 2]\n", -1, 0,
		"line 6: group all: count 3 but values add up to 2");
	refused(HEAD "  count: many\n  values:\n  - [1, 2]\n", -1, 0,
		"line 6: count many: not a number");
	refused(HEAD "  count: 2\n", -1, 0,
		"line 5: group without group or values");
	/* without a count: from the values */
	merged(HEAD "  values:\n  - [1, 2]\n  - [4294967295, 1]\n",
	       PEBS_COL_LAT, -1, 3, 1, UINT32_MAX);
	merged(HEAD "  count: 3\n  values:\n  - [1, 2]\n  - [7, 1]\n",
	       PEBS_COL_LAT, -1, 3, 1, 7);
	merged("pebs_hist: 1\nfield: lat\nby: cpu\ngroups:\n"
	       "- group: \"4294967295\"\n  values:\n  - [9, 1]\n",
	       PEBS_COL_LAT, PEBS_COL_CPU, 1, 9, 9);
}

/* Numbers with leading zeros are decimal, as pebs-hist never writes
 * octal; the largest values and counts are read exactly. */
Test(hist_exact, merge_reads_decimal)
{
	/* time: a u64 field (lat, u32, refuses values beyond 2^32-1) */
	static const char y[] = "pebs_hist: 1\nfield: time\nby: none\n"
		"groups:\n- group: all\n  count: 18446744073709551615\n"
		"  values:\n  - [010, 1]\n  - [0x20, 18446744073709551613]\n"
		"  - [18446744073709551615, 1]\n"
		"---\npebs_hist: 1\nfield: lat\nby: cpu\ngroups:\n"
		"- group: \"010\"\n  count: 1\n  values:\n  - [1, 1]\n";
	struct pebs_hist *h;
	struct pebs_hist_stats st;
	char err[256];
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_TIME, -1), 0);
	/* the first document only: the second is by cpu */
	size_t n = (size_t)(strstr(y, "---") - y);
	cr_assert_eq(pebs_hist_merge_yaml(h, y, n, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_eq(st.min, 10);
	cr_assert_eq(st.max, UINT64_MAX);
	cr_assert_eq(st.count, UINT64_MAX);
	pebs_hist_free(h);
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_CPU), 0);
	const char *d2 = strstr(y, "---");
	cr_assert_eq(pebs_hist_merge_yaml(h, d2, strlen(d2), err,
					  sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_str_eq(st.group, "10");
	pebs_hist_free(h);
}

/*
 * A result counted under --where records it (key where) and merges only
 * with results of the same filter (the same text or compiled program);
 * none (an older result, or no --where) is a filter of its own.
 */
Test(hist_exact, merge_same_where)
{
	static const char body[] = "groups:\n- group: all\n  values:\n"
		"  - [5, 1]\n";
	struct { const char *doc_where, *h_where; int r; } cases[] = {
		{ NULL, NULL, 0 },
		{ "hitm", "hitm", 0 },
		{ " hitm", "hitm", 0 },
		{ "lat>100", "100 < lat", 0 },
		{ "hitm", NULL, -PEBS_E_INVAL },
		{ NULL, "hitm", -PEBS_E_INVAL },
		{ "hitm", "lat > 100", -PEBS_E_INVAL },
		{ "not an expression (", "hitm", -PEBS_E_INVAL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char y[256], err[256], out[64];
		if (cases[i].doc_where)
			snprintf(out, sizeof(out), "where: \"%s\"\n",
				 cases[i].doc_where);
		else
			out[0] = 0;
		snprintf(y, sizeof(y), "pebs_hist: 1\nfield: lat\nby: none\n"
			 "%s%s", out, body);
		struct pebs_hist *h;
		cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, -1), 0);
		cr_assert_eq(pebs_hist_set_where(h, cases[i].h_where), 0);
		int r = pebs_hist_merge_yaml(h, y, strlen(y), err, sizeof(err));
		cr_expect_eq(r, cases[i].r, "case %zu: %d %s", i, r,
			     r ? err : "");
		if (r == -PEBS_E_INVAL)
			cr_expect(strstr(err, cases[i].doc_where ?
					 cases[i].doc_where : "without") &&
				  strstr(err, cases[i].h_where ?
					 cases[i].h_where : "without"),
				  "case %zu: %s", i, err);
		pebs_hist_free(h);
	}
	/* the result of a merge is of the inputs' filter, and says so */
	char err[256];
	struct pebs_hist *h;
	const char y[] = "pebs_hist: 1\nfield: lat\nby: none\n"
		"where: \"hitm\"\ngroups:\n- group: all\n  values:\n"
		"  - [5, 1]\n";
	cr_assert_eq(pebs_hist_yaml_new(&h, y, strlen(y), err, sizeof(err)),
		     0, "%s", err);
	cr_assert_str_eq(pebs_hist_where(h), "hitm");
	cr_assert_eq(pebs_hist_merge_yaml(h, y, strlen(y), err, sizeof(err)),
		     0, "%s", err);
	char *out = write_fmt(h, PEBS_HIST_YAML, NULL);
	cr_expect(strstr(out, "\nby: none\nwhere: \"hitm\"\nbins:"), "%s",
		  out);
	free(out);
	/* and so does an in-memory merge */
	struct pebs_hist *g;
	cr_assert_eq(pebs_hist_new(&g, PEBS_COL_LAT, -1), 0);
	cr_expect_eq(pebs_hist_merge(h, g), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_set_where(g, "hitm"), 0);
	cr_expect_eq(pebs_hist_merge(h, g), 0);
	pebs_hist_free(g);
	pebs_hist_free(h);
}

/*
 * No count may wrap past 2^64-1: not a group's, and not the total of all
 * groups (each bin and group is part of it), whether the counts come from
 * one document, several, an in-memory merge or pebs_hist_add_value().
 * The refused pair is not added, nor its group made.
 */
Test(hist_exact, counts_never_wrap)
{
	static const char one[] = HEAD "  values:\n"
		"  - [5, 18446744073709551615]\n";
	static const char two[] = "pebs_hist: 1\nfield: lat\nby: mem\n"
		"groups:\n- group: L1\n  values: [[5, 9223372036854775808]]\n"
		"- group: L2\n  values: [[5, 9223372036854775808]]\n";
	static const char unm[] = "pebs_hist: 1\nfield: lat\nby: mem\n"
		"groups:\n- group: L1\n  values: [[5, 9223372036854775808]]\n"
		"- group: L2\n  unmeasured: 9223372036854775808\n"
		"  values: []\n";
	char err[256] = "";
	struct pebs_hist *h, *g;
	/* two documents of 2^64-1 each: the second is refused */
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, -1), 0);
	cr_assert_eq(pebs_hist_merge_yaml(h, one, strlen(one), err,
					  sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_hist_merge_yaml(h, one, strlen(one), err,
					  sizeof(err)), -PEBS_E_PARSE);
	cr_assert(strstr(err, "line 7: group all: count 18446744073709551615 "
			 "takes the samples merged past 2^64-1"), "%s", err);
	cr_assert_eq(pebs_hist_total(h), UINT64_MAX);
	/* nor may pebs_hist_add_value() or an in-memory merge wrap it */
	cr_assert_eq(pebs_hist_add_value(h, "all", 7, 1), -PEBS_E_RANGE);
	cr_assert_eq(pebs_hist_new(&g, PEBS_COL_LAT, -1), 0);
	cr_assert_eq(pebs_hist_add_value(g, "all", 7, 1), 0);
	cr_assert_eq(pebs_hist_merge(h, g), -PEBS_E_RANGE);
	cr_assert_eq(pebs_hist_merge(g, h), -PEBS_E_RANGE);
	cr_assert_eq(pebs_hist_total(h), UINT64_MAX);
	cr_assert_eq(pebs_hist_total(g), 1);
	pebs_hist_free(g);
	pebs_hist_free(h);
	/* two groups of one document, each within 64 bits, not together;
	 * the refused group is not made (it read "0 samples, 2 groups") */
	for (int i = 0; i < 2; i++) {
		const char *y = i ? unm : two;
		cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_F_MEM), 0);
		cr_assert_eq(pebs_hist_merge_yaml(h, y, strlen(y), err,
						  sizeof(err)), -PEBS_E_PARSE);
		cr_assert(strstr(err, i ? "line 7: group L2: unmeasured "
				 "9223372036854775808 takes the samples merged"
				 : "line 8: group L2: count 9223372036854775808 "
				 "takes the samples merged"), "%s", err);
		cr_assert_eq(pebs_hist_total(h), 1ull << 63);
		cr_assert_eq(pebs_hist_ngroups(h), 1);
		pebs_hist_free(h);
	}
}

static int valid_utf8(const char *s)
{
	size_t n = strlen(s);
	char *t = malloc(3 * n + 1);
	size_t m = pebs_outfmt_utf8_fix(t, s, n);
	int ok = m == n && !memcmp(s, t, n);
	free(t);
	return ok;
}

/*
 * Group names that are not valid UTF-8, or hold characters YAML does not
 * take as they are: the YAML and SVG outputs are valid UTF-8, the YAML
 * merges back into the same histogram (groups in the same order: the
 * names were fixed when the groups were made, not only when written), and
 * the name has U+FFFD for each invalid byte.
 */
Test(hist_exact, names_not_utf8)
{
	static const char *const names[] = {
		"\xff", "a\xc3", "\xed\xa0\x80", "c1\xc2\x80\xc2\x85\xc2\x9f",
		"nc\xef\xbf\xbe\xef\xbf\xbf", "ls\xe2\x80\xa8\xe2\x80\xa9",
		"ok \xe2\x82\xac\xf0\x9f\x98\x80", "ctl\x01\x7f\"\\",
	};
	for (int by = 0; by < 2; by++) {
		struct pebs_hist *h, *m;
		int key = by ? PEBS_F_SYM : PEBS_COL_EVENT;
		cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, key), 0);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			cr_assert_eq(pebs_hist_add_value(h, names[i], 10 + i,
							 1 + i), 0);
		char *y = write_fmt(h, PEBS_HIST_YAML, NULL);
		char *s = write_fmt(h, PEBS_HIST_SVG, NULL);
		cr_assert(valid_utf8(y), "yaml:\n%s", y);
		cr_assert(valid_utf8(s), "svg:\n%s", s);
		cr_assert(strstr(y, "- group: \"\xef\xbf\xbd\"\n"), "%s", y);
		cr_assert(strstr(s, ">\xef\xbf\xbd ("), "%s", s);
		cr_assert(!strstr(s, "\xef\xbf\xbe"), "%s", s);
		cr_assert(strstr(y, "\"c1\\x80\\x85\\x9f\""), "%s", y);
		cr_assert(strstr(y, "\"nc\\ufffe\\uffff\""), "%s", y);
		cr_assert(strstr(y, "\"ls\\u2028\\u2029\""), "%s", y);
		char err[256];
		cr_assert_eq(pebs_hist_new(&m, PEBS_COL_LAT, key), 0);
		cr_assert_eq(pebs_hist_merge_yaml(m, y, strlen(y), err,
						  sizeof(err)), 0, "%s", err);
		char *y2 = write_fmt(m, PEBS_HIST_YAML, NULL);
		cr_assert_str_eq(y2, y);
		char *c = write_fmt(h, PEBS_HIST_CSV, NULL);
		char *c2 = write_fmt(m, PEBS_HIST_CSV, NULL);
		cr_assert_str_eq(c2, c);
		free(c);
		free(c2);
		struct pebs_hist_stats st;
		int found = 0;
		for (size_t g = 0; g < pebs_hist_ngroups(m); g++) {
			cr_assert_eq(pebs_hist_group_stats(m, g, &st), 0);
			found += !strcmp(st.group, "a\xef\xbf\xbd") ||
				 !strcmp(st.group,
					 "c1\xc2\x80\xc2\x85\xc2\x9f");
		}
		cr_assert_eq(found, 2);
		/* names that differ only in invalid bytes are one group */
		size_t ng = pebs_hist_ngroups(h);
		cr_assert_eq(pebs_hist_add_value(h, "\xfe", 1, 1), 0);
		cr_assert_eq(pebs_hist_ngroups(h), ng);
		free(y);
		free(y2);
		free(s);
		pebs_hist_free(h);
		pebs_hist_free(m);
	}
}

/*
 * pebs_hist_set_top(): csv and text list the largest groups, most first,
 * equal counts in key order; yaml keeps every group; 0 restores the key
 * order.
 */
Test(hist_exact, top_groups)
{
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_CPU), 0);
	/* cpu: samples */
	static const uint64_t g[][2] = {
		{ 1, 5 }, { 2, 9 }, { 3, 5 }, { 4, 1 }, { 5, 9 }, { 6, 2 }
	};
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		char name[8];
		snprintf(name, sizeof(name), "%llu", (unsigned long long)g[i][0]);
		cr_assert_eq(pebs_hist_add_value(h, name, 100 + i, g[i][1]),
			     0);
	}
	pebs_hist_set_top(h, 3);
	char *c = write_fmt(h, PEBS_HIST_CSV, "50");
	cr_assert_str_eq(c, "group,count,min,max,mean,p50\n"
			 "2,9,101,101,101.000,101\n"
			 "5,9,104,104,104.000,104\n"
			 "1,5,100,100,100.000,100\n");
	char *t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	cr_assert(strstr(t, ": 31 samples, 6 groups, the 3 with the most "
			 "samples\n"), "%s", t);
	cr_assert(strstr(t, "\n2: 9 samples") < strstr(t, "\n5: 9 samples"));
	cr_assert(strstr(t, "\n5: 9 samples") < strstr(t, "\n1: 5 samples"));
	cr_assert_null(strstr(t, "\n3: 5 samples"), "%s", t);
	char *y = write_fmt(h, PEBS_HIST_YAML, NULL);
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		char want[32];
		snprintf(want, sizeof(want), "- group: \"%llu\"\n",
			 (unsigned long long)g[i][0]);
		cr_assert(strstr(y, want), "yaml lacks %s in:\n%s", want, y);
	}
	free(c);
	free(t);
	free(y);
	pebs_hist_set_top(h, 0);
	c = write_fmt(h, PEBS_HIST_CSV, "50");
	static const char first[] = "group,count,min,max,mean,p50\n1,5,";
	cr_assert(!strncmp(c, first, sizeof(first) - 1), "%s", c);
	free(c);
	pebs_hist_free(h);
}

/*
 * The svg legend's counts in three significant digits and an SI suffix:
 * a count that rounds up to 1000 takes the next suffix ("1e+03k" was
 * written for 999600).
 */
Test(hist_exact, svg_legend_counts)
{
	static const struct {
		const char *name;
		uint64_t n;
		const char *want;
	} t[] = {
		{ "a", 999600, ">a (1M)<" },
		{ "b", 999999999, ">b (1G)<" },
		{ "c", 999, ">c (999)<" },
		{ "d", 999499, ">d (999k)<" },
		{ "e", 1000, ">e (1k)<" },
		{ "f", 12345, ">f (12.3k)<" },
		{ "g", UINT64_MAX / 2, ">g (9.22E)<" },
	};
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_EVENT), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_assert_eq(pebs_hist_add_value(h, t[i].name, 5, t[i].n), 0);
	char *s = write_fmt(h, PEBS_HIST_SVG, NULL);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect(strstr(s, t[i].want), "lacks %s:\n%s", t[i].want, s);
	free(s);
	pebs_hist_free(h);
}

/*
 * The svg note "(S of N groups)" counts the groups that could be drawn: a
 * group of only unmeasured samples (latency 0) is none ("(6 of 7
 * groups)" said one was left out for room when all were drawn).  One
 * sample is "1 sample", in svg and text.
 */
Test(hist_exact, svg_note_and_singular)
{
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_EVENT), 0);
	cr_assert_eq(pebs_hist_add_value(h, "one", 5, 1), 0);
	char *s = write_fmt(h, PEBS_HIST_SVG, NULL);
	char *t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	cr_expect(strstr(s, " (1 sample)</text>"), "%s", s);
	cr_expect(strstr(t, "lat by event: 1 sample, 1 group\n"), "%s", t);
	cr_expect(strstr(t, "\none: 1 sample (100.00%)"), "%s", t);
	free(s);
	free(t);
	/* with a group of only unmeasured samples: all drawn, no note */
	cr_assert_eq(pebs_hist_add_value(h, "stores", 0, 3), 0);
	s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, "(1 sample; 3 without a latency left out)"),
		  "%s", s);
	cr_expect_null(strstr(s, " groups)</text>"), "%s", s);
	free(s);
	/* twelve that could be drawn: ten are */
	for (int i = 0; i < 11; i++) {
		char name[16];
		snprintf(name, sizeof(name), "g%02d", i);
		cr_assert_eq(pebs_hist_add_value(h, name, 7, 2), 0);
	}
	s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, ">(10 of 12 groups)</text>"), "%s", s);
	free(s);
	pebs_hist_free(h);
}

/*
 * Long group names (paths, C++ symbols) overflowed the legend, and the
 * count written after them was lost past the image's edge: the image
 * widens for them up to 48 characters of legend, and a longer name is
 * cut in the middle (at character boundaries), whole in a <title> shown
 * on hover, its count kept.  Short names keep the 860 px image.
 */
Test(hist_exact, svg_legend_long_names)
{
	static const char cxx[] = "std::vector<std::basic_string<char>, "
		"std::allocator<std::basic_string<char>>>::_M_realloc_insert";
	char e[200] = "";
	for (int i = 0; i < 60; i++)
		strcat(e, "\xc3\xa9");	/* é: two bytes */
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_COL_EVENT), 0);
	cr_assert_eq(pebs_hist_add_value(h, "short", 5, 3), 0);
	char *s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, " width=\"860\" "), "%s", s);
	cr_expect(strstr(s, ">short (3)</text>"), "%s", s);
	cr_expect_null(strstr(s, "<title>"), "%s", s);
	free(s);
	/* 35 characters and its count: widened, not cut */
	cr_assert_eq(pebs_hist_add_value(h, "/usr/lib/x86_64-linux-gnu/libc.so.6",
					 5, 12), 0);
	s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, " width=\"1000\" height=\"500\" "
			 "viewBox=\"0 0 1000 500\""),
		  "%s", s);
	cr_expect(strstr(s, ">/usr/lib/x86_64-linux-gnu/libc.so.6 (12)<"),
		  "%s", s);
	free(s);
	cr_assert_eq(pebs_hist_add_value(h, cxx, 5, 999600), 0);
	cr_assert_eq(pebs_hist_add_value(h, e, 5, 1), 0);
	s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, " width=\"1060\" "), "%s", s);
	cr_expect(strstr(s, "<title>std::vector&lt;std::basic_string&lt;char"
			 "&gt;, std::allocator&lt;std::basic_string&lt;char"
			 "&gt;&gt;&gt;::_M_realloc_insert (1M)</title>"
			 "std::vector&lt;std::basi\xe2\x80\xa6&gt;&gt;::"
			 "_M_realloc_insert (1M)</text>"), "%s", s);
	/* 48 characters: 22 + ellipsis + 21, then " (1)" */
	char want[256];
	snprintf(want, sizeof(want), "</title>%.44s\xe2\x80\xa6%.42s (1)<",
		 e, e);
	cr_expect(strstr(s, want), "%s", s);
	cr_assert(valid_utf8(s), "%s", s);
	free(s);
	pebs_hist_free(h);
}

/*
 * The title ("FIELD distribution by KEY (N samples; M without a latency
 * left out)") ran past the image's right edge with long field and key
 * names and large counts: the image widens for it like for the legend,
 * up to 1060 px, and a longer title is cut in the middle by the legend's
 * rule, whole in a <title> shown on hover.
 */
Test(hist_exact, svg_title_fits)
{
	static const char head[] = "ins_lat distribution by applicable (";
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_INS_LAT, PEBS_COL_APPLICABLE),
		     0);
	cr_assert_eq(pebs_hist_add_value(h, "0x1", 5, 1000000005), 0);
	cr_assert_eq(pebs_hist_add_value(h, "0x1", 0, 5), 0);
	/* 85 characters at 10.5 px from x = 80, and 6 px: 979 px */
	char *s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, " width=\"979\" height=\"500\" "
			 "viewBox=\"0 0 979 500\""), "%s", s);
	cr_expect(strstr(s, "font-weight=\"bold\">ins_lat distribution by "
			 "applicable (1000000005 samples; 5 without a latency "
			 "left out)</text>"), "%s", s);
	cr_expect_null(strstr(s, "<title>"), "%s", s);
	free(s);
	pebs_hist_free(h);
	/* 112 characters: the widest image, 46 + ellipsis + 45 of them, the
	 * whole title on hover */
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_INS_LAT, PEBS_COL_APPLICABLE),
		     0);
	cr_assert_eq(pebs_hist_add_value(h, "0x1", 5, 9000000000000000000ull),
		     0);
	cr_assert_eq(pebs_hist_add_value(h, "0x1", 0, 8000000000000000000ull),
		     0);
	s = write_fmt(h, PEBS_HIST_SVG, NULL);
	cr_expect(strstr(s, " width=\"1060\" "), "%s", s);
	char want[512];
	snprintf(want, sizeof(want), "font-weight=\"bold\"><title>%s"
		 "9000000000000000000 samples; 8000000000000000000 without a "
		 "latency left out)</title>%s9000000000\xe2\x80\xa6"
		 "00000000000000000 without a latency left out)</text>", head,
		 head);
	cr_expect(strstr(s, want), "%s", s);
	cr_assert(valid_utf8(s), "%s", s);
	free(s);
	pebs_hist_free(h);
}

/*
 * A group index out of range is the caller's error, -PEBS_E_INVAL; it read
 * as -PEBS_E_NOMEM, which a caller takes for memory short.
 */
Test(hist_exact, group_index_out_of_range)
{
	static const uint64_t vc[] = { 7, 3 };
	struct pebs_hist *h = hist_of(vc, 2);
	struct pebs_hist_stats st;
	struct pebs_hist_pct p[1];
	struct pebs_hist_bins lg = { .kind = PEBS_BINS_LOG2 };
	struct pebs_hist_bin *bins;
	size_t nb;
	uint64_t v;
	cr_assert_eq(pebs_hist_ngroups(h), 1);
	cr_assert_eq(pebs_hist_pct_parse("50", p, 1), 1);
	cr_assert_eq(pebs_hist_group_stats(h, 0, &st), 0);
	cr_assert_eq(st.count, 3);
	cr_assert_eq(pebs_hist_percentile(h, 0, p, &v), 0);
	cr_assert_eq(v, 7);
	cr_assert_eq(pebs_hist_bins_of(h, 0, &lg, &bins, &nb), 0);
	free(bins);
	cr_assert_eq(pebs_hist_group_stats(h, 1, &st), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_percentile(h, 1, p, &v), -PEBS_E_INVAL);
	cr_assert_eq(pebs_hist_bins_of(h, 1, &lg, &bins, &nb),
		     -PEBS_E_INVAL);
	cr_assert_null(bins);
	cr_assert_eq(nb, 0);
	cr_assert_eq(pebs_hist_group_stats(h, SIZE_MAX, &st), -PEBS_E_INVAL);
	pebs_hist_free(h);
}

/*
 * pebs-hist(1): a linear span of more than 10000 bins writes only the
 * non-empty bins.  Values in the first and last of 10000 bins: every bin,
 * the empty ones too; of 10001 bins: the two that hold a value.
 */
Test(hist_exact, linear_sparse_beyond_10000_bins)
{
	struct pebs_hist_bins lin;
	cr_assert_eq(pebs_hist_bins_parse("linear:10", &lin), 0);
	static const struct { uint64_t lo, hi; size_t nb; } t[] = {
		{ 0, 99990, 10000 },	/* bins 0 .. 9999 */
		{ 7, 99999, 10000 },
		{ 0, 100000, 2 },	/* bins 0 .. 10000 */
		{ 50, 100055, 2 },	/* bins 5 .. 10005 */
		{ 50, 100045, 10000 },	/* bins 5 .. 10004 */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t vc[] = { t[i].lo, 3, t[i].hi, 1 };
		struct pebs_hist *h = hist_of(vc, 4);
		struct pebs_hist_bin *bv;
		size_t nb;
		cr_assert_eq(pebs_hist_bins_of(h, 0, &lin, &bv, &nb), 0);
		cr_assert_eq(nb, t[i].nb, "%llu..%llu: %zu bins, want %zu",
			     (unsigned long long)t[i].lo,
			     (unsigned long long)t[i].hi, nb, t[i].nb);
		/* first and last: the values' bins, with their counts */
		cr_assert_eq(bv[0].lo, t[i].lo / 10 * 10);
		cr_assert_eq(bv[0].count, 3);
		cr_assert_eq(bv[nb - 1].lo, t[i].hi / 10 * 10);
		cr_assert(bv[nb - 1].hi == t[i].hi / 10 * 10 + 10);
		cr_assert_eq(bv[nb - 1].count, 1);
		free(bv);
		pebs_hist_free(h);
	}
}

/*
 * A stream of @ndocs copies of document @doc, given out in pieces of at
 * most @piece bytes, that checks as it goes that the merge parses what it
 * read: once 64 KiB past a document (the parser reads ahead 16 KiB), its
 * count must be in *@hp.  A merge that read its whole input first would
 * find nothing merged.
 */
struct docs {
	const char *doc;
	size_t len, piece, ndocs, off, behind;
	struct pebs_hist **hp;
	int fail_at_end;	/* the read after the last byte fails */
};

static int docs_read(void *ctx, void *buf, size_t size, size_t *n)
{
	struct docs *d = ctx;
	size_t total = d->len * d->ndocs;
	if (d->off > 65536) {
		uint64_t want = (d->off - 65536) / d->len;
		uint64_t have = *d->hp ? pebs_hist_total(*d->hp) : 0;
		if (have < want)
			d->behind++;
	}
	if (d->off == total && d->fail_at_end)
		return -1;
	size_t k = total - d->off < size ? total - d->off : size;
	k = k < d->piece ? k : d->piece;
	for (size_t i = 0; i < k; i++)
		((char *)buf)[i] = d->doc[(d->off + i) % d->len];
	d->off += k;
	*n = k;
	return 0;
}

Test(hist_exact, merge_reads_as_it_parses)
{
	const char doc[] = "---\npebs_hist: 1\nfield: lat\nby: none\n"
		"where: \"hitm\"\ngroups:\n- group: all\n  values:\n"
		"  - [5, 1]\n";
	char err[256];
	struct pebs_hist *h = NULL;
	/* 20000 documents (1.9 MB) in pieces a pipe could give */
	struct docs d = { .doc = doc, .len = strlen(doc), .piece = 4000,
			  .ndocs = 20000, .hp = &h };
	cr_assert_eq(pebs_hist_merge_yaml_read(&h, docs_read, &d, err,
					       sizeof(err)), 0, "%s", err);
	cr_expect_eq(d.behind, 0, "%zu reads found the documents before "
		     "them unmerged", d.behind);
	cr_assert_eq(pebs_hist_total(h), 20000);
	/* the histogram made of the first head has its filter */
	cr_expect_str_eq(pebs_hist_where(h), "hitm");
	/* into a histogram given, the same; a failed read is IO, and what
	 * was read before it stays merged */
	d = (struct docs){ .doc = doc, .len = strlen(doc), .piece = 1,
			   .ndocs = 3, .hp = &h, .fail_at_end = 1 };
	cr_expect_eq(pebs_hist_merge_yaml_read(&h, docs_read, &d, err,
					       sizeof(err)), -PEBS_E_IO);
	cr_expect_str_eq(err, "read error");
	/* the last document's end was never read */
	cr_expect_eq(pebs_hist_total(h), 20002);
	pebs_hist_free(h);
	/* a head refused makes no histogram */
	h = NULL;
	d = (struct docs){ .doc = "--- {pebs_hist: 2}\n", .piece = 100,
			   .ndocs = 1, .hp = &h };
	d.len = strlen(d.doc);
	cr_expect_eq(pebs_hist_merge_yaml_read(&h, docs_read, &d, err,
					       sizeof(err)), -PEBS_E_PARSE);
	cr_expect_null(h);
	cr_expect(strstr(err, "unknown pebs_hist version 2"), "%s", err);
}

/*
 * The line of an error the parser finds in the bytes (a control
 * character) is counted up to its offset: from a stream, whose start is
 * no longer kept 1 MB on, the same as from the whole text.
 */
Test(hist_exact, merge_stream_error_lines)
{
	const char doc[] = "---\npebs_hist: 1\nfield: lat\nby: none\n"
		"groups:\n- group: all\n  values:\n  - [5, 1]\n";
	for (int cr = 0; cr < 2; cr++) {
		size_t n = strlen(doc), ndocs = 12000;
		char *text = malloc(n * ndocs + 64), *p = text;
		for (size_t i = 0; i < ndocs; i++)
			p += sprintf(p, "%s", doc);
		/* "\r\n" and "\r" line ends count one line each */
		if (cr)
			for (char *q = text; (q = strchr(q, '\n')); q++)
				if ((q - text) % 3 == 0)
					*q = '\r';
		sprintf(p, "---\npebs_hist: 1\n\x01\n");
		size_t len = strlen(text);
		char e1[256], e2[256];
		struct pebs_hist *h1 = NULL, *h2 = NULL;
		cr_assert_eq(pebs_hist_yaml_new(&h1, text, len, e1,
						sizeof(e1)), 0, "%s", e1);
		cr_assert_eq(pebs_hist_merge_yaml(h1, text, len, e1,
						  sizeof(e1)), -PEBS_E_PARSE);
		struct docs d = { .doc = text, .len = len, .piece = 7777,
				  .ndocs = 1, .hp = &h2 };
		cr_assert_eq(pebs_hist_merge_yaml_read(&h2, docs_read, &d, e2,
						       sizeof(e2)),
			     -PEBS_E_PARSE);
		cr_expect_str_eq(e2, e1);
		cr_expect(strstr(e1, "line "), "%s", e1);
		/* the documents before it are in (how many of those the
		 * parser had decoded ahead depends on how it was read) */
		cr_expect_gt(pebs_hist_total(h2), ndocs - 1000);
		pebs_hist_free(h1);
		pebs_hist_free(h2);
		free(text);
	}
}

/*
 * The text bars: eighths of a cell in Unicode block elements by default,
 * '#' a cell and '+' a part of one after pebs_hist_set_ascii() (for a
 * terminal that is not UTF-8), whole runs longer than the writers' 16.
 * Bins (log2) [4,8) 320, [8,16) 9, [16,32) 1: 40 cells, 1 1/8, 1/8.
 */
Test(hist_exact, text_bars_ascii)
{
	const uint64_t vc[] = { 5, 320, 9, 9, 17, 1 };
	struct pebs_hist *h = hist_of(vc, 6);
	char full[40 * 3 + 1] = "", hash[41];
	for (int i = 0; i < 40; i++)
		strcat(full, "\u2588");
	memset(hash, '#', 40);
	hash[40] = '\0';
	const char *uni[] = { full, "\u2588\u258f\n", "  \u258f\n" };
	const char *asc[] = { hash, "  #+\n", "  +\n" };
	char *t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	for (int i = 0; i < 3; i++)
		cr_assert(strstr(t, uni[i]), "unicode: want %s in\n%s", uni[i],
			  t);
	cr_assert_null(strchr(t, '#'));
	free(t);
	pebs_hist_set_ascii(h, 1);
	t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	for (int i = 0; i < 3; i++)
		cr_assert(strstr(t, asc[i]), "ascii: want %s in\n%s", asc[i],
			  t);
	for (const char *c = t; *c; c++)
		cr_assert_lt((unsigned char)*c, 0x80, "not ASCII:\n%s", t);
	free(t);
	pebs_hist_set_ascii(h, 0);
	t = write_fmt(h, PEBS_HIST_TEXT, NULL);
	cr_assert(strstr(t, full), "back to unicode:\n%s", t);
	free(t);
	pebs_hist_free(h);
}

/*
 * pebs_hist_write() with no bins (NULL) crashed in the text, csv and yaml
 * writers; it now writes log2 bins, as a zeroed pebs_hist_bins and
 * pebs-hist's default do.  An unknown format writes nothing.
 */
Test(hist_exact, write_without_bins_is_log2)
{
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, -1), 0);
	cr_assert_eq(pebs_hist_add_value(h, "all", 100, 3), 0);
	cr_assert_eq(pebs_hist_add_value(h, "all", 300, 2), 0);
	static const int fmts[] = { PEBS_HIST_TEXT, PEBS_HIST_CSV,
				    PEBS_HIST_YAML };
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *with = write_fmt(h, fmts[i], NULL), *buf;
		size_t len;
		FILE *fp = open_memstream(&buf, &len);
		cr_assert_not_null(fp);
		cr_assert_eq(pebs_hist_write(h, fp, fmts[i], NULL, NULL, 0),
			     0, "format %d", fmts[i]);
		fclose(fp);
		cr_expect_str_eq(buf, with, "format %d", fmts[i]);
		free(buf);
		free(with);
	}
	char *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert_not_null(fp);
	cr_expect_eq(pebs_hist_write(h, fp, 99, NULL, NULL, 0),
		     -PEBS_E_INVAL);
	fclose(fp);
	cr_expect_eq(len, 0);
	free(buf);
	pebs_hist_free(h);
}
