/*
 * uarch.c - Intel microarchitecture profiles for PEBS and their detection.
 *
 * Sources (see /work/shared/docs/pebs-facts.md sections 1, 3, 5):
 *  - record formats and sizes: SDM Vol. 3B tables 18-21/18-23 (fmt 0/1),
 *    18-44 (HSW), 18-55 (SKL); ds.c pebs_record_{core,nhm,hsw,skl};
 *  - PEBS counter masks: ds.c intel_*_pebs_event_constraints, the
 *    PMU_FL_PEBS_ALL flag set in core.c for GLP, ICL and SPR;
 *  - event encodings: libpfm4 intel_{core,nhm,snb,hsw,skl,glm}_events.h,
 *    SDM table 18-19 (GLM) and 18-32 (SNB), the kernel constraint comments;
 *  - models: arch/x86/include/asm/intel-family.h;
 *  - counter counts/widths: CPUID.0AH values of these parts as the SDM
 *    documents them per family (values for HT on; SKL+ client parts have
 *    8 GP counters per core when HT is off; a live CPUID wins).
 * Facts that are not in these sources are said to be missing in the
 * profile's notes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "pebs_uarch.h"

#define GP(n)		((1ull << (n)) - 1)
#define FX(n)		(((1ull << (n)) - 1) << 32)
#define F0		PEBS_UARCH_FIXED(0)

#define LL	PEBS_EVK_LOAD_LATENCY
#define PS	PEBS_EVK_PRECISE_STORE
#define DS	PEBS_EVK_DATALA_STORE
#define SL	PEBS_EVK_STORE_LATENCY
#define LD	PEBS_EVK_LOAD
#define FE	PEBS_EVK_FRONTEND
#define OT	PEBS_EVK_OTHER

/* Shorthand: {name, event, umask, kind, precise, counters}. */
#define EV(n, e, u, k, c)	{ n, e, u, k, 1, c }

/* -------------------------------------------------------------- events */

/*
 * Core 2: PEBS on PMC0 only; the fmt-0 record has no data address, so
 * MEM_LOAD_RETIRED samples carry only "this was a load".  Umasks from
 * libpfm4 intel_core_events.h (pebs-facts.md gives only 0xCB.*).
 */
static const struct pebs_uarch_event ev_core2[] = {
	EV("MEM_LOAD_RETIRED.L1D_MISS", 0xcb, 0x01, LD, 0x1),
	EV("MEM_LOAD_RETIRED.L1D_LINE_MISS", 0xcb, 0x02, LD, 0x1),
	EV("MEM_LOAD_RETIRED.L2_MISS", 0xcb, 0x04, LD, 0x1),
	EV("MEM_LOAD_RETIRED.L2_LINE_MISS", 0xcb, 0x08, LD, 0x1),
	EV("MEM_LOAD_RETIRED.DTLB_MISS", 0xcb, 0x10, LD, 0x1),
	EV("INST_RETIRED.ANY_P", 0xc0, 0x00, OT, 0x1),
};

/*
 * Nehalem / Westmere.  Only the load-latency event fills the data-source
 * and latency fields (SDM 18.8.1.2); the address at 0x98 is defined for it
 * alone, so the other memory events are kind OTHER (the kernel flags none
 * of them as DataLA either: ds.c intel_nehalem_pebs_event_constraints).
 */
static const struct pebs_uarch_event ev_nhm[] = {
	EV("MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD", 0x0b, 0x10, LL, 0xf),
	EV("MEM_INST_RETIRED.LOADS", 0x0b, 0x01, OT, 0xf),
	EV("MEM_INST_RETIRED.STORES", 0x0b, 0x02, OT, 0xf),
	EV("MEM_STORE_RETIRED.DTLB_MISS", 0x0c, 0x01, OT, 0xf),
	EV("INST_RETIRED.ANY_P", 0xc0, 0x01, OT, 0xf),
};

/*
 * Sandy Bridge / Ivy Bridge: load latency and precise store on PMC3 only
 * (ds.c constraint 0x8; SDM 18.9.4.3); PREC_DIST on PMC1 (0x2).
 */
static const struct pebs_uarch_event ev_snb[] = {
	EV("MEM_TRANS_RETIRED.LOAD_LATENCY", 0xcd, 0x01, LL, 0x8),
	EV("MEM_TRANS_RETIRED.PRECISE_STORE", 0xcd, 0x02, PS, 0x8),
	EV("INST_RETIRED.PREC_DIST", 0xc0, 0x01, OT, 0x2),
	EV("MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, OT, 0xf),
	EV("MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82, OT, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L1_HIT", 0xd1, 0x01, OT, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L2_HIT", 0xd1, 0x02, OT, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L3_HIT", 0xd1, 0x04, OT, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.HIT_LFB", 0xd1, 0x40, OT, 0xf),
};

/*
 * Haswell / Broadwell: DataLA for MEM_UOPS_RETIRED and MEM_LOAD_UOPS_*;
 * store status bit 0 for the *_STORES events (SDM table 18-57, ds.c
 * precise_datala_hsw).  ALL_STORES first: the portable "precise-store".
 */
static const struct pebs_uarch_event ev_hsw[] = {
	EV("MEM_TRANS_RETIRED.LOAD_LATENCY", 0xcd, 0x01, LL, 0xf),
	EV("MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82, DS, 0xf),
	EV("MEM_UOPS_RETIRED.STLB_MISS_STORES", 0xd0, 0x12, DS, 0xf),
	EV("MEM_UOPS_RETIRED.SPLIT_STORES", 0xd0, 0x42, DS, 0xf),
	EV("MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, LD, 0xf),
	EV("MEM_UOPS_RETIRED.STLB_MISS_LOADS", 0xd0, 0x11, LD, 0xf),
	EV("MEM_UOPS_RETIRED.LOCK_LOADS", 0xd0, 0x21, LD, 0xf),
	EV("MEM_UOPS_RETIRED.SPLIT_LOADS", 0xd0, 0x41, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L1_HIT", 0xd1, 0x01, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L2_HIT", 0xd1, 0x02, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L3_HIT", 0xd1, 0x04, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L1_MISS", 0xd1, 0x08, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L2_MISS", 0xd1, 0x10, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.L3_MISS", 0xd1, 0x20, LD, 0xf),
	EV("MEM_LOAD_UOPS_RETIRED.HIT_LFB", 0xd1, 0x40, LD, 0xf),
	EV("UOPS_RETIRED.ALL", 0xc2, 0x01, OT, 0xf),
	EV("INST_RETIRED.PREC_DIST", 0xc0, 0x01, OT, 0x2),
};

/*
 * Skylake client and server: MEM_INST_RETIRED names, MEM_LOAD_RETIRED,
 * L3 hit/miss events, FRONTEND_RETIRED (MSR_PEBS_FRONTEND).  LOCK_STORES
 * 0x22D0 is in ds.c intel_skl_pebs_event_constraints as a DataLA store;
 * the SDM's store-status list (table 18-57) does not name it.
 */
static const struct pebs_uarch_event ev_skl[] = {
	EV("MEM_TRANS_RETIRED.LOAD_LATENCY", 0xcd, 0x01, LL, 0xf),
	EV("MEM_INST_RETIRED.ALL_STORES", 0xd0, 0x82, DS, 0xf),
	EV("MEM_INST_RETIRED.STLB_MISS_STORES", 0xd0, 0x12, DS, 0xf),
	EV("MEM_INST_RETIRED.LOCK_STORES", 0xd0, 0x22, DS, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_STORES", 0xd0, 0x42, DS, 0xf),
	EV("MEM_INST_RETIRED.ALL_LOADS", 0xd0, 0x81, LD, 0xf),
	EV("MEM_INST_RETIRED.STLB_MISS_LOADS", 0xd0, 0x11, LD, 0xf),
	EV("MEM_INST_RETIRED.LOCK_LOADS", 0xd0, 0x21, LD, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_LOADS", 0xd0, 0x41, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_HIT", 0xd1, 0x01, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_HIT", 0xd1, 0x02, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_HIT", 0xd1, 0x04, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_MISS", 0xd1, 0x10, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_MISS", 0xd1, 0x20, LD, 0xf),
	EV("MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS", 0xd2, 0x01, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT", 0xd2, 0x02, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", 0xd2, 0x04, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_NONE", 0xd2, 0x08, LD, 0xf),
	EV("MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM", 0xd3, 0x01, LD, 0xf),
	EV("MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM", 0xd3, 0x02, LD, 0xf),
	EV("MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM", 0xd3, 0x04, LD, 0xf),
	EV("MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD", 0xd3, 0x08, LD, 0xf),
	EV("FRONTEND_RETIRED", 0xc6, 0x01, FE, 0xf),
	EV("INST_RETIRED.PREC_DIST", 0xc0, 0x01, OT, 0x2),
};

/*
 * Ice Lake (client and server): PEBS on every counter (PMU_FL_PEBS_ALL),
 * load latency on PMC0-7 (0xff), DataLA events still PMC0-3 (ds.c
 * intel_icl_pebs_event_constraints, which has no LOCK_STORES), PREC_DIST
 * on fixed counter 0 (pseudo-encoding 0x0100).
 */
static const struct pebs_uarch_event ev_icl[] = {
	EV("MEM_TRANS_RETIRED.LOAD_LATENCY", 0xcd, 0x01, LL, 0xff),
	EV("MEM_INST_RETIRED.ALL_STORES", 0xd0, 0x82, DS, 0xf),
	EV("MEM_INST_RETIRED.STLB_MISS_STORES", 0xd0, 0x12, DS, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_STORES", 0xd0, 0x42, DS, 0xf),
	EV("MEM_INST_RETIRED.ALL_LOADS", 0xd0, 0x81, LD, 0xf),
	EV("MEM_INST_RETIRED.STLB_MISS_LOADS", 0xd0, 0x11, LD, 0xf),
	EV("MEM_INST_RETIRED.LOCK_LOADS", 0xd0, 0x21, LD, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_LOADS", 0xd0, 0x41, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_HIT", 0xd1, 0x01, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_HIT", 0xd1, 0x02, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_HIT", 0xd1, 0x04, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_MISS", 0xd1, 0x10, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_MISS", 0xd1, 0x20, LD, 0xf),
	EV("MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS", 0xd2, 0x01, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT", 0xd2, 0x02, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", 0xd2, 0x04, LD, 0xf),
	EV("MEM_LOAD_L3_HIT_RETIRED.XSNP_NONE", 0xd2, 0x08, LD, 0xf),
	EV("MEM_LOAD_L3_MISS_RETIRED.LOCAL_DRAM", 0xd3, 0x01, LD, 0xf),
	EV("FRONTEND_RETIRED", 0xc6, 0x01, FE, 0xff),
	EV("INST_RETIRED.PREC_DIST", 0x00, 0x01, OT, F0),
};

/*
 * Sapphire Rapids (Golden Cove): load latency PMC1-7 (0xfe), store
 * latency 0x02CD on PMC0 only (ds.c INTEL_PSD_CONSTRAINT(0x2cd, 0x1)),
 * INST_RETIRED.* (event 0xC0, every umask) on PMC1-7 (ds.c
 * INTEL_FLAGS_EVENT_CONSTRAINT(0xc0, 0xfe); other umasks than ANY_P's:
 * pebs_uarch_event_code_counters()).  The store-latency event name is
 * the one of Intel's SPR event list.
 */
static const struct pebs_uarch_event ev_spr[] = {
	EV("MEM_TRANS_RETIRED.LOAD_LATENCY", 0xcd, 0x01, LL, 0xfe),
	EV("INST_RETIRED.ANY_P", 0xc0, 0x00, OT, 0xfe),
	EV("MEM_INST_RETIRED.ALL_STORES", 0xd0, 0x82, DS, 0xf),
	EV("MEM_TRANS_RETIRED.STORE_SAMPLE", 0xcd, 0x02, SL, 0x1),
	EV("MEM_INST_RETIRED.STLB_MISS_STORES", 0xd0, 0x12, DS, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_STORES", 0xd0, 0x42, DS, 0xf),
	EV("MEM_INST_RETIRED.ALL_LOADS", 0xd0, 0x81, LD, 0xf),
	EV("MEM_INST_RETIRED.STLB_MISS_LOADS", 0xd0, 0x11, LD, 0xf),
	EV("MEM_INST_RETIRED.LOCK_LOADS", 0xd0, 0x21, LD, 0xf),
	EV("MEM_INST_RETIRED.SPLIT_LOADS", 0xd0, 0x41, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_HIT", 0xd1, 0x01, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_HIT", 0xd1, 0x02, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_HIT", 0xd1, 0x04, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L1_MISS", 0xd1, 0x08, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L2_MISS", 0xd1, 0x10, LD, 0xf),
	EV("MEM_LOAD_RETIRED.L3_MISS", 0xd1, 0x20, LD, 0xf),
	EV("MEM_LOAD_RETIRED.FB_HIT", 0xd1, 0x40, LD, 0xf),
	EV("FRONTEND_RETIRED", 0xc6, 0x01, FE, 0xff),
	EV("INST_RETIRED.PREC_DIST", 0x00, 0x01, OT, F0),
};

/*
 * Goldmont: every event may use PEBS but only on PMC0 (SDM 18.7.1; ds.c
 * 0x1).  No data source (SDM 18.7.1.1): stores carry no status, so their
 * kind gives op STORE and nothing else.  Umasks: libpfm4
 * intel_glm_events.h, SDM table 18-19.  GLP: same events, PMC0-3.
 */
#define GLM_EVENTS(c) \
	EV("MEM_UOPS_RETIRED.ALL_LOADS", 0xd0, 0x81, LD, c), \
	EV("MEM_UOPS_RETIRED.ALL_STORES", 0xd0, 0x82, DS, c), \
	EV("MEM_UOPS_RETIRED.ALL", 0xd0, 0x83, OT, c), \
	EV("MEM_UOPS_RETIRED.DTLB_MISS_LOADS", 0xd0, 0x11, LD, c), \
	EV("MEM_UOPS_RETIRED.DTLB_MISS_STORES", 0xd0, 0x12, DS, c), \
	EV("MEM_UOPS_RETIRED.DTLB_MISS", 0xd0, 0x13, OT, c), \
	EV("MEM_UOPS_RETIRED.LOCK_LOADS", 0xd0, 0x21, LD, c), \
	EV("MEM_UOPS_RETIRED.SPLIT_LOADS", 0xd0, 0x41, LD, c), \
	EV("MEM_UOPS_RETIRED.SPLIT_STORES", 0xd0, 0x42, DS, c), \
	EV("MEM_UOPS_RETIRED.SPLIT", 0xd0, 0x43, OT, c), \
	EV("MEM_LOAD_UOPS_RETIRED.L1_HIT", 0xd1, 0x01, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.L2_HIT", 0xd1, 0x02, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.L1_MISS", 0xd1, 0x08, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.L2_MISS", 0xd1, 0x10, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.HITM", 0xd1, 0x20, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.WCB_HIT", 0xd1, 0x40, LD, c), \
	EV("MEM_LOAD_UOPS_RETIRED.DRAM_HIT", 0xd1, 0x80, LD, c), \
	EV("LD_BLOCKS.DATA_UNKNOWN", 0x03, 0x01, LD, c), \
	EV("LD_BLOCKS.STORE_FORWARD", 0x03, 0x02, LD, c), \
	EV("LD_BLOCKS.4K_ALIAS", 0x03, 0x04, LD, c), \
	EV("LD_BLOCKS.UTLB_MISS", 0x03, 0x08, LD, c), \
	EV("LD_BLOCKS.ALL_BLOCK", 0x03, 0x10, LD, c)

static const struct pebs_uarch_event ev_glm[] = { GLM_EVENTS(0x1) };
static const struct pebs_uarch_event ev_glp[] = { GLM_EVENTS(0xf) };

/* ------------------------------------------------------------- models */

static const uint8_t m_core2[] = { 0x0f, 0x16, 0x17, 0x1d };
static const uint8_t m_nhm[] = { 0x1e, 0x1f, 0x1a, 0x2e };
static const uint8_t m_wsm[] = { 0x25, 0x2c, 0x2f };
static const uint8_t m_snb[] = { 0x2a, 0x2d };
static const uint8_t m_ivb[] = { 0x3a, 0x3e };
static const uint8_t m_hsw[] = { 0x3c, 0x3f, 0x45, 0x46 };
static const uint8_t m_bdw[] = { 0x3d, 0x47, 0x4f, 0x56 };
static const uint8_t m_skl[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6 };
static const uint8_t m_skx[] = { 0x55 };
static const uint8_t m_glm[] = { 0x5c, 0x5f };
static const uint8_t m_glp[] = { 0x7a };
static const uint8_t m_icl[] = { 0x7d, 0x7e, 0x8c, 0x8d, 0xa7 };
static const uint8_t m_icx[] = { 0x6a, 0x6c };
static const uint8_t m_spr[] = { 0x8f, 0xcf };

#define N(a)	(unsigned)(sizeof(a) / sizeof((a)[0]))
#define MODELS(a)	a, N(a)
#define EVENTS(a)	a, N(a)

/* Features every format >= 1 big core shares. */
#define UF_NHM	(PEBS_UF_LDLAT | PEBS_UF_LL_EN | PEBS_UF_TRAP)
#define UF_HSW	(PEBS_UF_LDLAT | PEBS_UF_LL_EN | PEBS_UF_TRAP | \
		 PEBS_UF_DATALA | PEBS_UF_EVENTING_IP | PEBS_UF_TSX | \
		 PEBS_UF_PDIR | PEBS_UF_FULL_WIDTH)
#define UF_SKL	(UF_HSW | PEBS_UF_TSC | PEBS_UF_FRONTEND)
#define UF_ICL	(PEBS_UF_LDLAT | PEBS_UF_TRAP | PEBS_UF_DATALA | \
		 PEBS_UF_EVENTING_IP | PEBS_UF_TSX | PEBS_UF_TSC | \
		 PEBS_UF_PDIR | PEBS_UF_FULL_WIDTH | PEBS_UF_FRONTEND | \
		 PEBS_UF_ADAPTIVE | PEBS_UF_PEBS_ALL)

static const char note_fw[] =
	"full_width expected from SNB on (the kernel reports full-width "
	"counters there); IA32_PERF_CAPABILITIES[13] is authoritative, "
	"pebs-facts.md has no per-model source";

static const struct pebs_uarch profiles[] = {
	{
		.name = "core2",
		.desc = "Intel Core 2 (Merom, Penryn, Dunnington)",
		.family = 6, .models = MODELS(m_core2),
		.pmu_version = 2, .pebs_fmt = PEBS_FMT_CORE2,
		.rec_size = PEBS_REC_SIZE_FMT0,
		.n_gp = 2, .gp_width = 40, .n_fixed = 3, .fixed_width = 40,
		.pebs_counters = 0x1,
		.features = PEBS_UF_TRAP,
		.dsrc = PEBS_UDSRC_NONE, .events = EVENTS(ev_core2),
		.notes = "models 0x0F/0x16/0x17/0x1D from intel-family.h "
			 "(not in pebs-facts.md section 5); one PEBS counter "
			 "reset slot (SDM Core 2 DS figure)",
	},
	{
		.name = "nhm",
		.desc = "Nehalem (Core i7 1st gen, Xeon 5500/7500)",
		.family = 6, .models = MODELS(m_nhm),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_NHM,
		.rec_size = PEBS_REC_SIZE_FMT1,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf, .ldlat_min = 3,
		.features = UF_NHM,
		.dsrc = PEBS_UDSRC_NHM, .events = EVENTS(ev_nhm),
		.notes = "data source: STLB-miss and lock reported NA "
			 "(kernel pebs_no_tlb); full-width writes not assumed",
	},
	{
		.name = "wsm",
		.desc = "Westmere (Core i7/i5 32 nm, Xeon 5600/E7)",
		.family = 6, .models = MODELS(m_wsm),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_NHM,
		.rec_size = PEBS_REC_SIZE_FMT1,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf, .ldlat_min = 3,
		.features = UF_NHM,
		.dsrc = PEBS_UDSRC_NHM, .events = EVENTS(ev_nhm),
		.notes = "as nhm",
	},
	{
		.name = "snb",
		.desc = "Sandy Bridge (2nd gen Core, Xeon E5 v1)",
		.family = 6, .models = MODELS(m_snb),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_NHM,
		.rec_size = PEBS_REC_SIZE_FMT1,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0x8,
		.store_counters = 0x8, .ldlat_min = 3,
		.features = UF_NHM | PEBS_UF_PSTORE | PEBS_UF_PDIR |
			    PEBS_UF_FULL_WIDTH,
		.dsrc = PEBS_UDSRC_SNB, .events = EVENTS(ev_snb),
		.notes = note_fw,
	},
	{
		.name = "ivb",
		.desc = "Ivy Bridge (3rd gen Core, Xeon E5 v2)",
		.family = 6, .models = MODELS(m_ivb),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_NHM,
		.rec_size = PEBS_REC_SIZE_FMT1,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0x8,
		.store_counters = 0x8, .ldlat_min = 3,
		.features = UF_NHM | PEBS_UF_PSTORE | PEBS_UF_PDIR |
			    PEBS_UF_FULL_WIDTH,
		.dsrc = PEBS_UDSRC_SNB, .events = EVENTS(ev_snb),
		.notes = note_fw,
	},
	{
		.name = "hsw",
		.desc = "Haswell (4th gen Core, Xeon E5 v3)",
		.family = 6, .models = MODELS(m_hsw),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_HSW,
		.rec_size = PEBS_REC_SIZE_FMT2,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_HSW,
		.dsrc = PEBS_UDSRC_SNB, .events = EVENTS(ev_hsw),
		.notes = note_fw,
	},
	{
		.name = "bdw",
		.desc = "Broadwell (5th gen Core, Xeon E5 v4, Xeon D)",
		.family = 6, .models = MODELS(m_bdw),
		.pmu_version = 3, .pebs_fmt = PEBS_FMT_HSW,
		.rec_size = PEBS_REC_SIZE_FMT2,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_HSW,
		.dsrc = PEBS_UDSRC_SNB, .events = EVENTS(ev_hsw),
		.notes = note_fw,
	},
	{
		.name = "skl",
		.desc = "Skylake client (6th-10th gen Core: SKL, KBL, CFL, "
			"CML)",
		.family = 6, .models = MODELS(m_skl),
		.pmu_version = 4, .pebs_fmt = PEBS_FMT_SKL,
		.rec_size = PEBS_REC_SIZE_FMT3,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_SKL,
		.dsrc = PEBS_UDSRC_SKL, .events = EVENTS(ev_skl),
		.notes = "8 GP counters per core with HT off; data source "
			 "8/9 = L4 (kernel skl patch, pmem=false)",
	},
	{
		.name = "skx",
		.desc = "Skylake server (Xeon Scalable 1st/2nd gen: SKX, "
			"CLX, CPX)",
		.family = 6, .models = MODELS(m_skx),
		.pmu_version = 4, .pebs_fmt = PEBS_FMT_SKL,
		.rec_size = PEBS_REC_SIZE_FMT3,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0xf, .ldlat_counters = 0xf,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_SKL,
		.dsrc = PEBS_UDSRC_SKX, .events = EVENTS(ev_skl),
		.notes = "8 GP counters per core with HT off; data source "
			 "8/9 = PMEM (kernel skl patch, pmem=true)",
	},
	{
		.name = "glm",
		.desc = "Goldmont (Apollo Lake, Denverton)",
		.family = 6, .models = MODELS(m_glm),
		.pmu_version = 4, .pebs_fmt = PEBS_FMT_SKL,
		.rec_size = PEBS_REC_SIZE_FMT3,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = 0x1, .store_counters = 0x1,
		.features = PEBS_UF_TRAP | PEBS_UF_EVENTING_IP |
			    PEBS_UF_TSC | PEBS_UF_DATALA | PEBS_UF_FULL_WIDTH |
			    PEBS_UF_PDIR,
		.dsrc = PEBS_UDSRC_NONE, .events = EVENTS(ev_glm),
		.notes = "data-source and latency fields reserved (SDM "
			 "18.7.1.1); no TSX, so the TSX field reads 0; "
			 "non-precise events may also use PEBS on PMC0",
	},
	{
		.name = "glp",
		.desc = "Goldmont Plus (Gemini Lake)",
		.family = 6, .models = MODELS(m_glp),
		.pmu_version = 4, .pebs_fmt = PEBS_FMT_SKL,
		.rec_size = PEBS_REC_SIZE_FMT3,
		.n_gp = 4, .gp_width = 48, .n_fixed = 3, .fixed_width = 48,
		.pebs_counters = GP(4) | FX(3), .store_counters = 0xf,
		.features = PEBS_UF_TRAP | PEBS_UF_EVENTING_IP |
			    PEBS_UF_TSC | PEBS_UF_DATALA | PEBS_UF_FULL_WIDTH |
			    PEBS_UF_PEBS_ALL | PEBS_UF_PDIR,
		.dsrc = PEBS_UDSRC_NONE, .events = EVENTS(ev_glp),
		.notes = "PEBS on fixed counters from core.c PMU_FL_PEBS_ALL "
			 "(pebs-facts.md lists PMC0-3 only); no data source "
			 "assumed as on GLM (no GLP SDM excerpt available)",
	},
	{
		.name = "icl",
		.desc = "Ice Lake client, Tiger Lake, Rocket Lake",
		.family = 6, .models = MODELS(m_icl),
		.pmu_version = 5, .pebs_fmt = PEBS_FMT_ICL, .rec_size = 0,
		.n_gp = 8, .gp_width = 48, .n_fixed = 4, .fixed_width = 48,
		.pebs_counters = GP(8) | FX(4), .ldlat_counters = 0xff,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_ICL,
		.dsrc = PEBS_UDSRC_SKL, .events = EVENTS(ev_icl),
		.notes = "fixed counter 3 = TOPDOWN.SLOTS; data source 8/9 "
			 "= L4 (kernel skl patch, pmem=false)",
	},
	{
		.name = "icx",
		.desc = "Ice Lake server (Xeon Scalable 3rd gen, Xeon D)",
		.family = 6, .models = MODELS(m_icx),
		.pmu_version = 5, .pebs_fmt = PEBS_FMT_ICL, .rec_size = 0,
		.n_gp = 8, .gp_width = 48, .n_fixed = 4, .fixed_width = 48,
		.pebs_counters = GP(8) | FX(4), .ldlat_counters = 0xff,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_ICL,
		.dsrc = PEBS_UDSRC_SKX, .events = EVENTS(ev_icl),
		.notes = "as icl; data source 8/9 = PMEM (kernel skl patch, "
			 "pmem=true for ICELAKE_X/D); the kernel sets "
			 "pebs_ept here but the record format stays 4",
	},
	{
		.name = "spr",
		.desc = "Sapphire Rapids, Emerald Rapids (Golden Cove / "
			"Raptor Cove server)",
		.family = 6, .models = MODELS(m_spr),
		.pmu_version = 5, .pebs_fmt = PEBS_FMT_ICL, .rec_size = 0,
		.n_gp = 8, .gp_width = 48, .n_fixed = 4, .fixed_width = 48,
		.pebs_counters = GP(8) | FX(4), .ldlat_counters = 0xfe,
		.store_counters = 0xf, .ldlat_min = 3,
		.features = UF_ICL | PEBS_UF_STLAT | PEBS_UF_BLOCK |
			    PEBS_UF_INS_LAT | PEBS_UF_LDLAT_AUX,
		.dsrc = PEBS_UDSRC_GLC, .events = EVENTS(ev_spr),
		.notes = "PEBS format 4, as SPR/EMR boot logs say (\"PEBS "
			 "fmt4+-baseline\"; ds.c's format 5 is later parts); "
			 "latency field split 15:0 instruction / 47:32 "
			 "cache latency (PMU_FL_INSTR_LATENCY); retire "
			 "latency (PERF_CAP timing info) not decoded",
	},
};

#define NPROFILES	N(profiles)

unsigned pebs_uarch_count(void)
{
	return NPROFILES;
}

const struct pebs_uarch *pebs_uarch_get(unsigned i)
{
	return i < NPROFILES ? &profiles[i] : NULL;
}

const struct pebs_uarch *pebs_uarch_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (unsigned i = 0; i < NPROFILES; i++)
		if (lib_strcasecmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

char *pebs_uarch_names(char *buf, size_t len)
{
	size_t at = 0;
	if (!len)
		return buf;
	buf[0] = 0;
	for (unsigned i = 0; i < NPROFILES; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				 profiles[i].name);
		if (n < 0 || (size_t)n >= len - at) {
			buf[at] = 0;	/* whole names only */
			break;
		}
		at += (size_t)n;
	}
	return buf;
}

const struct pebs_uarch *pebs_uarch_by_model(unsigned family, unsigned model)
{
	for (unsigned i = 0; i < NPROFILES; i++) {
		const struct pebs_uarch *u = &profiles[i];
		if (u->family != family)
			continue;
		for (unsigned j = 0; j < u->nmodels; j++)
			if (u->models[j] == model)
				return u;
	}
	return NULL;
}

void pebs_uarch_cpuid_fms(uint32_t eax, unsigned *family, unsigned *model,
			  unsigned *stepping)
{
	unsigned fam = (eax >> 8) & 0xf, mod = (eax >> 4) & 0xf;

	/* SDM Vol. 2A, CPUID: "display family/model" rules. */
	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		mod += ((eax >> 16) & 0xf) << 4;
	if (family)
		*family = fam;
	if (model)
		*model = mod;
	if (stepping)
		*stepping = eax & 0xf;
}

int pebs_uarch_detect(const char *vendor, unsigned family, unsigned model,
		      uint64_t perf_cap, int perf_cap_known,
		      const struct pebs_uarch **out, char *why, size_t whylen)
{
	const struct pebs_uarch *u;
	char dummy[1];

	if (!why || !whylen) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	why[0] = '\0';
	if (out)
		*out = NULL;
	if (!vendor || strcmp(vendor, "GenuineIntel") != 0) {
		snprintf(why, whylen, "vendor \"%s\" is not GenuineIntel",
			 vendor ? vendor : "");
		return -PEBS_E_UNSUPPORTED;
	}
	u = pebs_uarch_by_model(family, model);
	if (!u) {
		snprintf(why, whylen,
			 "no PEBS profile for family %u model 0x%02x",
			 family, model);
		return -PEBS_E_UNSUPPORTED;
	}
	if (out)
		*out = u;
	if (perf_cap_known) {
		unsigned fmt = (unsigned)(perf_cap >> 8) & 0xf;
		int baseline = (int)((perf_cap >> 14) & 1);
		int adaptive = (u->features & PEBS_UF_ADAPTIVE) != 0;

		if (fmt != u->pebs_fmt) {
			snprintf(why, whylen,
				 "model 0x%02x is %s (PEBS format %u) but "
				 "IA32_PERF_CAPABILITIES[11:8] says format %u",
				 model, u->name, u->pebs_fmt, fmt);
			return -PEBS_E_UNSUPPORTED;
		}
		if (baseline != adaptive) {
			snprintf(why, whylen,
				 "model 0x%02x is %s (adaptive PEBS %s) but "
				 "IA32_PERF_CAPABILITIES[14] is %d",
				 model, u->name, adaptive ? "yes" : "no",
				 baseline);
			return -PEBS_E_UNSUPPORTED;
		}
	}
	return 0;
}

const struct pebs_uarch_event *
pebs_uarch_event_by_name(const struct pebs_uarch *u, const char *name)
{
	if (!u || !name)
		return NULL;
	for (unsigned i = 0; i < u->nevents; i++)
		if (lib_strcasecmp(u->events[i].name, name) == 0)
			return &u->events[i];
	return NULL;
}

const struct pebs_uarch_event *
pebs_uarch_event_by_code(const struct pebs_uarch *u, unsigned event,
			 unsigned umask)
{
	if (!u)
		return NULL;
	for (unsigned i = 0; i < u->nevents; i++)
		if (u->events[i].event == event &&
		    u->events[i].umask == umask)
			return &u->events[i];
	return NULL;
}

/*
 * Constraints the kernel gives a whole event select, every umask
 * (INTEL_FLAGS_EVENT_CONSTRAINT, INTEL_EVENT_CONSTRAINT), a range of them
 * (INTEL_EVENT_CONSTRAINT_RANGE) or an event/umask pair the tables above
 * do not list (INTEL_UEVENT_CONSTRAINT), for raw and libpfm4 events and
 * the umasks the tables leave out.  First match wins, as in the kernel's
 * for_each_event_constraint(), so exceptions come before their range and
 * ds.c's PEBS entries before core.c's: a PEBS event takes ds.c's
 * constraint when it has one, core.c's main table only when it has none
 * and the part does PEBS on every counter (PMU_FL_PEBS_ALL).  Profiles
 * without that flag need no main-table entry: core.c's table never
 * places a PEBS event there.  Their ds.c tables end in a catch-all
 * (INTEL_ALL_EVENT_CONSTRAINT(0, 0xf) on snb to skx, 0x1 on glm) or, on
 * core2, nhm and wsm, list every event the kernel samples, on the
 * profile's PEBS counters alike.
 * glp is PEBS_ALL, but its main table (intel_slm_event_constraints)
 * holds fixed counters only.  @uarch is a blank-separated list.
 */
static const struct {
	const char *uarch;
	uint8_t event, event_last;	/* event_last 0: event alone */
	int16_t umask;		/* -1: every umask */
	uint64_t counters;
} code_constraints[] = {
	/* ds.c intel_glc_pebs_event_constraints: INST_RETIRED.* */
	{ "spr", 0xc0, 0, -1, 0xfe },
	/* The old INST_RETIRED.PREC_DIST encoding 0x01C0 goes to fixed
	 * counter 0 only (ds.c intel_icl_pebs_event_constraints), like
	 * the new 0x0100: not to a general-purpose counter. */
	{ "icl icx", 0xc0, 0, 0x01, F0 },
	/* TOPDOWN.SLOTS, pseudo-encoding 0x0400: fixed counter 3 only
	 * (ds.c intel_icl_pebs_event_constraints, intel_glc_...). */
	{ "icl icx spr", 0x00, 0, 0x04, PEBS_UARCH_FIXED(3) },
	/* core.c intel_icl_event_constraints, in its order (icx uses the
	 * same table); ds.c's icl table lists only the memory events
	 * 0xCD/0xD0-0xD4 besides the fixed-counter encodings above. */
	{ "icl icx", 0x03, 0x0a, -1, 0xf },
	{ "icl icx", 0x1f, 0x28, -1, 0xf },
	{ "icl icx", 0x32, 0, -1, 0xf },	/* SW_PREFETCH_ACCESS.* */
	{ "icl icx", 0x48, 0x54, -1, 0xf },
	{ "icl icx", 0x60, 0x8b, -1, 0xf },
	{ "icl icx", 0xa3, 0, 0x04, 0xff },	/* CYCLE_ACTIVITY.STALLS_TOTAL */
	{ "icl icx", 0xa3, 0, 0x10, 0xff },	/* .CYCLES_MEM_ANY */
	{ "icl icx", 0xa3, 0, 0x14, 0xff },	/* .STALLS_MEM_ANY */
	{ "icl icx", 0xa3, 0, -1, 0xf },	/* CYCLE_ACTIVITY.* */
	{ "icl icx", 0xa8, 0xb0, -1, 0xf },
	{ "icl icx", 0xb7, 0xbd, -1, 0xf },
	{ "icl icx", 0xd0, 0xe6, -1, 0xf },
	{ "icl icx", 0xef, 0, -1, 0xf },
	{ "icl icx", 0xf0, 0xf4, -1, 0xf },
	/* core.c intel_spr_event_constraints (intel_glc_... in later
	 * kernels), in its order: "Generally event codes < 0x90 are
	 * restricted to counters 0-3", 0x2E and 0x3C excepted; of the
	 * codes from 0x90 on ("likely to have no restrictions") the
	 * listed ones.  ds.c's SPR PEBS table leaves every event it does
	 * not list to this main table (PMU_FL_PEBS_ALL), and the
	 * load-latency event's auxiliary event 0x8203 is one of them. */
	{ "spr", 0x2e, 0, -1, 0xff },
	{ "spr", 0x3c, 0, -1, 0xff },
	{ "spr", 0x01, 0x8f, -1, 0xf },
	{ "spr", 0xa3, 0, 0x01, 0xf },
	{ "spr", 0xa3, 0, 0x02, 0xf },
	{ "spr", 0xa3, 0, 0x08, 0xf },
	{ "spr", 0xa4, 0, 0x04, 0x1 },
	{ "spr", 0xa4, 0, 0x08, 0x1 },
	{ "spr", 0xcd, 0, 0x02, 0x1 },
	{ "spr", 0xce, 0, -1, 0x1 },
	{ "spr", 0xd0, 0xdf, -1, 0xf },
};

/* Whether blank-separated @list names profile @name (any case). */
static int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p; ) {
		size_t w = strcspn(p, " ");
		if (w == n && lib_strncasecmp(p, name, n) == 0)
			return 1;
		p += w;
		p += strspn(p, " ");
	}
	return 0;
}

uint64_t pebs_uarch_event_code_counters(const struct pebs_uarch *u,
					unsigned event, unsigned umask)
{
	if (!u)
		return ~0ull;
	for (unsigned i = 0; i < N(code_constraints); i++) {
		unsigned lo = code_constraints[i].event;
		unsigned hi = code_constraints[i].event_last ?
			      code_constraints[i].event_last : lo;
		if (event >= lo && event <= hi &&
		    (code_constraints[i].umask < 0 ||
		     (unsigned)code_constraints[i].umask == umask) &&
		    list_has(code_constraints[i].uarch, u->name))
			return code_constraints[i].counters;
	}
	return ~0ull;
}

const struct pebs_uarch_event *
pebs_uarch_event_by_kind(const struct pebs_uarch *u, enum pebs_uarch_kind k)
{
	if (!u)
		return NULL;
	for (unsigned i = 0; i < u->nevents; i++)
		if (u->events[i].kind == k)
			return &u->events[i];
	return NULL;
}

static const char *const kind_names[PEBS_EVK_COUNT] = {
	"other", "load-latency", "precise-store", "datala-store",
	"store-latency", "load", "frontend",
};

const char *pebs_uarch_kind_name(enum pebs_uarch_kind k)
{
	return (unsigned)k < PEBS_EVK_COUNT ? kind_names[k] : "?";
}

int pebs_uarch_kind_parse(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < PEBS_EVK_COUNT; i++)
		if (lib_strcasecmp(kind_names[i], name) == 0)
			return i;
	return -1;
}

static const char *const variant_names[PEBS_UDSRC_COUNT] = {
	"none", "nhm", "snb", "skl", "skx", "glc",
};

const char *pebs_udsrc_variant_name(enum pebs_udsrc_variant v)
{
	return (unsigned)v < PEBS_UDSRC_COUNT ? variant_names[v] : "?";
}

const char *pebs_uarch_counter_name(unsigned bit, char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	if (bit < 32)
		snprintf(buf, len, "PMC%u", bit);
	else if (bit < 64)
		snprintf(buf, len, "FIXED%u", bit - 32);
	else
		snprintf(buf, len, "?");
	return buf;
}

int pebs_uarch_counter_parse(const char *name)
{
	const char *p;
	unsigned long v;
	char *end;
	unsigned base;

	if (!name)
		return -1;
	if (lib_strncasecmp(name, "PMC", 3) == 0) {
		p = name + 3;
		base = 0;
	} else if (lib_strncasecmp(name, "FIXED_CTR", 9) == 0) {
		p = name + 9;
		base = 32;
	} else if (lib_strncasecmp(name, "FIXED", 5) == 0) {
		p = name + 5;
		base = 32;
	} else {
		return -1;
	}
	if (*p < '0' || *p > '9')
		return -1;
	v = strtoul(p, &end, 10);
	if (*end != '\0' || v >= 32)
		return -1;
	return (int)(base + v);
}
