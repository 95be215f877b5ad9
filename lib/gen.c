/*
 * gen.c - realistic synthetic samples (see pebs_gen.h).
 *
 * Each instruction (ip) has one access kind, as in real code, and the kind
 * decides its addresses and where its loads are satisfied:
 *   stack  30%: a fixed slot in the thread's stack     L1 98%, LFB 2%
 *   object 25%: a field of one of 512 shared objects   L1 88%, LFB 6%, L2 6%
 *   stream 25%: walks its own 16 MiB array             L1 55%, LFB 25%, L2 20%
 *   chase  17%: random lines in a 1 GiB heap           L2 5%, L3 35%,
 *                                                      local DRAM 50%,
 *                                                      remote DRAM 10%
 *   shared  3%: the contended lines (several threads)  HITM 50%, L1 30%,
 *                                                      L3 20%
 * 15% of the non-chase instructions are stores (L1 hit 90%, or 40% on the
 * contended lines).  Latencies per level are drawn from ranges seen on
 * Skylake-SP: L1 4-8, LFB 9-40, L2 12-20, L3 35-70, HITM 80-300, local
 * DRAM 180-400, remote DRAM 300-700 cycles.  Instructions and threads are
 * picked with a skewed (Zipf-like) frequency; time advances by an
 * exponential gap of mean 2500 TSC ticks (2.5 GHz).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_dsrc.h"
#include "pebs_gen.h"

enum { K_STACK, K_OBJECT, K_STREAM, K_CHASE, K_SHARED };

struct pebs_gen {
	struct pebs_gen_opts o;
	uint64_t s;		/* splitmix64 state */
	uint64_t time;
	uint64_t *ips;
	uint8_t *kind;		/* per ip */
	uint8_t *store;		/* per ip */
	uint64_t *cursor;	/* per ip, stream position */
	uint64_t *hot;
	uint64_t objects[512];
	int ev_load, ev_store;
};

static uint64_t rnd(struct pebs_gen *g)
{
	uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double unif(struct pebs_gen *g)
{
	return (double)(rnd(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* Skewed index in [0, n): small indices far more often (x^3). */
static uint64_t skew(struct pebs_gen *g, uint64_t n)
{
	double u = unif(g);
	return (uint64_t)(u * u * u * (double)n) % n;
}

static uint32_t range(struct pebs_gen *g, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rnd(g) % (hi - lo + 1));
}

struct pebs_gen *pebs_gen_new(const struct pebs_gen_opts *opts)
{
	struct pebs_gen *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	if (opts)
		g->o = *opts;
	if (!g->o.threads)
		g->o.threads = 16;
	if (g->o.threads > 64)
		g->o.threads = 64;
	if (!g->o.ips)
		g->o.ips = 3000;
	if (!g->o.hot_lines)
		g->o.hot_lines = 32;
	g->s = g->o.seed ^ 0x5EED;
	g->time = 1000000000ull;
	g->ips = malloc(g->o.ips * sizeof(uint64_t));
	g->kind = malloc(g->o.ips);
	g->store = malloc(g->o.ips);
	g->cursor = calloc(g->o.ips, sizeof(uint64_t));
	g->hot = malloc(g->o.hot_lines * sizeof(uint64_t));
	if (!g->ips || !g->kind || !g->store || !g->cursor || !g->hot) {
		pebs_gen_free(g);
		return NULL;
	}
	/* Instructions spread over a 2 MiB text segment. */
	for (unsigned i = 0; i < g->o.ips; i++) {
		double u = unif(g);
		g->ips[i] = 0x401000 + (rnd(g) % 0x200000);
		g->kind[i] = u < 0.30 ? K_STACK : u < 0.55 ? K_OBJECT :
			     u < 0.80 ? K_STREAM : u < 0.97 ? K_CHASE :
			     K_SHARED;
		g->store[i] = g->kind[i] != K_CHASE && unif(g) < 0.15;
	}
	for (unsigned i = 0; i < g->o.hot_lines; i++)
		g->hot[i] = 0x55d4a8e00000ull + (rnd(g) % 4096) * 64;
	for (unsigned i = 0; i < 512; i++)
		g->objects[i] = 0x55d4b0000000ull + (rnd(g) % 0x400000) * 64;
	return g;
}

void pebs_gen_free(struct pebs_gen *g)
{
	if (!g)
		return;
	free(g->ips);
	free(g->kind);
	free(g->store);
	free(g->cursor);
	free(g->hot);
	free(g);
}

static uint64_t tlb(struct pebs_gen *g)
{
	return unif(g) < 0.02 ? PEBS_DS_TLB_MISS | PEBS_DS_TLB_L2 :
	       PEBS_DS_TLB_HIT | PEBS_DS_TLB_L1 | PEBS_DS_TLB_L2;
}

enum { L_L1, L_LFB, L_L2, L_L3, L_HITM, L_LDRAM, L_RDRAM };

/* Fills dsrc and lat of a load satisfied at level @l. */
static void load(struct pebs_gen *g, struct pebs_sample *s, int l)
{
	static const struct {
		unsigned lvl, num, snoop, remote;
		uint32_t lo, hi;
	} t[] = {
		[L_L1] = { PEBS_DS_LVL_L1, PEBS_DS_LNUM_L1, PEBS_DS_SNOOP_NONE,
			   0, 4, 8 },
		[L_LFB] = { PEBS_DS_LVL_LFB, PEBS_DS_LNUM_LFB,
			    PEBS_DS_SNOOP_NONE, 0, 9, 40 },
		[L_L2] = { PEBS_DS_LVL_L2, PEBS_DS_LNUM_L2, PEBS_DS_SNOOP_NONE,
			   0, 12, 20 },
		[L_L3] = { PEBS_DS_LVL_L3, PEBS_DS_LNUM_L3, PEBS_DS_SNOOP_NONE,
			   0, 35, 70 },
		[L_HITM] = { PEBS_DS_LVL_L3, PEBS_DS_LNUM_L3,
			     PEBS_DS_SNOOP_HITM, 0, 80, 300 },
		[L_LDRAM] = { PEBS_DS_LVL_LOC_RAM, PEBS_DS_LNUM_RAM,
			      PEBS_DS_SNOOP_MISS, 0, 180, 400 },
		[L_RDRAM] = { PEBS_DS_LVL_REM_RAM1, PEBS_DS_LNUM_RAM,
			      PEBS_DS_SNOOP_MISS, 1, 300, 700 },
	};
	s->lat = range(g, t[l].lo, t[l].hi);
	s->dsrc = pebs_dsrc_make(PEBS_DS_OP_LOAD, t[l].lvl | PEBS_DS_LVL_HIT,
				 t[l].snoop, 0, (unsigned)tlb(g), t[l].num,
				 t[l].remote, 0);
}

/* Picks a level from cumulative thresholds @c (percent) for levels @l. */
static int pick(struct pebs_gen *g, const double *c, const int *l, int n)
{
	double u = unif(g) * 100.0;
	for (int i = 0; i < n - 1; i++)
		if (u < c[i])
			return l[i];
	return l[n - 1];
}

/* Address and load level of instruction @i on thread @t. */
static uint64_t access(struct pebs_gen *g, unsigned i, unsigned t, int *lvl)
{
	static const double c_obj[] = { 88, 94, 100 },
			    c_str[] = { 55, 80, 100 },
			    c_chase[] = { 5, 40, 90, 100 },
			    c_sh[] = { 50, 80, 100 };
	static const int l_obj[] = { L_L1, L_LFB, L_L2 },
			 l_str[] = { L_L1, L_LFB, L_L2 },
			 l_chase[] = { L_L2, L_L3, L_LDRAM, L_RDRAM },
			 l_sh[] = { L_HITM, L_L1, L_L3 };
	uint64_t stack = 0x7ffc00000000ull - (uint64_t)t * 0x800000ull;
	uint64_t heap = 0x7f0000000000ull + (uint64_t)t * 0x40000000ull;
	switch (g->kind[i]) {
	case K_STACK:
		*lvl = unif(g) < 0.98 ? L_L1 : L_LFB;
		return stack - 64 - (i * 37 % 256) * 8;
	case K_OBJECT:
		*lvl = pick(g, c_obj, l_obj, 3);
		return g->objects[(i * 13 + skew(g, 4)) % 512] + (i % 8) * 8;
	case K_STREAM:
		*lvl = pick(g, c_str, l_str, 3);
		g->cursor[i] = (g->cursor[i] + 8 * range(g, 1, 4096)) &
			       0xffffff;
		return heap + (i % 32) * 0x1000000ull + (g->cursor[i] & ~7ull);
	case K_CHASE:
		*lvl = pick(g, c_chase, l_chase, 4);
		return 0x7e0000000000ull + (rnd(g) % (1u << 24)) * 64 +
		       (i % 8) * 8;
	default:
		*lvl = pick(g, c_sh, l_sh, 3);
		return g->hot[(i + skew(g, 3)) % g->o.hot_lines] +
		       (t % 8) * 8;
	}
}

int pebs_gen_batch(struct pebs_gen *g, struct pebs_batch *b, size_t n)
{
	if (n > b->cap)
		return -PEBS_E_RANGE;
	pebs_batch_reset(b);
	/*
	 * Columns the generator never writes are zeroed once, so the batch's
	 * dirty mask is exact and writers skip them without scanning.
	 */
	const uint64_t mine = 1ull << PEBS_COL_TIME | 1ull << PEBS_COL_CPU |
		1ull << PEBS_COL_PID | 1ull << PEBS_COL_TID |
		1ull << PEBS_COL_EVENT | 1ull << PEBS_COL_IP |
		1ull << PEBS_COL_ADDR | 1ull << PEBS_COL_LAT |
		1ull << PEBS_COL_DSRC | 1ull << PEBS_COL_RAW_DSE |
		1ull << PEBS_COL_FMT | 1ull << PEBS_COL_APPLICABLE |
		1ull << PEBS_COL_FLAGS;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		if (!(b->dirty & ~mine & (1ull << c)))
			continue;
		if (b->c64[c])
			memset(b->c64[c], 0, b->cap * sizeof(uint64_t));
		else
			memset(b->c32[c], 0, b->cap * sizeof(uint32_t));
	}
	b->dirty &= mine;
	g->ev_load = pebs_batch_intern(b, "load-latency");
	g->ev_store = pebs_batch_intern(b, "precise-store");
	if (g->ev_load < 0 || g->ev_store < 0)
		return -PEBS_E_NOMEM;
	for (size_t k = 0; k < n; k++) {
		struct pebs_sample s = { 0 };
		g->time += 1 + (uint64_t)(-log(1.0 - unif(g)) * 2500.0);
		unsigned t = (unsigned)skew(g, g->o.threads);
		unsigned i = (unsigned)skew(g, g->o.ips);
		int lvl;
		s.time = g->time;
		s.tid = 4242 + t;
		s.pid = 4242;
		/* two sockets of 28 CPUs, as the metadata's topology says:
		 * threads alternate between them, and past 56 share CPUs
		 * (t / 2 + 28 gave CPUs 56-59, in no node, to 57 to 64
		 * threads, and socket 0's threads 56-62 CPUs of node 1) */
		s.cpu = (t % 2) * 28 + t / 2 % 28;
		s.ip = g->ips[i];
		s.addr = access(g, i, t, &lvl);
		s.fmt = 3;
		s.flags = PEBS_SF_EVENTING_IP | PEBS_SF_TSC;
		if (!g->store[i]) {
			s.event = (uint32_t)g->ev_load;
			s.applicable = 0x8;
			load(g, &s, lvl);
		} else {
			int hit = unif(g) < (g->kind[i] == K_SHARED ? 0.4 : 0.9);
			s.event = (uint32_t)g->ev_store;
			s.applicable = 0x4;
			s.raw_dse = (uint64_t)hit;
			s.dsrc = pebs_dsrc_make(PEBS_DS_OP_STORE,
				PEBS_DS_LVL_L1 | (hit ? PEBS_DS_LVL_HIT :
				PEBS_DS_LVL_MISS), PEBS_DS_SNOOP_NA, 0,
				PEBS_DS_TLB_NA, 0, 0, 0);
		}
		pebs_batch_push(b, &s);
	}
	return 0;
}

int pebs_gen_meta(const struct pebs_gen *g, struct pebs_meta *m)
{
	int r = 0;
	r |= pebs_meta_set(m, "source", "gen");
	r |= pebs_meta_setf(m, "gen.seed", "%llu",
			    (unsigned long long)g->o.seed);
	r |= pebs_meta_setf(m, "gen.threads", "%u", g->o.threads);
	r |= pebs_meta_set(m, "uarch", "skx");
	r |= pebs_meta_set(m, "cpu.vendor", "GenuineIntel");
	r |= pebs_meta_set(m, "cpu.family", "6");
	r |= pebs_meta_set(m, "cpu.model", "85");
	r |= pebs_meta_set(m, "pebs.format", "3");
	r |= pebs_meta_set(m, "time.unit", "tsc");
	r |= pebs_meta_set(m, "tsc.hz", "2500000000");
	r |= pebs_meta_set(m, "topology.nr_cpus", "56");
	r |= pebs_meta_set(m, "topology.node.0.cpus", "0-27");
	r |= pebs_meta_set(m, "topology.node.1.cpus", "28-55");
	r |= pebs_meta_set(m, "events.0.name", "load-latency");
	r |= pebs_meta_set(m, "events.0.ldlat", "3");
	r |= pebs_meta_set(m, "events.1.name", "precise-store");
	return r ? -PEBS_E_NOMEM : 0;
}
