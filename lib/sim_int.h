/*
 * sim_int.h - internals of the simulated PMU shared by sim.c and
 * sim_rec.c (not a public header).
 */
#ifndef PEBS_SIM_INT_H
#define PEBS_SIM_INT_H

#include <stdint.h>

#include "pebs_sim.h"

#define SIM_MAX_MEM	64

/* One counting general-purpose counter (derived from the registers). */
struct sim_ctr {
	uint8_t idx;		/* PMCx */
	uint8_t event, umask;
	uint8_t kind;		/* enum pebs_uarch_kind of the event */
	uint8_t pebs;		/* PEBS_EN_PMCx set and PEBS-capable */
	uint8_t ll_ok;		/* LL_EN_PMCx set (or not needed) */
	/* Events that depend on the access's kind and source only: bit
	 * (kind * 16 + src) of @tab says whether it counts (ev_count()
	 * precomputed per counter instead of matched per access). */
	uint8_t fast;
	uint64_t tab;
};

struct sim_cpu {
	uint64_t pmc[PEBS_SIM_MAX_GP], evtsel[PEBS_SIM_MAX_GP];
	uint64_t fixed[16], fixed_ctrl;
	uint64_t status, ctrl, pebs_en, data_cfg, ld_lat, fe, ds_area;
	uint64_t debugctl;
	uint64_t last_cycle;
	uint64_t rng;
	/* The last tagged load (load-latency facility). */
	uint64_t tl_addr;
	uint32_t tl_lat;
	uint8_t tl_src, tl_flags, tl_valid;
	int pmi;
	int dirty;		/* registers changed: recompute act[] */
	/* Translation cache: the DS area of ds_area, the region of the
	 * last record (simulated memory never moves). */
	uint64_t ds_for;
	uint8_t *ds_p;
	struct sim_mem *rec_reg;
	unsigned nact;
	struct sim_ctr act[PEBS_SIM_MAX_GP];
	struct pebs_sim_stats st;
};

/* Who a record was written for, kept beside each record start (8-byte
 * slot of its region): what the OS knows about the task that ran. */
struct sim_owner {
	uint32_t pid, tid;
	uint32_t size;		/* bytes of the record; 0: none here */
};

struct sim_mem {
	void *ptr;
	uint64_t addr;
	size_t size;
	struct sim_owner *own;	/* size / 8 slots, made on first record */
};

struct pebs_sim {
	const struct pebs_uarch *u;
	unsigned ncpus;
	unsigned tag_rate;
	uint64_t gp_mask, fx_mask;
	uint64_t cycle;
	struct sim_cpu *cpu;
	struct sim_mem mem[SIM_MAX_MEM];
	unsigned nmem;
	uint64_t mem_next;
	char err[256];
};

/* This process's pointer to @len bytes at simulated address @addr, or
 * NULL when they are not all inside one allocated region. */
uint8_t *sim_translate(const struct pebs_sim *s, uint64_t addr, size_t len);

/* The region holding simulated address @addr, or NULL. */
struct sim_mem *sim_region(const struct pebs_sim *s, uint64_t addr);

/* Bytes of the record an assist for counters @bits writes now. */
size_t sim_rec_size(const struct pebs_sim *s, const struct sim_cpu *c,
		    uint64_t bits);

/* Writes that record (@sz bytes) at @p. */
void sim_rec_write(const struct pebs_sim *s, const struct sim_cpu *c,
		   unsigned cpu, uint8_t *p, size_t sz, uint64_t bits,
		   uint64_t status, const struct sim_ctr *first,
		   const struct pebs_access *a);

#endif
