/*
 * format-bench - speed and size of the .pebs format on the realistic
 * generator: write (encode + compress), block decode to memory (best
 * kernels and the scalar twin, 1 and 2 threads), against a memcpy of the
 * same column bytes, and the bare CSV-formatting limit (hand-written
 * number formatting of the contract columns, no file reading at all).
 *
 *   format-bench [-n SAMPLES] [-o FILE]
 *
 * Prints one line per measurement: name, samples/s, bytes/sample, peak RSS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pebs_format.h"
#include "pebs_gen.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void report(const char *what, double n, double secs, double bytes)
{
	printf("%-34s %8.2f M samples/s  %6.2f bytes/sample  peak %ld MiB\n",
	       what, n / secs / 1e6, bytes / n, peak_kib() / 1024);
	fflush(stdout);
}

static double read_all(const char *path, unsigned threads, uint64_t cols,
		       size_t *n)
{
	struct pebs_reader *r;
	struct pebs_reader_opts o = { .threads = threads, .cols = cols };
	const char *paths[] = { path };
	if (pebs_reader_open(&r, paths, 1, &o))
		exit(3);
	struct pebs_batch *b;
	double t0 = now();
	uint64_t sink = 0;
	*n = 0;
	int rc;
	while ((rc = pebs_reader_next(r, &b)) > 0) {
		*n += b->n;
		sink += b->c32[PEBS_COL_LAT][b->n - 1];
	}
	double t = now() - t0;
	if (rc < 0) {
		fprintf(stderr, "format-bench: %s\n", pebs_reader_errmsg(r));
		exit(1);
	}
	pebs_reader_close(r);
	if (sink == 42)
		putchar(' ');
	return t;
}

static char *u64dec(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *u64hex(char *p, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;
	*p++ = '0';
	*p++ = 'x';
	do {
		tmp[n++] = hx[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* The CSV limit: the contract's numeric columns, formatted by hand. */
static double csv_limit(struct pebs_batch **bs, size_t nb, size_t *bytes)
{
	char *buf = malloc(PEBS_BATCH_MAX * 200);
	FILE *devnull = fopen("/dev/null", "w");
	double t0 = now();
	*bytes = 0;
	for (size_t k = 0; k < nb; k++) {
		struct pebs_batch *b = bs[k];
		char *p = buf;
		for (size_t i = 0; i < b->n; i++) {
			p = u64dec(p, b->c64[PEBS_COL_TIME][i]); *p++ = ',';
			p = u64dec(p, b->c32[PEBS_COL_CPU][i]); *p++ = ',';
			p = u64dec(p, b->c32[PEBS_COL_PID][i]); *p++ = ',';
			p = u64dec(p, b->c32[PEBS_COL_TID][i]); *p++ = ',';
			const char *e = pebs_batch_event(b, i);
			size_t l = strlen(e);
			memcpy(p, e, l); p += l; *p++ = ',';
			p = u64hex(p, b->c64[PEBS_COL_IP][i]); *p++ = ',';
			p = u64hex(p, b->c64[PEBS_COL_ADDR][i]); *p++ = ',';
			p = u64dec(p, b->c32[PEBS_COL_LAT][i]); *p++ = ',';
			p = u64dec(p, b->c32[PEBS_COL_INS_LAT][i]); *p++ = ',';
			p = u64hex(p, b->c64[PEBS_COL_DSRC][i]); *p++ = '\n';
		}
		fwrite(buf, 1, (size_t)(p - buf), devnull);
		*bytes += (size_t)(p - buf);
	}
	double t = now() - t0;
	fclose(devnull);
	free(buf);
	return t;
}

int main(int argc, char **argv)
{
	size_t total = 10000000;
	const char *path = "/tmp/pebs-bench.pebs";
	int c;
	while ((c = getopt(argc, argv, "n:o:")) != -1) {
		if (c == 'n')
			total = strtoull(optarg, NULL, 0);
		else if (c == 'o')
			path = optarg;
		else
			return 2;
	}
	/*
	 * 16 distinct blocks' worth of samples, cycled: blocks are compressed
	 * independently, so repeating them does not help the compressor, and
	 * the bench stays small in memory.
	 */
	size_t nb = (total + PEBS_BATCH_MAX - 1) / PEBS_BATCH_MAX;
	size_t ndistinct = nb < 16 ? nb : 16;
	struct pebs_batch **bs = calloc(nb, sizeof(*bs));
	struct pebs_gen_opts go = { .seed = 1 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_meta *m = pebs_meta_new();
	pebs_gen_meta(g, m);
	for (size_t k = 0; k < ndistinct; k++) {
		bs[k] = pebs_batch_new(PEBS_BATCH_MAX);
		pebs_gen_batch(g, bs[k], PEBS_BATCH_MAX);
	}
	for (size_t k = ndistinct; k < nb; k++)
		bs[k] = bs[k % ndistinct];
	total = nb * PEBS_BATCH_MAX;
	printf("format-bench: %zu samples of the realistic generator "
	       "(seed 1), kernels %s\n", total, pebs_codec_select(0));

	FILE *fp = fopen(path, "wb");
	struct pebs_writer *w;
	double t0 = now();
	pebs_writer_open(&w, fp, m, NULL);
	for (size_t k = 0; k < nb; k++)
		if (pebs_writer_add_batch(w, bs[k]))
			return 3;
	if (pebs_writer_finish(w))
		return 3;
	fclose(fp);
	double tw = now() - t0;
	struct pebs_write_stats st;
	pebs_writer_stats(w, &st);
	pebs_writer_close(w);
	report("write (encode+compress), 1 thread", (double)total, tw,
	       (double)st.bytes);

	/* memcpy peer: the decoded column bytes of the populated columns. */
	size_t colbytes = 8 * 5 + 4 * 6;	/* time ip addr dsrc raw_dse ... */
	char *src = malloc(PEBS_BATCH_MAX * colbytes);
	char *dst = malloc(PEBS_BATCH_MAX * colbytes);
	memset(src, 1, PEBS_BATCH_MAX * colbytes);
	t0 = now();
	for (size_t k = 0; k < nb; k++) {
		src[k % 64]++;
		memcpy(dst, src, PEBS_BATCH_MAX * colbytes);
		/* Keep the copy observable so it is not optimised away. */
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	double tm = now() - t0;
	report("memcpy of the column bytes (peer)", (double)nb * PEBS_BATCH_MAX,
	       tm, (double)colbytes * nb * PEBS_BATCH_MAX);
	free(src);
	free(dst);

	size_t n;
	for (int scalar = 0; scalar < 2; scalar++) {
		char what[64];
		const char *kn = pebs_codec_select(scalar);
		for (unsigned th = 1; th <= 2; th++) {
			double t = read_all(path, th, 0, &n);
			snprintf(what, sizeof(what), "decode all, %s, %u thr",
				 kn, th);
			report(what, (double)n, t, (double)st.bytes);
		}
	}
	pebs_codec_select(0);
	double t = read_all(path, 1, 1ull << PEBS_COL_LAT, &n);
	report("decode lat column only, 1 thread", (double)n, t,
	       (double)st.bytes);
	size_t csvb;
	t = csv_limit(bs, nb, &csvb);
	report("CSV formatting limit (no reading)", (double)total, t,
	       (double)csvb);
	for (size_t k = 0; k < ndistinct; k++)
		pebs_batch_free(bs[k]);
	free(bs);
	pebs_gen_free(g);
	pebs_meta_free(m);
	return 0;
}
