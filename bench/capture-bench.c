/*
 * capture-bench - throughput of the capture path (never a timed test).
 *
 *   capture-bench sim [-n ACCESSES] [-o FILE] [-w WORKLOAD]
 *       pebs_capture_run() on the simulated PMU (skx), every access
 *       sampled (ALL_LOADS and ALL_STORES, period 1), written to FILE:
 *       samples per second.  Without -w the accesses come from a
 *       trivial in-process generator (so the number is the capture
 *       path's); with -w from the named pebs_workload scenario (cache
 *       model included).
 *   capture-bench drain [-n RECORDS] [-e|-W] [-b BATCH]
 *       the drain path alone: a DS buffer prepared once with 64 KiB of
 *       records (skx: 327 records of 200 B), drained again and again
 *       through pebs_ds_pending() + pebs_ds_decode() into a batch; with
 *       -e also encoded as the capture does it (one block per 65536
 *       samples, pebs_block_encode() + pebs_writer_copy_block(), batches
 *       starting with no column dirty), with -W through
 *       pebs_writer_add_batch() instead; to /dev/null.  Records per
 *       second of one core.
 * -r keeps the register snapshots (pebs-capture --regs); without it they
 * are dropped, as by a default capture.
 * Both print wall and CPU (process) time; on a loaded machine the CPU
 * figure is the per-core rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pebs_capture.h"
#include "pebs_ds.h"
#include "pebs_format.h"
#include "pebs_sim.h"

static double clk(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct gen {
	uint64_t i, n;
};

/* -r: registers kept. */
static int keep_regs;

static long gen_next(void *ctx, struct pebs_access *a, size_t max)
{
	struct gen *g = ctx;
	size_t k = 0;
	for (; k < max && g->i < g->n; k++, g->i++) {
		uint64_t i = g->i;
		memset(&a[k], 0, sizeof(a[k]));
		a[k].cycle = i * 40;
		a[k].cpu = (uint32_t)(i & 3);
		a[k].pid = 1000;
		a[k].tid = 1000 + a[k].cpu;
		a[k].ip = 0x401000 + 4 * (i % 64);
		a[k].addr = 0x7f0000000000ull + 8 * (i % 4096);
		a[k].size = 8;
		a[k].kind = i % 4 ? PEBS_ACC_LOAD : PEBS_ACC_STORE;
		a[k].src = i % 7 ? PEBS_SRC_L1 : PEBS_SRC_L2;
		a[k].lat = a[k].src == PEBS_SRC_L1 ? 4 : 14;
	}
	return (long)k;
}

static int bench_sim(uint64_t n, const char *out, const char *wl)
{
	static const char *const ev[] = { "MEM_INST_RETIRED.ALL_LOADS",
					  "MEM_INST_RETIRED.ALL_STORES" };
	struct pebs_capture_opts o = { 0 };
	struct pebs_capture_stats st;
	struct gen g = { .n = n };
	char err[512], line[256];
	double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
	double t0 = clk(CLOCK_THREAD_CPUTIME_ID);
	double w, c, t;
	FILE *fp = fopen(out, "w");

	if (!fp) {
		perror(out);
		return 1;
	}
	o.backend = "sim";
	o.uarch = "skx";
	o.events = ev;
	o.nevents = 2;
	o.period = 1;
	o.out = fp;
	o.seed = 1;
	o.regs = keep_regs;
	if (getenv("CAPBENCH_INLINE"))
		o.threads = -1;	/* encode on the capture thread */
	if (wl) {
		o.workload = wl;
		o.accesses = n;
	} else {
		o.source = gen_next;
		o.source_ctx = &g;
		o.source_ncpus = 4;
	}
	if (pebs_capture_run(&o, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "capture: %s\n", err);
		return 1;
	}
	fclose(fp);
	w = clk(CLOCK_MONOTONIC) - w0;
	c = clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
	t = clk(CLOCK_THREAD_CPUTIME_ID) - t0;
	pebs_capture_summary(&st, 1, line, sizeof(line));
	printf("sim capture (%s%s): %s\n", wl ? wl : "generator",
	       keep_regs ? ", registers kept" : "", line);
	printf("  %.2f M samples/s wall, %.2f M samples/s CPU, %.1f B/sample\n",
	       st.samples / w / 1e6, st.samples / c / 1e6,
	       st.samples ? (double)st.bytes / (double)st.samples : 0.0);
	/* The capture thread alone (simulator, drain, decode; the blocks
	 * are encoded on worker threads): the rate with idle cores for
	 * the encoders. */
	printf("  capture thread: %.2f M samples/s of its CPU time "
	       "(encoding on %s)\n", st.samples / t / 1e6,
	       getenv("CAPBENCH_INLINE") ? "this thread" : "workers");
	return 0;
}

/* Hands a full batch on: -e as lib/capture_enc.c does (inline), -W
 * through the writer's batch copy. */
static int flush(struct pebs_writer *w, struct pebs_batch *b, int encode)
{
	if (encode == 1 && b->n) {
		void *out;
		size_t len;
		if (pebs_block_encode(b, 0, &out, &len) < 0 ||
		    pebs_writer_copy_block(w, out, len) < 0)
			return -1;
		free(out);
	} else if (encode == 2) {
		if (pebs_writer_add_batch(w, b) < 0)
			return -1;
	}
	pebs_batch_reset(b);
	b->dirty = 0;	/* as the capture's batches: see bench_drain() */
	return 0;
}

static int bench_drain(uint64_t n, int encode, size_t bcap)
{
	struct pebs_sim_opts so = { .uarch = pebs_uarch_by_name("skx"),
				    .ncpus = 1, .seed = 1, .tag_rate = 1 };
	struct pebs_sim *sim;
	struct pebs_ds ds;
	struct pebs_ds_mem m;
	struct pebs_raw_config cfg;
	struct pebs_raw_stats rs;
	struct pebs_batch *b = pebs_batch_new(bcap);
	struct pebs_writer *w = NULL;
	FILE *null = fopen("/dev/null", "w");
	struct gen g = { .n = 400 };
	struct pebs_access acc[400];
	uint64_t done = 0, idx;
	double w0, c0, wt, ct;
	char err[256];

	/* Fill the buffer once with real simulated records. */
	pebs_sim_new(&sim, &so);
	pebs_sim_alloc(sim, PEBS_DS_AREA_SIZE, &m.area, &m.area_addr);
	pebs_sim_alloc(sim, PEBS_DS_DEFAULT_BUF, &m.buf, &m.buf_addr);
	m.buf_size = PEBS_DS_DEFAULT_BUF;
	pebs_ds_init(&ds, &m, so.uarch, PEBS_REC_SIZE_FMT3);
	pebs_ds_set_reset(&ds, 0, 0xffffffffffffull);
	pebs_sim_wrmsr(sim, 0, 0x600, m.area_addr);
	pebs_sim_wrmsr(sim, 0, 0x4c1, 0xffffffffffffull);
	pebs_sim_wrmsr(sim, 0, 0x186, 0x4381d0);
	pebs_sim_wrmsr(sim, 0, 0x3f1, 1);
	pebs_sim_wrmsr(sim, 0, 0x38f, 1);
	gen_next(&g, acc, 400);
	for (int i = 0; i < 400; i++) {
		acc[i].kind = PEBS_ACC_LOAD;
		acc[i].cpu = 0;
	}
	pebs_sim_retire(sim, acc, 400);
	idx = pebs_ds_get(&ds, PEBS_DS_PEBS_INDEX);
	printf("drain: %llu records of 200 B in the buffer\n",
	       (unsigned long long)((idx - ds.lay.base) / 200));
	memset(&cfg, 0, sizeof(cfg));
	cfg.uarch = so.uarch;
	cfg.pebs_enabled = 1;
	cfg.ev[0].name = "MEM_INST_RETIRED.ALL_LOADS";
	cfg.ev[0].kind = PEBS_EVK_LOAD;
	cfg.drop_regs = !keep_regs;
	memset(&rs, 0, sizeof(rs));
	if (encode && pebs_writer_open(&w, null, NULL, NULL) < 0)
		return 1;
	if (encode == 1) {
		/* The capture's way: whole blocks. */
		pebs_batch_free(b);
		b = pebs_batch_new(65536);
	}
	/* Like the capture's batches (lib/capture_enc.c), no column dirty:
	 * the decoder then stores no column a record shape leaves zero. */
	b->dirty = 0;
	w0 = clk(CLOCK_MONOTONIC);
	c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
	while (done < n) {
		const uint8_t *recs;
		size_t len, off = 0, used;
		int full;
		pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, idx);
		pebs_ds_pending(&ds, &recs, &len, &full);
		while (off < len) {
			if (pebs_ds_decode(&cfg, recs + off, len - off, b,
					    &used, &rs, err, sizeof(err)) < 0) {
				fprintf(stderr, "decode: %s\n", err);
				return 1;
			}
			off += used;
			if (b->n == b->cap || off < len) {
				if (flush(w, b, encode) < 0)
					return 1;
			}
		}
		done += len / 200;
		pebs_ds_reset_index(&ds, len / 200);
	}
	if (w) {
		if (flush(w, b, encode) < 0)
			return 1;
		pebs_writer_close(w);
	}
	wt = clk(CLOCK_MONOTONIC) - w0;
	ct = clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
	printf("drain%s%s: %llu records, %.2f M records/s wall, "
	       "%.2f M records/s CPU\n", encode == 1 ? " + encode (blocks)" :
	       encode == 2 ? " + encode (writer)" : "",
	       keep_regs ? " (registers kept)" : "",
	       (unsigned long long)done, done / wt / 1e6, done / ct / 1e6);
	pebs_sim_free(sim);
	pebs_batch_free(b);
	fclose(null);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = 0;
	const char *out = "/tmp/capture-bench.pebs", *wl = NULL;
	int encode = 0, c;
	size_t bcap = 8192;

	if (argc < 2) {
		fprintf(stderr, "usage: capture-bench sim|drain [-n N] "
			"[-o FILE] [-w WORKLOAD] [-e|-W] [-b BATCH] [-r]\n");
		return 2;
	}
	optind = 2;
	while ((c = getopt(argc, argv, "n:o:w:eWb:r")) != -1) {
		switch (c) {
		case 'b': bcap = strtoul(optarg, NULL, 0); break;
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'o': out = optarg; break;
		case 'w': wl = optarg; break;
		case 'e': encode = 1; break;
		case 'W': encode = 2; break;
		case 'r': keep_regs = 1; break;
		default: return 2;
		}
	}
	if (!strcmp(argv[1], "sim"))
		return bench_sim(n ? n : 20000000, out, wl);
	if (!strcmp(argv[1], "drain"))
		return bench_drain(n ? n : 100000000, encode, bcap);
	fprintf(stderr, "capture-bench: unknown mode %s\n", argv[1]);
	return 2;
}
