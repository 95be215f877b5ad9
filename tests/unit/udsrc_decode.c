/*
 * Data-source decoding per microarchitecture variant and event kind:
 * every 4-bit source encoding of every variant (formats/data-source.md
 * tables), the STLB-miss/lock/block bits, SNB precise-store status, DataLA
 * store status, Goldmont (none), and exact perf_mem_data_src bit values.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_c2c.h"
#include "pebs_dsrc.h"
#include "pebs_uarch.h"

#define OP(x)	((uint64_t)PEBS_DS_OP_##x << PEBS_DS_OP_SHIFT)
#define LVL(x)	((uint64_t)PEBS_DS_LVL_##x << PEBS_DS_LVL_SHIFT)
#define SNP(x)	((uint64_t)PEBS_DS_SNOOP_##x << PEBS_DS_SNOOP_SHIFT)
#define LCK(x)	((uint64_t)PEBS_DS_LOCK_##x << PEBS_DS_LOCK_SHIFT)
#define TLB(x)	((uint64_t)PEBS_DS_TLB_##x << PEBS_DS_TLB_SHIFT)
#define LNUM(x)	((uint64_t)PEBS_DS_LNUM_##x << PEBS_DS_LVLNUM_SHIFT)
#define REM	(1ull << PEBS_DS_REMOTE_SHIFT)
#define SNPX(x)	((uint64_t)PEBS_DS_SNOOPX_##x << PEBS_DS_SNOOPX_SHIFT)
#define BLK(x)	((uint64_t)PEBS_DS_BLK_##x << PEBS_DS_BLK_SHIFT)

struct exp { const char *mem, *snoop; };

/* formats/data-source.md, "derived names" columns. */
static const struct exp snb[16] = {
	{ "L3_MISS", "na" }, { "L1", "none" }, { "LFB", "none" },
	{ "L2", "none" }, { "L3", "none" }, { "L3", "hit" },
	{ "L3", "hitm" }, { "L3", "hitm" }, { "REMOTE_CACHE", "hit" },
	{ "REMOTE_CACHE", "hitm" }, { "LOCAL_RAM", "hit" },
	{ "REMOTE_RAM", "hit" }, { "LOCAL_RAM", "miss" },
	{ "REMOTE_RAM", "miss" }, { "IO", "none" }, { "UNCACHED", "none" },
};

static void check_table(enum pebs_udsrc_variant v, const struct exp *t)
{
	for (unsigned e = 0; e < 16; e++) {
		uint64_t d = pebs_udsrc_decode(v, PEBS_EVK_LOAD_LATENCY, e);
		cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(d)), "load");
		cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(d)),
				 t[e].mem, "%s enc %x",
				 pebs_udsrc_variant_name(v), e);
		cr_assert_str_eq(pebs_dsrc_snoop_name(pebs_dsrc_snoop(d)),
				 t[e].snoop, "%s enc %x",
				 pebs_udsrc_variant_name(v), e);
		/* bits 63:8 are reserved: they never change the result */
		cr_assert_eq(pebs_udsrc_decode(v, PEBS_EVK_LOAD_LATENCY,
					       e | 0xffffff00ull), d);
	}
}

Test(udsrc, snb_table)
{
	check_table(PEBS_UDSRC_SNB, snb);
}

Test(udsrc, nhm_table)
{
	struct exp t[16];

	memcpy(t, snb, sizeof(t));
	t[0xe].mem = "NA";	/* reserved on NHM (SDM table 18-22) */
	t[0xe].snoop = "na";
	check_table(PEBS_UDSRC_NHM, t);
}

Test(udsrc, skl_skx_glc_tables)
{
	struct exp t[16];

	memcpy(t, snb, sizeof(t));
	t[0x8] = (struct exp){ "L4", "hit" };
	t[0x9] = (struct exp){ "L4", "hit" };
	t[0xb] = (struct exp){ "REMOTE_RAM", "none" };
	t[0xc] = (struct exp){ "REMOTE_CACHE", "fwd" };
	t[0xd] = (struct exp){ "REMOTE_CACHE", "hitm" };
	check_table(PEBS_UDSRC_SKL, t);
	t[0x8].mem = t[0x9].mem = "PMEM";
	check_table(PEBS_UDSRC_SKX, t);
	check_table(PEBS_UDSRC_GLC, t);
}

/*
 * The exact values formats/data-source.md section 3.1 lists for the SNB
 * table (bits 4 and 5 clear): encoding 0 has mem_lvl MISS and no level
 * bit (the level is in mem_lvl_num only), as its table row says.
 */
Test(udsrc, snb_values_as_documented)
{
	static const uint64_t doc[16] = {
		0x10668080082, 0x10268100142, 0x11868100242, 0x10468100442,
		0x10668100842, 0x10668200842, 0x10668800842, 0x10668800842,
		0x13668208042, 0x13668808042, 0x11a68201042, 0x13a68202042,
		0x11a68501042, 0x13a68502042, 0x11e68120042, 0x11e68140042,
	};

	for (unsigned e = 0; e < 16; e++)
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB,
					       PEBS_EVK_LOAD_LATENCY, e),
			     doc[e], "enc %x", e);
}

/* The SDM-vs-kernel choice for 5/6/7 (formats/data-source.md). */
Test(udsrc, sdm_choice_5_6_7_exact_bits)
{
	uint64_t tlbhit = TLB(HIT) | TLB(L1) | TLB(L2);
	uint64_t l3 = OP(LOAD) | LVL(HIT) | LVL(L3) | LNUM(L3);

	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB, PEBS_EVK_LOAD_LATENCY,
				       5), l3 | SNP(HIT) | tlbhit | BLK(NA));
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB, PEBS_EVK_LOAD_LATENCY,
				       6), l3 | SNP(HITM) | tlbhit | BLK(NA));
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB, PEBS_EVK_LOAD_LATENCY,
				       7), l3 | SNP(HITM) | tlbhit | BLK(NA));
	/* NHM: TLB and lock NA, no block field */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_NHM, PEBS_EVK_LOAD_LATENCY,
				       0x36), l3 | SNP(HITM) | TLB(NA) |
		     LCK(NA));
	/* encoding 0: unknown L3 miss */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL, PEBS_EVK_LOAD_LATENCY,
				       0x10), OP(LOAD) | LVL(MISS) | LNUM(L3) |
		     SNP(NA) | TLB(MISS) | TLB(L2) | BLK(NA));
	/* SKX encoding 9: PMEM, remote, snoop hit */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKX, PEBS_EVK_LOAD_LATENCY,
				       0x29), OP(LOAD) | LVL(HIT) |
		     LNUM(PMEM) | REM | SNP(HIT) | tlbhit | LCK(LOCKED) |
		     BLK(NA));
	/* SKL encoding C: remote cache, forwarded */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL, PEBS_EVK_LOAD_LATENCY,
				       0xc), OP(LOAD) | LVL(HIT) |
		     LNUM(ANY_CACHE) | REM | SNPX(FWD) | tlbhit | BLK(NA));
	/* SNB encoding B: remote DRAM keeps lvl_num RAM */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB, PEBS_EVK_LOAD_LATENCY,
				       0xb), OP(LOAD) | LVL(HIT) |
		     LVL(REM_RAM1) | REM | LNUM(RAM) | SNP(HIT) | tlbhit |
		     BLK(NA));
}

Test(udsrc, tlb_lock_bits)
{
	for (int v = PEBS_UDSRC_SNB; v < PEBS_UDSRC_COUNT; v++) {
		uint64_t d;

		d = pebs_udsrc_decode(v, PEBS_EVK_LOAD_LATENCY, 0x01);
		cr_assert_str_eq(pebs_dsrc_tlb_name(d), "hit");
		cr_assert_str_eq(pebs_dsrc_lock_name(d), "no");
		d = pebs_udsrc_decode(v, PEBS_EVK_LOAD_LATENCY, 0x11);
		cr_assert_str_eq(pebs_dsrc_tlb_name(d), "miss");
		cr_assert_eq(PEBS_DS_TLB(d), PEBS_DS_TLB_MISS |
			     PEBS_DS_TLB_L2);
		d = pebs_udsrc_decode(v, PEBS_EVK_LOAD_LATENCY, 0x21);
		cr_assert_str_eq(pebs_dsrc_lock_name(d), "locked");
		cr_assert_str_eq(pebs_dsrc_tlb_name(d), "hit");
	}
	/* NHM: bits 4 and 5 are not reported */
	uint64_t d = pebs_udsrc_decode(PEBS_UDSRC_NHM,
				       PEBS_EVK_LOAD_LATENCY, 0x31);
	cr_assert_str_eq(pebs_dsrc_tlb_name(d), "na");
	cr_assert_str_eq(pebs_dsrc_lock_name(d), "na");
}

Test(udsrc, block_bits_glc_only)
{
	cr_assert_eq(PEBS_DS_BLK(pebs_udsrc_decode(PEBS_UDSRC_GLC,
		PEBS_EVK_LOAD_LATENCY, 0x41)), PEBS_DS_BLK_DATA);
	cr_assert_eq(PEBS_DS_BLK(pebs_udsrc_decode(PEBS_UDSRC_GLC,
		PEBS_EVK_LOAD_LATENCY, 0x81)), PEBS_DS_BLK_ADDR);
	cr_assert_eq(PEBS_DS_BLK(pebs_udsrc_decode(PEBS_UDSRC_GLC,
		PEBS_EVK_LOAD_LATENCY, 0xc1)),
		PEBS_DS_BLK_DATA | PEBS_DS_BLK_ADDR);
	cr_assert_eq(PEBS_DS_BLK(pebs_udsrc_decode(PEBS_UDSRC_GLC,
		PEBS_EVK_LOAD_LATENCY, 0x01)), PEBS_DS_BLK_NA);
	/* before GLC bits 6/7 are reserved: ignored */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKX, PEBS_EVK_LOAD_LATENCY,
				       0xc1),
		     pebs_udsrc_decode(PEBS_UDSRC_SKX, PEBS_EVK_LOAD_LATENCY,
				       0x01));
}

Test(udsrc, snb_precise_store)
{
	uint64_t base = OP(STORE) | SNP(NA) | LVL(L1) | TLB(L2);

	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB,
		PEBS_EVK_PRECISE_STORE, 0x01), base | LVL(HIT) | TLB(HIT));
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB,
		PEBS_EVK_PRECISE_STORE, 0x00), base | LVL(MISS) | TLB(HIT));
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB,
		PEBS_EVK_PRECISE_STORE, 0x31), base | LVL(HIT) | TLB(MISS) |
		LCK(LOCKED));
	/* bits 3:1 are reserved */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB,
		PEBS_EVK_PRECISE_STORE, 0x0e), base | LVL(MISS) | TLB(HIT));
	uint64_t d = pebs_udsrc_decode(PEBS_UDSRC_SNB,
				       PEBS_EVK_PRECISE_STORE, 0);
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(d)), "store");
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(d)), "L1_MISS");
}

Test(udsrc, datala_store_status)
{
	uint64_t na_store = (PEBS_UDSRC_NA & ~0x1full) | OP(STORE);

	for (int v = PEBS_UDSRC_SNB; v < PEBS_UDSRC_COUNT; v++) {
		uint64_t hit = pebs_udsrc_decode(v, PEBS_EVK_DATALA_STORE, 1);
		uint64_t miss = pebs_udsrc_decode(v, PEBS_EVK_DATALA_STORE,
						  0);

		cr_assert_eq(hit, (na_store & ~LVL(NA)) | LVL(L1) | LVL(HIT));
		cr_assert_eq(miss, (na_store & ~LVL(NA)) | LVL(L1) |
			     LVL(MISS));
		cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(hit)),
				 "L1");
		cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(miss)),
				 "L1_MISS");
		/* "other bits are zero": ignored if not */
		cr_assert_eq(pebs_udsrc_decode(v, PEBS_EVK_DATALA_STORE,
					       0xfe), miss);
	}
	/* GLM: no store status */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_NONE,
				       PEBS_EVK_DATALA_STORE, 1), na_store);
}

Test(udsrc, goldmont_none_and_other_kinds)
{
	uint64_t na_load = (PEBS_UDSRC_NA & ~0x1full) | OP(LOAD);

	cr_assert_eq(PEBS_UDSRC_NA, OP(NA) | LVL(NA) | SNP(NA) | LCK(NA) |
		     TLB(NA));
	for (unsigned raw = 0; raw < 256; raw += 17) {
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_NONE,
			PEBS_EVK_LOAD_LATENCY, raw), na_load);
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_NONE,
			PEBS_EVK_LOAD, raw), na_load);
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL,
			PEBS_EVK_LOAD, raw), na_load);
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL,
			PEBS_EVK_OTHER, raw), PEBS_UDSRC_NA);
		cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL,
			PEBS_EVK_FRONTEND, raw), PEBS_UDSRC_NA);
	}
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_COUNT,
		PEBS_EVK_LOAD_LATENCY, 1), na_load, "bad variant");
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SKL, PEBS_EVK_COUNT, 1),
		     PEBS_UDSRC_NA, "bad kind");
}

Test(udsrc, spr_store_latency)
{
	uint64_t d = pebs_udsrc_decode(PEBS_UDSRC_GLC,
				       PEBS_EVK_STORE_LATENCY, 0x61);

	cr_assert_eq(d, OP(STORE) | LVL(HIT) | LVL(L1) | LNUM(L1) |
		     SNP(NONE) | TLB(HIT) | TLB(L1) | TLB(L2) | LCK(LOCKED) |
		     BLK(NA), "bit 6 is no block bit for stores");
	d = pebs_udsrc_decode(PEBS_UDSRC_GLC, PEBS_EVK_STORE_LATENCY, 0x13);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(d)), "L2");
	cr_assert_str_eq(pebs_dsrc_tlb_name(d), "miss");
}

/*
 * Values the kernel writes (perf.data, pebs-capture -b perf): its SNB+ row
 * 0xB says lvl_num L3 + remote beside mem_lvl REM_RAM1.  Remote DRAM, as
 * its row 0xD and perf c2c (which reads mem_lvl) say; a remote L3 whose
 * mem_lvl is a remote cache stays a remote cache.
 */
Test(udsrc, kernel_row_b_is_remote_dram)
{
	uint64_t b = OP(LOAD) | LVL(HIT) | LVL(REM_RAM1) | LNUM(L3) | REM |
		     SNP(HIT) | TLB(HIT) | TLB(L1) | TLB(L2);
	cr_assert_eq(b, 0x2668202042ull);	/* as pebs-import reads it */
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(b)), "REMOTE_RAM");
	cr_assert_str_eq(pebs_dsrc_snoop_name(pebs_dsrc_snoop(b)), "hit");
	uint64_t c = OP(LOAD) | LVL(HIT) | LVL(REM_CCE1) | LNUM(L3) | REM |
		     SNP(HIT);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(c)),
			 "REMOTE_CACHE");
	uint64_t l3 = OP(LOAD) | LVL(HIT) | LVL(L3) | LNUM(L3) | SNP(NONE);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(l3)), "L3");
}

/*
 * The kernel's SNB+ row 0 ("unknown L3 miss") since LEVEL() was added:
 * mem_lvl MISS without a level bit, the level only in mem_lvl_num.  An L3
 * miss (perf: "L3 miss"), never an L3 hit; the other levels likewise.
 */
Test(udsrc, kernel_row_0_is_l3_miss)
{
	uint64_t k = OP(LOAD) | LVL(MISS) | LNUM(L3) | SNP(NA) | TLB(HIT) |
		     TLB(L1) | TLB(L2) | BLK(NA);
	cr_assert_eq(k, 0x10668080082ull);	/* as pebs-import reads it */
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(k)), "L3_MISS");
	uint64_t l1 = OP(STORE) | LVL(MISS) | LNUM(L1);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(l1)), "L1_MISS");
	uint64_t l2 = OP(LOAD) | LVL(MISS) | LNUM(L2);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(l2)), "L2_MISS");
	/* perf c2c (c2c_decode_stats): LVL MISS, no HIT: a load miss and
	 * nothing else, in both of pebs-c2c's modes */
	for (int compat = 0; compat < 2; compat++) {
		struct pebs_c2c_stats st;

		memset(&st, 0, sizeof(st));
		pebs_c2c_classify(&st, k, 0x1000, 1, compat);
		cr_assert_eq(st.load, 1);
		cr_assert_eq(st.ld_miss, 1);
		cr_assert_eq(pebs_c2c_tot_loads(&st), 0);
		cr_assert_eq(st.ld_llchit + st.lcl_hitm, 0);
	}
	/* our own row 0 decodes to the kernel's value, bit for bit */
	cr_assert_eq(pebs_udsrc_decode(PEBS_UDSRC_SNB, PEBS_EVK_LOAD_LATENCY,
				       0x0), k);
}
