/*
 * dsrc_int.h - the tlb and lock values of a data source as small numbers
 * (internal to lib/): pebs_expr's feature bits and pebs_hist's group keys
 * are these, and pebs_dsrc_tlb_name() / pebs_dsrc_lock_name() name them,
 * so the value mapping is written once.
 */
#ifndef PEBS_DSRC_INT_H
#define PEBS_DSRC_INT_H

#include <stdint.h>

enum lib_dsrc_tlb { LIB_DSRC_TLB_HIT, LIB_DSRC_TLB_MISS, LIB_DSRC_TLB_NA,
		    LIB_DSRC_TLB_COUNT };
enum lib_dsrc_lock { LIB_DSRC_LOCK_LOCKED, LIB_DSRC_LOCK_NA,
		     LIB_DSRC_LOCK_NO, LIB_DSRC_LOCK_COUNT };

/* "hit", "miss", "na" and "locked", "na", "no", in the enums' order. */
extern const char *const lib_dsrc_tlb_names[LIB_DSRC_TLB_COUNT];
extern const char *const lib_dsrc_lock_names[LIB_DSRC_LOCK_COUNT];

/* The tlb value of @dsrc: a miss (dtlb MISS) before a hit (HIT), else na. */
enum lib_dsrc_tlb lib_dsrc_tlb(uint64_t dsrc);
/* The lock value of @dsrc: LOCKED before NA, else no. */
enum lib_dsrc_lock lib_dsrc_lock(uint64_t dsrc);

#endif
