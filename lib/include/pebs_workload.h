/*
 * pebs_workload.h - what the simulated PMU observes: a time-ordered stream
 * of retired memory accesses (and front-end events), each with the outcome
 * a small cache/coherence model gave it.
 *
 * Sources of accesses: built-in scenarios (false-sharing, true-sharing,
 * streaming, pointer-chase, remote-numa, store-heavy, frontend), traces of
 * real programs recorded by libpebs-trace (compiler thread-sanitizer
 * instrumentation), and replays of traces in the documented text format
 * (formats/trace-format.md).  Every source goes through the same cache
 * model (per-core L1/L2, shared L3 per socket, several sockets, MESI-like
 * states), which fills in where each access was satisfied and its latency.
 * The simulated PMU (pebs_sim.h) turns the stream into counter events and
 * PEBS records, without knowing where it came from.
 */
#ifndef PEBS_WORKLOAD_H
#define PEBS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What was retired. */
enum pebs_acc_kind {
	PEBS_ACC_LOAD = 1,
	PEBS_ACC_STORE,
	PEBS_ACC_IFETCH,	/* a front-end event on instruction @ip */
};

/*
 * Where a load (or store) was satisfied: the cache model's outcome, in
 * microarchitecture-neutral terms.  The simulated PMU encodes it into the
 * profile's raw data-source bits.
 */
enum pebs_acc_src {
	PEBS_SRC_NONE = 0,	/* not applicable (ifetch) */
	PEBS_SRC_L1,		/* L1D hit */
	PEBS_SRC_LFB,		/* hit a pending fill (fill buffer) */
	PEBS_SRC_L2,
	PEBS_SRC_L3,		/* L3 hit, no snoop needed */
	PEBS_SRC_L3_SNOOP_HIT,	/* L3 hit, another core snooped, clean */
	PEBS_SRC_L3_HITM,	/* L3 hit, another core had it modified */
	PEBS_SRC_REMOTE_FWD,	/* other socket's cache forwarded it clean */
	PEBS_SRC_REMOTE_HITM,	/* other socket's cache had it modified */
	PEBS_SRC_LOCAL_DRAM,
	PEBS_SRC_REMOTE_DRAM,
	PEBS_SRC_IO,
	PEBS_SRC_UNCACHED,
	PEBS_SRC_COUNT
};

/* Access flags. */
#define PEBS_ACC_STLB_MISS	0x01u
#define PEBS_ACC_LOCKED		0x02u
#define PEBS_ACC_SPLIT		0x04u	/* crosses a cache line */

/* Front-end event bits of an ifetch (pebs_access.fe). */
#define PEBS_ACC_FE_DSB_MISS	0x01u
#define PEBS_ACC_FE_L1I_MISS	0x02u
#define PEBS_ACC_FE_L2_MISS	0x04u
#define PEBS_ACC_FE_ITLB_MISS	0x08u
#define PEBS_ACC_FE_STLB_MISS	0x10u

struct pebs_access {
	uint64_t cycle;		/* core cycles since the start, global order */
	uint32_t cpu, pid, tid;
	uint64_t ip, addr;
	uint8_t size;		/* bytes accessed (1-64) */
	uint8_t kind;		/* enum pebs_acc_kind */
	uint8_t src;		/* enum pebs_acc_src (loads, stores) */
	uint8_t flags;		/* PEBS_ACC_* */
	uint32_t lat;		/* load latency in core cycles; 0 for stores */
	uint32_t st_lat;	/* stores: cycles until the line is owned (the
				 * store latency SPR reports); 0 for loads */
	uint32_t fe;		/* PEBS_FE_* for ifetch */
	uint32_t fe_bubbles;	/* longest IDQ bubble run (cycles), ifetch */
	uint32_t fe_width;	/* bubble width (1-4), ifetch */
};

/* Machine shape of the cache model. */
struct pebs_workload_opts {
	uint64_t seed;		/* same seed, same stream */
	unsigned sockets;	/* 0 = 2 */
	unsigned cores;		/* per socket; 0 = 4 */
	unsigned threads;	/* scenario threads; 0 = scenario default
				 * (mixed: at most its default, 8) */
	uint64_t accesses;	/* stop after this many; 0 = scenario default */
};

struct pebs_workload;

/* Names of the built-in scenarios, NULL-terminated. */
const char *const *pebs_workload_names(void);
/* One line describing scenario @name, or NULL if unknown. */
const char *pebs_workload_describe(const char *name);

/*
 * Opens built-in scenario @name.  Returns 0 and *@w, -PEBS_E_INVAL for an
 * unknown name (see pebs_workload_names()) or too many threads (over 1024;
 * mixed: over 8), or another negative error.
 */
int pebs_workload_open(struct pebs_workload **w, const char *name,
		       const struct pebs_workload_opts *opts);

/*
 * Opens a recorded trace (libpebs-trace output or the text format of
 * formats/trace-format.md) at @path ("-" = standard input) and runs it
 * through the cache model.  Fails only when the file cannot be opened
 * (-PEBS_E_IO, errno kept); a malformed trace is reported by the first
 * pebs_workload_next(), with its line number in pebs_workload_errmsg().
 */
int pebs_workload_open_trace(struct pebs_workload **w, const char *path,
			     const struct pebs_workload_opts *opts);

/*
 * Fills up to @max accesses into @a, in nondecreasing cycle order.
 * Returns the count (> 0), 0 at the end, or a negative error (message in
 * pebs_workload_errmsg()).  -PEBS_E_AGAIN is no error of the trace: a
 * signal interrupted the wait for more of it (a pipe); nothing is lost,
 * and the next call goes on.
 */
long pebs_workload_next(struct pebs_workload *w, struct pebs_access *a,
			size_t max);

/* Detail of the last error ("" if none). */
const char *pebs_workload_errmsg(const struct pebs_workload *w);

/*
 * Adds the machine shape (topology.node.N.cpus, topology.nr_cpus) and the
 * workload's description to @m.  Returns 0, -PEBS_E_INVAL when @w or
 * @m is NULL, or -PEBS_E_NOMEM.
 */
int pebs_workload_meta(const struct pebs_workload *w, struct pebs_meta *m);

/* Closes @w.  NULL is fine. */
void pebs_workload_close(struct pebs_workload *w);

#ifdef __cplusplus
}
#endif

#endif
