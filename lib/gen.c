/*
 * gen.c - realistic synthetic samples (see pebs_gen.h).
 *
 * Proportions (loads 85%, stores 15%):
 *   loads: L1 55%, LFB 8%, L2 12%, L3 12%, HITM on a hot line 5%,
 *          local DRAM 6%, remote DRAM 2%; latencies drawn per level from
 *          ranges seen on Skylake-SP (L1 4-8, LFB 9-40, L2 12-20, L3 35-70,
 *          HITM 80-300, local DRAM 180-400, remote DRAM 300-700 cycles);
 *   stores: L1 hit 90%, miss 10%.
 * Time advances by an exponential gap of mean 2500 TSC ticks (2.5 GHz).
 */
#include <math.h>
#include <stdlib.h>

#include "pebs_dsrc.h"
#include "pebs_gen.h"

struct pebs_gen {
	struct pebs_gen_opts o;
	uint64_t s;		/* splitmix64 state */
	uint64_t time;
	uint64_t *ips;
	uint64_t *hot;
	uint64_t heap[64];	/* per-thread arena bases */
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
	g->hot = malloc(g->o.hot_lines * sizeof(uint64_t));
	if (!g->ips || !g->hot) {
		pebs_gen_free(g);
		return NULL;
	}
	/* Instructions spread over a 2 MiB text segment. */
	for (unsigned i = 0; i < g->o.ips; i++)
		g->ips[i] = 0x401000 + (rnd(g) % 0x200000);
	for (unsigned i = 0; i < g->o.hot_lines; i++)
		g->hot[i] = 0x55d4a8e00000ull + (rnd(g) % 4096) * 64;
	for (unsigned t = 0; t < g->o.threads; t++)
		g->heap[t] = 0x7f0000000000ull + (uint64_t)t * 0x4000000ull;
	return g;
}

void pebs_gen_free(struct pebs_gen *g)
{
	if (!g)
		return;
	free(g->ips);
	free(g->hot);
	free(g);
}

static uint64_t tlb(struct pebs_gen *g)
{
	return unif(g) < 0.02 ? PEBS_DS_TLB_MISS | PEBS_DS_TLB_L2 :
	       PEBS_DS_TLB_HIT | PEBS_DS_TLB_L1 | PEBS_DS_TLB_L2;
}

static void load(struct pebs_gen *g, struct pebs_sample *s)
{
	double u = unif(g);
	unsigned lvl, snoop = PEBS_DS_SNOOP_NONE, num, remote = 0;
	if (u < 0.55) {
		lvl = PEBS_DS_LVL_L1 | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_L1;
		s->lat = range(g, 4, 8);
	} else if (u < 0.63) {
		lvl = PEBS_DS_LVL_LFB | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_LFB;
		s->lat = range(g, 9, 40);
	} else if (u < 0.75) {
		lvl = PEBS_DS_LVL_L2 | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_L2;
		s->lat = range(g, 12, 20);
	} else if (u < 0.87) {
		lvl = PEBS_DS_LVL_L3 | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_L3;
		s->lat = range(g, 35, 70);
	} else if (u < 0.92) {
		lvl = PEBS_DS_LVL_L3 | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_L3;
		snoop = PEBS_DS_SNOOP_HITM;
		s->lat = range(g, 80, 300);
		s->addr = g->hot[skew(g, g->o.hot_lines)] + (rnd(g) % 8) * 8;
	} else if (u < 0.98) {
		lvl = PEBS_DS_LVL_LOC_RAM | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_RAM;
		snoop = PEBS_DS_SNOOP_MISS;
		s->lat = range(g, 180, 400);
	} else {
		lvl = PEBS_DS_LVL_REM_RAM1 | PEBS_DS_LVL_HIT;
		num = PEBS_DS_LNUM_RAM;
		remote = 1;
		snoop = PEBS_DS_SNOOP_MISS;
		s->lat = range(g, 300, 700);
	}
	s->dsrc = pebs_dsrc_make(PEBS_DS_OP_LOAD, lvl, snoop, 0,
				 (unsigned)tlb(g), num, remote, 0);
}

int pebs_gen_batch(struct pebs_gen *g, struct pebs_batch *b, size_t n)
{
	if (n > b->cap)
		return -PEBS_E_RANGE;
	pebs_batch_reset(b);
	g->ev_load = pebs_batch_intern(b, "load-latency");
	g->ev_store = pebs_batch_intern(b, "precise-store");
	if (g->ev_load < 0 || g->ev_store < 0)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		struct pebs_sample s = { 0 };
		g->time += 1 + (uint64_t)(-log(1.0 - unif(g)) * 2500.0);
		unsigned t = (unsigned)skew(g, g->o.threads);
		s.time = g->time;
		s.tid = 4242 + t;
		s.pid = 4242;
		s.cpu = t % 2 ? t / 2 + 28 : t / 2;	/* two sockets */
		uint64_t ipi = skew(g, g->o.ips);
		s.ip = g->ips[ipi];
		/* Each instruction walks its own region of the arena. */
		s.addr = g->heap[t] + ((ipi * 0x9E37ull) % 0x100000) * 64 +
			 (skew(g, 4096) * 64) + (rnd(g) % 8) * 8;
		s.fmt = 3;
		s.flags = PEBS_SF_EVENTING_IP | PEBS_SF_TSC;
		s.applicable = 0x8;
		if (unif(g) < 0.85) {
			s.event = (uint32_t)g->ev_load;
			load(g, &s);
		} else {
			int hit = unif(g) < 0.9;
			s.event = (uint32_t)g->ev_store;
			s.applicable = 0x4;
			s.raw_dse = hit;
			s.dsrc = pebs_dsrc_make(PEBS_DS_OP_STORE,
				PEBS_DS_LVL_L1 | (hit ? PEBS_DS_LVL_HIT :
				PEBS_DS_LVL_MISS), PEBS_DS_SNOOP_NA, 0,
				PEBS_DS_TLB_NA, 0, 0, 0);
			if (unif(g) < 0.3)
				s.addr = g->hot[skew(g, g->o.hot_lines)] +
					 (t % 8) * 8;
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
