/*
 * pebs_dsrc.h - the perf_mem_data_src bit layout (Linux
 * include/uapi/linux/perf_event.h) and the names derived from it.
 *
 * Samples store one u64 in this layout; op/mem/snoop/tlb/lock are derived
 * from it on output and never stored.  Microarchitecture-specific decoding
 * of raw PEBS data-source bits into this layout lives in pebs_uarch.h.
 */
#ifndef PEBS_DSRC_H
#define PEBS_DSRC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Field shifts. */
#define PEBS_DS_OP_SHIFT	0
#define PEBS_DS_LVL_SHIFT	5
#define PEBS_DS_SNOOP_SHIFT	19
#define PEBS_DS_LOCK_SHIFT	24
#define PEBS_DS_TLB_SHIFT	26
#define PEBS_DS_LVLNUM_SHIFT	33
#define PEBS_DS_REMOTE_SHIFT	37
#define PEBS_DS_SNOOPX_SHIFT	38
#define PEBS_DS_BLK_SHIFT	40
#define PEBS_DS_HOPS_SHIFT	43

/* mem_op (bits 0-4) */
#define PEBS_DS_OP_NA		0x01
#define PEBS_DS_OP_LOAD		0x02
#define PEBS_DS_OP_STORE	0x04
#define PEBS_DS_OP_PFETCH	0x08
#define PEBS_DS_OP_EXEC		0x10
/* mem_lvl (bits 5-18) */
#define PEBS_DS_LVL_NA		0x01
#define PEBS_DS_LVL_HIT		0x02
#define PEBS_DS_LVL_MISS	0x04
#define PEBS_DS_LVL_L1		0x08
#define PEBS_DS_LVL_LFB		0x10
#define PEBS_DS_LVL_L2		0x20
#define PEBS_DS_LVL_L3		0x40
#define PEBS_DS_LVL_LOC_RAM	0x80
#define PEBS_DS_LVL_REM_RAM1	0x100
#define PEBS_DS_LVL_REM_RAM2	0x200
#define PEBS_DS_LVL_REM_CCE1	0x400
#define PEBS_DS_LVL_REM_CCE2	0x800
#define PEBS_DS_LVL_IO		0x1000
#define PEBS_DS_LVL_UNC		0x2000
/* mem_snoop (bits 19-23) */
#define PEBS_DS_SNOOP_NA	0x01
#define PEBS_DS_SNOOP_NONE	0x02
#define PEBS_DS_SNOOP_HIT	0x04
#define PEBS_DS_SNOOP_MISS	0x08
#define PEBS_DS_SNOOP_HITM	0x10
/* mem_lock (bits 24-25) */
#define PEBS_DS_LOCK_NA		0x01
#define PEBS_DS_LOCK_LOCKED	0x02
/* mem_dtlb (bits 26-32) */
#define PEBS_DS_TLB_NA		0x01
#define PEBS_DS_TLB_HIT		0x02
#define PEBS_DS_TLB_MISS	0x04
#define PEBS_DS_TLB_L1		0x08
#define PEBS_DS_TLB_L2		0x10
#define PEBS_DS_TLB_WK		0x20
#define PEBS_DS_TLB_OS		0x40
/* mem_lvl_num (bits 33-36) */
#define PEBS_DS_LNUM_L1		0x01
#define PEBS_DS_LNUM_L2		0x02
#define PEBS_DS_LNUM_L3		0x03
#define PEBS_DS_LNUM_L4		0x04
#define PEBS_DS_LNUM_CXL	0x09
#define PEBS_DS_LNUM_IO		0x0a
#define PEBS_DS_LNUM_ANY_CACHE	0x0b
#define PEBS_DS_LNUM_LFB	0x0c
#define PEBS_DS_LNUM_RAM	0x0d
#define PEBS_DS_LNUM_PMEM	0x0e
#define PEBS_DS_LNUM_NA		0x0f
/* mem_snoopx (bits 38-39) */
#define PEBS_DS_SNOOPX_FWD	0x01
#define PEBS_DS_SNOOPX_PEER	0x02
/* mem_blk (bits 40-42) */
#define PEBS_DS_BLK_NA		0x01
#define PEBS_DS_BLK_DATA	0x02
#define PEBS_DS_BLK_ADDR	0x04

/* Field extraction. */
#define PEBS_DS_OP(d)		(((d) >> PEBS_DS_OP_SHIFT) & 0x1f)
#define PEBS_DS_LVL(d)		(((d) >> PEBS_DS_LVL_SHIFT) & 0x3fff)
#define PEBS_DS_SNOOP(d)	(((d) >> PEBS_DS_SNOOP_SHIFT) & 0x1f)
#define PEBS_DS_LOCK(d)		(((d) >> PEBS_DS_LOCK_SHIFT) & 0x3)
#define PEBS_DS_TLB(d)		(((d) >> PEBS_DS_TLB_SHIFT) & 0x7f)
#define PEBS_DS_LVLNUM(d)	(((d) >> PEBS_DS_LVLNUM_SHIFT) & 0xf)
#define PEBS_DS_REMOTE(d)	(((d) >> PEBS_DS_REMOTE_SHIFT) & 0x1)
#define PEBS_DS_SNOOPX(d)	(((d) >> PEBS_DS_SNOOPX_SHIFT) & 0x3)
#define PEBS_DS_BLK(d)		(((d) >> PEBS_DS_BLK_SHIFT) & 0x7)
#define PEBS_DS_HOPS(d)		(((d) >> PEBS_DS_HOPS_SHIFT) & 0x7)

/* Builds a data_src from its fields. */
uint64_t pebs_dsrc_make(unsigned op, unsigned lvl, unsigned snoop,
			unsigned lock, unsigned tlb, unsigned lvlnum,
			unsigned remote, unsigned snoopx);

/* The contract's derived names. */
enum pebs_op { PEBS_OP_NA, PEBS_OP_LOAD, PEBS_OP_STORE, PEBS_OP_PFETCH,
	       PEBS_OP_EXEC };
/*
 * Where the access was satisfied.  *_MISS: the hardware says only that the
 * named level missed (e.g. source encoding 0 "unknown L3 miss", or a
 * precise store that missed L1).
 */
enum pebs_mem { PEBS_MEM_NA, PEBS_MEM_L1, PEBS_MEM_LFB, PEBS_MEM_L2,
		PEBS_MEM_L3, PEBS_MEM_L4, PEBS_MEM_LOCAL_RAM,
		PEBS_MEM_REMOTE_RAM, PEBS_MEM_REMOTE_CACHE, PEBS_MEM_PMEM,
		PEBS_MEM_CXL, PEBS_MEM_IO, PEBS_MEM_UNCACHED, PEBS_MEM_L1_MISS,
		PEBS_MEM_L2_MISS, PEBS_MEM_L3_MISS, PEBS_MEM_COUNT };
enum pebs_snoop { PEBS_SNOOP_NA, PEBS_SNOOP_NONE, PEBS_SNOOP_HIT,
		  PEBS_SNOOP_MISS, PEBS_SNOOP_HITM, PEBS_SNOOP_FWD,
		  PEBS_SNOOP_COUNT };

/* Derived classification of @dsrc. */
enum pebs_op pebs_dsrc_op(uint64_t dsrc);
enum pebs_mem pebs_dsrc_mem(uint64_t dsrc);
enum pebs_snoop pebs_dsrc_snoop(uint64_t dsrc);
/* 1 when the access hit at its level (LVL HIT), 0 otherwise. */
int pebs_dsrc_hit(uint64_t dsrc);

/* Names: "load"/"store"/"na"...; "L1", "LOCAL_RAM"...; "hitm"... */
const char *pebs_dsrc_op_name(enum pebs_op op);
const char *pebs_dsrc_mem_name(enum pebs_mem mem);
const char *pebs_dsrc_snoop_name(enum pebs_snoop snoop);
/* "hit", "miss", "na" for the TLB; "locked", "na", "no" for the lock. */
const char *pebs_dsrc_tlb_name(uint64_t dsrc);
const char *pebs_dsrc_lock_name(uint64_t dsrc);

/* Parses a name back (case-insensitive).  Returns the enum or -1. */
int pebs_dsrc_mem_parse(const char *name);
int pebs_dsrc_snoop_parse(const char *name);
int pebs_dsrc_op_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif
