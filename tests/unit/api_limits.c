/*
 * The public API at the edges of its arguments: error codes that are no
 * code (pebs_strerror(INT_MIN) negated an int, undefined, and crashed),
 * batch capacities over PEBS_BATCH_MAX (cut silently, so a caller filling
 * what it asked for found the batch full early), zstd levels outside
 * the range the writer takes (encoded by pebs_block_encode() anyway), and
 * writer block sizes over PEBS_BATCH_MAX (cut silently as well).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_field.h"
#include "pebs_format.h"

Test(api_limits, strerror_of_any_int)
{
	cr_assert_str_eq(pebs_strerror(-PEBS_E_NOMEM), "out of memory");
	cr_assert_str_eq(pebs_strerror(PEBS_E_NOMEM), "out of memory");
	cr_assert_str_eq(pebs_strerror(0), "success");
	static const int odd[] = { INT_MIN, INT_MIN + 1, INT_MAX, -1000, 99 };
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		cr_assert_str_eq(pebs_strerror(odd[i]), "unknown error",
				 "%d", odd[i]);
}

Test(api_limits, batch_capacity_over_the_maximum)
{
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_not_null(b);
	cr_assert_eq(b->cap, PEBS_BATCH_MAX);
	pebs_batch_free(b);
	b = pebs_batch_new(0);
	cr_assert_not_null(b);
	cr_assert_eq(b->cap, PEBS_BATCH_MAX);
	pebs_batch_free(b);
	cr_assert_null(pebs_batch_new(PEBS_BATCH_MAX + 1));
	cr_assert_null(pebs_batch_new_cols(SIZE_MAX, 0));

	b = NULL;
	cr_assert_eq(pebs_batch_fit(&b, PEBS_BATCH_MAX + 1, 0),
		     -PEBS_E_RANGE);
	cr_assert_null(b);
	cr_assert_eq(pebs_batch_fit(&b, 100, 0), 0);
	cr_assert_not_null(b);
	struct pebs_batch *kept = b;
	cr_assert_eq(pebs_batch_fit(&b, SIZE_MAX, 0), -PEBS_E_RANGE);
	cr_assert_eq(b, kept);
	cr_assert_eq(pebs_batch_fit(&b, PEBS_BATCH_MAX, 0), 0);
	cr_assert_eq(b->cap, PEBS_BATCH_MAX);
	pebs_batch_free(b);
}

Test(api_limits, block_encode_levels_as_the_writer)
{
	struct pebs_batch *b = pebs_batch_new(16);
	cr_assert_not_null(b);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.time = 5;
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	static const int ok[] = { PEBS_LEVEL_MIN, 0, 1, PEBS_LEVEL_MAX };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		void *out = NULL;
		size_t len = 0;
		cr_assert_eq(pebs_block_encode(b, ok[i], &out, &len), 0,
			     "level %d", ok[i]);
		cr_assert(len > 0);
		free(out);
	}
	static const int bad[] = { PEBS_LEVEL_MIN - 1, PEBS_LEVEL_MAX + 1,
				   INT_MIN, INT_MAX };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *out = NULL;
		size_t len = 0;
		cr_assert_eq(pebs_block_encode(b, bad[i], &out, &len),
			     -PEBS_E_RANGE, "level %d", bad[i]);
		cr_assert_null(out);
		/* the writer refuses the same levels */
		struct pebs_writer_opts o = { .level = bad[i] };
		struct pebs_writer *w;
		FILE *fp = tmpfile();
		cr_assert_eq(pebs_writer_open(&w, fp, NULL, &o),
			     -PEBS_E_RANGE);
		fclose(fp);
	}
	pebs_batch_free(b);
}

/* A block size over the maximum is refused, nothing written; up to it
 * (0: the maximum) blocks are as asked. */
Test(api_limits, writer_block_samples_over_the_maximum)
{
	static const unsigned bad[] = { PEBS_BATCH_MAX + 1, UINT_MAX };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pebs_writer_opts o = { .block_samples = bad[i] };
		struct pebs_writer *w = NULL;
		FILE *fp = tmpfile();
		cr_assert_not_null(fp);
		cr_expect_eq(pebs_writer_open(&w, fp, NULL, &o),
			     -PEBS_E_RANGE, "block_samples %u", bad[i]);
		cr_expect_null(w);
		cr_expect_eq(ftell(fp), 0, "nothing written");
		if (w)
			pebs_writer_close(w);
		fclose(fp);
	}
	static const unsigned ok[] = { 0, 1, PEBS_BATCH_MAX };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct pebs_writer_opts o = { .block_samples = ok[i] };
		struct pebs_writer *w;
		FILE *fp = tmpfile();
		cr_assert_not_null(fp);
		cr_assert_eq(pebs_writer_open(&w, fp, NULL, &o), 0,
			     "block_samples %u", ok[i]);
		struct pebs_sample s;
		memset(&s, 0, sizeof(s));
		for (s.time = 1; s.time <= 3; s.time++)
			cr_assert_eq(pebs_writer_add(w, &s), 0);
		struct pebs_write_stats st;
		cr_assert_eq(pebs_writer_finish(w), 0);
		pebs_writer_stats(w, &st);
		cr_expect_eq(st.blocks, ok[i] == 1 ? 3 : 1, "block_samples %u",
			     ok[i]);
		pebs_writer_close(w);
		fclose(fp);
	}
}

/*
 * Metadata that makes the HEAD chunk longer than the format's 256 MiB is
 * refused before anything is written: it was written, and every reader
 * refused the file at its first chunk ("bad chunk header at offset 0x8").
 * Just under the bound it is written and read back.
 */
Test(api_limits, writer_metadata_over_the_chunk_bound)
{
	size_t half = (128u << 20) + 1;
	char *v = malloc(half + 1);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert(v && m);
	memset(v, 'x', half);
	v[half] = 0;
	cr_assert_eq(pebs_meta_set(m, "a", v), 0);
	cr_assert_eq(pebs_meta_set(m, "b", v), 0);
	free(v);
	struct pebs_writer *w = NULL;
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	cr_expect_eq(pebs_writer_open(&w, fp, m, NULL), -PEBS_E_RANGE);
	cr_assert_not_null(w, "the writer says why");
	cr_expect(strstr(pebs_writer_errmsg(w), "metadata too large") != NULL,
		  "%s", pebs_writer_errmsg(w));
	pebs_writer_close(w);
	cr_expect_eq(ftell(fp), 0, "nothing written");
	fclose(fp);
	/* one value of ~128 MiB: a HEAD well within the bound */
	cr_assert_eq(pebs_meta_set(m, "b", ""), 0);
	fp = tmpfile();
	cr_assert_not_null(fp);
	cr_assert_eq(pebs_writer_open(&w, fp, m, NULL), 0);
	cr_assert_eq(pebs_writer_close(w), 0);
	cr_expect_gt(ftell(fp), (long)half);
	fclose(fp);
	pebs_meta_free(m);
}

/*
 * A writer after pebs_writer_finish(): adding samples, names, lost counts
 * or blocks returned 0 and wrote chunks after the segment's TAIL
 * (pebs-decode: "garbage after segment 1"), or left samples pending that
 * pebs_writer_close() dropped.  Now each is refused, nothing is written,
 * and the file stays the complete segment it was; close takes NULL.
 */
Test(api_limits, writer_refuses_writes_after_finish)
{
	struct pebs_writer_opts o = { .block_samples = 2 };
	struct pebs_writer *w = NULL;
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, &o), 0);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.lat = 7;
	cr_assert_eq(pebs_writer_add(w, &s), 0);
	cr_assert_eq(pebs_writer_finish(w), 0);
	long end = ftell(fp);

	struct pebs_batch *b = pebs_batch_new(4);
	cr_assert_not_null(b);
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	void *chunk;
	size_t len;
	cr_assert_eq(pebs_block_encode(b, 0, &chunk, &len), 0);
	cr_expect_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL);
	cr_expect(strstr(pebs_writer_errmsg(w), "after pebs_writer_finish()")
		  != NULL, "%s", pebs_writer_errmsg(w));
	cr_expect_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL, "a full block");
	cr_expect_eq(pebs_writer_event(w, "x"), -PEBS_E_INVAL);
	cr_expect_eq(pebs_writer_add_batch(w, b), -PEBS_E_INVAL);
	cr_expect_eq(pebs_writer_copy_block(w, chunk, len), -PEBS_E_INVAL);
	cr_expect_eq(pebs_writer_lost(w, 1, 2, 3), -PEBS_E_INVAL);
	cr_expect_eq(pebs_writer_flush(w), 0);
	struct pebs_write_stats st;
	pebs_writer_stats(w, &st);
	cr_expect_eq(st.samples, 1);
	cr_expect_eq(st.lost, 0);
	cr_expect_eq(pebs_writer_close(w), 0, "the segment is complete");
	cr_expect_eq(ftell(fp), end, "nothing written after the finish");
	cr_expect_eq(pebs_writer_close(NULL), 0);
	free(chunk);
	pebs_batch_free(b);
	fclose(fp);
}

/*
 * pebs_field_parse_list() wrote through @bad before looking at the name,
 * so a caller that wants only the count (bad NULL) crashed even on a good
 * list; its header now names the two errors it returns.
 */
Test(api_limits, field_list_errors_and_no_bad_pointer)
{
	int ids[2];
	const char *bad = NULL;
	cr_expect_eq(pebs_field_parse_list("lat,addr", ids, 2, NULL), 2);
	cr_expect_eq(ids[0], PEBS_COL_LAT);
	cr_expect_eq(ids[1], PEBS_COL_ADDR);
	cr_expect_eq(pebs_field_parse_list("lat,nope", ids, 2, NULL),
		     -PEBS_E_PARSE);
	cr_expect_eq(pebs_field_parse_list("lat,,addr", ids, 2, &bad),
		     -PEBS_E_PARSE);
	cr_expect_str_eq(bad, ",addr");
	cr_expect_eq(pebs_field_parse_list("lat,addr,cpu", ids, 2, &bad),
		     -PEBS_E_RANGE);
	cr_expect_str_eq(bad, "cpu");
}

/* pebs_block_encode() of no samples: -PEBS_E_INVAL, as its header says. */
Test(api_limits, block_encode_of_no_samples)
{
	struct pebs_batch *b = pebs_batch_new(4);
	cr_assert_not_null(b);
	void *chunk = NULL;
	size_t len = 0;
	cr_expect_eq(pebs_block_encode(b, 0, &chunk, &len), -PEBS_E_INVAL);
	cr_expect_null(chunk);
	pebs_batch_free(b);
}

/*
 * pebs_block_decode() says it resets @out first, but a block whose head
 * was refused (a checksum mismatch, a bad length) left the samples of the
 * batch's earlier block in it, 2 samples of lat 999 here, for a caller
 * that went on to read them as this block's.
 */
Test(api_limits, block_decode_error_leaves_no_samples)
{
	struct pebs_batch *b = pebs_batch_new(8), *out = pebs_batch_new(8);
	cr_assert(b && out);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (unsigned i = 0; i < 5; i++) {
		s.lat = 10 * i + 1;
		cr_assert_eq(pebs_batch_push(b, &s), 0);
	}
	s.lat = 999;
	cr_assert_eq(pebs_batch_push(out, &s), 0);
	cr_assert_eq(pebs_batch_push(out, &s), 0);
	uint8_t *chunk;
	size_t len;
	cr_assert_eq(pebs_block_encode(b, 0, (void **)&chunk, &len), 0);
	char err[128];
	chunk[30] ^= 0x10;
	cr_expect_eq(pebs_block_decode(chunk, len, 0, out, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_expect_eq(out->n, 0);
	cr_expect_eq(pebs_block_decode(chunk, 3, 0, out, err, sizeof(err)),
		     -PEBS_E_TRUNCATED);
	cr_expect_eq(out->n, 0);
	chunk[30] ^= 0x10;
	cr_expect_eq(pebs_block_decode(chunk, len, 0, out, err, sizeof(err)),
		     0);
	cr_expect_eq(out->n, 5);
	cr_expect_eq(out->c32[PEBS_COL_LAT][4], 41);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(out);
}
