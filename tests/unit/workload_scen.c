/*
 * workload_scen.c - the built-in scenarios (pebs_workload.h): the stream
 * is well formed, deterministic by seed, and each scenario's dominant
 * outcomes are the ones it exists to show.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_workload.h"

#define N 200000u

static struct pebs_access *run(const char *name, uint64_t seed,
			       uint64_t accesses, size_t *n)
{
	struct pebs_workload_opts o = { .seed = seed, .accesses = accesses };
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open(&w, name, &o), 0, "%s", name);
	struct pebs_access *a = calloc(accesses, sizeof(*a));
	cr_assert_not_null(a);
	size_t got = 0;
	long r;
	/* Odd batch sizes: the stream must not depend on them. */
	while ((r = pebs_workload_next(w, a + got,
				       accesses - got < 777 ? accesses - got :
				       777)) > 0)
		got += (size_t)r;
	cr_assert_eq(r, 0, "%s: %s", name, pebs_workload_errmsg(w));
	cr_assert_eq(pebs_workload_next(w, a, 1), 0, "stays at the end");
	pebs_workload_close(w);
	*n = got;
	return a;
}

static int is_hitm(unsigned src)
{
	return src == PEBS_SRC_L3_HITM || src == PEBS_SRC_REMOTE_HITM;
}

Test(workload, names_and_descriptions)
{
	const char *const *nm = pebs_workload_names();
	const char *want[] = { "false-sharing", "true-sharing", "streaming",
			       "pointer-chase", "remote-numa", "store-heavy",
			       "frontend", "mixed" };
	size_t i = 0;
	for (; nm[i]; i++) {
		cr_assert_lt(i, 8);
		cr_assert_str_eq(nm[i], want[i]);
		cr_assert_not_null(pebs_workload_describe(nm[i]));
		cr_assert_gt(strlen(pebs_workload_describe(nm[i])), 20);
	}
	cr_assert_eq(i, 8);
	cr_assert_null(pebs_workload_describe("nope"));
	struct pebs_workload *w = (void *)1;
	cr_assert_eq(pebs_workload_open(&w, "nope", NULL), -PEBS_E_INVAL);
	cr_assert_null(w);
	struct pebs_workload_opts o = { .sockets = 9 };
	cr_assert_eq(pebs_workload_open(&w, "streaming", &o), -PEBS_E_INVAL);
	cr_assert_eq(pebs_workload_next(NULL, NULL, 0), -PEBS_E_INVAL);
	cr_assert_str_eq(pebs_workload_errmsg(NULL), "");
	pebs_workload_close(NULL);
}

Test(workload, every_scenario_well_formed)
{
	for (const char *const *nm = pebs_workload_names(); *nm; nm++) {
		size_t n;
		struct pebs_access *a = run(*nm, 3, 20000, &n);
		cr_assert_eq(n, 20000, "%s: the accesses option is honoured",
			     *nm);
		uint32_t pid = a[0].pid;
		for (size_t i = 0; i < n; i++) {
			cr_assert(i == 0 || a[i].cycle >= a[i - 1].cycle,
				  "%s: cycle order at %zu", *nm, i);
			cr_assert_lt(a[i].cpu, 8);
			cr_assert_eq(a[i].pid, pid);
			cr_assert(a[i].tid >= pid && a[i].tid < pid + 8);
			cr_assert(a[i].kind >= PEBS_ACC_LOAD &&
				  a[i].kind <= PEBS_ACC_IFETCH);
			cr_assert_lt(a[i].src, PEBS_SRC_COUNT);
			cr_assert_neq(a[i].ip, 0);
			if (a[i].kind == PEBS_ACC_IFETCH)
				continue;
			cr_assert(a[i].size >= 1 && a[i].size <= 64);
			cr_assert_neq(a[i].src, PEBS_SRC_NONE);
			if (a[i].kind == PEBS_ACC_STORE)
				cr_assert_eq(a[i].lat, 0);
			else
				cr_assert_geq(a[i].lat, 4);
		}
		free(a);
	}
}

Test(workload, deterministic_by_seed)
{
	size_t n1, n2, n3;
	struct pebs_access *a = run("remote-numa", 11, 30000, &n1);
	struct pebs_access *b = run("remote-numa", 11, 30000, &n2);
	struct pebs_access *c = run("remote-numa", 12, 30000, &n3);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(a, b, n1 * sizeof(*a)), 0);
	cr_assert_neq(memcmp(a, c, n1 * sizeof(*a)), 0);
	free(a);
	free(b);
	free(c);
}

Test(workload, threads_pinned_round_robin)
{
	struct pebs_workload_opts o = { .seed = 1, .threads = 6,
					.accesses = 6000, .sockets = 2,
					.cores = 2 };
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open(&w, "store-heavy", &o), 0);
	struct pebs_access a[6000];
	cr_assert_eq(pebs_workload_next(w, a, 6000), 6000);
	/* thread i: socket i % 2, core (i / 2) % 2. */
	static const unsigned cpu_of[6] = { 0, 2, 1, 3, 0, 2 };
	unsigned seen = 0;
	for (size_t i = 0; i < 6000; i++) {
		unsigned t = a[i].tid - a[i].pid;
		cr_assert_lt(t, 6);
		cr_assert_eq(a[i].cpu, cpu_of[t], "thread %u on cpu %u", t,
			     a[i].cpu);
		seen |= 1u << t;
	}
	cr_assert_eq(seen, 0x3f);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_workload_meta(w, m), 0);
	cr_assert_str_eq(pebs_meta_get(m, "topology.nr_cpus"), "4");
	cr_assert_str_eq(pebs_meta_get(m, "topology.node.0.cpus"), "0-1");
	cr_assert_str_eq(pebs_meta_get(m, "topology.node.1.cpus"), "2-3");
	cr_assert_str_eq(pebs_meta_get(m, "topology.cpu.3.socket"), "1");
	cr_assert_str_eq(pebs_meta_get(m, "workload.name"), "store-heavy");
	cr_assert_str_eq(pebs_meta_get(m, "workload.threads"), "6");
	cr_assert_str_eq(pebs_meta_get(m, "workload.ips.0.ip"), "0x401670");
	cr_assert_str_eq(pebs_meta_get(m, "workload.ips.0.name"),
			 "fill: store dst[i]");
	pebs_meta_free(m);
	pebs_workload_close(w);
}

#define FS_LINE 0x404040ull

Test(workload, false_sharing_hitm_on_distinct_offsets)
{
	size_t n;
	struct pebs_access *a = run("false-sharing", 1, N, &n);
	uint64_t loads = 0, hitm = 0, offs = 0, tids = 0, st_offs = 0;
	uint32_t user[64] = { 0 };	/* the one thread using an offset */
	for (size_t i = 0; i < n; i++) {
		if ((a[i].addr & ~63ull) != FS_LINE)
			continue;
		unsigned off = (unsigned)(a[i].addr & 63);
		if (off != 56) {	/* shared.limit is read by all */
			if (!user[off])
				user[off] = a[i].tid;
			cr_assert_eq(user[off], a[i].tid, "offset %u", off);
		}
		if (a[i].kind == PEBS_ACC_STORE) {
			cr_assert_neq(off, 56, "nobody writes the limit");
			st_offs |= 1ull << off;
			continue;
		}
		loads++;
		if (is_hitm(a[i].src)) {
			hitm++;
			offs |= 1ull << off;
			tids |= 1ull << (a[i].tid - a[i].pid);
		}
	}
	cr_assert_gt(hitm * 5, loads, "%llu HITM of %llu loads of the line",
		     (unsigned long long)hitm, (unsigned long long)loads);
	/* Four counters at offsets 0, 8, 16, 24, and the limit at 56. */
	cr_assert_eq(offs, 0x0100000001010101ull, "HITM offsets %llx",
		     (unsigned long long)offs);
	cr_assert_eq(st_offs, 0x01010101ull);
	cr_assert_eq(tids, 0xf);
	free(a);
}

#define TS_LINE 0x404080ull

Test(workload, true_sharing_hitm_on_one_offset)
{
	size_t n;
	struct pebs_access *a = run("true-sharing", 1, N, &n);
	uint64_t loads = 0, hitm = 0, tids = 0, locked = 0;
	for (size_t i = 0; i < n; i++) {
		if ((a[i].addr & ~63ull) != TS_LINE)
			continue;
		cr_assert_eq(a[i].addr, TS_LINE, "one offset only");
		locked += (a[i].flags & PEBS_ACC_LOCKED) != 0;
		if (a[i].kind != PEBS_ACC_LOAD)
			continue;
		loads++;
		if (is_hitm(a[i].src)) {
			hitm++;
			tids |= 1ull << (a[i].tid - a[i].pid);
		}
	}
	cr_assert_gt(hitm * 3, loads, "%llu HITM of %llu loads",
		     (unsigned long long)hitm, (unsigned long long)loads);
	cr_assert_eq(tids, 0xf);
	cr_assert_gt(locked, loads);
	free(a);
}

/* Counts of src over loads (kind) whose ip is @ip (0 = any). */
static void count(const struct pebs_access *a, size_t n, int kind,
		  uint64_t ip, uint64_t *c, uint64_t *total, uint64_t *stlb)
{
	memset(c, 0, PEBS_SRC_COUNT * sizeof(*c));
	*total = *stlb = 0;
	for (size_t i = 0; i < n; i++) {
		if (a[i].kind != kind || (ip && a[i].ip != ip))
			continue;
		c[a[i].src]++;
		(*total)++;
		*stlb += (a[i].flags & PEBS_ACC_STLB_MISS) != 0;
	}
}

Test(workload, streaming_hits_near_caches)
{
	size_t n;
	uint64_t c[PEBS_SRC_COUNT], t, stlb;
	struct pebs_access *a = run("streaming", 1, N, &n);
	count(a, n, PEBS_ACC_LOAD, 0, c, &t, &stlb);
	uint64_t near = c[PEBS_SRC_L1] + c[PEBS_SRC_LFB] + c[PEBS_SRC_L2];
	cr_assert_gt(near * 100, t * 95, "L1+LFB+L2 %llu of %llu",
		     (unsigned long long)near, (unsigned long long)t);
	cr_assert_gt(c[PEBS_SRC_L1], c[PEBS_SRC_LFB]);
	cr_assert_gt(c[PEBS_SRC_LFB], 0);
	cr_assert_gt(c[PEBS_SRC_L2], 0);
	free(a);
}

Test(workload, pointer_chase_goes_to_dram)
{
	size_t n;
	uint64_t c[PEBS_SRC_COUNT], t, stlb;
	struct pebs_access *a = run("pointer-chase", 1, N, &n);
	count(a, n, PEBS_ACC_LOAD, 0x401450, c, &t, &stlb);
	cr_assert_gt(c[PEBS_SRC_LOCAL_DRAM] * 10, t * 8);
	cr_assert_gt(stlb * 2, t, "STLB misses %llu of %llu",
		     (unsigned long long)stlb, (unsigned long long)t);
	/* node->val is in the line just loaded. */
	count(a, n, PEBS_ACC_LOAD, 0x401454, c, &t, &stlb);
	cr_assert_eq(c[PEBS_SRC_L1], t);
	free(a);
}

Test(workload, remote_numa_from_socket_1)
{
	size_t n;
	struct pebs_access *a = run("remote-numa", 1, N, &n);
	uint64_t arr[PEBS_SRC_COUNT] = { 0 }, tab[PEBS_SRC_COUNT] = { 0 };
	uint64_t na = 0;
	for (size_t i = 0; i < n; i++) {
		if (a[i].cpu < 4 || a[i].kind != PEBS_ACC_LOAD)
			continue;	/* socket 1 only */
		if (a[i].ip == 0x401580) {
			arr[a[i].src]++;
			na++;
		} else if (a[i].ip == 0x401588) {
			tab[a[i].src]++;
		}
	}
	cr_assert_gt(arr[PEBS_SRC_REMOTE_DRAM] * 2, na, "%llu of %llu",
		     (unsigned long long)arr[PEBS_SRC_REMOTE_DRAM],
		     (unsigned long long)na);
	cr_assert_eq(arr[PEBS_SRC_LOCAL_DRAM], 0);
	cr_assert_gt(tab[PEBS_SRC_REMOTE_FWD], 0);
	cr_assert_gt(tab[PEBS_SRC_REMOTE_HITM], 0);
	free(a);
}

Test(workload, store_heavy_is_stores_hitting_l1)
{
	size_t n;
	uint64_t c[PEBS_SRC_COUNT], t, stlb;
	struct pebs_access *a = run("store-heavy", 1, N, &n);
	count(a, n, PEBS_ACC_STORE, 0, c, &t, &stlb);
	cr_assert_gt(t * 10, n * 7, "%llu stores of %zu",
		     (unsigned long long)t, n);
	cr_assert_gt(c[PEBS_SRC_L1] * 10, t * 7);
	free(a);
}

Test(workload, frontend_events)
{
	size_t n;
	struct pebs_access *a = run("frontend", 1, N, &n);
	uint32_t any = 0;
	uint64_t dsb = 0;
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(a[i].kind, PEBS_ACC_IFETCH);
		any |= a[i].fe;
		dsb += (a[i].fe & PEBS_ACC_FE_DSB_MISS) != 0;
		if (a[i].fe) {
			cr_assert_gt(a[i].fe_bubbles, 0);
			cr_assert(a[i].fe_width >= 1 && a[i].fe_width <= 4);
		} else {
			cr_assert_eq(a[i].fe_bubbles, 0);
		}
	}
	cr_assert_eq(any, 0x1f, "every front-end event occurs: %x", any);
	/* Most instructions come from the hot loop, in the DSB. */
	cr_assert_lt(dsb * 4, n);
	cr_assert_gt(dsb * 100, n);
	free(a);
}

/* Which part an instruction belongs to: its function's code range. */
static int part_of(uint64_t ip)
{
	if (ip >= 0x4011a0 && ip < 0x4011e0)
		return 0;	/* false-sharing */
	if (ip >= 0x4012a0 && ip < 0x4012d0)
		return 1;	/* true-sharing */
	if (ip >= 0x401320 && ip < 0x401340)
		return 2;	/* streaming */
	if (ip >= 0x401450 && ip < 0x401460)
		return 3;	/* pointer-chase */
	return -1;
}

Test(workload, mixed_runs_two_threads_of_each_part)
{
	size_t n;
	struct pebs_access *a = run("mixed", 1, N, &n);
	cr_assert_eq(n, N);
	uint64_t per[4] = { 0 }, fs_hitm = 0, ts_hitm = 0;
	uint32_t cpus[8] = { 0 };
	for (size_t i = 0; i < n; i++) {
		unsigned t = a[i].tid - a[i].pid;
		cr_assert_lt(t, 8);
		int p = part_of(a[i].ip);
		/* thread t runs part t / 2: two threads each */
		cr_assert_eq(p, (int)(t / 2), "tid +%u ran ip %#llx", t,
			     (unsigned long long)a[i].ip);
		per[p]++;
		cpus[t] |= 1u << a[i].cpu;
		if (a[i].kind == PEBS_ACC_LOAD && is_hitm(a[i].src)) {
			fs_hitm += (a[i].addr & ~63ull) == FS_LINE;
			ts_hitm += (a[i].addr & ~63ull) == TS_LINE;
		}
	}
	/* contended and DRAM-bound threads stall: few of their accesses
	 * retire in the same cycles, but each part runs */
	for (int p = 0; p < 4; p++)
		cr_assert_gt(per[p], n / 100, "part %d: %llu accesses", p,
			     (unsigned long long)per[p]);
	/* the two threads of a part sit on different sockets (CPUs 0-3
	 * and 4-7), so their sharing crosses sockets */
	for (unsigned t = 0; t < 8; t += 2) {
		cr_assert_eq(__builtin_popcount(cpus[t]), 1);
		cr_assert_eq(__builtin_popcount(cpus[t + 1]), 1);
		cr_assert_lt(__builtin_ctz(cpus[t]), 4);
		cr_assert_geq(__builtin_ctz(cpus[t + 1]), 4);
	}
	cr_assert_gt(fs_hitm, 0);
	cr_assert_gt(ts_hitm, 0);
	free(a);
}

Test(workload, mixed_refuses_more_than_two_threads_a_part)
{
	struct pebs_workload *w = (void *)1;
	struct pebs_workload_opts o = { .threads = 9 };
	cr_assert_eq(pebs_workload_open(&w, "mixed", &o), -PEBS_E_INVAL);
	cr_assert_null(w);
	o.threads = 8;
	cr_assert_eq(pebs_workload_open(&w, "mixed", &o), 0);
	pebs_workload_close(w);
}

Test(workload, mixed_lists_its_parts_instructions)
{
	struct pebs_workload *w;
	cr_assert_eq(pebs_workload_open(&w, "mixed", NULL), 0);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	cr_assert_eq(pebs_workload_meta(w, m), 0);
	cr_assert_str_eq(pebs_meta_get(m, "workload.name"), "mixed");
	cr_assert_str_eq(pebs_meta_get(m, "workload.threads"), "8");
	/* false-sharing's four, true-sharing's three, streaming's four,
	 * pointer-chase's two, numbered on */
	cr_assert_str_eq(pebs_meta_get(m, "workload.ips.0.name"),
			 "fs_worker: load shared.count[id]");
	cr_assert_str_eq(pebs_meta_get(m, "workload.ips.4.ip"), "0x4012b5");
	cr_assert_str_eq(pebs_meta_get(m, "workload.ips.12.name"),
			 "chase: load n->val");
	cr_assert_null(pebs_meta_get(m, "workload.ips.13.ip"));
	pebs_meta_free(m);
	pebs_workload_close(w);
}

/*
 * remote-numa's description says where its threads run: threads 0 and 2
 * on socket 0 (cpus 0 and 1), threads 1 and 3 on socket 1 (cpus 4 and
 * 5).  Thread 2 reads the array from its own socket's memory (it said
 * "threads on socket 1 read...", as if all the readers were remote).
 */
Test(workload, remote_numa_placement_as_described)
{
	size_t n;
	struct pebs_access *a = run("remote-numa", 1, N, &n);
	uint64_t c[PEBS_SRC_COUNT] = { 0 }, t = 0;
	uint32_t pid = a[0].pid;
	for (size_t i = 0; i < n; i++) {
		static const unsigned cpu[4] = { 0, 4, 1, 5 };
		cr_assert_eq(a[i].cpu, cpu[a[i].tid - pid], "tid %u",
			     a[i].tid);
		if (a[i].tid - pid == 2 && a[i].ip == 0x401580) {
			c[a[i].src]++;
			t++;
		}
	}
	cr_assert_eq(c[PEBS_SRC_REMOTE_DRAM], 0);
	cr_assert_gt(c[PEBS_SRC_LOCAL_DRAM] * 2, t, "%llu of %llu",
		     (unsigned long long)c[PEBS_SRC_LOCAL_DRAM],
		     (unsigned long long)t);
	cr_assert_str_eq(pebs_workload_describe("remote-numa"),
			 "thread 0 (socket 0) writes a table and reads an "
			 "array, both homed on socket 0; threads 1 and 3 "
			 "(socket 1) read them remotely (REMOTE_DRAM, "
			 "REMOTE_FWD, REMOTE_HITM), thread 2 (socket 0) "
			 "locally (LOCAL_DRAM, L3_HITM)");
	free(a);
}
