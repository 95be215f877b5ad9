/*
 * workload_e2e.c - a real program traced end to end: examples/
 * false_sharing.c compiled with -fsanitize=thread, linked against the
 * libpebs-trace runtime (trace/pebs-trace.c, built here so the test does
 * not depend on a build rule), run, and its trace replayed: several
 * threads must write distinct offsets of one cache line, and the replay
 * must see HITM on it; built with -DPADDED (the fix), no line is written
 * by two threads and HITM all but vanishes.  Skipped (saying why) when the
 * compiler has no -fsanitize=thread.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_workload.h"
#include "testutil.h"

/*
 * Builds examples/@name.c with @cc (and @defs), links it with the runtime,
 * runs it with its trace going to @dir/trace.  Skips the test when @cc has
 * no -fsanitize=thread.
 */
static void build_and_run(const char *cc, const char *name, const char *defs,
			  const char *dir)
{
	tu_build_traced(cc, name, defs, dir);
	cr_assert_eq(tu_sh("PEBS_TRACE_OUT=%s/trace %s/fs >/dev/null", dir,
			   dir), 0, "the program runs and counts right");
}

/* A new scratch directory under $TMPDIR (or /tmp). */
static void tmpdir(char *dir, size_t cap)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, cap, "%s/pebs-e2e-XXXXXX", t && *t ? t : "/tmp");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp %s", dir);
}

struct line_use {
	uint64_t line;
	uint64_t st_offs, st_tids, hitm;
};

static void trace_program(const char *cc, int padded)
{
	char dir[512];
	tmpdir(dir, sizeof(dir));
	build_and_run(cc, "false_sharing", padded ? "-DPADDED" : "", dir);
	char path[600];
	snprintf(path, sizeof(path), "%s/trace", dir);
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open_trace(&w, path, NULL), 0);
	static struct pebs_access a[4096];
	struct line_use use[64] = { { 0 } };
	size_t nuse = 0, total = 0;
	uint32_t tids[16] = { 0 };
	size_t ntids = 0;
	long n;
	while ((n = pebs_workload_next(w, a, 4096)) > 0) {
		for (long i = 0; i < n; i++) {
			total++;
			size_t t = 0;
			while (t < ntids && tids[t] != a[i].tid)
				t++;
			if (t == ntids && ntids < 16)
				tids[ntids++] = a[i].tid;
			if (a[i].kind != PEBS_ACC_STORE &&
			    !(a[i].src == PEBS_SRC_L3_HITM ||
			      a[i].src == PEBS_SRC_REMOTE_HITM))
				continue;
			uint64_t line = a[i].addr & ~63ull;
			size_t u = 0;
			while (u < nuse && use[u].line != line)
				u++;
			if (u == nuse) {
				if (nuse == 64)
					continue;
				use[nuse++].line = line;
			}
			if (a[i].kind == PEBS_ACC_STORE) {
				use[u].st_offs |= 1ull << (a[i].addr & 63);
				use[u].st_tids |= 1ull << (t < 64 ? t : 63);
			} else {
				use[u].hitm++;
			}
		}
	}
	cr_assert_eq(n, 0, "replay: %s", pebs_workload_errmsg(w));
	cr_assert_gt(total, 100000, "the loop's accesses were recorded");
	cr_assert_geq(ntids, 5, "main and four workers");
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_workload_meta(w, m), 0);
	const char *p0 = pebs_meta_get(m, "maps.0.path");
	cr_assert_not_null(p0);
	cr_assert_not_null(strstr(p0, "/fs"), "first map is the program");
	cr_assert_not_null(strstr(pebs_meta_get(m, "workload.command"),
				  "/fs"));
	pebs_meta_free(m);
	pebs_workload_close(w);

	uint64_t hitm = 0;
	const struct line_use *best = NULL;
	if (padded) {
		/* Only main's 4 reads of the counters after the joins. */
		for (size_t u = 0; u < nuse; u++) {
			cr_assert_leq(__builtin_popcountll(use[u].st_tids), 1);
			hitm += use[u].hitm;
		}
		cr_assert_leq(hitm, 8, "HITM loads after the fix: %llu",
			      (unsigned long long)hitm);
		tu_sh("rm -rf %s", dir);
		return;
	}
	/* The counters' line: four threads storing at four offsets. */
	for (size_t u = 0; u < nuse; u++)
		if (__builtin_popcountll(use[u].st_tids) >= 4 &&
		    (!best || use[u].hitm > best->hitm))
			best = &use[u];
	cr_assert_not_null(best, "no line written by 4 threads");
	cr_assert_eq(__builtin_popcountll(best->st_offs), 4,
		     "offsets written: %llx",
		     (unsigned long long)best->st_offs);
	cr_assert_gt(best->hitm, 100, "HITM loads on the line: %llu",
		     (unsigned long long)best->hitm);
	tu_sh("rm -rf %s", dir);
}

Test(trace_e2e, false_sharing_gcc)
{
	tu_deadline(120);
	const char *cc = getenv("CC");
	trace_program(cc && *cc ? cc : "cc", 0);
}

Test(trace_e2e, padded_fix_gcc)
{
	tu_deadline(120);
	const char *cc = getenv("CC");
	trace_program(cc && *cc ? cc : "cc", 1);
}

Test(trace_e2e, false_sharing_clang)
{
	tu_deadline(120);
	if (tu_sh("clang --version >/dev/null 2>&1") != 0)
		cr_skip_test("clang not installed: not tested");
	trace_program("clang", 0);
}

/* Atomics: lock xadd by four threads on one counter (U in the trace). */
Test(trace_e2e, true_sharing_atomics)
{
	tu_deadline(120);
	const char *cc = getenv("CC");
	char dir[512];
	tmpdir(dir, sizeof(dir));
	build_and_run(cc && *cc ? cc : "cc", "true_sharing", "", dir);
	char path[600];
	snprintf(path, sizeof(path), "%s/trace", dir);
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open_trace(&w, path, NULL), 0);
	static struct pebs_access a[4096];
	uint64_t addr = 0, locked_ld = 0, locked_st = 0, hitm = 0, tids = 0;
	uint32_t first_tid = 0;
	long n;
	while ((n = pebs_workload_next(w, a, 4096)) > 0) {
		for (long i = 0; i < n; i++) {
			if (!(a[i].flags & PEBS_ACC_LOCKED))
				continue;
			if (!addr)
				addr = a[i].addr;
			cr_assert_eq(a[i].addr, addr, "one counter");
			if (!first_tid)
				first_tid = a[i].tid;
			tids |= 1ull << ((a[i].tid - first_tid) & 63);
			if (a[i].kind == PEBS_ACC_LOAD) {
				locked_ld++;
				hitm += a[i].src == PEBS_SRC_L3_HITM ||
					a[i].src == PEBS_SRC_REMOTE_HITM;
			} else {
				locked_st++;
			}
		}
	}
	cr_assert_eq(n, 0, "replay: %s", pebs_workload_errmsg(w));
	pebs_workload_close(w);
	/* 4 threads x 50000 atomic adds, each a locked load and store. */
	cr_assert_eq(locked_ld, 200000);
	cr_assert_eq(locked_st, 200000);
	cr_assert_geq(__builtin_popcountll(tids), 4);
	cr_assert_gt(hitm, 1000, "HITM on the counter: %llu",
		     (unsigned long long)hitm);
	tu_sh("rm -rf %s", dir);
}
