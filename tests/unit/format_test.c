/*
 * Format v1: block codec against the reference decoder, writer/reader round
 * trips (files, pipes, threads), concatenation, truncation, corruption,
 * salvage, block skipping, column masks, raw block copies, lost counts.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "format_ref.h"
#include "pebs_format.h"
#include "pebs_gen.h"
#include "testutil.h"

static uint64_t pebs_field_num_raw(const struct pebs_batch *b, unsigned c,
				   size_t i)
{
	return b->c64[c] ? b->c64[c][i] : b->c32[c][i];
}

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* Values of a column in one of several shapes the encoder must handle. */
static uint64_t shaped(int shape, size_t i, uint64_t a)
{
	switch (shape) {
	case 0: return 0;
	case 1: return a;
	case 2: return a + rnd() % 200;
	case 3: return a + i * 1000 + rnd() % 50;	/* time-like */
	case 4: return rnd();				/* full 64-bit */
	case 5: return a + (rnd() % 17) * 0x1000;	/* dictionary */
	case 6: return a - i * 3;			/* descending */
	default: return rnd() % 3 ? a : ~0ull;		/* extremes */
	}
}

static struct pebs_batch *random_batch(size_t n)
{
	struct pebs_batch *b = pebs_batch_new(n);
	cr_assert(b);
	pebs_batch_intern(b, "load-latency");
	pebs_batch_intern(b, "precise-store");
	pebs_batch_intern(b, "x,\"quoted\"");
	int shape[PEBS_COL_COUNT];
	uint64_t base[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		shape[c] = (int)(rnd() % 8);
		base[c] = rnd() >> (rnd() % 64);
	}
	for (size_t i = 0; i < n; i++) {
		for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
			uint64_t v = shaped(shape[c], i, base[c]);
			if (b->c64[c])
				b->c64[c][i] = v;
			else
				b->c32[c][i] = (uint32_t)v;
		}
		b->c32[PEBS_COL_EVENT][i] %= 3;
	}
	b->n = n;
	return b;
}

static void assert_same(const struct pebs_batch *a, const struct pebs_batch *b)
{
	cr_assert_eq(a->n, b->n);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		for (size_t i = 0; i < a->n; i++)
			cr_assert_eq(pebs_field_num_raw(a, c, i),
				     pebs_field_num_raw(b, c, i),
				     "column %u sample %zu", c, i);
	for (size_t i = 0; i < a->n; i++)
		cr_assert_str_eq(pebs_batch_event(a, i), pebs_batch_event(b, i));
}

/*
 * Both kernel sets (the best, then the scalar twin) decode @chunk into @d
 * exactly as @b; the best are selected again afterwards.
 */
static void decode_both_kernels(const void *chunk, size_t len,
				const struct pebs_batch *b,
				struct pebs_batch *d)
{
	char err[128];
	for (int scalar = 0; scalar < 2; scalar++) {
		pebs_codec_select(scalar);
		err[0] = 0;
		cr_assert_eq(pebs_block_decode(chunk, len, 0, d, err,
					       sizeof(err)), 0, "%s", err);
		assert_same(b, d);
	}
	pebs_codec_select(0);
}

/* The reference decoder reads @chunk back exactly as @b. */
static void check_ref(const void *chunk, size_t len,
		      const struct pebs_batch *b, uint64_t **ref)
{
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		memset(ref[c], 0, PEBS_BATCH_MAX * sizeof(uint64_t));
	cr_assert_eq(ref_decode_block(chunk, len, ref), (long)b->n);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		for (size_t i = 0; i < b->n; i++)
			cr_assert_eq(ref[c][i], pebs_field_num_raw(b, c, i),
				     "ref column %u sample %zu", c, i);
}

Test(format, block_roundtrip_fast_scalar_reference)
{
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	for (int iter = 0; iter < 60; iter++) {
		size_t n = iter == 0 ? 1 : iter == 1 ? PEBS_BATCH_MAX :
			   1 + rnd() % (iter % 5 ? 3000 : 40000);
		struct pebs_batch *b = random_batch(n);
		void *chunk;
		size_t len;
		cr_assert_eq(pebs_block_encode(b, 1 + iter % 5, &chunk, &len),
			     0);
		/* The encoder's kernels (pack, stat) too: the scalar twin
		 * writes the same bytes. */
		void *sc;
		size_t slen;
		pebs_codec_select(1);
		cr_assert_eq(pebs_block_encode(b, 1 + iter % 5, &sc, &slen),
			     0);
		pebs_codec_select(0);
		cr_assert_eq(slen, len);
		cr_assert_eq(memcmp(sc, chunk, len), 0, "scalar encoding "
			     "differs, iteration %d", iter);
		free(sc);
		struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
		decode_both_kernels(chunk, len, b, d);
		check_ref(chunk, len, b, ref);
		free(chunk);
		pebs_batch_free(b);
		pebs_batch_free(d);
	}
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

Test(format, block_info_min_max)
{
	struct pebs_batch *b = random_batch(5000);
	void *chunk;
	size_t len;
	struct pebs_block_info bi;
	cr_assert_eq(pebs_block_encode(b, 3, &chunk, &len), 0);
	cr_assert_eq(pebs_block_info(chunk, len, 1, &bi, NULL, 0), 0);
	cr_assert_eq(bi.nsamples, 5000);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		uint64_t mn = ~0ull, mx = 0;
		for (size_t i = 0; i < b->n; i++) {
			uint64_t v = pebs_field_num_raw(b, c, i);
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
		if (mx == 0)
			continue;	/* absent column */
		cr_assert(bi.present & (1ull << c));
		cr_assert_eq(bi.min[c], mn, "col %u", c);
		cr_assert_eq(bi.max[c], mx, "col %u", c);
	}
	free(chunk);
	pebs_batch_free(b);
}

Test(format, block_column_mask_and_stale_columns)
{
	struct pebs_batch *b1 = random_batch(1000), *b2 = pebs_batch_new(10);
	struct pebs_sample s = { .lat = 7, .time = 1 };
	pebs_batch_intern(b2, "e");
	pebs_batch_push(b2, &s);
	void *c1, *c2;
	size_t l1, l2;
	cr_assert_eq(pebs_block_encode(b1, 3, &c1, &l1), 0);
	cr_assert_eq(pebs_block_encode(b2, 3, &c2, &l2), 0);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_block_decode(c1, l1, 0, d, NULL, 0), 0);
	/* The second block lacks most columns: they must read as zero. */
	cr_assert_eq(pebs_block_decode(c2, l2, 0, d, NULL, 0), 0);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		if (c != PEBS_COL_LAT && c != PEBS_COL_TIME)
			cr_assert_eq(pebs_field_num_raw(d, c, 0), 0, "col %u",
				     c);
	cr_assert_eq(d->c32[PEBS_COL_LAT][0], 7);
	/* Only the requested column is decoded. */
	cr_assert_eq(pebs_block_decode(c1, l1, 1ull << PEBS_COL_LAT, d, NULL,
				       0), 0);
	for (size_t i = 0; i < d->n; i++)
		cr_assert_eq(d->c32[PEBS_COL_LAT][i], b1->c32[PEBS_COL_LAT][i]);
	free(c1);
	free(c2);
	pebs_batch_free(b1);
	pebs_batch_free(b2);
	pebs_batch_free(d);
}

/*
 * Batches with some columns first (the reader's) and batches fitted to a
 * varying number of samples (the tools' selections) hold a block like any
 * other: every column has its own room, none overlaps another.
 */
Test(format, batch_layouts_and_fit)
{
	struct pebs_batch *b1 = random_batch(5000);
	void *c1;
	size_t l1;
	cr_assert_eq(pebs_block_encode(b1, 3, &c1, &l1), 0);
	uint64_t first = 1ull << PEBS_COL_LAT | 1ull << PEBS_COL_ADDR |
			 1ull << PEBS_COL_TID;
	struct pebs_batch *d = pebs_batch_new_cols(8192, first);
	cr_assert(d);
	/* the chosen columns open the allocation, side by side */
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		uintptr_t a = d->c64[c] ? (uintptr_t)d->c64[c] :
					  (uintptr_t)d->c32[c];
		size_t len = d->c64[c] ? 8 * d->cap : 4 * d->cap;
		for (unsigned o = 0; o < c; o++) {
			uintptr_t b = d->c64[o] ? (uintptr_t)d->c64[o] :
						  (uintptr_t)d->c32[o];
			size_t bl = d->c64[o] ? 8 * d->cap : 4 * d->cap;
			cr_assert(a + len <= b || b + bl <= a,
				  "columns %u and %u overlap", o, c);
		}
		if (first >> c & 1)
			hi = a + len > hi ? a + len : hi;
		else
			lo = a < lo ? a : lo;
	}
	cr_assert(hi <= lo, "a chosen column after another");
	cr_assert_eq(pebs_block_decode(c1, l1, 0, d, NULL, 0), 0);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		for (size_t i = 0; i < d->n; i += 97)
			cr_assert_eq(pebs_field_num_raw(d, c, i),
				     pebs_field_num_raw(b1, c, i), "col %u", c);
	/* fit: kept while big enough, replaced (power of two) when not */
	struct pebs_batch *f = NULL;
	cr_assert_eq(pebs_batch_fit(&f, 10, 0), 0);
	cr_assert(f && f->cap == 1024);
	struct pebs_batch *keep = f;
	cr_assert_eq(pebs_batch_fit(&f, 1024, 0), 0);
	cr_assert_eq(f, keep);
	cr_assert_eq(pebs_batch_fit(&f, 3000, 0), 0);
	cr_assert_eq(f->cap, 4096);
	cr_assert_eq(pebs_batch_fit(&f, 5000, 0), 0);
	cr_assert_eq(pebs_block_decode(c1, l1, 0, f, NULL, 0), 0);
	cr_assert_eq(f->n, 5000);
	cr_assert_eq(f->c32[PEBS_COL_LAT][4999], b1->c32[PEBS_COL_LAT][4999]);
	/* relayout: only empty batches; names kept, arrays fresh and zero */
	cr_assert_eq(pebs_batch_relayout(f, first), -PEBS_E_INVAL);
	f->n = 0;
	uint32_t nn = f->nnames;
	cr_assert_eq(pebs_batch_relayout(f, first), 0);
	cr_assert_eq(f->nnames, nn);
	cr_assert_eq(f->dirty, 0);
	cr_assert_eq(f->c32[PEBS_COL_LAT][4999], 0);
	cr_assert(f->c64[PEBS_COL_ADDR] + f->cap <= f->c64[PEBS_COL_TIME] ||
		  (first >> PEBS_COL_TIME & 1));
	cr_assert_eq(pebs_block_decode(c1, l1, 0, f, NULL, 0), 0);
	cr_assert_eq(f->c32[PEBS_COL_LAT][4999], b1->c32[PEBS_COL_LAT][4999]);
	/* more than a batch holds is refused, the batch kept (it was cut
	 * to a full one: room for fewer than asked); a full one fits */
	keep = f;
	cr_assert_eq(pebs_batch_fit(&f, (size_t)PEBS_BATCH_MAX + 5, first),
		     -PEBS_E_RANGE);
	cr_assert_eq(f, keep);
	cr_assert_eq(pebs_batch_fit(&f, PEBS_BATCH_MAX, first), 0);
	cr_assert_eq(f->cap, PEBS_BATCH_MAX);
	keep = f;
	cr_assert_eq(pebs_batch_fit(&f, (size_t)PEBS_BATCH_MAX * 4, 0),
		     -PEBS_E_RANGE);
	cr_assert_eq(f, keep);
	free(c1);
	pebs_batch_free(b1);
	pebs_batch_free(d);
	pebs_batch_free(f);
}

Test(format, block_bad_input_never_crashes)
{
	struct pebs_batch *b = random_batch(3000);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	void *chunk;
	size_t len;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 3, &chunk, &len), 0);
	uint8_t *c = chunk;
	/* Every truncation fails cleanly. */
	for (size_t cut = 0; cut < len; cut += 1 + cut / 8)
		cr_assert_lt(pebs_block_decode(c, cut, 0, d, err, sizeof(err)),
			     0);
	/* Bit flips are caught by the checksum. */
	for (int k = 0; k < 200; k++) {
		size_t at = 16 + rnd() % (len - 24);
		c[at] ^= (uint8_t)(1 + rnd() % 255);
		int r = pebs_block_decode(c, len, 0, d, err, sizeof(err));
		cr_assert_eq(r, -PEBS_E_CHECKSUM, "offset %zu: %d %s", at, r,
			     err);
		cr_assert_eq(pebs_block_encode(b, 3, &chunk, &len), 0);
		free(c);
		c = chunk;
	}
	/* Hostile directories with a valid checksum: decode without trust. */
	for (int k = 0; k < 2000; k++) {
		uint8_t *m = malloc(len);
		memcpy(m, c, len);
		for (int f = 0; f < 4; f++) {
			size_t at = 16 + rnd() % (len - 24 < 400 ? len - 24 :
						  400);
			m[at] = (uint8_t)rnd();
		}
		put64(m + len - 8, fmt_checksum(TAG_BLCK, m + 16, len - 24));
		pebs_block_decode(m, len, 0, d, err, sizeof(err));
		free(m);
	}
	free(c);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/* ------------------------------------------------------ writer + reader */

struct memfile {
	char *buf;
	size_t len;
};

static void write_stream_level(FILE *fp, uint64_t seed, size_t nsamples,
			       unsigned block, const char *host, uint64_t lost,
			       int level)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "host", host);
	struct pebs_writer_opts o = { .block_samples = block, .level = level };
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, m, &o), 0);
	struct pebs_gen_opts go = { .seed = seed };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	size_t done = 0;
	while (done < nsamples) {
		size_t n = nsamples - done < 7777 ? nsamples - done : 7777;
		cr_assert_eq(pebs_gen_batch(g, b, n), 0);
		cr_assert_eq(pebs_writer_add_batch(w, b), 0);
		done += n;
		if (lost && done == n)
			cr_assert_eq(pebs_writer_lost(w, 3, 99, lost), 0);
	}
	cr_assert_eq(pebs_writer_close(w), 0);
	pebs_gen_free(g);
	pebs_batch_free(b);
	pebs_meta_free(m);
}

static void write_stream(FILE *fp, uint64_t seed, size_t nsamples,
			 unsigned block, const char *host, uint64_t lost)
{
	write_stream_level(fp, seed, nsamples, block, host, lost, 0);
}

static char *slurp(const char *p, size_t *len);

static char *tmpname(void)
{
	static char p[64];
	strcpy(p, "/tmp/pebs-test-XXXXXX");
	int fd = mkstemp(p);
	cr_assert(fd >= 0);
	close(fd);
	return p;
}

/* Reads all of @path; returns samples, checks them against the generator. */
static size_t read_check(const char *const *paths, size_t np,
			 unsigned threads, const uint64_t *seeds,
			 const size_t *counts, int *err_out)
{
	struct pebs_reader *r;
	struct pebs_reader_opts o = { .threads = threads };
	cr_assert_eq(pebs_reader_open(&r, paths, np, &o), 0);
	struct pebs_batch *want = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_gen *g = NULL;
	size_t seg = 0, in_seg = 0, total = 0, wi = 0;
	struct pebs_batch *b;
	int rc;
	*err_out = 0;
	while ((rc = pebs_reader_next(r, &b)) != 0) {
		if (rc < 0) {
			*err_out = rc;
			continue;
		}
		for (size_t i = 0; i < b->n; i++) {
			while (!g || in_seg == counts[seg]) {
				if (g) {
					pebs_gen_free(g);
					seg++;
					in_seg = 0;
				}
				struct pebs_gen_opts go = { .seed = seeds[seg] };
				g = pebs_gen_new(&go);
				wi = want->n = 0;
			}
			if (wi == want->n) {
				size_t n = counts[seg] - in_seg < 7777 ?
					   counts[seg] - in_seg : 7777;
				pebs_gen_batch(g, want, n);
				wi = 0;
			}
			struct pebs_sample x, y;
			pebs_batch_get(b, i, &x);
			pebs_batch_get(want, wi, &y);
			x.event = y.event = 0;
			cr_assert(memcmp(&x, &y, sizeof(x)) == 0,
				  "sample %zu differs", total);
			cr_assert_str_eq(pebs_batch_event(b, i),
					 pebs_batch_event(want, wi));
			wi++;
			in_seg++;
			total++;
		}
	}
	pebs_gen_free(g);
	pebs_batch_free(want);
	pebs_reader_close(r);
	return total;
}

Test(format, file_roundtrip_threads)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 100000, 4096, "a", 0);
	fclose(fp);
	uint64_t seeds[] = { 1 };
	size_t counts[] = { 100000 };
	const char *paths[] = { p };
	for (unsigned t = 1; t <= 4; t++) {
		int err;
		cr_assert_eq(read_check(paths, 1, t, seeds, counts, &err),
			     100000);
		cr_assert_eq(err, 0);
	}
	unlink(p);
	free(p);
}

/*
 * Every level a writer takes reads back the same samples; zstd's fast
 * levels (negative) make larger files than the default, and a level out
 * of range is refused before anything is written.
 */
Test(format, writer_levels_fast_and_refused)
{
	char *p = strdup(tmpname());
	uint64_t seeds[] = { 5 };
	size_t counts[] = { 30000 };
	const char *paths[] = { p };
	const int levels[] = { PEBS_LEVEL_MIN, -3, -1, 0, 1, 3, 9 };
	long size[sizeof(levels) / sizeof(levels[0])];
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		FILE *fp = fopen(p, "wb");
		write_stream_level(fp, 5, 30000, 8192, "a", 0, levels[i]);
		size[i] = ftell(fp);
		fclose(fp);
		int err;
		cr_assert_eq(read_check(paths, 1, 2, seeds, counts, &err),
			     30000, "level %d", levels[i]);
		cr_assert_eq(err, 0, "level %d", levels[i]);
	}
	/* 0 is the default, 1 */
	cr_assert_eq(size[3], size[4]);
	for (size_t i = 0; i < 3; i++)
		cr_assert_gt(size[i], size[4] * 11 / 10, "level %d: %ld "
			     "against %ld", levels[i], size[i], size[4]);
	const int bad[] = { PEBS_LEVEL_MIN - 1, PEBS_LEVEL_MAX + 1, -1000 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *fp = fopen(p, "wb");
		struct pebs_writer_opts o = { .level = bad[i] };
		struct pebs_writer *w = NULL;
		cr_assert_eq(pebs_writer_open(&w, fp, NULL, &o),
			     -PEBS_E_RANGE, "level %d", bad[i]);
		cr_assert_null(w);
		cr_assert_eq(ftell(fp), 0);
		fclose(fp);
	}
	unlink(p);
	free(p);
}

Test(format, concatenated_segments_and_several_inputs)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 20000, 3000, "a", 0);
	write_stream(fp, 2, 5000, 65536, "b", 5);
	fclose(fp);
	uint64_t seeds[] = { 1, 2, 1, 2 };
	size_t counts[] = { 20000, 5000, 20000, 5000 };
	const char *paths[] = { p, p };
	int err;
	cr_assert_eq(read_check(paths, 2, 3, seeds, counts, &err), 50000);
	cr_assert_eq(err, 0);

	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	struct pebs_batch *b;
	cr_assert_eq(pebs_reader_next(r, &b), 1);
	cr_assert_str_eq(pebs_meta_get(pebs_reader_meta(r), "host"), "a");
	while (pebs_reader_next(r, &b) > 0)
		;
	cr_assert_str_eq(pebs_meta_get(pebs_reader_meta(r), "host"), "b");
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	cr_assert_eq(st.samples, 25000);
	cr_assert_eq(st.segments, 2);
	cr_assert_eq(st.lost, 5);
	cr_assert_eq(st.blocks, 7 + 1);
	/* Every byte is accounted for: magics, chunks, index, tail. */
	size_t flen;
	free(slurp(p, &flen));
	cr_assert_eq(st.bytes, flen);
	pebs_reader_close(r);
	unlink(p);
	free(p);
}

static void *pipe_writer(void *arg)
{
	int fd = *(int *)arg;
	FILE *fp = fdopen(fd, "wb");
	write_stream(fp, 7, 30000, 5000, "pipe", 0);
	write_stream(fp, 8, 100, 5000, "pipe2", 0);
	fclose(fp);
	return NULL;
}

Test(format, pipe_streaming)
{
	for (unsigned t = 1; t <= 3; t += 2) {
		int fds[2];
		cr_assert_eq(pipe(fds), 0);
		pthread_t th;
		pthread_create(&th, NULL, pipe_writer, &fds[1]);
		char path[32];
		snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
		const char *paths[] = { path };
		uint64_t seeds[] = { 7, 8 };
		size_t counts[] = { 30000, 100 };
		int err;
		cr_assert_eq(read_check(paths, 1, t, seeds, counts, &err),
			     30100);
		cr_assert_eq(err, 0);
		pthread_join(th, NULL);
		close(fds[0]);
	}
}

/* Writes @len bytes of @src to a new temp file; returns its name. */
static char *dump(const char *src, size_t len)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	fwrite(src, 1, len, fp);
	fclose(fp);
	return p;
}

static char *slurp(const char *p, size_t *len)
{
	FILE *fp = fopen(p, "rb");
	fseek(fp, 0, SEEK_END);
	*len = (size_t)ftell(fp);
	rewind(fp);
	char *b = malloc(*len);
	cr_assert_eq(fread(b, 1, *len, fp), *len);
	fclose(fp);
	return b;
}

/* Offsets of the block chunks of a one-segment file. */
static size_t block_offsets(const char *b, size_t len, size_t *offs)
{
	size_t n = 0, o = FMT_MAGIC_LEN;
	while (o + 16 <= len) {
		uint32_t tag = get32((const uint8_t *)b + o);
		if (tag == TAG_BLCK)
			offs[n++] = o;
		o += 24 + get64((const uint8_t *)b + o + 8);
	}
	return n;
}

/*
 * The bytes of a stream of 10 blocks of 1,000 generated samples (@seed),
 * and in @offs where each block starts.
 */
static char *ten_blocks(uint64_t seed, size_t *len, size_t *offs)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, seed, 10000, 1000, "a", 0);
	fclose(fp);
	char *b = slurp(p, len);
	cr_assert_eq(block_offsets(b, *len, offs), 10);
	unlink(p);
	free(p);
	return b;
}

Test(format, truncated_file_yields_complete_blocks)
{
	size_t len, offs[64], nb = 10;
	char *b = ten_blocks(1, &len, offs);
	uint64_t seeds[] = { 1 };
	size_t counts[] = { 10000 };
	for (size_t k = 1; k < nb; k++) {
		/* Cut inside block k: blocks 0..k-1 survive. */
		char *q = dump(b, offs[k] + 100);
		const char *paths[] = { q };
		for (unsigned t = 1; t <= 2; t++) {
			int err;
			cr_assert_eq(read_check(paths, 1, t, seeds, counts,
						&err), k * 1000);
			cr_assert_eq(err, -PEBS_E_TRUNCATED);
		}
		struct pebs_reader *r;
		struct pebs_batch *bt;
		cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
		int rc;
		while ((rc = pebs_reader_next(r, &bt)) > 0)
			;
		/* where the block starts, and where the input ends */
		char want[160];
		snprintf(want, sizeof(want), "truncated in block %zu at "
			 "offset 0x%zx: the input ends inside it, after %zu "
			 "bytes (0x%zx)", k, offs[k], offs[k] + 100,
			 offs[k] + 100);
		cr_assert_str_eq(pebs_reader_errmsg(r), want);
		cr_assert_str_eq(pebs_reader_errfile(r), q);
		pebs_reader_close(r);
		unlink(q);
		free(q);
	}
	/* Cut right after a block (a killed capture): no end marker. */
	char *q = dump(b, offs[5]);
	const char *paths[] = { q };
	int err;
	cr_assert_eq(read_check(paths, 1, 2, seeds, counts, &err), 5000);
	cr_assert_eq(err, -PEBS_E_TRUNCATED);
	unlink(q);
	free(q);
	free(b);
}

Test(format, corrupt_block_checksum_and_salvage)
{
	size_t len, offs[64];
	char *b = ten_blocks(1, &len, offs);
	b[offs[4] + 200] ^= 0x55;
	char *q = dump(b, len);
	const char *paths[] = { q };
	for (unsigned t = 1; t <= 3; t++) {
		for (int salvage = 0; salvage < 2; salvage++) {
			struct pebs_reader *r;
			struct pebs_reader_opts o = { .threads = t,
						      .salvage = salvage };
			cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
			struct pebs_batch *bt;
			int rc, errs = 0;
			size_t n = 0;
			while ((rc = pebs_reader_next(r, &bt)) != 0) {
				if (rc < 0) {
					errs++;
					char want[80];
					snprintf(want, sizeof(want),
						 "block 4 at offset 0x%zx: "
						 "checksum mismatch", offs[4]);
					cr_assert_str_eq(pebs_reader_errmsg(r),
							 want);
					cr_assert_eq(rc, -PEBS_E_CHECKSUM);
				} else {
					/* Block 4 never comes back. */
					cr_assert_neq(bt->block_index, 4);
					n += bt->n;
				}
			}
			cr_assert_eq(errs, 1);
			cr_assert_eq(n, salvage ? 9000 : 4000);
			struct pebs_read_stats st;
			pebs_reader_stats(r, &st);
			cr_assert_eq(st.damaged, salvage ? 1 : 0);
			pebs_reader_close(r);
		}
	}
	/* A damaged chunk header: salvage resynchronises on the next one. */
	memcpy(b + offs[2] + 8, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
	unlink(q);
	free(q);
	q = dump(b, len);
	paths[0] = q;
	struct pebs_reader *r;
	struct pebs_reader_opts o = { .threads = 1, .salvage = 1 };
	cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
	struct pebs_batch *bt;
	size_t n = 0;
	int rc;
	while ((rc = pebs_reader_next(r, &bt)) != 0)
		if (rc > 0)
			n += bt->n;
	cr_assert_eq(n, 8000);
	pebs_reader_close(r);
	unlink(q);
	free(q);
	free(b);
}

Test(format, not_pebs_empty_garbage_missing)
{
	char *e = dump("", 0), *t = dump("time,cpu\n1,2\n", 13);
	char *pf = dump("PERFILE2\x68\0\0\0", 12);
	char *bin = dump("\x01\x02PEBS\r\n\x1a", 9);
	const char *paths[] = { e, t, pf, bin, "/nonexistent/x.pebs" };
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 5, NULL), 0);
	struct pebs_batch *b;
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_FORMAT);
	cr_assert_str_eq(pebs_reader_errmsg(r),
			 "empty input, not a .pebs stream");
	/* what the input is, when that is plain */
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_FORMAT);
	cr_assert_str_eq(pebs_reader_errmsg(r), "text, not a .pebs stream (a "
			 "CSV of samples is converted with pebs-import)");
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_FORMAT);
	cr_assert_str_eq(pebs_reader_errmsg(r), "a perf.data file, not a "
			 ".pebs stream (convert it with pebs-import -f perf)");
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_FORMAT);
	cr_assert_str_eq(pebs_reader_errmsg(r), "not a .pebs stream (bad magic)");
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_IO);
	cr_assert_str_eq(pebs_reader_errfile(r), "/nonexistent/x.pebs");
	cr_assert_eq(pebs_reader_next(r, &b), 0);
	pebs_reader_close(r);

	/* Garbage after a complete segment. */
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 10, 1000, "a", 0);
	fputs("garbage!garbage!", fp);
	fclose(fp);
	paths[0] = p;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(r, &b), 1);
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_FORMAT);
	cr_assert(strstr(pebs_reader_errmsg(r), "garbage after segment 1"));
	pebs_reader_close(r);
	unlink(p);
	unlink(e);
	unlink(t);
	unlink(pf);
	unlink(bin);
	free(p);
	free(e);
	free(t);
	free(pf);
	free(bin);
}

struct skipctx {
	uint64_t tmin;
	int calls;
};

static int skip_early(void *ctx, const struct pebs_block_info *bi)
{
	struct skipctx *s = ctx;
	s->calls++;
	return bi->max[PEBS_COL_TIME] >= s->tmin;
}

Test(format, filter_skips_blocks_and_raw_copy)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 20000, 1000, "a", 0);
	fclose(fp);
	const char *paths[] = { p };
	/* Find the time at the start of the 10th block. */
	struct pebs_reader *r;
	struct pebs_batch *b;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	uint64_t t10 = 0;
	for (int i = 0; i < 10; i++)
		cr_assert_eq(pebs_reader_next(r, &b), 1);
	t10 = b->c64[PEBS_COL_TIME][0];
	pebs_reader_close(r);

	struct skipctx sc = { t10, 0 };
	struct pebs_reader_opts o = { .threads = 2, .filter = skip_early,
				      .filter_ctx = &sc, .raw_chunks = 1 };
	cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
	char *q = strdup(tmpname());
	FILE *out = fopen(q, "wb");
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, out, NULL, NULL), 0);
	size_t n = 0;
	int rc;
	while ((rc = pebs_reader_next(r, &b)) > 0) {
		size_t len;
		const void *raw = pebs_reader_raw(r, &len);
		cr_assert(raw);
		cr_assert_eq(pebs_writer_copy_block(w, raw, len), 0);
		n += b->n;
	}
	cr_assert_eq(rc, 0);
	cr_assert_eq(sc.calls, 20);
	cr_assert_eq(n, 11000);
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	cr_assert_eq(st.skipped, 9);
	pebs_reader_close(r);
	cr_assert_eq(pebs_writer_close(w), 0);
	fclose(out);
	/* The copy reads back as the same 11 blocks. */
	const char *qp[] = { q };
	cr_assert_eq(pebs_reader_open(&r, qp, 1, NULL), 0);
	n = 0;
	while (pebs_reader_next(r, &b) > 0)
		n += b->n;
	cr_assert_eq(n, 11000);
	pebs_reader_close(r);
	/* Raw chunks are whole and exact when fewer columns are decoded. */
	size_t flen;
	char *file = slurp(p, &flen);
	for (unsigned t = 1; t <= 2; t++) {
		struct pebs_reader_opts lo = { .threads = t, .raw_chunks = 1,
					       .cols = 1ull << PEBS_COL_LAT };
		cr_assert_eq(pebs_reader_open(&r, paths, 1, &lo), 0);
		n = 0;
		while (pebs_reader_next(r, &b) > 0) {
			size_t len;
			const uint8_t *raw = pebs_reader_raw(r, &len);
			cr_assert(raw && b->offset + len <= flen);
			cr_assert(memcmp(raw, file + b->offset, len) == 0,
				  "block at 0x%llx",
				  (unsigned long long)b->offset);
			n++;
		}
		cr_assert_eq(n, 20);
		pebs_reader_close(r);
	}
	free(file);
	unlink(p);
	unlink(q);
	free(p);
	free(q);
}

/*
 * A filter callback that asks its reader for pebs_reader_stats(): with
 * more than one thread the callback runs under the reader's lock, which
 * the call took again (a hang).  The callback comes only once
 * pebs_reader_open() has returned, so the reader it is given is set.
 */
struct statsctx {
	struct pebs_reader *r;
	int calls, before_open, ahead;
};

static int stats_in_filter(void *ctx, const struct pebs_block_info *bi)
{
	struct statsctx *s = ctx;
	struct pebs_reader *r = __atomic_load_n(&s->r, __ATOMIC_ACQUIRE);
	struct pebs_read_stats st;
	(void)bi;
	/* calls are one at a time, whatever the threads */
	s->calls++;
	if (!r) {
		s->before_open++;
		return 1;
	}
	pebs_reader_stats(r, &st);
	/* what was delivered was filtered first */
	if (st.blocks >= (uint64_t)s->calls)
		s->ahead++;
	return 1;
}

Test(format, filter_may_read_stats, .timeout = 30)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 20000, 1000, "a", 0);
	fclose(fp);
	const char *paths[] = { p };
	for (unsigned t = 1; t <= 4; t++) {
		struct statsctx sc;
		memset(&sc, 0, sizeof(sc));
		struct pebs_reader_opts o = { .threads = t,
					      .filter = stats_in_filter,
					      .filter_ctx = &sc };
		cr_assert_eq(pebs_reader_open(&sc.r, paths, 1, &o), 0);
		struct pebs_batch *b;
		size_t n = 0;
		int rc;
		while ((rc = pebs_reader_next(sc.r, &b)) > 0)
			n += b->n;
		cr_expect_eq(rc, 0);
		cr_expect_eq(n, 20000, "threads %u", t);
		cr_expect_eq(sc.calls, 20, "threads %u", t);
		cr_expect_eq(sc.before_open, 0, "threads %u", t);
		cr_expect_eq(sc.ahead, 0, "threads %u", t);
		pebs_reader_close(sc.r);
	}
	unlink(p);
	free(p);
}

Test(format, empty_stream_has_metadata)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "uarch", "skx");
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, m, NULL), 0);
	cr_assert_eq(pebs_writer_close(w), 0);
	fclose(fp);
	pebs_meta_free(m);
	const char *paths[] = { p };
	struct pebs_reader *r;
	struct pebs_batch *b;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(r, &b), 0);
	cr_assert_str_eq(pebs_meta_get(pebs_reader_meta(r), "uarch"), "skx");
	pebs_reader_close(r);
	unlink(p);
	free(p);
}

/*
 * One segment of @n generated samples (blocks of 100, host @host), with
 * the lost records @lost[0..@nl) written after the sample numbered
 * @at[i] (0: before any).
 */
static void write_lossy(FILE *fp, const char *host, size_t n,
			const size_t *at, const uint64_t (*lost)[3], size_t nl)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "host", host);
	struct pebs_writer_opts o = { .block_samples = 100 };
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, m, &o), 0);
	struct pebs_gen_opts go = { .seed = 7 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	size_t done = 0, k = 0;
	for (;;) {
		for (; k < nl && at[k] == done; k++)
			cr_assert_eq(pebs_writer_lost(w, (uint32_t)lost[k][0],
						      lost[k][1], lost[k][2]),
				     0);
		if (done == n)
			break;
		size_t step = k < nl ? at[k] - done : n - done;
		cr_assert_eq(pebs_gen_batch(g, b, step), 0);
		cr_assert_eq(pebs_writer_add_batch(w, b), 0);
		done += step;
	}
	cr_assert_eq(pebs_writer_close(w), 0);
	pebs_gen_free(g);
	pebs_batch_free(b);
	pebs_meta_free(m);
}

/*
 * Lost records come in input order, each in its own segment, with any
 * number of threads (lost_batches): an empty batch each, its record from
 * pebs_reader_lost(), the metadata its segment's; that of a segment of no
 * samples too.  Without lost_batches, stats.lost counts those before the
 * last batch returned, not what the threads read ahead.
 */
Test(format, lost_batches_in_order)
{
	static const size_t at_a[] = { 100, 250, 250 };
	static const uint64_t lost_a[][3] = { { 3, 99, 5 }, { 1, 7, 6 },
					      { 2, 8, 1 } };
	static const size_t at_b[] = { 0 };
	static const uint64_t lost_b[][3] = { { 4, 9, 11 } };
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_lossy(fp, "a", 250, at_a, lost_a, 3);
	write_lossy(fp, "b", 0, at_b, lost_b, 1);
	write_lossy(fp, "c", 150, NULL, NULL, 0);
	fclose(fp);
	const char *paths[] = { p };
	static const char want[] =
		"0a100 0aL3,99,5 0a100 0a50 0aL1,7,6 0aL2,8,1 1bL4,9,11 "
		"2c100 2c50 ";
	/* stats.lost after each batch, without lost_batches */
	static const uint64_t want_lost[] = { 0, 5, 5, 23, 23 };
	for (unsigned t = 1; t <= PEBS_READER_MAX_THREADS; t++) {
		for (int lb = 0; lb < 2; lb++) {
			struct pebs_reader *r;
			struct pebs_reader_opts o = { .threads = t,
						      .lost_batches = lb };
			cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
			struct pebs_batch *b;
			char got[256] = "";
			size_t k = 0;
			while (pebs_reader_next(r, &b) > 0) {
				uint32_t cpu;
				uint64_t time, c = pebs_reader_lost(r, &cpu,
								    &time);
				const char *h = pebs_meta_get(
					pebs_reader_meta(r), "host");
				size_t l = strlen(got);
				if (c)
					snprintf(got + l, sizeof(got) - l,
						 "%u%sL%u,%llu,%llu ",
						 b->segment, h, cpu,
						 (unsigned long long)time,
						 (unsigned long long)c);
				else
					snprintf(got + l, sizeof(got) - l,
						 "%u%s%zu ", b->segment, h,
						 b->n);
				cr_assert(!c || b->n == 0);
				struct pebs_read_stats st;
				pebs_reader_stats(r, &st);
				if (!lb) {
					cr_assert(k < 5);
					cr_assert_eq(st.lost, want_lost[k],
						     "-j%u batch %zu: lost "
						     "%llu", t, k,
						     (unsigned long long)
						     st.lost);
				}
				k++;
			}
			if (lb)
				cr_assert_str_eq(got, want, "-j%u", t);
			struct pebs_read_stats st;
			pebs_reader_stats(r, &st);
			cr_assert_eq(st.lost, 23);
			cr_assert_eq(st.segments, 3);
			pebs_reader_close(r);
		}
	}
	unlink(p);
	free(p);
}

/*
 * Without salvage, a source ends at a damaged block: what the threads
 * read past it (more segments, their headers, bytes) is not counted, and
 * the metadata at the end is that of the damaged block's segment.
 */
Test(format, damage_stops_counts_too)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 300, 100, "a", 0);
	write_stream(fp, 2, 0, 100, "z", 0);
	write_stream(fp, 3, 300, 100, "b", 0);
	fclose(fp);
	size_t len, offs[8];
	char *d = slurp(p, &len);
	cr_assert_geq(block_offsets(d, len, offs), 2);
	/* in the last column of block 0: found by the decoding thread */
	d[offs[1] - 40] ^= 0x55;
	char *q = dump(d, len);
	const char *paths[] = { q };
	for (unsigned t = 1; t <= PEBS_READER_MAX_THREADS; t++) {
		for (int rep = 0; rep < 3; rep++) {
			struct pebs_reader *r;
			struct pebs_reader_opts o = { .threads = t };
			cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
			struct pebs_batch *b;
			int rc, errs = 0, got = 0;
			while ((rc = pebs_reader_next(r, &b)) != 0)
				rc < 0 ? errs++ : got++;
			struct pebs_read_stats st;
			pebs_reader_stats(r, &st);
			cr_assert_eq(errs, 1);
			cr_assert_eq(got, 0);
			cr_assert_eq(st.segments, 1, "-j%u: %llu segments", t,
				     (unsigned long long)st.segments);
			/* up to the end of the damaged block */
			cr_assert_eq(st.bytes, offs[0] + 24 +
				     get64((const uint8_t *)d + offs[0] + 8));
			cr_assert_str_eq(pebs_meta_get(pebs_reader_meta(r),
						       "host"), "a");
			pebs_reader_close(r);
		}
	}
	unlink(q);
	unlink(p);
	free(q);
	free(d);
	free(p);
}

/* Generated data selects the KEYED encoding; all decoders must agree. */
Test(format, block_keyed_generated_matches_reference)
{
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	struct pebs_gen_opts go = { .seed = 3, .threads = 4 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	int keyed_seen = 0;
	for (int iter = 0; iter < 4; iter++) {
		size_t n = iter ? 20000 : PEBS_BATCH_MAX;
		cr_assert_eq(pebs_gen_batch(g, b, n), 0);
		void *chunk;
		size_t len;
		cr_assert_eq(pebs_block_encode(b, 3, &chunk, &len), 0);
		/* Directory: is any column KEYED? */
		const uint8_t *p = (const uint8_t *)chunk + CHUNK_HDR;
		size_t off = BLK_FIXED;
		for (uint32_t i = 0; i < get32(p + 8); i++)
			off += 2 + get16(p + off);
		for (uint32_t i = 0; i < get32(p + 4); i++)
			keyed_seen |= (p[off + BLK_COLDIR * i + 2] & 0x7f) ==
				      ENC_KEYED;
		decode_both_kernels(chunk, len, b, d);
		/* Only addr requested: its key columns are decoded inside. */
		cr_assert_eq(pebs_block_decode(chunk, len,
					       1ull << PEBS_COL_ADDR, d, NULL,
					       0), 0);
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(d->c64[PEBS_COL_ADDR][i],
				     b->c64[PEBS_COL_ADDR][i]);
		check_ref(chunk, len, b, ref);
		free(chunk);
	}
	cr_assert(keyed_seen, "the generator should select KEYED");
	pebs_gen_free(g);
	pebs_batch_free(b);
	pebs_batch_free(d);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/* Offset in chunk @c of column @col's directory entry, or 0. */
static size_t col_dir_at(const uint8_t *c, unsigned col)
{
	const uint8_t *p = c + CHUNK_HDR;
	size_t off = BLK_FIXED;
	for (uint32_t i = 0; i < get32(p + 8); i++)
		off += 2 + get16(p + off);
	for (uint32_t i = 0; i < get32(p + 4); i++, off += BLK_COLDIR)
		if (get16(p + off) == col)
			return CHUNK_HDR + off;
	return 0;
}

/*
 * KEYED columns whose values nearly never change for their key (a
 * thread's CPU: the decoder's lookup-only loop) and whose values often do
 * (the address: the full loop), read with their key columns decoded into
 * the batch (u32 tid, u64 ip) or only as keys, in every combination of
 * the columns asked for (30005 rows: a tail after the runs of eight):
 * the same values as written.
 */
Test(format, keyed_key_sources_and_unchanged_runs)
{
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 3; round++) {
		/* a CPU change every 1 in 20, 1 in 40, 1 in 3 samples of a
		 * thread: around the decoder's 15-in-16 threshold */
		const unsigned every[] = { 20, 40, 3 };
		uint32_t cpu_of[16];
		for (unsigned t = 0; t < 16; t++)
			cpu_of[t] = t * 3;
		pebs_batch_reset(b);
		for (size_t i = 0; i < 30005; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			unsigned t = (unsigned)(x % 16);
			if (x / 16 % every[round] == 0)
				cpu_of[t] = (uint32_t)(x >> 40) % 64;
			struct pebs_sample sm = { 0 };
			sm.time = 1000 + i;
			sm.tid = 100 + t;
			sm.pid = 7;
			sm.cpu = cpu_of[t];
			sm.ip = 0x401000 + (x >> 20) % 64 * 16;
			sm.addr = 0x7f0000000000ull + (x >> 30) % 100000 * 8;
			sm.lat = 5 + (uint32_t)(x >> 50) % 300;
			cr_assert_eq(pebs_batch_push(b, &sm), 0);
		}
		void *chunk;
		size_t len;
		cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
		size_t at = col_dir_at(chunk, PEBS_COL_CPU);
		cr_assert(at);
		if (round < 2)
			cr_assert_eq(ENC_CODE(((const uint8_t *)chunk)[at + 2]),
				     ENC_KEYED, "round %d", round);
		const uint64_t masks[] = {
			0, 1ull << PEBS_COL_CPU, 1ull << PEBS_COL_ADDR,
			1ull << PEBS_COL_CPU | 1ull << PEBS_COL_TID,
			1ull << PEBS_COL_ADDR | 1ull << PEBS_COL_IP,
			1ull << PEBS_COL_ADDR | 1ull << PEBS_COL_TID,
			1ull << PEBS_COL_ADDR | 1ull << PEBS_COL_CPU |
			1ull << PEBS_COL_IP | 1ull << PEBS_COL_TID,
		};
		for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++) {
			cr_assert_eq(pebs_block_decode(chunk, len, masks[m], d,
						       NULL, 0), 0);
			cr_assert_eq(d->n, b->n);
			for (size_t i = 0; i < b->n; i++) {
				if (!masks[m] || masks[m] & 1ull << PEBS_COL_CPU)
					cr_assert_eq(d->c32[PEBS_COL_CPU][i],
						     b->c32[PEBS_COL_CPU][i],
						     "round %d mask %zu row %zu",
						     round, m, i);
				if (!masks[m] ||
				    masks[m] & 1ull << PEBS_COL_ADDR)
					cr_assert_eq(d->c64[PEBS_COL_ADDR][i],
						     b->c64[PEBS_COL_ADDR][i],
						     "round %d mask %zu row %zu",
						     round, m, i);
			}
		}
		free(chunk);
	}
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/* The footer index of the last segment, found from the end of the file. */
Test(format, footer_index)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 3000, 1000, "a", 0);
	write_stream(fp, 2, 2500, 1000, "b", 0);
	fclose(fp);
	struct pebs_index_entry *e;
	size_t n;
	cr_assert_eq(pebs_file_index(p, &e, &n), 0);
	cr_assert_eq(n, 3);
	size_t len;
	char *b = slurp(p, &len);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		/* Each entry points at a block chunk of the second segment. */
		cr_assert_eq(get32((const uint8_t *)b + e[i].offset), TAG_BLCK);
		struct pebs_block_info bi;
		const uint8_t *c = (const uint8_t *)b + e[i].offset;
		size_t clen = 24 + get64(c + 8);
		cr_assert_eq(pebs_block_info(c, clen, 1, &bi, NULL, 0), 0);
		cr_assert_eq(bi.nsamples, e[i].samples);
		cr_assert_eq(bi.min[PEBS_COL_TIME], e[i].tmin);
		cr_assert_eq(bi.max[PEBS_COL_TIME], e[i].tmax);
		total += e[i].samples;
	}
	cr_assert_eq(total, 2500);
	free(e);
	/* Without an index (cut before it), no index is found. */
	char *q = dump(b, len - 10);
	cr_assert_eq(pebs_file_index(q, &e, &n), -PEBS_E_FORMAT);
	unlink(q);
	free(q);
	free(b);
	unlink(p);
	free(p);
}

/* A file of MAGIC, an INDX chunk (@hlen claimed, @plen payload) and TAIL. */
static char *indx_file(uint64_t hlen, const uint8_t *pl, size_t plen,
		       uint64_t indx_rel, uint64_t tail_rel)
{
	uint8_t b[256], t[16];
	size_t n = 0;
	memcpy(b, FMT_MAGIC, FMT_MAGIC_LEN);
	n += FMT_MAGIC_LEN;
	put32(b + n, TAG_INDX);
	put32(b + n + 4, 0);
	put64(b + n + 8, hlen);
	n += CHUNK_HDR;
	if (plen) {
		memcpy(b + n, pl, plen);
		put64(b + n + plen, fmt_checksum(TAG_INDX, pl, plen));
		n += plen + CHUNK_TRL;
	}
	put64(t, indx_rel);
	put64(t + 8, tail_rel);
	put32(b + n, TAG_TAIL);
	put32(b + n + 4, 0);
	put64(b + n + 8, 16);
	memcpy(b + n + CHUNK_HDR, t, 16);
	put64(b + n + CHUNK_HDR + 16, fmt_checksum(TAG_TAIL, t, 16));
	n += CHUNK_HDR + 16 + CHUNK_TRL;
	return dump((const char *)b, n);
}

/*
 * A crafted index length: near 2^64 it wrapped the size check and the
 * checksum read far past a 0-byte buffer (a crash); one that leaves a
 * part of an entry is refused too.
 */
Test(format, footer_index_bad_length)
{
	struct pebs_index_entry *e = NULL;
	size_t n = 0;
	char *p = indx_file(UINT64_MAX - 7, NULL, 0, 8, 24);
	cr_assert_eq(pebs_file_index(p, &e, &n), -PEBS_E_CORRUPT);
	unlink(p);
	free(p);
	uint8_t pl[45] = { 0 };
	put64(pl, 1);	/* one entry of 32 bytes, and 5 more */
	p = indx_file(sizeof(pl), pl, sizeof(pl), 8, 8 + 24 + sizeof(pl));
	cr_assert_eq(pebs_file_index(p, &e, &n), -PEBS_E_CORRUPT);
	unlink(p);
	free(p);
	/* the same entry alone is an index */
	p = indx_file(40, pl, 40, 8, 8 + 24 + 40);
	cr_assert_eq(pebs_file_index(p, &e, &n), 0);
	cr_assert_eq(n, 1);
	free(e);
	unlink(p);
	free(p);
}

static int skip_all(void *ctx, const struct pebs_block_info *bi)
{
	(void)ctx;
	(void)bi;
	return 0;
}

/*
 * Counts the errors of reading @path with @o (salvage): every one must be
 * a checksum mismatch of block 3.  Returns the count; *@skipped gets the
 * blocks the filter skipped.
 */
static int count_block3_errors(const char *path, struct pebs_reader_opts *o,
			       uint64_t *skipped)
{
	const char *paths[] = { path };
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, o), 0);
	struct pebs_batch *bt;
	int rc, errs = 0;
	while ((rc = pebs_reader_next(r, &bt)) != 0) {
		if (rc > 0)
			continue;
		cr_assert_eq(rc, -PEBS_E_CHECKSUM, "%s", pebs_reader_errmsg(r));
		cr_assert(strstr(pebs_reader_errmsg(r), "block 3 at"), "%s",
			  pebs_reader_errmsg(r));
		cr_assert(strstr(pebs_reader_errmsg(r), "checksum mismatch"));
		errs++;
	}
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	*skipped = st.skipped;
	pebs_reader_close(r);
	return errs;
}

/*
 * A block the filter skips is still checked in what the decision used
 * (its directory): damage there is reported.  Damage in the column data
 * of a skipped block with a column checksum table is not looked for (the
 * data is never used), and is reported as soon as the column is decoded.
 */
Test(format, skipped_block_damage_is_reported)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 1, 5000, 1000, "a", 0);
	fclose(fp);
	size_t len, offs[64];
	char *b = slurp(p, &len);
	block_offsets(b, len, offs);
	/* Payload: 16 fixed bytes, the event names, then the directory. */
	const uint8_t *pl = (uint8_t *)b + offs[3] + CHUNK_HDR;
	cr_assert(get32(pl + 12) & BLK_F_COLSUMS);
	size_t dir = 16;
	for (uint32_t i = 0; i < get32(pl + 8); i++)
		dir += 2 + get16(pl + dir);
	size_t data = dir + BLK_COLDIR * get32(pl + 4);
	for (int where = 0; where < 2; where++) {
		/* a minimum in the directory, or a byte of column data */
		size_t at = offs[3] + CHUNK_HDR + (where ? data + 100 :
						   dir + 8);
		b[at] ^= 0x10;
		char *q = dump(b, len);
		b[at] ^= 0x10;
		for (unsigned t = 1; t <= 2; t++) {
			struct pebs_reader_opts o = { .threads = t,
						      .salvage = 1,
						      .filter = skip_all };
			uint64_t skipped;
			int errs = count_block3_errors(q, &o, &skipped);
			cr_assert_eq(errs, where ? 0 : 1, "where %d", where);
			cr_assert_eq(skipped, where ? 5 : 4);
			o.filter = NULL;
			errs = count_block3_errors(q, &o, &skipped);
			cr_assert_eq(errs, 1, "where %d", where);
			cr_assert_eq(skipped, 0);
		}
		unlink(q);
		free(q);
	}
	unlink(p);
	free(p);
	free(b);
}

/*
 * Data of column @col in block chunk @c: its offset in the chunk (0 when
 * absent) and length.
 */
static size_t col_data_at(const uint8_t *c, unsigned col, size_t *clen)
{
	const uint8_t *p = c + CHUNK_HDR;
	size_t off = BLK_FIXED;
	for (uint32_t i = 0; i < get32(p + 8); i++)
		off += 2 + get16(p + off);
	size_t data = off + BLK_COLDIR * (size_t)get32(p + 4);
	for (uint32_t i = 0; i < get32(p + 4); i++) {
		const uint8_t *d = p + off + BLK_COLDIR * i;
		if (get16(d) == col) {
			*clen = get64(d + 32);
			return CHUNK_HDR + data;
		}
		data += get64(d + 32);
	}
	return 0;
}

/* The same block without its column checksum table (minor version 0). */
static uint8_t *strip_colsums(const uint8_t *c, size_t len, size_t *nlen)
{
	const uint8_t *p = c + CHUNK_HDR;
	size_t plen = len - CHUNK_HDR - CHUNK_TRL;
	size_t npl = plen - 8 * (size_t)get32(p + 4) - 8;
	uint8_t *o = malloc(CHUNK_HDR + npl + CHUNK_TRL);
	fmt_chunk_hdr(o, TAG_BLCK, CHUNK_CRITICAL, npl);
	memcpy(o + CHUNK_HDR, p, npl);
	put32(o + CHUNK_HDR + 12, 0);
	put64(o + CHUNK_HDR + npl, fmt_checksum(TAG_BLCK, o + CHUNK_HDR, npl));
	*nlen = CHUNK_HDR + npl + CHUNK_TRL;
	return o;
}

static int decode_cols(const void *c, size_t len, uint64_t cols,
		       struct pebs_batch *d, char *err, size_t errlen)
{
	err[0] = 0;
	return pebs_block_decode(c, len, cols, d, err, errlen);
}

/*
 * Column checksums (minor 1): a reader of some columns verifies the head
 * and those columns (key columns included) only; damage elsewhere does not
 * stop it, damage in what it uses does, naming the column.  Blocks without
 * the table (minor 0) still decode, verified as a whole.
 */
Test(format, column_checksums_verify_what_is_used)
{
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	struct pebs_gen_opts go = { .seed = 5, .threads = 4 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_gen_batch(g, b, 20000), 0);
	void *chunk;
	size_t len, lat_len, ip_len;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *c = chunk;
	cr_assert(get32(c + CHUNK_HDR + 12) & BLK_F_COLSUMS);
	check_ref(c, len, b, ref);
	size_t lat = col_data_at(c, PEBS_COL_LAT, &lat_len);
	size_t ip = col_data_at(c, PEBS_COL_IP, &ip_len);
	cr_assert(lat && lat_len > 10 && ip && ip_len > 10);
	const uint64_t time = 1ull << PEBS_COL_TIME;
	const uint64_t lat_m = 1ull << PEBS_COL_LAT;
	const uint64_t addr_m = 1ull << PEBS_COL_ADDR;

	/* Damage in lat's data: time and addr still decode, lat does not. */
	c[lat + lat_len / 2] ^= 0x40;
	cr_assert_eq(decode_cols(c, len, time, d, err, sizeof(err)), 0, "%s",
		     err);
	for (size_t i = 0; i < b->n; i++)
		cr_assert_eq(d->c64[PEBS_COL_TIME][i],
			     b->c64[PEBS_COL_TIME][i]);
	cr_assert_eq(decode_cols(c, len, addr_m, d, err, sizeof(err)), 0);
	cr_assert_eq(decode_cols(c, len, lat_m, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_str_eq(err, "checksum mismatch (column lat)");
	cr_assert_eq(decode_cols(c, len, 0, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_eq(ref_decode_block(c, len, ref), -1);
	struct pebs_block_info bi;
	cr_assert_eq(pebs_block_info(c, len, 1, &bi, err, sizeof(err)), 0,
		     "the directory is intact");
	cr_assert_eq(fmt_block_verify_head(c, len), 0);
	/* A block without the table is verified whole: time fails too. */
	size_t olen;
	uint8_t *old = strip_colsums(c, len, &olen);
	put64(old + olen - CHUNK_TRL, get64(old + olen - CHUNK_TRL) ^ 1);
	cr_assert_eq(decode_cols(old, olen, time, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_str_eq(err, "checksum mismatch");
	free(old);
	c[lat + lat_len / 2] ^= 0x40;

	/* Damage in ip, the key of the KEYED addr: addr is refused. */
	c[ip + ip_len / 3] ^= 0x01;
	cr_assert_eq(decode_cols(c, len, addr_m, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_str_eq(err, "checksum mismatch (column ip)");
	cr_assert_eq(decode_cols(c, len, lat_m, d, err, sizeof(err)), 0);
	c[ip + ip_len / 3] ^= 0x01;

	/* Damage in the directory: refused whatever is decoded. */
	size_t dir = CHUNK_HDR + BLK_FIXED;
	for (uint32_t i = 0; i < get32(c + CHUNK_HDR + 8); i++)
		dir += 2 + get16(c + dir);
	c[dir + 9] ^= 0x02;
	cr_assert_eq(decode_cols(c, len, lat_m, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_str_eq(err, "checksum mismatch");
	cr_assert_eq(pebs_block_info(c, len, 1, &bi, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	cr_assert_eq(fmt_block_verify_head(c, len), -PEBS_E_CHECKSUM);
	c[dir + 9] ^= 0x02;

	/* Intact again; the same block without its table is the same data. */
	cr_assert_eq(decode_cols(c, len, 0, d, err, sizeof(err)), 0);
	assert_same(b, d);
	old = strip_colsums(c, len, &olen);
	decode_both_kernels(old, olen, b, d);
	check_ref(old, olen, b, ref);
	/* A table that does not end the payload is damage. */
	put32(c + CHUNK_HDR + 12, 0);
	cr_assert_eq(decode_cols(c, len, 0, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM, "the chunk checksum covers bflags");
	free(old);
	free(chunk);
	pebs_gen_free(g);
	pebs_batch_free(b);
	pebs_batch_free(d);
	for (unsigned c2 = 0; c2 < PEBS_COL_COUNT; c2++)
		free(ref[c2]);
}

/*
 * A column whose first values win the KEYED trial and whose rest is 64-bit
 * noise: the variable-length data then needs 9 bytes a value, more than a
 * plane layout; the encoder must have room for it (and round-trip it).
 */
Test(format, keyed_column_of_wide_noise)
{
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	size_t n = PEBS_BATCH_MAX;
	uint64_t last[37];
	for (unsigned k = 0; k < 37; k++)
		last[k] = rnd();
	for (size_t i = 0; i < n; i++) {
		/*
		 * First the trial's values: full-width noise between samples
		 * but 5-byte steps per instruction, so KEYED wins; then noise.
		 */
		unsigned k = (unsigned)(i % 37);
		b->c64[PEBS_COL_IP][i] = 0x401000 + 16 * k;
		last[k] += rnd() & 0xfffffffffull;
		b->c64[PEBS_COL_ADDR][i] = i < 8192 ? last[k] :
					   rnd() | 1ull << 63;
		b->c64[PEBS_COL_TIME][i] = i;
	}
	b->n = n;
	void *chunk;
	size_t len;
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	/* addr went KEYED, with more data than 8 bytes a value */
	const uint8_t *p = (const uint8_t *)chunk + CHUNK_HDR;
	size_t off = BLK_FIXED;
	for (uint32_t i = 0; i < get32(p + 8); i++)
		off += 2 + get16(p + off);
	int keyed = 0;
	for (uint32_t i = 0; i < get32(p + 4); i++) {
		const uint8_t *e = p + off + BLK_COLDIR * i;
		if (get16(e) == PEBS_COL_ADDR)
			keyed = (e[2] & 0x7f) == ENC_KEYED &&
				get64(e + 40) > 8 * (uint64_t)n;
	}
	cr_assert(keyed, "the test needs a wide KEYED column");
	char err[128];
	cr_assert_eq(pebs_block_decode(chunk, len, 0, d, err, sizeof(err)), 0,
		     "%s", err);
	assert_same(b, d);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/* A block of zeros has no column: its table is the head checksum alone. */
Test(format, column_checksums_of_an_empty_directory)
{
	struct pebs_batch *b = pebs_batch_new(16);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	b->n = 10;
	void *chunk;
	size_t len;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	const uint8_t *p = (const uint8_t *)chunk + CHUNK_HDR;
	cr_assert_eq(get32(p + 4), 0, "no column");
	cr_assert_eq(len, CHUNK_HDR + BLK_FIXED + 8 + CHUNK_TRL);
	cr_assert_eq(pebs_block_decode(chunk, len, 0, d, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(d->n, 10);
	assert_same(b, d);
	check_ref(chunk, len, b, ref);
	((uint8_t *)chunk)[CHUNK_HDR + 1] ^= 1;	/* n: 10 -> 266 */
	cr_assert_eq(pebs_block_decode(chunk, len, 1, d, err, sizeof(err)),
		     -PEBS_E_CHECKSUM);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/* A batch of @n samples whose columns each take one top-plane packing. */
static struct pebs_batch *packing_batch(size_t n)
{
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert(b);
	static const uint64_t wide[3] = { 0x7f12345678ull, 0x401000ull,
					  0xffffffffffff0000ull };
	uint64_t t = 1000000;
	for (size_t i = 0; i < n; i++) {
		b->c32[PEBS_COL_LAT][i] = 100 + (uint32_t)(rnd() % 2);
		b->c32[PEBS_COL_INS_LAT][i] = 7 + (uint32_t)(rnd() % 4);
		b->c32[PEBS_COL_TID][i] = 50 + (uint32_t)(rnd() % 16);
		b->c32[PEBS_COL_FMT][i] = (uint32_t)(rnd() % 17);
		b->c32[PEBS_COL_PID][i] = 1 + (uint32_t)(rnd() % 0x400);
		b->c32[PEBS_COL_CPU][i] = 5;
		b->c64[PEBS_COL_TIME][i] = t += rnd() % 3;
		b->c64[PEBS_COL_IP][i] = wide[rnd() % 3];
		b->c64[PEBS_COL_APPLICABLE][i] = 0x1000000000ull +
			(rnd() % 1000) * 0x10001ull;
		b->c64[PEBS_COL_TSX][i] = rnd() % 16;
	}
	b->n = n;
	return b;
}

/*
 * Format 1.2: top planes of small values are packed 2, 4 or 8 to a byte
 * in FOR, DELTA and DICT columns, zstd-compressed or stored, at any
 * sample count; the fast, scalar and reference decoders all read them,
 * and the scalar encoder writes the same bytes.
 */
Test(format, packed_top_planes)
{
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	static const size_t ns[] = { 1, 2, 7, 9, 15, 17, 333, 4099,
				     PEBS_BATCH_MAX };
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		struct pebs_batch *b = packing_batch(ns[k]);
		void *chunk, *sc;
		size_t len, slen;
		cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
		pebs_codec_select(1);
		cr_assert_eq(pebs_block_encode(b, 1, &sc, &slen), 0);
		pebs_codec_select(0);
		cr_assert(slen == len && !memcmp(sc, chunk, len),
			  "scalar encoding differs, n %zu", ns[k]);
		decode_both_kernels(chunk, len, b, d);
		check_ref(chunk, len, b, ref);
		if (ns[k] == PEBS_BATCH_MAX) {
			/* column: encoding, width, packing */
			static const struct {
				unsigned col, enc, w, tp;
			} want[] = {
				{ PEBS_COL_LAT, ENC_FOR, 1, 3 },
				{ PEBS_COL_INS_LAT, ENC_FOR, 1, 2 },
				{ PEBS_COL_TID, ENC_FOR, 1, 1 },
				{ PEBS_COL_FMT, ENC_FOR, 1, 0 },
				{ PEBS_COL_PID, ENC_FOR, 2, 2 },
				{ PEBS_COL_TIME, ENC_DELTA, 1, 1 },
				{ PEBS_COL_IP, ENC_DICT, 1, 2 },
				{ PEBS_COL_APPLICABLE, ENC_DICT, 2, 2 },
				{ PEBS_COL_TSX, ENC_FOR, 1, 1 },
				{ PEBS_COL_CPU, ENC_CONST, 0, 0 },
			};
			const uint8_t *c = chunk;
			for (size_t i = 0; i < sizeof(want) / sizeof(want[0]);
			     i++) {
				size_t at = col_dir_at(c, want[i].col);
				cr_assert(at, "column %u", want[i].col);
				cr_assert_eq(ENC_CODE(c[at + 2]), want[i].enc,
					     "column %u", want[i].col);
				cr_assert_eq(c[at + 3], want[i].w);
				cr_assert_eq(ENC_TOP(c[at + 2]), want[i].tp,
					     "column %u", want[i].col);
				uint64_t rl = get64(c + at + 40);
				uint64_t dl = want[i].enc == ENC_DICT ?
					      8ull * get32(c + at + 4) : 0;
				if (want[i].w)
					cr_assert_eq(rl, dl + (want[i].w - 1) *
						     ns[k] + fmt_top_len(ns[k],
						     want[i].tp));
			}
			/* Random nibbles packed do not compress: stored. */
			cr_assert(c[col_dir_at(c, PEBS_COL_TSX) + 2] &
				  ENC_STORED);
		}
		free(chunk);
		free(sc);
		pebs_batch_free(b);
	}
	pebs_batch_free(d);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/*
 * The planes of a column end zstd blocks: two planes of 16 equally likely
 * bytes each, but different ones (0-15 and 128-143), cost 4 bits a byte
 * with a literal table each, 5 with one table for both.
 */
Test(format, planes_get_their_own_zstd_blocks)
{
	size_t n = PEBS_BATCH_MAX;
	struct pebs_batch *b = pebs_batch_new(n), *d = pebs_batch_new(n);
	cr_assert(b && d);
	for (size_t i = 0; i < n; i++)
		b->c32[PEBS_COL_LAT][i] = i ? (uint32_t)(rnd() % 16 |
					       (128 + rnd() % 16) << 8) : 0;
	b->n = n;
	void *chunk;
	size_t len;
	char err[128];
	struct pebs_block_info bi;
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	cr_assert_eq(pebs_block_info(chunk, len, 1, &bi, err, sizeof(err)), 0,
		     "%s", err);
	const uint8_t *c = chunk;
	size_t at = col_dir_at(c, PEBS_COL_LAT);
	cr_assert(at);
	cr_assert_eq(ENC_CODE(c[at + 2]), ENC_FOR);
	cr_assert_eq(c[at + 3], 2);
	/* 4 bits a byte and the tables: well under 5 bits (62.5%) */
	cr_assert_lt(bi.bytes[PEBS_COL_LAT], 2 * n * 53 / 100, "%llu bytes",
		     (unsigned long long)bi.bytes[PEBS_COL_LAT]);
	decode_both_kernels(chunk, len, b, d);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/* The chunk checksum of block @o (@len bytes, no column table) again. */
static void reseal(uint8_t *o, size_t len)
{
	size_t plen = len - CHUNK_HDR - CHUNK_TRL;
	put64(o + CHUNK_HDR + plen, fmt_checksum(TAG_BLCK, o + CHUNK_HDR,
						 plen));
}

/* Packing where there are no planes, or sizes that disagree: damage. */
Test(format, packed_top_planes_bad_directory)
{
	struct pebs_batch *b = packing_batch(333);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	void *chunk;
	size_t len, olen;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *o = strip_colsums(chunk, len, &olen);
	size_t cpu = col_dir_at(o, PEBS_COL_CPU);
	size_t lat = col_dir_at(o, PEBS_COL_LAT);
	cr_assert(cpu && lat);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)), 0, "%s",
		     err);

	o[cpu + 2] |= 1 << ENC_TOP_SHIFT;	/* CONST, packed */
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)),
		     -PEBS_E_CORRUPT);
	cr_assert_str_eq(err, "column 1: packing without planes");
	o[cpu + 2] &= 0x9f;

	o[lat + 2] ^= 1 << ENC_TOP_SHIFT;	/* 1 bit -> 2 bits a value */
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)),
		     -PEBS_E_CORRUPT);
	cr_assert_str_eq(err, "column 7: bad size");
	free(o);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/*
 * Files are written as 1.2 with required feature bit 0 (packed top
 * planes), which this reader knows; an unknown required bit is refused
 * by name.  A file of minor version 0 (testdata, no required bits) still
 * reads, and its samples written again read back the same.
 */
Test(format, required_features_and_old_files)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 2, 3000, 1000, "a", 0);
	fclose(fp);
	size_t len;
	char *f = slurp(p, &len);
	uint8_t *h = (uint8_t *)f + FMT_MAGIC_LEN;
	cr_assert_eq(get32(h), TAG_HEAD);
	cr_assert_eq(get16(h + CHUNK_HDR + 2), 2, "minor version");
	cr_assert_eq(get64(h + CHUNK_HDR + 8), FMT_REQ_TOP);
	const char *paths[] = { p };
	uint64_t seeds[] = { 2 };
	size_t counts[] = { 3000 };
	int rerr;
	cr_assert_eq(read_check(paths, 1, 1, seeds, counts, &rerr), 3000);
	cr_assert_eq(rerr, 0);

	uint64_t hl = get64(h + 8);
	put64(h + CHUNK_HDR + 8, 0x3);
	put64(h + CHUNK_HDR + hl, fmt_checksum(TAG_HEAD, h + CHUNK_HDR, hl));
	char *q = dump(f, len);
	struct pebs_reader *r;
	struct pebs_batch *b;
	paths[0] = q;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(r, &b), -PEBS_E_VERSION);
	cr_assert_str_eq(pebs_reader_errmsg(r), "required features 0x2 "
			 "unknown to this reader");
	pebs_reader_close(r);

	const char *old = "testdata/good/filter-hist-2k.pebs";
	char *of = slurp(old, &len);
	cr_assert_eq(get16((uint8_t *)of + FMT_MAGIC_LEN + CHUNK_HDR + 2), 0,
		     "the old file is minor version 0");
	paths[0] = old;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	size_t n = 0;
	while (pebs_reader_next(r, &b) == 1) {
		void *chunk;
		cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
		decode_both_kernels(chunk, len, b, d);
		free(chunk);
		n += b->n;
	}
	pebs_reader_close(r);
	cr_assert_eq(n, 2000);
	pebs_batch_free(d);
	unlink(p);
	unlink(q);
	free(p);
	free(q);
	free(f);
	free(of);
}

struct consumed {
	uint64_t samples[PEBS_READER_MAX_THREADS];
	uint64_t fail_block;
};

static int consume_count(void *ctx, unsigned worker,
			 const struct pebs_batch *b)
{
	struct consumed *c = ctx;
	cr_assert_lt(worker, PEBS_READER_MAX_THREADS);
	if (b->block_index == c->fail_block)
		return -PEBS_E_NOMEM;
	c->samples[worker] += b->n;
	return 0;
}

/*
 * pebs_reader_opts.consume sees every decoded batch once, on the thread
 * that decoded it, while the batches are still delivered in order; an
 * error it returns is that block's error.
 */
Test(format, reader_consume_on_decode_threads)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 4, 100000, 1000, "a", 0);
	fclose(fp);
	const char *paths[] = { p };
	for (unsigned th = 1; th <= 4; th++) {
		for (int fail = 0; fail < 2; fail++) {
			struct consumed c = { .fail_block = fail ? 7 :
					      UINT64_MAX };
			struct pebs_reader_opts o = {
				.threads = th, .consume = consume_count,
				.consume_ctx = &c, .salvage = fail,
			};
			struct pebs_reader *r;
			struct pebs_batch *b;
			cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
			uint64_t delivered = 0, next = 0, errors = 0;
			int rc;
			while ((rc = pebs_reader_next(r, &b)) != 0) {
				if (rc < 0) {
					cr_assert_eq(rc, -PEBS_E_NOMEM);
					cr_assert(strstr(pebs_reader_errmsg(r),
							 "block 7 at offset"),
						  "%s", pebs_reader_errmsg(r));
					errors++;
					next++;
					continue;
				}
				cr_assert_eq(b->block_index, next++,
					     "delivered in order");
				delivered += b->n;
			}
			pebs_reader_close(r);
			uint64_t counted = 0;
			for (unsigned w = 0; w < PEBS_READER_MAX_THREADS; w++) {
				if (w >= th)
					cr_assert_eq(c.samples[w], 0);
				counted += c.samples[w];
			}
			cr_assert_eq(errors, (uint64_t)fail);
			cr_assert_eq(delivered, 100000 - 1000 * (uint64_t)fail);
			cr_assert_eq(counted, delivered);
		}
	}
	/*
	 * Damage found while decoding block 30, no salvage: the source ends
	 * there, and what was read ahead past it is not consumed either.
	 */
	size_t len, offs[128];
	char *f = slurp(p, &len);
	cr_assert_eq(block_offsets(f, len, offs), 100);
	/* in its column data: found by a column checksum while decoding */
	f[offs[30] + (offs[31] - offs[30]) * 3 / 4] ^= 0x20;
	char *q = dump(f, len);
	paths[0] = q;
	for (unsigned th = 1; th <= 4; th++) {
		struct consumed c = { .fail_block = UINT64_MAX };
		struct pebs_reader_opts o = {
			.threads = th, .consume = consume_count,
			.consume_ctx = &c,
		};
		struct pebs_reader *r;
		struct pebs_batch *b;
		cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
		uint64_t delivered = 0, counted = 0;
		int rc, errors = 0;
		while ((rc = pebs_reader_next(r, &b)) != 0) {
			if (rc < 0)
				errors++;
			else
				delivered += b->n;
		}
		pebs_reader_close(r);
		for (unsigned w = 0; w < PEBS_READER_MAX_THREADS; w++)
			counted += c.samples[w];
		cr_assert_eq(errors, 1, "threads %u", th);
		cr_assert_eq(delivered, 30000, "threads %u", th);
		cr_assert_eq(counted, delivered, "threads %u", th);
	}
	unlink(q);
	free(q);
	free(f);
	unlink(p);
	free(p);
}

/*
 * The reader's statistics say where the bytes are: per column, the sum of
 * the stored sizes in the directories of the blocks it returned, and the
 * format minor versions of the segments (a 1.0 file and a 1.2 one).
 */
Test(format, reader_stats_column_bytes_and_versions)
{
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_stream(fp, 6, 20000, 3000, "a", 0);
	fclose(fp);
	size_t len, offs[64];
	char *f = slurp(p, &len);
	size_t nb = block_offsets(f, len, offs);
	cr_assert_eq(nb, 7);
	uint64_t want[PEBS_COL_COUNT] = { 0 };
	for (size_t i = 0; i < nb; i++) {
		struct pebs_block_info bi;
		const uint8_t *c = (const uint8_t *)f + offs[i];
		size_t clen = CHUNK_HDR + get64(c + 8) + CHUNK_TRL;
		cr_assert_eq(pebs_block_info(c, clen, 1, &bi, NULL, 0), 0);
		for (unsigned k = 0; k < PEBS_COL_COUNT; k++) {
			size_t cl, at = col_data_at(c, k, &cl);
			cr_assert_eq(bi.bytes[k], at ? cl : 0);
			want[k] += bi.bytes[k];
		}
	}
	const char *old = "testdata/good/filter-hist-2k.pebs";
	const char *paths[] = { p, old };
	for (size_t np = 1; np <= 2; np++) {
		struct pebs_reader *r;
		struct pebs_batch *b;
		struct pebs_reader_opts o = { .threads = 2,
					      .cols = 1ull << PEBS_COL_TIME };
		cr_assert_eq(pebs_reader_open(&r, paths, np, &o), 0);
		while (pebs_reader_next(r, &b) > 0)
			;
		struct pebs_read_stats st;
		pebs_reader_stats(r, &st);
		pebs_reader_close(r);
		cr_assert_eq(st.minor_max, 2);
		cr_assert_eq(st.minor_min, np == 1 ? 2 : 0);
		if (np == 1)
			for (unsigned k = 0; k < PEBS_COL_COUNT; k++)
				cr_assert_eq(st.col_bytes[k], want[k],
					     "column %u", k);
		else
			cr_assert_gt(st.col_bytes[PEBS_COL_LAT],
				     want[PEBS_COL_LAT]);
	}
	unlink(p);
	free(p);
	free(f);
}

/*
 * fmt_block_ranges names every byte that decoding some columns reads: a
 * copy of the block holding only those ranges, the rest garbage, decodes
 * those columns exactly (KEYED ones with their key columns), and reading
 * one narrow column needs a small part of the block.  Without the column
 * checksum table the whole chunk is needed; a head longer than what was
 * read is reported, not read past.
 */
Test(format, block_ranges_cover_what_decoding_reads)
{
	struct pebs_gen_opts go = { .seed = 9, .threads = 8 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_gen_batch(g, b, 30000), 0);
	void *chunk;
	size_t len;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *img = malloc(len);
	struct fmt_range rg[FMT_RANGES_MAX];
	uint64_t masks[64];
	size_t nm = 0;
	masks[nm++] = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		masks[nm++] = 1ull << c;
	for (int i = 0; i < 12; i++)
		masks[nm++] = rnd() & ((1ull << PEBS_COL_COUNT) - 1);
	for (size_t m = 0; m < nm; m++) {
		int k = fmt_block_ranges(chunk, len, len, masks[m], rg);
		cr_assert(k >= 1 && k <= FMT_RANGES_MAX, "%d ranges", k);
		memset(img, 0xa5, len);
		size_t total = 0;
		for (int i = 0; i < k; i++) {
			cr_assert(rg[i].off + rg[i].len <= len);
			if (i)
				cr_assert(rg[i].off > rg[i - 1].off +
					  rg[i - 1].len, "sorted, merged");
			memcpy(img + rg[i].off, (uint8_t *)chunk + rg[i].off,
			       rg[i].len);
			total += rg[i].len;
		}
		cr_assert_eq(rg[0].off, 0);
		cr_assert_eq(rg[k - 1].off + rg[k - 1].len, len);
		if (!masks[m])
			cr_assert_eq(total, len, "all columns: everything");
		cr_assert_eq(decode_cols(img, len, masks[m], d, err,
					 sizeof(err)), 0, "mask %llx: %s",
			     (unsigned long long)masks[m], err);
		uint64_t want = masks[m] ? masks[m] : ~0ull;
		for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
			if (!(want & (1ull << c)))
				continue;
			for (size_t i = 0; i < b->n; i++)
				cr_assert_eq(pebs_field_num_raw(d, c, i),
					     pebs_field_num_raw(b, c, i),
					     "column %u sample %zu", c, i);
		}
	}
	/* lat alone: a small part of the block. */
	int k = fmt_block_ranges(chunk, len, len, 1ull << PEBS_COL_LAT, rg);
	size_t total = 0;
	for (int i = 0; i < k; i++)
		total += rg[i].len;
	cr_assert_lt(total, len / 4);
	/* addr is KEYED on ip (and tid): their data comes with it. */
	size_t ip_len, ip = col_data_at(chunk, PEBS_COL_IP, &ip_len);
	k = fmt_block_ranges(chunk, len, len, 1ull << PEBS_COL_ADDR, rg);
	int has_ip = 0;
	for (int i = 0; i < k; i++)
		has_ip |= rg[i].off <= ip && ip + ip_len <= rg[i].off +
			  rg[i].len;
	cr_assert(has_ip, "the key column's data is in the ranges");
	/* FMT_COLS_HEAD: the head and the table, all a skip verifies. */
	k = fmt_block_ranges(chunk, len, len, FMT_COLS_HEAD, rg);
	cr_assert_eq(k, 2);
	memset(img, 0xa5, len);
	for (int i = 0; i < k; i++)
		memcpy(img + rg[i].off, (uint8_t *)chunk + rg[i].off,
		       rg[i].len);
	cr_assert(rg[0].len <= ip && rg[1].off >= ip + ip_len,
		  "no column data");
	cr_assert_eq(fmt_block_verify_head(img, len), 0);
	struct pebs_block_info bi;
	cr_assert_eq(pebs_block_info(img, len, 0, &bi, err, sizeof(err)), 0);
	cr_assert_eq(bi.nsamples, b->n);
	/* The head must be there: 40 bytes are not all of it. */
	cr_assert_lt(fmt_block_ranges(chunk, len, 40, 0, rg), 0);
	cr_assert_lt(fmt_block_ranges(chunk, len, 8, 0, rg), 0);
	/* Minor 0: the chunk checksum covers it all. */
	size_t olen;
	uint8_t *old = strip_colsums(chunk, len, &olen);
	cr_assert_eq(fmt_block_ranges(old, olen, olen, 1ull << PEBS_COL_LAT,
				      rg), 0);
	free(old);
	free(img);
	free(chunk);
	pebs_gen_free(g);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/*
 * A file that shrinks while it is read (rotated, or truncated by its
 * writer) ends with a read error at the first block past its new end; the
 * blocks before it are delivered.  Mapped files are not read in place, so
 * this is an error, not SIGBUS.
 */
Test(format, file_that_shrinks_while_read)
{
	size_t len, offs[64];
	char *buf = ten_blocks(3, &len, offs);
	for (unsigned t = 1; t <= 2; t++) {
		char *q = dump(buf, len);
		const char *paths[] = { q };
		struct pebs_reader_opts o = { .threads = t };
		struct pebs_reader *r;
		struct pebs_batch *bt;
		cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
		cr_assert_eq(pebs_reader_next(r, &bt), 1);
		size_t got = bt->n;
		cr_assert_eq(truncate(q, (off_t)(offs[8] + 100)), 0);
		int rc, err = 0;
		while ((rc = pebs_reader_next(r, &bt)) != 0) {
			if (rc < 0 && !err)
				err = rc;
			if (rc > 0)
				got += bt->n;
		}
		/* Read ahead (threads) may have copied more before the cut. */
		cr_assert(got >= 8000 && got < 10000, "%zu samples", got);
		cr_assert(err == -PEBS_E_IO || err == -PEBS_E_TRUNCATED,
			  "error %d", err);
		if (t == 1) {
			char want[96];
			snprintf(want, sizeof(want), "block 8 at offset 0x%zx: "
				 "read error: the file shrank", offs[8]);
			cr_assert_str_eq(pebs_reader_errmsg(r), want);
		}
		pebs_reader_close(r);
		unlink(q);
		free(q);
	}
	free(buf);
}

/*
 * Reads @len bytes at @b with salvage (or without) from a mapped file, or
 * through a FIFO (a stream) when @fifo: returns the samples read, *@errs
 * the errors and @first the first error's message.
 */
static size_t salvage_read(const char *b, size_t len, int fifo,
			   unsigned threads, int salvage, int *errs,
			   char *first, size_t firstlen)
{
	char *p = fifo ? NULL : dump(b, len);
	pid_t child = -1;
	if (fifo) {
		p = strdup(tmpname());
		unlink(p);
		cr_assert_eq(mkfifo(p, 0600), 0);
		child = fork();
		cr_assert(child >= 0);
		if (child == 0) {
			FILE *fp = fopen(p, "wb");
			fwrite(b, 1, len, fp);
			_exit(fclose(fp) != 0);
		}
	}
	const char *paths[] = { p };
	struct pebs_reader_opts o = { .threads = threads,
				      .salvage = salvage };
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
	struct pebs_batch *bt;
	size_t n = 0;
	int rc;
	*errs = 0;
	while ((rc = pebs_reader_next(r, &bt)) != 0) {
		if (rc > 0) {
			n += bt->n;
			continue;
		}
		if (!(*errs)++)
			snprintf(first, firstlen, "%s", pebs_reader_errmsg(r));
	}
	pebs_reader_close(r);
	if (fifo) {
		int st;
		waitpid(child, &st, 0);
	}
	unlink(p);
	free(p);
	return n;
}

/*
 * Salvage does not trust the length of a chunk whose checksum failed: it
 * scans on for the next valid chunk or segment, in a file and in a
 * stream, so that damage to a chunk header (a block's, a segment's magic
 * or header, an end marker) loses that chunk only.
 */
Test(format, salvage_resyncs_after_damaged_headers)
{
	size_t len, offs[64];
	char *b = ten_blocks(5, &len, offs);
	size_t endoff = offs[9] + CHUNK_HDR + get64((uint8_t *)b + offs[9] +
						    8) + CHUNK_TRL;
	cr_assert_eq(get32((uint8_t *)b + endoff), TAG_END);
	char *bb = malloc(2 * len);
	struct {
		size_t at;
		uint8_t x;
		int twice;
		size_t want, plain;	/* samples with, without salvage */
	} cases[] = {
		{ offs[2] + 10, 0x01, 0, 9000, 2000 },	/* length in file */
		{ offs[2] + 10, 0x80, 0, 9000, 2000 },	/* length past end */
		{ offs[2] + 8, 0x01, 0, 9000, 2000 },
		{ offs[2] + 9, 0x01, 0, 9000, 2000 },
		{ len + 2, 0x01, 1, 20000, 10000 },	/* second magic */
		{ 100, 0x01, 0, 10000, 0 },		/* the header */
		{ len + 100, 0x01, 1, 20000, 10000 },	/* second header */
		{ endoff + 20, 0x01, 0, 10000, 10000 },	/* end marker */
		{ endoff + 20, 0x01, 1, 20000, 10000 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = cases[i].twice ? 2 * len : len;
		memcpy(bb, b, len);
		memcpy(bb + len, b, len);
		bb[cases[i].at] ^= (char)cases[i].x;
		for (int fifo = 0; fifo < 2; fifo++) {
			for (unsigned t = 1; t <= 3; t += 2) {
				int errs;
				char msg[256] = "";
				size_t got = salvage_read(bb, n, fifo, t, 1,
							  &errs, msg,
							  sizeof(msg));
				cr_assert_eq(got, cases[i].want,
					     "case %zu fifo %d: %zu (%s)", i,
					     fifo, got, msg);
				cr_assert_eq(errs, 1, "case %zu fifo %d: %d "
					     "errors, first %s", i, fifo,
					     errs, msg);
				got = salvage_read(bb, n, fifo, t, 0, &errs,
						   msg, sizeof(msg));
				cr_assert_eq(got, cases[i].plain,
					     "case %zu fifo %d: %zu", i, fifo,
					     got);
				cr_assert_eq(errs, 1);
			}
		}
	}
	free(bb);
	free(b);
}

/* Damage messages number blocks from 0 and name what was cut. */
Test(format, truncation_messages_name_the_place)
{
	size_t len, offs[64];
	char *b = ten_blocks(6, &len, offs);
	size_t endoff = offs[9] + CHUNK_HDR + get64((uint8_t *)b + offs[9] +
						    8) + CHUNK_TRL;
	char want[3][160];
	snprintf(want[0], sizeof(want[0]), "truncated after block 0 at "
		 "offset 0x%zx: no end marker", offs[1]);
	snprintf(want[1], sizeof(want[1]), "truncated before block 0 at "
		 "offset 0x%zx: no end marker", offs[0]);
	snprintf(want[2], sizeof(want[2]), "truncated in the end marker at "
		 "offset 0x%zx: the input ends inside it, after %zu bytes "
		 "(0x%zx)", endoff, endoff + 8, endoff + 8);
	size_t cut[] = { offs[1], offs[0], endoff + 8 };
	size_t samples[] = { 1000, 0, 10000 };
	for (int i = 0; i < 3; i++) {
		for (int fifo = 0; fifo < 2; fifo++) {
			int errs;
			char msg[256] = "";
			size_t got = salvage_read(b, cut[i], fifo, 1, 0,
						  &errs, msg, sizeof(msg));
			cr_assert_eq(got, samples[i]);
			cr_assert_eq(errs, 1);
			cr_assert_str_eq(msg, want[i]);
		}
	}
	free(b);
}

/*
 * A segment cut without its end marker, then another segment (a killed
 * capture, then cat): the magic where a chunk header belongs ends the cut
 * segment, reported as truncated, and the next one is read, with salvage
 * or without, in a file and in a stream.
 */
Test(format, cut_segment_then_next_segment)
{
	size_t len, offs[64];
	char *b = ten_blocks(7, &len, offs);
	size_t endoff = offs[9] + CHUNK_HDR + get64((uint8_t *)b + offs[9] +
						    8) + CHUNK_TRL;
	char *bb = malloc(endoff + len);
	memcpy(bb, b, endoff);
	memcpy(bb + endoff, b, len);
	char want[128];
	snprintf(want, sizeof(want), "truncated after block 9 at offset "
		 "0x%zx: no end marker", endoff);
	for (int salvage = 0; salvage < 2; salvage++) {
		for (int fifo = 0; fifo < 2; fifo++) {
			for (unsigned t = 1; t <= 3; t += 2) {
				int errs;
				char msg[256] = "";
				size_t got = salvage_read(bb, endoff + len,
							  fifo, t, salvage,
							  &errs, msg,
							  sizeof(msg));
				cr_assert_eq(got, 20000, "salvage %d fifo %d "
					     "threads %u: %zu (%s)", salvage,
					     fifo, t, got, msg);
				cr_assert_eq(errs, 1);
				cr_assert_str_eq(msg, want);
			}
		}
	}
	free(bb);
	free(b);
}

/*
 * A HEAD whose checksum matches but whose content is bad (malformed, or a
 * second HEAD) has a sound length: salvage reads the segment's blocks on
 * (with empty metadata), where a plain read stops at it.
 */
Test(format, salvage_reads_past_a_bad_header)
{
	size_t len, offs[64];
	char *b = ten_blocks(8, &len, offs);
	uint8_t *h = (uint8_t *)b + FMT_MAGIC_LEN;
	cr_assert_eq(get32(h), TAG_HEAD);
	size_t hlen = CHUNK_HDR + get64(h + 8) + CHUNK_TRL;
	/* ncols far past the payload: malformed */
	char *mal = malloc(len);
	memcpy(mal, b, len);
	uint8_t *m = (uint8_t *)mal + FMT_MAGIC_LEN;
	put32(m + CHUNK_HDR + 24, 0xffffffffu);
	put64(m + hlen - CHUNK_TRL, fmt_checksum(TAG_HEAD, m + CHUNK_HDR,
						 hlen - CHUNK_HDR - CHUNK_TRL));
	/* the last value (host "a") runs past the payload, its key read */
	char *mal2 = malloc(len);
	memcpy(mal2, b, len);
	m = (uint8_t *)mal2 + FMT_MAGIC_LEN;
	cr_assert_eq(get32(m + hlen - CHUNK_TRL - 5), 1);
	put32(m + hlen - CHUNK_TRL - 5, 2);
	put64(m + hlen - CHUNK_TRL, fmt_checksum(TAG_HEAD, m + CHUNK_HDR,
						 hlen - CHUNK_HDR - CHUNK_TRL));
	/* a copy of the HEAD after block 4 */
	char *two = malloc(len + hlen);
	memcpy(two, b, offs[5]);
	memcpy(two + offs[5], h, hlen);
	memcpy(two + offs[5] + hlen, b + offs[5], len - offs[5]);
	struct {
		const char *b;
		size_t len, want, plain;
	} cases[] = {
		{ mal, len, 10000, 0 },
		{ mal2, len, 10000, 0 },
		{ two, len + hlen, 10000, 5000 },
	};
	for (size_t i = 0; i < 3; i++) {
		for (int fifo = 0; fifo < 2; fifo++) {
			int errs;
			char msg[256] = "";
			size_t got = salvage_read(cases[i].b, cases[i].len,
						  fifo, 3, 1, &errs, msg,
						  sizeof(msg));
			cr_assert_eq(got, cases[i].want, "case %zu fifo %d: "
				     "%zu (%s)", i, fifo, got, msg);
			cr_assert_eq(errs, 1, "case %zu: %d errors", i, errs);
			got = salvage_read(cases[i].b, cases[i].len, fifo, 1,
					   0, &errs, msg, sizeof(msg));
			cr_assert_eq(got, cases[i].plain);
			cr_assert_eq(errs, 1);
		}
	}
	free(two);
	free(mal2);
	free(mal);
	free(b);
}

/*
 * Metadata keeps keys in insertion order, the last duplicate's value at
 * the first one's place, and setting N keys is not quadratic: 200,000
 * took over a minute with a scan per insert (a HEAD may hold millions).
 */
Test(format, meta_many_keys)
{
	tu_deadline(20);
	struct pebs_meta *m = pebs_meta_new();
	char k[32], v[32];
	const size_t n = 200000;
	for (size_t i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "k%zu", i);
		snprintf(v, sizeof(v), "v%zu", i);
		cr_assert_eq(pebs_meta_set(m, k, v), 0);
	}
	cr_assert_eq(pebs_meta_set(m, "k7", "again"), 0);
	cr_assert_eq(pebs_meta_count(m), n);
	cr_assert_str_eq(pebs_meta_get(m, "k7"), "again");
	cr_assert_str_eq(pebs_meta_get(m, "k199999"), "v199999");
	cr_assert_null(pebs_meta_get(m, "k200000"));
	for (size_t i = 0; i < n; i += 997) {
		const char *key, *val;
		pebs_meta_entry(m, i, &key, &val);
		snprintf(k, sizeof(k), "k%zu", i);
		cr_assert_str_eq(key, k);
	}
	struct pebs_meta *c = pebs_meta_new();
	cr_assert_eq(pebs_meta_copy(c, m), 0);
	cr_assert_eq(pebs_meta_count(c), n);
	cr_assert_str_eq(pebs_meta_get(c, "k7"), "again");
	pebs_meta_free(c);
	pebs_meta_free(m);
	struct pebs_meta *e = pebs_meta_new();
	cr_assert_null(pebs_meta_get(e, "x"));
	pebs_meta_free(e);
}

/*
 * A u32 column whose directory min, max or base needs more than 32 bits
 * is damage, found from the directory: decoding, block info (skipping
 * on min/max) and key lookups then agree, whatever columns are read.
 */
Test(format, u32_column_above_32_bits_is_damage)
{
	struct pebs_batch *b = packing_batch(333);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	void *chunk;
	size_t len, olen;
	char err[128];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *o = strip_colsums(chunk, len, &olen);
	size_t cpu = col_dir_at(o, PEBS_COL_CPU);
	size_t tid = col_dir_at(o, PEBS_COL_TID);
	cr_assert(cpu && tid);
	struct {
		size_t at, field;	/* min 8, max 16, base 24 */
	} cases[] = {
		{ cpu, 8 }, { tid, 16 }, { tid, 24 },
	};
	for (size_t i = 0; i < 3; i++) {
		uint8_t *f = o + cases[i].at + cases[i].field;
		uint64_t was = get64(f), max = get64(o + cases[i].at + 16);
		put64(f, was + (1ull << 32));
		if (cases[i].field == 8)	/* min <= max still */
			put64(o + cases[i].at + 16, max + (1ull << 32));
		reseal(o, olen);
		cr_assert_eq(decode_cols(o, olen, 1ull << PEBS_COL_TIME, d,
					 err, sizeof(err)), -PEBS_E_CORRUPT,
			     "case %zu", i);
		cr_assert(strstr(err, "above 32 bits"), "%s", err);
		struct pebs_block_info bi;
		cr_assert_lt(pebs_block_info(o, olen, 0, &bi, err,
					     sizeof(err)), 0);
		put64(f, was);
		put64(o + cases[i].at + 16, max);
	}
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)), 0, "%s",
		     err);
	free(o);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
}

/*
 * A segment refused for its major version or an unknown required feature
 * is reported once and stepped over (its chunks are length-framed): the
 * segment after it is read, with salvage or without, file or stream.
 */
Test(format, refused_segment_then_next_segment)
{
	size_t len, offs[64];
	char *b = ten_blocks(9, &len, offs);
	char *bb = malloc(2 * len);
	const char *want[2] = { "format version 2 (this reader knows 1)",
				"required features 0x8000000000000000 "
				"unknown to this reader" };
	for (int v = 0; v < 2; v++) {
		memcpy(bb, b, len);
		memcpy(bb + len, b, len);
		uint8_t *h = (uint8_t *)bb + FMT_MAGIC_LEN;
		size_t hl = get64(h + 8);
		if (v == 0)
			put16(h + CHUNK_HDR, 2);
		else
			put64(h + CHUNK_HDR + 8, get64(h + CHUNK_HDR + 8) |
			      1ull << 63);
		put64(h + CHUNK_HDR + hl, fmt_checksum(TAG_HEAD,
						       h + CHUNK_HDR, hl));
		for (int salvage = 0; salvage < 2; salvage++) {
			for (int fifo = 0; fifo < 2; fifo++) {
				int errs;
				char msg[256] = "";
				size_t got = salvage_read(bb, 2 * len, fifo,
							  3, salvage, &errs,
							  msg, sizeof(msg));
				cr_assert_eq(got, 10000, "v %d salvage %d "
					     "fifo %d: %zu (%s)", v, salvage,
					     fifo, got, msg);
				cr_assert_eq(errs, 1);
				cr_assert_str_eq(msg, want[v]);
			}
		}
	}
	free(bb);
	free(b);
}

/*
 * Builds at @d the chunk @tag (@flags) around the @n bytes at @payload,
 * its checksum right; returns its length.
 */
static size_t make_chunk(uint8_t *d, uint32_t tag, uint32_t flags,
			 const void *payload, size_t n)
{
	put32(d, tag);
	put32(d + 4, flags);
	put64(d + 8, n);
	memcpy(d + CHUNK_HDR, payload, n);
	put64(d + CHUNK_HDR + n, fmt_checksum(tag, d + CHUNK_HDR, n));
	return CHUNK_HDR + n + CHUNK_TRL;
}

/*
 * An unknown critical chunk whose checksum matches is named as such, and
 * salvage steps over all of it: a block inside its payload is not read.
 */
Test(format, unknown_critical_chunk_is_skipped_whole)
{
	size_t len, offs[64];
	char *b = ten_blocks(10, &len, offs);
	size_t blen = offs[3] - offs[2];
	char *bb = malloc(len + blen + CHUNK_HDR + CHUNK_TRL);
	/* a tag with bytes to escape, and one of four printable bytes
	 * (its name was once left unterminated) */
	for (int t = 0; t < 2; t++) {
		memcpy(bb, b, offs[5]);
		uint32_t tag = t ? FMT_TAG('Q', 'R', 'S', 'T') :
				   FMT_TAG('Z', 'B', 0x01, '\'');
		size_t k = make_chunk((uint8_t *)bb + offs[5], tag,
				      CHUNK_CRITICAL, b + offs[2], blen);
		memcpy(bb + offs[5] + k, b + offs[5], len - offs[5]);
		char want[128];
		snprintf(want, sizeof(want), "unknown critical chunk '%s' at "
			 "offset 0x%zx", t ? "QRST" : "ZB\\x01\\x27",
			 offs[5]);
		for (int salvage = 0; salvage < 2; salvage++) {
			for (int fifo = 0; fifo < 2; fifo++) {
				int errs;
				char msg[256] = "";
				size_t got = salvage_read(bb, len + k, fifo, 3,
							  salvage, &errs, msg,
							  sizeof(msg));
				cr_assert_eq(got, salvage ? 10000 : 5000,
					     "salvage %d fifo %d: %zu (%s)",
					     salvage, fifo, got, msg);
				cr_assert_eq(errs, 1, "%d errors", errs);
				cr_assert_str_eq(msg, want);
			}
		}
	}
	free(bb);
	free(b);
}

/*
 * Reads @b (@len bytes) as a file or a stream; returns the samples, and
 * every error message, one a line, in @msgs.
 */
static size_t read_msgs(const char *b, size_t len, int fifo, int salvage,
			char *msgs, size_t cap)
{
	char *p = fifo ? NULL : dump(b, len);
	pid_t child = -1;
	if (fifo) {
		p = strdup(tmpname());
		unlink(p);
		cr_assert_eq(mkfifo(p, 0600), 0);
		child = fork();
		cr_assert(child >= 0);
		if (child == 0) {
			FILE *fp = fopen(p, "wb");
			fwrite(b, 1, len, fp);
			_exit(fclose(fp) != 0);
		}
	}
	const char *paths[] = { p };
	struct pebs_reader_opts o = { .threads = 3, .salvage = salvage };
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
	struct pebs_batch *bt;
	size_t n = 0, at = 0;
	int rc;
	msgs[0] = 0;
	while ((rc = pebs_reader_next(r, &bt)) != 0) {
		if (rc > 0)
			n += bt->n;
		else if (at < cap)
			at += (size_t)snprintf(msgs + at, cap - at, "%s\n",
					       pebs_reader_errmsg(r));
	}
	pebs_reader_close(r);
	if (fifo) {
		int st;
		waitpid(child, &st, 0);
	}
	unlink(p);
	free(p);
	return n;
}

/* Offset of the END chunk of ten_blocks() output. */
static size_t end_at(const char *b, const size_t *offs)
{
	size_t e = offs[9] + CHUNK_HDR + get64((const uint8_t *)b + offs[9] +
					       8) + CHUNK_TRL;
	cr_assert_eq(get32((const uint8_t *)b + e), TAG_END);
	return e;
}

/* Sets the END field @field (0 samples, 8 blocks, 16 lost) at @e. */
static void set_end(char *b, size_t e, size_t field, uint64_t v)
{
	uint8_t *c = (uint8_t *)b + e;
	put64(c + CHUNK_HDR + field, v);
	put64(c + CHUNK_HDR + 24, fmt_checksum(TAG_END, c + CHUNK_HDR, 24));
}

/*
 * An end marker whose counts do not match is damage, but the segment ends
 * there and every block of it was sound: the next segment is read, with
 * or without salvage (format section 7).
 */
Test(format, end_mismatch_then_next_segment)
{
	size_t len, offs[64];
	char *b = ten_blocks(12, &len, offs);
	size_t e = end_at(b, offs);
	char *bb = malloc(2 * len);
	memcpy(bb, b, len);
	memcpy(bb + len, b, len);
	set_end(bb, e, 8, 11);
	const char *want = "segment 1: end marker counts 10000 samples in 11 "
			   "blocks, read 10000 in 10\n";
	for (int salvage = 0; salvage < 2; salvage++)
		for (int fifo = 0; fifo < 2; fifo++) {
			char msgs[1024];
			size_t got = read_msgs(bb, 2 * len, fifo, salvage,
					       msgs, sizeof(msgs));
			cr_assert_eq(got, 20000, "salvage %d fifo %d: %zu",
				     salvage, fifo, got);
			cr_assert_str_eq(msgs, want);
		}
	free(bb);
	free(b);
}

/*
 * An end marker's counts are compared per segment: damage skipped in an
 * earlier segment does not hide a mismatch in a later, intact one.
 */
Test(format, end_mismatch_after_damage_elsewhere)
{
	size_t len, offs[64];
	char *b = ten_blocks(11, &len, offs);
	size_t e = end_at(b, offs);
	char *bb = malloc(2 * len);
	memcpy(bb, b, len);
	memcpy(bb + len, b, len);
	bb[offs[2] + 10] ^= 0x01;	/* block 2's length: resync */
	set_end(bb + len, e, 0, 10001);
	char want[512];
	snprintf(want, sizeof(want), "block 2 at offset 0x%zx: checksum "
		 "mismatch\nsegment 2: end marker counts 10001 samples in 10 "
		 "blocks, read 10000 in 10\n", offs[2]);
	for (int fifo = 0; fifo < 2; fifo++) {
		char msgs[1024];
		size_t got = read_msgs(bb, 2 * len, fifo, 1, msgs,
				       sizeof(msgs));
		cr_assert_eq(got, 19000, "fifo %d: %zu", fifo, got);
		cr_assert_str_eq(msgs, want);
	}
	free(bb);
	free(b);
}

/*
 * END's lost total is compared with the segment's LOST chunks, and a
 * LOST chunk of another size than 24 bytes is reported (its length is
 * sound, so nothing else is lost, with salvage or without).
 */
Test(format, end_lost_total_and_lost_chunk_size)
{
	size_t len, offs[64];
	char *b = ten_blocks(12, &len, offs);
	size_t e = end_at(b, offs);
	uint8_t lost[24] = { 0 };
	put64(lost + 16, 5);
	char *bb = malloc(len + 2 * (CHUNK_HDR + 24 + CHUNK_TRL));
	struct {
		size_t lostlen;	/* a LOST chunk after block 4, if not 0 */
		uint64_t endlost;
		const char *want;
	} cases[] = {
		{ 0, 0, "" },
		{ 0, 7, "segment 1: end marker counts 7 lost samples, its "
			"lost records 0\n" },
		{ 24, 5, "" },
		{ 24, 6, "segment 1: end marker counts 6 lost samples, its "
			 "lost records 5\n" },
		{ 8, 0, NULL },	/* the LOST chunk's size, below */
		{ 8, 9, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t k = 0;
		memcpy(bb, b, offs[5]);
		if (cases[i].lostlen)
			k = make_chunk((uint8_t *)bb + offs[5], TAG_LOST, 0,
				       lost, cases[i].lostlen);
		memcpy(bb + offs[5] + k, b + offs[5], len - offs[5]);
		set_end(bb, e + k, 16, cases[i].endlost);
		char want[256];
		if (cases[i].want)
			snprintf(want, sizeof(want), "%s", cases[i].want);
		else
			snprintf(want, sizeof(want), "segment 1: lost record "
				 "at offset 0x%zx: 8 bytes, not 24\n",
				 offs[5]);
		for (int salvage = 0; salvage < 2; salvage++) {
			for (int fifo = 0; fifo < 2; fifo++) {
				char msgs[1024];
				size_t got = read_msgs(bb, len + k, fifo,
						       salvage, msgs,
						       sizeof(msgs));
				cr_assert_eq(got, 10000, "case %zu: %zu", i,
					     got);
				cr_assert_str_eq(msgs, want, "case %zu", i);
			}
		}
	}
	free(bb);
	free(b);
}

/*
 * A block with a column checksum table whose chunk checksum is wrong
 * (damage no column checksum covers) decodes.  Checking every block whole
 * (verify_all) reports it; with raw_chunks the reader keeps the samples
 * and pebs_writer_copy_block() refuses to copy that chunk as it is, so the
 * damage does not spread into a new file.  From a file or a stream.
 */
Test(format, verify_all_and_raw_copies_check_the_chunk_checksum)
{
	size_t len, offs[64];
	char *b = ten_blocks(13, &len, offs);
	cr_assert(get32((uint8_t *)b + offs[3] + CHUNK_HDR + 12) &
		  BLK_F_COLSUMS);
	b[offs[4] - 3] ^= 0x10;	/* block 3's chunk checksum */
	char *q = dump(b, len);
	const char *paths[] = { q };
	char want[128];
	snprintf(want, sizeof(want), "block 3 at offset 0x%zx: checksum "
		 "mismatch", offs[3]);
	for (int mode = 0; mode < 3; mode++) {
		for (int fifo = 0; fifo < 2; fifo++) {
			struct pebs_reader_opts o = {
				.threads = 2, .salvage = 1,
				.verify_all = mode == 1,
				.raw_chunks = mode == 2,
				.cols = 1ull << PEBS_COL_TIME,
			};
			struct pebs_reader *r;
			int in = -1, keep = dup(STDIN_FILENO);
			if (fifo) {	/* a stream: stdin, not mapped */
				int pfd[2];
				cr_assert_eq(pipe(pfd), 0);
				if (fork() == 0) {
					close(pfd[0]);
					ssize_t w = write(pfd[1], b, len);
					_exit(w != (ssize_t)len);
				}
				close(pfd[1]);
				in = pfd[0];
				dup2(in, STDIN_FILENO);
			}
			const char *stdin_path[] = { "-" };
			cr_assert_eq(pebs_reader_open(&r, fifo ? stdin_path :
						      paths, 1, &o), 0);
			struct pebs_batch *bt;
			size_t n = 0, copied = 0, refused = 0;
			int rc, errs = 0;
			FILE *out = fopen("/dev/null", "w");
			struct pebs_writer *w;
			cr_assert_eq(pebs_writer_open(&w, out, NULL, NULL), 0);
			while ((rc = pebs_reader_next(r, &bt)) != 0) {
				if (rc < 0) {
					errs++;
					cr_assert_str_eq(pebs_reader_errmsg(r),
							 want);
					continue;
				}
				n += bt->n;
				size_t rl;
				const void *raw = pebs_reader_raw(r, &rl);
				if (!raw)
					continue;
				rc = pebs_writer_copy_block(w, raw, rl);
				if (rc == -PEBS_E_CHECKSUM) {
					refused++;
					cr_assert_eq(bt->block_index, 3);
				} else {
					cr_assert_eq(rc, 0);
					copied++;
				}
			}
			/* a refused copy leaves the writer usable */
			cr_assert_eq(pebs_writer_close(w), 0);
			fclose(out);
			pebs_reader_close(r);
			if (fifo) {
				dup2(keep, STDIN_FILENO);
				close(in);
				wait(NULL);
			}
			close(keep);
			/* only the whole-file check (--info) reads the whole
			 * chunk; a raw copy is checked when it is made, so the
			 * block's samples (their columns sound) are kept */
			cr_assert_eq(n, mode == 1 ? 9000 : 10000, "mode %d",
				     mode);
			cr_assert_eq(errs, mode == 1 ? 1 : 0, "mode %d", mode);
			cr_assert_eq(refused, mode == 2 ? 1 : 0, "mode %d", mode);
			cr_assert_eq(copied, mode == 2 ? 9 : 0, "mode %d", mode);
		}
	}
	unlink(q);
	free(q);
	free(b);
}

/*
 * Salvage of blocks without a column checksum table (minor 0), whose
 * length nothing but the chunk checksum vouches for: a block whose
 * length was damaged (still inside the input) costs that block only, not
 * the intact one its length runs into, from a file or a stream.
 */
Test(format, salvage_rescans_after_a_tableless_block_with_a_bad_length)
{
	size_t len, offs[64];
	char *b = ten_blocks(14, &len, offs);
	size_t e = end_at(b, offs);
	char *v = malloc(len);
	size_t at = offs[0], noffs[10];
	memcpy(v, b, at);
	for (int i = 0; i < 10; i++) {
		size_t k, cl = (i < 9 ? offs[i + 1] : e) - offs[i];
		uint8_t *c = strip_colsums((uint8_t *)b + offs[i], cl, &k);
		noffs[i] = at;
		memcpy(v + at, c, k);
		at += k;
		free(c);
	}
	memcpy(v + at, b + e, CHUNK_HDR + 24 + CHUNK_TRL);	/* END */
	at += CHUNK_HDR + 24 + CHUNK_TRL;
	put64((uint8_t *)v + noffs[2] + 8,
	      get64((uint8_t *)v + noffs[2] + 8) + 48);
	char want[128];
	snprintf(want, sizeof(want), "block 2 at offset 0x%zx: checksum "
		 "mismatch", noffs[2]);
	for (int fifo = 0; fifo < 2; fifo++) {
		for (unsigned t = 1; t <= 3; t += 2) {
			int errs;
			char msg[256] = "";
			size_t got = salvage_read(v, at, fifo, t, 1, &errs,
						  msg, sizeof(msg));
			cr_assert_eq(got, 9000, "fifo %d threads %u: %zu (%s)",
				     fifo, t, got, msg);
			cr_assert_eq(errs, 1, "%d errors", errs);
			cr_assert_str_eq(msg, want);
			got = salvage_read(v, at, fifo, t, 0, &errs, msg,
					   sizeof(msg));
			cr_assert_eq(got, 2000);
			cr_assert_eq(errs, 1);
		}
	}
	free(v);
	free(b);
}

/*
 * Salvage's scan for the next chunk is linear: a run of fake chunk
 * headers, each claiming a long payload that fits in the input, cost a
 * hash of that payload per byte scanned (minutes for a few MiB).  The
 * blocks after the run are still found, from a file or a stream.
 */
Test(format, salvage_resync_is_not_quadratic)
{
	tu_deadline(15);
	size_t len, offs[64];
	char *b = ten_blocks(15, &len, offs);
	const size_t run = 2u << 20;	/* bytes of fake headers */
	const uint32_t tags[] = { TAG_HEAD, TAG_BLCK, TAG_END };
	char *bb = malloc(len + run);
	for (int t = 0; t < 3; t++) {
		memcpy(bb, b, offs[5]);
		for (size_t i = 0; i < run; i += CHUNK_HDR)
			fmt_chunk_hdr((uint8_t *)bb + offs[5] + i, tags[t],
				      CHUNK_CRITICAL, run / 2);
		memcpy(bb + offs[5] + run, b + offs[5], len - offs[5]);
		for (int fifo = 0; fifo < 2; fifo++) {
			int errs;
			char msg[256] = "";
			size_t got = salvage_read(bb, len + run, fifo, 2, 1,
						  &errs, msg, sizeof(msg));
			cr_assert_eq(got, 10000, "tag %d fifo %d: %zu (%s)",
				     t, fifo, got, msg);
			cr_assert_eq(errs, 1, "%d errors, first %s", errs,
				     msg);
		}
	}
	free(bb);
	free(b);
}

/*
 * The trailing chunks follow section 2's grammar, END [INDX TAIL]: a TAIL
 * without INDX, a second INDX, an INDX before END are reported, and, as
 * their lengths are sound, no sample is lost, with salvage or without.
 */
Test(format, trailing_chunks_out_of_order_are_reported)
{
	size_t len, offs[64];
	char *b = ten_blocks(16, &len, offs);
	size_t e = end_at(b, offs), ie = e + CHUNK_HDR + 24 + CHUNK_TRL;
	cr_assert_eq(get32((uint8_t *)b + ie), TAG_INDX);
	size_t il = CHUNK_HDR + get64((uint8_t *)b + ie + 8) + CHUNK_TRL;
	size_t te = ie + il, tl = len - te;
	cr_assert_eq(get32((uint8_t *)b + te), TAG_TAIL);
	char *bb = malloc(len + il);
	char want[256];
	for (int c = 0; c < 4; c++) {
		size_t n = 0;
		want[0] = 0;
		switch (c) {
		case 0:	/* as written */
			memcpy(bb, b, n = len);
			break;
		case 1:	/* TAIL without INDX */
			memcpy(bb, b, n = ie);
			memcpy(bb + n, b + te, tl);
			n += tl;
			snprintf(want, sizeof(want), "segment 1: TAIL chunk at "
				 "offset 0x%zx without an INDX chunk\n", ie);
			break;
		case 2:	/* INDX twice */
			memcpy(bb, b, n = te);
			memcpy(bb + n, b + ie, il);
			memcpy(bb + n + il, b + te, tl);
			n += il + tl;
			snprintf(want, sizeof(want), "segment 1: second INDX "
				 "chunk at offset 0x%zx\n", te);
			break;
		case 3:	/* INDX inside the segment, after block 4 */
			memcpy(bb, b, n = offs[5]);
			memcpy(bb + n, b + ie, il);
			memcpy(bb + n + il, b + offs[5], len - offs[5]);
			n = len + il;
			snprintf(want, sizeof(want), "segment 1: INDX chunk at "
				 "offset 0x%zx before the end marker\n",
				 offs[5]);
			break;
		}
		for (int salvage = 0; salvage < 2; salvage++) {
			for (int fifo = 0; fifo < 2; fifo++) {
				char msgs[1024];
				size_t got = read_msgs(bb, n, fifo, salvage,
						       msgs, sizeof(msgs));
				cr_assert_eq(got, 10000, "case %d: %zu", c,
					     got);
				cr_assert_str_eq(msgs, want, "case %d", c);
			}
		}
	}
	free(bb);
	free(b);
}

/*
 * Every value of a decoded column lies within its directory's minimum and
 * maximum, which readers skip and count whole blocks from: a block whose
 * directory says otherwise is damaged, for each encoding and both kernel
 * sets, and the reference decoder agrees.  The other columns still decode
 * (a reader checks what it decodes).
 */
Test(format, value_outside_directory_range_is_damage)
{
	struct pebs_gen_opts go = { .seed = 3, .threads = 4 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *bs[3];
	bs[0] = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_gen_batch(g, bs[0], 20000), 0);
	bs[1] = random_batch(5000);
	bs[2] = packing_batch(4099);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	unsigned seen = 0;	/* encodings met, by bit */
	char err[160];
	for (int k = 0; k < 3; k++) {
		void *chunk;
		size_t len, olen;
		cr_assert_eq(pebs_block_encode(bs[k], 1, &chunk, &len), 0);
		uint8_t *o = strip_colsums(chunk, len, &olen);
		for (unsigned col = 0; col < PEBS_COL_COUNT; col++) {
			size_t at = col_dir_at(o, col);
			unsigned enc = at ? ENC_CODE(o[at + 2]) : 0;
			if (!at || enc == ENC_CONST)
				continue;
			seen |= 1u << enc;
			uint64_t mn = get64(o + at + 8), mx = get64(o + at + 16);
			for (int side = 0; side < 2; side++) {
				/* max one lower, or min one higher */
				put64(o + at + 16, side ? mx : mx - 1);
				put64(o + at + 8, side ? mn + 1 : mn);
				reseal(o, olen);
				for (int sc = 0; sc < 2; sc++) {
					pebs_codec_select(sc);
					cr_assert_eq(decode_cols(o, olen,
								 1ull << col,
								 d, err,
								 sizeof(err)),
						     -PEBS_E_CORRUPT,
						     "batch %d column %u enc %u "
						     "side %d", k, col, enc,
						     side);
					cr_assert(strstr(err, "outside its "
							 "minimum and maximum"),
						  "%s", err);
				}
				pebs_codec_select(0);
				for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
					memset(ref[c], 0, PEBS_BATCH_MAX * 8);
				cr_assert_eq(ref_decode_block(o, olen, ref), -1,
					     "reference: column %u", col);
				/* A column that is not this one, nor keyed on
				 * it, still reads. */
				unsigned other = col == PEBS_COL_LAT ?
						 PEBS_COL_TIME : PEBS_COL_LAT;
				if (col_dir_at(o, other))
					cr_assert_eq(decode_cols(o, olen,
								 1ull << other,
								 d, err,
								 sizeof(err)),
						     0, "%s", err);
			}
			put64(o + at + 8, mn);
			put64(o + at + 16, mx);
		}
		reseal(o, olen);
		cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)), 0,
			     "%s", err);
		free(o);
		free(chunk);
	}
	/* FOR, DELTA, DICT and KEYED were all met */
	cr_assert_eq(seen, 1u << ENC_FOR | 1u << ENC_DELTA | 1u << ENC_DICT |
		     1u << ENC_KEYED, "encodings seen: %#x", seen);
	for (int k = 0; k < 3; k++)
		pebs_batch_free(bs[k]);
	pebs_batch_free(d);
	pebs_gen_free(g);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/*
 * KEYED directory errors name what is wrong: the KEYED column whose key
 * column is KEYED itself (not the key column), a width that is not 0 (not
 * "bad size"), and a raw size that cannot be.
 */
Test(format, keyed_directory_messages)
{
	struct pebs_gen_opts go = { .seed = 3, .threads = 4 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_gen_batch(g, b, 20000), 0);
	void *chunk;
	size_t len, olen;
	char err[160];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *o = strip_colsums(chunk, len, &olen);
	size_t cpu = col_dir_at(o, PEBS_COL_CPU);
	size_t addr = col_dir_at(o, PEBS_COL_ADDR);
	cr_assert(cpu && addr);
	cr_assert_eq(ENC_CODE(o[cpu + 2]), ENC_KEYED);
	cr_assert_eq(ENC_CODE(o[addr + 2]), ENC_KEYED);

	uint32_t aux = get32(o + addr + 4);
	put32(o + addr + 4, PEBS_COL_CPU);	/* addr keyed on cpu */
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 1ull << PEBS_COL_ADDR, d, err,
				 sizeof(err)), -PEBS_E_CORRUPT);
	cr_assert_str_eq(err, "column 6: key column 1 is keyed itself");
	put32(o + addr + 4, aux);

	o[cpu + 3] = 1;				/* KEYED of width 1 */
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 1ull << PEBS_COL_TIME, d, err,
				 sizeof(err)), -PEBS_E_CORRUPT);
	cr_assert_str_eq(err, "column 1: bad width 1");
	o[cpu + 3] = 0;

	/*
	 * A raw size outside [n, 9n].  ~0 passed: the check compared it
	 * with a want of ~0 meant to match nothing, and the decoder computed
	 * a pointer ~0 bytes on (libFuzzer, corpus/block/keyed-raw-len-max).
	 */
	uint64_t raw = get64(o + cpu + 40);
	const uint64_t bad[] = { ~0ull, 20000 - 1, 9 * 20000 + 1 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put64(o + cpu + 40, bad[i]);
		reseal(o, olen);
		cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)),
			     -PEBS_E_CORRUPT, "raw_len %llu",
			     (unsigned long long)bad[i]);
		cr_assert_str_eq(err, "column 1: bad size");
	}
	put64(o + cpu + 40, raw);

	/* CONST has no planes either: a width there is damage too. */
	size_t k = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT && !k; c++) {
		size_t at = col_dir_at(o, c);
		if (at && ENC_CODE(o[at + 2]) == ENC_CONST)
			k = at;
	}
	cr_assert(k, "a constant column in the generator's block");
	o[k + 3] = 5;
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 1ull << PEBS_COL_TIME, d, err,
				 sizeof(err)), -PEBS_E_CORRUPT);
	cr_assert(strstr(err, "bad width 5"), "%s", err);
	o[k + 3] = 0;
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)), 0, "%s",
		     err);
	free(o);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
	pebs_gen_free(g);
}

/* The first BLCK chunk of file @path (read whole into *@buf). */
static const uint8_t *first_block(const char *path, char **buf,
				  size_t *len)
{
	size_t flen;
	*buf = slurp(path, &flen);
	cr_assert(*buf, "%s", path);
	for (size_t at = FMT_MAGIC_LEN; at + CHUNK_HDR <= flen;) {
		const uint8_t *c = (const uint8_t *)*buf + at;
		size_t l = CHUNK_HDR + get64(c + 8) + CHUNK_TRL;
		if (get32(c) == TAG_BLCK) {
			*len = l;
			return c;
		}
		at += l;
	}
	cr_assert_fail("no block in %s", path);
	return NULL;
}

/*
 * Column data is exactly one zstd frame (no skippable frame, no second
 * frame), and a CONST column has none at all: the decoder and the
 * reference decoder both refuse the crafted blocks of testdata/bad, whose
 * checksums match, while the other columns of each are sound.
 */
Test(format, column_data_is_one_frame_or_none)
{
	static const struct {
		const char *file, *msg;
	} bad[] = {
		{ "testdata/bad/block-const-with-data.pebs",
		  "column 2: constant with data" },
		{ "testdata/bad/block-two-frames.pebs",
		  "column 7: not one zstd frame" },
		{ "testdata/bad/block-skippable-frame.pebs",
		  "column 7: not one zstd frame" },
	};
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	char err[160];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *buf;
		size_t len;
		const uint8_t *c = first_block(bad[i].file, &buf, &len);
		cr_assert_eq(decode_cols(c, len, 0, d, err, sizeof(err)),
			     -PEBS_E_CORRUPT, "%s", bad[i].file);
		cr_assert_str_eq(err, bad[i].msg);
		cr_assert_eq(ref_decode_block(c, len, ref), -1, "%s",
			     bad[i].file);
		cr_assert_eq(decode_cols(c, len, 1ull << PEBS_COL_TIME, d, err,
					 sizeof(err)),
			     strstr(bad[i].msg, "constant") ?
			     -PEBS_E_CORRUPT : 0, "%s", err);
		free(buf);
	}
	pebs_batch_free(d);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/*
 * A KEYED column keyed on a column id this reader does not know (a newer
 * writer's) cannot be decoded, but the block is not damaged: only that
 * column fails, only when asked for, and not as damage; the others read.
 */
Test(format, key_column_unknown_to_the_reader)
{
	struct pebs_gen_opts go = { .seed = 3, .threads = 4 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	cr_assert_eq(pebs_gen_batch(g, b, 20000), 0);
	void *chunk;
	size_t len, olen;
	char err[160];
	cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
	uint8_t *o = strip_colsums(chunk, len, &olen);
	size_t addr = col_dir_at(o, PEBS_COL_ADDR);
	cr_assert(addr && ENC_CODE(o[addr + 2]) == ENC_KEYED);
	uint32_t aux = get32(o + addr + 4);
	/* first key column unknown, then the second */
	static const uint32_t auxes[] = { 40, PEBS_COL_IP | 41 << 8 };
	uint64_t *ref[PEBS_COL_COUNT];
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		ref[c] = calloc(PEBS_BATCH_MAX, sizeof(uint64_t));
	for (size_t i = 0; i < 2; i++) {
		put32(o + addr + 4, auxes[i]);
		reseal(o, olen);
		uint64_t others = ~(1ull << PEBS_COL_ADDR) &
				  ((1ull << PEBS_COL_COUNT) - 1);
		cr_assert_eq(decode_cols(o, olen, others, d, err, sizeof(err)),
			     0, "%s", err);
		for (size_t j = 0; j < b->n; j++)
			cr_assert_eq(d->c64[PEBS_COL_IP][j],
				     b->c64[PEBS_COL_IP][j]);
		cr_assert_eq(decode_cols(o, olen, 1ull << PEBS_COL_ADDR, d,
					 err, sizeof(err)), -PEBS_E_VERSION);
		cr_assert_str_eq(err, "column 6: key column 40 unknown to "
				 "this reader");
		cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)),
			     -PEBS_E_VERSION);
		cr_assert_eq(ref_decode_block(o, olen, ref), -1);
		/* The ranges to fetch (a block with the table): no key
		 * column's data for the unknown id, and no undefined shift. */
		uint8_t *t = malloc(len);
		memcpy(t, chunk, len);
		put32(t + col_dir_at(t, PEBS_COL_ADDR) + 4, auxes[i]);
		struct fmt_range rg[FMT_RANGES_MAX];
		cr_assert_gt(fmt_block_ranges(t, len, len,
					      1ull << PEBS_COL_ADDR, rg), 0);
		free(t);
	}
	put32(o + addr + 4, aux);
	reseal(o, olen);
	cr_assert_eq(decode_cols(o, olen, 0, d, err, sizeof(err)), 0, "%s",
		     err);
	free(o);
	free(chunk);
	pebs_batch_free(b);
	pebs_batch_free(d);
	pebs_gen_free(g);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		free(ref[c]);
}

/*
 * HEAD metadata entries (format section 4): a NUL byte in a key or a
 * value makes the HEAD malformed instead of cutting the string short
 * ("k\0hidden" would replace "k"); a repeated key keeps its first place
 * and takes the last value.
 */
Test(format, meta_entries_nul_and_repeats)
{
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(fmt_meta_set(m, "k", 1, "v2", 2), 0);
	cr_assert_eq(fmt_meta_set(m, "k\0hidden", 8, "v1", 2),
		     -PEBS_E_CORRUPT);
	cr_assert_eq(fmt_meta_set(m, "j", 1, "a\0b", 3), -PEBS_E_CORRUPT);
	cr_assert_eq(fmt_meta_set(m, "dup", 3, "first", 5), 0);
	cr_assert_eq(fmt_meta_set(m, "x", 1, "", 0), 0);
	cr_assert_eq(fmt_meta_set(m, "dup", 3, "second", 6), 0);
	cr_assert_eq(pebs_meta_count(m), 3);
	static const char *const want[3][2] = {
		{ "k", "v2" }, { "dup", "second" }, { "x", "" },
	};
	for (size_t i = 0; i < 3; i++) {
		const char *k, *v;
		pebs_meta_entry(m, i, &k, &v);
		cr_assert_str_eq(k, want[i][0]);
		cr_assert_str_eq(v, want[i][1]);
	}
	cr_assert_null(pebs_meta_get(m, "j"));
	pebs_meta_free(m);
}

/*
 * DELTA columns are range-checked from their ends when no delta is
 * negative and the sum cannot wrap, else value by value: a lie in the
 * directory is caught either way (rising, falling, and rising through
 * 2^64, which wraps), and the true directory still decodes.
 */
Test(format, delta_range_check_fast_and_slow)
{
	struct pebs_batch *d = pebs_batch_new(PEBS_BATCH_MAX);
	char err[160];
	for (int shape = 0; shape < 3; shape++) {
		struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
		size_t n = 3000;
		uint64_t t = shape == 2 ? ~0ull - 1000 * 7 : 1ull << 40;
		for (size_t i = 0; i < n; i++) {
			b->c64[PEBS_COL_TIME][i] = t;
			b->c32[PEBS_COL_LAT][i] = 1 + (uint32_t)(i % 7);
			t = shape == 1 ? t - 3 - rnd() % 5 : t + 3 + rnd() % 5;
		}
		b->n = n;
		void *chunk;
		size_t len, olen;
		cr_assert_eq(pebs_block_encode(b, 1, &chunk, &len), 0);
		uint8_t *o = strip_colsums(chunk, len, &olen);
		size_t at = col_dir_at(o, PEBS_COL_TIME);
		cr_assert(at);
		cr_assert_eq(ENC_CODE(o[at + 2]), ENC_DELTA, "shape %d", shape);
		uint64_t mn = get64(o + at + 8), mx = get64(o + at + 16);
		for (int side = 0; side < 2; side++) {
			put64(o + at + 16, side ? mx : mx - 1);
			put64(o + at + 8, side ? mn + 1 : mn);
			reseal(o, olen);
			for (int sc = 0; sc < 2; sc++) {
				pebs_codec_select(sc);
				cr_assert_eq(decode_cols(o, olen, 0, d, err,
							 sizeof(err)),
					     -PEBS_E_CORRUPT, "shape %d side %d",
					     shape, side);
			}
			pebs_codec_select(0);
		}
		put64(o + at + 8, mn);
		put64(o + at + 16, mx);
		reseal(o, olen);
		decode_both_kernels(o, olen, b, d);
		free(o);
		free(chunk);
		pebs_batch_free(b);
	}
	pebs_batch_free(d);
}

/*
 * After END a segment may hold only INDX then TAIL (format section 2):
 * any other chunk there, known or not, critical or not, well framed or
 * not, is garbage after the segment, wherever it stands (before the INDX,
 * between INDX and TAIL, after the TAIL at the end of input or before the
 * next MAGIC).  A file and a stream read it alike: the message names its
 * offset; without salvage the input ends there (the segment after it is
 * not read), with salvage reading goes on at the next MAGIC.
 */
Test(format, chunk_after_end_is_garbage)
{
	size_t len, offs[64];
	char *b = ten_blocks(13, &len, offs);
	size_t e = end_at(b, offs);
	size_t ia = e + CHUNK_HDR + 24 + CHUNK_TRL;
	cr_assert_eq(get32((const uint8_t *)b + ia), TAG_INDX);
	size_t ta = ia + CHUNK_HDR + get64((const uint8_t *)b + ia + 8) +
		    CHUNK_TRL;
	cr_assert_eq(get32((const uint8_t *)b + ta), TAG_TAIL);
	const size_t at[] = { ia, ta, len };	/* before INDX, TAIL; last */
	char *bb = malloc(2 * len + 64);
	for (int crit = 0; crit < 2; crit++)
	for (size_t pl = 0; pl < 3; pl++)
	for (int next = 0; next < 2; next++) {
		memcpy(bb, b, at[pl]);
		size_t k = make_chunk((uint8_t *)bb + at[pl],
				      FMT_TAG('X', 'T', 'R', 'A'),
				      crit ? CHUNK_CRITICAL : 0, "hello", 5);
		memcpy(bb + at[pl] + k, b + at[pl], len - at[pl]);
		size_t tot = len + k;
		if (next) {	/* and a second segment */
			memcpy(bb + tot, b, len);
			tot += len;
		}
		char want[128];
		snprintf(want, sizeof(want), "garbage after segment 1 at "
			 "offset 0x%zx\n", at[pl]);
		for (int salvage = 0; salvage < 2; salvage++)
			for (int fifo = 0; fifo < 2; fifo++) {
				char msgs[1024];
				size_t got = read_msgs(bb, tot, fifo, salvage,
						       msgs, sizeof(msgs));
				cr_expect_eq(got, next && salvage ? 20000 :
					     10000, "crit %d at %zu next %d "
					     "salvage %d fifo %d: %zu", crit,
					     pl, next, salvage, fifo, got);
				cr_expect_str_eq(msgs, want, "crit %d at %zu "
						 "next %d salvage %d fifo %d",
						 crit, pl, next, salvage,
						 fifo);
			}
	}
	free(bb);
	free(b);
}

/* A segment of @nb blocks of 100 samples, block k's times t0[k] + 0..99. */
static void write_timed_segment(FILE *fp, const uint64_t *t0, size_t nb)
{
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_writer_opts o = { .block_samples = 100 };
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, m, &o), 0);
	struct pebs_batch *b = pebs_batch_new(100);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (size_t k = 0; k < nb; k++) {
		pebs_batch_reset(b);
		for (uint64_t i = 0; i < 100; i++) {
			s.time = t0[k] + i;
			s.lat = (uint32_t)i;
			pebs_batch_push(b, &s);
		}
		cr_assert_eq(pebs_writer_add_batch(w, b), 0);
	}
	cr_assert_eq(pebs_writer_close(w), 0);
	pebs_batch_free(b);
	pebs_meta_free(m);
}

static int skip_from_9000(void *ctx, const struct pebs_block_info *bi)
{
	(void)ctx;
	return bi->max[PEBS_COL_TIME] < 9000;
}

/*
 * pebs_read_stats tmin and tmax are the least and greatest time of the
 * samples returned, wherever they are: here the greatest in the middle
 * block of the first segment, the least in the middle of the second, read
 * by one thread and by two, all columns or the time alone; blocks the
 * filter skips do not count.
 */
Test(format, reader_stats_time_range)
{
	static const uint64_t seg1[] = { 5000, 9000, 6000 };
	static const uint64_t seg2[] = { 3000, 200, 4000, 7000 };
	char *p = strdup(tmpname());
	FILE *fp = fopen(p, "wb");
	write_timed_segment(fp, seg1, 3);
	write_timed_segment(fp, seg2, 4);
	fclose(fp);
	const char *paths[] = { p };
	for (int v = 0; v < 8; v++) {
		struct pebs_reader_opts o = {
			.threads = v & 1 ? 2 : 1,
			.cols = v & 2 ? 1ull << PEBS_COL_TIME : 0,
			.filter = v & 4 ? skip_from_9000 : NULL,
		};
		struct pebs_reader *r;
		struct pebs_batch *b;
		cr_assert_eq(pebs_reader_open(&r, paths, 1, &o), 0);
		while (pebs_reader_next(r, &b) > 0)
			;
		struct pebs_read_stats st;
		pebs_reader_stats(r, &st);
		pebs_reader_close(r);
		cr_assert_eq(st.segments, 2);
		cr_assert_eq(st.blocks, v & 4 ? 6 : 7);
		cr_assert_eq(st.tmin, 200, "variant %d: tmin %llu", v,
			     (unsigned long long)st.tmin);
		cr_assert_eq(st.tmax, v & 4 ? 7099 : 9099, "variant %d: tmax "
			     "%llu", v, (unsigned long long)st.tmax);
	}
	unlink(p);
	free(p);
}

/*
 * pebs_writer_copy_block() refusing a chunk says why in
 * pebs_writer_errmsg() (it said nothing, or an older message), and tells
 * what is no block chunk at all (-PEBS_E_INVAL) from a block whose
 * checksum does not match (-PEBS_E_CHECKSUM); the writer stays usable.
 */
Test(format, copy_block_refusals_say_why)
{
	struct pebs_batch *b = random_batch(100);
	void *chunk;
	size_t len;
	cr_assert_eq(pebs_block_encode(b, 0, &chunk, &len), 0);
	uint8_t *c = malloc(len);
	cr_assert(c);
	FILE *fp = tmpfile();
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, NULL), 0);
	cr_assert_eq(pebs_writer_copy_block(w, chunk, len), 0);
	/* an older, unrelated refusal first */
	cr_assert_gt(pebs_writer_event(w, "e"), -1);
	struct pebs_sample s = { .event = 9 };
	cr_assert_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL);

	memcpy(c, chunk, len);
	c[len / 2] ^= 0x40;
	cr_expect_eq(pebs_writer_copy_block(w, c, len), -PEBS_E_CHECKSUM);
	cr_expect_str_eq(pebs_writer_errmsg(w), "block not copied: checksum "
			 "mismatch");

	cr_expect_eq(pebs_writer_copy_block(w, chunk, 10), -PEBS_E_INVAL);
	cr_expect_str_eq(pebs_writer_errmsg(w), "not a block chunk: 10 "
			 "bytes, less than a chunk's 24");
	cr_expect_eq(pebs_writer_copy_block(w, "", 0), -PEBS_E_INVAL);

	memcpy(c, chunk, len);
	memcpy(c, "LOST", 4);
	cr_expect_eq(pebs_writer_copy_block(w, c, len), -PEBS_E_INVAL);
	cr_expect_str_eq(pebs_writer_errmsg(w), "not a block chunk: its tag "
			 "is \"LOST\", not \"BLCK\"");
	memcpy(c, "\x01\xff\n", 4);
	cr_expect_eq(pebs_writer_copy_block(w, c, len), -PEBS_E_INVAL);
	cr_expect_str_eq(pebs_writer_errmsg(w), "not a block chunk: its tag "
			 "is 0x000aff01, not \"BLCK\"");

	memcpy(c, chunk, len);
	cr_expect_eq(pebs_writer_copy_block(w, c, len - 1), -PEBS_E_INVAL);
	char want[128];
	snprintf(want, sizeof(want), "not a block chunk: %zu bytes, its "
		 "length field says %zu", len - 1, len);
	cr_expect_str_eq(pebs_writer_errmsg(w), want);

	/* none of that failed the writer */
	cr_expect_eq(pebs_writer_copy_block(w, chunk, len), 0);
	cr_expect_eq(pebs_writer_close(w), 0);
	fclose(fp);
	free(c);
	free(chunk);
	pebs_batch_free(b);
}
