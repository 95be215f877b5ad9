/*
 * pebs_gen.h - a deterministic generator of realistic memory samples, for
 * benchmarks, demos and tests when no capture is at hand.  It models one
 * multi-threaded process on a two-socket machine: a few thousand load/store
 * instructions with a skewed (Zipf-like) frequency, per-thread heap arenas,
 * a shared hot set of cache lines written by several threads (HITM), and a
 * latency/data-source mix of a server workload.  Not a simulator: the
 * numbers follow fixed proportions, documented in lib/gen.c.
 */
#ifndef PEBS_GEN_H
#define PEBS_GEN_H

#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pebs_gen;

struct pebs_gen_opts {
	uint64_t seed;		/* same seed, same samples */
	unsigned threads;	/* 0 = 16 */
	unsigned ips;		/* distinct instructions; 0 = 3000 */
	unsigned hot_lines;	/* contended lines; 0 = 32 */
};

/* Creates a generator; NULL on allocation failure. */
struct pebs_gen *pebs_gen_new(const struct pebs_gen_opts *opts);
/* Frees @g.  NULL is fine. */
void pebs_gen_free(struct pebs_gen *g);

/*
 * Fills @b (reset first) with @n samples (n <= b->cap); the event names are
 * "load-latency" and "precise-store".  Returns 0 or a negative error.
 */
int pebs_gen_batch(struct pebs_gen *g, struct pebs_batch *b, size_t n);

/*
 * Adds the metadata describing a generated stream (source: gen, the
 * options that decide the samples, gen.seed and gen.threads, cpu,
 * topology) to @m.  Returns 0 or -PEBS_E_NOMEM.
 */
int pebs_gen_meta(const struct pebs_gen *g, struct pebs_meta *m);

#ifdef __cplusplus
}
#endif

#endif
