/*
 * time_origin.c - metadata time.origin, where `t` counts from in a segment
 * a tool derived from another (formats/pebs-format.md, section 9): read
 * by pebs_expr in evaluation and block analysis, given by the reader
 * (pebs_reader_segment_start()) and the writer (pebs_writer_first_time()),
 * and a malformed one an error for `t`, in files written through
 * pebs_writer.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "pebs.h"
#include "pebs_expr.h"
#include "pebs_format.h"

/* A .pebs file of one ns segment, time.origin @origin (NULL: none), the
 * samples at @ts in one block. */
static FILE *origin_file(const char *origin, const uint64_t *ts, size_t n)
{
	FILE *fp = tmpfile();
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_writer *w;
	cr_assert(fp && m);
	cr_assert_eq(pebs_meta_set(m, "time.unit", "ns"), 0);
	if (origin)
		cr_assert_eq(pebs_meta_set(m, "time.origin", origin), 0);
	cr_assert_eq(pebs_writer_open(&w, fp, m, NULL), 0);
	uint64_t t0;
	cr_expect_eq(pebs_writer_first_time(w, &t0), 0);
	cr_expect_eq(t0, 0);
	for (size_t i = 0; i < n; i++) {
		struct pebs_sample s = { .time = ts[i] };
		cr_assert_eq(pebs_writer_add(w, &s), 0);
	}
	cr_assert_eq(pebs_writer_finish(w), 0);
	cr_expect_eq(pebs_writer_first_time(w, &t0), 1);
	cr_expect_eq(t0, ts[0]);
	cr_assert_eq(pebs_writer_close(w), 0);
	pebs_meta_free(m);
	fflush(fp);
	return fp;
}

static int block_cb(void *ctx, const struct pebs_block_info *bi)
{
	return pebs_expr_block_segment(ctx, bi) != PEBS_MATCH_NONE;
}

struct result {
	int rc;			/* of pebs_expr_set_segment() */
	size_t kept;		/* samples matching @text */
	int start_known;	/* pebs_reader_segment_start() */
	uint64_t start;
	struct pebs_expr_error err;
};

/* @e over the file @fp, through a reader of its own, as the tools read
 * it: block filter (when @filter), then evaluation. */
static struct result run_with(struct pebs_expr *e, FILE *fp, int filter)
{
	struct result res;
	memset(&res, 0, sizeof(res));
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(fp));
	const char *paths[] = { path };
	struct pebs_reader_opts ro = { .threads = 1 };
	if (filter) {
		ro.filter = block_cb;
		ro.filter_ctx = e;
	}
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, &ro), 0);
	struct pebs_batch *b;
	static uint32_t sel[PEBS_BATCH_MAX];
	while (pebs_reader_next(r, &b) > 0) {
		res.start_known = pebs_reader_segment_start(r, &res.start);
		res.rc = pebs_expr_set_segment(e, pebs_reader_meta(r), b,
					       &res.err);
		if (res.rc)
			break;
		res.kept += pebs_expr_eval(e, b, sel);
	}
	pebs_reader_close(r);
	return res;
}

/* @text over the samples at @ts of a file with time.origin @origin. */
static struct result run(const char *text, const char *origin,
			 const uint64_t *ts, size_t n)
{
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	FILE *fp = origin_file(origin, ts, n);
	struct result res = run_with(e, fp, 1);
	pebs_expr_free(e);
	fclose(fp);
	return res;
}

static const uint64_t ts[] = { 1500, 2000, 2500 };

Test(time_origin, t_counts_from_it)
{
	/* no origin: from the first block, 1500: t = 0, 500ns, 1us */
	struct result a = run("t >= 1us", NULL, ts, 3);
	cr_expect_eq(a.rc, 0, "%s", a.err.msg);
	cr_expect_eq(a.kept, 1);
	cr_expect_eq(a.start_known, 1);
	cr_expect_eq(a.start, 1500);
	/* from 1000: t = 500ns, 1us, 1.5us */
	struct result b = run("t >= 1us", "1000", ts, 3);
	cr_expect_eq(b.rc, 0, "%s", b.err.msg);
	cr_expect_eq(b.kept, 2);
	cr_expect_eq(b.start, 1000);
	/* 0 is an origin like another; leading zeros are decimal */
	struct result c = run("t >= 2us", "0", ts, 3);
	cr_expect_eq(c.kept, 2);
	cr_expect_eq(c.start, 0);
	struct result d = run("t < 1us", "0900", ts, 3);
	cr_expect_eq(d.kept, 1);
	cr_expect_eq(d.start, 900);
	/* the largest there is; raw ticks count from it too */
	struct result f = run("lat == 0 or t > 5", "18446744073709551615",
			      ts, 3);
	cr_expect_eq(f.rc, 0, "%s", f.err.msg);
	cr_expect_eq(f.start, UINT64_MAX);
	struct result g = run("t == 500", "2000", ts, 3);
	cr_expect_eq(g.kept, 1);
}

Test(time_origin, malformed_is_an_error_for_t)
{
	static const char *const bad[] = {
		"abc", "", "-5", "+5", " 5", "5 ", "1e3", "0x10", "12abc",
		"18446744073709551616",
	};
	char want[128];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* `t` decides nothing of the block: it is decoded, and the
		 * error comes on its batch */
		struct result r = run("lat > 5 or t >= 1us", bad[i], ts, 3);
		cr_expect_eq(r.rc, -PEBS_E_PARSE, "\"%s\"", bad[i]);
		snprintf(want, sizeof(want), "t needs the segment's start, "
			 "but metadata time.origin is malformed: \"%s\"",
			 bad[i]);
		cr_expect_str_eq(r.err.msg, want);
		/* at the constant of the `t` comparison, as for tsc.hz */
		cr_expect_eq(r.err.col, 17, "\"%s\": %zu", bad[i], r.err.col);
		/* the reader gives the first block's start instead */
		cr_expect_eq(r.start_known, 1);
		cr_expect_eq(r.start, 1500);
		/* no `t`, no error */
		struct result n = run("lat == 0", bad[i], ts, 3);
		cr_expect_eq(n.rc, 0, "\"%s\": %s", bad[i], n.err.msg);
		cr_expect_eq(n.kept, 3);
	}
	/* even where the rest of the expression rules the block out */
	struct result x = run("lat > 5 and t >= 1us", "abc", ts, 3);
	cr_expect_eq(x.rc, -PEBS_E_PARSE);
}

/* Block analysis from the origin: the block is placed from it, not from
 * its own smallest time. */
Test(time_origin, block_analysis)
{
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert(m);
	cr_assert_eq(pebs_meta_set(m, "time.unit", "ns"), 0);
	cr_assert_eq(pebs_meta_set(m, "time.origin", "1000"), 0);
	cr_assert_eq(pebs_expr_parse("t >= 100ns", &e, &err), 0);
	struct pebs_block_info bi;
	memset(&bi, 0, sizeof(bi));
	bi.nsamples = 3;
	bi.meta = m;
	bi.min[PEBS_COL_TIME] = 1500;
	bi.max[PEBS_COL_TIME] = 2500;
	/* from 1500 it would be some (t = 0 to 1us) */
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_ALL);
	bi.min[PEBS_COL_TIME] = 1000;
	bi.max[PEBS_COL_TIME] = 1099;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_NONE);
	pebs_expr_free(e);
	pebs_meta_free(m);
}

Test(time_origin, meta_check)
{
	const char *want = "x";
	cr_expect_eq(pebs_meta_check("time.origin", "0", &want), 0);
	cr_expect_null(want);
	cr_expect_eq(pebs_meta_check("time.origin", "18446744073709551615",
				     NULL), 0);
	cr_expect_eq(pebs_meta_check("time.origin", "-1", &want),
		     -PEBS_E_PARSE);
	cr_expect_str_eq(want, "a decimal integer (the origin of t, in the "
			 "segment's time unit)");
	cr_expect_eq(pebs_meta_check("time.origin", "18446744073709551616",
				     NULL), -PEBS_E_PARSE);
	cr_expect_eq(pebs_meta_check("time.origin", "", NULL), -PEBS_E_PARSE);
}

/* A .pebs file of one ns segment, time.origin @origin (NULL: none), of
 * 1000 samples 1us apart from @base. */
static FILE *us_file(uint64_t base, const char *origin)
{
	uint64_t t[1000];
	for (size_t i = 0; i < 1000; i++)
		t[i] = base + i * 1000;
	return origin_file(origin, t, 1000);
}

/*
 * One expression over one file after another, each with a reader of its
 * own: a reader frees its metadata at close, and the next one's often
 * lands at the same address, which must not pass for the segment before
 * (its start, 4 s away, made B keep nothing or A everything, and a
 * malformed origin's message pointed into freed memory).
 */
Test(time_origin, expression_outlives_readers)
{
	FILE *a = us_file(1000000000, NULL), *b = us_file(5000000000, NULL);
	for (int filter = 0; filter < 2; filter++) {
		struct pebs_expr *e;
		struct pebs_expr_error err;
		cr_assert_eq(pebs_expr_parse("t < 100us", &e, &err), 0);
		for (int i = 0; i < 12; i++) {
			struct result r = run_with(e, i & 1 ? b : a, filter);
			cr_expect_eq(r.rc, 0, "%s", r.err.msg);
			cr_expect_eq(r.kept, 100, "filter %d, read %d (%c): "
				     "%zu", filter, i, i & 1 ? 'B' : 'A',
				     r.kept);
		}
		pebs_expr_free(e);
	}
	fclose(a);
	fclose(b);

	/* a malformed origin, then a sound one of the same length */
	FILE *c = us_file(1000000000, "1x2y3z4w5v");
	FILE *d = us_file(1000000000, "1000000000");
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse("t < 100us", &e, &err), 0);
	for (int i = 0; i < 12; i++) {
		struct result r = run_with(e, i & 1 ? d : c, i & 2);
		if (i & 1) {
			cr_expect_eq(r.rc, 0, "read %d: %s", i, r.err.msg);
			cr_expect_eq(r.kept, 100, "read %d: %zu", i, r.kept);
			continue;
		}
		cr_expect_eq(r.rc, -PEBS_E_PARSE, "read %d", i);
		cr_expect_str_eq(r.err.msg, "t needs the segment's start, "
				 "but metadata time.origin is malformed: "
				 "\"1x2y3z4w5v\"");
	}
	pebs_expr_free(e);
	fclose(c);
	fclose(d);
}
