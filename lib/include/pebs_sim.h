/*
 * pebs_sim.h - a simulated PMU with PEBS, for every profile of
 * pebs_uarch.h.  It has the MSRs of the profile (one register file per
 * logical CPU), memory the simulated processor can address (for the DS
 * save area and PEBS buffer), and it retires a stream of memory accesses
 * (pebs_workload.h) through its counters, writing PEBS records in the
 * profile's exact byte layout.
 *
 * Behaviour (formats/capture.md section "Simulated PMU" is normative):
 * - MSRs the profile lacks, writes of reserved bits and writes of
 *   read-only MSRs fail as #GP would: -PEBS_E_INVAL, message "#GP: ...".
 * - Counters have the profile's width and count up; IA32_PMCx writes are
 *   32-bit sign-extended, IA32_A_PMCx (full-width profiles) take the whole
 *   width.  A counter counts when PERFEVTSELx.EN and GLOBAL_CTRL bit x are
 *   set and the event (event/umask decoded against the profile's events)
 *   matches the retired access; all accesses are user mode (USR).
 * - Wrapping to 0 sets GLOBAL_STATUS bit x.  A PEBS-enabled counter then
 *   gets a PEBS assist on that access: one record for all PEBS counters
 *   that overflowed together, its memory fields taken from the
 *   highest-priority (lowest-numbered) one (SDM: "the appropriate action
 *   will be taken for the highest priority performance counter"); their
 *   status bits are cleared and each is reloaded from its DS reset slot.
 * - The record goes at the DS PEBS index; when the index reaches the
 *   interrupt threshold GLOBAL_STATUS bit 62 is set and a PMI raised;
 *   when the next record would pass the absolute maximum nothing is
 *   written (the SDM's silent stop) and the loss is counted.
 * - Load latency: loads are tagged at random (1 in tag_rate, seeded); the
 *   load-latency event counts tagged loads with latency above
 *   MSR_PEBS_LD_LAT_THRESHOLD (and LL_EN_PMCx set where the profile has
 *   it); its records carry the last tagged load's address, latency and
 *   data source encoded for the profile (the inverse of pebs_udsrc_decode).
 * - Precise store (SNB/IVB): store status only on PMC3 with PS_EN; DataLA
 *   store status (bit 0 = L1 hit) on HSW and later; front-end events
 *   through MSR_PEBS_FRONTEND; Goldmont PEBS on PMC0 only, with
 *   non-precise events (cycles) recorded at the next retired access.
 * - Time: the TSC runs at PEBS_SIM_TSC_HZ and equals the core cycle count
 *   of the access stream.
 */
#ifndef PEBS_SIM_H
#define PEBS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_plan.h"
#include "pebs_uarch.h"
#include "pebs_workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Frequency of the simulated TSC (= core clock), ticks per second. */
#define PEBS_SIM_TSC_HZ		2000000000ull
/* Cycles from the threshold PMI being raised to the drain (the sim
 * backend's interrupt latency: 1 us at PEBS_SIM_TSC_HZ). */
#define PEBS_SIM_PMI_LATENCY	2000u
/* Default 1-in-N tagging of loads for the load-latency facility. */
#define PEBS_SIM_TAG_RATE	4u
/* Addresses of simulated memory start here (canonical, kernel half). */
#define PEBS_SIM_MEM_BASE	0xffffc90000000000ull
/* Most general-purpose counters a simulated CPU has. */
#define PEBS_SIM_MAX_GP		8u

/* Extra MSRs the simulator knows besides those of pebs_plan.h
 * (GLOBAL_OVF and PEBS_STATUS_DS_THRESH are there: plans write them). */
#define PEBS_MSR_FIXED_CTR(j)	(0x309u + (j))
#define PEBS_MSR_FIXED_CTRL	0x38Du
#define PEBS_MSR_GLOBAL_STATUS	0x38Eu
#define PEBS_MSR_GLOBAL_SET	0x391u	/* v4+: write 1 to set */
#define PEBS_MSR_PERF_CAP	0x345u
#define PEBS_MSR_MISC_ENABLE	0x1A0u
#define PEBS_MSR_DEBUGCTL	0x1D9u

struct pebs_sim_opts {
	const struct pebs_uarch *uarch;	/* required */
	unsigned ncpus;		/* logical CPUs, 1..PEBS_PLAN_MAX_CPUS */
	uint64_t seed;		/* tagging random numbers */
	unsigned tag_rate;	/* 1 in N loads tagged, 0 = the default */
};

/* Per-CPU counts of what happened. */
struct pebs_sim_stats {
	uint64_t retired;	/* accesses retired on this CPU */
	uint64_t tagged;	/* loads tagged for load latency */
	uint64_t assists;	/* PEBS assists (records attempted) */
	uint64_t records;	/* records written */
	uint64_t lost_records;	/* assists that found the buffer full */
	uint64_t lost_samples;	/* counter overflows in those assists */
	uint64_t pmis;		/* interrupts raised */
	uint64_t faults;	/* assists with an unmapped DS area */
};

struct pebs_sim;

/*
 * Creates a simulated PMU in its reset state (every counter and control
 * 0).  Returns 0 and *@s, or -PEBS_E_INVAL (no profile, bad CPU count, a
 * profile with more than PEBS_SIM_MAX_GP counters), -PEBS_E_NOMEM.
 */
int pebs_sim_new(struct pebs_sim **s, const struct pebs_sim_opts *o);
/* Frees @s and its memory.  NULL is fine. */
void pebs_sim_free(struct pebs_sim *s);
/* Message of the last failure ("" if none). */
const char *pebs_sim_errmsg(const struct pebs_sim *s);
/* The profile and CPU count. */
const struct pebs_uarch *pebs_sim_uarch(const struct pebs_sim *s);
unsigned pebs_sim_ncpus(const struct pebs_sim *s);

/*
 * RDMSR / WRMSR on CPU @cpu.  Returns 0, or -PEBS_E_INVAL as #GP (unknown
 * MSR, reserved bit, read-only MSR) or for a CPU out of range, with the
 * message in pebs_sim_errmsg().
 */
int pebs_sim_rdmsr(struct pebs_sim *s, unsigned cpu, uint32_t msr,
		   uint64_t *v);
int pebs_sim_wrmsr(struct pebs_sim *s, unsigned cpu, uint32_t msr,
		   uint64_t v);

/*
 * Allocates @size zeroed bytes of simulated memory (page aligned).
 * *@ptr is this process's pointer, *@addr the address the simulated
 * processor uses (for IA32_DS_AREA and the DS fields).  Freed with @s.
 * Returns 0 or -PEBS_E_NOMEM.
 */
int pebs_sim_alloc(struct pebs_sim *s, size_t size, void **ptr,
		   uint64_t *addr);

/*
 * Retires the @n accesses @a (nondecreasing cycles) on their CPUs.
 * Accesses on CPUs beyond the simulated ones are skipped.  Returns 0, or
 * -PEBS_E_NOMEM (the accesses before the failing one retired).
 */
int pebs_sim_retire(struct pebs_sim *s, const struct pebs_access *a,
		    size_t n);

/* Returns 1 and clears it when CPU @cpu has a PMI pending, else 0. */
int pebs_sim_pmi(struct pebs_sim *s, unsigned cpu);
/* Number of CPUs with a PMI pending (not cleared). */
unsigned pebs_sim_pmi_count(const struct pebs_sim *s);

/* Counts of CPU @cpu (zero when out of range). */
void pebs_sim_cpu_stats(const struct pebs_sim *s, unsigned cpu,
			struct pebs_sim_stats *st);

/*
 * Which process and thread the records at simulated address @addr were
 * written for: what an operating system knows about the task that ran
 * (adaptive records without the GPR group carry neither).  Sets *@pid and
 * *@tid to those of the record starting at @addr and returns the bytes of
 * the run of consecutive records (at most @len) written for the same pid
 * and tid; returns 0 (and zeros) when no record of the simulator starts
 * there.
 */
size_t pebs_sim_owner(const struct pebs_sim *s, uint64_t addr, size_t len,
		      uint32_t *pid, uint32_t *tid);

/*
 * Advances the clock to @cycle with nothing retired: time that passed
 * idle, e.g. up to the stop cycle of a capture that ended inside a gap
 * between accesses.  No effect when @cycle is not after the clock.
 */
void pebs_sim_idle(struct pebs_sim *s, uint64_t cycle);

/* Cycle (= TSC) of the last retired access, or of pebs_sim_idle() when
 * later. */
uint64_t pebs_sim_cycle(const struct pebs_sim *s);

/*
 * The raw data-source bits (record 0xA0, load-latency layout: 3:0 source,
 * 4 STLB miss, 5 lock) the profile variant @v encodes for a load that the
 * cache model satisfied at @src with access flags @flags (PEBS_ACC_*).
 * The inverse of pebs_udsrc_decode() for load-latency records.
 */
uint64_t pebs_sim_encode_dsrc(enum pebs_udsrc_variant v, unsigned src,
			      unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
