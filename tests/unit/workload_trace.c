/*
 * workload_trace.c - trace replay (pebs_workload_open_trace, lib/trace.c):
 * the files of testdata/good/trace-* give exact streams, every file of
 * testdata/bad/trace-* gives its exact message, with its line number.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pebs_workload.h"

static long all(const char *path, struct pebs_access *a, size_t max,
		struct pebs_workload **wp)
{
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open_trace(&w, path, NULL), 0, "%s", path);
	size_t n = 0;
	long r = 0;
	while (n < max && (r = pebs_workload_next(w, a + n, 2)) > 0)
		n += (size_t)r;
	if (wp)
		*wp = w;
	else
		pebs_workload_close(w);
	return r < 0 ? r : (long)n;
}

Test(wtrace, basic)
{
	struct pebs_access a[16];
	struct pebs_workload *w;
	cr_assert_eq(all("testdata/good/trace-basic.txt", a, 16, &w), 6);
	/* ns to cycles at the simulated clock's 2 GHz (PEBS_SIM_TSC_HZ),
	 * from the first access. */
	static const uint64_t cyc[6] = { 0, 0, 800, 2000, 2000, 2000 };
	static const uint8_t kind[6] = { PEBS_ACC_STORE, PEBS_ACC_STORE,
		PEBS_ACC_LOAD, PEBS_ACC_LOAD, PEBS_ACC_STORE, PEBS_ACC_LOAD };
	for (int i = 0; i < 6; i++) {
		cr_assert_eq(a[i].cycle, cyc[i], "access %d", i);
		cr_assert_eq(a[i].kind, kind[i], "access %d", i);
		cr_assert_eq(a[i].pid, 4242);
	}
	/* Threads by first appearance: 4242 cpu 0, 4243 cpu 4 (socket 1). */
	cr_assert_eq(a[0].tid, 4242);
	cr_assert_eq(a[0].cpu, 0);
	cr_assert_eq(a[1].tid, 4243);
	cr_assert_eq(a[1].cpu, 4);
	cr_assert_eq(a[1].addr, 0x404048);
	/* 4243's store took the line from 4242 (other socket)... */
	cr_assert_eq(a[1].src, PEBS_SRC_REMOTE_HITM);
	cr_assert_eq(a[2].src, PEBS_SRC_L1);
	/* ...and 4242's atomic update: a locked load, then its store. */
	cr_assert_eq(a[3].src, PEBS_SRC_REMOTE_HITM);
	cr_assert_eq(a[3].flags & PEBS_ACC_LOCKED, PEBS_ACC_LOCKED);
	cr_assert_eq(a[4].flags & PEBS_ACC_LOCKED, PEBS_ACC_LOCKED);
	cr_assert_eq(a[4].src, PEBS_SRC_L1);
	cr_assert_eq(a[4].ip, 0x401150);
	cr_assert_eq(a[5].size, 4);
	cr_assert_eq(a[5].ip, 0x401160);	/* hex without 0x */
	cr_assert_eq(a[5].addr, 0x7ffc0010);

	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_workload_meta(w, m), 0);
	cr_assert_str_eq(pebs_meta_get(m, "workload.name"), "trace");
	cr_assert_str_eq(pebs_meta_get(m, "workload.path"),
			 "testdata/good/trace-basic.txt");
	cr_assert_str_eq(pebs_meta_get(m, "workload.command"),
			 "./false_sharing 2");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.pid"), "4242");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.start"), "0x400000");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.end"), "0x401000");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.pgoff"), "0x0");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.path"),
			 "/usr/local/bin/false sharing");
	cr_assert_str_eq(pebs_meta_get(m, "maps.0.build_id"),
			 "0123456789abcdef0123456789abcdef01234567");
	/* [heap] has no symbols: left out, as pebs-import does. */
	cr_assert_null(pebs_meta_get(m, "maps.1.path"));
	cr_assert_str_eq(pebs_meta_get(m, "topology.nr_cpus"), "8");
	pebs_meta_free(m);
	pebs_workload_close(w);
}

Test(wtrace, cycles_and_placed_cpus)
{
	struct pebs_access a[4];
	cr_assert_eq(all("testdata/good/trace-cycles.txt", a, 4, NULL), 3);
	cr_assert_eq(a[1].cycle, 1000);
	cr_assert_eq(a[2].cycle, 2000);
	cr_assert_eq(a[0].cpu, 0);
	cr_assert_eq(a[1].cpu, 1);
	cr_assert_eq(a[2].cpu, 4);
	cr_assert_eq(a[0].src, PEBS_SRC_LOCAL_DRAM);
	cr_assert_eq(a[1].src, PEBS_SRC_L3_HITM);
	cr_assert_eq(a[2].src, PEBS_SRC_REMOTE_FWD);
	cr_assert_eq(a[1].pid, 7);
	cr_assert_eq(a[2].tid, 9);
}

Test(wtrace, empty_with_crlf)
{
	struct pebs_access a[1];
	cr_assert_eq(all("testdata/good/trace-empty.txt", a, 1, NULL), 0);
}

/* Version 2 (libpebs-trace's): complete up to its "end N" line, which
 * counts the access lines; nothing after it is read. */
Test(wtrace, version2_end)
{
	struct pebs_access a[4];
	cr_assert_eq(all("testdata/good/trace-v2.txt", a, 4, NULL), 2);
	cr_assert_eq(a[1].addr, 0x80);
}

/* Blanks after the header's version and the fields, one CR before each
 * LF: all allowed (formats/trace-format.md section 1). */
Test(wtrace, blanks_and_crlf)
{
	struct pebs_access a[2];
	cr_assert_eq(all("testdata/good/trace-blanks.txt", a, 2, NULL), 1);
	cr_assert_eq(a[0].addr, 2);
}

Test(wtrace, limit_and_machine_shape)
{
	struct pebs_workload_opts o = { .accesses = 2, .sockets = 1,
					.cores = 2 };
	struct pebs_workload *w;
	struct pebs_access a[8];
	cr_assert_eq(pebs_workload_open_trace(&w,
			"testdata/good/trace-basic.txt", &o), 0);
	cr_assert_eq(pebs_workload_next(w, a, 8), 2);
	cr_assert_eq(pebs_workload_next(w, a, 8), 0);
	cr_assert_eq(a[1].cpu, 1);	/* one socket: 4243 on core 1 */
	cr_assert_eq(a[1].src, PEBS_SRC_L3_HITM);
	pebs_workload_close(w);
}

Test(wtrace, missing_file)
{
	struct pebs_workload *w = (void *)1;
	errno = 0;
	cr_assert_eq(pebs_workload_open_trace(&w, "testdata/bad/nonexistent",
					      NULL), -PEBS_E_IO);
	cr_assert_eq(errno, ENOENT);
	cr_assert_null(w);
	cr_assert_eq(pebs_workload_open_trace(&w, NULL, NULL), -PEBS_E_INVAL);
}

struct bad {
	const char *file;
	long good;	/* accesses before the error */
	int err;
	const char *msg;
};

static const struct bad bads[] = {
	{ "trace-empty-file", 0, PEBS_E_FORMAT,
	  "line 1: empty input, expected 'pebs-trace 2' or 'pebs-trace 1'" },
	{ "trace-no-header", 0, PEBS_E_FORMAT,
	  "line 1: not a pebs-trace file (expected 'pebs-trace 2' or "
	  "'pebs-trace 1')" },
	{ "trace-version", 0, PEBS_E_VERSION,
	  "line 1: trace format version '3' is not supported "
	  "(this reader knows 1 and 2)" },
	{ "trace-bad-op", 1, PEBS_E_PARSE,
	  "line 3: OP 'X' is not R, W or U" },
	{ "trace-time-backwards", 1, PEBS_E_PARSE,
	  "line 3: time 9 is before the previous access's 10 "
	  "(the trace must be in time order)" },
	{ "trace-size-zero", 0, PEBS_E_RANGE,
	  "line 2: SIZE 0 (must be 1-64)" },
	{ "trace-size-big", 0, PEBS_E_RANGE,
	  "line 2: SIZE '128' out of range" },
	{ "trace-bad-hex", 0, PEBS_E_PARSE,
	  "line 2: ADDR '0xfoo' is not a hexadecimal number" },
	{ "trace-extra-field", 0, PEBS_E_PARSE,
	  "line 2: unexpected field 'extra' after ADDR" },
	{ "trace-unknown-directive", 0, PEBS_E_PARSE,
	  "line 2: unknown directive 'color'" },
	{ "trace-missing-field", 0, PEBS_E_PARSE, "line 2: missing ADDR" },
	{ "trace-huge-time", 0, PEBS_E_RANGE,
	  "line 2: TIME '99999999999999999999' out of range" },
	{ "trace-cpu-range", 0, PEBS_E_RANGE,
	  "line 2: cpu 99 is outside the simulated machine (8 cpus)" },
	{ "trace-late-clock", 1, PEBS_E_PARSE,
	  "line 3: clock after the first access" },
	{ "trace-map-range", 0, PEBS_E_RANGE,
	  "line 2: map END is not above START" },
	{ "trace-build-id", 0, PEBS_E_PARSE,
	  "line 3: build-id '12XY' is not 1-20 bytes of lowercase hex" },
	{ "trace-junk", 1, PEBS_E_PARSE,
	  "line 3: neither an access, a directive nor a comment: '@junk'" },
	{ "trace-header-tab", 0, PEBS_E_FORMAT,
	  "line 1, column 11: a tab where the header has one space "
	  "(expected 'pebs-trace 2' or 'pebs-trace 1')" },
	{ "trace-header-spaces", 0, PEBS_E_FORMAT,
	  "line 1, column 12: a second space where the header has one "
	  "space (expected 'pebs-trace 2' or 'pebs-trace 1')" },
	{ "trace-header-junk", 0, PEBS_E_FORMAT,
	  "line 1, column 14: unexpected 'x' after the version" },
	{ "trace-header-cr", 0, PEBS_E_FORMAT,
	  "line 1, column 13: a second CR before the line's end (one CR "
	  "before the LF is allowed)" },
	{ "trace-header-word", 0, PEBS_E_FORMAT,
	  "line 1, column 12: version 'one' is not a number (expected "
	  "'pebs-trace 2' or 'pebs-trace 1')" },
	{ "trace-clock-junk", 0, PEBS_E_PARSE,
	  "line 2: unexpected 'junk' after clock ns" },
	/* version 2 without its end line: cut while being written */
	{ "trace-v2-no-end", 1, PEBS_E_TRUNCATED,
	  "line 3: incomplete: no 'end' line (its program was probably "
	  "killed while writing it)" },
	{ "trace-v2-cut", 1, PEBS_E_TRUNCATED,
	  "line 3: incomplete: cut short, no 'end' line (its program was "
	  "probably killed while writing it)" },
	{ "trace-v2-error", 0, PEBS_E_IO,
	  "line 2: incomplete: its program could not write it: No space "
	  "left on device" },
	/* another writer's error line without a reason */
	{ "trace-v2-error-empty", 0, PEBS_E_IO,
	  "line 2: incomplete: its program could not write it: (no reason "
	  "given)" },
	{ "trace-end-count", 1, PEBS_E_PARSE,
	  "line 3: end says 2 access lines, the trace has 1" },
	{ "trace-second-cr", 0, PEBS_E_PARSE,
	  "line 2, column 9: a second CR before the line's end (one CR "
	  "before the LF is allowed)" },
};

Test(wtrace, bad_inputs)
{
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		const struct bad *b = &bads[i];
		char path[128];
		snprintf(path, sizeof(path), "testdata/bad/%s.txt", b->file);
		struct pebs_workload *w;
		struct pebs_access a[4];
		/* Opening succeeds: the message needs the handle. */
		cr_assert_eq(pebs_workload_open_trace(&w, path, NULL), 0,
			     "%s", path);
		long n = 0, r;
		while ((r = pebs_workload_next(w, a, 1)) > 0)
			n += r;
		cr_assert_eq(n, b->good, "%s: accesses before the error",
			     b->file);
		cr_assert_eq(r, -b->err, "%s: error %ld", b->file, r);
		cr_assert_str_eq(pebs_workload_errmsg(w), b->msg, "%s",
				 b->file);
		/* The error sticks. */
		cr_assert_eq(pebs_workload_next(w, a, 4), -b->err);
		pebs_workload_close(w);
	}
}
