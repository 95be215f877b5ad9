/*
 * perf.data writer -> parser round trips: every sample_type variant the
 * parser must skip or read (IDENTIFIER vs ID, WEIGHT vs WEIGHT_STRUCT,
 * PHYS_ADDR, READ/CALLCHAIN/RAW/BRANCH_STACK/REGS/STACK/AUX bodies), both
 * byte orders, file and pipe layouts, several events, lost records,
 * reordering within FINISHED_ROUND windows, and damaged files (every
 * truncation point, random corruption): complete records, then an error,
 * never a crash.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_perf.h"
#include "pebs_uarch.h"

static uint64_t rs = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static const char *const evnames[] = { "load-latency", "precise-store",
				       "r1cd" };

static void make_sample(struct pebs_sample *s, size_t i, uint64_t time)
{
	memset(s, 0, sizeof(*s));
	s->time = time;
	s->cpu = (uint32_t)(rnd() % 64);
	s->pid = (uint32_t)(rnd() % 100000);
	s->tid = s->pid + (uint32_t)(rnd() % 10);
	s->ip = rnd();
	s->addr = rnd();
	s->lat = (uint32_t)rnd();
	s->ins_lat = (uint32_t)(rnd() & 0xffff);
	s->dsrc = rnd() & 0x3fffffffffffull;
	s->phys_addr = rnd();
	s->tsx = rnd();
	s->event = (uint32_t)(i % 3);
}

/* Writes @n samples (times @times) and @nlost lost records; returns fp. */
static FILE *write_file(const struct pebs_perf_writer_opts *o,
			const struct pebs_sample *s, size_t n, int with_meta)
{
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	struct pebs_meta *m = pebs_meta_new();
	if (with_meta) {
		pebs_meta_set(m, "host", "testhost");
		pebs_meta_set(m, "topology.nr_cpus", "64");
		pebs_meta_set(m, "topology.node.0.cpus", "0-31");
		pebs_meta_set(m, "topology.node.1.cpus", "32-63");
		pebs_meta_set(m, "cpu.vendor", "GenuineIntel");
		pebs_meta_set(m, "cpu.family", "6");
		pebs_meta_set(m, "cpu.model", "85");
		pebs_meta_set(m, "cpu.stepping", "4");
		pebs_meta_set(m, "maps.0.pid", "1234");
		pebs_meta_set(m, "maps.0.start", "0x400000");
		pebs_meta_set(m, "maps.0.end", "0x401000");
		pebs_meta_set(m, "maps.0.pgoff", "0x0");
		pebs_meta_set(m, "maps.0.path", "/usr/bin/test");
		pebs_meta_set(m, "maps.0.build_id",
			      "0123456789abcdef0123456789abcdef01234567");
		pebs_meta_set(m, "comm.1234", "test");
		/* threads: sampled ones are read back, not the idle one */
		pebs_meta_set(m, "comm.1234.1235", "worker-1");
		pebs_meta_set(m, "comm.1234.1236", "worker-2");
		pebs_meta_set(m, "comm.1234.1240", "idle");
	}
	struct pebs_perf_writer *w;
	cr_assert_eq(pebs_perf_writer_open(&w, fp, m, o), 0, "%s",
		     pebs_perf_writer_errmsg(w));
	pebs_meta_free(m);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(pebs_perf_writer_add(w, &s[i],
						  evnames[s[i].event]), 0,
			     "%s", pebs_perf_writer_errmsg(w));
		if (i == n / 2)
			cr_assert_eq(pebs_perf_writer_lost(w, 3, s[i].time, 7),
				     0);
	}
	char err[256];
	cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0, "%s",
		     err);
	fflush(fp);
	rewind(fp);
	return fp;
}

static int cmp_time(const void *a, const void *b)
{
	const struct pebs_sample *x = a, *y = b;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* Reads @fp back; every sample must equal @want (sorted) in the fields
 * sample_type @st carries. */
static void check_read(FILE *fp, const struct pebs_sample *want, size_t n,
		       uint64_t st, int expect_lost)
{
	struct pebs_perf_reader *r;
	int e = pebs_perf_reader_open(&r, fp, "t", NULL);
	cr_assert_eq(e, 0, "open: %s", pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	size_t i = 0;
	uint64_t lost = 0;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		if (it.kind == PEBS_PERF_LOST) {
			lost += it.lost;
			if (st & PEBS_PERF_S_CPU)
				cr_expect_eq(it.cpu, 3);
			continue;
		}
		cr_assert_lt(i, n);
		const struct pebs_sample *s = &it.s, *w = &want[i];
		cr_expect_str_eq(it.event, evnames[w->event], "sample %zu", i);
		if (st & PEBS_PERF_S_TIME)
			cr_expect_eq(s->time, w->time, "sample %zu", i);
		if (st & PEBS_PERF_S_IP)
			cr_expect_eq(s->ip, w->ip);
		if (st & PEBS_PERF_S_TID) {
			cr_expect_eq(s->pid, w->pid);
			cr_expect_eq(s->tid, w->tid);
		}
		if (st & PEBS_PERF_S_ADDR)
			cr_expect_eq(s->addr, w->addr);
		if (st & PEBS_PERF_S_CPU)
			cr_expect_eq(s->cpu, w->cpu);
		if (st & PEBS_PERF_S_DATA_SRC)
			cr_expect_eq(s->dsrc, w->dsrc);
		if (st & PEBS_PERF_S_WEIGHT_STRUCT) {
			cr_expect_eq(s->lat, w->lat);
			cr_expect_eq(s->ins_lat, w->ins_lat);
		} else if (st & PEBS_PERF_S_WEIGHT) {
			cr_expect_eq(s->lat, w->lat);
			cr_expect_eq(s->ins_lat, 0);
		}
		if (st & PEBS_PERF_S_PHYS_ADDR) {
			cr_expect_eq(s->phys_addr, w->phys_addr);
			cr_expect(s->flags & PEBS_SF_PHYS);
		} else {
			cr_expect_eq(s->flags & PEBS_SF_PHYS, 0);
		}
		if (st & PEBS_PERF_S_TRANSACTION) {
			/* the tuning field's flags are what perf keeps
			 * (no AX without registers: no abort code) */
			cr_expect_eq(s->tsx, w->tsx & 0xff00000000ull);
			cr_expect_eq(s->regs[PEBS_REG_RAX], 0);
		}
		i++;
	}
	cr_assert_eq(e, 0, "next: %s", pebs_perf_reader_errmsg(r));
	cr_assert_eq(i, n);
	if (expect_lost)
		cr_expect_eq(lost, 7);
	pebs_perf_reader_close(r);
}

/*
 * pebs_perf_reader_read() (bulk, @cap samples per batch) must give what
 * pebs_perf_reader_next() gives: the same samples in the same order, lost
 * records at the same places, the same final status.  @buf is a whole
 * file; returns the number of samples.
 */
static void *slurp(FILE *fp, size_t *n);

static size_t check_bulk(const void *buf, size_t len, size_t cap)
{
	struct pebs_perf_reader *r1, *r2;
	int o1 = pebs_perf_reader_open_mem(&r1, buf, len, NULL);
	int o2 = pebs_perf_reader_open_mem(&r2, buf, len, NULL);
	cr_assert_eq(o1, o2);
	if (o1 < 0) {
		pebs_perf_reader_close(r1);
		pebs_perf_reader_close(r2);
		return 0;
	}
	struct pebs_batch *b = pebs_batch_new(cap);
	cr_assert_not_null(b);
	struct pebs_perf_item it, bit;
	size_t n = 0, j = 0;
	int e1, e2 = 0, more = 1;
	bit.kind = 0;
	pebs_batch_reset(b);
	while ((e1 = pebs_perf_reader_next(r1, &it)) > 0) {
		/* refill the bulk side once its batch is used up */
		while (j == b->n && bit.kind != PEBS_PERF_LOST &&
		       bit.kind != PEBS_PERF_SEGMENT && more) {
			pebs_batch_reset(b);
			j = 0;
			e2 = pebs_perf_reader_read(r2, b, &bit);
			more = e2 > 0 || bit.kind == PEBS_PERF_LOST ||
			       bit.kind == PEBS_PERF_SEGMENT;
		}
		if (it.kind == PEBS_PERF_SEGMENT) {
			cr_assert_eq(j, b->n, "segment %zu early", n);
			cr_assert_eq(bit.kind, PEBS_PERF_SEGMENT, "sample %zu",
				     n);
			bit.kind = 0;
			continue;
		}
		if (it.kind == PEBS_PERF_LOST) {
			cr_assert_eq(j, b->n, "lost record %zu early", n);
			cr_assert_eq(bit.kind, PEBS_PERF_LOST, "sample %zu", n);
			cr_expect_eq(bit.lost, it.lost);
			cr_expect_eq(bit.cpu, it.cpu);
			cr_expect_eq(bit.time, it.time);
			bit.kind = 0;
			continue;
		}
		cr_assert_lt(j, b->n, "bulk read ended at sample %zu", n);
		struct pebs_sample s;
		pebs_batch_get(b, j, &s);
		cr_expect_str_eq(pebs_batch_event(b, j), it.event);
		s.event = it.s.event;
		cr_assert_eq(memcmp(&s, &it.s, sizeof(s)), 0,
			     "sample %zu differs", n);
		j++;
		n++;
	}
	/* the bulk side ends where the item side does */
	while (j == b->n && bit.kind != PEBS_PERF_LOST && more) {
		pebs_batch_reset(b);
		j = 0;
		e2 = pebs_perf_reader_read(r2, b, &bit);
		more = e2 > 0;
	}
	cr_expect_eq(j, b->n, "bulk read has more samples");
	cr_expect_eq(e1 < 0 ? e1 : 0, e2 < 0 ? e2 : 0);
	pebs_batch_free(b);
	pebs_perf_reader_close(r1);
	pebs_perf_reader_close(r2);
	return n;
}

#define BASE (PEBS_PERF_S_IP | PEBS_PERF_S_TID | PEBS_PERF_S_TIME | \
	      PEBS_PERF_S_ADDR | PEBS_PERF_S_CPU | PEBS_PERF_S_DATA_SRC)

static const uint64_t variants[] = {
	0,	/* the writer's default */
	BASE | PEBS_PERF_S_ID | PEBS_PERF_S_WEIGHT_STRUCT,  /* perf c2c */
	BASE | PEBS_PERF_S_ID | PEBS_PERF_S_PERIOD | PEBS_PERF_S_WEIGHT,
	BASE | PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_WEIGHT |
		PEBS_PERF_S_PHYS_ADDR,
	BASE | PEBS_PERF_S_ID | PEBS_PERF_S_STREAM_ID | PEBS_PERF_S_READ |
		PEBS_PERF_S_CALLCHAIN | PEBS_PERF_S_RAW |
		PEBS_PERF_S_BRANCH_STACK | PEBS_PERF_S_REGS_USER |
		PEBS_PERF_S_STACK_USER | PEBS_PERF_S_WEIGHT_STRUCT |
		PEBS_PERF_S_TRANSACTION | PEBS_PERF_S_REGS_INTR |
		PEBS_PERF_S_PHYS_ADDR | PEBS_PERF_S_CGROUP |
		PEBS_PERF_S_DATA_PAGE_SIZE | PEBS_PERF_S_CODE_PAGE_SIZE |
		PEBS_PERF_S_AUX,
	PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP | PEBS_PERF_S_TIME,
};

Test(perf_roundtrip, sample_types_orders_layouts)
{
	enum { N = 700 };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 1000000 + i * 1000);
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		for (int be = 0; be < 2; be++) {
			for (int pipe = 0; pipe < 2; pipe++) {
				struct pebs_perf_writer_opts o = {
					.sample_type = variants[v],
					.big_endian = be, .pipe = pipe,
					.round = 100,
				};
				FILE *fp = write_file(&o, s, N, v & 1);
				uint64_t st = variants[v] ? variants[v] :
					BASE | PEBS_PERF_S_WEIGHT_STRUCT |
					PEBS_PERF_S_PHYS_ADDR;
				check_read(fp, s, N, st, 1);
				size_t len;
				void *all = slurp(fp, &len);
				cr_expect_eq(check_bulk(all, len, 37), N);
				cr_expect_eq(check_bulk(all, len, 65536), N);
				free(all);
				fclose(fp);
			}
		}
	}
}

/*
 * perf's weight structure holds the instruction latency in 16 bits: a
 * longer one is saturated, not wrapped (65536 read back as 0 once).  The
 * latency (var1, 32 bits, or the whole u64 of plain WEIGHT) is kept whole.
 */
Test(perf_roundtrip, weight_saturates_ins_lat)
{
	static const uint32_t ins[] = { 0, 1, 65535, 65536, 70000,
					UINT32_MAX };
	enum { N = sizeof(ins) / sizeof(ins[0]) };
	static const uint64_t st[] = {
		0,
		BASE | PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_WEIGHT,
	};
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++) {
		make_sample(&s[i], 0, 100 + i);
		s[i].ins_lat = ins[i];
		s[i].lat = i & 1 ? UINT32_MAX : ins[i];
	}
	for (size_t v = 0; v < 2; v++)
		for (int mode = 0; mode < 4; mode++) {
			struct pebs_perf_writer_opts o = {
				.sample_type = st[v], .pipe = mode & 1,
				.big_endian = mode >> 1 };
			FILE *fp = write_file(&o, s, N, 0);
			struct pebs_perf_reader *r;
			struct pebs_perf_item it;
			cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL),
				     0);
			size_t i = 0;
			while (pebs_perf_reader_next(r, &it) > 0) {
				if (it.kind != PEBS_PERF_SAMPLE)
					continue;
				cr_assert_lt(i, N);
				cr_expect_eq(it.s.lat, s[i].lat, "sample %zu",
					     i);
				uint32_t want = v ? 0 : ins[i] > 65535 ?
						65535 : ins[i];
				cr_expect_eq(it.s.ins_lat, want,
					     "v %zu mode %d: ins_lat %u read "
					     "as %u", v, mode, ins[i],
					     it.s.ins_lat);
				i++;
			}
			cr_expect_eq(i, N);
			pebs_perf_reader_close(r);
			fclose(fp);
		}
}

/*
 * Writes @n samples of event "load-latency" (one by one, or as one batch)
 * with metadata @m; returns the sample_type the file gives the event and
 * checks the physical addresses read back against @s (or 0 and no
 * PEBS_SF_PHYS when the type lacks PHYS_ADDR).
 */
static uint64_t phys_file(const struct pebs_sample *s, size_t n,
			  const struct pebs_meta *m, int pipe, int batch)
{
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	struct pebs_perf_writer_opts o = { .pipe = pipe };
	struct pebs_perf_writer *w;
	cr_assert_eq(pebs_perf_writer_open(&w, fp, m, &o), 0);
	if (batch) {
		struct pebs_batch *b = pebs_batch_new(n);
		int ev = pebs_batch_intern(b, "load-latency");
		for (size_t i = 0; i < n; i++) {
			struct pebs_sample t = s[i];
			t.event = (uint32_t)ev;
			cr_assert_eq(pebs_batch_push(b, &t), 0);
		}
		cr_assert_eq(pebs_perf_writer_add_batch(w, b), 0);
		pebs_batch_free(b);
	} else {
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(pebs_perf_writer_add(w, &s[i],
							  "load-latency"), 0);
	}
	cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
	rewind(fp);
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL), 0);
	const char *v = pebs_meta_get(pebs_perf_reader_meta(r),
				      "events.0.perf.sample_type");
	cr_assert_not_null(v);
	uint64_t st = strtoull(v, NULL, 0);
	struct pebs_perf_item it;
	size_t i = 0;
	while (pebs_perf_reader_next(r, &it) > 0) {
		cr_assert_lt(i, n);
		if (st & PEBS_PERF_S_PHYS_ADDR) {
			cr_expect_eq(it.s.phys_addr, s[i].phys_addr);
			cr_expect(it.s.flags & PEBS_SF_PHYS);
		} else {
			cr_expect_eq(it.s.phys_addr, 0);
			cr_expect_eq(it.s.flags & PEBS_SF_PHYS, 0);
		}
		i++;
	}
	cr_expect_eq(i, n);
	pebs_perf_reader_close(r);
	fclose(fp);
	return st;
}

/*
 * The default sample_type has PHYS_ADDR only when the input has physical
 * addresses: flagged or non-zero in the first sample (or anywhere in the
 * first batch), or an event of the metadata that recorded them.  Every
 * sample carried phys_addr 0 before, shown by perf script -F phys_addr.
 */
Test(perf_roundtrip, phys_addr_only_when_input_has_it)
{
	enum { N = 10 };
	struct pebs_sample s[N];
	struct pebs_meta *none = pebs_meta_new();
	struct pebs_meta *perf = pebs_meta_new();
	cr_assert_eq(pebs_meta_set(perf, "events.0.name", "load-latency"), 0);
	cr_assert_eq(pebs_meta_set(perf, "events.0.perf.sample_type",
				   "0x80000"), 0);
	for (int mode = 0; mode < 4; mode++) {
		int pipe = mode & 1, batch = mode >> 1;
		for (size_t i = 0; i < N; i++) {
			make_sample(&s[i], 0, 100 + i);
			s[i].phys_addr = 0;
		}
		/* none at all: no PHYS_ADDR */
		uint64_t st = phys_file(s, N, none, pipe, batch);
		cr_expect_eq(st & PEBS_PERF_S_PHYS_ADDR, 0, "mode %d", mode);
		cr_expect(st & PEBS_PERF_S_WEIGHT_STRUCT);
		/* the metadata says so: PHYS_ADDR, even with zeros */
		st = phys_file(s, N, perf, pipe, batch);
		cr_expect(st & PEBS_PERF_S_PHYS_ADDR, "mode %d", mode);
		/* the first sample flags a (zero) physical address */
		s[0].flags = PEBS_SF_PHYS;
		st = phys_file(s, N, none, pipe, batch);
		cr_expect(st & PEBS_PERF_S_PHYS_ADDR, "mode %d", mode);
		/* a non-zero one, late in the first batch */
		s[0].flags = 0;
		s[7].phys_addr = 0x1234000;
		st = phys_file(s, N, none, pipe, batch);
		cr_expect_eq(!!(st & PEBS_PERF_S_PHYS_ADDR), batch,
			     "mode %d", mode);
		/* in the first sample */
		s[0].phys_addr = 0x5678000;
		st = phys_file(s, N, none, pipe, batch);
		cr_expect(st & PEBS_PERF_S_PHYS_ADDR, "mode %d", mode);
	}
	pebs_meta_free(none);
	pebs_meta_free(perf);
}

/*
 * Samples without an event name go to perf as an event called "pebs" (perf
 * shows an empty name as ":") and come back without one; they were read
 * back as "pebs" once, and shared the event of one really called "pebs".
 * That one (here with attributes from the metadata) keeps its name.
 */
Test(perf_roundtrip, unnamed_event_round_trips)
{
	static const char *const ev[] = { "load-latency", "", "pebs", NULL,
					  "" };
	static const char *const want[] = { "load-latency", "", "pebs", "",
					    "" };
	enum { N = sizeof(ev) / sizeof(ev[0]) };
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_meta_set(m, "events.0.name", "pebs"), 0);
	cr_assert_eq(pebs_meta_set(m, "events.0.evtsel", "0x1cd"), 0);
	cr_assert_eq(pebs_meta_set(m, "events.0.ldlat", "30"), 0);
	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *fp = tmpfile();
		cr_assert_not_null(fp);
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		struct pebs_perf_writer *w;
		cr_assert_eq(pebs_perf_writer_open(&w, fp, m, &o), 0);
		for (size_t i = 0; i < N; i++) {
			struct pebs_sample s;
			make_sample(&s, 0, 100 + i);
			cr_assert_eq(pebs_perf_writer_add(w, &s, ev[i]), 0);
		}
		cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
		rewind(fp);
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL), 0);
		cr_expect_eq(pebs_perf_reader_nevents(r), 3, "pipe %d", pipe);
		const struct pebs_meta *rm = pebs_perf_reader_meta(r);
		cr_expect_str_eq(pebs_meta_get(rm, "events.0.name"), "pebs");
		cr_expect_str_eq(pebs_meta_get(rm, "events.0.perf.config"),
				 "0x1cd");
		struct pebs_perf_item it;
		size_t i = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			cr_assert_lt(i, N);
			cr_expect_str_eq(it.event, want[i], "pipe %d sample %zu",
					 pipe, i);
			i++;
		}
		cr_expect_eq(i, N);
		pebs_perf_reader_close(r);
		fclose(fp);
	}
	pebs_meta_free(m);
}

/* Samples out of order within each round come out sorted. */
Test(perf_roundtrip, rounds_are_sorted)
{
	enum { N = 1000, R = 100 };
	struct pebs_sample s[N], sorted[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 5000000 + i * 10);
	/* shuffle within each window of R written between two rounds */
	for (size_t b = 0; b < N; b += R)
		for (size_t i = R - 1; i > 0; i--) {
			size_t j = rnd() % (i + 1);
			struct pebs_sample t = s[b + i];
			s[b + i] = s[b + j];
			s[b + j] = t;
		}
	memcpy(sorted, s, sizeof(s));
	qsort(sorted, N, sizeof(sorted[0]), cmp_time);
	struct pebs_perf_writer_opts o = { .round = R, .reorder = 1 };
	FILE *fp = write_file(&o, s, N, 0);
	check_read(fp, sorted, N, BASE | PEBS_PERF_S_WEIGHT_STRUCT |
		   PEBS_PERF_S_PHYS_ADDR, 1);
	fclose(fp);
}

/*
 * Metadata survives writer -> parser (topology, cpuid, maps, build id,
 * process and thread names).
 */
Test(perf_roundtrip, metadata)
{
	struct pebs_sample s[3];
	for (size_t i = 0; i < 3; i++) {
		make_sample(&s[i], i, 100 + i);
		s[i].pid = 1234;
		s[i].tid = 1234 + (uint32_t)i;
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		FILE *fp = write_file(&o, s, 3, 1);
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL), 0);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		cr_expect_str_eq(pebs_meta_get(m, "host"), "testhost");
		cr_expect_str_eq(pebs_meta_get(m, "uarch"), "skx");
		cr_expect_str_eq(pebs_meta_get(m, "topology.node.1.cpus"),
				 "32-63");
		cr_expect_str_eq(pebs_meta_get(m, "topology.nr_cpus"), "64");
		cr_expect_str_eq(pebs_meta_get(m, "maps.0.path"),
				 "/usr/bin/test");
		cr_expect_str_eq(pebs_meta_get(m, "maps.0.start"), "0x400000");
		cr_expect_str_eq(pebs_meta_get(m, "maps.0.end"), "0x401000");
		cr_expect_str_eq(pebs_meta_get(m, "maps.0.build_id"),
			"0123456789abcdef0123456789abcdef01234567");
		cr_expect_str_eq(pebs_meta_get(m, "comm.1234"), "test");
		cr_expect_str_eq(pebs_meta_get(m, "comm.1234.1235"),
				 "worker-1");
		cr_expect_str_eq(pebs_meta_get(m, "comm.1234.1236"),
				 "worker-2");
		cr_expect_null(pebs_meta_get(m, "comm.1234.1240"));
		cr_expect_null(pebs_meta_get(m, "comm.1234.1234"));
		cr_expect_str_eq(pebs_meta_get(m, "events.2.name"), "r1cd");
		pebs_perf_reader_close(r);
		fclose(fp);
	}
}

/*
 * A thread the metadata does not name (a capture's comm.PID only: it saw
 * the threads alive when it looked, a sim capture none) gets a COMM of its
 * process's name at its first sample: perf showed it as ":TID".  A
 * process without a name gets none.
 */
Test(perf_roundtrip, unnamed_threads_take_the_process_name)
{
	struct pebs_sample s[4];
	static const uint32_t pt[][2] = {
		{ 1234, 1237 }, { 1234, 1238 }, { 1234, 1237 }, { 555, 556 },
	};
	for (size_t i = 0; i < 4; i++) {
		make_sample(&s[i], i, 100 + i);
		s[i].pid = pt[i][0];
		s[i].tid = pt[i][1];
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		FILE *fp = write_file(&o, s, 4, 1);
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL), 0);
		struct pebs_perf_item it;
		size_t n = 0;
		while (pebs_perf_reader_next(r, &it) > 0)
			n += it.kind != PEBS_PERF_LOST;
		cr_expect_eq(n, 4);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		cr_expect_str_eq(pebs_meta_get(m, "comm.1234.1237"), "test",
				 "pipe %d", pipe);
		cr_expect_str_eq(pebs_meta_get(m, "comm.1234.1238"), "test");
		cr_expect_null(pebs_meta_get(m, "comm.555.556"));
		cr_expect_null(pebs_meta_get(m, "comm.555"));
		pebs_perf_reader_close(r);
		fclose(fp);
	}
}

static FILE *mem_file(const void *p, size_t n)
{
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	if (n)
		cr_assert_eq(fwrite(p, 1, n, fp), n);
	fflush(fp);
	rewind(fp);
	return fp;
}

static void *slurp(FILE *fp, size_t *n)
{
	fseek(fp, 0, SEEK_END);
	*n = (size_t)ftell(fp);
	rewind(fp);
	void *p = malloc(*n);
	cr_assert_eq(fread(p, 1, *n, fp), *n);
	return p;
}

/* Reads everything; returns the sample count, *@err the final status. */
static size_t drain(FILE *fp, int *err, int *open_err)
{
	struct pebs_perf_reader *r;
	struct pebs_perf_item it;
	size_t n = 0;
	*open_err = pebs_perf_reader_open(&r, fp, "t", NULL);
	*err = 0;
	if (*open_err == 0) {
		int e;
		while ((e = pebs_perf_reader_next(r, &it)) > 0)
			n += it.kind == PEBS_PERF_SAMPLE;
		*err = e;
	}
	pebs_perf_reader_close(r);
	return n;
}

/* Every truncation point: a prefix of the samples, then an error. */
Test(perf_roundtrip, every_truncation)
{
	enum { N = 40 };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 100 + i);
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pebs_perf_writer_opts o = { .pipe = pipe, .round = 8 };
		FILE *fp = write_file(&o, s, N, 0);
		size_t len;
		uint8_t *all = slurp(fp, &len);
		fclose(fp);
		size_t prev = 0;
		for (size_t cut = 0; cut < len; cut++) {
			FILE *t = mem_file(all, cut);
			int err, oerr;
			size_t got = drain(t, &err, &oerr);
			fclose(t);
			cr_expect_eq(check_bulk(all, cut, 5), oerr ? 0 : got,
				     "cut %zu", cut);
			cr_assert(got <= N);
			if (oerr == 0 && !pipe && cut > 200) {
				/* file layout: the data size in the header
				 * says the file was cut */
				cr_expect_lt(err, 0, "cut %zu", cut);
			}
			if (pipe && oerr == 0) {
				/* a pipe's records come in order: the
				 * prefix never shrinks as the cut grows */
				cr_expect_geq(got, prev, "cut %zu", cut);
				prev = got;
			}
		}
		int err, oerr;
		FILE *t = mem_file(all, len);
		cr_expect_eq(drain(t, &err, &oerr), N);
		cr_expect_eq(err, 0);
		cr_expect_eq(oerr, 0);
		fclose(t);
		free(all);
	}
}

/*
 * A file that shrinks once it is open (rotated, or rewritten by perf) costs
 * nothing read from it: the reader holds its own copy.  A reader that
 * mapped the file died of SIGBUS here.
 */
Test(perf_roundtrip, file_that_shrinks_after_open)
{
	enum { N = 3000 };
	static struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 100 + i);
	struct pebs_perf_writer_opts o = { .round = 64 };
	FILE *fp = write_file(&o, s, N, 0);
	rewind(fp);
	struct pebs_perf_reader *r;
	struct pebs_perf_item it;
	cr_assert_eq(pebs_perf_reader_open(&r, fp, "t", NULL), 0);
	cr_assert_eq(ftruncate(fileno(fp), 0), 0);
	size_t n = 0;
	int e;
	while ((e = pebs_perf_reader_next(r, &it)) > 0)
		n += it.kind == PEBS_PERF_SAMPLE;
	cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
	cr_expect_eq(n, N);
	pebs_perf_reader_close(r);
	fclose(fp);
}

/* Random corruption never crashes (run under ASan in make asan). */
Test(perf_roundtrip, corruption_no_crash)
{
	enum { N = 50 };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 100 + i);
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pebs_perf_writer_opts o = { .pipe = pipe,
						   .big_endian = pipe };
		FILE *fp = write_file(&o, s, N, 1);
		size_t len;
		uint8_t *all = slurp(fp, &len);
		fclose(fp);
		uint8_t *c = malloc(len);
		for (int k = 0; k < 400; k++) {
			memcpy(c, all, len);
			int flips = 1 + (int)(rnd() % 8);
			for (int f = 0; f < flips; f++)
				c[rnd() % len] = (uint8_t)rnd();
			FILE *t = mem_file(c, len);
			int err, oerr;
			cr_assert(drain(t, &err, &oerr) <= 2 * N + 10);
			fclose(t);
		}
		free(c);
		free(all);
	}
}

Test(perf_roundtrip, not_perf_data)
{
	static const char junk[] = "time,cpu,pid\n1,2,3\n";
	int err, oerr;
	FILE *t = mem_file(junk, sizeof(junk) - 1);
	cr_expect_eq(drain(t, &err, &oerr), 0);
	cr_expect_eq(oerr, -PEBS_E_FORMAT);
	fclose(t);
	t = mem_file("", 0);
	cr_expect_eq(drain(t, &err, &oerr), 0);
	cr_expect_eq(oerr, -PEBS_E_FORMAT);
	fclose(t);
	cr_expect(pebs_perf_probe("PERFILE2", 8));
	cr_expect(pebs_perf_probe("2ELIFREP", 8));
	cr_expect(!pebs_perf_probe("PERFFILE", 8));
}

/*
 * A file whose header claims more data than the file holds (as when a
 * copy was cut short) and with a broken record (size 0) before the end:
 * reading stops at the first damage in file order, with the samples
 * before it.
 */
Test(perf_roundtrip, damage_before_cut)
{
	enum { N = 60 };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, 100 + i);
	struct pebs_perf_writer_opts o = { .round = 1000 };
	FILE *fp = write_file(&o, s, N, 0);
	size_t len;
	uint8_t *all = slurp(fp, &len);
	fclose(fp);
	/* walk the data section to its 31st record (sizes at +6) */
	size_t off = 104;
	for (int k = 0; k < 30; k++) {
		uint16_t sz;
		memcpy(&sz, all + off + 6, 2);
		cr_assert_geq(sz, 8);
		off += sz;
	}
	memset(all + off + 6, 0, 2);
	uint64_t big = (uint64_t)len * 2;	/* header: data.size */
	memcpy(all + 48, &big, 8);
	FILE *t = mem_file(all, len);
	int err, oerr;
	size_t got = drain(t, &err, &oerr);
	fclose(t);
	cr_expect_eq(oerr, 0);
	cr_expect_eq(err, -PEBS_E_CORRUPT);
	cr_expect_eq(got, 30, "samples before the damage: %zu", got);
	free(all);
}

/* ------------------------------------------- events of different layouts */

struct sbuf {
	uint8_t b[8192];
	size_t n;
};

static void put64(struct sbuf *s, uint64_t v)
{
	cr_assert_leq(s->n + 8, sizeof(s->b));
	memcpy(s->b + s->n, &v, 8);
	s->n += 8;
}

static void put32x2(struct sbuf *s, uint32_t a, uint32_t b)
{
	put64(s, (uint64_t)b << 32 | a);
}

/* Starts a record of @type; end_rec() fills in its size. */
static size_t begin_rec(struct sbuf *s, uint32_t type)
{
	size_t at = s->n;
	put32x2(s, type, 0);
	return at;
}

static void end_rec(struct sbuf *s, size_t at)
{
	uint16_t sz = (uint16_t)(s->n - at);
	memcpy(s->b + at + 6, &sz, 2);
}

/* The 64-byte attr of a raw event of precise_ip @precise. */
static void put_attr_fields(struct sbuf *s, uint64_t config, uint64_t st,
			    unsigned precise)
{
	put32x2(s, 4, 64);		/* type raw, attr size */
	put64(s, config);
	put64(s, 1);			/* sample_period */
	put64(s, st);
	put64(s, 0);			/* read_format */
	/* flags: sample_id_all, precise_ip */
	put64(s, 1ull << 18 | (uint64_t)(precise & 3) << 15);
	put64(s, 0);			/* wakeup, bp_type */
	put64(s, 0);			/* config1 */
}

/* A pipe-layout HEADER_ATTR of a raw event (64-byte attr, one id) of
 * precise_ip @precise. */
static void put_attr_precise(struct sbuf *s, uint64_t config, uint64_t st,
			     uint64_t id, unsigned precise)
{
	size_t at = begin_rec(s, 64);
	put_attr_fields(s, config, st, precise);
	put64(s, id);
	end_rec(s, at);
}

/* The same, not precise. */
static void put_attr(struct sbuf *s, uint64_t config, uint64_t st,
		     uint64_t id)
{
	put_attr_precise(s, config, st, id, 0);
}

#define S(x) PEBS_PERF_S_##x
/*
 * Four events that share only the id position (IDENTIFIER first, as
 * perf requires of events recorded together) and lay out everything else
 * each its own way: fixed bodies with and without PHYS_ADDR, TID or CPU,
 * a variable one (CALLCHAIN), WEIGHT and WEIGHT_STRUCT.
 */
static const struct {
	uint64_t st, id;
} mixed[] = {
	{ S(IDENTIFIER) | S(IP) | S(TID) | S(TIME) | S(ADDR) | S(CPU) |
	  S(PERIOD) | S(WEIGHT_STRUCT) | S(DATA_SRC) | S(PHYS_ADDR), 11 },
	{ S(IDENTIFIER) | S(IP) | S(TIME) | S(ADDR) | S(CALLCHAIN) |
	  S(WEIGHT) | S(DATA_SRC) | S(TRANSACTION) | S(PHYS_ADDR), 22 },
	{ S(IDENTIFIER) | S(IP) | S(TIME) | S(ADDR) | S(CPU) | S(DATA_SRC),
	  33 },
	{ S(IDENTIFIER) | S(TIME) | S(ADDR) | S(CPU) | S(WEIGHT) |
	  S(PHYS_ADDR), 44 },
};

/* The values sample @i of event @e carries (those its layout has). */
static void mixed_sample(size_t e, size_t i, struct pebs_sample *s)
{
	uint64_t st = mixed[e].st;
	memset(s, 0, sizeof(*s));
	s->time = 1000 + 10 * i + e;
	s->ip = st & S(IP) ? 0x400000 + 16 * i + e : 0;
	s->addr = 0x7f0000 + 64 * i + e;
	if (st & S(TID)) {
		s->pid = 100 + (uint32_t)e;
		s->tid = 200 + (uint32_t)e;
	}
	s->cpu = st & S(CPU) ? 3 + (uint32_t)e : 0;
	if (st & (S(WEIGHT) | S(WEIGHT_STRUCT)))
		s->lat = 30 + (uint32_t)(i + e);
	if (st & S(WEIGHT_STRUCT))
		s->ins_lat = 7;
	s->dsrc = st & S(DATA_SRC) ? 0x68100142ull + e : 0;
	/* a tuning field: abort flags in bits 39:32 */
	s->tsx = st & S(TRANSACTION) ? (uint64_t)(0x40 + i) << 32 : 0;
	if (st & S(PHYS_ADDR)) {
		s->phys_addr = 0x12340000 + 64 * i + e;
		s->flags = PEBS_SF_PHYS;
	}
}

static void put_sample(struct sbuf *b, size_t e, size_t i)
{
	uint64_t st = mixed[e].st;
	struct pebs_sample s;
	mixed_sample(e, i, &s);
	size_t at = begin_rec(b, 9);
	put64(b, mixed[e].id);			/* IDENTIFIER */
	if (st & S(IP))
		put64(b, s.ip);
	if (st & S(TID))
		put32x2(b, s.pid, s.tid);
	put64(b, s.time);
	put64(b, s.addr);
	if (st & S(CPU))
		put32x2(b, s.cpu, 0);
	if (st & S(PERIOD))
		put64(b, 1);
	if (st & S(CALLCHAIN)) {
		put64(b, 2);
		put64(b, 0xffffffff81000000ull);
		put64(b, s.ip);
	}
	if (st & S(WEIGHT_STRUCT))
		put64(b, (uint64_t)s.ins_lat << 32 | s.lat);
	if (st & S(WEIGHT))
		put64(b, s.lat);
	if (st & S(DATA_SRC))
		put64(b, s.dsrc);
	if (st & S(TRANSACTION))
		put64(b, s.tsx >> 32);		/* perf's PERF_TXN_* flags */
	if (st & S(PHYS_ADDR))
		put64(b, s.phys_addr);
	end_rec(b, at);
}

/* A LOST_SAMPLES record in event @e's buffer: its own sample_id trailer. */
static void put_lost(struct sbuf *b, size_t e, uint64_t lost, uint64_t time,
		     uint32_t cpu)
{
	uint64_t st = mixed[e].st;
	size_t at = begin_rec(b, 13);
	put64(b, lost);
	if (st & S(TID))
		put32x2(b, 100, 200);
	put64(b, time);
	if (st & S(CPU))
		put32x2(b, cpu, 0);
	put64(b, mixed[e].id);			/* IDENTIFIER */
	end_rec(b, at);
}
#undef S

/*
 * pebs-import's path for the perf.data @p (@n bytes): the .pebs segments,
 * read back into @got (at most @max samples) and @m (the first one's
 * metadata); with @key, each sample's segment into @segs and the value
 * of @key in its segment's metadata into @vals.  Returns the number of
 * samples.
 */
static size_t import_segs(const void *p, size_t n, struct pebs_sample *got,
			  size_t max, struct pebs_meta *m, const char *key,
			  char (*vals)[16], uint32_t *segs)
{
	FILE *in = mem_file(p, n), *pebs = tmpfile();
	char err[256], path[64];
	int wf, e;
	cr_assert_not_null(pebs);
	cr_assert_eq(pebs_perf_import(in, "t", pebs, NULL, NULL, err,
				      sizeof(err), &wf), 0, "%s", err);
	fclose(in);
	fflush(pebs);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(pebs));
	const char *paths[] = { path };
	struct pebs_reader *rd;
	struct pebs_batch *bt;
	size_t k = 0;
	cr_assert_eq(pebs_reader_open(&rd, paths, 1, NULL), 0);
	while ((e = pebs_reader_next(rd, &bt)) > 0) {
		if (!k)		/* the metadata comes with the first batch */
			cr_assert_eq(pebs_meta_copy(m, pebs_reader_meta(rd)),
				     0);
		const char *v = key ? pebs_meta_get(pebs_reader_meta(rd),
						    key) : NULL;
		for (size_t j = 0; j < bt->n && k < max; j++) {
			if (key) {
				segs[k] = bt->segment;
				snprintf(vals[k], sizeof(vals[k]), "%s",
					 v ? v : "");
			}
			pebs_batch_get(bt, j, &got[k++]);
		}
	}
	cr_expect_eq(e, 0);
	pebs_reader_close(rd);
	fclose(pebs);
	return k;
}

static size_t import_pebs(const void *p, size_t n, struct pebs_sample *got,
			  size_t max, struct pebs_meta *m)
{
	return import_segs(p, n, got, max, m, NULL, NULL, NULL);
}

/*
 * Every field of a sample comes from its own event's sample_type: the
 * physical address and its flag PEBS_SF_PHYS, pid/tid, cpu, weight, data
 * source, transaction, whatever the first event's layout is; and so does
 * the time and cpu of a lost record, from its own sample_id trailer.  Both
 * reader paths (item and bulk) and the import to .pebs agree.
 */
Test(perf_roundtrip, per_event_sample_types)
{
	enum { NE = 4, PER = 5 };
	static struct sbuf b;
	b.n = 0;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);				/* pipe header size */
	for (size_t e = 0; e < NE; e++)
		put_attr(&b, 0x1cd + 0x100 * e, mixed[e].st, mixed[e].id);
	for (size_t i = 0; i < PER; i++) {
		for (size_t e = 0; e < NE; e++)
			put_sample(&b, e, i);
		if (i == 2) {
			put_lost(&b, 1, 5, 1500, 0);
			put_lost(&b, 3, 6, 1600, 9);
		}
	}
	cr_assert_eq(check_bulk(b.b, b.n, 3), NE * PER);
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open_mem(&r, b.b, b.n, NULL), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	size_t n = 0, nlost = 0;
	int e;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		if (it.kind == PEBS_PERF_LOST) {
			/* event 1 has no CPU in its trailer, event 3 has */
			cr_expect_eq(it.lost, nlost ? 6 : 5);
			cr_expect_eq(it.time, nlost ? 1600 : 1500);
			cr_expect_eq(it.cpu, nlost ? 9 : 0);
			nlost++;
			continue;
		}
		/* samples come sorted by time: 1000 + 10 i + e */
		size_t i = n / NE, ev = n % NE;
		struct pebs_sample want;
		mixed_sample(ev, i, &want);
		want.event = (uint32_t)ev;
		cr_expect_eq(memcmp(&it.s, &want, sizeof(want)), 0,
			     "sample %zu (event %zu): time %llu ip 0x%llx "
			     "cpu %u pid %u lat %u dsrc 0x%llx tsx 0x%llx "
			     "phys 0x%llx flags 0x%x", n, ev,
			     (unsigned long long)it.s.time,
			     (unsigned long long)it.s.ip, it.s.cpu, it.s.pid,
			     it.s.lat, (unsigned long long)it.s.dsrc,
			     (unsigned long long)it.s.tsx,
			     (unsigned long long)it.s.phys_addr, it.s.flags);
		char name[16];
		snprintf(name, sizeof(name), "r%zxcd", 1 + ev);
		cr_expect_str_eq(it.event, name);
		n++;
	}
	cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
	cr_expect_eq(n, NE * PER);
	cr_expect_eq(nlost, 2);
	pebs_perf_reader_close(r);

	/* pebs-import's path: the .pebs segment keeps them */
	struct pebs_sample got[NE * PER + 1];
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(import_pebs(b.b, b.n, got, NE * PER + 1, m), NE * PER);
	pebs_meta_free(m);
	for (n = 0; n < NE * PER; n++) {
		struct pebs_sample want;
		mixed_sample(n % NE, n / NE, &want);
		cr_expect_eq(got[n].time, want.time);
		cr_expect_eq(got[n].flags, want.flags, "sample %zu", n);
		cr_expect_eq(got[n].phys_addr, want.phys_addr);
		cr_expect_eq(got[n].cpu, want.cpu);
		cr_expect_eq(got[n].tsx, want.tsx);
	}
}

/*
 * From PEBS format 2 on, Linux (ds.c) gives every PEBS event that is not a
 * load or store latency event the TSX weight as WEIGHT: cycles of the
 * last transactional block, bits 31:0 of the TSX tuning field, not a
 * latency.  The import keeps them there, in `tsx` (beside TRANSACTION's
 * flags), with `lat` and `ins_lat` 0; a latency event's WEIGHT stays
 * `lat`.  Both reader paths (item and bulk) agree.
 */
Test(perf_roundtrip, tsx_weight_of_non_latency_events)
{
#define S(x) PEBS_PERF_S_##x
	static const struct {
		uint64_t config, st;
	} ev[] = {
		/* MEM_INST_RETIRED.ALL_STORES: TSX weight */
		{ 0x82d0, S(IDENTIFIER) | S(TIME) | S(WEIGHT) },
		/* the same with TRANSACTION's flags and WEIGHT_STRUCT */
		{ 0x82d0, S(IDENTIFIER) | S(TIME) | S(WEIGHT_STRUCT) |
			  S(TRANSACTION) },
		/* MEM_TRANS_RETIRED.LOAD_LATENCY: a latency */
		{ 0x01cd, S(IDENTIFIER) | S(TIME) | S(WEIGHT_STRUCT) },
	};
	static const uint64_t weight[] = { 1234, 7ull << 32 | 555,
					   9ull << 32 | 77 };
	static const uint32_t lat[] = { 0, 0, 77 }, ins_lat[] = { 0, 0, 9 };
	static const uint64_t tsx[] = { 1234, 0x2ull << 32 | 555, 0 };
	static struct sbuf b;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);				/* pipe header size */
	for (size_t e = 0; e < 3; e++)
		put_attr_precise(&b, ev[e].config, ev[e].st, 1 + e, 2);
	for (size_t e = 0; e < 3; e++) {
		size_t at = begin_rec(&b, 9);
		put64(&b, 1 + e);		/* IDENTIFIER */
		put64(&b, 100 + e);		/* TIME */
		put64(&b, weight[e]);
		if (ev[e].st & S(TRANSACTION))
			put64(&b, 0x2);		/* PERF_TXN_TRANSACTION */
		end_rec(&b, at);
	}
#undef S
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open_mem(&r, b.b, b.n, NULL), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	size_t n = 0;
	while (pebs_perf_reader_next(r, &it) > 0) {
		cr_assert_lt(n, 3);
		cr_expect_eq(it.s.lat, lat[n], "item %zu: lat %u", n,
			     it.s.lat);
		cr_expect_eq(it.s.ins_lat, ins_lat[n], "item %zu", n);
		cr_expect_eq(it.s.tsx, tsx[n], "item %zu: tsx 0x%llx", n,
			     (unsigned long long)it.s.tsx);
		n++;
	}
	cr_expect_eq(n, 3);
	pebs_perf_reader_close(r);

	struct pebs_sample got[4];
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(import_pebs(b.b, b.n, got, 4, m), 3);
	pebs_meta_free(m);
	for (n = 0; n < 3; n++) {
		cr_expect_eq(got[n].lat, lat[n], "bulk %zu: lat %u", n,
			     got[n].lat);
		cr_expect_eq(got[n].ins_lat, ins_lat[n], "bulk %zu", n);
		cr_expect_eq(got[n].tsx, tsx[n], "bulk %zu: tsx 0x%llx", n,
			     (unsigned long long)got[n].tsx);
	}
}

/* ------------------------------------- cpumode, frequency mode, order */

/* The records of pipe-layout stream @p (@n bytes) of @type, in order. */
static size_t pipe_records(const uint8_t *p, size_t n, uint32_t type,
			   const uint8_t **rec, size_t max)
{
	size_t k = 0;
	for (size_t off = 16; off + 8 <= n;) {
		uint32_t t;
		uint16_t sz;
		memcpy(&t, p + off, 4);
		memcpy(&sz, p + off + 6, 2);
		cr_assert_geq(sz, 8);
		if (t == type && k < max)
			rec[k++] = p + off;
		off += sz;
	}
	return k;
}

static uint16_t rec_misc(const uint8_t *rec)
{
	uint16_t m;
	memcpy(&m, rec + 4, 2);
	return m;
}

static uint64_t rec_u64(const uint8_t *rec, size_t off)
{
	uint64_t v;
	memcpy(&v, rec + 8 + off, 8);
	return v;
}

/*
 * A frequency-mode event (an import of perf record -F) keeps its
 * frequency and the mean period of its samples; the export writes the
 * attr with freq and sample_freq and that period in every sample.  The
 * cpumode comes from the ip (kernel half: KERNEL), EXACT_IP from
 * PEBS_SF_EVENTING_IP, which the import sets from EXACT_IP.
 */
Test(perf_roundtrip, freq_event_and_cpumode)
{
	static struct sbuf b;
#define EV "type1/config=0x0/"	/* cpu-clock, named by the parser */
	const uint64_t st = PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP |
			    PEBS_PERF_S_TID | PEBS_PERF_S_TIME |
			    PEBS_PERF_S_PERIOD;
	const uint64_t per[3] = { 100, 200, 301 };	/* mean 200.33 */
	const uint64_t ip[3] = { 0xffffffff81000010ull, 0x401000,
				 0xffff800000000000ull };
	b.n = 0;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);
	size_t at = begin_rec(&b, 64);
	put32x2(&b, 1, 64);		/* PERF_TYPE_SOFTWARE, attr size */
	put64(&b, 0);			/* cpu-clock */
	put64(&b, 4000);		/* sample_freq */
	put64(&b, st);
	put64(&b, 0);
	put64(&b, 1ull << 18 | 1ull << 10);	/* sample_id_all, freq */
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 7);			/* id */
	end_rec(&b, at);
	for (size_t i = 0; i < 3; i++) {
		at = begin_rec(&b, 9);
		put64(&b, 7);
		put64(&b, ip[i]);
		put32x2(&b, 10, 11);
		put64(&b, 1000 + i);
		put64(&b, per[i]);
		end_rec(&b, at);
		/* misc: KERNEL|EXACT_IP, USER, KERNEL */
		uint16_t misc = i == 0 ? 0x4001 : i == 1 ? 2 : 1;
		memcpy(b.b + at + 4, &misc, 2);
	}
	FILE *in = mem_file(b.b, b.n), *pebs = tmpfile();
	char err[256];
	int wf;
	cr_assert_not_null(pebs);
	cr_assert_eq(pebs_perf_import(in, "freq", pebs, NULL, NULL, err,
				      sizeof(err), &wf), 0, "%s", err);
	fclose(in);
	fflush(pebs);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(pebs));
	const char *paths[] = { path };
	struct pebs_reader *rd;
	struct pebs_batch *bt;
	cr_assert_eq(pebs_reader_open(&rd, paths, 1, NULL), 0);
	struct pebs_sample got[3];
	size_t n = 0;
	int e;
	struct pebs_meta *m = pebs_meta_new();
	while ((e = pebs_reader_next(rd, &bt)) > 0) {
		/* the segment's metadata comes with its first batch */
		if (!n)
			cr_assert_eq(pebs_meta_copy(m, pebs_reader_meta(rd)),
				     0);
		for (size_t j = 0; j < bt->n && n < 3; j++, n++) {
			pebs_batch_get(bt, j, &got[n]);
			cr_expect_str_eq(pebs_batch_event(bt, j), EV);
		}
	}
	cr_expect_eq(e, 0);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(pebs_meta_get(m, "events.0.name"), EV);
	cr_expect_str_eq(pebs_meta_get(m, "events.0.freq"), "4000");
	cr_expect_str_eq(pebs_meta_get(m, "events.0.perf.mean_period"),
			 "200");
	cr_expect_null(pebs_meta_get(m, "events.0.period"));
	/* .pebs -> perf.data (pipe layout, to read the records back) */
	FILE *out = tmpfile();
	struct pebs_perf_writer_opts o = { .pipe = 1 };
	struct pebs_perf_writer *w;
	cr_assert_eq(pebs_perf_writer_open(&w, out, m, &o), 0);
	pebs_meta_free(m);
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(got[i].flags & PEBS_SF_EVENTING_IP,
			     i == 0 ? PEBS_SF_EVENTING_IP : 0);
		cr_assert_eq(pebs_perf_writer_add(w, &got[i], EV), 0);
	}
	cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0, "%s",
		     err);
	pebs_reader_close(rd);
	fclose(pebs);
	size_t len;
	fflush(out);
	rewind(out);
	uint8_t *p = slurp(out, &len);
	fclose(out);
	const uint8_t *rec[8];
	cr_assert_eq(pipe_records(p, len, 64, rec, 8), 1);
	cr_expect_eq(rec_u64(rec[0], 16), 4000);	/* sample_freq */
	cr_expect(rec_u64(rec[0], 40) & 1ull << 10);	/* freq */
	cr_assert_eq(pipe_records(p, len, 9, rec, 8), 3);
	const uint16_t want[3] = { 0x4001, 2, 1 };
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(rec_misc(rec[i]), want[i], "sample %zu", i);
		cr_expect_eq(rec_u64(rec[i], 8), ip[i]);
		cr_expect_eq(rec_u64(rec[i], 56), 200);	/* PERIOD */
	}
	free(p);
#undef EV
}

/*
 * Samples are read in the order they were written, even where time goes
 * backwards (the order of an import is perf's own order of the original):
 * the parser follows perf's round rule, so it sees what perf would.
 * With .reorder, perf (and the parser) sort them instead.
 */
Test(perf_roundtrip, written_order_kept)
{
	const uint64_t t[] = { 10, 20, 5, 30, 25, 25, 7, 40 };
	enum { N = sizeof(t) / sizeof(t[0]) };
	struct pebs_sample s[N], want[N];
	for (size_t i = 0; i < N; i++)
		make_sample(&s[i], i, t[i]);
	memcpy(want, s, sizeof(s));
	for (int reorder = 0; reorder < 2; reorder++) {
		struct pebs_perf_writer_opts o = { .reorder = reorder };
		FILE *fp = write_file(&o, s, N, 0);
		if (reorder)
			qsort(want, N, sizeof(want[0]), cmp_time);
		check_read(fp, want, N, BASE | PEBS_PERF_S_WEIGHT_STRUCT |
			   PEBS_PERF_S_PHYS_ADDR, 1);
		fclose(fp);
	}
}

/* ------------------------------------------------ TSX and TRANSACTION */

/*
 * Writes @n samples of event @ev (NULL: each of its own event, the
 * events.N.name of @m that its `event` id names) with metadata @m and
 * @st (0: the default) as a pipe-layout perf.data; returns it (*@len
 * bytes; free it).
 */
static uint8_t *export_as(const struct pebs_sample *s, size_t n,
			  const struct pebs_meta *m, uint64_t st,
			  const char *ev, int pipe, size_t *len)
{
	FILE *out = tmpfile();
	struct pebs_perf_writer_opts o = { .pipe = pipe, .sample_type = st };
	struct pebs_perf_writer *w;
	char err[256];
	cr_assert_not_null(out);
	cr_assert_eq(pebs_perf_writer_open(&w, out, m, &o), 0);
	for (size_t i = 0; i < n; i++) {
		const char *name = ev;
		if (!name) {	/* the events.N.name its event id names */
			snprintf(err, sizeof(err), "events.%u.name",
				 s[i].event);
			name = pebs_meta_get(m, err);
			cr_assert_not_null(name, "sample %zu: no %s", i, err);
		}
		cr_assert_eq(pebs_perf_writer_add(w, &s[i], name), 0, "%s",
			     pebs_perf_writer_errmsg(w));
	}
	cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0, "%s",
		     err);
	fflush(out);
	rewind(out);
	uint8_t *p = slurp(out, len);
	fclose(out);
	return p;
}

/* The same in the pipe layout. */
static uint8_t *export_perf(const struct pebs_sample *s, size_t n,
			    const struct pebs_meta *m, uint64_t st,
			    const char *ev, size_t *len)
{
	return export_as(s, n, m, st, ev, 1, len);
}

/*
 * perf -> .pebs -> perf gives every TRANSACTION value the kernel can write
 * back exactly: the .pebs holds the tuning field (flags in bits 39:32,
 * cycles unknown: 0) and, for an abort code, the AX bits the kernel read
 * it from (bit 0, bits 31:24); the export derives the value again, with
 * TRANSACTION in the default sample_type because the import's event
 * recorded it.  Values the kernel never writes lose the bits a tuning
 * field and AX cannot give, and the import counts them.
 */
Test(perf_roundtrip, transaction_round_trips)
{
	static const struct {
		uint64_t txn, tsx, rax, back;
	} v[] = {
		{ 0, 0, 0, 0 },
		{ 0x1, 0x100000000, 0, 0x1 },		/* ELISION */
		{ 0x6, 0x600000000, 0, 0x6 },		/* TRANSACTION|SYNC */
		{ 0xff, 0xff00000000, 0, 0xff },
		{ 0x2a00000006, 0x600000000, 0x2a000001, 0x2a00000006 },
		{ 0xff000000a2, 0xa200000000, 0xff000001, 0xff000000a2 },
		{ 0x100000002, 0x200000000, 0x01000001, 0x100000002 },
		/* never from the kernel: bits 31:8, a code without an RTM
		 * abort, a code above 8 bits */
		{ 0x5001, 0x100000000, 0, 0x1 },
		{ 0x2a00000004, 0x400000000, 0, 0x4 },
		{ 0x10000000002, 0x200000000, 0, 0x2 },
	};
	enum { N = sizeof(v) / sizeof(v[0]) };
	const uint64_t st = PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_TIME |
			    PEBS_PERF_S_TRANSACTION;
	static struct sbuf b;
	b.n = 0;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);				/* pipe header size */
	put_attr(&b, 0x1c9, st, 5);		/* RTM_RETIRED.ABORTED */
	for (size_t i = 0; i < N; i++) {
		size_t at = begin_rec(&b, 9);
		put64(&b, 5);
		put64(&b, 100 + i);
		put64(&b, v[i].txn);
		end_rec(&b, at);
	}
	cr_assert_eq(check_bulk(b.b, b.n, 4), N);	/* both paths agree */
	struct pebs_sample got[N];
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(import_pebs(b.b, b.n, got, N, m), N);
	for (size_t i = 0; i < N; i++) {
		cr_expect_eq(got[i].tsx, v[i].tsx, "sample %zu", i);
		cr_expect_eq(got[i].regs[PEBS_REG_RAX], v[i].rax,
			     "sample %zu", i);
		cr_expect_eq(got[i].flags & PEBS_SF_REGS, 0);
	}
	cr_expect_str_eq(pebs_meta_get(m, "perf.txn_lost_samples"), "3");
	size_t len;
	uint8_t *p = export_perf(got, N, m, 0, "r1c9", &len);
	pebs_meta_free(m);
	const uint8_t *rec[N + 1];
	cr_assert_eq(pipe_records(p, len, 9, rec, N + 1), N);
	for (size_t i = 0; i < N; i++) {
		/* the default layout, TRANSACTION after DATA_SRC */
		uint16_t sz;
		memcpy(&sz, rec[i] + 6, 2);
		cr_assert_eq(sz, 8 + 11 * 8);
		cr_expect_eq(rec_u64(rec[i], 80), v[i].back, "sample %zu: "
			     "0x%llx", i,
			     (unsigned long long)rec_u64(rec[i], 80));
	}
	free(p);
}

/*
 * A raw record exported to perf.data gets the TRANSACTION the kernel
 * reports for it (intel_get_tsx_transaction()): the abort flags of the
 * tuning field's bits 39:32, and for an RTM abort with AX bit 0 set the
 * abort code AX[31:24] in bits 39:32; the cycles (bits 31:0) are not part
 * of it.  Without registers (--regs off) AX is unknown: no code.
 */
Test(perf_roundtrip, transaction_from_raw_record)
{
	static const struct {
		uint64_t tuning, ax;
		int drop_regs;
		uint64_t txn;
	} v[] = {
		/* RTM abort + conflict, XABORT 0x7f */
		{ 0x2200001234, 0x7f000001, 0, 0x7f00000022 },
		{ 0x2200001234, 0x7f000000, 0, 0x22 },	/* not an XABORT */
		{ 0x0100000010, 0x7f000001, 0, 0x01 },	/* HLE: no code */
		{ 0x2200001234, 0x7f000001, 1, 0x22 },	/* no AX */
		{ 0xffffff0000000000, 0x7f000001, 0, 0 },  /* reserved bits */
	};
	enum { N = sizeof(v) / sizeof(v[0]) };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++) {
		unsigned char r[192] = { 0 };
		struct pebs_raw_config c = { 0 };
		c.uarch = pebs_uarch_by_name("hsw");
		cr_assert_not_null(c.uarch);
		c.pebs_enabled = 1;
		c.ev[0].name = "RTM_RETIRED.ABORTED";
		c.ev[0].kind = PEBS_EVK_OTHER;
		c.drop_regs = v[i].drop_regs;
		memcpy(r + 0x10, &v[i].ax, 8);		/* RAX */
		uint64_t one = 1;
		memcpy(r + 0x90, &one, 8);		/* status: PMC0 */
		memcpy(r + 0xb8, &v[i].tuning, 8);	/* TSX tuning */
		unsigned nout = 0;
		size_t size;
		char err[200] = "";
		cr_assert_eq(pebs_raw_decode_record(&c, r, sizeof(r), &s[i], 1,
						    &nout, &size, NULL, err,
						    sizeof(err)), 0, "%s", err);
		cr_assert_eq(nout, 1u);
		cr_assert_eq(s[i].tsx, v[i].tuning, "the column is the field");
	}
	const uint64_t st = PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_TRANSACTION;
	size_t len;
	uint8_t *p = export_perf(s, N, NULL, st, "rtm", &len);
	const uint8_t *rec[N + 1];
	cr_assert_eq(pipe_records(p, len, 9, rec, N + 1), N);
	for (size_t i = 0; i < N; i++)
		cr_expect_eq(rec_u64(rec[i], 8), v[i].txn, "record %zu: 0x%llx",
			     i, (unsigned long long)rec_u64(rec[i], 8));
	free(p);
}

/* The two conversions are inverses wherever the kernel could write. */
Test(perf_roundtrip, transaction_conversions)
{
	for (uint64_t f = 0; f < 256; f++) {
		for (uint64_t code = 0; code < 256; code += 17) {
			uint64_t ax = code << 24 | 1, tun, ax2;
			uint64_t txn = pebs_perf_txn_from_tuning(f << 32 |
								 0xabc, ax);
			cr_assert_eq(txn & 0xff, f);
			cr_assert_eq(txn >> 32, (f & 2) ? code : 0);
			cr_assert(pebs_perf_txn_to_tuning(txn, &tun, &ax2));
			cr_assert_eq(tun, f << 32);
			cr_assert_eq(pebs_perf_txn_from_tuning(tun, ax2), txn);
		}
	}
}

/*
 * The export writes WEIGHT as the import reads it (section 1.1 of
 * formats/perf-import.md): a load latency event's `lat` (and `ins_lat` in
 * WEIGHT_STRUCT var2), a precise store's (any non-latency PEBS event's)
 * TSX weight, `tsx` bits 31:0, so that both come back from an import.
 * A decoded .pebs (events with evtsel, no perf attributes) on an Intel
 * CPU, with WEIGHT_STRUCT and with WEIGHT; and perf -> .pebs -> perf ->
 * .pebs of a file that recorded both events with TRANSACTION.  On
 * another vendor's CPU every weight is a latency, both ways.
 */
Test(perf_roundtrip, weight_round_trips_lat_and_tsx)
{
	static const uint64_t sts[] = {
		0,	/* the default: WEIGHT_STRUCT */
		PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_TIME | PEBS_PERF_S_WEIGHT,
	};
	static const char *const vendor[] = { "GenuineIntel", "AuthenticAMD" };
	for (size_t v = 0; v < 2; v++) {
		for (size_t k = 0; k < 2; k++) {
			struct pebs_meta *m = pebs_meta_new();
			pebs_meta_set(m, "cpu.vendor", vendor[v]);
			pebs_meta_set(m, "cpu.family", v ? "25" : "6");
			pebs_meta_set(m, "cpu.model", v ? "1" : "106");
			pebs_meta_set(m, "events.0.name",
				      "MEM_TRANS_RETIRED.LOAD_LATENCY");
			pebs_meta_set(m, "events.0.evtsel", "0x4301cd");
			pebs_meta_set(m, "events.0.ldlat", "3");
			pebs_meta_set(m, "events.1.name",
				      "MEM_INST_RETIRED.ALL_STORES");
			pebs_meta_set(m, "events.1.evtsel", "0x4382d0");
			struct pebs_sample s[2] = { 0 };
			s[0].time = 100;
			s[0].lat = 77;
			s[0].ins_lat = 9;
			s[1].time = 200;
			s[1].event = 1;
			s[1].lat = v ? 66 : 0;	/* AMD: a latency */
			s[1].tsx = v ? 0 : 1234;
			size_t len;
			uint8_t *p = export_perf(s, 2, m, sts[k], NULL,
						 &len);
			pebs_meta_free(m);
			struct pebs_sample got[3];
			m = pebs_meta_new();
			cr_assert_eq(import_pebs(p, len, got, 3, m), 2);
			pebs_meta_free(m);
			free(p);
			for (size_t i = 0; i < 2; i++) {
				cr_expect_eq(got[i].lat, s[i].lat,
					     "%s st %zu sample %zu: lat %u",
					     vendor[v], k, i, got[i].lat);
				cr_expect_eq(got[i].ins_lat,
					     k ? 0 : s[i].ins_lat,
					     "%s st %zu sample %zu", vendor[v],
					     k, i);
				cr_expect_eq(got[i].tsx, s[i].tsx,
					     "%s st %zu sample %zu: tsx 0x%llx",
					     vendor[v], k, i,
					     (unsigned long long)got[i].tsx);
			}
		}
	}

	/* perf.data with both events, TRANSACTION and WEIGHT_STRUCT */
#define S(x) PEBS_PERF_S_##x
	const uint64_t st = S(IDENTIFIER) | S(TIME) | S(WEIGHT_STRUCT) |
			    S(TRANSACTION);
#undef S
	static const uint64_t config[] = { 0x01cd, 0x82d0 };
	static const uint64_t weight[] = { 9ull << 32 | 77, 555 };
	static const uint64_t txn[] = { 0, 0x2a00000006 };
	static struct sbuf b;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);				/* pipe header size */
	for (size_t e = 0; e < 2; e++)
		put_attr_precise(&b, config[e], st, 1 + e, 2);
	for (size_t e = 0; e < 2; e++) {
		size_t at = begin_rec(&b, 9);
		put64(&b, 1 + e);		/* IDENTIFIER */
		put64(&b, 100 + e);		/* TIME */
		put64(&b, weight[e]);
		put64(&b, txn[e]);
		end_rec(&b, at);
	}
	struct pebs_sample one[3], two[3];
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(import_pebs(b.b, b.n, one, 3, m), 2);
	cr_expect_eq(one[0].lat, 77);
	cr_expect_eq(one[0].ins_lat, 9);
	cr_expect_eq(one[1].tsx, 0x600000000ull | 555);
	cr_expect_eq(one[1].regs[PEBS_REG_RAX], 0x2a000001);
	size_t len;
	uint8_t *p = export_perf(one, 2, m, 0, NULL, &len);
	pebs_meta_free(m);
	m = pebs_meta_new();
	cr_assert_eq(import_pebs(p, len, two, 3, m), 2);
	pebs_meta_free(m);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_eq(two[i].lat, one[i].lat, "sample %zu: lat %u", i,
			     two[i].lat);
		cr_expect_eq(two[i].ins_lat, one[i].ins_lat, "sample %zu", i);
		cr_expect_eq(two[i].tsx, one[i].tsx, "sample %zu: tsx 0x%llx",
			     i, (unsigned long long)two[i].tsx);
		cr_expect_eq(two[i].regs[PEBS_REG_RAX],
			     one[i].regs[PEBS_REG_RAX], "sample %zu", i);
	}
	/* and perf gets the kernel's weights back (default layout:
	 * WEIGHT_STRUCT at byte 64 of the body) */
	const uint8_t *rec[3];
	cr_assert_eq(pipe_records(p, len, 9, rec, 3), 2);
	for (size_t i = 0; i < 2; i++)
		cr_expect_eq(rec_u64(rec[i], 64), weight[i], "record %zu: "
			     "0x%llx", i,
			     (unsigned long long)rec_u64(rec[i], 64));
	free(p);
}

/* ------------------------------------------------- several segments */

/*
 * Segment metadata: a process @pid called @comm with the map of @path
 * (build-id @bid), event "ev" of ldlat @ldlat, and clock @unit (NULL:
 * none) at @hz (NULL: none).
 */
static struct pebs_meta *seg_meta(uint32_t pid, const char *comm,
				  const char *path, const char *bid,
				  unsigned ldlat, const char *unit,
				  const char *hz)
{
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	if (unit)
		pebs_meta_set(m, "time.unit", unit);
	if (hz)
		pebs_meta_set(m, "tsc.hz", hz);
	char key[32];
	snprintf(key, sizeof(key), "comm.%u", pid);
	pebs_meta_set(m, key, comm);
	pebs_meta_setf(m, "maps.0.pid", "%u", pid);
	pebs_meta_set(m, "maps.0.start", "0x400000");
	pebs_meta_set(m, "maps.0.end", "0x401000");
	pebs_meta_set(m, "maps.0.path", path);
	pebs_meta_set(m, "maps.0.build_id", bid);
	pebs_meta_set(m, "events.0.name", "ev");
	pebs_meta_set(m, "events.0.evtsel", "0x4301cd");
	pebs_meta_setf(m, "events.0.ldlat", "%u", ldlat);
	return m;
}

#define BID_A "0123456789abcdef0123456789abcdef01234567"
#define BID_B "89abcdef0123456789abcdef0123456789abcdef"

/*
 * A second segment brings its own clock, processes, maps and build-ids:
 * its ticks are converted with its own tsc.hz, its process and thread get
 * its COMM (perf showed ":TID"), its map an MMAP2 and a build-id record
 * before its sample; what the segment before gave already (the same map
 * of the same process, the same build-id) is not written again.
 */
Test(perf_roundtrip, segment_change)
{
	struct pebs_meta *m1 = seg_meta(100, "alpha", "/bin/a", BID_A, 3,
					"ns", NULL);
	struct pebs_meta *m2 = seg_meta(200, "beta", "/bin/b", BID_B, 3,
					"tsc", "2000000000");
	/* and the map of the first segment again */
	pebs_meta_set(m2, "maps.1.pid", "100");
	pebs_meta_set(m2, "maps.1.start", "0x400000");
	pebs_meta_set(m2, "maps.1.end", "0x401000");
	pebs_meta_set(m2, "maps.1.path", "/bin/a");
	pebs_meta_set(m2, "maps.1.build_id", BID_A);
	struct pebs_sample s[2];
	make_sample(&s[0], 0, 1000);
	s[0].pid = 100;
	s[0].tid = 101;
	make_sample(&s[1], 0, 4000);		/* 2000 ns at 2 GHz */
	s[1].pid = 200;
	s[1].tid = 201;
	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *out = tmpfile();
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		struct pebs_perf_writer *w;
		char err[512];
		cr_assert_not_null(out);
		cr_assert_eq(pebs_perf_writer_open(&w, out, m1, &o), 0);
		cr_assert_eq(pebs_perf_writer_add(w, &s[0], "ev"), 0);
		cr_assert_eq(pebs_perf_writer_segment(w, m2), 0, "%s",
			     pebs_perf_writer_errmsg(w));
		cr_assert_eq(pebs_perf_writer_add(w, &s[1], "ev"), 0);
		cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0,
			     "%s", err);
		fflush(out);
		rewind(out);
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open(&r, out, "t", NULL), 0);
		struct pebs_perf_item it;
		uint64_t t[2] = { 0, 0 };
		size_t n = 0;
		while (pebs_perf_reader_next(r, &it) > 0)
			if (it.kind == PEBS_PERF_SAMPLE && n < 2)
				t[n++] = it.s.time;
		cr_expect_eq(n, 2);
		cr_expect_eq(t[0], 1000, "pipe %d: %llu", pipe,
			     (unsigned long long)t[0]);
		cr_expect_eq(t[1], 2000, "pipe %d: %llu", pipe,
			     (unsigned long long)t[1]);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		cr_expect_str_eq(pebs_meta_get(m, "comm.100.101"), "alpha");
		cr_expect_str_eq(pebs_meta_get(m, "comm.200"), "beta");
		cr_expect_str_eq(pebs_meta_get(m, "comm.200.201"), "beta",
				 "pipe %d", pipe);
		pebs_perf_reader_close(r);
		if (pipe) {	/* records, counted */
			size_t len;
			uint8_t *p = slurp(out, &len);
			const uint8_t *rec[16];
			cr_expect_eq(pipe_records(p, len, 10, rec, 16), 2,
				     "one MMAP2 per map");
			cr_expect_eq(pipe_records(p, len, 67, rec, 16), 2,
				     "one build-id per object");
			size_t nc = pipe_records(p, len, 3, rec, 16);
			cr_expect_eq(nc, 4, "COMMs: %zu", nc);
			free(p);
		}
		fclose(out);
	}
	pebs_meta_free(m1);
	pebs_meta_free(m2);
}

/*
 * Segments that call the same process by other names (alpha, beta, then
 * alpha again): each segment's samples go out after its own COMM and
 * before the next segment's, with rounds in between, so that perf (which
 * sorts a round's records by time, and a side record's time is 0) names
 * every sample by its own segment's comm.PID, not the last one.
 */
Test(perf_roundtrip, segments_rename_a_process)
{
	static const char *const names[] = { "alpha", "beta", "alpha" };
	struct pebs_meta *m[3];
	struct pebs_sample s[3];
	for (size_t i = 0; i < 3; i++) {
		m[i] = seg_meta(100, names[i], "/bin/a", BID_A, 3, "ns",
				NULL);
		make_sample(&s[i], i, 1000 * (i + 1));
		s[i].pid = s[i].tid = 100;
	}
	FILE *out = tmpfile();
	struct pebs_perf_writer_opts o = { .pipe = 1 };
	struct pebs_perf_writer *w;
	char err[512];
	cr_assert_not_null(out);
	cr_assert_eq(pebs_perf_writer_open(&w, out, m[0], &o), 0);
	for (size_t i = 0; i < 3; i++) {
		if (i)
			cr_assert_eq(pebs_perf_writer_segment(w, m[i]), 0,
				     "%s", pebs_perf_writer_errmsg(w));
		cr_assert_eq(pebs_perf_writer_add(w, &s[i], "ev"), 0);
	}
	cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0, "%s",
		     err);
	fflush(out);
	size_t len;
	uint8_t *p = slurp(out, &len);
	const uint8_t *comm[8], *smp[8], *round[64];
	cr_assert_eq(pipe_records(p, len, 3, comm, 8), 3, "a COMM each");
	cr_assert_eq(pipe_records(p, len, 9, smp, 8), 3);
	size_t nr = pipe_records(p, len, 68, round, 64);
	for (size_t i = 0; i < 3; i++) {
		uint32_t pid, tid;
		memcpy(&pid, comm[i] + 8, 4);
		memcpy(&tid, comm[i] + 12, 4);
		cr_expect_eq(pid, 100);
		cr_expect_eq(tid, 100);
		cr_expect_str_eq((const char *)comm[i] + 16, names[i]);
		cr_expect(comm[i] < smp[i], "COMM %zu before its sample", i);
		if (i == 0)
			continue;
		cr_expect(smp[i - 1] < comm[i], "sample %zu before COMM %zu",
			  i - 1, i);
		/* a round between: perf is done with the sample before */
		size_t k = 0;
		for (size_t j = 0; j < nr; j++)
			k += round[j] > smp[i - 1] && round[j] < comm[i];
		cr_expect_geq(k, 1, "no round between sample %zu and COMM "
			      "%zu", i - 1, i);
	}
	free(p);
	fclose(out);
	for (size_t i = 0; i < 3; i++)
		pebs_meta_free(m[i]);
}

/*
 * A thread renamed between its samples (pthread_setname_np: a COMM after
 * some of them) is named at each sample as it was then, as perf script
 * names it: the import starts a segment at the rename, whose comm.PID.TID
 * is the new name.  A rename after a thread's last sample (102) or of a
 * process with no samples of its own under its name (100: its threads
 * are named) starts none, and the first segment has the names of the
 * samples' time, not the last ones.
 */
Test(perf_roundtrip, rename_between_samples)
{
	static const char *const n101[] = { "alpha", "beta", "beta" };
	static const char *const n102[] = { "x", "y", "z" };
	static const char *const n100[] = { "main", "main", "main2" };
	static const uint64_t t[] = { 1000, 1500, 2000, 2500, 3000 };
	static const uint32_t tid[] = { 101, 102, 101, 101, 101 };
	static const size_t seg[] = { 0, 0, 1, 1, 2 };	/* written in */
	static const char *const want101[] = { "alpha", "alpha", "beta",
					       "beta", "beta" };
	struct pebs_meta *m[3];
	for (size_t i = 0; i < 3; i++) {
		m[i] = pebs_meta_new();
		cr_assert_not_null(m[i]);
		pebs_meta_set(m[i], "comm.100", n100[i]);
		pebs_meta_set(m[i], "comm.100.101", n101[i]);
		pebs_meta_set(m[i], "comm.100.102", n102[i]);
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *out = tmpfile();
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		struct pebs_perf_writer *w;
		char err[512];
		cr_assert_not_null(out);
		cr_assert_eq(pebs_perf_writer_open(&w, out, m[0], &o), 0);
		for (size_t i = 0; i < 5; i++) {
			struct pebs_sample s;
			if (i && seg[i] != seg[i - 1])
				cr_assert_eq(pebs_perf_writer_segment(w,
					     m[seg[i]]), 0, "%s",
					     pebs_perf_writer_errmsg(w));
			make_sample(&s, i, t[i]);
			s.pid = 100;
			s.tid = tid[i];
			cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
		}
		cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0,
			     "%s", err);
		size_t len;
		uint8_t *p = slurp(out, &len);
		fclose(out);
		/* the item reader */
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open_mem(&r, p, len, NULL), 0);
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			const struct pebs_meta *rm = pebs_perf_reader_meta(r);
			if (it.kind == PEBS_PERF_SEGMENT) {
				cr_expect_eq(n, 2, "pipe %d: segment before "
					     "sample %zu", pipe, n);
				nseg++;
				continue;
			}
			cr_assert_lt(n, 5);
			cr_expect_eq(it.s.tid, tid[n]);
			cr_expect_str_eq(pebs_meta_get(rm, "comm.100.101"),
					 want101[n], "pipe %d sample %zu", pipe,
					 n);
			/* 102 has samples in the first segment only: the
			 * second does not name it */
			if (n < 2)
				cr_expect_str_eq(pebs_meta_get(rm,
						 "comm.100.102"), "x",
						 "pipe %d sample %zu", pipe, n);
			else
				cr_expect_null(pebs_meta_get(rm,
					       "comm.100.102"),
					       "pipe %d sample %zu", pipe, n);
			cr_expect_str_eq(pebs_meta_get(rm, "comm.100"),
					 "main2");
			n++;
		}
		cr_expect_eq(n, 5);
		cr_expect_eq(nseg, 1, "pipe %d: %zu new segments", pipe, nseg);
		pebs_perf_reader_close(r);
		/* the bulk reader, a batch at a time */
		cr_expect_eq(check_bulk(p, len, 1), 5);
		cr_expect_eq(check_bulk(p, len, 100), 5);
		/* and the import: two .pebs segments */
		struct pebs_sample got[6];
		char vals[6][16];
		uint32_t segs[6];
		struct pebs_meta *im = pebs_meta_new();
		cr_assert_eq(import_segs(p, len, got, 6, im, "comm.100.101",
					 vals, segs), 5);
		for (size_t k = 0; k < 5; k++) {
			cr_expect_eq(segs[k], k < 2 ? 0 : 1, "sample %zu", k);
			cr_expect_str_eq(vals[k], want101[k],
					 "import: sample %zu", k);
		}
		pebs_meta_free(im);
		free(p);
	}
	for (size_t i = 0; i < 3; i++)
		pebs_meta_free(m[i]);
}

/* ------------------------------------------------ FORK, swapper, no time */

#define FK_ST (PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP | PEBS_PERF_S_TID | \
	       PEBS_PERF_S_TIME)
#define FK_ID 77

/* The sample_id trailer of a side record of event FK_ST. */
static void fk_trailer(struct sbuf *b, uint32_t pid, uint32_t tid,
		       uint64_t time)
{
	put32x2(b, pid, tid);
	put64(b, time);
	put64(b, FK_ID);
}

static void fk_sample(struct sbuf *b, uint32_t pid, uint32_t tid,
		      uint64_t time)
{
	size_t at = begin_rec(b, 9);
	put64(b, FK_ID);
	put64(b, 0x400000 + time % 0x10000);
	put32x2(b, pid, tid);
	put64(b, time);
	end_rec(b, at);
}

static void fk_comm(struct sbuf *b, uint32_t pid, uint32_t tid,
		    const char *name, int exec, uint64_t time)
{
	size_t at = begin_rec(b, 3);
	if (exec)
		b->b[at + 5] = 0x20;		/* misc COMM_EXEC (bit 13) */
	put32x2(b, pid, tid);
	char c[16] = { 0 };
	snprintf(c, sizeof(c), "%s", name);
	memcpy(b->b + b->n, c, 16);
	b->n += 16;
	fk_trailer(b, pid, tid, time);
	end_rec(b, at);
}

static void fk_fork(struct sbuf *b, uint32_t pid, uint32_t ppid,
		    uint32_t tid, uint32_t ptid, uint64_t time)
{
	size_t at = begin_rec(b, 7);
	put32x2(b, pid, ppid);
	put32x2(b, tid, ptid);
	put64(b, time);
	fk_trailer(b, pid, tid, time);
	end_rec(b, at);
}

/*
 * The records of a recording with forks, an exec, the idle task and
 * untimed samples (time ~0 and 0, which perf delivers as it reads them),
 * in file order, with the name (perf script's), tid and time of each
 * sample in perf's order of delivery.
 */
static const struct fk_want {
	uint32_t pid, tid;
	uint64_t time;
	const char *comm;
} fk_want[] = {
	{ 20, 20, 1100, "bash" },	/* forked, no exec */
	{ 10, 10, 1150, "bash" },
	{ 10, 10, UINT64_MAX, "bash" },	/* untimed: after round 2 */
	{ 10, 10, 0, "bash" },		/* untimed, read last */
	{ 10, 11, 1300, "bash" },	/* a new thread */
	{ 30, 30, 1500, "bash" },	/* forked, before its exec */
	{ 30, 30, 1700, "python" },	/* after its exec */
	{ 0, 0, 1800, "swapper" },	/* the idle task: no COMM */
};

static void fk_records(struct sbuf *b)
{
	fk_comm(b, 10, 10, "bash", 0, 0);	/* synthesized: time 0 */
	fk_fork(b, 20, 10, 20, 10, 1000);
	fk_sample(b, 20, 20, 1100);
	fk_sample(b, 10, 10, 1150);
	put32x2(b, 68, 8 << 16);		/* FINISHED_ROUND */
	fk_fork(b, 10, 10, 11, 10, 1200);
	fk_sample(b, 10, 11, 1300);
	fk_fork(b, 30, 10, 30, 10, 1400);
	fk_sample(b, 30, 30, 1500);
	put32x2(b, 68, 8 << 16);		/* releases up to 1150 */
	fk_sample(b, 10, 10, UINT64_MAX);
	fk_comm(b, 30, 30, "python", 1, 1600);
	fk_sample(b, 30, 30, 1700);
	fk_sample(b, 0, 0, 1800);
	fk_sample(b, 10, 10, 0);
}

/* Recording @rec in the pipe layout (@file 0) or the file layout. */
static void fk_build(struct sbuf *b, int file, void (*rec)(struct sbuf *))
{
	static struct sbuf d;
	d.n = 0;
	rec(&d);
	memcpy(b->b, "PERFILE2", 8);
	b->n = 8;
	if (!file) {
		put64(b, 16);			/* pipe header size */
		put_attr(b, 0x1cd, FK_ST, FK_ID);
	} else {
		/* header, one attr with its ids section, the id, data */
		put64(b, 104);
		put64(b, 80);			/* attr size */
		put64(b, 104);			/* attrs */
		put64(b, 80);
		put64(b, 192);			/* data */
		put64(b, d.n);
		for (int k = 0; k < 6; k++)	/* event types, features */
			put64(b, 0);
		put_attr_fields(b, 0x1cd, FK_ST, 0);
		put64(b, 184);			/* the attr's ids */
		put64(b, 8);
		put64(b, FK_ID);
	}
	cr_assert_leq(b->n + d.n, sizeof(b->b));
	memcpy(b->b + b->n, d.b, d.n);
	b->n += d.n;
}

/* A reader of recording @rec built into @b (fk_build()). */
static struct pebs_perf_reader *fk_open(struct sbuf *b, int file,
					void (*rec)(struct sbuf *))
{
	struct pebs_perf_reader *r;
	b->n = 0;
	fk_build(b, file, rec);
	cr_assert_eq(pebs_perf_reader_open_mem(&r, b->b, b->n, NULL), 0,
		     "%s", pebs_perf_reader_errmsg(r));
	return r;
}

/* A sample's name as the tools take it: comm.PID.TID, else comm.PID. */
static const char *fk_name(const struct pebs_meta *m, uint32_t pid,
			   uint32_t tid)
{
	char k[48];
	snprintf(k, sizeof(k), "comm.%u.%u", pid, tid);
	const char *v = pebs_meta_get(m, k);
	snprintf(k, sizeof(k), "comm.%u", pid);
	return v ? v : pebs_meta_get(m, k) ? pebs_meta_get(m, k) : "";
}

/*
 * As perf script names and orders them: a process forked without exec is
 * named as its parent thread (perf's thread__fork()), and so it is before
 * it execs (a new segment then); the idle task, tid 0, is "swapper"; a
 * sample of time ~0 or 0 comes where perf delivers it, as it is read
 * (ordered_events__queue() queues no such time).  Both layouts, both
 * reader paths, and the import.
 */
Test(perf_roundtrip, fork_names_swapper_untimed)
{
	enum { N = sizeof(fk_want) / sizeof(fk_want[0]) };
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file, fk_records);
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		int e;
		while ((e = pebs_perf_reader_next(r, &it)) > 0) {
			if (it.kind == PEBS_PERF_SEGMENT) {
				cr_expect_eq(n, 6, "file %d: segment before "
					     "sample %zu", file, n);
				nseg++;
				continue;
			}
			cr_assert_lt(n, N);
			const struct fk_want *w = &fk_want[n];
			cr_expect_eq(it.s.time, w->time, "file %d sample %zu: "
				     "time %llu", file, n,
				     (unsigned long long)it.s.time);
			cr_expect_eq(it.s.tid, w->tid, "file %d sample %zu",
				     file, n);
			cr_expect_str_eq(fk_name(pebs_perf_reader_meta(r),
						 it.s.pid, it.s.tid), w->comm,
					 "file %d sample %zu (tid %u)", file,
					 n, it.s.tid);
			n++;
		}
		cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
		cr_expect_eq(n, N);
		cr_expect_eq(nseg, 1, "file %d: %zu new segments", file, nseg);
		pebs_perf_reader_close(r);
		cr_expect_eq(check_bulk(b.b, b.n, 1), N);
		cr_expect_eq(check_bulk(b.b, b.n, 100), N);
		/* the import: the same order, the exec a new segment */
		struct pebs_sample got[N + 1];
		char vals[N + 1][16];
		uint32_t segs[N + 1];
		struct pebs_meta *im = pebs_meta_new();
		cr_assert_eq(import_segs(b.b, b.n, got, N + 1, im, "comm.30",
					 vals, segs), N);
		for (size_t k = 0; k < N; k++) {
			cr_expect_eq(got[k].time, fk_want[k].time,
				     "import: sample %zu", k);
			cr_expect_eq(segs[k], k < 6 ? 0 : 1, "sample %zu", k);
			cr_expect_str_eq(vals[k], k < 6 ? "bash" : "python",
					 "import: sample %zu", k);
		}
		cr_expect_str_eq(pebs_meta_get(im, "comm.20"), "bash");
		/* the idle task's one sample is in the second segment, which
		 * alone names it (the reader's test above: swapper) */
		cr_expect_null(pebs_meta_get(im, "comm.0"));
		pebs_meta_free(im);
	}
}

static void fk_mmap(struct sbuf *b, uint32_t pid, uint64_t start,
		    const char *path, uint64_t time)
{
	size_t at = begin_rec(b, 1);
	put32x2(b, pid, pid);
	put64(b, start);
	put64(b, 0x1000);
	put64(b, 0);
	char c[24] = { 0 };
	snprintf(c, sizeof(c), "%s", path);
	memcpy(b->b + b->n, c, sizeof(c));
	b->n += sizeof(c);
	fk_trailer(b, pid, pid, time);
	end_rec(b, at);
}

/*
 * Two processes with maps, and the kernel's; process 10 renames itself
 * between its samples, after the last sample of process 20.
 */
static void seg_records(struct sbuf *b)
{
	fk_comm(b, 10, 10, "ten", 0, 0);
	fk_comm(b, 20, 20, "twenty", 0, 0);
	fk_mmap(b, UINT32_MAX, 0xffffffff81000000ull,
		"[kernel.kallsyms]_text", 0);
	fk_mmap(b, 10, 0x400000, "/bin/ten", 0);
	fk_mmap(b, 20, 0x500000, "/bin/twenty", 0);
	fk_sample(b, 20, 20, 1000);
	fk_sample(b, 10, 10, 1100);
	fk_comm(b, 10, 10, "ten2", 0, 1200);
	fk_sample(b, 10, 10, 1300);
}

/* The maps.N.path of pid @pid in @m, comma-separated, in N order. */
static void seg_paths(const struct pebs_meta *m, const char *pid, char *out,
		      size_t len)
{
	char k[48];
	out[0] = 0;
	for (size_t i = 0;; i++) {
		snprintf(k, sizeof(k), "maps.%zu.pid", i);
		const char *p = pebs_meta_get(m, k);
		if (!p)
			break;
		snprintf(k, sizeof(k), "maps.%zu.path", i);
		if (strcmp(p, pid) == 0)
			snprintf(out + strlen(out), len - strlen(out), "%s%s",
				 *out ? "," : "", pebs_meta_get(m, k));
	}
}

/*
 * A segment's metadata has the maps and names of the processes with
 * samples in it, and the kernel's maps, not those of every sampled
 * process of the file: a recording of thousands of short processes
 * repeated all their maps in every segment (a 4 MB perf.data gave a
 * .pebs of 154 MB).  The rename of 10 starts a segment without samples
 * of 20: neither its maps nor its name are there, numbered from 0.
 */
Test(perf_roundtrip, segment_holds_its_own_processes)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file, seg_records);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		char paths[128];
		seg_paths(m, "20", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/twenty", "file %d", file);
		seg_paths(m, "10", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/ten");
		cr_expect_str_eq(pebs_meta_get(m, "comm.10"), "ten");
		cr_expect_str_eq(pebs_meta_get(m, "comm.20"), "twenty");
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			if (it.kind == PEBS_PERF_SEGMENT) {
				nseg++;
				continue;
			}
			n++;
		}
		cr_expect_eq(n, 3);
		cr_assert_eq(nseg, 1, "file %d: %zu new segments", file, nseg);
		/* the same pointer, the second segment's keys */
		cr_expect_eq(pebs_perf_reader_meta(r), m);
		seg_paths(m, "20", paths, sizeof(paths));
		cr_expect_str_eq(paths, "", "file %d: maps of 20", file);
		cr_expect_null(pebs_meta_get(m, "comm.20"), "file %d", file);
		seg_paths(m, "10", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/ten");
		seg_paths(m, "-1", paths, sizeof(paths));
		cr_expect_str_eq(paths, "[kernel.kallsyms]_text");
		cr_expect_str_eq(pebs_meta_get(m, "comm.10"), "ten2");
		cr_expect_not_null(pebs_meta_get(m, "maps.1.path"));
		cr_expect_null(pebs_meta_get(m, "maps.2.path"));
		cr_expect_str_eq(pebs_meta_get(m, "source"), "import-perf");
		pebs_perf_reader_close(r);
		/* the import: each .pebs segment as the reader gave it */
		struct pebs_sample got[4];
		char vals[4][16];
		uint32_t segs[4];
		struct pebs_meta *im = pebs_meta_new();
		cr_assert_eq(import_segs(b.b, b.n, got, 4, im, "maps.2.path",
					 vals, segs), 3);
		for (size_t k = 0; k < 3; k++)
			cr_expect_str_eq(vals[k], k < 2 ? "/bin/twenty" : "",
					 "file %d sample %zu", file, k);
		pebs_meta_free(im);
	}
}

/*
 * Pid 40 is reused: process "old" (its map /bin/old) has a sample, then
 * bash (10) forks a new process 40 that execs "new" (/bin/new) and has
 * one.  The child's exec and map come in the file before the FORK (they
 * were in another CPU's buffer), as in a `perf record -a` of a fork that
 * ran on another CPU.  Each segment has the maps of its own time: before,
 * /bin/old alone; after, /bin/new alone (not old's, nor the copy of
 * bash's the FORK made, which the exec ended).  The import kept
 * /bin/old in both and the copy after the exec.
 */
static void reuse_records(struct sbuf *b)
{
	fk_comm(b, 10, 10, "bash", 0, 0);
	fk_comm(b, 40, 40, "old", 0, 0);
	fk_mmap(b, 10, 0x400000, "/bin/bash", 0);
	fk_mmap(b, 40, 0x400000, "/bin/old", 0);
	fk_sample(b, 40, 40, 1100);
	fk_comm(b, 40, 40, "new", 1, 1400);
	fk_mmap(b, 40, 0x400000, "/bin/new", 1450);
	fk_fork(b, 40, 10, 40, 10, 1200);
	fk_sample(b, 40, 40, 1500);
}

Test(perf_roundtrip, reused_pid_and_early_exec_maps)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file, reuse_records);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		char paths[128];
		seg_paths(m, "40", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/old", "file %d", file);
		cr_expect_str_eq(pebs_meta_get(m, "comm.40"), "old");
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			if (it.kind == PEBS_PERF_SEGMENT) {
				cr_expect_eq(n, 1, "file %d", file);
				nseg++;
				continue;
			}
			n++;
		}
		cr_expect_eq(n, 2);
		cr_assert_eq(nseg, 1, "file %d: %zu new segments", file, nseg);
		seg_paths(m, "40", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/new", "file %d", file);
		cr_expect_str_eq(pebs_meta_get(m, "comm.40"), "new");
		pebs_perf_reader_close(r);
	}
}

/*
 * A process's maps end after its last sample, and a new map covers the
 * same addresses: 50's samples (in /bin/a) are followed, while 60 still
 * has samples, by its exec of "b" (@exec), or by 60's FORK of a new
 * process 50 (the pid reused), which maps /bin/b at the same address.
 * The segment that holds 50's samples must have the maps before the end.
 * The end started no segment (it was not between two samples of 50), so
 * the one segment had the maps of its end: /bin/b (and, after the FORK,
 * the copy of 60's), to which every sample of 50 resolved.
 */
static void late_end_records(struct sbuf *b, int exec)
{
	fk_comm(b, 50, 50, "a", 0, 0);
	fk_comm(b, 60, 60, "other", 0, 0);
	fk_mmap(b, 50, 0x400000, "/bin/a", 0);
	fk_mmap(b, 60, 0x600000, "/bin/other", 0);
	fk_sample(b, 50, 50, 1000);
	fk_sample(b, 60, 60, 1050);
	fk_sample(b, 50, 50, 1100);
	if (exec)
		fk_comm(b, 50, 50, "b", 1, 1200);
	else
		fk_fork(b, 50, 60, 50, 60, 1200);
	fk_mmap(b, 50, 0x400000, "/bin/b", 1250);
	fk_sample(b, 60, 60, 1300);
}

static void late_exec_records(struct sbuf *b)
{
	late_end_records(b, 1);
}

static void late_reuse_records(struct sbuf *b)
{
	late_end_records(b, 0);
}

/*
 * The samples of 50 are read with the maps of their own time, /bin/a
 * alone; after them a segment without samples of 50 starts (60's last
 * sample), and no segment follows the last sample.
 */
static void check_late_end(void (*rec)(struct sbuf *), const char *what)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file, rec);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		char paths[128];
		seg_paths(m, "50", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/a", "%s, file %d", what, file);
		cr_expect_str_eq(pebs_meta_get(m, "comm.50"), "a");
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			if (it.kind == PEBS_PERF_SEGMENT) {
				cr_expect_eq(n, 3, "%s, file %d", what, file);
				nseg++;
				continue;
			}
			n++;
		}
		cr_expect_eq(n, 4, "%s, file %d", what, file);
		cr_expect_eq(nseg, 1, "%s, file %d: %zu new segments", what,
			     file, nseg);
		seg_paths(m, "50", paths, sizeof(paths));
		cr_expect_str_eq(paths, "", "%s, file %d", what, file);
		seg_paths(m, "60", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/other", "%s, file %d", what,
				 file);
		pebs_perf_reader_close(r);
		/* the import (the bulk reader): the same two segments */
		struct pebs_sample got[5];
		char vals[5][16];
		uint32_t segs[5];
		struct pebs_meta *im = pebs_meta_new();
		cr_assert_eq(import_segs(b.b, b.n, got, 5, im, "maps.0.path",
					 vals, segs), 4);
		for (size_t k = 0; k < 4; k++)
			cr_expect_str_eq(vals[k], k < 3 ? "/bin/a" :
					 "/bin/other", "%s, file %d sample %zu",
					 what, file, k);
		cr_expect_eq(segs[2], segs[0]);
		cr_expect_neq(segs[3], segs[2], "%s, file %d", what, file);
		pebs_meta_free(im);
	}
}

Test(perf_roundtrip, exec_after_last_sample_keeps_old_maps)
{
	check_late_end(late_exec_records, "exec");
}

Test(perf_roundtrip, pid_reused_after_last_sample_keeps_old_maps)
{
	check_late_end(late_reuse_records, "fork");
}

/*
 * The export keeps a sample of time 2^64-1 ns, or 0, in its place: perf
 * delivers it as it reads it, so everything written before is flushed
 * first (rounds), and it counts for no round.  Read back, the order is
 * the one written.
 */
Test(perf_roundtrip, untimed_samples_keep_their_place)
{
	static const uint64_t t[] = { 100, UINT64_MAX, 200, 0, 300, 150 };
	enum { N = sizeof(t) / sizeof(t[0]) };
	struct pebs_sample s[N];
	for (size_t i = 0; i < N; i++) {
		make_sample(&s[i], i, t[i]);
		s[i].pid = s[i].tid = 10;
	}
	for (int pipe = 0; pipe < 2; pipe++) {
		size_t len;
		uint8_t *p = export_as(s, N, NULL, 0, "ev", pipe, &len);
		if (pipe) {
			/* two rounds (8 bytes each) right before the
			 * sample of time ~0 */
			const uint8_t *rec[N];
			uint32_t ty[2];
			cr_assert_eq(pipe_records(p, len, 9, rec, N), N);
			memcpy(&ty[0], rec[1] - 16, 4);
			memcpy(&ty[1], rec[1] - 8, 4);
			cr_expect(ty[0] == 68 && ty[1] == 68, "records %u, "
				  "%u before it", ty[0], ty[1]);
		}
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open_mem(&r, p, len, NULL), 0);
		struct pebs_perf_item it;
		size_t n = 0;
		while (pebs_perf_reader_next(r, &it) > 0) {
			if (it.kind != PEBS_PERF_SAMPLE)
				continue;
			cr_assert_lt(n, N);
			cr_expect_eq(it.s.time, t[n], "pipe %d sample %zu: "
				     "time %llu", pipe, n,
				     (unsigned long long)it.s.time);
			n++;
		}
		cr_expect_eq(n, N);
		pebs_perf_reader_close(r);
		free(p);
	}
}

/*
 * What one perf.data cannot hold is refused (-PEBS_E_UNSUPPORTED, nothing
 * of the segment written): an event of the same name with other
 * attributes, an object with another build-id, times on no common base.
 * Segments whose times are both of unknown rate in the same unit are
 * written unchanged, as one alone is.
 */
Test(perf_roundtrip, segment_conflicts)
{
	static const struct {
		unsigned ldlat;
		const char *bid, *unit, *hz;
		int want;
		const char *msg;
	} c[] = {
		{ 3, BID_A, "tsc", "1000000000", 0, "" },
		{ 30, BID_A, "ns", NULL, -PEBS_E_UNSUPPORTED, "config1 0x1e" },
		{ 3, BID_B, "ns", NULL, -PEBS_E_UNSUPPORTED, "build-id" },
		{ 3, BID_A, "tsc", NULL, -PEBS_E_UNSUPPORTED, "no tsc.hz" },
		{ 3, BID_A, NULL, NULL, -PEBS_E_UNSUPPORTED, "no time.unit" },
	};
	struct pebs_meta *m1 = seg_meta(100, "alpha", "/bin/a", BID_A, 3,
					"ns", NULL);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_meta *m2 = seg_meta(100, "alpha", "/bin/a",
						c[i].bid, c[i].ldlat,
						c[i].unit, c[i].hz);
		FILE *out = tmpfile();
		struct pebs_perf_writer *w;
		struct pebs_sample s;
		make_sample(&s, 0, 1000);
		cr_assert_eq(pebs_perf_writer_open(&w, out, m1, NULL), 0);
		cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
		cr_expect_eq(pebs_perf_writer_segment(w, m2), c[i].want,
			     "case %zu: %s", i, pebs_perf_writer_errmsg(w));
		cr_expect_not_null(strstr(pebs_perf_writer_errmsg(w),
					  c[i].msg), "case %zu: %s", i,
				   pebs_perf_writer_errmsg(w));
		pebs_perf_writer_close(w, NULL, 0);
		fclose(out);
		pebs_meta_free(m2);
	}
	pebs_meta_free(m1);
	/* two segments of TSC ticks of unknown rate: unchanged */
	struct pebs_meta *t1 = seg_meta(1, "a", "/bin/a", BID_A, 3, "tsc",
					NULL);
	struct pebs_meta *t2 = seg_meta(2, "b", "/bin/b", BID_B, 3, "tsc",
					NULL);
	struct pebs_sample s[2];
	make_sample(&s[0], 0, 5000);
	make_sample(&s[1], 0, 7000);
	FILE *out = tmpfile();
	struct pebs_perf_writer *w;
	cr_assert_eq(pebs_perf_writer_open(&w, out, t1, NULL), 0);
	cr_assert_eq(pebs_perf_writer_add(w, &s[0], "ev"), 0);
	cr_assert_eq(pebs_perf_writer_segment(w, t2), 0);
	cr_assert_eq(pebs_perf_writer_add(w, &s[1], "ev"), 0);
	cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
	rewind(out);
	struct pebs_perf_reader *r;
	struct pebs_perf_item it;
	uint64_t sum = 0;
	cr_assert_eq(pebs_perf_reader_open(&r, out, "t", NULL), 0);
	while (pebs_perf_reader_next(r, &it) > 0)
		sum += it.kind == PEBS_PERF_SAMPLE ? it.s.time : 0;
	cr_expect_eq(sum, 12000);
	pebs_perf_reader_close(r);
	fclose(out);
	pebs_meta_free(t1);
	pebs_meta_free(t2);
}

/*
 * A map's pid is decimal, as the symbolizer reads it: strtol(v, NULL, 0)
 * wrote maps.N.pid "010" as an MMAP2 of pid 8 and "0x10" as pid 16.  A
 * map whose pid does not parse is left out, as one whose start does not.
 */
Test(perf_roundtrip, map_pid_is_decimal)
{
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	static const char *const maps[][2] = {
		{ "010", "/bin/ten" }, { "0x10", "/bin/hex" },
	};
	for (size_t i = 0; i < 2; i++) {
		char k[32];
		snprintf(k, sizeof(k), "maps.%zu.pid", i);
		pebs_meta_set(m, k, maps[i][0]);
		snprintf(k, sizeof(k), "maps.%zu.start", i);
		pebs_meta_set(m, k, "400000");
		snprintf(k, sizeof(k), "maps.%zu.end", i);
		pebs_meta_set(m, k, "401000");
		snprintf(k, sizeof(k), "maps.%zu.path", i);
		pebs_meta_set(m, k, maps[i][1]);
	}
	/* a sample in each process either reading could give the maps */
	static const uint32_t pids[] = { 8, 10, 16 };
	struct pebs_sample s[3];
	for (size_t i = 0; i < 3; i++) {
		make_sample(&s[i], 0, 100 + i);
		s[i].pid = s[i].tid = pids[i];
	}
	FILE *out = tmpfile();
	cr_assert_not_null(out);
	struct pebs_perf_writer *w;
	char err[512];
	cr_assert_eq(pebs_perf_writer_open(&w, out, m, NULL), 0);
	pebs_meta_free(m);
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(pebs_perf_writer_add(w, &s[i], "ev"), 0);
	cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0, "%s",
		     err);
	fflush(out);
	rewind(out);
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open(&r, out, "t", NULL), 0);
	struct pebs_perf_item it;
	while (pebs_perf_reader_next(r, &it) > 0)
		;
	const struct pebs_meta *rm = pebs_perf_reader_meta(r);
	cr_expect_str_eq(pebs_meta_get(rm, "maps.0.pid"), "10");
	cr_expect_str_eq(pebs_meta_get(rm, "maps.0.path"), "/bin/ten");
	cr_expect_null(pebs_meta_get(rm, "maps.1.path"));
	pebs_perf_reader_close(r);
	fclose(out);
}

/*
 * The cpumode of each build-id record (misc bits 2:0) of @p (@len bytes,
 * a file or a pipe) whose name is @path, or 0 when none is: file mode
 * from the BUILD_ID feature (bit 2 of the header's feature bits), a pipe
 * from its HEADER_BUILD_ID (67) records.
 */
static unsigned bid_cpumode(const uint8_t *p, size_t len, int pipe,
			    const char *path)
{
	size_t at = 16, end = len;
	if (!pipe) {
		uint64_t doff, dsz, sec[2];
		memcpy(&doff, p + 40, 8);
		memcpy(&dsz, p + 48, 8);
		cr_assert(p[72] & 1u << 2, "no BUILD_ID feature");
		/* the sections of features 0 and 1 come first when set */
		size_t k = (p[72] & 1u) + (p[72] >> 1 & 1u);
		cr_assert_leq(doff + dsz + 16 * (k + 1), len);
		memcpy(sec, p + doff + dsz + 16 * k, 16);
		cr_assert_leq(sec[0] + sec[1], len);
		at = (size_t)sec[0];
		end = (size_t)(sec[0] + sec[1]);
	}
	unsigned mode = 0;
	while (at + 36 <= end) {
		uint32_t t;
		uint16_t misc, sz;
		memcpy(&t, p + at, 4);
		memcpy(&misc, p + at + 4, 2);
		memcpy(&sz, p + at + 6, 2);
		cr_assert_geq(sz, 8);
		if ((!pipe || t == 67) && at + sz <= end &&
		    strncmp((const char *)p + at + 36, path, sz - 36) == 0) {
			cr_expect_eq(mode, 0, "%s: two records", path);
			mode = misc & 7;
		}
		at += sz;
	}
	return mode;
}

/*
 * Only the kernel's maps (pid -1) have kernel-mode build-id records, as
 * their MMAP2 records: a process's map named in brackets, [vdso], was a
 * kernel one too.  perf 6.1 then takes [vdso] for a kernel dso and writes
 * past its map of the process's [vdso] MMAP2 (perf script of a real
 * perf record -e cpu-clock export aborted: "free(): invalid next size").
 */
Test(perf_roundtrip, bracketed_user_map_build_id_is_user)
{
	static const char *const maps[][5] = {
		{ "-1", "ffffffff81000000", "ffffffff82209988",
		  "[kernel.kallsyms]_text", BID_A },
		{ "100", "7f074d9f2000", "7f074d9f4000", "[vdso]", BID_B },
		{ "100", "400000", "401000", "/bin/a",
		  "00112233445566778899aabbccddeeff00112233" },
	};
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	pebs_meta_set(m, "comm.100", "a");
	static const char *const keys[] = { "pid", "start", "end", "path",
					    "build_id" };
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 5; j++) {
			char k[32];
			snprintf(k, sizeof(k), "maps.%zu.%s", i, keys[j]);
			pebs_meta_set(m, k, maps[i][j]);
		}
	struct pebs_sample s;
	make_sample(&s, 0, 100);
	s.pid = s.tid = 100;
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pebs_perf_writer_opts o = { .pipe = pipe };
		struct pebs_perf_writer *w;
		char err[512];
		FILE *out = tmpfile();
		cr_assert_not_null(out);
		cr_assert_eq(pebs_perf_writer_open(&w, out, m, &o), 0);
		cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
		cr_assert_eq(pebs_perf_writer_close(w, err, sizeof(err)), 0,
			     "%s", err);
		fflush(out);
		size_t len;
		uint8_t *p = slurp(out, &len);
		cr_expect_eq(bid_cpumode(p, len, pipe, "[kernel.kallsyms]"), 1,
			     "pipe %d", pipe);
		cr_expect_eq(bid_cpumode(p, len, pipe, "[vdso]"), 2,
			     "pipe %d", pipe);
		cr_expect_eq(bid_cpumode(p, len, pipe, "/bin/a"), 2,
			     "pipe %d", pipe);
		free(p);
		fclose(out);
	}
	pebs_meta_free(m);
}

/*
 * One sample of event "fe" with metadata @m, exported as a perf.data file
 * (*@fp) and opened again: close the reader, then the file.
 */
static struct pebs_perf_reader *fe_export(const struct pebs_meta *m,
					  FILE **fp)
{
	struct pebs_perf_writer_opts o = { 0 };
	struct pebs_perf_writer *w;
	struct pebs_perf_reader *r;
	struct pebs_sample s;
	*fp = tmpfile();
	cr_assert_not_null(*fp);
	cr_assert_eq(pebs_perf_writer_open(&w, *fp, m, &o), 0);
	make_sample(&s, 0, 100);
	cr_assert_eq(pebs_perf_writer_add(w, &s, "fe"), 0);
	cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
	rewind(*fp);
	cr_assert_eq(pebs_perf_reader_open(&r, *fp, "t", NULL), 0);
	return r;
}

/* Key @key of @m is @want (NULL: absent); @ctx names the case. */
static void expect_key(const struct pebs_meta *m, const char *key,
		       const char *want, const char *ctx)
{
	const char *v = pebs_meta_get(m, key);
	if (want)
		cr_expect(v && strcmp(v, want) == 0, "%s: %s %s, want %s",
			  ctx, key, v ? v : "(none)", want);
	else
		cr_expect_null(v, "%s: %s %s, want none", ctx, key, v);
}

/*
 * FRONTEND_RETIRED in either encoding a perf.data can carry: 0x01C6 (skl
 * to spr) and 0x03C6 (Redwood Cove and later, perf's meteorlake JSON);
 * config1 is the MSR_PEBS_FRONTEND value and is read as events.N.frontend
 * beside perf.config1.  Other events have no such key.
 */
Test(perf_roundtrip, frontend_retired_either_umask)
{
	static const struct {
		const char *config, *config1, *want;
	} c[] = {
		{ "0x1c6", "0x11", "0x11" },
		{ "0x3c6", "0x600106", "0x600106" },
		{ "0x2c6", "0x9", NULL },	/* MISP_ANT, not it */
		{ "0x1cd", "0x1e", NULL },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_meta *m = pebs_meta_new();
		pebs_meta_set(m, "events.0.name", "fe");
		pebs_meta_set(m, "events.0.perf.type", "4");
		pebs_meta_set(m, "events.0.perf.config", c[i].config);
		pebs_meta_set(m, "events.0.perf.config1", c[i].config1);
		FILE *fp;
		struct pebs_perf_reader *r = fe_export(m, &fp);
		pebs_meta_free(m);
		const struct pebs_meta *rm = pebs_perf_reader_meta(r);
		expect_key(rm, "events.0.perf.config", c[i].config,
			   c[i].config);
		expect_key(rm, "events.0.frontend", c[i].want, c[i].config);
		pebs_perf_reader_close(r);
		fclose(fp);
	}
}

/*
 * A captured FRONTEND_RETIRED (events.N.evtsel, no perf.* keys) is
 * exported with its MSR_PEBS_FRONTEND value, events.N.frontend, in
 * attr.config1, in either encoding (0x01C6, 0x03C6): it was exported
 * with config1 0 (the absent ldlat), so perf saw no selector.  Other
 * events keep config1 = ldlat (or 0) whatever a stray frontend key says.
 * The export read back (import) and exported again keeps config1: a
 * perf.data -> import -> export round trip.
 */
Test(perf_roundtrip, capture_frontend_in_config1)
{
	static const struct {
		const char *evtsel, *ldlat, *frontend, *want, *fe;
	} c[] = {	/* fe: the import's events.0.frontend */
		{ "0x4301c6", NULL, "0x11", "0x11", "0x11" },
		{ "0x5303c6", NULL, "0x600106", "0x600106", "0x600106" },
		{ "0x4301c6", NULL, NULL, "0x0", "0x0" },
		{ "0x4301cd", "30", "0x11", "0x1e", NULL },
		{ "0x4302c6", NULL, "0x11", "0x0", NULL }, /* not FE_RETIRED */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_meta *m = pebs_meta_new();
		pebs_meta_set(m, "events.0.name", "fe");
		pebs_meta_set(m, "events.0.evtsel", c[i].evtsel);
		if (c[i].ldlat)
			pebs_meta_set(m, "events.0.ldlat", c[i].ldlat);
		if (c[i].frontend)
			pebs_meta_set(m, "events.0.frontend", c[i].frontend);
		FILE *fp, *fp2;
		struct pebs_perf_reader *r = fe_export(m, &fp);
		pebs_meta_free(m);
		const struct pebs_meta *rm = pebs_perf_reader_meta(r);
		expect_key(rm, "events.0.perf.config1", c[i].want,
			   c[i].evtsel);
		/* and again from what the import made of it */
		struct pebs_perf_reader *r2 = fe_export(rm, &fp2);
		const struct pebs_meta *rm2 = pebs_perf_reader_meta(r2);
		expect_key(rm2, "events.0.perf.config1", c[i].want,
			   c[i].evtsel);
		expect_key(rm2, "events.0.perf.config",
			   pebs_meta_get(rm, "events.0.perf.config"), c[i].evtsel);
		expect_key(rm2, "events.0.frontend", c[i].fe, c[i].evtsel);
		pebs_perf_reader_close(r2);
		fclose(fp2);
		pebs_perf_reader_close(r);
		fclose(fp);
	}
}

/* What the pipe-mode output holds so far on @fd: bytes, records of @type. */
static size_t on_fd(int fd, uint32_t type, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	cr_assert_geq(end, 0);
	uint8_t *p = malloc((size_t)end + 1);
	cr_assert_not_null(p);
	cr_assert_eq(pread(fd, p, (size_t)end, 0), end);
	const uint8_t *rec[16];
	size_t k = pipe_records(p, (size_t)end, type, rec, 16);
	free(p);
	*len = (size_t)end;
	return k;
}

/*
 * pebs_perf_writer_flush() (a live pipeline's input stalls): in pipe
 * mode the samples added so far reach the stream, after two rounds, and
 * a flush with nothing new adds nothing; a file is left to close().
 */
Test(perf_roundtrip, flush_hands_on_pipe_records)
{
	struct pebs_sample s;
	size_t len, again;
	FILE *out = tmpfile();
	cr_assert_not_null(out);
	struct pebs_perf_writer_opts o = { .pipe = 1 };
	struct pebs_perf_writer *w;
	cr_assert_eq(pebs_perf_writer_open(&w, out, NULL, &o), 0);
	make_sample(&s, 0, 100);
	cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
	cr_assert_eq(pebs_perf_writer_flush(w), 0);
	cr_expect_eq(on_fd(fileno(out), 9, &len), 1);	/* SAMPLE */
	cr_expect_eq(on_fd(fileno(out), 68, &len), 2);	/* FINISHED_ROUND */
	cr_assert_eq(pebs_perf_writer_flush(w), 0);
	cr_expect_eq(on_fd(fileno(out), 68, &again), 2);
	cr_expect_eq(again, len);
	make_sample(&s, 1, 200);
	cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
	cr_assert_eq(pebs_perf_writer_flush(w), 0);
	cr_expect_eq(on_fd(fileno(out), 9, &again), 2);
	cr_expect_eq(on_fd(fileno(out), 68, &again), 4);
	cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
	fclose(out);
	/* a file: nothing before close */
	out = tmpfile();
	cr_assert_not_null(out);
	cr_assert_eq(pebs_perf_writer_open(&w, out, NULL, NULL), 0);
	cr_assert_eq(pebs_perf_writer_add(w, &s, "ev"), 0);
	cr_assert_eq(pebs_perf_writer_flush(w), 0);
	cr_assert_eq(pebs_perf_writer_close(w, NULL, 0), 0);
	fclose(out);
}

/* Process 40 forked by thread 12 of "bash", a thread that no record named. */
static void fk_unnamed_parent(struct sbuf *b)
{
	fk_comm(b, 10, 10, "bash", 0, 0);
	fk_sample(b, 10, 12, 1000);
	fk_fork(b, 40, 10, 40, 12, 1100);
	fk_sample(b, 40, 40, 1200);
}

/*
 * A process forked by a thread without a name of its own is named as
 * that thread goes, by its process's name (sym.c's fallback), not left
 * without one.  Both layouts.
 */
Test(perf_roundtrip, fork_from_unnamed_thread_names_child)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file,
						     fk_unnamed_parent);
		struct pebs_perf_item it;
		size_t n = 0;
		int e;
		while ((e = pebs_perf_reader_next(r, &it)) > 0) {
			if (it.kind == PEBS_PERF_SEGMENT)
				continue;
			cr_expect_str_eq(fk_name(pebs_perf_reader_meta(r),
						 it.s.pid, it.s.tid), "bash",
					 "file %d sample %zu (pid %u)", file,
					 n, it.s.pid);
			n++;
		}
		cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
		cr_expect_eq(n, 2);
		pebs_perf_reader_close(r);
	}
}

/*
 * Bash (10) maps /lib/late at 1000 and forks 20 at 1100, which forks 30
 * at 1150; the MMAP comes in the file after both FORKs (another CPU's
 * buffer), and bash's exec at 1300 before them.  Both children have
 * /bin/bash and /lib/late, through the exec of their parent (20's
 * rename after it starts a segment), and not /lib/after, mapped after
 * the exec.  The import gave the children only the maps read before
 * their FORK, and ended them at bash's exec.
 */
static void late_records(struct sbuf *b)
{
	fk_comm(b, 10, 10, "bash", 0, 0);
	fk_mmap(b, 10, 0x400000, "/bin/bash", 0);
	fk_comm(b, 10, 10, "sh", 1, 1300);
	fk_fork(b, 20, 10, 20, 10, 1100);
	fk_fork(b, 30, 20, 30, 20, 1150);
	fk_mmap(b, 10, 0x500000, "/lib/late", 1000);
	fk_mmap(b, 10, 0x600000, "/lib/after", 1350);
	fk_sample(b, 20, 20, 1200);
	fk_sample(b, 30, 30, 1250);
	fk_comm(b, 20, 20, "kid", 0, 1380);	/* starts a segment */
	fk_sample(b, 20, 20, 1400);
}

Test(perf_roundtrip, fork_read_before_parents_map)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file, late_records);
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		char paths[128];
		seg_paths(m, "20", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/bash,/lib/late", "file %d: %s",
				 file, paths);
		seg_paths(m, "30", paths, sizeof(paths));
		cr_expect_str_eq(paths, "/bin/bash,/lib/late", "file %d: %s",
				 file, paths);
		struct pebs_perf_item it;
		size_t n = 0, nseg = 0;
		int e;
		while ((e = pebs_perf_reader_next(r, &it)) > 0) {
			if (it.kind != PEBS_PERF_SEGMENT) {
				n++;
				continue;
			}
			/* after the exec and the rename, 20's maps stay */
			cr_expect_eq(n, 2, "file %d", file);
			nseg++;
			seg_paths(m, "20", paths, sizeof(paths));
			cr_expect_str_eq(paths, "/bin/bash,/lib/late",
					 "file %d, after the exec: %s", file,
					 paths);
		}
		cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
		cr_expect_eq(n, 3);
		cr_expect_eq(nseg, 1, "file %d", file);
		pebs_perf_reader_close(r);
	}
}

/*
 * Leader sampling (`perf record -e '{a,b}:S'`): each sample reads the
 * group (READ, read_format GROUP | ID) and perf delivers it once per
 * member, as the member's event, when the member's count grew since its
 * last sample, and not for an id of no event (deliver_sample_group()).
 * Group {A (id 101), B (102)}: counts (1000, 50), (2000, 50), (3000, 80)
 * with an unknown id 999 in the last: A, B, A, A, B.  The import kept
 * the leader's samples only (half of them here).
 */
static void put_attr_rf(struct sbuf *s, uint64_t config, uint64_t st,
			uint64_t rf, uint64_t id)
{
	size_t at = begin_rec(s, 64);
	put_attr_fields(s, config, st, 0);
	memcpy(s->b + at + 8 + 32, &rf, 8);	/* read_format */
	put64(s, id);
	end_rec(s, at);
}

static void gr_sample(struct sbuf *s, uint64_t time, const uint64_t *v,
		      size_t nv)
{
	size_t at = begin_rec(s, 9);
	put64(s, 101);			/* IDENTIFIER: the leader's */
	put64(s, 0x401000 + time);	/* IP */
	put32x2(s, 7, 7);		/* TID */
	put64(s, time);			/* TIME */
	put64(s, nv / 2);		/* READ: nr, then value and id */
	for (size_t i = 0; i < nv; i++)
		put64(s, v[i]);
	end_rec(s, at);
}

Test(perf_roundtrip, group_read_sample_per_member)
{
	static struct sbuf b;
	const uint64_t st = PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP |
			    PEBS_PERF_S_TID | PEBS_PERF_S_TIME |
			    PEBS_PERF_S_READ;
	b.n = 0;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);
	put_attr_rf(&b, 0x1cd, st, 8 | 4, 101);
	put_attr_rf(&b, 0x1d0, st, 8 | 4, 102);
	const uint64_t s1[] = { 1000, 101, 50, 102 };
	const uint64_t s2[] = { 2000, 101, 50, 102 };
	const uint64_t s3[] = { 3000, 101, 5, 999, 80, 102 };
	gr_sample(&b, 100, s1, 4);
	gr_sample(&b, 200, s2, 4);
	gr_sample(&b, 300, s3, 6);
	static const unsigned want_ev[] = { 0, 1, 0, 0, 1 };
	static const uint64_t want_t[] = { 100, 100, 200, 300, 300 };
	/* one by one */
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open_mem(&r, b.b, b.n, NULL), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	size_t n = 0;
	int e;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		cr_assert_eq(it.kind, PEBS_PERF_SAMPLE);
		cr_assert_lt(n, 5);
		cr_expect_eq(it.s.event, want_ev[n], "sample %zu", n);
		cr_expect_eq(it.s.time, want_t[n], "sample %zu", n);
		cr_expect_eq(it.s.ip, 0x401000 + want_t[n]);
		cr_expect_str_eq(it.event, pebs_perf_reader_event(r,
								  want_ev[n]));
		n++;
	}
	cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
	cr_expect_eq(n, 5);
	/* B's period: the mean growth at its samples, (50 + 30) / 2; A's
	 * is its attr's, as the sampling event */
	const struct pebs_meta *m = pebs_perf_reader_meta(r);
	const char *mp = pebs_meta_get(m, "events.1.perf.mean_period");
	cr_expect_str_eq(mp ? mp : "(none)", "40");
	cr_expect_null(pebs_meta_get(m, "events.0.perf.mean_period"));
	pebs_perf_reader_close(r);
	/* in batches of 2: a group's samples may straddle two */
	cr_assert_eq(pebs_perf_reader_open_mem(&r, b.b, b.n, NULL), 0);
	struct pebs_batch *bt = pebs_batch_new(2);
	n = 0;
	while ((e = pebs_perf_reader_read(r, bt, &it)) > 0) {
		for (size_t i = 0; i < bt->n && n < 5; i++, n++) {
			cr_expect_str_eq(pebs_batch_event(bt, i),
					 pebs_perf_reader_event(r,
								want_ev[n]),
					 "batch sample %zu", n);
			cr_expect_eq(bt->c64[PEBS_COL_TIME][i], want_t[n]);
		}
		pebs_batch_reset(bt);
	}
	cr_expect_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
	cr_expect_eq(n, 5);
	pebs_batch_free(bt);
	pebs_perf_reader_close(r);
}

/*
 * A sample read while only a first attr existed, checked as that attr's,
 * whose id a group-reading attr read later takes: its group (past the
 * record's end) gives no sample.  The group was read past the end of the
 * record, and of the input (found under ASan).  Both reader APIs.
 */
Test(perf_roundtrip, group_read_checked_against_its_record)
{
	static struct sbuf b;
	const uint64_t st = PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP |
			    PEBS_PERF_S_TID | PEBS_PERF_S_TIME;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);
	put_attr_rf(&b, 0x1cd, st, 0, 101);
	size_t at = begin_rec(&b, 9);
	put64(&b, 102);
	put64(&b, 0x401000);
	put32x2(&b, 7, 7);
	put64(&b, 100);
	end_rec(&b, at);
	put_attr_rf(&b, 0x1d0, st | PEBS_PERF_S_READ, 8 | 4, 102);
	/* the input ends with the record: ASan sees a read past it */
	uint8_t *in = malloc(b.n);
	memcpy(in, b.b, b.n);
	for (int bulk = 0; bulk < 2; bulk++) {
		struct pebs_perf_reader *r;
		cr_assert_eq(pebs_perf_reader_open_mem(&r, in, b.n, NULL), 0,
			     "%s", pebs_perf_reader_errmsg(r));
		struct pebs_perf_item it;
		size_t n = 0;
		int e;
		if (bulk) {
			struct pebs_batch *bt = pebs_batch_new(8);
			while ((e = pebs_perf_reader_read(r, bt, &it)) > 0) {
				n += bt->n;
				pebs_batch_reset(bt);
			}
			pebs_batch_free(bt);
		} else {
			while ((e = pebs_perf_reader_next(r, &it)) > 0)
				n += it.kind == PEBS_PERF_SAMPLE;
		}
		cr_expect_geq(e, 0, "%s", pebs_perf_reader_errmsg(r));
		cr_expect_eq(n, 0, "bulk %d", bulk);
		pebs_perf_reader_close(r);
	}
	free(in);
}

/*
 * Bash (10) execs at 1050, which comes in the file after its FORK of 20
 * at 1100 (another CPU's buffer), and maps /bin/new at 1060: the child
 * has /bin/new, its parent's map at the FORK, not /bin/bash, which the
 * exec ended before it.  The copy of /bin/bash, made before the exec was
 * read, stayed (and /bin/new came too once a late map was copied).
 */
static void exec_late_records(struct sbuf *b)
{
	fk_comm(b, 10, 10, "bash", 0, 0);
	fk_mmap(b, 10, 0x400000, "/bin/bash", 0);
	fk_fork(b, 20, 10, 20, 10, 1100);
	fk_sample(b, 20, 20, 1200);
	fk_comm(b, 10, 10, "new", 1, 1050);
	fk_mmap(b, 10, 0x400000, "/bin/new", 1060);
}

Test(perf_roundtrip, parent_exec_read_after_fork)
{
	static struct sbuf b;
	for (int file = 0; file < 2; file++) {
		struct pebs_perf_reader *r = fk_open(&b, file,
						     exec_late_records);
		char paths[128];
		seg_paths(pebs_perf_reader_meta(r), "20", paths,
			  sizeof(paths));
		cr_expect_str_eq(paths, "/bin/new", "file %d: %s", file,
				 paths);
		pebs_perf_reader_close(r);
	}
}

/*
 * A header string cut short (HOSTNAME of length 100 in a 16-byte
 * HEADER_FEATURE, pipe layout) is a feature left out, not "out of
 * memory": rdstr() said -1, which is -PEBS_E_NOMEM, and the import
 * exited 3 (found by a mutation hunt).
 */
Test(perf_roundtrip, cut_header_string_is_not_out_of_memory)
{
	static struct sbuf b;
	memcpy(b.b, "PERFILE2", 8);
	b.n = 8;
	put64(&b, 16);
	size_t at = begin_rec(&b, 80);	/* HEADER_FEATURE */
	put64(&b, 3);			/* HOSTNAME */
	put64(&b, 100);			/* its length, past the record */
	end_rec(&b, at);
	struct pebs_perf_reader *r;
	int e = pebs_perf_reader_open_mem(&r, b.b, b.n, NULL);
	cr_assert_eq(e, 0, "%d: %s", e, pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	cr_expect_eq(pebs_perf_reader_next(r, &it), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	cr_expect_null(pebs_meta_get(pebs_perf_reader_meta(r), "host"));
	pebs_perf_reader_close(r);
}
