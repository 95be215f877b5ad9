/*
 * cache_model.h - internal: the cache/coherence model behind
 * pebs_workload.h (see lib/cache_model.c for the machine it models and the
 * latencies it uses).
 *
 * CPUs are numbered socket-major: cpu = socket * cores + core.
 */
#ifndef CACHE_MODEL_H
#define CACHE_MODEL_H

#include <stdint.h>

#include "pebs_sim.h"
#include "pebs_workload.h"

#define CACHE_MAX_SOCKETS 8u
#define CACHE_MAX_CPUS 64u	/* sharer masks are one u64 */

/*
 * Nanoseconds of a trace as core cycles of the simulated clock,
 * PEBS_SIM_TSC_HZ (the one constant: a nanosecond of trace is a
 * nanosecond of capture, tsc.hz and -d included); saturates at
 * UINT64_MAX.
 */
static inline uint64_t cache_ns_to_cycles(uint64_t ns)
{
	const uint64_t g = 1000000000u;
	uint64_t s = ns / g, hi;

	if (__builtin_mul_overflow(s, PEBS_SIM_TSC_HZ, &hi) ||
	    __builtin_add_overflow(hi, ns % g * PEBS_SIM_TSC_HZ / g, &hi))
		return UINT64_MAX;
	return hi;
}

struct cache_model;

/*
 * Creates a model of @sockets x @cores CPUs (both >= 1, product <=
 * CACHE_MAX_CPUS, sockets <= CACHE_MAX_SOCKETS).  @seed drives the
 * latency jitter only.  Returns 0 and *@cm, -PEBS_E_INVAL for a bad shape
 * or -PEBS_E_NOMEM.
 */
int cache_model_new(struct cache_model **cm, unsigned sockets,
		    unsigned cores, uint64_t seed);
/* Frees @cm.  NULL is fine. */
void cache_model_free(struct cache_model *cm);

/*
 * Runs access @a (kind, cpu < number of CPUs, cycle, addr, size, ip, flags
 * LOCKED) through the model and fills its outcome: src, lat (loads), flags
 * (STLB_MISS, SPLIT) and, for an ifetch, fe, fe_bubbles and fe_width.  The
 * model's state advances; accesses must come in nondecreasing cycle order.
 */
void cache_model_access(struct cache_model *cm, struct pebs_access *a);

/*
 * Homes the 4 KiB page of @addr on @socket, as if a CPU of that socket had
 * touched it first (no effect on a page already homed).  Returns 0 or
 * -PEBS_E_NOMEM.
 */
int cache_model_home(struct cache_model *cm, uint64_t addr, unsigned socket);

/*
 * Whether an allocation of the model's tables failed (the outcomes since
 * are unreliable): the caller reports -PEBS_E_NOMEM.
 */
int cache_model_failed(const struct cache_model *cm);

/* Socket of @cpu. */
unsigned cache_model_socket(const struct cache_model *cm, unsigned cpu);

/*
 * Nominal (jitter-free) load latency in cycles of outcome @src (0 for
 * PEBS_SRC_NONE and LFB, whose latency is the fill's remaining time).
 */
uint32_t cache_model_nominal_lat(unsigned src);

/* Short name of an outcome ("L1", "L3_HITM", ...) or "?". */
const char *cache_model_src_name(unsigned src);

#endif
