/*
 * workload_scen.c - the built-in scenarios: small programs described as
 * the loads and stores each thread retires, iteration by iteration.
 *
 * Address space of the simulated process (stable, so reports can name
 * things): code at 0x401000 (each scenario its own function, its
 * instructions listed in its ips[] table), globals at 0x404000, thread i's
 * heap arena at 0x7f0000000000 + i * 256 MiB, thread i's stack below
 * 0x7ffc00000000 - i * 8 MiB.  Every thread runs the same loop; the
 * scheduler (workload.c) interleaves them by cycle.
 */
#include "workload_int.h"

#define GLOBALS 0x404000ull
#define HEAP(i) (0x7f0000000000ull + (uint64_t)(i) * 0x10000000ull)
#define STACK(i) (0x7ffc00000000ull - (uint64_t)(i) * 0x800000ull - 0x2000)

static void mem(struct pebs_access *a, int kind, uint64_t ip, uint64_t addr,
		unsigned size)
{
	a->kind = (uint8_t)kind;
	a->ip = ip;
	a->addr = addr;
	a->size = (uint8_t)size;
}

/* Ends an iteration: the next step starts at phase 0. */
static void next_iter(struct wthread *t)
{
	t->phase = 0;
	t->iter++;
}

/* ------------------------------------------------------- false sharing */

/*
 * struct { long count[7]; long limit; } shared at 0x404040, one line:
 * thread id does shared.count[id]++ and, every 2nd iteration, reads
 * shared.limit, which nobody writes; and reads four words of a private
 * 8 KiB stack buffer.  No byte is used by two threads: pure false
 * sharing (threads beyond the 7th count on the next line).
 */
#define FS_COUNTERS (GLOBALS + 0x40)
#define FS_LIMIT (FS_COUNTERS + 56)
static const struct workload_ip fs_ips[] = {
	{ 0x4011a3, "fs_worker: load shared.count[id]" },
	{ 0x4011aa, "fs_worker: store shared.count[id]" },
	{ 0x4011c0, "fs_worker: load shared.limit" },
	{ 0x4011d0, "fs_worker: load buf[i] (private)" },
	{ 0, NULL }
};

static void fs_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	uint64_t own = FS_COUNTERS + 8ull * t->idx + (t->idx >= 7 ? 8 : 0);
	for (;;) {
		switch (t->phase++) {
		case 0:
			mem(a, PEBS_ACC_LOAD, fs_ips[0].ip, own, 8);
			return;
		case 1:
			mem(a, PEBS_ACC_STORE, fs_ips[1].ip, own, 8);
			return;
		case 2:
			if (t->iter % 2)
				continue;
			mem(a, PEBS_ACC_LOAD, fs_ips[2].ip, FS_LIMIT, 8);
			return;
		default:
			/* Four words of private work between updates. */
			mem(a, PEBS_ACC_LOAD, fs_ips[3].ip, STACK(t->idx) +
			    (t->iter * 4 + t->phase) % 1024 * 8, 8);
			if (t->phase == 7)
				next_iter(t);
			return;
		}
	}
}

/* -------------------------------------------------------- true sharing */

/*
 * One long counter at 0x404080: every thread does lock xadd on it (a
 * locked load and store by one instruction), reads it every 16th
 * iteration, and does some private work.
 */
#define TS_COUNTER (GLOBALS + 0x80)
static const struct workload_ip ts_ips[] = {
	{ 0x4012b5, "ts_worker: lock xadd counter" },
	{ 0x4012c4, "ts_worker: load counter" },
	{ 0x4012a0, "ts_worker: load buf[i] (private)" },
	{ 0, NULL }
};

static void ts_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	for (;;) {
		switch (t->phase++) {
		case 0:
			mem(a, PEBS_ACC_LOAD, ts_ips[0].ip, TS_COUNTER, 8);
			a->flags = PEBS_ACC_LOCKED;
			return;
		case 1:
			mem(a, PEBS_ACC_STORE, ts_ips[0].ip, TS_COUNTER, 8);
			a->flags = PEBS_ACC_LOCKED;
			return;
		case 2:
			if (t->iter % 16)
				continue;
			mem(a, PEBS_ACC_LOAD, ts_ips[1].ip, TS_COUNTER, 8);
			return;
		default:
			mem(a, PEBS_ACC_LOAD, ts_ips[2].ip,
			    STACK(t->idx) + (t->iter % 512) * 8, 8);
			next_iter(t);
			return;
		}
	}
}

/* ----------------------------------------------------------- streaming */

/*
 * Per thread: a[i] = b[i] + s * c[i] + tbl[(i * 7) % 2048] over 4 MiB
 * arrays of doubles (b, c, a back to back in its arena) and a 16 KiB table.
 */
#define ST_N (4ull << 20 >> 3)	/* elements per array */
static const struct workload_ip st_ips[] = {
	{ 0x401320, "triad: load b[i]" },
	{ 0x401326, "triad: load c[i]" },
	{ 0x40132f, "triad: load tbl[i*7 % 2048]" },
	{ 0x401338, "triad: store a[i]" },
	{ 0, NULL }
};

static void st_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	uint64_t i = t->iter % ST_N, base = HEAP(t->idx);
	switch (t->phase++) {
	case 0:
		mem(a, PEBS_ACC_LOAD, st_ips[0].ip, base + i * 8, 8);
		break;
	case 1:
		mem(a, PEBS_ACC_LOAD, st_ips[1].ip, base + 8 * ST_N + i * 8,
		    8);
		break;
	case 2:
		mem(a, PEBS_ACC_LOAD, st_ips[2].ip,
		    base + 24 * ST_N + (i * 7 % 2048) * 8, 8);
		break;
	default:
		mem(a, PEBS_ACC_STORE, st_ips[3].ip,
		    base + 16 * ST_N + i * 8, 8);
		next_iter(t);
		break;
	}
}

/* ------------------------------------------------------- pointer chase */

/*
 * A linked list of 1 Mi nodes of 64 bytes (64 MiB per thread) in random
 * order: node k's successor is perm(k + 1), perm a 4-round Feistel
 * permutation of 20 bits keyed by the seed.  Each step loads node->next
 * (the dependent load that stalls) and node->val.
 */
#define PC_BITS 20
static const struct workload_ip pc_ips[] = {
	{ 0x401450, "chase: load n->next" },
	{ 0x401454, "chase: load n->val" },
	{ 0, NULL }
};

static uint64_t perm(uint64_t seed, uint64_t x)
{
	const unsigned h = PC_BITS / 2;
	const uint64_t m = (1ull << h) - 1;
	uint64_t l = x >> h & m, r = x & m;
	for (unsigned i = 0; i < 4; i++) {
		uint64_t s = seed + i * 0x9E3779B97F4A7C15ull + r;
		uint64_t f = workload_rand(&s) & m;
		uint64_t n = l ^ f;
		l = r;
		r = n;
	}
	return l << h | r;
}

static void pc_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	uint64_t k = perm(w->seed + t->idx, t->iter & ((1ull << PC_BITS) - 1));
	uint64_t node = HEAP(t->idx) + k * 64;
	if (t->phase++ == 0) {
		mem(a, PEBS_ACC_LOAD, pc_ips[0].ip, node, 8);
	} else {
		mem(a, PEBS_ACC_LOAD, pc_ips[1].ip, node + 8, 8);
		next_iter(t);
	}
}

/* --------------------------------------------------------- remote NUMA */

/*
 * Thread 0 (socket 0) filled a 32 MiB array and a 16 KiB table before the
 * capture (first touch homes them on socket 0) and keeps updating the
 * table while reading the array.  The other threads read random lines of
 * the array and of the table: threads on socket 1 get REMOTE_DRAM,
 * REMOTE_FWD and REMOTE_HITM, threads on socket 0 local outcomes.  With
 * the default 4 threads on 2 sockets (round-robin, workload.c) threads 1
 * and 3 are on socket 1 and thread 2 on socket 0 (cpu 1): the
 * description says so.
 */
#define RN_ARRAY HEAP(0)
#define RN_ARRAY_SIZE (32ull << 20)
#define RN_TABLE (HEAP(0) + RN_ARRAY_SIZE)
#define RN_TABLE_SIZE (16ull << 10)
static const struct workload_ip rn_ips[] = {
	{ 0x401560, "producer: store table[j]" },
	{ 0x401568, "producer: load array[r]" },
	{ 0x401580, "consumer: load array[r]" },
	{ 0x401588, "consumer: load table[r]" },
	{ 0x401590, "consumer: load buf[i] (private)" },
	{ 0, NULL }
};

static int rn_init(struct pebs_workload *w)
{
	struct pebs_access a = { .cpu = w->t[0].cpu, .pid = w->pid,
				 .tid = w->t[0].tid, .ip = rn_ips[0].ip,
				 .size = 8, .kind = PEBS_ACC_STORE };
	const uint64_t size = RN_ARRAY_SIZE + RN_TABLE_SIZE;
	unsigned s = cache_model_socket(w->cm, w->t[0].cpu);
	for (uint64_t o = 0; o < size; o += 4096) {
		int r = cache_model_home(w->cm, RN_ARRAY + o, s);
		if (r < 0)
			return r;
	}
	/* Only the last 4 MiB written can still be in socket 0's caches. */
	for (uint64_t o = size - (4ull << 20); o < size; o += 64) {
		a.addr = RN_ARRAY + o;
		cache_model_access(w->cm, &a);
	}
	return 0;
}

static void rn_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	uint64_t r = workload_rand(&t->rng);
	if (t->idx == 0) {
		if (t->phase++ == 0) {
			mem(a, PEBS_ACC_STORE, rn_ips[0].ip, RN_TABLE +
			    (t->iter * 8) % RN_TABLE_SIZE, 8);
		} else {
			mem(a, PEBS_ACC_LOAD, rn_ips[1].ip, RN_ARRAY +
			    (r % (RN_ARRAY_SIZE / 8)) * 8, 8);
			next_iter(t);
		}
		return;
	}
	switch (t->phase++) {
	case 0:
		mem(a, PEBS_ACC_LOAD, rn_ips[2].ip,
		    RN_ARRAY + (r % (RN_ARRAY_SIZE / 8)) * 8, 8);
		break;
	case 1:
		mem(a, PEBS_ACC_LOAD, rn_ips[3].ip,
		    RN_TABLE + (r % (RN_TABLE_SIZE / 8)) * 8, 8);
		break;
	default:
		mem(a, PEBS_ACC_LOAD, rn_ips[4].ip,
		    STACK(t->idx) + (t->iter % 512) * 8, 8);
		next_iter(t);
		break;
	}
}

/* --------------------------------------------------------- store heavy */

/*
 * Per thread: fills a 2 MiB buffer 8 bytes at a time (4 stores per
 * iteration), loads one word of a 256 KiB source per iteration and, every
 * 64th iteration, bumps its own slot of a shared statistics line.
 */
#define SH_DST (2ull << 20)
#define SH_SRC (256ull << 10)
#define SH_STATS (GLOBALS + 0x100)
static const struct workload_ip sh_ips[] = {
	{ 0x401670, "fill: store dst[i]" },
	{ 0x401674, "fill: store dst[i+1]" },
	{ 0x401678, "fill: store dst[i+2]" },
	{ 0x40167c, "fill: store dst[i+3]" },
	{ 0x401680, "fill: load src[j]" },
	{ 0x401690, "fill: store stats[id]" },
	{ 0, NULL }
};

static void sh_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	uint64_t base = HEAP(t->idx);
	for (;;) {
		unsigned p = t->phase++;
		switch (p) {
		case 0: case 1: case 2: case 3:
			mem(a, PEBS_ACC_STORE, sh_ips[p].ip,
			    base + (t->iter * 32) % SH_DST + 8 * p, 8);
			return;
		case 4:
			mem(a, PEBS_ACC_LOAD, sh_ips[4].ip,
			    base + SH_DST + (t->iter * 8) % SH_SRC, 8);
			return;
		default:
			next_iter(t);
			if ((t->iter - 1) % 64)
				continue;
			mem(a, PEBS_ACC_STORE, sh_ips[5].ip,
			    SH_STATS + 8ull * (t->idx % 8), 8);
			return;
		}
	}
}

/* ------------------------------------------------------------ frontend */

/*
 * A large code base: 32768 functions 512 bytes apart (16 MiB of text from
 * 0x1000000), each 8-31 instructions of 1-7 bytes.  A thread calls the hot
 * loop (functions 0-15) 60% of the time, otherwise a function drawn with a
 * skewed distribution, so the DSB, L1I, L2, ITLB and STLB all miss at
 * realistic, different rates.  Every retired instruction is an ifetch.
 */
#define FE_TEXT 0x1000000ull
#define FE_FUNCS 32768u
static const struct workload_ip fe_ips[] = {
	{ FE_TEXT, "fn_0 (hot loop)" },
	{ 0, NULL }
};

static void fe_step(struct pebs_workload *w, struct wthread *t,
		    struct pebs_access *a)
{
	(void)w;
	if (t->aux == 0) {
		uint64_t r = workload_rand(&t->rng);
		uint64_t f;
		if (r % 100 < 60) {
			f = (r >> 8) % 16;
		} else {
			double u = (double)(r >> 11) / 9007199254740992.0;
			f = (uint64_t)(u * u * u * FE_FUNCS) % FE_FUNCS;
		}
		uint64_t s = f;
		t->pos = FE_TEXT + f * 512;
		t->aux = 8 + workload_rand(&s) % 24;
		next_iter(t);
	}
	uint64_t s = t->pos;
	mem(a, PEBS_ACC_IFETCH, t->pos, 0, 0);
	t->pos += 1 + workload_rand(&s) % 7;
	t->aux--;
}

/* -------------------------------------------------------------- table */

static const struct workload_scen scen_fs = {
	"false-sharing",
	"threads increment their own counter and read a limit nobody "
	"writes, all in one cache line (HITM on distinct offsets)",
	4, 1000000, 2, 0, NULL, fs_step, fs_ips
};
static const struct workload_scen scen_ts = {
	"true-sharing",
	"threads lock-increment one shared counter (HITM on one offset)",
	4, 1000000, 2, 0, NULL, ts_step, ts_ips
};
static const struct workload_scen scen_st = {
	"streaming",
	"per-thread triad over 4 MiB arrays plus a small table (L1, LFB, L2)",
	2, 2000000, 1, 3, NULL, st_step, st_ips
};
static const struct workload_scen scen_pc = {
	"pointer-chase",
	"random linked list over 64 MiB per thread (DRAM, STLB misses)",
	2, 600000, 2, 0, NULL, pc_step, pc_ips
};
static const struct workload_scen scen_rn = {
	"remote-numa",
	"thread 0 (socket 0) writes a table and reads an array, both homed "
	"on socket 0; threads 1 and 3 (socket 1) read them remotely "
	"(REMOTE_DRAM, REMOTE_FWD, REMOTE_HITM), thread 2 (socket 0) "
	"locally (LOCAL_DRAM, L3_HITM)",
	4, 800000, 2, 2, rn_init, rn_step, rn_ips
};
static const struct workload_scen scen_sh = {
	"store-heavy",
	"threads fill buffers, mostly stores (L1 hits, one RFO miss a line)",
	4, 1500000, 1, 3, NULL, sh_step, sh_ips
};
static const struct workload_scen scen_fe = {
	"frontend",
	"a 16 MiB code base with a hot loop: ifetch with DSB, L1I, L2, ITLB "
	"and STLB misses and IDQ bubbles",
	2, 2000000, 1, 0, NULL, fe_step, fe_ips
};

/*
 * A busy machine, what a capture without a program sees: two threads of
 * each part, one on each socket (workload_int.h), in one process.  The
 * parts' data do not overlap: each keys its arena and stack on the
 * thread number, and their globals are distinct lines.  remote-numa
 * (thread 0's arena, an init) and frontend (no data) stay out.
 */
static const struct workload_scen *const mx_parts[] = {
	&scen_fs, &scen_ts, &scen_st, &scen_pc, NULL
};
static const struct workload_scen scen_mx = {
	"mixed",
	"a busy machine: two threads each of false-sharing, true-sharing, "
	"streaming and pointer-chase, one on each socket (the default)",
	8, 2000000, 0, 0, NULL, NULL, NULL, mx_parts
};

const struct workload_scen *const workload_scens[] = {
	&scen_fs, &scen_ts, &scen_st, &scen_pc, &scen_rn, &scen_sh, &scen_fe,
	&scen_mx, NULL
};
