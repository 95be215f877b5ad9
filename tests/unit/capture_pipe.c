/*
 * The capture pipeline end to end on a fake access source: every profile
 * captures its portable event, the file decodes with the plan's event
 * names and the records' fields, the same seed gives the same bytes, the
 * stop flag ends a capture with a valid file, loss beyond --max-lost is
 * reported; the msr backend against regular files standing in for
 * /dev/cpu/N/msr and the pebs_ds device (registers restored afterwards);
 * the perf backend's ring parsing; perf refusing cleanly without a PMU.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "backend_int.h"
#include "capture_int.h"
#include "pebs_capture.h"
#include "pebs_ds.h"
#include "pebs_dsrc.h"
#include "pebs_format.h"
#include "testutil.h"

struct fake {
	uint64_t i, n;
	unsigned ncpus;
};

/* Loads and stores on a few lines, round robin over the CPUs. */
static long fake_next(void *ctx, struct pebs_access *a, size_t max)
{
	struct fake *f = ctx;
	size_t k = 0;
	static const uint8_t src[] = { PEBS_SRC_L1, PEBS_SRC_L2,
				       PEBS_SRC_L3_HITM, PEBS_SRC_LOCAL_DRAM };
	for (; k < max && f->i < f->n; k++, f->i++) {
		memset(&a[k], 0, sizeof(a[k]));
		a[k].cycle = f->i * 10;
		a[k].cpu = (uint32_t)(f->i % f->ncpus);
		a[k].pid = 7;
		a[k].tid = 70 + a[k].cpu;
		a[k].ip = 0x401000 + 16 * (f->i % 5);
		a[k].addr = 0x600000 + 64 * (f->i % 8) + 8 * a[k].cpu;
		a[k].size = 8;
		a[k].kind = f->i % 3 ? PEBS_ACC_LOAD : PEBS_ACC_STORE;
		a[k].src = src[f->i % 4];
		a[k].lat = a[k].kind == PEBS_ACC_LOAD ? 5 + 40 * (f->i % 4) : 0;
		if (a[k].src == PEBS_SRC_L1 && a[k].kind == PEBS_ACC_LOAD)
			a[k].lat = 4;
	}
	return (long)k;
}

/* pebs_capture_opts.regs of the next captures (--regs). */
static int opt_regs;

static int run_t(const char *uarch, const char *const *ev, size_t nev,
		 uint64_t n, uint64_t period, char **buf, size_t *len,
		 struct pebs_capture_stats *st, size_t bufsz, int threads)
{
	struct fake f = { .n = n, .ncpus = 2 };
	struct pebs_capture_opts o = { 0 };
	char err[512];
	FILE *fp = open_memstream(buf, len);
	int r;

	cr_assert_not_null(fp);
	o.backend = "sim";
	o.uarch = uarch;
	o.events = ev;
	o.nevents = nev;
	o.period = period;
	o.out = fp;
	o.source = fake_next;
	o.source_ctx = &f;
	o.source_ncpus = 2;
	o.tag_rate = 1;
	o.seed = 3;
	o.buf_size = bufsz;
	o.cmdline = "test";
	o.threads = threads;
	o.regs = opt_regs;
	r = pebs_capture_run(&o, st, err, sizeof(err));
	fclose(fp);
	if (r < 0)
		cr_log_info("%s: %s", uarch, err);
	return r;
}

static int run(const char *uarch, const char *const *ev, size_t nev,
	       uint64_t n, uint64_t period, char **buf, size_t *len,
	       struct pebs_capture_stats *st, size_t bufsz)
{
	return run_t(uarch, ev, nev, n, period, buf, len, st, bufsz, 0);
}

/*
 * A reader of the capture @buf (@len bytes), through a temporary file
 * whose name goes to @path: the caller unlinks it after closing.
 */
static struct pebs_reader *read_capture(const char *buf, size_t len,
					char path[32])
{
	struct pebs_reader *rd;
	const char *p = path;

	strcpy(path, "/tmp/cap-test-XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	cr_assert_eq(pebs_reader_open(&rd, &p, 1, NULL), 0);
	return rd;
}

static uint64_t count_samples(const char *buf, size_t len,
			      const char *event, int *addr_ok)
{
	char path[32];
	struct pebs_reader *rd = read_capture(buf, len, path);
	struct pebs_batch *b;
	uint64_t n = 0;

	*addr_ok = 1;
	while (pebs_reader_next(rd, &b) == 1)
		for (size_t i = 0; i < b->n; i++) {
			cr_assert_str_eq(pebs_batch_event(b, i), event);
			/* Every profile, adaptive ones without GPRs too:
			 * the accesses' pid and tid (fake_next()). */
			cr_assert_eq(b->c32[PEBS_COL_PID][i], 7);
			cr_assert_eq(b->c32[PEBS_COL_TID][i],
				     70 + b->c32[PEBS_COL_CPU][i]);
			if (b->c64[PEBS_COL_ADDR][i] &&
			    (b->c64[PEBS_COL_ADDR][i] < 0x600000 ||
			     b->c64[PEBS_COL_ADDR][i] >= 0x600200))
				*addr_ok = 0;
			n++;
		}
	cr_assert_str_eq(pebs_meta_get(pebs_reader_meta(rd), "source"),
			 "sim");
	pebs_reader_close(rd);
	unlink(path);
	return n;
}

/*
 * A small period for profile @u, at least the errata minimum of its
 * load-latency and other events (plan.md, period-range: 32 on nhm, wsm
 * and hsw); *@scale multiplies the accesses to keep the sample count.
 */
static uint64_t small_period(const char *u, uint64_t want, uint64_t *scale)
{
	*scale = 1;
	if ((!strcmp(u, "nhm") || !strcmp(u, "wsm") || !strcmp(u, "hsw")) &&
	    want < 32) {
		*scale = (32 + want - 1) / want;
		return 32;
	}
	return want;
}

Test(capture_pipe, every_profile_captures)
{
	for (unsigned i = 0; i < pebs_uarch_count(); i++) {
		const struct pebs_uarch *u = pebs_uarch_get(i);
		const struct pebs_uarch_event *e;
		const char *spec;
		char *buf = NULL;
		size_t len = 0;
		struct pebs_capture_stats st;
		int ok;
		uint64_t n;

		if (u->ldlat_counters)
			e = pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY);
		else if (u->store_counters)
			e = pebs_uarch_event_by_kind(u, u->features &
						     PEBS_UF_PSTORE ?
						     PEBS_EVK_PRECISE_STORE :
						     PEBS_EVK_DATALA_STORE);
		else
			e = &u->events[0];
		cr_assert_not_null(e);
		spec = e->name;
		uint64_t scale, per = small_period(u->name, 7, &scale);
		cr_assert_eq(run(u->name, &spec, 1, 3000 * scale, per, &buf,
				 &len, &st, 0), 0, "%s", u->name);
		n = count_samples(buf, len, e->name, &ok);
		cr_assert(n > 50, "%s: %llu samples", u->name,
			  (unsigned long long)n);
		cr_assert_eq(n, st.samples, "%s", u->name);
		cr_assert(ok || u->pebs_fmt == PEBS_FMT_CORE2, "%s",
			  u->name);
		free(buf);
	}
}

/*
 * Registers are kept with --regs only: without, no sample has them and
 * the file is smaller; with, every sample has the simulator's registers
 * (RFLAGS 0x202, R8 = CPU, R9 = tid, R10 = pid), fixed formats and
 * adaptive ones (which are then asked for the GPR group) alike.
 */
Test(capture_pipe, registers_only_with_regs)
{
	static const char *const names[] = { "nhm", "skx", "icl" };
	for (int k = 0; k < 3; k++) {
		const char *spec = "load-latency";
		size_t len[2] = { 0, 0 };
		for (int regs = 0; regs < 2; regs++) {
			struct pebs_capture_stats st;
			struct pebs_reader *rd;
			struct pebs_batch *b;
			char *buf = NULL, path[32];
			uint64_t n = 0;

			uint64_t scale, per = small_period(names[k], 3,
							   &scale);
			opt_regs = regs;
			cr_assert_eq(run(names[k], &spec, 1, 3000 * scale, per,
					 &buf, &len[regs], &st, 0), 0);
			opt_regs = 0;
			rd = read_capture(buf, len[regs], path);
			while (pebs_reader_next(rd, &b) == 1)
				for (size_t i = 0; i < b->n; i++, n++) {
					uint64_t *const *c =
						b->c64 + PEBS_COL_REG0;
					uint32_t fl = b->c32[PEBS_COL_FLAGS][i];
					uint64_t f = c[PEBS_REG_RFLAGS][i];
					uint64_t r9 = c[PEBS_REG_R9][i];
					uint64_t r10 = c[PEBS_REG_R10][i];
					cr_assert_eq(!!(fl & PEBS_SF_REGS), regs,
						     "%s", names[k]);
					cr_assert_eq(f, regs ? 0x202u : 0);
					cr_assert_eq(r9, regs ?
						b->c32[PEBS_COL_TID][i] : 0);
					cr_assert_eq(r10, regs ? 7u : 0);
				}
			cr_assert(n > 100 && n == st.samples, "%s: %llu",
				  names[k], (unsigned long long)n);
			pebs_reader_close(rd);
			unlink(path);
			free(buf);
		}
		cr_assert(len[0] < len[1], "%s: %zu vs %zu bytes", names[k],
			  len[0], len[1]);
	}
}

Test(capture_pipe, deterministic_and_two_events)
{
	static const char *const ev[] = { "load-latency", "precise-store" };
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	struct pebs_capture_stats st;

	cr_assert_eq(run("skx", ev, 2, 20000, 11, &a, &la, &st, 0), 0);
	cr_assert(st.samples > 1000);
	cr_assert_eq(run("skx", ev, 2, 20000, 11, &b, &lb, &st, 0), 0);
	cr_assert_eq(la, lb);
	cr_assert(memcmp(a, b, la) == 0);
	free(a);
	free(b);
}

/* Encoding inline or on 1 or 3 workers: the same file, block for block
 * (several blocks: 300000 samples). */
Test(capture_pipe, encoder_threads_same_file)
{
	static const char *const ev[] = { "MEM_INST_RETIRED.ALL_LOADS" };
	static const int th[] = { -1, 1, 3 };
	char *f[3] = { NULL, NULL, NULL };
	size_t l[3] = { 0, 0, 0 };
	struct pebs_capture_stats st;

	for (int i = 0; i < 3; i++) {
		cr_assert_eq(run_t("skx", ev, 1, 450000, 1, &f[i], &l[i], &st,
				   0, th[i]), 0);
		cr_assert(st.samples > 250000, "%llu",
			  (unsigned long long)st.samples);
		cr_assert(st.blocks >= 4);
	}
	for (int i = 1; i < 3; i++) {
		cr_assert_eq(l[i], l[0]);
		cr_assert(memcmp(f[i], f[0], l[0]) == 0);
	}
	for (int i = 0; i < 3; i++)
		free(f[i]);
}

/* Lost records queue behind the blocks submitted before them: with
 * losses, inline and worker encoding still give the same file. */
Test(capture_pipe, encoder_threads_same_file_with_losses)
{
	static const char *const ev[] = { "load-latency" };
	static const int th[] = { -1, 1, 3 };
	char *f[3] = { NULL, NULL, NULL };
	size_t l[3] = { 0, 0, 0 };
	struct pebs_capture_stats st;

	for (int i = 0; i < 3; i++) {
		cr_assert_eq(run_t("skl", ev, 1, 300000, 1, &f[i], &l[i], &st,
				   400, th[i]), 0);
		cr_assert(st.lost > 0);
	}
	for (int i = 1; i < 3; i++) {
		cr_assert_eq(l[i], l[0]);
		cr_assert(memcmp(f[i], f[0], l[0]) == 0, "workers %d", th[i]);
	}
	for (int i = 0; i < 3; i++)
		free(f[i]);
}

/*
 * The file of a capture with every access sampled (ALL_LOADS and
 * ALL_STORES, period 1) is in time order: fake_next() makes access i at
 * cycle 10 i on CPU i % 2, a store when i % 3 == 0, at 0x600000 +
 * 64 (i % 8) + 8 CPU, so times rise strictly and each tells the
 * sample's other fields (the columns moved together).  Returns the
 * samples read.
 */
static uint64_t check_time_order(const char *buf, size_t len)
{
	char path[32];
	struct pebs_reader *rd = read_capture(buf, len, path);
	struct pebs_batch *b;
	uint64_t n = 0, prev = 0;

	while (pebs_reader_next(rd, &b) == 1)
		for (size_t k = 0; k < b->n; k++, n++) {
			uint64_t t = b->c64[PEBS_COL_TIME][k], i = t / 10;
			uint32_t cpu = b->c32[PEBS_COL_CPU][k];
			cr_assert(n == 0 || t > prev, "sample %llu: time %llu "
				  "after %llu", (unsigned long long)n,
				  (unsigned long long)t,
				  (unsigned long long)prev);
			prev = t;
			cr_assert_eq(t % 10, 0);
			cr_assert_eq(cpu, i % 2);
			cr_assert_eq(b->c32[PEBS_COL_TID][k], 70 + cpu);
			cr_assert_eq(b->c64[PEBS_COL_ADDR][k],
				     0x600000 + 64 * (i % 8) + 8 * cpu);
			cr_assert_str_eq(pebs_batch_event(b, k), i % 3 ?
					 "MEM_INST_RETIRED.ALL_LOADS" :
					 "MEM_INST_RETIRED.ALL_STORES");
		}
	pebs_reader_close(rd);
	unlink(path);
	return n;
}

/*
 * Records are drained CPU by CPU; each drain's samples are sorted by time
 * across CPUs before they go out.  Default buffers (the reserve is
 * smaller than the PMI latency's worth: losses); 8 MiB ones, whose
 * drains (about 75000 samples at the threshold) pass a block's 65536, so
 * the full batch is held and ordered with the next (no loss); a 2-record
 * buffer.  Before the sort, the samples of one drain came
 * CPU 0's first, then CPU 1's.
 */
Test(capture_pipe, capture_in_time_order)
{
	static const char *const ev[] = { "MEM_INST_RETIRED.ALL_LOADS",
					   "MEM_INST_RETIRED.ALL_STORES" };
	static const size_t bufsz[] = { 0, 8u << 20, 400 };
	struct pebs_capture_stats st;

	for (size_t k = 0; k < 3; k++) {
		char *a = NULL;
		size_t la = 0;
		cr_assert_eq(run("skx", ev, 2, 300000, 1, &a, &la, &st,
				 bufsz[k]), 0);
		cr_assert_eq(check_time_order(a, la), st.samples);
		cr_assert_eq(st.samples + st.lost, 300000);
		if (k == 1)
			cr_assert_eq(st.lost, 0);
		else
			cr_assert(st.lost > 0);
		free(a);
	}
}

/* One sample of a test batch: time, CPU (its place before), event. */
static void put(struct pebs_batch *b, uint64_t t, uint32_t cpu,
		const char *ev, uint32_t lat)
{
	size_t k = b->n++;
	int id = pebs_batch_intern(b, ev);

	cr_assert(id >= 0);
	b->c64[PEBS_COL_TIME][k] = t;
	b->c32[PEBS_COL_CPU][k] = cpu;
	b->c32[PEBS_COL_EVENT][k] = (uint32_t)id;
	b->c32[PEBS_COL_LAT][k] = lat;
}

/*
 * cenc_order() on a drain that spans two batches: a stable sort by time
 * from index 1 of the first on (index 0 is an earlier drain's), the
 * event names kept though the batches' dictionaries differ, and a column
 * clean in one batch (whatever its memory holds) read as zero.
 */
Test(capture_pipe, order_across_batches)
{
	struct pebs_batch *b[2] = { pebs_batch_new(4), pebs_batch_new(3) };
	static const uint32_t want_cpu[] = { 9, 1, 4, 3, 2, 0, 5 };
	static const char *const want_ev[] = { "A", "B", "B", "C", "A", "A",
					       "C" };
	static const uint32_t want_lat[] = { 7, 7, 0, 0, 7, 7, 0 };
	struct cap_enc *e;

	cr_assert_eq(cenc_open(&e, 0, 0, 4), 0);
	cr_assert_not_null(b[0]);
	cr_assert_not_null(b[1]);
	put(b[0], 5, 9, "A", 7);	/* before the drain */
	put(b[0], 30, 0, "A", 7);
	put(b[0], 10, 1, "B", 7);
	put(b[0], 20, 2, "A", 7);
	put(b[1], 15, 3, "C", 99);
	put(b[1], 10, 4, "B", 99);
	put(b[1], 40, 5, "C", 99);
	b[0]->dirty = 1ull << PEBS_COL_TIME | 1ull << PEBS_COL_CPU |
		      1ull << PEBS_COL_EVENT | 1ull << PEBS_COL_LAT;
	b[1]->dirty = 1ull << PEBS_COL_TIME | 1ull << PEBS_COL_CPU |
		      1ull << PEBS_COL_EVENT;
	cr_assert_eq(cenc_order(e, b, 2, 1), 0);
	for (size_t k = 0; k < 7; k++) {
		struct pebs_batch *x = b[k < 4 ? 0 : 1];
		size_t j = k < 4 ? k : k - 4;
		cr_assert_eq(x->c32[PEBS_COL_CPU][j], want_cpu[k], "%zu", k);
		cr_assert_str_eq(pebs_batch_event(x, j), want_ev[k], "%zu",
				 k);
		cr_assert_eq(x->c32[PEBS_COL_LAT][j], want_lat[k], "%zu", k);
	}
	cr_assert(b[1]->dirty & 1ull << PEBS_COL_LAT);
	cenc_close(e);
	pebs_batch_free(b[0]);
	pebs_batch_free(b[1]);
}

Test(capture_pipe, small_buffer_loses_and_counts)
{
	static const char *const ev[] = { "load-latency" };
	char *a = NULL;
	size_t la = 0;
	struct pebs_capture_stats st;

	/* 2 records of room and a PMI only each quantum: loss. */
	cr_assert_eq(run("skl", ev, 1, 100000, 1, &a, &la, &st, 400), 0);
	cr_assert(st.lost > 0);
	cr_assert(st.samples > 0);
	free(a);
}

/*
 * The loss estimate hardware needs (it counts nothing at the absolute
 * maximum): computed by the same drain code on the sim, from the
 * records' times at full buffers, it must agree with the simulator's
 * exact count within 5 % (the fake source retires at a steady rate), and
 * be 0 when nothing is lost.  Adaptive (icl) and fmt 3 (skx) records.
 */
Test(capture_pipe, loss_estimate_matches_sim_count)
{
	static const char *const ev[] = { "MEM_INST_RETIRED.ALL_LOADS" };
	static const char *const ua[] = { "skx", "icl" };
	static const size_t bufs[] = { 1024, 16384 };
	struct pebs_capture_stats st;

	for (size_t u = 0; u < 2; u++)
		for (size_t k = 0; k < 2; k++) {
			char *a = NULL;
			size_t la = 0;
			cr_assert_eq(run(ua[u], ev, 1, 200000, 1, &a, &la,
					 &st, bufs[k]), 0);
			cr_assert_gt(st.lost, 1000, "%s", ua[u]);
			cr_assert_gt(st.full, 0);
			double d = (double)st.lost_est - (double)st.lost;
			cr_assert_leq(d < 0 ? -d : d, 0.05 * (double)st.lost,
				      "%s buf %zu: lost %llu, estimated %llu",
				      ua[u], bufs[k],
				      (unsigned long long)st.lost,
				      (unsigned long long)st.lost_est);
			free(a);
		}
	{
		char *a = NULL;
		size_t la = 0;
		cr_assert_eq(run("icl", ev, 1, 200000, 7, &a, &la, &st, 0), 0);
		cr_assert_eq(st.lost, 0);
		cr_assert_eq(st.lost_est, 0);
		free(a);
	}
	cr_assert_eq(pebs_ds_estimate_lost_tail(1, 10, 10, 100), 0);
	cr_assert_eq(pebs_ds_estimate_lost_tail(11, 100, 200, 150), 0);
	/* 10 records in 100 ticks, 50 ticks after the last: 5. */
	cr_assert_eq(pebs_ds_estimate_lost_tail(11, 100, 200, 250), 5);
}

Test(capture_pipe, bad_options)
{
	struct pebs_capture_opts o = { 0 };
	struct pebs_capture_stats st;
	static const char *const bad[] = { "load-latency:ldlat=2" };
	char err[512];
	FILE *fp = fopen("/dev/null", "w");

	o.out = fp;
	o.backend = "sim";
	o.uarch = "nope";
	o.workload = "false-sharing";
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_INVAL);
	cr_assert(strstr(err, "nope"));
	o.uarch = "skx";
	o.events = bad;
	o.nevents = 1;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_RULE);
	cr_assert(strstr(err, "ldlat-min"), "%s", err);
	o.nevents = 0;
	o.workload = "no-such-workload";
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_INVAL);
	o.backend = "bogus";
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_INVAL);
	fclose(fp);
}

/* MSR @msr of CPU @cpu's stand-in file under @root. */
static uint64_t msr_of(const char *root, int cpu, uint32_t msr)
{
	char p[600];
	uint64_t v = 0;
	int fd;
	snprintf(p, sizeof(p), "%s/dev/cpu/%d/msr", root, cpu);
	fd = open(p, O_RDONLY);
	cr_assert(fd >= 0, "%s", p);
	cr_assert_eq(pread(fd, &v, 8, (off_t)msr * 8), 8);
	close(fd);
	return v;
}

static uint64_t msr_at(const char *root, uint32_t msr)
{
	return msr_of(root, 0, msr);
}

Test(capture_pipe, msr_backend_fake_root_restores)
{
	char root[64], err[512], cmd[700];
	struct pebs_backend *b;
	struct pebs_plan *p;
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("skx") };
	static const char *const ev[] = { "load-latency:ldlat=30" };
	int cpu0 = 0;
	uint64_t v;

	tu_fake_root(root, sizeof(root));
	cr_assert_eq(pebs_plan_build(&p, &po, ev, 1, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_backend_open_msr(&b, root, po.uarch, &cpu0, 1, err,
					   sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(pebs_backend_name(b), "msr");
	cr_assert_eq(pebs_backend_program(b, p, 0), 0, "%s",
		     pebs_backend_errmsg(b));
	/* The plan's values went to the MSR offsets... */
	cr_assert_eq(msr_at(root, 0x3f6), 30);
	cr_assert_eq(msr_at(root, 0x3f1), pebs_plan_pebs_enable(p));
	cr_assert_eq(msr_at(root, 0x38f), pebs_plan_global_ctrl(p));
	/* ...stale overflow and threshold bits were cleared before the
	 * counters started (write 1 to clear)... */
	cr_assert_eq(msr_at(root, 0x390),
		     pebs_plan_global_ctrl(p) | PEBS_STATUS_DS_THRESH);
	/* ...IA32_DS_AREA got this CPU's DS address, whose fields are
	 * visible through the mapping. */
	cr_assert_eq(msr_at(root, 0x600), 0xffff888000000000ull);
	cr_assert_eq(pebs_ds_get(pebs_backend_ds(b, 0), PEBS_DS_PEBS_BASE),
		     0xffff888000001000ull);
	cr_assert_eq(pebs_ds_get(pebs_backend_ds(b, 0), PEBS_DS_GP_RESET(0)),
		     pebs_plan_reset(p, 0)->value);
	cr_assert_eq(pebs_backend_wait(b, 1), PEBS_BK_TIMEOUT);
	cr_assert_eq(pebs_backend_rdmsr(b, 0, 0x3f6, &v), 0);
	cr_assert_eq(v, 30);
	/* Restore: every register back to what it was. */
	cr_assert_eq(pebs_backend_restore(b), 0);
	cr_assert_eq(msr_at(root, 0x38f), 0x70000000full);
	cr_assert_eq(msr_at(root, 0x3f1), 0);
	cr_assert_eq(msr_at(root, 0x3f6), 0);
	cr_assert_eq(msr_at(root, 0x600), 0);
	/* A write-1-to-clear register has no value to put back: writing
	 * the one read before would clear whatever is set by then. */
	cr_assert_eq(msr_at(root, 0x390),
		     pebs_plan_global_ctrl(p) | PEBS_STATUS_DS_THRESH);
	pebs_backend_close(b);
	pebs_plan_free(p);
	/* No device: a clear refusal. */
	cr_assert_eq(pebs_backend_open_msr(&b, "/nonexistent", po.uarch,
					   &cpu0, 1, err, sizeof(err)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(err, "modprobe msr"), "%s", err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	cr_assert_eq(system(cmd), 0);
}

/* Haswell load-latency plan for CPUs @cpus (@n; one: all CPUs) in *@pl,
 * and the msr backend on them over fake root @root. */
static struct pebs_backend *msr_hsw(const char *root, const int *cpus,
				    size_t n, struct pebs_plan **pl)
{
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("hsw") };
	static const char *const ev[] = { "load-latency" };
	struct pebs_backend *b;
	char err[512];

	if (n > 1) {
		po.cpus = cpus;
		po.ncpus = n;
	}
	cr_assert_eq(pebs_plan_build(pl, &po, ev, 1, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_backend_open_msr(&b, root, po.uarch, cpus, n, err,
					   sizeof(err)), 0, "%s", err);
	return b;
}

/* Closes @b, frees @pl and removes fake root @root. */
static void msr_done(struct pebs_backend *b, struct pebs_plan *pl,
		     const char *root)
{
	pebs_backend_close(b);
	pebs_plan_free(pl);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* A character device at /dev/pebs_ds whose ioctl fails (ENOTTY: a
 * pebs_ds module of another version, or a 32-bit caller) is an error,
 * not the regular-file test mode: no made-up address may reach the real
 * IA32_DS_AREA.  /dev/zero stands in: a character device that maps and
 * answers ENOTTY. */
Test(capture_pipe, msr_ioctl_failure_is_an_error)
{
	char root[64], p[600];
	struct pebs_plan *pl;
	int cpu0 = 0;

	tu_fake_root(root, sizeof(root));
	snprintf(p, sizeof(p), "%s/dev/pebs_ds", root);
	cr_assert_eq(unlink(p), 0);
	cr_assert_eq(symlink("/dev/zero", p), 0);
	struct pebs_backend *b = msr_hsw(root, &cpu0, 1, &pl);
	cr_assert_eq(pebs_backend_program(b, pl, 0), -PEBS_E_IO);
	cr_assert(strstr(pebs_backend_errmsg(b), "CPU 0: pebs_ds: ioctl "
			 "PEBS_KMOD_INFO: Inappropriate ioctl for device: "
			 "module version mismatch?"), "%s",
		  pebs_backend_errmsg(b));
	cr_assert_eq(msr_at(root, 0x600), 0);
	cr_assert_eq(msr_at(root, 0x38f), 0x70000000full);
	msr_done(b, pl, root);
}

/* Programming -C 0,1 fails on CPU 0 (its stand-in file ends before
 * IA32_DS_AREA, a short read): CPU 0 gets its registers back, and CPU 1,
 * never programmed, keeps its IA32_PERF_GLOBAL_CTRL (someone's counters)
 * instead of being left at 0. */
Test(capture_pipe, msr_failed_program_leaves_other_cpus)
{
	char root[64];
	struct pebs_plan *pl;
	static const int cpus[] = { 0, 1 };

	tu_fake_root(root, sizeof(root));
	cr_assert_eq(tu_sh("cd %s/dev/cpu && mkdir 1 && cp 0/msr 1/msr && "
			   "truncate -s %d 0/msr", root, 0x600 * 8), 0);
	struct pebs_backend *b = msr_hsw(root, cpus, 2, &pl);
	cr_assert_eq(pebs_backend_program(b, pl, 0), -PEBS_E_IO);
	cr_assert_str_eq(pebs_backend_errmsg(b),
			 "CPU 0: RDMSR 0x600: short read");
	cr_assert_eq(msr_of(root, 0, 0x38f), 0x70000000full);
	cr_assert_eq(msr_of(root, 1, 0x38f), 0x70000000full);
	cr_assert_eq(msr_of(root, 1, 0x600), 0);
	msr_done(b, pl, root);
}

/* A drain that finds the DS fields damaged puts all of them back from
 * the backend's own layout, not just the index: a raised maximum would
 * let the processor write past the buffer, and a moved base or maximum
 * would have every later drain refused. */
Test(capture_pipe, msr_take_repairs_damaged_ds)
{
	char root[64];
	struct pebs_plan *pl;
	static const unsigned field[] = { PEBS_DS_PEBS_MAX, PEBS_DS_PEBS_BASE };
	const uint8_t *recs;
	size_t len;
	int cpu0 = 0, full;

	tu_fake_root(root, sizeof(root));
	struct pebs_backend *b = msr_hsw(root, &cpu0, 1, &pl);
	cr_assert_eq(pebs_backend_program(b, pl, 0), 0, "%s",
		     pebs_backend_errmsg(b));
	struct pebs_ds *ds = pebs_backend_ds(b, 0);
	struct pebs_ds_layout lay = ds->lay;
	for (size_t k = 0; k < 2; k++) {
		pebs_ds_set(ds, field[k], pebs_ds_get(ds, field[k]) + 4096);
		pebs_ds_set(ds, PEBS_DS_PEBS_THRESH, 0);
		cr_assert_eq(pebs_backend_take(b, 0, &recs, &len, &full),
			     -PEBS_E_CORRUPT);
		cr_assert_eq(len, 0);
		cr_assert_eq(pebs_ds_get(ds, PEBS_DS_PEBS_BASE), lay.base);
		cr_assert_eq(pebs_ds_get(ds, PEBS_DS_PEBS_INDEX), lay.base);
		cr_assert_eq(pebs_ds_get(ds, PEBS_DS_PEBS_MAX), lay.max);
		cr_assert_eq(pebs_ds_get(ds, PEBS_DS_PEBS_THRESH), lay.thresh);
		/* the next drain is taken again */
		cr_assert_eq(pebs_backend_take(b, 0, &recs, &len, &full), 0,
			     "%s", pebs_backend_errmsg(b));
	}
	msr_done(b, pl, root);
}

/*
 * A processor stand-in for pebs_backend_take()'s step hook: at every step
 * it writes one format-2 record (RIP = a sequence number) at the DS index
 * whenever a PEBS counter counts, i.e. IA32_PERF_GLOBAL_CTRL and
 * IA32_PEBS_ENABLE (read back from the stand-in msr file) share a bit:
 * the moments real hardware could write while user space drains.
 */
struct fakecpu {
	uint64_t seq;
	unsigned nsteps;
	int step[64];
	uint64_t gctrl[64];
};

static void fake_write(struct pebs_backend *b, struct fakecpu *f)
{
	struct pebs_ds *ds = pebs_backend_ds(b, 0);
	uint64_t gc, pe, idx = pebs_ds_get(ds, PEBS_DS_PEBS_INDEX);
	uint8_t rec[PEBS_REC_SIZE_FMT2];

	cr_assert_eq(pebs_backend_rdmsr(b, 0, 0x38f, &gc), 0);
	cr_assert_eq(pebs_backend_rdmsr(b, 0, 0x3f1, &pe), 0);
	if (!(gc & pe & 0xf) || idx + sizeof(rec) > ds->lay.max)
		return;
	memset(rec, 0, sizeof(rec));
	f->seq++;
	memcpy(rec + 0x08, &f->seq, 8);
	uint64_t st = 1;		/* PMC0 */
	memcpy(rec + 0x90, &st, 8);
	memcpy((uint8_t *)ds->mem.buf + (idx - ds->lay.base), rec,
	       sizeof(rec));
	pebs_ds_set(ds, PEBS_DS_PEBS_INDEX, idx + sizeof(rec));
}

static void fake_step(struct pebs_backend *b, size_t i, enum bk_step s,
		      void *ctx)
{
	struct fakecpu *f = ctx;
	cr_assert_eq(i, 0);
	if (f->nsteps < 64) {
		f->step[f->nsteps] = s;
		cr_assert_eq(pebs_backend_rdmsr(b, 0, 0x38f,
						&f->gctrl[f->nsteps]), 0);
		f->nsteps++;
	}
	fake_write(b, f);
}

/* Takes what the processor wrote; each RIP (sequence number) is counted
 * in @seen. */
static void take_all(struct pebs_backend *b, unsigned *seen, size_t nseen)
{
	const uint8_t *recs;
	size_t len;
	int full;
	cr_assert_eq(pebs_backend_take(b, 0, &recs, &len, &full), 0, "%s",
		     pebs_backend_errmsg(b));
	cr_assert_eq(len % PEBS_REC_SIZE_FMT2, 0);
	for (size_t off = 0; off < len; off += PEBS_REC_SIZE_FMT2) {
		uint64_t rip;
		memcpy(&rip, recs + off + 0x08, 8);
		cr_assert(rip >= 1 && rip < nseen, "rip %llu",
			  (unsigned long long)rip);
		seen[rip]++;
	}
}

/* The msr backend's drain stops the CPU's counting (GLOBAL_CTRL = 0)
 * before it reads the index and restarts it with the plan's value only
 * after the index is back at the base; records the processor writes
 * at any step are all taken, each once. */
Test(capture_pipe, msr_take_stops_counting)
{
	char root[64], err[512];
	struct pebs_backend *b;
	struct pebs_plan *p;
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("hsw") };
	static const char *const ev[] = { "load-latency" };
	struct fakecpu f;
	unsigned seen[256];
	int cpu0 = 0;
	static const int order[] = { BK_STEP_PAUSED, BK_STEP_SNAPSHOT,
				     BK_STEP_COPIED, BK_STEP_RESET,
				     BK_STEP_RESUMED };

	memset(&f, 0, sizeof(f));
	memset(seen, 0, sizeof(seen));
	tu_fake_root(root, sizeof(root));
	cr_assert_eq(pebs_plan_build(&p, &po, ev, 1, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_backend_open_msr(&b, root, po.uarch, &cpu0, 1, err,
					   sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_backend_program(b, p, 0), 0, "%s",
		     pebs_backend_errmsg(b));
	/* Three records before the first drain. */
	for (int k = 0; k < 3; k++)
		fake_write(b, &f);
	cr_assert_eq(f.seq, 3);
	b->step_hook = fake_step;
	b->step_ctx = &f;
	take_all(b, seen, 256);
	/* One take: stopped from before the snapshot to after the reset,
	 * the plan's GLOBAL_CTRL again at the end. */
	cr_assert_eq(f.nsteps, 5);
	for (unsigned k = 0; k < 5; k++)
		cr_assert_eq(f.step[k], order[k], "step %u", k);
	for (unsigned k = 0; k < 4; k++)
		cr_assert_eq(f.gctrl[k], 0, "step %u", k);
	cr_assert_eq(f.gctrl[4], pebs_plan_global_ctrl(p));
	/* Only the record written once counting went on again is left. */
	cr_assert_eq(f.seq, 4);
	for (int k = 0; k < 5; k++)
		take_all(b, seen, 256);
	/* Restore stops PEBS for good; the last take gets the rest and
	 * starts nothing again. */
	cr_assert_eq(pebs_backend_restore(b), 0);
	uint64_t seq = f.seq;
	take_all(b, seen, 256);
	cr_assert_eq(f.seq, seq);
	cr_assert_eq(msr_at(root, 0x38f), 0x70000000full);
	for (uint64_t k = 1; k <= f.seq; k++)
		cr_assert_eq(seen[k], 1, "record %llu taken %u times",
			     (unsigned long long)k, seen[k]);
	pebs_backend_close(b);
	pebs_plan_free(p);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

static void ring_put(uint8_t *ring, size_t size, uint64_t pos,
		     const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ring[(pos + i) % size] = ((const uint8_t *)p)[i];
}

Test(capture_pipe, perf_ring_parse_wraps)
{
	uint8_t ring[256];
	struct pebs_batch *b = pebs_batch_new(16);
	uint64_t tail = 200, head = 200;
	struct bk_perf_tally t = { 0 };
	struct { struct perf_event_header h; uint64_t v[7]; } s;
	struct { struct perf_event_header h; uint64_t id, lost; } l;

	memset(&s, 0, sizeof(s));
	s.h.type = PERF_RECORD_SAMPLE;
	s.h.size = sizeof(s);
	s.v[0] = 0x401000;
	s.v[1] = 5 | (6ull << 32);
	s.v[2] = 12345;
	s.v[3] = 0xdead00;
	s.v[4] = 3;
	s.v[5] = 99;
	s.v[6] = 0x629800842ull;
	/* PERF_RECORD_MISC_EXACT_IP sets PEBS_SF_EVENTING_IP, as
	 * pebs-import -f perf reads the bit: the two give the same
	 * samples. */
	s.h.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP;
	/* The first sample wraps around the end of the ring. */
	ring_put(ring, sizeof(ring), head, &s, sizeof(s));
	head += sizeof(s);
	l.h.type = PERF_RECORD_LOST;
	l.h.size = sizeof(l);
	l.id = 1;
	l.lost = 17;
	ring_put(ring, sizeof(ring), head, &l, sizeof(l));
	head += sizeof(l);
	s.v[3] = 0xbeef00;
	s.h.misc = PERF_RECORD_MISC_USER;
	ring_put(ring, sizeof(ring), head, &s, sizeof(s));
	head += sizeof(s);
	cr_assert_eq(bk_perf_parse(ring, sizeof(ring), &tail, head - 4, b, 0,
				   1, &t), 1);	/* last incomplete */
	cr_assert_eq(bk_perf_parse(ring, sizeof(ring), &tail, head, b, 0, 1,
				   &t), 1);
	cr_assert_eq(tail, head);
	cr_assert_eq(t.lost, 17);
	cr_assert_eq(b->n, 2);
	cr_assert_eq(b->c64[PEBS_COL_IP][0], 0x401000);
	cr_assert_eq(b->c32[PEBS_COL_PID][0], 5);
	cr_assert_eq(b->c32[PEBS_COL_TID][0], 6);
	cr_assert_eq(b->c64[PEBS_COL_TIME][0], 12345);
	cr_assert_eq(b->c64[PEBS_COL_ADDR][0], 0xdead00);
	cr_assert_eq(b->c64[PEBS_COL_ADDR][1], 0xbeef00);
	cr_assert_eq(b->c32[PEBS_COL_CPU][0], 3);
	cr_assert_eq(b->c32[PEBS_COL_LAT][0], 99);
	cr_assert_eq(b->c64[PEBS_COL_DSRC][0], 0x629800842ull);
	cr_assert_eq(b->c32[PEBS_COL_FLAGS][0], PEBS_SF_EVENTING_IP);
	cr_assert_eq(b->c32[PEBS_COL_FLAGS][1], 0);
	pebs_batch_free(b);
}

/* PERF_RECORD_LOST_SAMPLES (PEBS records the kernel dropped) counts as
 * lost besides PERF_RECORD_LOST (ring full); THROTTLE / UNTHROTTLE are
 * counted with the time between them, a THROTTLE not yet undone kept
 * open. */
Test(capture_pipe, perf_ring_lost_samples_throttle)
{
	uint8_t ring[256];
	struct pebs_batch *b = pebs_batch_new(16);
	uint64_t tail = 0, head = 0;
	struct bk_perf_tally t = { 0 };
	struct { struct perf_event_header h; uint64_t lost; } ls;
	struct { struct perf_event_header h; uint64_t id, lost; } l;
	struct { struct perf_event_header h; uint64_t time, id, sid; } th;

	ls.h.type = PERF_RECORD_LOST_SAMPLES;
	ls.h.misc = 0;
	ls.h.size = sizeof(ls);
	ls.lost = 5;
	ring_put(ring, sizeof(ring), head, &ls, sizeof(ls));
	head += sizeof(ls);
	l.h.type = PERF_RECORD_LOST;
	l.h.misc = 0;
	l.h.size = sizeof(l);
	l.id = 1;
	l.lost = 3;
	ring_put(ring, sizeof(ring), head, &l, sizeof(l));
	head += sizeof(l);
	static const struct { uint32_t type; uint64_t time; } thr[] = {
		{ PERF_RECORD_THROTTLE, 1000 },
		{ PERF_RECORD_UNTHROTTLE, 5000 },
		{ PERF_RECORD_THROTTLE, 7000 },
	};
	for (size_t i = 0; i < 3; i++) {
		th.h.type = thr[i].type;
		th.h.misc = 0;
		th.h.size = sizeof(th);
		th.time = thr[i].time;
		th.id = th.sid = 1;
		ring_put(ring, sizeof(ring), head, &th, sizeof(th));
		head += sizeof(th);
	}
	cr_assert_eq(bk_perf_parse(ring, sizeof(ring), &tail, head, b, 0, 1,
				   &t), 0);
	cr_assert_eq(tail, head);
	cr_assert_eq(t.lost, 8);
	cr_assert_eq(t.throttles, 2);
	cr_assert_eq(t.throttled_ns, 4000);
	cr_assert(t.throttled);
	cr_assert_eq(t.throttled_at, 7000);
	pebs_batch_free(b);
}

/* Sampling events are opened on CLOCK_MONOTONIC, the clock of
 * pebs_backend_now() that stamps lost records: not perf's local_clock. */
Test(capture_pipe, perf_opens_monotonic_clock)
{
	struct pebs_plan *p;
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("skx") };
	static const char *const ev[] = { "load-latency" };
	struct bk_perf_open o[2];
	char err[256];

	cr_assert_eq(pebs_plan_build(&p, &po, ev, 1, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(bk_perf_opens(p, o, 2), 1);
	cr_assert_eq(o[0].attr.use_clockid, 1);
	cr_assert_eq(o[0].attr.clockid, CLOCK_MONOTONIC);
	pebs_plan_free(p);
}

/* The summary says when the kernel throttled perf sampling, and that the
 * samples it did not take are not in "lost". */
Test(capture_pipe, summary_says_throttled)
{
	struct pebs_capture_stats st = { .samples = 10, .lost = 2,
					 .wall_s = 1 };
	char line[512];

	pebs_capture_summary(&st, 0, line, sizeof(line));
	cr_assert_null(strstr(line, "throttled"), "%s", line);
	st.throttled = 3;
	st.throttled_s = 0.012;
	pebs_capture_summary(&st, 0, line, sizeof(line));
	cr_assert(strstr(line, "10 samples, 2 lost, "), "%s", line);
	cr_assert(strstr(line, ", throttled 3 times for 0.012 s (samples "
			 "not taken, not counted as lost)"), "%s", line);
	/* both, throttled first, then how the command ended (each
	 * appended after the other, not over it) */
	st.cmd_status = 3 << 8;		/* exited with status 3 */
	pebs_capture_summary(&st, 0, line, sizeof(line));
	cr_assert(strstr(line, "not counted as lost); command exit status 3"),
		  "%s", line);
}

/* Writes @list as ROOT/sys/devices/system/cpu/online. */
static void online_file(const char *root, const char *list)
{
	cr_assert_eq(tu_sh("mkdir -p %s/sys/devices/system/cpu && "
			   "printf '%s' > %s/sys/devices/system/cpu/online",
			   root, list, root), 0);
}

/* The online CPUs come from sysfs's list, holes included (CPU 2
 * offline), not 0..count-1. */
Test(capture_pipe, online_cpus_from_sysfs)
{
	char root[64], err[256] = "";
	int *cpus;
	size_t n;

	snprintf(root, sizeof(root), "/tmp/pebs-online-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	online_file(root, "0-1,3-4\\n");
	cr_assert_eq(pebs_backend_online_cpus(root, &cpus, &n, err,
					      sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 4);
	cr_assert_eq(cpus[0], 0);
	cr_assert_eq(cpus[1], 1);
	cr_assert_eq(cpus[2], 3);
	cr_assert_eq(cpus[3], 4);
	free(cpus);
	online_file(root, "0-x\\n");
	cr_assert_eq(pebs_backend_online_cpus(root, &cpus, &n, err,
					      sizeof(err)), -PEBS_E_IO);
	cr_assert(strstr(err, "/sys/devices/system/cpu/online: not a CPU "
			 "list: \"0-x\""), "%s", err);
	online_file(root, "");
	cr_assert_eq(pebs_backend_online_cpus(root, &cpus, &n, err,
					      sizeof(err)), -PEBS_E_IO);
	/* No sysfs: the count of online CPUs. */
	cr_assert_eq(tu_sh("rm -r %s/sys", root), 0);
	cr_assert_eq(pebs_backend_online_cpus(root, &cpus, &n, err,
					      sizeof(err)), 0);
	cr_assert_eq(n, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
	cr_assert_eq(cpus[n - 1], (int)n - 1);
	free(cpus);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* Runs capture @o into /dev/null: pebs_capture_run()'s result. */
static int capture_null(struct pebs_capture_opts *o, char *err,
			size_t errlen)
{
	struct pebs_capture_stats st;
	FILE *fp = fopen("/dev/null", "w");
	int r;

	cr_assert_not_null(fp);
	o->out = fp;
	r = pebs_capture_run(o, &st, err, errlen);
	fclose(fp);
	return r;
}

/* A fake root (tu_fake_root) into @root whose online CPUs are @list, and
 * a short msr capture of it, without -C, in @o. */
static void online_root(char *root, size_t len, const char *list,
			struct pebs_capture_opts *o)
{
	tu_fake_root(root, len);
	online_file(root, list);
	tu_msr_opts(o, root);
	o->cpus = NULL;
	o->duration = 0.05;
}

/* Without -C a hardware capture programs the online CPUs, 0 and 2 here
 * (CPU 1 offline): it asks for CPU 2's msr device, not CPU 1's. */
Test(capture_pipe, msr_capture_online_cpus)
{
	char root[64], err[512];
	struct pebs_capture_opts o;

	online_root(root, sizeof(root), "0,2\\n", &o);
	cr_assert_eq(capture_null(&o, err, sizeof(err)), -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(err, "/dev/cpu/2/msr: "), "%s", err);
	/* The DS stand-in grows for a second CPU's area and buffer. */
	cr_assert_eq(tu_sh("mkdir %s/dev/cpu/2 && cp %s/dev/cpu/0/msr "
			   "%s/dev/cpu/2/msr && truncate -s 8M %s/dev/pebs_ds",
			   root, root, root, root), 0);
	cr_assert_eq(capture_null(&o, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* Without --uarch an msr capture takes the probe's profile (over the
 * device root); when IA32_PERF_CAPABILITIES gives another record format
 * than that profile's it is refused, not decoded in the wrong layout. */
Test(capture_pipe, msr_refuses_format_mismatch)
{
	char root[64], err[512];
	struct pebs_capture_opts o;
	struct pebs_capture_stats st;
	FILE *fp;

	tu_fake_root(root, sizeof(root));
	cr_assert_eq(tu_sh("mkdir -p %s/fake %s/proc && "
			   "printf '0x0: 0x20 0x756e6547 0x6c65746e "
			   "0x49656e69\\n0x1: 0x806f8 0x0 0x7ffefbff "
			   "0xbfebfbff\\n0xa: 0x7300805 0x0 0x0 0x604\\n'"
			   " > %s/fake/cpuid && echo 0 > %s/fake/uid", root,
			   root, root, root), 0);
	uint64_t cap = 0xf5c5;	/* format 5, baseline */
	char p[600];
	snprintf(p, sizeof(p), "%s/dev/cpu/0/msr", root);
	int fd = open(p, O_RDWR);
	cr_assert(fd >= 0);
	cr_assert_eq(pwrite(fd, &cap, 8, 0x345 * 8), 8);
	tu_msr_opts(&o, root);
	o.uarch = NULL;
	o.duration = 0.05;
	fp = fopen("/dev/null", "w");
	o.out = fp;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(err, "spr (PEBS format 4) but "
			 "IA32_PERF_CAPABILITIES[11:8] says format 5"),
		  "%s", err);
	/* Format 4, as the profile says: the capture runs. */
	cap = 0xf4c5;
	cr_assert_eq(pwrite(fd, &cap, 8, 0x345 * 8), 8);
	close(fd);
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)), 0, "%s",
		     err);
	fclose(fp);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* SPR load latency through perf: the auxiliary event 0x8203 leads a group
 * whose member is the load-latency event (else the kernel says ENODATA);
 * elsewhere every event is opened alone. */
Test(capture_pipe, perf_spr_ldlat_group)
{
	struct pebs_plan *p;
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("spr") };
	static const char *const ev[] = { "load-latency:ldlat=30,u",
					  "MEM_INST_RETIRED.ALL_STORES" };
	struct bk_perf_open o[4];
	char err[256];

	cr_assert_eq(pebs_plan_build(&p, &po, ev, 2, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_plan_naux(p), 1);
	cr_assert_eq(bk_perf_opens(p, o, 4), 3);
	cr_assert_eq(o[0].plan_ev, -1);
	cr_assert_eq(o[0].leader, -1);
	cr_assert_eq(o[0].attr.config, 0x8203);
	cr_assert_eq(o[0].attr.sample_period, 0, "counting only");
	cr_assert_eq(o[0].attr.precise_ip, 0);
	cr_assert(o[0].attr.exclude_kernel && !o[0].attr.exclude_user);
	cr_assert_eq(o[1].plan_ev, 0);
	cr_assert_eq(o[1].leader, 0, "member of the aux group");
	cr_assert_eq(o[1].attr.config, 0x1cd);
	cr_assert_eq(o[1].attr.config1, 30);
	cr_assert(o[1].attr.sample_type & PERF_SAMPLE_DATA_SRC);
	cr_assert_eq(o[2].plan_ev, 1);
	cr_assert_eq(o[2].leader, -1);
	cr_assert_eq(o[2].attr.config, 0x82d0);
	cr_assert_eq(bk_perf_opens(p, o, 2), 0, "too small");
	pebs_plan_free(p);

	po.uarch = pebs_uarch_by_name("icx");
	cr_assert_eq(pebs_plan_build(&p, &po, ev, 1, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_plan_naux(p), 0);
	cr_assert_eq(bk_perf_opens(p, o, 4), 1);
	cr_assert_eq(o[0].leader, -1);
	cr_assert_eq(o[0].attr.config, 0x1cd);
	pebs_plan_free(p);
}

/* SPR: a second load-latency event joins the auxiliary event's group
 * too; opened alone, the kernel would refuse it with ENODATA. */
Test(capture_pipe, perf_spr_every_ldlat_in_aux_group)
{
	struct pebs_plan *p;
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("spr") };
	static const char *const ev[] = { "load-latency:u",
					  "MEM_INST_RETIRED.ALL_STORES",
					  "load-latency:k" };
	struct bk_perf_open o[5];
	char err[256];

	cr_assert_eq(pebs_plan_build(&p, &po, ev, 3, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_plan_naux(p), 1);
	cr_assert_eq(bk_perf_opens(p, o, 5), 4);
	cr_assert_eq(o[0].plan_ev, -1);
	cr_assert_eq(o[0].leader, -1);
	cr_assert_eq(o[1].plan_ev, 0);
	cr_assert_eq(o[1].leader, 0);
	cr_assert_eq(o[2].plan_ev, 1);
	cr_assert_eq(o[2].leader, -1, "not a load-latency event");
	cr_assert_eq(o[3].plan_ev, 2);
	cr_assert_eq(o[3].attr.config, 0x1cd);
	cr_assert_eq(o[3].leader, 0, "member of the aux group as well");
	pebs_plan_free(p);
}

/* A copy of the stand-in machine testdata/probe/@name in a new directory,
 * whose path goes to @root (@len bytes). */
static void probe_root_copy(char *root, size_t len, const char *name)
{
	snprintf(root, len, "/tmp/pebs-%s-XXXXXX", name);
	cr_assert_not_null(mkdtemp(root));
	cr_assert_eq(tu_sh("cp -a testdata/probe/%s/. %s", name, root), 0);
}

/* An msr capture on a processor whose PEBS Linux disables for errata
 * (Core 2 06_0F) is refused before anything is programmed. */
Test(capture_pipe, msr_refuses_pebs_errata)
{
	char root[64], err[512];
	struct pebs_capture_opts o;
	struct pebs_capture_stats st;
	FILE *fp = fopen("/dev/null", "w");

	probe_root_copy(root, sizeof(root), "merom-root");
	tu_msr_opts(&o, root);
	o.uarch = NULL;
	o.events = NULL;
	o.nevents = 0;
	o.duration = 0.05;
	o.out = fp;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(err, "msr backend: Core 2 model 0x0F"), "%s", err);
	fclose(fp);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* The skx-busy machine (PTI, PEBS unavailable, PMC2 and FIXED1 enabled,
 * the NMI watchdog on): an msr capture is refused with the probe's
 * reasons, also with --uarch (which used to skip the probe), and nothing
 * is written to its registers; --force programs it anyway. */
Test(capture_pipe, msr_refuses_probe_hazards)
{
	char root[64], err[2048];
	struct pebs_capture_opts o;
	struct pebs_capture_stats st;
	static const char *const uarch[] = { "skx", NULL };
	FILE *fp = fopen("/dev/null", "w");

	snprintf(root, sizeof(root), "/tmp/pebs-busy-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	cr_assert_eq(tu_sh("cp -a testdata/probe/skx-busy/. %s && cd %s/dev "
			   "&& truncate -s %d cpu/0/msr && truncate -s 2M "
			   "pebs_ds", root, root, 0x2000 * 8), 0);
	uint64_t gc = msr_at(root, 0x38f);
	tu_msr_opts(&o, root);
	o.duration = 0.05;
	o.out = fp;
	for (size_t k = 0; k < 2; k++) {
		o.uarch = uarch[k];
		cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
			     -PEBS_E_UNSUPPORTED, "%s", err);
		cr_assert(strstr(err, "msr backend refused (pebs-capture "
				 "--probe; --force programs it anyway): "
				 "kernel page-table isolation is on"),
			  "%s", err);
		cr_assert(strstr(err, "; IA32_MISC_ENABLE (0x1A0) is "),
			  "%s", err);
		cr_assert(strstr(err, "; counters already in use on CPU 0: "
				 "PMC2, FIXED1"), "%s", err);
		cr_assert(strstr(err, "; the NMI watchdog is on"), "%s", err);
		cr_assert_eq(msr_at(root, 0x38f), gc);
		cr_assert_eq(msr_at(root, 0x3f1), 0);
	}
	o.uarch = "skx";
	o.force = 1;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(msr_at(root, 0x38f), gc, "restored");
	fclose(fp);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* The whole pipeline on the msr backend over stand-in files: it programs,
 * waits for the wall-clock duration (no processor writes records here),
 * restores every register and writes a valid, empty capture. */
Test(capture_pipe, msr_capture_fake_root)
{
	char root[64], err[512], cmd[700];
	struct pebs_capture_opts o;
	struct pebs_capture_stats st;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	tu_fake_root(root, sizeof(root));
	tu_msr_opts(&o, root);
	o.duration = 0.2;
	o.out = fp;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)), 0, "%s",
		     err);
	fclose(fp);
	cr_assert_eq(st.samples, 0);
	cr_assert(st.drains >= 2);
	cr_assert(st.wall_s >= 0.2);
	cr_assert(len > 0);
	cr_assert_eq(msr_at(root, 0x38f), 0x70000000full);
	cr_assert_eq(msr_at(root, 0x3f1), 0);
	cr_assert_eq(msr_at(root, 0x186), 0);
	free(buf);
	/* Without the module: exit-3 class error naming it. */
	snprintf(cmd, sizeof(cmd), "%s/dev/pebs_ds", root);
	cr_assert_eq(unlink(cmd), 0);
	fp = fopen("/dev/null", "w");
	o.out = fp;
	cr_assert_eq(pebs_capture_run(&o, &st, err, sizeof(err)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(err, "pebs_ds"), "%s", err);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	cr_assert_eq(system(cmd), 0);
}

/* The perf_event_open(2) stand-in (bk_perf_syscall): records each open
 * and fails as told, else gives a memfd as large as a ring. */
static struct fake_perf {
	int fail2, fail1;	/* errno for precise_ip 2 / 1 (0: opens) */
	int sig;		/* sent to the process at its open (0: none) */
	size_t n;
	struct perf_event_attr a[16];
	int pid[16], cpu[16], fd[16];
	char exe[16][256];	/* the process's program at its open */
} fp_;

static long fake_perf_open(struct perf_event_attr *a, int pid, int cpu,
			   int group_fd, unsigned long flags)
{
	int e = a->precise_ip == 2 ? fp_.fail2 : a->precise_ip == 1 ?
		fp_.fail1 : 0;
	long fd;
	int slot = -1;

	(void)group_fd;
	(void)flags;
	if (fp_.n < 16) {
		char p[64];
		slot = (int)fp_.n;
		ssize_t k;
		fp_.a[fp_.n] = *a;
		fp_.pid[fp_.n] = pid;
		fp_.cpu[fp_.n] = cpu;
		snprintf(p, sizeof(p), "/proc/%d/exe", pid);
		k = pid > 0 ? readlink(p, fp_.exe[fp_.n],
				       sizeof(fp_.exe[0]) - 1) : -1;
		fp_.exe[fp_.n][k > 0 ? k : 0] = 0;
		fp_.n++;
	}
	if (fp_.sig && pid > 0) {
		kill(pid, fp_.sig);
		usleep(100000);		/* it has it */
	}
	if (e) {
		errno = e;
		return -1;
	}
	fd = memfd_create("fake-perf", MFD_CLOEXEC);
	cr_assert(fd >= 0);
	cr_assert_eq(ftruncate((int)fd, 17 * sysconf(_SC_PAGESIZE)), 0);
	if (slot >= 0)
		fp_.fd[slot] = (int)fd;
	return fd;
}

/* Programs a load-latency plan of skx through the stand-in on CPUs 0 and
 * 1 (of process @pid, 0: all): pebs_backend_program()'s result, the
 * message in @err. */
static int fake_perf_program(int pid, char *err, size_t errlen)
{
	static const int cpus[] = { 0, 1 };
	static const char *const ev[] = { "load-latency" };
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("skx") };
	struct pebs_backend *b;
	struct pebs_plan *p;
	int r;

	fp_.n = 0;
	cr_assert_eq(pebs_plan_build(&p, &po, ev, 1, NULL, err, errlen), 0,
		     "%s", err);
	cr_assert_eq(pebs_backend_open_perf(&b, po.uarch, cpus, 2, pid, err,
					    errlen), 0, "%s", err);
	bk_perf_syscall = fake_perf_open;
	r = pebs_backend_program(b, p, 0);
	snprintf(err, errlen, "%s", pebs_backend_errmsg(b));
	pebs_backend_close(b);
	bk_perf_syscall = NULL;
	pebs_plan_free(p);
	return r;
}

/* A kernel whose PMU allows precise_ip 1 at most says EOPNOTSUPP to 2
 * (x86_pmu_hw_config): the backend retries 1 and keeps it for the other
 * CPUs; only a retry that fails too gives the virtual-machine hint. */
Test(capture_pipe, perf_precise_fallback_eopnotsupp)
{
	char err[512];

	memset(&fp_, 0, sizeof(fp_));
	fp_.fail2 = EOPNOTSUPP;
	cr_assert_eq(fake_perf_program(0, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(fp_.n, 3, "2 then 1 on CPU 0, 1 on CPU 1");
	cr_assert_eq(fp_.a[1].precise_ip, 1);
	cr_assert_eq(fp_.a[2].precise_ip, 1);
	cr_assert_eq(fp_.cpu[2], 1);
	/* older kernels: EINVAL, the same */
	fp_.fail2 = EINVAL;
	cr_assert_eq(fake_perf_program(0, err, sizeof(err)), 0, "%s", err);
	/* no PEBS at all: both refused */
	fp_.fail2 = fp_.fail1 = EOPNOTSUPP;
	cr_assert_eq(fake_perf_program(0, err, sizeof(err)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert_eq(fp_.n, 2);
	cr_assert(strstr(err, "on CPU 0: Operation not supported (no "
			 "PEBS-capable PMU here: virtual machine?)"), "%s",
		  err);
	/* the retry's own reason is the one said */
	fp_.fail1 = EINVAL;
	cr_assert_eq(fake_perf_program(0, err, sizeof(err)), -PEBS_E_IO);
	cr_assert(strstr(err, "on CPU 0: Invalid argument"), "%s", err);
	cr_assert_null(strstr(err, "virtual machine"), "%s", err);
}

/* A process's events are opened per CPU on it, inherited and enabled at
 * its exec (mmap refuses the ring of an inherited event on any CPU);
 * without a process, every process of each CPU, enabled at once. */
Test(capture_pipe, perf_process_opens)
{
	char err[512];

	memset(&fp_, 0, sizeof(fp_));
	cr_assert_eq(fake_perf_program(4242, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(fp_.n, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(fp_.pid[i], 4242);
		cr_assert_eq(fp_.cpu[i], (int)i);
		cr_assert_eq(fp_.a[i].inherit, 1);
		cr_assert_eq(fp_.a[i].enable_on_exec, 1);
	}
	cr_assert_eq(fake_perf_program(0, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(fp_.pid[0], -1);
	cr_assert_eq(fp_.a[0].inherit, 0);
	cr_assert_eq(fp_.a[0].enable_on_exec, 0);
}

/* A sample with WEIGHT @w into the ring of the stand-in's open @i (a
 * memfd, the backend's MAP_SHARED ring): page 0 the control page, whose
 * data_head says where the data pages' records end. */
static void fake_perf_sample(size_t i, uint64_t w)
{
	long page = sysconf(_SC_PAGESIZE);
	struct { struct perf_event_header h; uint64_t v[7]; } s;
	uint64_t head = sizeof(s);

	memset(&s, 0, sizeof(s));
	s.h.type = PERF_RECORD_SAMPLE;
	s.h.size = sizeof(s);
	s.v[0] = 0x401000;
	s.v[5] = w;
	cr_assert_eq(pwrite(fp_.fd[i], &s, sizeof(s), page), sizeof(s));
	cr_assert_eq(pwrite(fp_.fd[i], &head, 8,
			    offsetof(struct perf_event_mmap_page, data_head)),
		     8);
}

/* From PEBS format 2 on the kernel gives a PEBS event that is not a load
 * (or store) latency event the TSX weight as WEIGHT (ds.c: "Only set the
 * TSX weight when no memory weight"): cycles of the last transactional
 * block, no latency.  It goes to the cycles of `tsx`, `lat` stays 0; a
 * load-latency event's WEIGHT is its latency. */
Test(capture_pipe, perf_tsx_weight_not_latency)
{
	static const int cpu0 = 0;
	static const char *const ev[] = { "precise-store", "load-latency" };
	struct pebs_plan_opts po = { .uarch = pebs_uarch_by_name("skx") };
	struct pebs_batch *out = pebs_batch_new(16);
	struct pebs_backend *b;
	struct pebs_plan *p;
	char err[512];

	memset(&fp_, 0, sizeof(fp_));
	cr_assert_eq(pebs_plan_build(&p, &po, ev, 2, NULL, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(pebs_backend_open_perf(&b, po.uarch, &cpu0, 1, 0, err,
					    sizeof(err)), 0, "%s", err);
	bk_perf_syscall = fake_perf_open;
	cr_assert_eq(pebs_backend_program(b, p, 0), 0, "%s",
		     pebs_backend_errmsg(b));
	bk_perf_syscall = NULL;
	cr_assert_eq(fp_.n, 2);
	fake_perf_sample(0, 1234);	/* precise-store: TSX cycles */
	fake_perf_sample(1, 77);	/* load-latency: its latency */
	cr_assert_eq(pebs_backend_read(b, 0, out), 2);
	cr_assert_str_eq(out->names[out->c32[PEBS_COL_EVENT][0]],
			 pebs_plan_event(p, 0)->ev.name);
	cr_assert_eq(out->c32[PEBS_COL_LAT][0], 0);
	cr_assert_eq(out->c64[PEBS_COL_TSX][0], 1234);
	cr_assert_eq(out->c32[PEBS_COL_LAT][1], 77);
	cr_assert_eq(out->c64[PEBS_COL_TSX][1], 0);
	pebs_backend_close(b);
	pebs_plan_free(p);
	pebs_batch_free(out);
	/* The kinds whose WEIGHT is a latency. */
	cr_assert(bk_perf_wlat(PEBS_EVK_LOAD_LATENCY));
	cr_assert(bk_perf_wlat(PEBS_EVK_STORE_LATENCY));
	cr_assert_not(bk_perf_wlat(PEBS_EVK_DATALA_STORE));
	cr_assert_not(bk_perf_wlat(PEBS_EVK_PRECISE_STORE));
	cr_assert_not(bk_perf_wlat(PEBS_EVK_LOAD));
	cr_assert_not(bk_perf_wlat(PEBS_EVK_FRONTEND));
	cr_assert_not(bk_perf_wlat(PEBS_EVK_OTHER));
}

/* pebs_capture_run() of a one-CPU load-latency capture, -b @be --uarch
 * @ua (--force when @force), over stand-in root @root and through the
 * perf stand-in (fp_ counts what it opened); its message in @err. */
static int uarch_capture(const char *root, const char *be, const char *ua,
			 int force, char *err, size_t errlen)
{
	static const char *const ev[] = { "load-latency" };
	struct pebs_capture_opts o = { .backend = be, .uarch = ua,
				       .force = force, .devroot = root,
				       .cpus = "0", .events = ev,
				       .nevents = 1, .duration = 0.05 };
	struct pebs_capture_stats st;
	int r;

	o.out = fopen("/dev/null", "w");
	cr_assert_not_null(o.out);
	memset(&fp_, 0, sizeof(fp_));
	bk_perf_syscall = fake_perf_open;
	r = pebs_capture_run(&o, &st, err, errlen);
	bk_perf_syscall = NULL;
	fclose(o.out);
	return r;
}

/* Over @root, perf and msr both refuse --uarch @ua as a usage error
 * before anything is opened, the message beginning @head then saying
 * what -b would do and that --force overrides. */
static void uarch_refused(const char *root, const char *ua, const char *head)
{
	static const char *const be[] = { "perf", "msr" };
	char err[1024], tail[160];

	snprintf(tail, sizeof(tail), "would use %s's event encodings and "
		 "data-source decoding on it (--force to use %s anyway)", ua,
		 ua);
	for (size_t k = 0; k < 2; k++) {
		cr_assert_eq(uarch_capture(root, be[k], ua, 0, err,
					   sizeof(err)),
			     -PEBS_E_INVAL, "%s: %s", be[k], err);
		cr_assert(strncmp(err, head, strlen(head)) == 0, "%s", err);
		cr_assert(strstr(err, tail), "%s", err);
		cr_assert_eq(fp_.n, 0, "nothing opened");
	}
}

/* A hardware capture's --uarch other than the profile of the CPU the
 * probe identifies (the skx stand-in root) is a usage error naming both,
 * for perf as for msr, before anything is opened or written; --force
 * takes it, and the CPU's own profile needs none. */
Test(capture_pipe, uarch_other_than_host_refused)
{
	char root[64], err[1024];

	probe_root_copy(root, sizeof(root), "skx-root");
	uarch_refused(root, "icl", "--uarch icl: this CPU (family 6 model "
		      "0x55) is skx; -b ");
	/* perf: --force, or the CPU's own profile, opens it */
	for (int k = 0; k < 2; k++) {
		cr_assert_eq(uarch_capture(root, "perf", k ? "skx" : "icl", !k,
					   err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(fp_.n, 1);
	}
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* On a CPU of another vendor (the AMD stand-in root, identified by its
 * CPUID or, without one, by /proc/cpuinfo) every --uarch is Intel's: a
 * usage error naming the vendor, for perf as for msr, before anything is
 * opened; --force takes it (perf). */
Test(capture_pipe, uarch_on_other_vendor_refused)
{
	char root[64], err[1024];

	probe_root_copy(root, sizeof(root), "amd");
	for (int src = 0; src < 2; src++) {
		if (src)	/* /proc/cpuinfo alone */
			cr_assert_eq(tu_sh("rm %s/fake/cpuid", root), 0);
		uarch_refused(root, "skx", "--uarch skx: this CPU "
			      "(AuthenticAMD family 25 model 0x01) is not "
			      "Intel; -b ");
	}
	cr_assert_eq(uarch_capture(root, "perf", "skx", 1, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(fp_.n, 1);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* Captures sh -c 'exit 3' (-b perf, load-latency on CPU 0) through the
 * stand-in into a new file, named from the mkstemp(3) template @out:
 * pebs_capture_run()'s result.  --force: skx's profile on whatever CPU
 * runs the tests (another Intel profile, another vendor). */
static int fake_perf_command(char *out, struct pebs_capture_stats *st,
			     char *err, size_t errlen)
{
	char *const cmd[] = { (char *)"/bin/sh", (char *)"-c",
			      (char *)"exit 3", NULL };
	static const char *const ev[] = { "load-latency" };
	struct pebs_capture_opts o = { .backend = "perf", .uarch = "skx",
				       .force = 1, .cpus = "0", .events = ev,
				       .nevents = 1, .command = cmd };
	int fd = mkstemp(out), r;

	cr_assert(fd >= 0);
	o.out = fdopen(fd, "w");
	cr_assert_not_null(o.out);
	bk_perf_syscall = fake_perf_open;
	r = pebs_capture_run(&o, st, err, errlen);
	bk_perf_syscall = NULL;
	cr_assert_eq(fclose(o.out), 0);
	return r;
}

/* perf with -- COMMAND samples the command alone: its events are opened
 * on its process before its exec (still this program then), and the
 * file's metadata claims no counter or MSR writes the kernel made. */
Test(capture_pipe, perf_command_opens_before_exec)
{
	char err[512], out[] = "/tmp/pebs-perfcmd-XXXXXX", self[256];
	struct pebs_capture_stats st;
	struct pebs_reader *rd;
	struct pebs_batch *b;
	const char *path = out;
	ssize_t k;
	int r;

	tu_deadline(30);
	if (access("/bin/sh", X_OK) != 0)
		cr_skip_test("no sh(1)");
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	cr_assert(k > 0);
	self[k] = 0;
	memset(&fp_, 0, sizeof(fp_));
	r = fake_perf_command(out, &st, err, sizeof(err));
	cr_assert_eq(r, 0, "%s", err);
	cr_assert_eq(fp_.n, 1);
	cr_assert(fp_.pid[0] > 0);
	cr_assert_str_eq(fp_.exe[0], self, "opened after the exec");
	cr_assert(fp_.a[0].enable_on_exec && fp_.a[0].inherit);
	cr_assert(WIFEXITED(st.cmd_status) && WEXITSTATUS(st.cmd_status) == 3);
	cr_assert_eq(pebs_reader_open(&rd, &path, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(rd, &b), 0, "no samples");
	const struct pebs_meta *m = pebs_reader_meta(rd);
	cr_assert_str_eq(pebs_meta_get(m, "source"), "perf");
	cr_assert_str_eq(pebs_meta_get(m, "events.0.name"),
			 "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_not_null(pebs_meta_get(m, "events.0.evtsel"));
	cr_assert_null(pebs_meta_get(m, "events.0.counter"));
	cr_assert_null(pebs_meta_get(m, "plan.0.msr"));
	pebs_reader_close(rd);
	unlink(out);
}

/* Sends SIGWINCH to the -- COMMAND of the capture whose stats are @arg,
 * every millisecond from its fork until cmd_status is set. */
static void *winch_burst(void *arg)
{
	volatile struct pebs_capture_stats *st = arg;

	while (st->cmd_pid <= 0)
		usleep(100);
	for (int i = 0; i < 3000 && st->cmd_status == -1; i++) {
		kill(st->cmd_pid, SIGWINCH);
		usleep(1000);
	}
	return NULL;
}

/* A signal to the -- COMMAND held before its exec while perf opens its
 * events (Ctrl-C, even SIGWINCH to the process group) does not hang the
 * capture: the command was traced while held, stopped at the signal,
 * and the capture waited for its exec without answering the stop.  Its
 * stops from its release to its exec are answered too (the burst). */
Test(capture_pipe, perf_command_signalled_while_held)
{
	char err[512], out[32];
	struct pebs_capture_stats st;
	pthread_t t;
	int r;

	tu_deadline(20);
	if (access("/bin/sh", X_OK) != 0)
		cr_skip_test("no sh(1)");
	for (int k = 0; k < 2; k++) {
		strcpy(out, "/tmp/pebs-perfsig-XXXXXX");
		memset(&fp_, 0, sizeof(fp_));
		memset(&st, 0, sizeof(st));
		st.cmd_status = -1;
		fp_.sig = SIGWINCH;
		if (k)
			cr_assert_eq(pthread_create(&t, NULL, winch_burst,
						    &st), 0);
		r = fake_perf_command(out, &st, err, sizeof(err));
		if (k)
			pthread_join(t, NULL);
		unlink(out);
		cr_assert_eq(r, 0, "%s", err);
		cr_assert_eq(fp_.n, 1);
		cr_assert(WIFEXITED(st.cmd_status) &&
			  WEXITSTATUS(st.cmd_status) == 3, "status 0x%x",
			  st.cmd_status);
	}
}

/* -b perf refuses pmc= (the kernel assigns the counters) before it looks
 * at the machine; -b sim takes it. */
Test(capture_pipe, perf_refuses_pmc)
{
	char err[512];
	static const char *const ev[] = { "load-latency:pmc=1" };
	struct pebs_capture_opts o = { .backend = "perf", .events = ev,
				       .nevents = 1, .duration = 0.01 };

	cr_assert_eq(capture_null(&o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "-e load-latency:pmc=1: pmc= does not apply "
			 "to -b perf: the kernel assigns the counters (-b msr "
			 "and -b sim take it)");
	o.backend = "sim";
	o.workload = "mixed";
	cr_assert_eq(capture_null(&o, err, sizeof(err)), 0, "%s", err);
}

/* A -C CPU that is not online is a usage error naming it and the online
 * CPUs, before anything is programmed (msr: no /dev/cpu/N/msr error). */
Test(capture_pipe, hw_cpus_not_online)
{
	char root[64], err[512];
	struct pebs_capture_opts o;

	online_root(root, sizeof(root), "0-1,3-4\\n", &o);
	o.cpus = "0,2";
	cr_assert_eq(capture_null(&o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "-C: CPU 2 is not online (online: 0-1,3-4)");
	o.backend = "perf";
	o.devroot = root;
	o.cpus = "7";
	cr_assert_eq(capture_null(&o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "-C: CPU 7 is not online (online: 0-1,3-4)");
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}
