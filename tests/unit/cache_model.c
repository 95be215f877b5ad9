/*
 * cache_model.c - the cache/coherence model (lib/cache_model.c) against
 * hand-computed outcomes on tiny access sequences.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "cache_model.h"

static struct cache_model *cm;
static uint64_t now;

static void setup22(void)	/* 2 sockets x 2 cores: cpus 0,1 | 2,3 */
{
	cr_assert_eq(cache_model_new(&cm, 2, 2, 42), 0);
	now = 0;
}

static void teardown(void)
{
	cache_model_free(cm);
	cm = NULL;
}

/* One access on @cpu, well after the previous one (no pending fills). */
static struct pebs_access acc(unsigned cpu, int kind, uint64_t addr,
			      unsigned flags)
{
	struct pebs_access a = { .cpu = cpu, .kind = (uint8_t)kind,
				 .addr = addr, .size = 8, .ip = 0x401000,
				 .flags = (uint8_t)flags };
	now += 10000;
	a.cycle = now;
	cache_model_access(cm, &a);
	return a;
}

static unsigned ld(unsigned cpu, uint64_t addr)
{
	return acc(cpu, PEBS_ACC_LOAD, addr, 0).src;
}

static unsigned st(unsigned cpu, uint64_t addr)
{
	return acc(cpu, PEBS_ACC_STORE, addr, 0).src;
}

#define X 0x10000040ull

/*
 * Latency within the documented +-1/16 jitter of the nominal value, plus
 * a page walk (30 +- 1/16) when the access missed the STLB.
 */
static void lat_near(const struct pebs_access *a, unsigned src)
{
	uint32_t n = cache_model_nominal_lat(src), lat = a->lat;
	if (a->flags & PEBS_ACC_STLB_MISS) {
		cr_assert_geq(lat, 29);
		lat -= 29;
		n += 1;		/* the walk's jitter span: 29..32 */
	}
	cr_assert(lat >= n - n / 16 - 1 && lat <= n - n / 16 + n / 8 + 3,
		  "lat %u for %s (nominal %u)", a->lat,
		  cache_model_src_name(src), n);
}

TestSuite(cache, .init = setup22, .fini = teardown);

Test(cache, shape_is_checked)
{
	struct cache_model *m;
	cr_assert_eq(cache_model_new(&m, 0, 4, 1), -PEBS_E_INVAL);
	cr_assert_eq(cache_model_new(&m, 2, 0, 1), -PEBS_E_INVAL);
	cr_assert_eq(cache_model_new(&m, 9, 1, 1), -PEBS_E_INVAL);
	cr_assert_eq(cache_model_new(&m, 2, 33, 1), -PEBS_E_INVAL);
	cr_assert_null(m);
	cr_assert_eq(cache_model_socket(cm, 1), 0);
	cr_assert_eq(cache_model_socket(cm, 2), 1);
}

Test(cache, local_hitm_then_shared)
{
	cr_assert_eq(st(0, X), PEBS_SRC_LOCAL_DRAM);	/* first touch */
	cr_assert_eq(st(0, X), PEBS_SRC_L1);		/* now M in cpu 0 */
	struct pebs_access a = acc(1, PEBS_ACC_LOAD, X, 0);
	cr_assert_eq(a.src, PEBS_SRC_L3_HITM);
	lat_near(&a, PEBS_SRC_L3_HITM);
	cr_assert_eq(ld(1, X), PEBS_SRC_L1);
	cr_assert_eq(ld(0, X), PEBS_SRC_L1);	/* owner kept a shared copy */
	/* cpu 0 writes again: RFO; cpu 1 holds it clean in the socket. */
	cr_assert_eq(st(0, X), PEBS_SRC_L3_SNOOP_HIT);
	cr_assert_eq(ld(1, X), PEBS_SRC_L3_HITM);
	/* A different offset of the same line: same line, same outcome. */
	cr_assert_eq(st(1, X + 8), PEBS_SRC_L3_SNOOP_HIT);
	cr_assert_eq(ld(0, X + 16), PEBS_SRC_L3_HITM);
}

Test(cache, remote_hitm_and_forward)
{
	cr_assert_eq(st(0, X), PEBS_SRC_LOCAL_DRAM);
	cr_assert_eq(ld(2, X), PEBS_SRC_REMOTE_HITM);
	/* cpu 3 shares socket 1 with cpu 2, which now holds it clean. */
	cr_assert_eq(ld(3, X), PEBS_SRC_L3_SNOOP_HIT);
	/* A clean line of socket 0 read from socket 1: forwarded. */
	cr_assert_eq(ld(0, X + 0x1000), PEBS_SRC_LOCAL_DRAM);
	struct pebs_access a = acc(2, PEBS_ACC_LOAD, X + 0x1000, 0);
	cr_assert_eq(a.src, PEBS_SRC_REMOTE_FWD);
	lat_near(&a, PEBS_SRC_REMOTE_FWD);
	/* Store from socket 1 invalidates socket 0's copies. */
	cr_assert_eq(st(3, X + 0x1000), PEBS_SRC_L3_SNOOP_HIT);
	cr_assert_eq(ld(0, X + 0x1000), PEBS_SRC_REMOTE_HITM);
}

Test(cache, first_touch_homes_pages)
{
	cr_assert_eq(ld(0, 0x20000000), PEBS_SRC_LOCAL_DRAM);
	/* Another line of the same page, from socket 1: homed on 0. */
	cr_assert_eq(ld(2, 0x20000080), PEBS_SRC_REMOTE_DRAM);
	/* A page socket 1 touched first is remote for socket 0. */
	cr_assert_eq(ld(3, 0x20005000), PEBS_SRC_LOCAL_DRAM);
	struct pebs_access a = acc(1, PEBS_ACC_LOAD, 0x20005040, 0);
	cr_assert_eq(a.src, PEBS_SRC_REMOTE_DRAM);
	cr_assert_geq(a.lat, cache_model_nominal_lat(PEBS_SRC_REMOTE_DRAM) -
		      cache_model_nominal_lat(PEBS_SRC_REMOTE_DRAM) / 16);
}

Test(cache, l2_and_l3_after_evictions)
{
	/* L1D has 64 sets x 8 ways: 8 more lines of X's set evict it. */
	cr_assert_eq(ld(0, X), PEBS_SRC_LOCAL_DRAM);
	for (uint64_t k = 1; k <= 8; k++)
		ld(0, X + k * 64 * 64);
	cr_assert_eq(ld(0, X), PEBS_SRC_L2);
	/* L2 has 1024 sets x 16 ways: 16 more lines of its set evict it. */
	for (uint64_t k = 1; k <= 16; k++)
		ld(0, X + k * 1024 * 64);
	cr_assert_eq(ld(0, X), PEBS_SRC_L3);
	/* Now cpu 1 reads it: cpu 0 holds it clean, same socket. */
	cr_assert_eq(ld(1, X), PEBS_SRC_L3_SNOOP_HIT);
}

Test(cache, fill_buffer_window)
{
	struct pebs_access a = { .cpu = 0, .kind = PEBS_ACC_LOAD, .addr = X,
				 .size = 8, .cycle = 100 };
	cache_model_access(cm, &a);
	cr_assert_eq(a.src, PEBS_SRC_LOCAL_DRAM);
	uint64_t ready = 100 + a.lat;	/* the page walk delays the fill */
	struct pebs_access b = { .cpu = 0, .kind = PEBS_ACC_LOAD,
				 .addr = X + 8, .size = 8, .cycle = 110 };
	cache_model_access(cm, &b);
	cr_assert_eq(b.src, PEBS_SRC_LFB);
	/* The L1 latency plus what is left of the fill. */
	cr_assert_geq(b.lat, ready - 110 + 4);
	cr_assert_leq(b.lat, ready - 110 + 6);
	b.cycle = ready + 1;
	cache_model_access(cm, &b);
	cr_assert_eq(b.src, PEBS_SRC_L1);
	lat_near(&b, PEBS_SRC_L1);
}

/* A store does not stall the core (lat 0); its line's latency is st_lat,
 * what SPR's store-latency event reports.  A load has no st_lat. */
Test(cache, stores_report_no_latency)
{
	struct pebs_access a = acc(0, PEBS_ACC_STORE, X, 0);
	cr_assert_eq(a.src, PEBS_SRC_LOCAL_DRAM);
	cr_assert_eq(a.lat, 0);
	a.lat = a.st_lat;
	lat_near(&a, PEBS_SRC_LOCAL_DRAM);
	a = acc(0, PEBS_ACC_STORE, X + 8, 0);
	cr_assert_eq(a.src, PEBS_SRC_L1);
	cr_assert_eq(a.lat, 0);
	a.lat = a.st_lat;
	lat_near(&a, PEBS_SRC_L1);
	a = acc(0, PEBS_ACC_LOAD, X + 16, 0);
	cr_assert_eq(a.st_lat, 0);
	lat_near(&a, PEBS_SRC_L1);
}

Test(cache, locked_load_reads_for_ownership)
{
	cr_assert_eq(ld(1, X), PEBS_SRC_LOCAL_DRAM);
	struct pebs_access a = acc(0, PEBS_ACC_LOAD, X, PEBS_ACC_LOCKED);
	cr_assert_eq(a.src, PEBS_SRC_L3_SNOOP_HIT);
	cr_assert(a.flags & PEBS_ACC_LOCKED);
	cr_assert_eq(st(0, X), PEBS_SRC_L1);	/* no second RFO */
	cr_assert_eq(ld(1, X), PEBS_SRC_L3_HITM);
}

Test(cache, split_access)
{
	struct pebs_access a = { .cpu = 0, .kind = PEBS_ACC_LOAD,
				 .addr = X + 60, .size = 8, .cycle = 5 };
	cache_model_access(cm, &a);
	cr_assert(a.flags & PEBS_ACC_SPLIT);
	cr_assert_eq(ld(0, X + 64), PEBS_SRC_L1);	/* both lines came */
	a.addr = X + 56;
	a.cycle = now += 10000;
	cache_model_access(cm, &a);
	cr_assert_not(a.flags & PEBS_ACC_SPLIT);
}

Test(cache, stlb_misses_on_large_footprints)
{
	/* Random pages of a 64 MiB region: the 1536-entry STLB misses. */
	uint64_t s = 7, miss = 0, n = 4000;
	for (uint64_t i = 0; i < n; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t page = (s >> 33) % (16384);
		struct pebs_access a = acc(0, PEBS_ACC_LOAD,
					   0x40000000 + page * 4096, 0);
		miss += (a.flags & PEBS_ACC_STLB_MISS) != 0;
	}
	cr_assert_gt(miss, n * 8 / 10, "%llu STLB misses of %llu",
		     (unsigned long long)miss, (unsigned long long)n);
	/* 16 pages used again and again: no misses after the first pass. */
	for (uint64_t i = 0; i < 16; i++)
		acc(0, PEBS_ACC_LOAD, 0x50000000 + i * 4096, 0);
	miss = 0;
	for (uint64_t i = 0; i < 1600; i++) {
		struct pebs_access a = acc(0, PEBS_ACC_LOAD,
					   0x50000000 + (i % 16) * 4096, 0);
		miss += (a.flags & PEBS_ACC_STLB_MISS) != 0;
	}
	cr_assert_eq(miss, 0);
}

Test(cache, deterministic_by_seed)
{
	struct cache_model *m[3];
	cr_assert_eq(cache_model_new(&m[0], 2, 2, 5), 0);
	cr_assert_eq(cache_model_new(&m[1], 2, 2, 5), 0);
	cr_assert_eq(cache_model_new(&m[2], 2, 2, 6), 0);
	int differ = 0;
	for (uint64_t i = 0; i < 5000; i++) {
		struct pebs_access a[3];
		for (int k = 0; k < 3; k++) {
			a[k] = (struct pebs_access){
				.cpu = (unsigned)(i % 4),
				.kind = i % 3 ? PEBS_ACC_LOAD : PEBS_ACC_STORE,
				.addr = 0x1000000 +
					(i * 2654435761u) % 65536 * 8,
				.size = 8, .cycle = i * 1000 };
			cache_model_access(m[k], &a[k]);
		}
		cr_assert_eq(memcmp(&a[0], &a[1], sizeof(a[0])), 0);
		cr_assert_eq(a[0].src, a[2].src);	/* jitter only */
		differ |= a[0].lat != a[2].lat;
	}
	cr_assert(differ, "another seed should jitter latencies differently");
	for (int k = 0; k < 3; k++)
		cache_model_free(m[k]);
}

Test(cache, ifetch_front_end_events)
{
	struct pebs_access a = { .cpu = 0, .kind = PEBS_ACC_IFETCH,
				 .ip = 0x401000, .cycle = 1 };
	cache_model_access(cm, &a);
	/* Cold: every structure misses; an L2 miss to DRAM is the bubble. */
	cr_assert_eq(a.fe, PEBS_ACC_FE_DSB_MISS | PEBS_ACC_FE_L1I_MISS |
		     PEBS_ACC_FE_L2_MISS | PEBS_ACC_FE_ITLB_MISS |
		     PEBS_ACC_FE_STLB_MISS);
	cr_assert_gt(a.fe_bubbles, 200);
	cr_assert_eq(a.fe_width, 4);
	cr_assert_eq(a.src, PEBS_SRC_NONE);
	a.cycle = 2;
	cache_model_access(cm, &a);
	cr_assert_eq(a.fe, 0);
	cr_assert_eq(a.fe_bubbles, 0);
	/* Next 32-byte window of the same line: only the DSB misses. */
	a.ip = 0x401020;
	cache_model_access(cm, &a);
	cr_assert_eq(a.fe, PEBS_ACC_FE_DSB_MISS);
	cr_assert_eq(a.fe_bubbles, 2);
	cr_assert(a.fe_width >= 1 && a.fe_width <= 3);
}

Test(cache, src_names)
{
	cr_assert_str_eq(cache_model_src_name(PEBS_SRC_L3_HITM), "L3_HITM");
	cr_assert_str_eq(cache_model_src_name(PEBS_SRC_REMOTE_DRAM),
			 "REMOTE_DRAM");
	cr_assert_str_eq(cache_model_src_name(99), "?");
	cr_assert_eq(cache_model_nominal_lat(PEBS_SRC_L2), 14);
}
