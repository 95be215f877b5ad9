/*
 * c2c_test.c - pebs-c2c library: perf's classification rule by rule, per-line
 * counts against a plain reference on random data, the verdict on every
 * kind, display filters, topology, and YAML merge of parts == whole.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_c2c.h"
#include "pebs_sym.h"
#include "pebs_dsrc.h"
#include "testutil.h"

#define LD PEBS_DS_OP_LOAD
#define ST PEBS_DS_OP_STORE
#define HIT PEBS_DS_LVL_HIT

static uint64_t ds(unsigned op, unsigned lvl, unsigned snoop)
{
	return pebs_dsrc_make(op, lvl, snoop, 0, 0, 0, 0, 0);
}

static uint64_t ds_remote(unsigned op, unsigned lvl, unsigned snoop)
{
	return ds(op, lvl, snoop) | 1ull << PEBS_DS_REMOTE_SHIFT;
}

static const uint64_t A = 0x7f0000001000;

/* ------------------------------------------------------ classification */

struct rule {
	uint64_t dsrc, addr;
	size_t field;		/* offsetof the one counter it must bump */
	unsigned cls;
};

#define F(x) offsetof(struct pebs_c2c_stats, x)

Test(c2c, classify_each_perf_rule)
{
	const struct rule rules[] = {
		{ ds(LD, HIT | PEBS_DS_LVL_L1, 2), A, F(ld_l1hit),
		  PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_LFB, 2), A, F(ld_fbhit),
		  PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_L2, 2), A, F(ld_l2hit),
		  PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_L3, PEBS_DS_SNOOP_NONE), A,
		  F(ld_llchit), PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HITM), A,
		  F(lcl_hitm), PEBS_C2C_LOAD | PEBS_C2C_LCL_HITM },
		{ ds(LD, HIT | PEBS_DS_LVL_LOC_RAM, PEBS_DS_SNOOP_MISS), A,
		  F(lcl_dram), PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_REM_RAM1, PEBS_DS_SNOOP_MISS), A,
		  F(rmt_dram), PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_REM_RAM2, PEBS_DS_SNOOP_MISS), A,
		  F(rmt_dram), PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_HIT), A,
		  F(rmt_hit), PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_REM_CCE2, PEBS_DS_SNOOP_HITM), A,
		  F(rmt_hitm), PEBS_C2C_LOAD | PEBS_C2C_RMT_HITM },
		{ ds(LD, HIT | PEBS_DS_LVL_UNC, 1), A, F(ld_uncache),
		  PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_IO, 1), A, F(ld_io), PEBS_C2C_LOAD },
		{ ds(LD, PEBS_DS_LVL_MISS | PEBS_DS_LVL_L3, 1), A, F(ld_miss),
		  PEBS_C2C_LOAD },
		{ ds(LD, HIT | PEBS_DS_LVL_L1, 2), 0, F(ld_noadrs),
		  PEBS_C2C_NOADDR },
		{ ds(ST, HIT | PEBS_DS_LVL_L1, 1), A, F(st_l1hit),
		  PEBS_C2C_STORE },
		{ ds(ST, PEBS_DS_LVL_MISS | PEBS_DS_LVL_L1, 1), A,
		  F(st_l1miss), PEBS_C2C_STORE },
		{ ds(ST, PEBS_DS_LVL_NA, 1), A, F(st_na), PEBS_C2C_STORE },
		{ ds(ST, HIT | PEBS_DS_LVL_UNC, 1), A, F(st_uncache),
		  PEBS_C2C_STORE },
		{ ds(ST, HIT | PEBS_DS_LVL_L1, 1), 0, F(st_noadrs),
		  PEBS_C2C_NOADDR },
		{ ds(PEBS_DS_OP_NA, HIT | PEBS_DS_LVL_L1, 1), A, F(noparse),
		  PEBS_C2C_NOPARSE },
		{ 0, A, F(noparse), PEBS_C2C_NOPARSE },
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct pebs_c2c_stats st;
		memset(&st, 0, sizeof(st));
		unsigned cls = pebs_c2c_classify(&st, rules[i].dsrc,
						 rules[i].addr, 3, 0);
		cr_expect_eq(cls, rules[i].cls, "rule %zu: class %#x", i, cls);
		const uint64_t *v = (const uint64_t *)&st;
		cr_expect_eq(v[rules[i].field / 8], 3, "rule %zu", i);
		cr_expect_eq(st.nr_entries, 3, "rule %zu", i);
		/* exactly one source counter of perf's tot_recs, or none */
		uint64_t recs = pebs_c2c_tot_recs(&st);
		int in_recs = rules[i].field != F(ld_uncache) &&
			      rules[i].field != F(ld_io) &&
			      rules[i].field != F(ld_miss) &&
			      rules[i].field != F(st_uncache) &&
			      rules[i].field != F(noparse) &&
			      rules[i].field != F(ld_noadrs) &&
			      rules[i].field != F(st_noadrs);
		cr_expect_eq(recs, in_recs ? 3u : 0u, "rule %zu: recs %llu",
			     i, (unsigned long long)recs);
	}
}

Test(c2c, classify_derived_and_flags)
{
	struct pebs_c2c_stats st;
	memset(&st, 0, sizeof(st));
	uint64_t d = ds(LD, HIT | PEBS_DS_LVL_LOC_RAM, PEBS_DS_SNOOP_HIT) |
		     (uint64_t)PEBS_DS_LOCK_LOCKED << PEBS_DS_LOCK_SHIFT |
		     (uint64_t)PEBS_DS_BLK_DATA << PEBS_DS_BLK_SHIFT;
	pebs_c2c_classify(&st, d, A, 1, 0);
	cr_expect_eq(st.locks, 1);
	cr_expect_eq(st.blk_data, 1);
	cr_expect_eq(st.ld_shared, 1);
	cr_expect_eq(st.ld_excl, 0);
	pebs_c2c_classify(&st, ds(LD, HIT | PEBS_DS_LVL_REM_RAM1, 8), A, 1, 0);
	cr_expect_eq(st.ld_excl, 1);
	pebs_c2c_classify(&st, ds(LD, HIT | PEBS_DS_LVL_REM_CCE1,
				  PEBS_DS_SNOOP_HITM), A, 2, 0);
	cr_expect_eq(st.tot_hitm, 2);
	cr_expect_eq(pebs_c2c_llc_misses(&st), 4);	/* 1+1 dram + 2 hitm */
	cr_expect_eq(pebs_c2c_tot_loads(&st), 4);
}

/* Classifies @n samples of @d into fresh @a (ours) and @b (perf_compat). */
static void classify_both(struct pebs_c2c_stats *a, struct pebs_c2c_stats *b,
			  uint64_t d, uint64_t n)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	pebs_c2c_classify(a, d, A, n, 0);
	pebs_c2c_classify(b, d, A, n, 1);
}

/*
 * perf counts a remote-bit access (no hops) that a remote cache supplied
 * also as remote DRAM; we count it once unless perf_compat.
 */
Test(c2c, remote_bit_deviation_and_compat)
{
	uint64_t d = ds_remote(LD, HIT | PEBS_DS_LVL_REM_CCE1,
			       PEBS_DS_SNOOP_HITM);
	struct pebs_c2c_stats a, b;
	classify_both(&a, &b, d, 1);
	cr_expect_eq(a.rmt_hitm, 1);
	cr_expect_eq(a.rmt_dram, 0);
	cr_expect_eq(pebs_c2c_tot_loads(&a), 1);
	cr_expect_eq(b.rmt_hitm, 1);
	cr_expect_eq(b.rmt_dram, 1);
	cr_expect_eq(pebs_c2c_tot_loads(&b), 2);
	/* remote bit, no snoop hit: remote DRAM in both modes */
	uint64_t r = ds_remote(LD, HIT, PEBS_DS_SNOOP_NONE);
	memset(&a, 0, sizeof(a));
	pebs_c2c_classify(&a, r, A, 1, 0);
	cr_expect_eq(a.rmt_dram, 1);
	/* hops set: not "unknown remote", so no remote class at all */
	memset(&a, 0, sizeof(a));
	pebs_c2c_classify(&a, r | 1ull << PEBS_DS_HOPS_SHIFT, A, 1, 0);
	cr_expect_eq(a.rmt_dram, 0);

	/*
	 * Remote DRAM levels (REM_RAM1/2) with the remote bit and no hops,
	 * with each snoop that names a cache (SNB row 0xB is REM_RAM1 +
	 * HIT): perf counts rmt_dram and a remote cache class; we count
	 * rmt_dram only, so every count of samples is the samples.
	 */
	static const struct {
		unsigned snoop, snoopx;
		size_t cache;		/* perf's second counter */
	} sn[] = {
		{ PEBS_DS_SNOOP_HIT, 0, F(rmt_hit) },
		{ PEBS_DS_SNOOP_HITM, 0, F(rmt_hitm) },
		{ PEBS_DS_SNOOP_NONE, PEBS_DS_SNOOPX_PEER, F(rmt_hit) },
	};
	static const unsigned lv[] = { PEBS_DS_LVL_REM_RAM1,
				       PEBS_DS_LVL_REM_RAM2 };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < sizeof(sn) / sizeof(sn[0]); i++) {
			uint64_t x = ds_remote(LD, HIT | lv[l], sn[i].snoop) |
				     (uint64_t)sn[i].snoopx <<
				     PEBS_DS_SNOOPX_SHIFT;
			const uint64_t n = 5;
			classify_both(&a, &b, x, n);
			const uint64_t *va = (const uint64_t *)&a;
			const uint64_t *vb = (const uint64_t *)&b;
			cr_expect_eq(a.rmt_dram, n, "lvl %zu snoop %zu", l, i);
			cr_expect_eq(va[sn[i].cache / 8], 0, "lvl %zu snoop "
				     "%zu", l, i);
			cr_expect_eq(a.rmt_hit + a.rmt_hitm + a.rmt_dram, n);
			cr_expect_eq(a.tot_hitm, 0);
			cr_expect_eq(pebs_c2c_llc_misses(&a), n);
			cr_expect_eq(pebs_c2c_tot_loads(&a), n);
			cr_expect_eq(pebs_c2c_tot_recs(&a), n);
			cr_expect_eq(a.ld_shared + a.ld_excl, n);
			cr_expect_eq(a.ld_shared,
				     sn[i].snoop == PEBS_DS_SNOOP_HIT ? n : 0);
			/* perf: both */
			cr_expect_eq(b.rmt_dram, n);
			cr_expect_eq(vb[sn[i].cache / 8], n, "lvl %zu snoop "
				     "%zu", l, i);
			cr_expect_eq(pebs_c2c_tot_loads(&b), 2 * n);
			cr_expect_eq(pebs_c2c_tot_recs(&b), 2 * n);
		}
	/*
	 * A remote cache level with the remote bit: the cache, once, for
	 * each snoop that names one; no snoop of a cache: remote DRAM (as
	 * perf, which counts it there from the remote bit).
	 */
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i <= sizeof(sn) / sizeof(sn[0]); i++) {
			int none = i == sizeof(sn) / sizeof(sn[0]);
			unsigned cce = l ? PEBS_DS_LVL_REM_CCE2 :
					   PEBS_DS_LVL_REM_CCE1;
			uint64_t x = ds_remote(LD, HIT | cce, none ?
					       PEBS_DS_SNOOP_MISS :
					       sn[i].snoop) |
				     (uint64_t)(none ? 0 : sn[i].snoopx) <<
				     PEBS_DS_SNOOPX_SHIFT;
			memset(&a, 0, sizeof(a));
			pebs_c2c_classify(&a, x, A, 3, 0);
			const uint64_t *va = (const uint64_t *)&a;
			if (none)
				cr_expect_eq(a.rmt_dram, 3);
			else
				cr_expect_eq(va[sn[i].cache / 8], 3);
			cr_expect_eq(pebs_c2c_tot_loads(&a), 3, "cce %zu "
				     "snoop %zu", l, i);
			cr_expect_eq(pebs_c2c_tot_recs(&a), 3);
		}
	/* both remote levels named: the snoop's cache, once */
	memset(&a, 0, sizeof(a));
	pebs_c2c_classify(&a, ds(LD, HIT | PEBS_DS_LVL_REM_RAM1 |
				 PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_HIT),
			  A, 1, 0);
	cr_expect_eq(a.rmt_hit, 1);
	cr_expect_eq(pebs_c2c_tot_loads(&a), 1);
	/*
	 * A remote DRAM level that missed, with the remote bit and a snoop
	 * that names a cache: the cache supplied it, once (perf: the
	 * same); it was counted nowhere when any DRAM level won.
	 */
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < sizeof(sn) / sizeof(sn[0]); i++) {
			uint64_t x = ds_remote(LD, PEBS_DS_LVL_MISS | lv[l],
					       sn[i].snoop) |
				     (uint64_t)sn[i].snoopx <<
				     PEBS_DS_SNOOPX_SHIFT;
			classify_both(&a, &b, x, 2);
			const uint64_t *va = (const uint64_t *)&a;
			cr_expect_eq(va[sn[i].cache / 8], 2, "miss lvl %zu "
				     "snoop %zu", l, i);
			cr_expect_eq(a.rmt_dram, 0);
			cr_expect_eq(pebs_c2c_tot_loads(&a), 2);
			cr_expect_eq(pebs_c2c_tot_loads(&b), 2);
			cr_expect_eq(memcmp(&a, &b, sizeof(a)), 0);
		}
	/*
	 * A local level with the remote bit and no hops (an import's; no
	 * decoder of ours writes it): remote, once, by the snoop as any
	 * remote; perf counts the local source too.  It counted both, an
	 * L3 HITM as a local and a remote HITM.
	 */
	static const unsigned loc[] = { PEBS_DS_LVL_LFB, PEBS_DS_LVL_L1,
					PEBS_DS_LVL_L2, PEBS_DS_LVL_L3,
					PEBS_DS_LVL_LOC_RAM };
	for (size_t l = 0; l < sizeof(loc) / sizeof(loc[0]); l++)
		for (size_t i = 0; i <= sizeof(sn) / sizeof(sn[0]); i++) {
			int none = i == sizeof(sn) / sizeof(sn[0]);
			uint64_t x = ds_remote(LD, HIT | loc[l], none ?
					       PEBS_DS_SNOOP_NONE :
					       sn[i].snoop) |
				     (uint64_t)(none ? 0 : sn[i].snoopx) <<
				     PEBS_DS_SNOOPX_SHIFT;
			classify_both(&a, &b, x, 4);
			const uint64_t *va = (const uint64_t *)&a;
			if (none)
				cr_expect_eq(a.rmt_dram, 4, "local %zu", l);
			else
				cr_expect_eq(va[sn[i].cache / 8], 4,
					     "local %zu snoop %zu", l, i);
			cr_expect_eq(a.lcl_hitm + a.lcl_dram + a.ld_llchit +
				     a.ld_l2hit + a.ld_l1hit + a.ld_fbhit, 0,
				     "local %zu snoop %zu", l, i);
			cr_expect_eq(a.tot_hitm, !none && sn[i].snoop ==
				     PEBS_DS_SNOOP_HITM ? 4 : 0);
			cr_expect_eq(pebs_c2c_tot_loads(&a), 4, "local %zu "
				     "snoop %zu", l, i);
			cr_expect_eq(pebs_c2c_tot_recs(&a), 4);
			cr_expect_geq(pebs_c2c_tot_loads(&b), 8, "local %zu "
				      "snoop %zu", l, i);
		}
}

/*
 * SNOOPX FWD (another cache forwarded the line clean): a remote cache hit,
 * rmt_hit, where perf 6.1, which never reads FWD, counts the remote bit as
 * remote DRAM (and a remote cache level with FWD as no source at all);
 * --perf-compat keeps perf's counts.
 */
Test(c2c, snoopx_fwd_is_a_remote_cache_hit)
{
	/* SKX encoding C (formats/data-source.md 3.3): remote bit, FWD */
	const uint64_t c = 0x17668000042ull;
	cr_assert(PEBS_DS_SNOOPX(c) & PEBS_DS_SNOOPX_FWD);
	struct pebs_c2c_stats a, b;
	classify_both(&a, &b, c, 3);
	cr_expect_eq(a.rmt_hit, 3);
	cr_expect_eq(a.rmt_dram, 0);
	cr_expect_eq(a.ld_shared + a.ld_excl, 0);
	cr_expect_eq(a.rmt_peer + a.tot_peer + a.tot_hitm, 0);
	cr_expect_eq(pebs_c2c_llc_misses(&a), 3);
	cr_expect_eq(pebs_c2c_tot_loads(&a), 3);
	cr_expect_eq(b.rmt_hit, 0);
	cr_expect_eq(b.rmt_dram, 3);
	cr_expect_eq(pebs_c2c_tot_loads(&b), 3);

	const uint64_t fwd = (uint64_t)PEBS_DS_SNOOPX_FWD <<
			     PEBS_DS_SNOOPX_SHIFT;
	/* a remote cache level, no remote bit: perf counts no source */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	uint64_t x = ds(LD, HIT | PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_NONE) |
		     fwd;
	pebs_c2c_classify(&a, x, A, 2, 0);
	pebs_c2c_classify(&b, x, A, 2, 1);
	cr_expect_eq(a.rmt_hit, 2);
	cr_expect_eq(pebs_c2c_tot_loads(&a), 2);
	cr_expect_eq(pebs_c2c_tot_loads(&b), 0);
	/* a remote DRAM hit stays DRAM whatever the snoop */
	memset(&a, 0, sizeof(a));
	x = ds_remote(LD, HIT | PEBS_DS_LVL_REM_RAM1, PEBS_DS_SNOOP_NONE) |
	    fwd;
	pebs_c2c_classify(&a, x, A, 1, 0);
	cr_expect_eq(a.rmt_dram, 1);
	cr_expect_eq(a.rmt_hit, 0);
	cr_expect_eq(pebs_c2c_tot_loads(&a), 1);
}

/* ------------------------------------------------------------ helpers */

struct smp {
	uint32_t cpu, pid, tid, lat;
	uint64_t ip, addr, dsrc;
};

static struct pebs_c2c *mk(const struct pebs_c2c_opts *o)
{
	struct pebs_c2c *c;
	char err[128];
	cr_assert_eq(pebs_c2c_new(&c, o, err, sizeof(err)), 0, "%s", err);
	return c;
}

static void add_pid(struct pebs_c2c *c, uint32_t cpu, uint32_t pid,
		    uint32_t tid, uint64_t ip, uint64_t addr, uint32_t lat,
		    uint64_t dsrc, unsigned n)
{
	struct pebs_batch *b = pebs_batch_new(n > 64 ? n : 64);
	cr_assert(b);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.cpu = cpu;
	s.pid = pid;
	s.tid = tid;
	s.ip = ip;
	s.addr = addr;
	s.lat = lat;
	s.dsrc = dsrc;
	s.event = (uint32_t)pebs_batch_intern(b, "load-latency");
	for (unsigned i = 0; i < n; i++)
		cr_assert_eq(pebs_batch_push(b, &s), 0);
	cr_assert_eq(pebs_c2c_add_batch(c, b), 0);
	pebs_batch_free(b);
}

/* @n samples of process 100 */
static void add(struct pebs_c2c *c, uint32_t cpu, uint32_t tid,
		uint64_t ip, uint64_t addr, uint32_t lat, uint64_t dsrc,
		unsigned n)
{
	add_pid(c, cpu, 100, tid, ip, addr, lat, dsrc, n);
}

static const struct pebs_c2c_line *find(struct pebs_c2c *c, uint64_t la)
{
	for (size_t i = 0; i < pebs_c2c_nlines(c); i++)
		if (pebs_c2c_line_at(c, i)->addr == la)
			return pebs_c2c_line_at(c, i);
	return NULL;
}

#define HITM_L ds(LD, HIT | PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HITM)
#define HITM_R ds(LD, HIT | PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_HITM)
#define STORE ds(ST, HIT | PEBS_DS_LVL_L1, 1)
#define L1LD ds(LD, HIT | PEBS_DS_LVL_L1, 2)

/* ------------------------------------------------------------ verdicts */

Test(c2c, verdict_false_sharing_and_fix)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1001, 0x10, A + 0x00, 0, STORE, 10);
	add(c, 0, 1001, 0x18, A + 0x00, 200, HITM_L, 5);
	add(c, 1, 1002, 0x20, A + 0x20, 0, STORE, 10);
	add(c, 1, 1002, 0x28, A + 0x20, 210, HITM_L, 5);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l);
	cr_expect_eq(l->verdict, PEBS_C2C_V_FALSE, "%s", l->why);
	cr_expect(strstr(l->fix, "move offset 0x20-0x27 (written by tid "
			 "1002) away from 0x00-0x07 (written by tid 1001): "
			 "pad with 56 bytes after 0x07 or align each to 64"),
		  "fix: %s", l->fix);
	cr_expect(strstr(l->evidence, "0x00-0x07 (written by tid 1001)"));
	cr_expect_eq(l->st.tot_hitm, 10);
	cr_expect_eq(l->hitm_cycles, 5 * 200 + 5 * 210);
	cr_expect_eq(l->nthreads, 2);
	cr_expect_eq(l->ncpus, 2);
	cr_expect_eq(l->nnodes, -1);
	pebs_c2c_free(c);
}

Test(c2c, verdict_false_sharing_reader_vs_writer_128)
{
	struct pebs_c2c_opts o = { .line_size = 128 };
	struct pebs_c2c *c = mk(&o);
	/* tid 1 writes 0x00, tid 2 only reads 0x48: adjacent-line pair */
	add(c, 0, 1, 0x10, A + 0x00, 0, STORE, 10);
	add(c, 1, 2, 0x20, A + 0x48, 190, HITM_L, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l);
	cr_expect_eq(l->verdict, PEBS_C2C_V_FALSE, "%s", l->why);
	cr_expect(strstr(l->fix, "move offset 0x48-0x4f (read by tid 2) away "
			 "from 0x00-0x07 (written by tid 1): pad with 120 "
			 "bytes after 0x07 or align each to 128"),
		  "fix: %s", l->fix);
	pebs_c2c_free(c);
}

Test(c2c, verdict_true_sharing)
{
	struct pebs_c2c *c = mk(NULL);
	for (uint32_t t = 1; t <= 3; t++) {
		add(c, t, t, 0x10, A + 0x08, 0, STORE, 4);
		add(c, t, t, 0x18, A + 0x08, 300, HITM_R, 4);
	}
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect_eq(l->verdict, PEBS_C2C_V_TRUE, "%s", l->why);
	cr_expect(strstr(l->fix, "offset 0x08-0x0f (written by tid 1, 2, 3) "
			 "is the same data"), "fix: %s", l->fix);
	cr_expect(strstr(l->fix, "padding cannot help"));
	cr_expect_eq(l->st.rmt_hitm, 12);
	pebs_c2c_free(c);
}

/* A single writer and a reader of the same bytes is true sharing too. */
Test(c2c, verdict_true_sharing_writer_reader)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1, 0x10, A + 0x10, 0, STORE, 10);
	add(c, 1, 2, 0x20, A + 0x10, 250, HITM_L, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(find(c, A)->verdict, PEBS_C2C_V_TRUE);
	pebs_c2c_free(c);
}

Test(c2c, verdict_mixed)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1, 0x10, A + 0x00, 0, STORE, 5);
	add(c, 1, 2, 0x10, A + 0x00, 0, STORE, 5);
	add(c, 2, 3, 0x30, A + 0x30, 0, STORE, 10);
	add(c, 2, 3, 0x38, A + 0x30, 150, HITM_L, 3);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect_eq(l->verdict, PEBS_C2C_V_MIXED, "%s", l->why);
	cr_expect(strstr(l->fix, "move offset 0x30-0x37"), "%s", l->fix);
	cr_expect(strstr(l->fix, "padding cannot help"), "%s", l->fix);
	pebs_c2c_free(c);
}

/*
 * Slots each shared by a pair of threads, different pairs on different
 * slots of one line: true sharing within a slot and false sharing between
 * slots, so mixed, and the fix names both.
 */
Test(c2c, verdict_mixed_pairs_per_slot)
{
	struct pebs_c2c *c = mk(NULL);
	for (uint32_t slot = 0; slot < 4; slot++)
		for (uint32_t k = 0; k < 2; k++) {
			uint32_t tid = 10 + slot + 4 * k;
			add(c, tid, tid, 0x10, A + slot * 8, 0, STORE, 3);
			add(c, tid, tid, 0x18, A + slot * 8, 120, HITM_L, 3);
		}
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect_eq(l->verdict, PEBS_C2C_V_MIXED, "%s", l->why);
	cr_expect(strstr(l->fix, "away from 0x00-0x07 (written by tid 10, "
			 "14)"), "%s", l->fix);
	cr_expect(strstr(l->fix, ": no one pad removes every conflict (4 "
			 "groups of fields, all written: give each its own "
			 "line, aligned to 64)"), "%s", l->fix);
	cr_expect(strstr(l->fix, "padding cannot help"), "%s", l->fix);
	pebs_c2c_free(c);
}

/*
 * The access size decides whether 0x00 and 0x04 overlap: by default it is
 * the offsets' alignment (4 here: 4-byte counters, false sharing, and the
 * reason says so); 8 makes them overlap; 4 given is as the default.
 */
Test(c2c, verdict_access_size)
{
	static const unsigned acc[3] = { 0, 8, 4 };
	for (int pass = 0; pass < 3; pass++) {
		struct pebs_c2c_opts o = { .access_size = acc[pass] };
		struct pebs_c2c *c = mk(&o);
		add(c, 0, 1, 0x10, A + 0x00, 0, STORE, 10);
		add(c, 1, 2, 0x10, A + 0x04, 0, STORE, 10);
		add(c, 1, 2, 0x18, A + 0x04, 99, HITM_L, 1);
		cr_assert_eq(pebs_c2c_finish(c), 0);
		const struct pebs_c2c_line *l = find(c, A);
		cr_expect_eq(l->verdict, pass == 1 ? PEBS_C2C_V_TRUE :
			     PEBS_C2C_V_FALSE, "pass %d: %s", pass, l->why);
		cr_expect_eq(strstr(l->why, "each access taken as 4 bytes") !=
			     NULL, pass == 0, "pass %d: %s", pass, l->why);
		if (pass != 1)
			cr_expect(strstr(l->fix, "move offset 0x04-0x07 "
					 "(written by tid 2) away from "
					 "0x00-0x03 (written by tid 1): pad "
					 "with 60 bytes after 0x03"),
				  "pass %d: %s", pass, l->fix);
		pebs_c2c_free(c);
	}
	/* one 8-aligned offset, or odd ones: 8 and 1 bytes */
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1, 0x10, A + 0x08, 0, STORE, 10);
	add(c, 1, 2, 0x10, A + 0x08, 99, HITM_L, 10);
	add(c, 0, 1, 0x10, A + 0x40, 0, STORE, 10);
	add(c, 1, 2, 0x10, A + 0x41, 99, HITM_L, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(find(c, A)->verdict, PEBS_C2C_V_TRUE);
	cr_expect_null(strstr(find(c, A)->why, "taken as"));
	cr_expect_eq(find(c, A + 0x40)->verdict, PEBS_C2C_V_FALSE, "%s",
		     find(c, A + 0x40)->why);
	cr_expect(strstr(find(c, A + 0x40)->why, "taken as 1 byte ("));
	pebs_c2c_free(c);
}

/*
 * Finishes @c and checks line A's verdict (@v) and that its fix has every
 * one of the strings @has and none of @hasnt (NULL-ended; @tag says which
 * case failed).
 */
static void expect_fix(struct pebs_c2c *c, enum pebs_c2c_verdict v,
		       const char *tag, const char *const *has,
		       const char *const *hasnt)
{
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l, "%s", tag);
	cr_expect_eq(l->verdict, v, "%s: %s", tag, l->why);
	for (; has && *has; has++)
		cr_expect(strstr(l->fix, *has), "%s: want \"%s\" in fix: %s",
			  tag, *has, l->fix);
	for (; hasnt && *hasnt; hasnt++)
		cr_expect_null(strstr(l->fix, *hasnt), "%s: no \"%s\" in "
			       "fix: %s", tag, *hasnt, l->fix);
	pebs_c2c_free(c);
}

#define STRS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * tid 501 writes 0x00 and 0x20, tid 502 writes 0x10 between them: padding
 * one field cannot separate the two threads, and the fix names every field
 * of both.
 */
Test(c2c, verdict_fix_interleaved_fields)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 501, 0x10, A + 0x00, 0, STORE, 10);
	add(c, 0, 501, 0x18, A + 0x20, 0, STORE, 8);
	add(c, 1, 502, 0x20, A + 0x10, 0, STORE, 9);
	add(c, 1, 502, 0x28, A + 0x10, 150, HITM_L, 4);
	expect_fix(c, PEBS_C2C_V_FALSE, "interleaved",
		   STRS("move offset 0x10-0x17 (written by tid 502) away from "
			"0x00-0x07 (written by tid 501) and 0x20-0x27 "
			"(written by tid 501): their fields interleave",
			"align each group to 64"), STRS("pad with"));
}

/*
 * tid 11 writes 0x00 and 0x10 with unused bytes between, tid 12 writes
 * 0x20 after both: one pad after 0x17 separates them, the gap inside tid
 * 11's group is no interleaving.  The pad takes the byte after 0x17 to the
 * start of the next line, for every line size: the line less the 24 bytes
 * up to 0x17.  It is the same when tid 11 uses only 0x10 (not the line
 * less that field's 8 bytes).
 */
Test(c2c, verdict_fix_gap_inside_group)
{
	static const unsigned ls[3] = { 64, 128, 32 };
	static const char *const want[3] = {
		"pad with 40 bytes after 0x17 or align each to 64",
		"pad with 104 bytes after 0x17 or align each to 128",
		"pad with 8 bytes after 0x17 or align each to 32",
	};
	for (int i = 0; i < 6; i++) {
		struct pebs_c2c_opts o = { .line_size = ls[i % 3] };
		struct pebs_c2c *c = mk(&o);
		/* 32-byte lines: tid 12 at 0x18, still after the gap */
		uint64_t b = ls[i % 3] == 32 ? 0x18 : 0x20;
		if (i < 3) {
			add(c, 0, 11, 0x10, A + 0x00, 0, STORE, 10);
			add(c, 0, 11, 0x20, A + 0x00, 200, HITM_L, 5);
		}
		add(c, 0, 11, 0x18, A + 0x10, 0, STORE, 10);
		add(c, 0, 11, 0x20, A + 0x10, 200, HITM_L, 5);
		add(c, 1, 12, 0x28, A + b, 0, STORE, 10);
		add(c, 1, 12, 0x30, A + b, 210, HITM_L, 5);
		expect_fix(c, PEBS_C2C_V_FALSE, want[i % 3],
			   STRS(want[i % 3]), STRS("interleave"));
	}
}

/*
 * A group that goes on past the other's first byte does interleave,
 * whichever side writes: tid 1's fields around tid 2's, and tid 2's read
 * fields around tid 1's written one (the reader's group spans 0x00-0x3f,
 * the whole line).
 */
Test(c2c, verdict_fix_straddling_groups)
{
	for (int pass = 0; pass < 2; pass++) {
		struct pebs_c2c *c = mk(NULL);
		add(c, 0, 1, 0x10, A + 0x00, 0, pass ? HITM_L : STORE, 10);
		add(c, 0, 1, 0x18, A + 0x38, 0, pass ? HITM_L : STORE, 10);
		add(c, 1, 2, 0x20, A + 0x10, 0, STORE, 10);
		add(c, 1, 2, 0x28, A + 0x10, 150, HITM_L, 5);
		expect_fix(c, PEBS_C2C_V_FALSE, pass ? "reader around" :
			   "writer around",
			   STRS("move offset 0x10-0x17 (written by tid 2) "
				"away from 0x00-0x07",
				"their fields interleave"), STRS("pad with"));
	}
	/* a first group of 56 bytes: 8 bytes of pad take tid 2 off it */
	struct pebs_c2c *c = mk(NULL);
	for (unsigned off = 0; off < 0x38; off += 8)
		add(c, 0, 1, 0x10, A + off, 0, STORE, 2);
	add(c, 1, 2, 0x20, A + 0x38, 0, STORE, 10);
	add(c, 1, 2, 0x28, A + 0x38, 150, HITM_L, 5);
	expect_fix(c, PEBS_C2C_V_FALSE, "56 bytes",
		   STRS("away from 0x00-0x37 (written by tid 1): pad with 8 "
			"bytes after 0x37 or align each to 64"), NULL);
}

/*
 * Fields only read do not need lines apart from each other, only from the
 * written ones: tid 1 writes 0x00, tid 2 and 3 read 0x10 and 0x20, and one
 * pad after 0x07 moves both readers together (two lines, not three).  With
 * tid 2 writing 0x10, 0x10 and 0x20 conflict too: no one pad does, and the
 * fix gives each written group a line and the one only read another.
 */
Test(c2c, verdict_fix_readers_share_a_line)
{
	for (int pass = 0; pass < 2; pass++) {
		struct pebs_c2c *c = mk(NULL);
		add(c, 0, 1, 0x10, A + 0x00, 0, STORE, 10);
		add(c, 0, 1, 0x18, A + 0x00, 200, HITM_L, 5);
		if (pass)
			add(c, 1, 2, 0x20, A + 0x10, 0, STORE, 10);
		add(c, 1, 2, 0x28, A + 0x10, 200, HITM_L, 10);
		add(c, 2, 3, 0x30, A + 0x20, 200, HITM_L, 10);
		expect_fix(c, PEBS_C2C_V_FALSE, pass ? "two written" :
			   "one written",
			   STRS(pass ? "no one pad removes every conflict (3 "
				"groups of fields, 2 of them written: give "
				"each written group its own line, aligned to "
				"64, and the group only read one more)" :
				"pad with 56 bytes after 0x07 (the fields "
				"after it move with it, and neither line keeps "
				"two groups of fields that conflict)"),
			   STRS("align each"));
	}
}

/*
 * One pad moves every field after it: tid 1 writes 0x00 (read by tid 2,
 * true sharing) and alone reads 0x20, tid 3 writes 0x30.  A pad after 0x07
 * would take 0x20 along to tid 3's line, where tid 3's writes falsely
 * share it with tid 1's reads; the pad goes after 0x27, leaving tid 1's
 * fields together (only tid 1's own writes meet its read of 0x20).
 * With tid 1 writing 0x10 (used by it only) instead, three groups are
 * written and every two conflict (tid 1's writes to 0x10 falsely share
 * with tid 2's reads of 0x00): no one pad separates them, wherever it
 * goes.  The count says written, not written by different threads: 0x00
 * and 0x10 have one writer.
 */
Test(c2c, verdict_fix_partner_conflicts)
{
	for (int pass = 0; pass < 2; pass++) {
		struct pebs_c2c *c = mk(NULL);
		add(c, 0, 1, 0x10, A + 0x00, 0, STORE, 20);
		add(c, 1, 2, 0x18, A + 0x00, 200, HITM_L, 20);
		if (pass)
			add(c, 0, 1, 0x20, A + 0x10, 0, STORE, 30);
		add(c, 0, 1, 0x20, A + (pass ? 0x10 : 0x20), 200, HITM_L,
		    pass ? 10 : 30);
		add(c, 2, 3, 0x28, A + 0x30, 0, STORE, 10);
		add(c, 2, 3, 0x30, A + 0x30, 200, HITM_L, 5);
		expect_fix(c, PEBS_C2C_V_MIXED, pass ? "same writer" :
			   "partner", pass ?
			   STRS("move offset 0x10-0x17 (written by tid 1) "
				"away from 0x00-0x07 (written by tid 1, read "
				"by tid 2): no one pad removes every conflict "
				"(3 groups of fields, all written: give each "
				"its own line, aligned to 64)") :
			   STRS("move offset 0x30-0x37 (written by tid 3) "
				"away from 0x00-0x07 (written by tid 1, read "
				"by tid 2): pad with 24 bytes after 0x27 (the "
				"fields after it move with it"),
			   STRS("after 0x07", "different threads"));
	}
}

/* ------------------------------------------- the fix, followed, works */

/* One 8-byte slot of a random layout: its threads (bit t: tid t + 1). */
struct slot {
	unsigned off, acc, wr, n;
};

static uint64_t rnd_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Each slot's accessors load it n times each, its writers also store. */
static struct pebs_c2c *layout(unsigned L, const struct slot *sl, size_t ns,
			       const unsigned *at)
{
	struct pebs_c2c_opts o = { .line_size = L, .access_size = 8,
				   .min_samples = 1, .show_all = 1 };
	struct pebs_c2c *c = mk(&o);
	for (size_t i = 0; i < ns; i++)
		for (uint32_t t = 0; t < 4; t++) {
			if (!(sl[i].acc >> t & 1))
				continue;
			if (sl[i].wr >> t & 1)
				add(c, t, t + 1, 0x10, A + at[i], 0, STORE,
				    sl[i].n);
			add(c, t, t + 1, 0x18, A + at[i], 200, HITM_L,
			    sl[i].n);
		}
	cr_assert_eq(pebs_c2c_finish(c), 0);
	return c;
}

/* No line of @c is false sharing or mixed: no access falsely shares. */
static void expect_no_false(struct pebs_c2c *c, const char *fix)
{
	for (size_t i = 0; i < pebs_c2c_nlines(c); i++) {
		const struct pebs_c2c_line *l = pebs_c2c_line_at(c, i);
		cr_assert(l->verdict != PEBS_C2C_V_FALSE &&
			  l->verdict != PEBS_C2C_V_MIXED,
			  "after \"%s\": line +0x%llx: %s", fix,
			  (unsigned long long)(l->addr - A), l->why);
	}
}

/*
 * Property: on random layouts of a few 8-byte fields used by up to four
 * threads, the fix for false sharing, followed, leaves no false sharing
 * on any line, for 32-, 64- and 128-byte lines.  A pad "after 0xX" adds
 * its bytes to every offset past X; "give each (written group) its own
 * line" puts each written group (fields with the same threads) on a line
 * of its own and the groups only read on one more.  Every kind of advice
 * must come up.
 */
Test(c2c, property_fix_removes_false_sharing)
{
	static const unsigned ls[3] = { 32, 64, 128 };
	rnd_state = 0x9e3779b97f4a7c15ull;
	unsigned seen_pad = 0, seen_pad_n = 0, seen_apart = 0;
	for (int iter = 0; iter < 600; iter++) {
		unsigned L = ls[iter % 3];
		struct slot sl[5];
		unsigned at[5], used = 0;
		size_t ns = 2 + rnd() % (L == 32 ? 3 : 4);	/* of L / 8 */
		for (size_t i = 0; i < ns; i++) {
			unsigned k;
			do
				k = (unsigned)(rnd() % (L / 8));
			while (used >> k & 1);
			used |= 1u << k;
		}
		for (size_t i = 0, k = 0; k < L / 8; k++)
			if (used >> k & 1) {
				sl[i].off = 8 * k;
				sl[i].acc = 1 + (unsigned)(rnd() % 15);
				sl[i].wr = sl[i].acc & (unsigned)rnd();
				sl[i].n = 1 + (unsigned)(rnd() % 6);
				at[i] = sl[i].off;
				i++;
			}
		struct pebs_c2c *c = layout(L, sl, ns, at);
		const struct pebs_c2c_line *l = find(c, A);
		cr_assert(l);
		char fix[1024];
		snprintf(fix, sizeof(fix), "%s", l->fix);
		int fs = l->verdict == PEBS_C2C_V_FALSE ||
			 l->verdict == PEBS_C2C_V_MIXED;
		pebs_c2c_free(c);
		if (!fs)
			continue;
		cr_assert(!strncmp(fix, "move offset ", 12), "%s", fix);
		unsigned pad, after;
		const char *p = strstr(fix, ": pad with ");
		if (p) {
			cr_assert_eq(sscanf(p, ": pad with %u bytes after 0x%x",
					    &pad, &after), 2, "%s", fix);
			for (size_t i = 0; i < ns; i++)
				at[i] = sl[i].off + (sl[i].off > after ? pad : 0);
			seen_pad++;
			seen_pad_n += strstr(fix, "or align each") == NULL;
		} else {
			cr_assert(strstr(fix, "give each") ||
				  strstr(fix, "align each group"), "%s", fix);
			seen_apart += strstr(fix, "no one pad removes") != NULL;
			/* groups: slots with the same threads */
			unsigned lines = 0, gline[16];
			memset(gline, 0, sizeof(gline));
			for (size_t i = 0; i < ns; i++) {
				int w = 0;
				for (size_t j = 0; j < ns; j++)
					w |= sl[j].acc == sl[i].acc && sl[j].wr;
				if (w && !gline[sl[i].acc])
					gline[sl[i].acc] = ++lines;
				at[i] = sl[i].off + gline[sl[i].acc] * L;
			}
		}
		c = layout(L, sl, ns, at);
		expect_no_false(c, fix);
		pebs_c2c_free(c);
	}
	cr_expect(seen_pad && seen_pad_n && seen_apart,
		  "pads %u (of them past two groups %u), no one pad %u",
		  seen_pad, seen_pad_n, seen_apart);
}

Test(c2c, verdict_unknown_reasons)
{
	struct pebs_c2c *c = mk(NULL);
	uint64_t B = A + 0x1000, C = A + 0x2000;
	add(c, 0, 1, 0x10, A, 0, STORE, 2);	/* too few */
	add(c, 1, 2, 0x10, A + 8, 100, HITM_L, 3);
	add(c, 0, 1, 0x10, B, 0, STORE, 10);	/* one thread */
	add(c, 0, 1, 0x10, B + 8, 100, HITM_L, 10);
	add(c, 0, 1, 0x10, C, 100, HITM_L, 10);	/* no stores */
	add(c, 1, 2, 0x10, C + 8, 100, HITM_L, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	/* the input has stores (A, B): the reason says they were rare */
	cr_expect(strstr(find(c, C)->why, "though stores to other lines "
			 "were"), "%s", find(c, C)->why);
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect_eq(l->verdict, PEBS_C2C_V_UNKNOWN);
	cr_expect(strstr(l->why, "5 samples on this line; a verdict needs at "
			 "least 10"), "%s", l->why);
	cr_expect_str_eq(l->fix, "");
	l = find(c, B);
	cr_expect_eq(l->verdict, PEBS_C2C_V_UNKNOWN);
	cr_expect(strstr(l->why, "one thread (tid 1)"), "%s", l->why);
	l = find(c, C);
	cr_expect_eq(l->verdict, PEBS_C2C_V_UNKNOWN);
	cr_expect(strstr(l->why, "no store to this line was sampled"), "%s",
		  l->why);
	pebs_c2c_free(c);
	/* no store anywhere: record them; no HITM either: read sharing */
	struct pebs_c2c_opts o = { .show_all = 1 };
	c = mk(&o);
	add(c, 0, 1, 0x10, C, 100, HITM_L, 10);
	add(c, 1, 2, 0x10, C + 8, 100, HITM_L, 10);
	add(c, 0, 1, 0x10, B, 4, L1LD, 10);
	add(c, 1, 2, 0x10, B + 8, 4, L1LD, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect(strstr(find(c, C)->why, "record stores too "
			 "(precise-store)"), "%s", find(c, C)->why);
	cr_expect(strstr(find(c, B)->why, "only loads were sampled on this "
			 "line (20 by 2 threads) and none hit a modified line"),
		  "%s", find(c, B)->why);
	pebs_c2c_free(c);
}

/*
 * Stores were sampled, but none with an address: they are on no line, so
 * sampling them more often would not help (the reason said so, counting
 * stores without address as "stores to other lines"); an address would.
 */
Test(c2c, verdict_unknown_stores_without_address)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1, 0x10, A + 0x00, 200, HITM_L, 6);
	add(c, 1, 2, 0x10, A + 0x08, 200, HITM_L, 6);
	add(c, 2, 3, 0x20, 0, 0, STORE, 5);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(pebs_c2c_totals(c)->st_noadrs, 5);
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l);
	cr_expect_eq(l->verdict, PEBS_C2C_V_UNKNOWN);
	cr_expect(!strstr(l->why, "stores to other lines"), "%s", l->why);
	cr_expect(strstr(l->why, "no store to this line was sampled (12 loads "
			 "by 2 threads), and no sampled store has a data "
			 "address (5 without, see --stats)"), "%s", l->why);
	cr_expect(strstr(l->why, "record stores with their address"), "%s",
		  l->why);
	pebs_c2c_free(c);
	/* one store with an address elsewhere: then they are rare here */
	c = mk(NULL);
	add(c, 0, 1, 0x10, A + 0x00, 200, HITM_L, 6);
	add(c, 1, 2, 0x10, A + 0x08, 200, HITM_L, 6);
	add(c, 2, 3, 0x20, 0, 0, STORE, 5);
	add(c, 2, 3, 0x20, A + 0x1000, 0, STORE, 1);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect(strstr(find(c, A)->why, "though stores to other lines "
			 "were"), "%s", find(c, A)->why);
	pebs_c2c_free(c);
}

/*
 * The shares printed in the reason explain the verdict: one that is not
 * exactly a threshold is not printed as it (20.5% was "20%" on a mixed
 * line where 80% decides, 79.5% was "80%").
 */
Test(c2c, verdict_shares_round_away_from_threshold)
{
	/*
	 * tid 1 writes 0x00, tid 2 reads it; tid 3 writes 0x20 (all false),
	 * or only reads it (then tid 2's loads are not false, tid 3's not
	 * true: 51 true, 159 false of 200).  40 of 200 is exactly 20%.
	 */
	static const struct {
		unsigned st1, ld2, n3;
		int st3;
		enum pebs_c2c_verdict v;
		const char *tr, *fl;
	} t[] = {
		{ 20, 21, 159, 1, PEBS_C2C_V_MIXED, "41 (21%)", "200 (100%)" },
		{ 10, 41, 149, 0, PEBS_C2C_V_MIXED, "51 (26%)", "159 (79%)" },
		{ 20, 20, 160, 1, PEBS_C2C_V_FALSE, "40 (20%)", "200 (100%)" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pebs_c2c *c = mk(NULL);
		add(c, 0, 1, 0x10, A + 0x00, 0, STORE, t[i].st1);
		add(c, 1, 2, 0x18, A + 0x00, 200, HITM_L, t[i].ld2);
		add(c, 2, 3, 0x20, A + 0x20, t[i].st3 ? 0 : 200,
		    t[i].st3 ? STORE : HITM_L, t[i].n3);
		cr_assert_eq(pebs_c2c_finish(c), 0);
		const struct pebs_c2c_line *l = find(c, A);
		char want[160];
		snprintf(want, sizeof(want), "of 200 samples in contention, "
			 "%s touch", t[i].tr);
		cr_expect_eq(l->verdict, t[i].v, "%s", l->why);
		cr_expect(strstr(l->why, want), "%zu: %s", i, l->why);
		snprintf(want, sizeof(want), "and %s share", t[i].fl);
		cr_expect(strstr(l->why, want), "%zu: %s", i, l->why);
		pebs_c2c_free(c);
	}
}

/*
 * A tid names a thread only within its process: on a line of several
 * processes the texts name (pid, tid); on one process only the tid.
 */
Test(c2c, verdict_texts_name_pid_when_processes_differ)
{
	struct pebs_c2c *c = mk(NULL);
	add_pid(c, 0, 100, 7, 0x10, A + 0x00, 0, STORE, 10);
	add_pid(c, 1, 200, 7, 0x20, A + 0x20, 0, STORE, 10);
	add_pid(c, 1, 200, 7, 0x28, A + 0x20, 200, HITM_L, 10);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect_eq(l->verdict, PEBS_C2C_V_FALSE, "%s", l->why);
	cr_expect(strstr(l->fix, "move offset 0x20-0x27 (written by pid 200 "
			 "tid 7) away from 0x00-0x07 (written by pid 100 tid "
			 "7)"), "%s", l->fix);
	cr_expect(strstr(l->evidence, "0x00-0x07 (written by pid 100 tid 7): "
			 "10 stores, 0 loads"), "%s", l->evidence);
	pebs_c2c_free(c);
}

/*
 * Evidence names 8 fields, then how many more: "field" for one.  Each
 * thread writes its own 8 bytes of a 128-byte line.
 */
Test(c2c, verdict_evidence_more_fields)
{
	for (unsigned nf = 9; nf <= 10; nf++) {
		struct pebs_c2c_opts o = { .line_size = 128 };
		struct pebs_c2c *c = mk(&o);
		for (uint32_t t = 0; t < nf; t++)
			add(c, t, t + 1, 0x10, A + 8 * t, 0, STORE, 2);
		add(c, 0, 1, 0x18, A, 200, HITM_L, 2);
		cr_assert_eq(pebs_c2c_finish(c), 0);
		const struct pebs_c2c_line *l = find(c, A);
		cr_assert(l);
		const char *want = nf == 9 ? "; and 1 more field" :
			"; and 2 more fields";
		const char *e = strstr(l->evidence, want);
		cr_expect(e && !e[strlen(want)], "%s", l->evidence);
		pebs_c2c_free(c);
	}
}

/* ------------------------------------------------- display and listing */

Test(c2c, display_order_and_filters)
{
	struct pebs_c2c_opts o = { 0 };
	uint64_t B = A + 0x40;
	for (int d = 0; d < 3; d++) {
		o.display = d;
		struct pebs_c2c *c = mk(&o);
		add(c, 0, 1, 0x10, A, 100, HITM_L, 10);	/* lcl 1000 cyc */
		add(c, 0, 1, 0x10, B, 400, HITM_R, 4);	/* rmt 1600 cyc */
		add(c, 0, 1, 0x10, A + 0x80, 4, L1LD, 50);	/* no HITM */
		cr_assert_eq(pebs_c2c_finish(c), 0);
		/* lines without HITM are counted, not kept */
		cr_assert_eq(pebs_c2c_nlines(c), 2);
		cr_assert_eq(pebs_c2c_nlines_sampled(c), 3);
		uint64_t first = pebs_c2c_line_at(c, 0)->addr;
		cr_expect_eq(first, d == PEBS_C2C_D_LCL ? A : B, "display %d",
			     d);
		size_t listed = 0;
		for (size_t i = 0; i < 2; i++)
			listed += (size_t)pebs_c2c_line_listed(c, i);
		cr_expect_eq(listed, d == PEBS_C2C_D_TOT ? 2u : 1u);
		pebs_c2c_free(c);
	}
	o.display = PEBS_C2C_D_TOT;
	o.min_hitm = 5;
	struct pebs_c2c *c = mk(&o);
	add(c, 0, 1, 0x10, A, 100, HITM_L, 10);
	add(c, 0, 1, 0x10, B, 400, HITM_R, 4);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect(!pebs_c2c_line_listed(c, 0));	/* B: most costly, 4 */
	cr_expect(pebs_c2c_line_listed(c, 1));
	pebs_c2c_free(c);
	o.min_hitm = 0;
	o.show_all = 1;
	o.top = 1;
	c = mk(&o);
	add(c, 0, 1, 0x10, A, 100, HITM_L, 10);
	add(c, 0, 1, 0x10, A + 0x80, 4, L1LD, 50);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect(pebs_c2c_line_listed(c, 0));
	cr_expect(!pebs_c2c_line_listed(c, 1));
	pebs_c2c_free(c);
}

Test(c2c, bad_options)
{
	struct pebs_c2c *c;
	char err[128] = "";
	struct pebs_c2c_opts o = { .line_size = 96 };
	cr_expect_eq(pebs_c2c_new(&c, &o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_expect_str_eq(err, "--line-size: 96 is not a power of two from "
			 "16 to 256");
	o.line_size = 64;
	o.access_size = 65;
	cr_expect_eq(pebs_c2c_new(&c, &o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_expect_str_eq(err, "--access-size: 65 is more than the line size "
			 "(64)");
	o.access_size = 0;
	o.verdict_pct = 50;
	cr_expect_eq(pebs_c2c_new(&c, &o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_expect_str_eq(err, "--verdict-share: 50 is not from 51 to 100 "
			 "percent");
	o.verdict_pct = 0;
	o.display = 7;
	cr_expect_eq(pebs_c2c_new(&c, &o, err, sizeof(err)), -PEBS_E_INVAL);
	cr_expect_str_eq(err, "-d: display 7 is not tot, lcl or rmt");
}

Test(c2c, topology_nodes)
{
	struct pebs_c2c *c = mk(NULL);
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.0.cpus", "0-3,8");
	pebs_meta_set(m, "topology.node.1.cpus", "4-7");
	cr_assert_eq(pebs_c2c_set_topology(c, m), 0);
	add(c, 0, 1, 0x10, A, 100, HITM_L, 1);
	add(c, 8, 2, 0x10, A, 100, HITM_L, 1);
	add(c, 5, 3, 0x10, A, 100, HITM_L, 1);
	add(c, 2, 1, 0x10, A + 64, 100, HITM_L, 1);
	add(c, 9, 1, 0x10, A + 64, 100, HITM_L, 1);	/* cpu 9: no node */
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(find(c, A)->nnodes, 2);
	cr_expect_eq(find(c, A + 64)->nnodes, 1);	/* cpu 9: no node */
	pebs_meta_set(m, "topology.node.2.cpus", "1");	/* cpu 1 twice */
	pebs_meta_set(m, "topology.node.0.cpus", "1");
	struct pebs_c2c *d = mk(NULL);
	pebs_meta_free(m);
	m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.0.cpus", "0-3");
	pebs_meta_set(m, "topology.node.1.cpus", "3-4");
	cr_expect_eq(pebs_c2c_set_topology(d, m), -PEBS_E_PARSE);
	cr_expect(strstr(pebs_c2c_errmsg(d), "another node"));
	pebs_meta_free(m);
	m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.5.cpus", "3-x");
	cr_expect_eq(pebs_c2c_set_topology(d, m), -PEBS_E_PARSE);
	pebs_meta_free(m);
	/* the list is the file's: what a terminal acts on is quoted as
	 * '?' (it was sent raw) */
	m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.6.cpus", "99\033[2J\n\302\233\377");
	cr_expect_eq(pebs_c2c_set_topology(d, m), -PEBS_E_PARSE);
	cr_expect_str_eq(pebs_c2c_errmsg(d), "node 6: bad cpu list "
			 "\"99?[2J???\"");
	pebs_meta_free(m);
	pebs_c2c_free(d);
	pebs_c2c_free(c);
	/*
	 * A list that fails is left out whole: "0-3x" records no cpu of
	 * node 0 (nodes stay unknown) and the YAML topology stays a mapping.
	 */
	c = mk(NULL);
	m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.0.cpus", "0-3x");
	cr_expect_eq(pebs_c2c_set_topology(c, m), -PEBS_E_PARSE);
	pebs_meta_free(m);
	add(c, 0, 1, 0x10, A, 100, HITM_L, 1);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(find(c, A)->nnodes, -1);
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_YAML), 0);
	fclose(fp);
	cr_expect(strstr(buf, "\ntopology: {}\n"), "%s", buf);
	free(buf);
	pebs_c2c_free(c);
}

/* HTML and SVG draw at most 50 lines and say how many more are listed. */
Test(c2c, html_svg_say_what_is_not_drawn)
{
	struct pebs_c2c *c = mk(NULL);
	for (uint64_t i = 0; i < 53; i++)
		add(c, 0, 1, 0x10, A + 64 * i, 100, HITM_L, 1);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	for (int f = PEBS_C2C_F_HTML; f <= PEBS_C2C_F_SVG;
	     f += PEBS_C2C_F_SVG - PEBS_C2C_F_HTML) {
		char *buf = NULL;
		size_t len;
		FILE *fp = open_memstream(&buf, &len);
		cr_assert_eq(pebs_c2c_write(c, fp, f), 0);
		fclose(fp);
		cr_expect(strstr(buf, "3 more listed lines"), "format %d", f);
		free(buf);
	}
	pebs_c2c_free(c);
}

/* ------------------------------------- property: reference computation */

static const uint64_t *kinds(size_t *n)
{
	static uint64_t k[12];
	k[0] = L1LD;
	k[1] = ds(LD, HIT | PEBS_DS_LVL_LFB, 2);
	k[2] = ds(LD, HIT | PEBS_DS_LVL_L2, 2);
	k[3] = ds(LD, HIT | PEBS_DS_LVL_L3, PEBS_DS_SNOOP_NONE);
	k[4] = HITM_L;
	k[5] = HITM_R;
	k[6] = ds(LD, HIT | PEBS_DS_LVL_LOC_RAM, PEBS_DS_SNOOP_MISS);
	k[7] = ds(LD, HIT | PEBS_DS_LVL_REM_RAM1, PEBS_DS_SNOOP_HIT);
	k[8] = STORE;
	k[9] = ds(ST, PEBS_DS_LVL_MISS | PEBS_DS_LVL_L1, 1);
	k[10] = ds(ST, PEBS_DS_LVL_NA, 1);
	k[11] = ds_remote(LD, HIT | PEBS_DS_LVL_REM_CCE1, PEBS_DS_SNOOP_HITM);
	*n = 12;
	return k;
}

static struct smp *random_samples(size_t n, unsigned seed)
{
	rnd_state = 88172645463325252ull ^ seed;
	size_t nk;
	const uint64_t *k = kinds(&nk);
	struct smp *s = calloc(n, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		s[i].cpu = (uint32_t)(rnd() % 8);
		s[i].pid = 100 + (uint32_t)(rnd() % 2);
		s[i].tid = 1000 + (uint32_t)(rnd() % 6);
		s[i].ip = 0x400000 + rnd() % 16 * 4;
		s[i].addr = rnd() % 10 == 0 ? 0 : A + rnd() % 1024;
		s[i].dsrc = k[rnd() % nk];
		s[i].lat = (uint32_t)(rnd() % 500);
	}
	return s;
}

static void feed(struct pebs_c2c *c, const struct smp *s, size_t n)
{
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	int ev = pebs_batch_intern(b, "e");
	for (size_t i = 0; i < n; i++) {
		struct pebs_sample x;
		memset(&x, 0, sizeof(x));
		x.cpu = s[i].cpu;
		x.pid = s[i].pid;
		x.tid = s[i].tid;
		x.ip = s[i].ip;
		x.addr = s[i].addr;
		x.dsrc = s[i].dsrc;
		x.lat = s[i].lat;
		x.event = (uint32_t)ev;
		cr_assert_eq(pebs_batch_push(b, &x), 0);
	}
	cr_assert_eq(pebs_c2c_add_batch(c, b), 0);
	pebs_batch_free(b);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

Test(c2c, property_line_counts_match_reference)
{
	const size_t n = 5000;
	for (unsigned seed = 1; seed <= 4; seed++) {
		struct smp *s = random_samples(n, seed);
		struct pebs_c2c_opts o = { .line_size = seed % 2 ? 64 : 128,
					   .show_all = 1 };
		struct pebs_c2c *c = mk(&o);
		feed(c, s, n);
		cr_assert_eq(pebs_c2c_finish(c), 0);
		uint64_t L = o.line_size;
		size_t lines_seen = 0;
		for (uint64_t la = A; la < A + 1024; la += L) {
			/* the reference: one plain pass per line */
			struct pebs_c2c_stats ref;
			memset(&ref, 0, sizeof(ref));
			uint32_t lats[5000], hl[5000];
			size_t nl = 0, nh = 0, ns = 0;
			uint64_t cyc = 0;
			int cpus[8] = { 0 };
			for (size_t i = 0; i < n; i++) {
				if (!s[i].addr || (s[i].addr & ~(L - 1)) != la)
					continue;
				unsigned cl = pebs_c2c_classify(&ref, s[i].dsrc,
						s[i].addr, 1, 0);
				ns++;
				cpus[s[i].cpu] = 1;
				if (cl & PEBS_C2C_LOAD)
					lats[nl++] = s[i].lat;
				if (cl & (PEBS_C2C_LCL_HITM |
					  PEBS_C2C_RMT_HITM)) {
					hl[nh++] = s[i].lat;
					cyc += s[i].lat;
				}
			}
			const struct pebs_c2c_line *l = find(c, la);
			if (!ns) {
				cr_expect_null(l);
				continue;
			}
			lines_seen++;
			cr_assert(l, "line %llx missing",
				  (unsigned long long)la);
			cr_expect_eq(memcmp(&ref, &l->st, sizeof(ref)), 0,
				     "seed %u line %llx", seed,
				     (unsigned long long)la);
			cr_expect_eq(l->hitm_cycles, cyc);
			cr_expect_eq(l->nloads, nl);
			qsort(lats, nl, sizeof(*lats), cmp_u32);
			qsort(hl, nh, sizeof(*hl), cmp_u32);
			/* nearest rank: ceil(p/100 * n), 1-based */
			if (nl) {
				cr_expect_eq(l->lat_p50, lats[(nl * 50 + 99) /
							      100 - 1]);
				cr_expect_eq(l->lat_p99, lats[(nl * 99 + 99) /
							      100 - 1]);
			}
			if (nh)
				cr_expect_eq(l->hitm_p99, hl[(nh * 99 + 99) /
							     100 - 1]);
			int nc = 0;
			for (int k = 0; k < 8; k++)
				nc += cpus[k];
			cr_expect_eq(l->ncpus, (uint32_t)nc);
		}
		cr_expect_eq(pebs_c2c_nlines(c), lines_seen);
		cr_expect_eq(pebs_c2c_nlines_sampled(c), lines_seen);
		/*
		 * Without show_all only the lines with a HITM get results:
		 * the same results, in the same order, and the same count of
		 * sampled lines.
		 */
		struct pebs_c2c_opts o2 = o;
		o2.show_all = 0;
		struct pebs_c2c *h = mk(&o2);
		feed(h, s, n);
		cr_assert_eq(pebs_c2c_finish(h), 0);
		cr_expect_eq(pebs_c2c_nlines_sampled(h), lines_seen);
		size_t nh = 0;
		for (size_t i = 0; i < pebs_c2c_nlines(c); i++) {
			const struct pebs_c2c_line *a = pebs_c2c_line_at(c, i);
			if (!a->st.tot_hitm)
				continue;
			const struct pebs_c2c_line *b = pebs_c2c_line_at(h,
									 nh++);
			cr_assert_not_null(b);
			cr_expect_eq(a->addr, b->addr);
			cr_expect_eq(memcmp(&a->st, &b->st, sizeof(a->st)), 0);
			cr_expect_eq(a->lat_p50, b->lat_p50);
			cr_expect_eq(a->hitm_p99, b->hitm_p99);
			cr_expect_eq(a->nthreads, b->nthreads);
			cr_expect_eq(a->verdict, b->verdict);
		}
		cr_expect_eq(pebs_c2c_nlines(h), nh);
		pebs_c2c_free(h);
		/* totals: every sample, with or without address */
		struct pebs_c2c_stats tot;
		memset(&tot, 0, sizeof(tot));
		for (size_t i = 0; i < n; i++)
			pebs_c2c_classify(&tot, s[i].dsrc, s[i].addr, 1, 0);
		cr_expect_eq(memcmp(&tot, pebs_c2c_totals(c), sizeof(tot)), 0);
		pebs_c2c_free(c);
		free(s);
	}
}

/* ---------------------------------------------------------------- merge */

static char *to_yaml(struct pebs_c2c *c, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	cr_assert(fp);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_YAML), 0);
	fclose(fp);
	return buf;
}

Test(c2c, merge_parts_equals_whole)
{
	const size_t n = 4000;
	struct smp *s = random_samples(n, 7);
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "topology.node.0.cpus", "0-3");
	pebs_meta_set(m, "topology.node.1.cpus", "4-7");
	struct pebs_c2c *whole = mk(NULL);
	cr_assert_eq(pebs_c2c_set_topology(whole, m), 0);
	feed(whole, s, n);
	size_t wl;
	char *wy = to_yaml(whole, &wl);
	const size_t cut[] = { 0, 1000, 1001, 2500, n };
	struct pebs_c2c *merged = mk(NULL);
	for (size_t p = 0; p + 1 < sizeof(cut) / sizeof(cut[0]); p++) {
		struct pebs_c2c *part = mk(NULL);
		cr_assert_eq(pebs_c2c_set_topology(part, m), 0);
		feed(part, s + cut[p], cut[p + 1] - cut[p]);
		size_t pl;
		char *py = to_yaml(part, &pl);
		cr_assert_eq(pebs_c2c_merge_yaml(merged, py, pl), 0, "%s",
			     pebs_c2c_errmsg(merged));
		free(py);
		pebs_c2c_free(part);
	}
	size_t ml;
	char *my = to_yaml(merged, &ml);
	/* identical, samples included (written in a canonical order) */
	cr_expect_eq(wl, ml);
	cr_expect_eq(memcmp(wy, my, wl < ml ? wl : ml), 0);
	/* and merging the merged result again changes nothing */
	struct pebs_c2c *again = mk(NULL);
	cr_assert_eq(pebs_c2c_merge_yaml(again, my, ml), 0);
	size_t al;
	char *ay = to_yaml(again, &al);
	cr_expect_eq(al, ml);
	cr_expect_eq(memcmp(ay, my, al < ml ? al : ml), 0);
	free(ay);
	pebs_c2c_free(again);
	/* and the text reports are byte-identical */
	char *t1 = NULL, *t2 = NULL;
	size_t l1, l2;
	FILE *f1 = open_memstream(&t1, &l1), *f2 = open_memstream(&t2, &l2);
	pebs_c2c_write(whole, f1, PEBS_C2C_F_TEXT);
	pebs_c2c_write(merged, f2, PEBS_C2C_F_TEXT);
	fclose(f1);
	fclose(f2);
	cr_expect_eq(l1, l2);
	cr_expect_eq(memcmp(t1, t2, l1), 0);
	cr_expect(strstr(wy, "nodes: 2"), "topology survives the merge");
	free(t1);
	free(t2);
	free(wy);
	free(my);
	pebs_c2c_free(whole);
	pebs_c2c_free(merged);
	pebs_meta_free(m);
	free(s);
}

Test(c2c, merge_rejects_bad_yaml)
{
	static const char *const bad[] = {
		"", "foo: 1\n", "[1, 2]\n", "pebs_c2c: 3\n",
		/* version 2: dictionaries, then text chunks */
		"pebs_c2c: 2\ncells:\n  - \"1000,0,0,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"1000,0,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"1000,0,1,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"1000,0,0,0,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"ffffffffffffffff,0,0,0,0,0 1,0,0,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"1000,0,0,0,0,4294967296\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nthreads: [[1, 2]]\nips: [0x10]\n"
		"cells:\n  - \"1000,0,0,0,0,0  1,0,0,0,0,0\"\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nother: [[1, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x42]\nother: [[0, 2, 5]]\n",
		"pebs_c2c: 2\nthreads: [[1]]\n",
		"pebs_c2c: 1\ncells:\n  - [1, 2, 3]\n",
		"pebs_c2c: 1\ncells:\n  - [1, 2, 3, 4, 5, 6, 7, 8, 9]\n",
		"pebs_c2c: 1\ncells:\n  - [1, 2, 3, 4294967296, 5, 6, 7, 8]\n",
		"pebs_c2c: 1\ncells:\n  - [-1, 2, 3, 4, 5, 6, 7, 8]\n",
		"pebs_c2c: 1\ncells: {a: 1}\n",
		"pebs_c2c: 1\ntopology:\n  \"0\": \"0-x\"\n",
		"pebs_c2c: 1\ncells: [\n",
		/* other_at: locked (0x2000001) or blocked samples outside
		 * lines, each with an address and a count */
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: [[0x1000, 1, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: [[0, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: [[0x1000, 0, 0]]\n",
		"pebs_c2c: 2\ndsrc: [0x1]\nother_at: [[0x1000, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x68100842]\nother_at: [[0x1000, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: 5\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: [[0x1000, 0]]\n",
		/* each is counted in "other" too (with an address): none
		 * there, or fewer, is no result pebs-c2c writes (it made
		 * the writer index past its data sources, found by fuzzing) */
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother_at: [[0x1000, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother: [[0, 0, 9]]\n"
		"other_at: [[0x1000, 0, 5]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother: [[0, 1, 4]]\n"
		"other_at: [[0x1000, 0, 3], [0x2000, 0, 2]]\n",
		"pebs_c2c: 2\ndsrc: [0x2000001]\nother: [[0, 1, 4]]\n"
		"other_at: [[0x1000, 0, 3], [0x2000, 0, 18446744073709551615]]\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pebs_c2c *c = mk(NULL);
		int r = pebs_c2c_merge_yaml(c, bad[i], strlen(bad[i]));
		cr_expect_lt(r, 0, "case %zu accepted", i);
		cr_expect_neq(pebs_c2c_errmsg(c)[0], 0, "case %zu: no message",
			      i);
		pebs_c2c_free(c);
	}
	/* other_at counted in other: read, and written back the same */
	struct pebs_c2c *c = mk(NULL);
	const char *at = "pebs_c2c: 2\ndsrc: [0x2000001]\nother: [[0, 1, 5]]\n"
			 "other_at: [[0x1000, 0, 3], [0x2000, 0, 2]]\n";
	cr_expect_eq(pebs_c2c_merge_yaml(c, at, strlen(at)), 0, "%s",
		     pebs_c2c_errmsg(c));
	cr_assert_eq(pebs_c2c_finish(c), 0);
	char *buf = NULL;
	size_t blen = 0;
	FILE *fp = open_memstream(&buf, &blen);
	cr_assert_not_null(fp);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_YAML), 0);
	fclose(fp);
	cr_expect(strstr(buf, "other: [[0, 1, 5]]\nother_at: [[0x1000, 0, 3], "
			 "[0x2000, 0, 2]]"), "%s", buf);
	free(buf);
	pebs_c2c_free(c);
	/* each input is checked on its own: an earlier input's spare
	 * "other" counts do not make up for a later one's other_at, in
	 * either order */
	const char *spare = "pebs_c2c: 2\ndsrc: [0x2000001]\n"
			    "other: [[0, 1, 2]]\n";
	const char *over = "pebs_c2c: 2\ndsrc: [0x2000001]\n"
			   "other: [[0, 1, 1]]\nother_at: [[0x1000, 0, 2]]\n";
	for (int order = 0; order < 2; order++) {
		c = mk(NULL);
		const char *first = order ? over : spare;
		const char *second = order ? spare : over;
		int r1 = pebs_c2c_merge_yaml(c, first, strlen(first));
		int r2 = r1 < 0 ? r1 : pebs_c2c_merge_yaml(c, second,
							    strlen(second));
		cr_expect_lt(r2, 0, "order %d accepted", order);
		pebs_c2c_free(c);
	}
	c = mk(NULL);
	const char *ok = "pebs_c2c: 1\nunknown: {x: [1, 2]}\ncells:\n"
			 "  - [0x1000, 0x10, 0x68100842, 1, 2, 3, 44, 5]\n";
	cr_expect_eq(pebs_c2c_merge_yaml(c, ok, strlen(ok)), 0, "%s",
		     pebs_c2c_errmsg(c));
	cr_assert_eq(pebs_c2c_finish(c), 0);
	cr_expect_eq(pebs_c2c_totals(c)->nr_entries, 5);
	pebs_c2c_free(c);
	/* version 2: address deltas, counts, samples outside lines */
	c = mk(NULL);
	ok = "pebs_c2c: 2\ndsrc: [0x600800842, 0x1]\nthreads: [[1, 2], [1, 3]]"
	     "\nips: [0x10, 0x20]\nother: [[0, 0, 7], [1, 1, 2]]\ncells:\n"
	     "  - \"1000,0,0,0,3,44,5 8,1,0,1,4,10\"\n";
	cr_expect_eq(pebs_c2c_merge_yaml(c, ok, strlen(ok)), 0, "%s",
		     pebs_c2c_errmsg(c));
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_stats *t = pebs_c2c_totals(c);
	cr_expect_eq(t->nr_entries, 15);
	cr_expect_eq(t->ld_noadrs, 7);
	cr_expect_eq(t->noparse, 2);
	cr_expect_eq(pebs_c2c_nlines_sampled(c), 1);
	cr_assert_not_null(pebs_c2c_line_at(c, 0));
	cr_expect_eq(pebs_c2c_line_at(c, 0)->addr, 0x1000);
	cr_expect_eq(pebs_c2c_line_at(c, 0)->nthreads, 2);
	cr_expect_eq(pebs_c2c_line_at(c, 0)->st.load, 6);
	pebs_c2c_free(c);
}

/* @y merged into a fresh analysis: its return; the message into @msg. */
static int merge_one(const char *y, char *msg, size_t len,
		     struct pebs_c2c **out)
{
	struct pebs_c2c *c = mk(NULL);
	int r = pebs_c2c_merge_yaml(c, y, strlen(y));
	snprintf(msg, len, "%s", pebs_c2c_errmsg(c));
	if (out)
		*out = c;
	else
		pebs_c2c_free(c);
	return r;
}

/*
 * Merged counts cannot wrap a sum of the report: at most 2^60 samples in
 * all (tot_loads adds up to 9 counters of each) and latencies times
 * counts within 64 bits; beyond, the merge fails naming the YAML line.
 * At the bounds, the sums are exact.
 */
Test(c2c, merge_refuses_counts_past_64_bits)
{
#define HEAD2 "pebs_c2c: 2\ndsrc: [0x10668800842]\nthreads: [[100, 1]]\n" \
	"ips: [0x401000]\n"
	static const struct {
		const char *y, *msg;
		uint64_t kept;	/* ip named by an entry before the bad one */
	} bad[] = {
		/* the reviewer's: 2^64-1 + 5 wrapped to 4 (exit 0) */
		{ HEAD2 "other: []\ncells:\n  - \"7f0000001000,0,0,0,1,10,"
		  "18446744073709551615 8,0,0,0,1,10,5\"\n",
		  "line 7: cells: sample counts add up to more than 2^60" },
		{ HEAD2 "other: []\ncells:\n  - \"1000,0,0,0,1,0,"
		  "1152921504606846976 8,0,0,0,1,0,1\"\n",
		  "line 7: cells: sample counts" },
		/* 16 x 2^60 cycles = 2^64 */
		{ HEAD2 "other: []\ncells:\n  - \"1000,0,0,0,1,16,"
		  "1152921504606846976\"\n",
		  "line 7: cells: latencies times counts add up to more "
		  "than 64 bits" },
		{ HEAD2 "other: []\ncells:\n  - \"1000,0,0,0,1,4294967295,"
		  "4294967297 8,0,0,0,1,1,1\"\n",
		  "line 7: cells: latencies times counts" },
		/* samples outside lines count too */
		{ HEAD2 "other: [[0, 0, 1152921504606846976]]\ncells:\n"
		  "  - \"1000,0,0,0,1,0\"\n", "line 7: cells: sample counts" },
		{ HEAD2 "other: [[0, 0, 1152921504606846977]]\n",
		  "line 5: other: sample counts" },
		{ HEAD2 "other: [[0, 0, 0]]\n", "line 5: other: zero count" },
		/* over two documents */
		{ HEAD2 "cells:\n  - \"1000,0,0,0,1,0,576460752303423489\"\n"
		  "---\n" HEAD2 "cells:\n  - \"1000,0,0,0,1,0,"
		  "576460752303423488\"\n", "line 13: cells: sample counts" },
		/* version 1 */
		{ "pebs_c2c: 1\ncells:\n  - [0x1000, 0x10, 0x10668800842, 1, 2,"
		  " 3, 44, 1152921504606846977]\n",
		  "line 3: cells: sample counts" },
	};
	char msg[256];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(merge_one(bad[i].y, msg, sizeof(msg), NULL),
			     -PEBS_E_PARSE, "case %zu accepted", i);
		cr_expect(strstr(msg, bad[i].msg), "case %zu: \"%s\" lacks "
			  "\"%s\"", i, msg, bad[i].msg);
	}
	/* at the bounds: 2^60 HITM loads, 15 x 2^60 cycles */
	struct pebs_c2c *c;
	const char *y = HEAD2 "other: []\ncells:\n  - \"1000,0,0,0,1,15,"
			"1152921504606846975 8,0,0,0,1,0,1\"\n";
	cr_assert_eq(merge_one(y, msg, sizeof(msg), &c), 0, "%s", msg);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	const struct pebs_c2c_line *l = pebs_c2c_line_at(c, 0);
	cr_assert_not_null(l);
	cr_expect_eq(l->st.lcl_hitm, 1ull << 60);
	cr_expect_eq(pebs_c2c_tot_loads(&l->st), 1ull << 60);
	cr_expect_eq(l->hitm_cycles, 15 * ((1ull << 60) - 1));
	cr_expect_eq(pebs_c2c_totals(c)->nr_entries, 1ull << 60);
	/* and nothing more, from a batch either */
	struct pebs_sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.addr = A;
	smp.dsrc = ds(LD, HIT | PEBS_DS_LVL_L1, 2);
	cr_expect_eq(pebs_c2c_add_sample(c, &smp), -PEBS_E_RANGE);
	pebs_c2c_free(c);
#undef HEAD2
}

Test(c2c, writers_never_print_nan)
{
	struct pebs_c2c *c = mk(NULL);
	add(c, 0, 1, 0x10, A, 0, STORE, 3);	/* no loads, no LLC misses */
	cr_assert_eq(pebs_c2c_finish(c), 0);
	for (int f = PEBS_C2C_F_TEXT; f <= PEBS_C2C_F_STATS_CSV; f++) {
		char *buf = NULL;
		size_t len;
		FILE *fp = open_memstream(&buf, &len);
		cr_assert_eq(pebs_c2c_write(c, fp, f), 0);
		fclose(fp);
		cr_expect_null(strstr(buf, "nan"), "format %d", f);
		free(buf);
	}
	pebs_c2c_free(c);
}

Test(c2c, maps_gathered_renumbered_and_merged)
{
	struct pebs_meta *m1 = pebs_meta_new(), *m2 = pebs_meta_new();
	pebs_meta_set(m1, "maps.0.pid", "7");
	pebs_meta_set(m1, "maps.0.start", "0x400000");
	pebs_meta_set(m1, "maps.0.end", "0x401000");
	pebs_meta_set(m1, "maps.0.pgoff", "0x0");
	pebs_meta_set(m1, "maps.0.path", "/bin/a");
	pebs_meta_set(m1, "maps.3.pid", "7");	/* incomplete: ignored */
	/* the second input repeats the map, then has its own at index 5 */
	pebs_meta_copy(m2, m1);
	pebs_meta_set(m2, "maps.5.pid", "8");
	pebs_meta_set(m2, "maps.5.start", "0x500000");
	pebs_meta_set(m2, "maps.5.end", "0x501000");
	pebs_meta_set(m2, "maps.5.path", "/bin/b \"quoted\"");
	pebs_meta_set(m2, "maps.5.build_id", "abcd");
	struct pebs_c2c *c = mk(NULL);
	cr_expect_null(pebs_c2c_maps(c));
	cr_assert_eq(pebs_c2c_add_maps(c, m1), 0);
	cr_assert_eq(pebs_c2c_add_maps(c, m2), 0);
	const struct pebs_meta *m = pebs_c2c_maps(c);
	cr_assert_not_null(m);
	cr_expect_str_eq(pebs_meta_get(m, "maps.0.path"), "/bin/a");
	cr_expect_str_eq(pebs_meta_get(m, "maps.1.pid"), "8");
	cr_expect_str_eq(pebs_meta_get(m, "maps.1.build_id"), "abcd");
	cr_expect_null(pebs_meta_get(m, "maps.2.pid"));
	/* the YAML result keeps them: a merge has the same maps */
	add(c, 7, 1, 0x400010, A, 100, HITM_L, 2);
	size_t len;
	char *y = to_yaml(c, &len);
	struct pebs_c2c *d = mk(NULL);
	cr_assert_eq(pebs_c2c_merge_yaml(d, y, len), 0, "%s",
		     pebs_c2c_errmsg(d));
	m = pebs_c2c_maps(d);
	cr_assert_not_null(m);
	cr_expect_str_eq(pebs_meta_get(m, "maps.1.path"), "/bin/b \"quoted\"");
	cr_expect_str_eq(pebs_meta_get(m, "maps.0.end"), "0x401000");
	cr_expect_null(pebs_meta_get(m, "maps.2.pid"));
	free(y);
	pebs_c2c_free(d);
	pebs_c2c_free(c);
	pebs_meta_free(m1);
	pebs_meta_free(m2);
}

/*
 * The names @m (pebs_c2c_maps()) gives instruction @ip, "|"-separated,
 * into @buf ("" none).
 */
static const char *ip_names(const struct pebs_meta *m, uint64_t ip,
			    char *buf, size_t len)
{
	const char *v, *name;
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; pebs_sym_ip_next(m, &i, &v, &name);)
		if (strtoull(v, NULL, 0) == ip)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "|" : "", name);
	return buf;
}

/*
 * A built-in workload's instruction names (workload.ips.N.*) are kept in
 * the YAML result (workload_ips), one per ip, the first name an ip comes
 * with (from a capture or a result), and merge back the same, text that
 * is not UTF-8 as !!binary.
 */
Test(c2c, workload_ips_kept_in_result)
{
	static const char *const kv1[][2] = {
		{ "workload.ips.0.ip", "0x401000" },
		{ "workload.ips.0.name", "fs_worker: load x" },
		{ "workload.ips.1.ip", "0x401010" },
		{ "workload.ips.1.name", "w: \"q\" caf\xe9" },
		{ "workload.ips.2.ip", "0x401020" },
		{ "workload.ips.2.name", "" },	/* ignored */
	};
	/* the second capture names 0x401000 otherwise: the first stays */
	static const char *const kv2[][2] = {
		{ "workload.ips.0.ip", "4198400" },
		{ "workload.ips.0.name", "other: name" },
		{ "workload.ips.7.ip", "0x402000" },
		{ "workload.ips.7.name", "ts_worker: load c" },
	};
	struct pebs_meta *m1 = pebs_meta_new(), *m2 = pebs_meta_new();
	for (size_t i = 0; i < sizeof(kv1) / sizeof(kv1[0]); i++)
		cr_assert_eq(pebs_meta_set(m1, kv1[i][0], kv1[i][1]), 0);
	for (size_t i = 0; i < sizeof(kv2) / sizeof(kv2[0]); i++)
		cr_assert_eq(pebs_meta_set(m2, kv2[i][0], kv2[i][1]), 0);
	struct pebs_c2c *c = mk(NULL);
	cr_assert_eq(pebs_c2c_add_maps(c, m1), 0);
	cr_assert_eq(pebs_c2c_add_maps(c, m2), 0);
	char nb[256];
	cr_expect_str_eq(ip_names(pebs_c2c_maps(c), 0x401000, nb, sizeof(nb)),
			 "fs_worker: load x");
	cr_expect_str_eq(ip_names(pebs_c2c_maps(c), 0x401020, nb, sizeof(nb)),
			 "");
	add(c, 0, 1, 0x401000, A, 100, HITM_L, 2);
	size_t len;
	char *y = to_yaml(c, &len);
	cr_expect(strstr(y, "workload_ips:\n  - ip: 0x401000\n    name: "
			 "\"fs_worker: load x\"\n  - ip: 0x401010\n    name: "
			 "!!binary \"dzogInEiIGNhZuk=\"\n  - ip: 0x402000\n"
			 "    name: \"ts_worker: load c\"\ntotals:"), "%s", y);
	struct pebs_c2c *d = mk(NULL);
	cr_assert_eq(pebs_c2c_merge_yaml(d, y, len), 0, "%s",
		     pebs_c2c_errmsg(d));
	/* a later result naming 0x402000 otherwise: the first stays */
	const char *later = "pebs_c2c: 2\nworkload_ips:\n  - {ip: 0x402000, "
			    "name: \"x: y\"}\n  - {name: \"z: w\", ip: 0x10,"
			    " later: [1]}\n";
	cr_assert_eq(pebs_c2c_merge_yaml(d, later, strlen(later)), 0, "%s",
		     pebs_c2c_errmsg(d));
	const struct pebs_meta *m = pebs_c2c_maps(d);
	cr_assert_not_null(m);
	cr_expect_str_eq(ip_names(m, 0x401000, nb, sizeof(nb)),
			 "fs_worker: load x");
	cr_expect_str_eq(ip_names(m, 0x401010, nb, sizeof(nb)),
			 "w: \"q\" caf\xe9");
	cr_expect_str_eq(ip_names(m, 0x402000, nb, sizeof(nb)),
			 "ts_worker: load c");
	cr_expect_str_eq(ip_names(m, 0x10, nb, sizeof(nb)), "z: w");
	/* and the merge writes the names back the same */
	size_t len2;
	char *y2 = to_yaml(d, &len2);
	cr_expect(strstr(y2, "  - ip: 0x10\n    name: \"z: w\"\n  - ip: "
			 "0x401000\n"), "%s", y2);
	free(y2);
	free(y);
	pebs_c2c_free(d);
	pebs_c2c_free(c);
	/* each result of a stream names its ips once */
	const char *two = "pebs_c2c: 2\nworkload_ips: [{ip: 1, name: a}]\n"
			  "---\npebs_c2c: 2\nworkload_ips: [{ip: 1, name: b}]\n";
	d = mk(NULL);
	cr_expect_eq(pebs_c2c_merge_yaml(d, two, strlen(two)), 0, "%s",
		     pebs_c2c_errmsg(d));
	cr_expect_str_eq(ip_names(pebs_c2c_maps(d), 1, nb, sizeof(nb)), "a");
	pebs_c2c_free(d);
	pebs_meta_free(m1);
	pebs_meta_free(m2);
}

/* workload_ips from untrusted input: what is wrong, said with its line. */
Test(c2c, workload_ips_bad_refused)
{
	static char longname[4200];
	memset(longname, 'n', 4097);
	static const struct {
		const char *y, *msg;
		uint64_t kept;	/* ip named by an entry before the bad one */
	} bad[] = {
		{ "workload_ips: 5\n", "line 2: workload_ips: expected a list" },
		{ "workload_ips: [[1, a]]\n",
		  "line 2: workload_ips: expected a mapping per instruction" },
		{ "workload_ips:\n  - name: a\n",
		  "line 3: workload_ips: an entry without ip" },
		{ "workload_ips:\n  - ip: 1\n",
		  "line 3: workload_ips: an entry without name" },
		{ "workload_ips: [{ip: -1, name: a}]\n",
		  "line 2: workload_ips: ip: expected an unsigned number" },
		{ "workload_ips: [{ip: 0x1g, name: a}]\n",
		  "line 2: workload_ips: ip: expected an unsigned number" },
		{ "workload_ips: [{ip: [1], name: a}]\n",
		  "line 2: workload_ips: ip: expected an unsigned number" },
		{ "workload_ips: [{ip: 1, name: \"\"}]\n",
		  "line 2: workload_ips: empty name" },
		{ "workload_ips: [{ip: 1, name: {a: b}}]\n",
		  "line 2: workload_ips: name: expected text" },
		{ "workload_ips: [{ip: 1, name: !!binary \"YQBi\"}]\n",
		  "line 2: workload_ips: name: !!binary value with a NUL byte" },
		{ "workload_ips: [{ip: 1, name: !!binary \"Y*==\"}]\n",
		  "line 2: workload_ips: name: !!binary value that is not "
		  "base64" },
		{ "workload_ips: [{ip: 1, ip: 2, name: a}]\n",
		  "line 2: workload_ips: two ips in an entry" },
		{ "workload_ips: [{ip: 1, name: a, name: b}]\n",
		  "line 2: workload_ips: two names in an entry" },
		{ "workload_ips:\n  - {ip: 0x10, name: a}\n"
		  "  - {ip: 16, name: b}\n",
		  "line 4: workload_ips: ip 0x10 named twice in one result",
		  0x10 },
		{ "workload_ips: [{ip: 1, name: a}, {ip: 1, name: a}]\n",
		  "line 2: workload_ips: ip 0x1 named twice in one result",
		  1 },
		{ NULL, "line 2: workload_ips: name longer than 4096 bytes" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char y[4400];
		if (bad[i].y)
			snprintf(y, sizeof(y), "pebs_c2c: 2\n%s", bad[i].y);
		else
			snprintf(y, sizeof(y), "pebs_c2c: 2\nworkload_ips: "
				 "[{ip: 1, name: %s}]\n", longname);
		char msg[256];
		struct pebs_c2c *c;
		cr_expect_lt(merge_one(y, msg, sizeof(msg), &c), 0,
			     "case %zu accepted", i);
		cr_expect_str_eq(msg, bad[i].msg, "case %zu", i);
		/* nothing of a refused entry is kept; what was read before
		 * it stays (as samples do) */
		char nb[64];
		if (bad[i].kept)
			cr_expect_str_eq(ip_names(pebs_c2c_maps(c),
						  bad[i].kept, nb, sizeof(nb)),
					 "a", "case %zu", i);
		else
			cr_expect_null(pebs_c2c_maps(c), "case %zu", i);
		pebs_c2c_free(c);
	}
	/* 4096 bytes is the most */
	char y[4400];
	longname[4096] = 0;
	snprintf(y, sizeof(y), "pebs_c2c: 2\nworkload_ips: [{ip: 1, name: "
		 "%s}]\n", longname);
	char msg[256];
	cr_expect_eq(merge_one(y, msg, sizeof(msg), NULL), 0, "%s", msg);
}

/* ------------------------------------------------------- big arrays */

#include "c2c_int.h"

/*
 * The sample columns grow in place inside their reservation and move to
 * a huge-page mapping past 512 KiB: what was written must survive every
 * growth, from small pages through the move to tens of MiB.
 */
Test(c2c, big_arrays_keep_contents_while_growing)
{
	uint64_t *a = lib_big_realloc(NULL, 1000 * sizeof(*a));
	uint32_t *b = lib_big_realloc(NULL, 1000 * sizeof(*b));
	cr_assert(a && b);
	size_t n = 0;
	for (size_t cap = 1000; cap <= ((size_t)64 << 20) / 8; cap *= 3) {
		uint64_t *na = lib_big_realloc(a, cap * sizeof(*a));
		uint32_t *nb = lib_big_realloc(b, cap * sizeof(*b));
		cr_assert(na && nb, "growing to %zu", cap);
		a = na;
		b = nb;
		for (; n < cap; n++) {
			a[n] = n * 0x9e3779b97f4a7c15ull;
			b[n] = (uint32_t)(n ^ 0xa5a5a5a5u);
		}
		/* every 4 KiB page: one moved to huge pages is copied */
		for (size_t i = 0; i < n; i += 509)
			cr_assert(a[i] == i * 0x9e3779b97f4a7c15ull &&
				  b[i] == (uint32_t)(i ^ 0xa5a5a5a5u),
				  "element %zu lost at capacity %zu", i, cap);
		cr_assert(a[n - 1] == (n - 1) * 0x9e3779b97f4a7c15ull);
	}
	/* a shrink request keeps the array as it is */
	cr_assert_eq(lib_big_realloc(a, 16), a);
	lib_big_free(a);
	lib_big_free(b);
	/* what was written before a shrink request survives the move to
	 * huge pages that a later growth makes */
	uint64_t *c = lib_big_realloc(NULL, 60000 * sizeof(*c));
	cr_assert(c);
	for (size_t i = 0; i < 60000; i++)
		c[i] = i + 7;
	cr_assert_eq(lib_big_realloc(c, 8), c);
	c = lib_big_realloc(c, (size_t)3 << 20);
	cr_assert(c);
	for (size_t i = 0; i < 60000; i++)
		cr_assert_eq(c[i], i + 7, "element %zu lost", i);
	cr_assert_eq(c[((size_t)3 << 20) / 8 - 1], 0, "fresh room is zero");
	lib_big_free(c);
}

/*
 * A batch that fails part way (out of memory) leaves the cells it kept
 * counted: the YAML writer sizes its arrays by c->ncells and then walks
 * the buckets, so a count short of what they hold wrote past its arrays.
 * One line, so that its bucket's chunks outlast the threads' table, which
 * grows (and fails) while cells go into a chunk.
 */
Test(c2c, add_batch_failure_keeps_cells_counted)
{
	const uint64_t st = ds(ST, HIT | PEBS_DS_LVL_L1, 0);
	struct pebs_batch *b = pebs_batch_new(64);
	cr_assert(b);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = 100;
	s.addr = A;
	s.dsrc = st;
	s.event = (uint32_t)pebs_batch_intern(b, "precise-store");
	for (unsigned i = 0; i < 64; i++) {
		s.tid = 1000 + i;
		cr_assert_eq(pebs_batch_push(b, &s), 0);
	}
	long n;
	int failed_after_cells = 0;
	for (n = 1; n < 1000; n++) {
		struct pebs_c2c *c = mk(NULL);
		if (tu_alloc_fail(n) < 0)
			cr_skip_test("allocation faults need a build without "
				     "sanitizer");
		int r = pebs_c2c_add_batch(c, b);
		int injected = tu_alloc_failed();
		size_t cells = 0;
		for (size_t k = 0; c->bk && k < (size_t)1 << C2C_BUCKET_BITS;
		     k++)
			C2C_BUCKET_CELLS(c, k, q, { (void)q; cells++; });
		cr_assert_eq(c->ncells, cells, "allocation %ld: %zu cells "
			     "counted, %zu kept", n, c->ncells, cells);
		if (injected && cells)
			failed_after_cells = 1;
		pebs_c2c_free(c);
		if (!injected) {
			cr_assert_eq(r, 0);
			break;
		}
		cr_assert_eq(r, -PEBS_E_NOMEM);
	}
	cr_assert(failed_after_cells, "no failure came after a kept cell");
	pebs_batch_free(b);
}

/* ------------------------------------------- global shared-line table */

/* The value of row @name of the CSV --stats of @c. */
static uint64_t stat_row(struct pebs_c2c *c, const char *name)
{
	char *buf = NULL, *p;
	size_t len = 0, n = strlen(name);
	FILE *fp = open_memstream(&buf, &len);
	cr_assert(fp);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_STATS_CSV), 0);
	fclose(fp);
	uint64_t v = UINT64_MAX;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
						     NULL)
		if (!strncmp(p, name, n) && p[n] == ',')
			v = strtoull(p + n + 1, NULL, 10);
	free(buf);
	cr_assert_neq(v, UINT64_MAX, "no row %s", name);
	return v;
}

/*
 * The lines of stats_shared_lines_as_perf take the locked or blocked
 * samples that are neither load nor store at their addresses on their own
 * counters, as perf files them (nr_entries, locks, blk_data, noparse),
 * shared or not; their loads, records and the verdict stay the accesses'.
 */
static void expect_line_xs(struct pebs_c2c *c)
{
	static const struct {
		uint64_t off, nr_entries, locks, blk_data, noparse, recs;
	} want[] = {
		{ 0x0000, 4, 3, 0, 3, 1 },	/* HITM load + 3 locked */
		{ 0x1000, 3, 0, 2, 2, 1 },	/* peer load + 2 blocked */
		{ 0x2000, 7, 5, 0, 5, 2 },	/* 2 L1 loads + 5 locked */
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pebs_c2c_line *l = find(c, A + want[i].off);
		cr_assert(l, "line %zu", i);
		cr_expect_eq(l->st.nr_entries, want[i].nr_entries, "%zu", i);
		cr_expect_eq(l->st.locks, want[i].locks, "%zu", i);
		cr_expect_eq(l->st.blk_data, want[i].blk_data, "%zu", i);
		cr_expect_eq(l->st.noparse, want[i].noparse, "%zu", i);
		cr_expect_eq(pebs_c2c_tot_recs(&l->st), want[i].recs, "%zu", i);
		cr_expect_eq(l->nloads, want[i].recs, "%zu", i);
		cr_expect_eq(l->st.load, want[i].recs, "%zu", i);
	}
	const struct pebs_c2c_line *l = find(c, A);
	cr_expect(strstr(l->why, "1 sample on this line"), "%s", l->why);
}

/*
 * perf 6.1 (checked by running it on these samples): a line is shared
 * with a HITM or a peer hit, and the locked or blocked samples that are
 * neither load nor store count on the line of their address; with
 * perf_compat, samples without an address count on line 0.
 */
Test(c2c, stats_shared_lines_as_perf)
{
	const uint64_t peer = ds(LD, HIT | PEBS_DS_LVL_L2, 1) |
			      (uint64_t)PEBS_DS_SNOOPX_PEER <<
			      PEBS_DS_SNOOPX_SHIFT;
	const uint64_t lock = 1ull | (uint64_t)PEBS_DS_LOCK_LOCKED <<
				     PEBS_DS_LOCK_SHIFT;	/* op NA */
	const uint64_t blk = 1ull | (uint64_t)PEBS_DS_BLK_DATA <<
				    PEBS_DS_BLK_SHIFT;
	for (int compat = 0; compat < 2; compat++) {
		struct pebs_c2c_opts o = { .perf_compat = compat,
					   .show_all = 1 };
		struct pebs_c2c *c = mk(&o);
		add(c, 0, 1, 0x401000, A, 100, HITM_L, 1);
		add(c, 1, 2, 0x401010, A + 0x1000, 50, peer, 1);
		add(c, 1, 2, 0x401020, A + 0x2000, 5, L1LD, 2);
		add(c, 0, 1, 0x401030, A + 8, 0, lock, 3);	/* shared */
		add(c, 0, 1, 0x401030, A + 0x1008, 0, blk, 2);	/* shared */
		add(c, 0, 1, 0x401030, A + 0x2008, 0, lock, 5);	/* not */
		/* line 0 shared; samples without an address */
		add(c, 0, 1, 0x401040, 8, 90, HITM_L, 1);
		add(c, 0, 1, 0x401050, 0, 0, L1LD | (uint64_t)
		    PEBS_DS_LOCK_LOCKED << PEBS_DS_LOCK_SHIFT, 4);
		add(c, 0, 1, 0x401060, 0, 0, STORE, 6);
		cr_assert_eq(pebs_c2c_finish(c), 0);
		cr_expect_eq(stat_row(c, "shared_lines"), 3);
		cr_expect_eq(stat_row(c, "shared_loads"), compat ? 7 : 3);
		cr_expect_eq(stat_row(c, "shared_ld_l2hit"), 1);
		cr_expect_eq(stat_row(c, "shared_peer"), 1);
		cr_expect_eq(stat_row(c, "shared_locks"), compat ? 7 : 3);
		cr_expect_eq(stat_row(c, "shared_blocked"), 2);
		cr_expect_eq(stat_row(c, "shared_store"), compat ? 6 : 0);
		cr_expect_eq(stat_row(c, "shared_merged"), compat ? 8 : 2);
		expect_line_xs(c);
		/* the same after a YAML round trip (other_at) */
		char *y = NULL;
		size_t ylen = 0;
		FILE *fp = open_memstream(&y, &ylen);
		cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_YAML), 0);
		fclose(fp);
		cr_expect(strstr(y, "other_at: [[0x7f0000001008, "));
		struct pebs_c2c *m = mk(&o);
		cr_assert_eq(pebs_c2c_merge_yaml(m, y, ylen), 0, "%s",
			     pebs_c2c_errmsg(m));
		cr_assert_eq(pebs_c2c_finish(m), 0);
		cr_expect_eq(stat_row(m, "shared_locks"), compat ? 7 : 3);
		cr_expect_eq(stat_row(m, "shared_blocked"), 2);
		cr_expect_eq(stat_row(m, "shared_loads"), compat ? 7 : 3);
		expect_line_xs(m);
		free(y);
		pebs_c2c_free(m);
		pebs_c2c_free(c);
	}
}

/* Adds the @n aggregates @cells (counts as merged) and finishes. */
static void add_cells_finish(struct pebs_c2c *c, const struct c2c_cell *cells,
			     size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(c2c_add_cell(c, &cells[i], cells[i].count), 0,
			     "%s", pebs_c2c_errmsg(c));
	cr_assert_eq(pebs_c2c_finish(c), 0);
}

/*
 * Merged counts may reach C2C_MAX_SAMPLES (2^60): the verdict's shares
 * are printed from counts times 100, which must not wrap.  The first case
 * of verdict_shares_round_away_from_threshold with every count times 2^52
 * (HITM loads without latency, so that latencies times counts fit).
 */
Test(c2c, verdict_shares_of_huge_counts)
{
	const uint64_t k = (uint64_t)1 << 52;
	struct pebs_c2c *c = mk(NULL);
	const struct c2c_cell cells[] = {
		{ A + 0x00, 0x10, STORE, 100, 1, 0, 0, 20 * k },
		{ A + 0x00, 0x18, HITM_L, 100, 2, 1, 0, 21 * k },
		{ A + 0x20, 0x20, STORE, 100, 3, 2, 0, 159 * k },
	};
	add_cells_finish(c, cells, sizeof(cells) / sizeof(cells[0]));
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l);
	char want[160];
	snprintf(want, sizeof(want), "of %llu samples in contention, %llu "
		 "(21%%) touch", (unsigned long long)(200 * k),
		 (unsigned long long)(41 * k));
	cr_expect_eq(l->verdict, PEBS_C2C_V_MIXED, "%s", l->why);
	cr_expect(strstr(l->why, want), "%s", l->why);
	snprintf(want, sizeof(want), "and %llu (100%%) share",
		 (unsigned long long)(200 * k));
	cr_expect(strstr(l->why, want), "%s", l->why);
	pebs_c2c_free(c);
}

/*
 * The verdict compares shares with the threshold, and the percentiles
 * rank, from counts times 100 (or 99): in 64 bits these wrapped above
 * about 1.8e17 samples, well under C2C_MAX_SAMPLES.  2^58 stores by each
 * of two threads to their own 8 bytes are false sharing (the reviewer's:
 * "mixed"); 2^58 loads of latency 1 and as many of 2 have p99 2 (was 1).
 */
Test(c2c, verdict_and_percentiles_of_huge_counts)
{
	const uint64_t k = (uint64_t)1 << 58;
	struct pebs_c2c_opts o = { .show_all = 1 };
	struct pebs_c2c *c = mk(&o);
	const struct c2c_cell cells[] = {
		{ A + 0x00, 0x401010, STORE, 100, 1, 0, 0, k },
		{ A + 0x08, 0x401010, STORE, 100, 2, 1, 0, k },
		{ A + 0x40, 0x401010, L1LD, 100, 1, 0, 1, k },
		{ A + 0x40, 0x401010, L1LD, 100, 2, 1, 2, k },
	};
	add_cells_finish(c, cells, sizeof(cells) / sizeof(cells[0]));
	const struct pebs_c2c_line *l = find(c, A);
	cr_assert(l);
	cr_expect_eq(l->verdict, PEBS_C2C_V_FALSE, "%s", l->why);
	l = find(c, A + 0x40);
	cr_assert(l);
	cr_expect_eq(l->nloads, 2 * k);
	cr_expect_eq(l->lat_p50, 1);
	cr_expect_eq(l->lat_p99, 2);
	pebs_c2c_free(c);
}
