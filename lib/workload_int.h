/*
 * workload_int.h - internal: the pieces behind pebs_workload.h.
 *   workload.c       public API, the scheduler that interleaves threads,
 *                    trace replay, metadata
 *   workload_scen.c  the built-in scenarios
 *   trace.c          the trace text format reader
 *   cache_model.c    the cache/coherence model
 */
#ifndef WORKLOAD_INT_H
#define WORKLOAD_INT_H

#include <stdio.h>

#include "cache_model.h"
#include "pebs_workload.h"

/* One simulated thread of a scenario. */
struct wthread {
	uint64_t cycle;		/* when its next access issues */
	uint32_t tid, cpu;
	unsigned idx;		/* 0-based thread number */
	unsigned phase;		/* step within the current iteration */
	uint64_t iter;		/* iterations done */
	uint64_t rng;		/* splitmix64 state */
	uint64_t pos, aux;	/* scenario cursors */
	/* The scenario this thread runs: the workload's own, or one of
	 * its parts (a mixed workload). */
	const struct workload_scen *sc;
};

struct workload_ip {
	uint64_t ip;
	const char *name;
};

struct workload_scen {
	const char *name;
	const char *desc;
	unsigned threads;	/* default thread count */
	uint64_t accesses;	/* default length */
	unsigned issue;		/* cycles between a thread's accesses */
	unsigned mlp_shift;	/* a load stalls its thread lat >> mlp_shift */
	/* Optional: state set up before the capture (not emitted). */
	int (*init)(struct pebs_workload *w);
	/* Fills kind, ip, addr, size, flags of @t's next access. */
	void (*step)(struct pebs_workload *w, struct wthread *t,
		     struct pebs_access *a);
	const struct workload_ip *ips;	/* named instructions, {0} ends */
	/*
	 * A mixed workload has no step or ips of its own: thread i runs
	 * parts[i / 2 % nparts] (NULL-terminated), so that each part gets
	 * two threads, one on each socket.  Parts have no init.
	 */
	const struct workload_scen *const *parts;
};

/* Scenario table (workload_scen.c), NULL-terminated. */
extern const struct workload_scen *const workload_scens[];

struct wtrace;

struct pebs_workload {
	const struct workload_scen *sc;	/* NULL for a trace */
	unsigned sockets, cores, nthreads;
	uint64_t seed, limit, emitted;
	uint32_t pid;
	struct cache_model *cm;
	struct wthread *t;
	/* trace replay */
	struct wtrace *tr;
	char *path;
	uint64_t t0;		/* first timestamp */
	int have_t0;
	struct pebs_access pend;	/* second half of an atomic update */
	int have_pend;
	uint32_t *tids;		/* tid -> cpu, by order of first appearance */
	size_t ntids, tids_cap;
	int err;		/* sticky error, returned once n == 0 */
	int again;		/* a signal interrupted the trace's read after
				 * accesses that were returned: the next call
				 * says so (-PEBS_E_AGAIN), then goes on */
	char msg[256];
};

/* splitmix64 step. */
uint64_t workload_rand(uint64_t *s);

/* --------------------------------------------------------- trace reader */

/* One parsed access line. */
struct wtrace_rec {
	uint64_t time;
	uint32_t pid, tid;
	int32_t cpu;		/* -1: '-' (assign) */
	char op;		/* 'R', 'W' or 'U' */
	uint8_t size;
	uint64_t ip, addr;
	uint64_t line;		/* 1-based input line */
};

struct wtrace_map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	char *path;
	char bid[41];		/* from a build-id line, "" if none */
};

/*
 * Reads the header and the directives before the first access of @fp
 * (closed by wtrace_close() when @own).  Returns 0 and *@t, or a negative
 * error with the detail in @msg.
 */
int wtrace_open(struct wtrace **t, FILE *fp, int own, char *msg, size_t cap);
/* Next access: 1 and *@r, 0 at the end, or a negative error (@msg). */
int wtrace_next(struct wtrace *t, struct wtrace_rec *r, char *msg,
		size_t cap);
/* Whether times are cycles (else nanoseconds). */
int wtrace_cycles(const struct wtrace *t);
/* Process maps read so far. */
size_t wtrace_nmaps(const struct wtrace *t);
const struct wtrace_map *wtrace_map(const struct wtrace *t, size_t i);
/* The command recorded in the header ("" if none). */
const char *wtrace_command(const struct wtrace *t);
void wtrace_close(struct wtrace *t);

/*
 * pebs_workload_open_trace() on an open stream (used by the fuzz target);
 * @fp is closed by pebs_workload_close() when @own.
 */
int workload_open_trace_fp(struct pebs_workload **w, FILE *fp, int own,
			   const char *name,
			   const struct pebs_workload_opts *opts);

#endif
