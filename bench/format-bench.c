/*
 * format-bench - speed and size of the .pebs format on the realistic
 * generator: write (encode + compress), block decode to memory (best
 * kernels and the scalar twin, 1 and 2 threads), against a memcpy of the
 * same column bytes, and the bare CSV-formatting limit (hand-written
 * number formatting of the contract columns, no file reading at all).
 *
 *   format-bench [-n SAMPLES] [-o FILE] [-m MODES]
 *
 * MODES is a list of letters (default all): w write, m memcpy, d decode all
 * columns (1 and 2 threads, best and scalar kernels), a the same with the
 * best kernels and 1 thread only, l decode lat only,
 * c CSV limit, r block encoding with a register snapshot in every sample
 * (what a capture with registers encodes); "d" and "l" read FILE as left
 * by an earlier "w".
 * Prints one line per measurement: name, samples/s by the wall clock and
 * per CPU second (user + sys of the process: the machine may be shared),
 * bytes/sample, peak RSS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the measurement in progress (set by the callers). */
static double cpu_t0;

static long peak_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void report(const char *what, double n, double secs, double bytes)
{
	double cpu = cpu_now() - cpu_t0;
	printf("%-34s %8.2f M samples/s %8.2f M/cpu-s %6.2f bytes/sample  "
	       "peak %ld MiB\n", what, n / secs / 1e6, n / cpu / 1e6,
	       bytes / n, peak_kib() / 1024);
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
	cpu_t0 = cpu_now();
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
	cpu_t0 = cpu_now();
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

/* xorshift64*: the register values' noise. */
static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ull;
}

/*
 * Adds a plausible register snapshot to every sample of @b: flags from a
 * few values, rip = ip, stack registers near a per-thread base, pointers
 * near the data address, counters, small integers, and two registers of
 * pure noise (the worst case for the compressor).
 */
static void add_regs(struct pebs_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		uint64_t tid = b->c32[PEBS_COL_TID][i];
		uint64_t ip = b->c64[PEBS_COL_IP][i];
		uint64_t addr = b->c64[PEBS_COL_ADDR][i];
		uint64_t stack = 0x7ffc00000000ull - (tid << 23);
		uint64_t *r[PEBS_REG_COUNT];
		for (unsigned k = 0; k < PEBS_REG_COUNT; k++)
			r[k] = b->c64[PEBS_COL_REG0 + k];
		r[0][i] = 0x202 | (rnd() & 0x8c1);		/* rflags */
		r[1][i] = ip;					/* rip */
		r[2][i] = addr + (rnd() & 0x3f);		/* rax */
		r[3][i] = 0x5555a0000000ull + (rnd() & 0xffffff8); /* rbx */
		r[4][i] = i * 3 + (ip & 0xff);			/* rcx */
		r[5][i] = rnd() & 0xff;				/* rdx */
		r[6][i] = addr - (rnd() & 0xfff);		/* rsi */
		r[7][i] = addr;					/* rdi */
		r[8][i] = stack - (ip & 0xfff0);		/* rbp */
		r[9][i] = stack - (ip & 0xfff0) - 0x40;		/* rsp */
		r[10][i] = rnd() & 0xffff;			/* r8 */
		r[11][i] = tid;					/* r9 */
		r[12][i] = rnd();				/* r10 */
		r[13][i] = rnd();				/* r11 */
		r[14][i] = (i >> 4) & 0x3ff;			/* r12 */
		r[15][i] = 0x5555a0000000ull + (addr & 0xfffff); /* r13 */
		r[16][i] = 0;					/* r14 */
		r[17][i] = 1 + (ip & 7);			/* r15 */
		b->c32[PEBS_COL_FLAGS][i] = 0xd;
	}
	b->dirty = ~0ull;
}

/* Block encoding of the batches with registers (the capture's path). */
static void encode_regs(struct pebs_batch **bs, size_t nd, size_t nb)
{
	size_t bytes = 0;
	for (size_t k = 0; k < nd; k++)
		add_regs(bs[k]);
	double t0 = now();
	cpu_t0 = cpu_now();
	for (size_t k = 0; k < nb; k++) {
		void *out;
		size_t len;
		if (pebs_block_encode(bs[k], 0, &out, &len))
			exit(3);
		bytes += len;
		free(out);
	}
	report("block encode, 34 columns w/ regs", (double)nb * PEBS_BATCH_MAX,
	       now() - t0, (double)bytes);
}

/* memcpy peer: the decoded column bytes of the populated columns. */
static void memcpy_peer(size_t nb)
{
	/* time ip addr dsrc raw_dse, cpu pid tid event lat ins_lat */
	size_t colbytes = 8 * 5 + 4 * 6;
	char *src = malloc(PEBS_BATCH_MAX * colbytes);
	char *dst = malloc(PEBS_BATCH_MAX * colbytes);
	memset(src, 1, PEBS_BATCH_MAX * colbytes);
	double t0 = now();
	cpu_t0 = cpu_now();
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
}

int main(int argc, char **argv)
{
	size_t total = 10000000;
	const char *path = "/tmp/pebs-bench.pebs";
	const char *modes = "wmdlcr";
	int c;
	while ((c = getopt(argc, argv, "n:o:m:")) != -1) {
		if (c == 'n')
			total = strtoull(optarg, NULL, 0);
		else if (c == 'o')
			path = optarg;
		else if (c == 'm')
			modes = optarg;
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
	/* Only writing and the CSV limit need samples in memory. */
	if (!strchr(modes, 'w') && !strchr(modes, 'c') && !strchr(modes, 'r'))
		ndistinct = 0;
	for (size_t k = 0; k < ndistinct; k++) {
		bs[k] = pebs_batch_new(PEBS_BATCH_MAX);
		pebs_gen_batch(g, bs[k], PEBS_BATCH_MAX);
	}
	for (size_t k = ndistinct; ndistinct && k < nb; k++)
		bs[k] = bs[k % ndistinct];
	total = nb * PEBS_BATCH_MAX;
	printf("format-bench: %zu samples of the realistic generator "
	       "(seed 1), kernels %s\n", total, pebs_codec_select(0));

	struct pebs_write_stats st = { .bytes = 0 };
	double t0;
	if (strchr(modes, 'w')) {
		FILE *fp = fopen(path, "wb");
		struct pebs_writer *w;
		if (!fp)
			return 3;
		t0 = now();
		cpu_t0 = cpu_now();
		pebs_writer_open(&w, fp, m, NULL);
		for (size_t k = 0; k < nb; k++)
			if (pebs_writer_add_batch(w, bs[k]))
				return 3;
		if (pebs_writer_finish(w))
			return 3;
		fclose(fp);
		double tw = now() - t0;
		pebs_writer_stats(w, &st);
		pebs_writer_close(w);
		report("write (encode+compress), 1 thread", (double)total, tw,
		       (double)st.bytes);
	} else {
		struct stat sb;
		if (stat(path, &sb))
			return 3;
		st.bytes = (uint64_t)sb.st_size;
	}
	if (strchr(modes, 'm'))
		memcpy_peer(nb);
	size_t n;
	if (strchr(modes, 'd')) {
		for (int scalar = 0; scalar < 2; scalar++) {
			char what[64];
			const char *kn = pebs_codec_select(scalar);
			for (unsigned th = 1; th <= 2; th++) {
				double t = read_all(path, th, 0, &n);
				snprintf(what, sizeof(what),
					 "decode all, %s, %u thr", kn, th);
				report(what, (double)n, t, (double)st.bytes);
			}
		}
		pebs_codec_select(0);
	}
	if (strchr(modes, 'a')) {
		double t = read_all(path, 1, 0, &n);
		report("decode all, 1 thread", (double)n, t, (double)st.bytes);
	}
	if (strchr(modes, 'l')) {
		double t = read_all(path, 1, 1ull << PEBS_COL_LAT, &n);
		report("decode lat column only, 1 thread", (double)n, t,
		       (double)st.bytes);
	}
	if (strchr(modes, 'r'))
		encode_regs(bs, ndistinct, nb);
	if (strchr(modes, 'c')) {
		size_t csvb;
		double t = csv_limit(bs, nb, &csvb);
		report("CSV formatting limit (no reading)", (double)total, t,
		       (double)csvb);
	}
	for (size_t k = 0; k < ndistinct; k++)
		pebs_batch_free(bs[k]);
	free(bs);
	pebs_gen_free(g);
	pebs_meta_free(m);
	return 0;
}
