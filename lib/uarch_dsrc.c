/*
 * uarch_dsrc.c - raw PEBS data-source / store-status bits to the
 * perf_mem_data_src layout, per microarchitecture variant.
 *
 * Normative description, with the full table per variant and the reasons
 * for every deviation from the Linux kernel: formats/data-source.md.
 * In short: source encodings 5/6/7 follow the SDM wording (5 = L3 hit,
 * cross-core snoop clean = snoop HIT; 6 = HITM; 7 = HITM where defined)
 * instead of ds.c's miss/hit/hitm; remote cache hits (8, 9) and remote
 * DRAM (B) of the SNB table carry mem_lvl_num ANY_CACHE/RAM instead of
 * ds.c's L3, so that "remote" is never read as a local L3.  All other
 * values are the kernel's (ds.c pebs_data_source[], the nhm and skl
 * patches, load_latency_data, store_latency_data, precise_store_data,
 * precise_datala_hsw).
 */
#include "pebs_uarch.h"
#include "pebs_dsrc.h"

#define OP(x)	((uint64_t)PEBS_DS_OP_##x << PEBS_DS_OP_SHIFT)
#define LVL(x)	((uint64_t)PEBS_DS_LVL_##x << PEBS_DS_LVL_SHIFT)
#define SNP(x)	((uint64_t)PEBS_DS_SNOOP_##x << PEBS_DS_SNOOP_SHIFT)
#define LCK(x)	((uint64_t)PEBS_DS_LOCK_##x << PEBS_DS_LOCK_SHIFT)
#define TLB(x)	((uint64_t)PEBS_DS_TLB_##x << PEBS_DS_TLB_SHIFT)
#define LNUM(x)	((uint64_t)PEBS_DS_LNUM_##x << PEBS_DS_LVLNUM_SHIFT)
#define REM	(1ull << PEBS_DS_REMOTE_SHIFT)
#define SNPX(x)	((uint64_t)PEBS_DS_SNOOPX_##x << PEBS_DS_SNOOPX_SHIFT)
#define BLK(x)	((uint64_t)PEBS_DS_BLK_##x << PEBS_DS_BLK_SHIFT)
#define OP_LH	(OP(LOAD) | LVL(HIT))
#define OP_MASK	(0x1full << PEBS_DS_OP_SHIFT)

/* SNB table (SDM table 18-24 wording for 5/6/7; see the file comment). */
static const uint64_t tab_snb[16] = {
	[0x0] = OP(LOAD) | LVL(MISS) | LNUM(L3) | SNP(NA),
	[0x1] = OP_LH | LVL(L1) | LNUM(L1) | SNP(NONE),
	[0x2] = OP_LH | LVL(LFB) | LNUM(LFB) | SNP(NONE),
	[0x3] = OP_LH | LVL(L2) | LNUM(L2) | SNP(NONE),
	[0x4] = OP_LH | LVL(L3) | LNUM(L3) | SNP(NONE),
	[0x5] = OP_LH | LVL(L3) | LNUM(L3) | SNP(HIT),
	[0x6] = OP_LH | LVL(L3) | LNUM(L3) | SNP(HITM),
	[0x7] = OP_LH | LVL(L3) | LNUM(L3) | SNP(HITM),
	[0x8] = OP_LH | LVL(REM_CCE1) | REM | LNUM(ANY_CACHE) | SNP(HIT),
	[0x9] = OP_LH | LVL(REM_CCE1) | REM | LNUM(ANY_CACHE) | SNP(HITM),
	[0xa] = OP_LH | LVL(LOC_RAM) | LNUM(RAM) | SNP(HIT),
	[0xb] = OP_LH | LVL(REM_RAM1) | REM | LNUM(RAM) | SNP(HIT),
	[0xc] = OP_LH | LVL(LOC_RAM) | LNUM(RAM) | SNP(NONE) | SNP(MISS),
	[0xd] = OP_LH | LVL(REM_RAM1) | REM | LNUM(RAM) | SNP(NONE) |
		SNP(MISS),
	[0xe] = OP_LH | LVL(IO) | LNUM(NA) | SNP(NONE),
	[0xf] = OP_LH | LVL(UNC) | LNUM(NA) | SNP(NONE),
};

/* Encoding E is reserved on NHM/WSM (SDM table 18-22): nothing known. */
#define NHM_RESERVED	(OP(LOAD) | LVL(NA) | LNUM(NA) | SNP(NA))

/* The kernel's skl patch (ds.c __intel_pmu_pebs_data_source_skl). */
static uint64_t skl_patch(unsigned enc, int pmem, uint64_t dflt)
{
	uint64_t l4 = pmem ? LNUM(PMEM) : LNUM(L4);

	switch (enc) {
	case 0x8: return OP_LH | l4 | SNP(HIT);
	case 0x9: return OP_LH | l4 | REM | SNP(HIT);
	case 0xb: return OP_LH | LNUM(RAM) | REM | SNP(NONE);
	case 0xc: return OP_LH | LNUM(ANY_CACHE) | REM | SNPX(FWD);
	case 0xd: return OP_LH | LNUM(ANY_CACHE) | REM | SNP(HITM);
	default: return dflt;
	}
}

/* The 4-bit source encoding of variant @v. */
static uint64_t source(enum pebs_udsrc_variant v, unsigned enc)
{
	enc &= 0xf;
	switch (v) {
	case PEBS_UDSRC_NHM:
		return enc == 0xe ? NHM_RESERVED : tab_snb[enc];
	case PEBS_UDSRC_SNB:
		return tab_snb[enc];
	case PEBS_UDSRC_SKL:
		return skl_patch(enc, 0, tab_snb[enc]);
	case PEBS_UDSRC_SKX:
	case PEBS_UDSRC_GLC:
		return skl_patch(enc, 1, tab_snb[enc]);
	default:
		return PEBS_UDSRC_NA;
	}
}

/* Bits 4 (STLB miss) and 5 (lock) of the load/store-latency layout. */
static uint64_t tlb_lock(uint64_t raw)
{
	uint64_t v = (raw & 0x10) ? TLB(MISS) | TLB(L2)
				  : TLB(HIT) | TLB(L1) | TLB(L2);
	if (raw & 0x20)
		v |= LCK(LOCKED);
	return v;
}

static uint64_t load_latency(enum pebs_udsrc_variant v, uint64_t raw)
{
	uint64_t val = source(v, (unsigned)raw);

	/* NHM/WSM report neither TLB nor lock (kernel pebs_no_tlb). */
	if (v == PEBS_UDSRC_NHM)
		return val | TLB(NA) | LCK(NA);
	val |= tlb_lock(raw);
	if (v != PEBS_UDSRC_GLC)
		return val | BLK(NA);
	/* GLC+: 6 = store data not forwardable, 7 = address conflict. */
	if (raw & 0x40)
		val |= BLK(DATA);
	if (raw & 0x80)
		val |= BLK(ADDR);
	if (!(raw & 0xc0))
		val |= BLK(NA);
	return val;
}

/* SPR store latency: the load table, op forced to STORE, no block info. */
static uint64_t store_latency(enum pebs_udsrc_variant v, uint64_t raw)
{
	uint64_t val = source(v, (unsigned)raw) | tlb_lock(raw) | BLK(NA);

	return (val & ~OP_MASK) | OP(STORE);
}

/* SNB/IVB precise store: 0 = L1D hit, 4 = STLB miss, 5 = locked. */
static uint64_t precise_store(uint64_t raw)
{
	uint64_t val = OP(STORE) | SNP(NA) | LVL(L1) | TLB(L2);

	val |= (raw & 0x10) ? TLB(MISS) : TLB(HIT);
	val |= (raw & 0x01) ? LVL(HIT) : LVL(MISS);
	if (raw & 0x20)
		val |= LCK(LOCKED);
	return val;
}

/* Everything NA except the operation. */
static uint64_t na_with_op(uint64_t op)
{
	return (PEBS_UDSRC_NA & ~OP_MASK) | op;
}

uint64_t pebs_udsrc_decode(enum pebs_udsrc_variant v,
			   enum pebs_uarch_kind kind, uint64_t raw)
{
	int has_source = v > PEBS_UDSRC_NONE && v < PEBS_UDSRC_COUNT;

	switch (kind) {
	case PEBS_EVK_LOAD_LATENCY:
		return has_source ? load_latency(v, raw) : na_with_op(OP(LOAD));
	case PEBS_EVK_STORE_LATENCY:
		return has_source ? store_latency(v, raw)
				  : na_with_op(OP(STORE));
	case PEBS_EVK_PRECISE_STORE:
		return has_source ? precise_store(raw) : na_with_op(OP(STORE));
	case PEBS_EVK_DATALA_STORE:
		/* Store status exists from HSW on (SDM table 18-57). */
		if (v == PEBS_UDSRC_NONE || v == PEBS_UDSRC_NHM ||
		    v >= PEBS_UDSRC_COUNT)
			return na_with_op(OP(STORE));
		return (na_with_op(OP(STORE)) & ~LVL(NA)) | LVL(L1) |
		       ((raw & 1) ? LVL(HIT) : LVL(MISS));
	case PEBS_EVK_LOAD:
		return na_with_op(OP(LOAD));
	default:
		return PEBS_UDSRC_NA;
	}
}
