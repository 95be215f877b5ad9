/*
 * pebs_c2c.h - cache-to-cache (false/true sharing) analysis, the library
 * side of pebs-c2c.
 *
 * Samples are classified as `perf c2c` classifies them (c2c_decode_stats in
 * tools/perf/util/mem-events.c), with the one deviation documented in
 * pebs-c2c(1) (a remote access is counted in one source class only, as the
 * SDM's "the source that satisfied the load" says; perf_compat restores
 * perf's double count).  Every sample is kept (addr, ip, dsrc, pid, tid,
 * cpu, lat: about 32 bytes, data sources and threads as dictionary
 * indices), so every report - per line, per offset, the verdict - is
 * computed from them exactly, and a YAML result holds them all so that it
 * can be merged with others exactly.  pebs_c2c_finish() does the per-line
 * work only for lines that can be listed (with a HITM, or all with
 * show_all): on a million samples it is a few passes over the columns.
 *
 * The library never prints on its own; the writers print to the FILE the
 * caller gives.
 */
#ifndef PEBS_C2C_H
#define PEBS_C2C_H

#include <stdio.h>
#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ classification */

/*
 * perf's c2c_stats counters (same names and meaning), plus `nomap` left out
 * (libpebs has no maps) and `noparse` for op neither load nor store.
 */
struct pebs_c2c_stats {
	uint64_t nr_entries;	/* every sample */
	uint64_t locks;		/* LOCK LOCKED */
	uint64_t blk_data, blk_addr;
	uint64_t load, store;	/* all loads / stores, with address or not */
	uint64_t ld_noadrs, st_noadrs;
	uint64_t ld_uncache, ld_io, ld_fbhit, ld_l1hit, ld_l2hit, ld_llchit;
	uint64_t lcl_hitm, rmt_hitm, tot_hitm;
	uint64_t lcl_peer, rmt_peer, tot_peer;
	uint64_t rmt_hit, lcl_dram, rmt_dram;
	uint64_t ld_shared, ld_excl;
	uint64_t ld_miss;
	uint64_t st_uncache, st_l1hit, st_l1miss, st_na;
	uint64_t noparse;
};

/* Class bits returned by pebs_c2c_classify() (several may be set). */
#define PEBS_C2C_LOAD		0x0001u	/* a load with a data address */
#define PEBS_C2C_STORE		0x0002u	/* a store with a data address */
#define PEBS_C2C_LCL_HITM	0x0004u
#define PEBS_C2C_RMT_HITM	0x0008u
#define PEBS_C2C_NOADDR		0x0010u	/* load/store without address */
#define PEBS_C2C_NOPARSE	0x0020u	/* neither load nor store */
#define PEBS_C2C_PEER		0x0040u	/* a load from a peer (tot_peer) */
#define PEBS_C2C_LOCKBLK	0x0080u	/* locked or blocked (locks, blk_*) */

/*
 * Adds @count samples with data source @dsrc and data address @addr to
 * @st, as perf c2c_decode_stats does (see the header comment for the
 * deviation; @perf_compat != 0 counts exactly as perf).  Returns the
 * PEBS_C2C_* class bits of the sample.  Only whether @addr is zero
 * matters, and the counters grow linearly in @count.
 */
unsigned pebs_c2c_classify(struct pebs_c2c_stats *st, uint64_t dsrc,
			   uint64_t addr, uint64_t count, int perf_compat);

/* perf's derived totals. */
uint64_t pebs_c2c_llc_misses(const struct pebs_c2c_stats *st);
/* perf's "Total records": classified loads + classified stores. */
uint64_t pebs_c2c_tot_recs(const struct pebs_c2c_stats *st);
/* perf's "Total loads" (loads counted in a hit/miss source class). */
uint64_t pebs_c2c_tot_loads(const struct pebs_c2c_stats *st);

/* ------------------------------------------------------------ analysis */

enum pebs_c2c_display { PEBS_C2C_D_TOT = 0, PEBS_C2C_D_LCL, PEBS_C2C_D_RMT };

/* Coalescing keys of the per-offset rows (the offset is always a key). */
#define PEBS_C2C_BY_PID		0x1u
#define PEBS_C2C_BY_TID		0x2u
#define PEBS_C2C_BY_IADDR	0x4u
#define PEBS_C2C_BY_CPU		0x8u
#define PEBS_C2C_BY_DSO		0x10u	/* the object of the instruction */

enum pebs_c2c_verdict { PEBS_C2C_V_UNKNOWN = 0, PEBS_C2C_V_FALSE,
			PEBS_C2C_V_TRUE, PEBS_C2C_V_MIXED };

struct pebs_c2c_opts {
	unsigned line_size;	/* bytes, power of two 16..256; 0 = 64 */
	unsigned access_size;	/* bytes assumed per access; 0 = auto: per
				 * line, the alignment of its sampled
				 * offsets, at most 8 */
	unsigned coalesce;	/* PEBS_C2C_BY_*; 0 = IADDR */
	int display;		/* enum pebs_c2c_display */
	uint64_t min_hitm;	/* list lines with at least this many HITMs
				 * (of the display kind); 0 = 1 */
	size_t top;		/* list at most this many lines; 0 = all */
	int show_all;		/* list lines without HITM too */
	unsigned min_samples;	/* verdict needs this many; 0 = 10 */
	unsigned verdict_pct;	/* share deciding false/true; 0 = 80 */
	int perf_compat;	/* classify exactly as perf (see above) */
};

struct pebs_c2c;

/*
 * Creates an empty analysis with options @o (NULL = defaults; copied).
 * Returns 0 and *@c; -PEBS_E_INVAL for a bad option, with the reason in
 * @err (@errlen bytes; may be NULL), which starts with the pebs-c2c
 * option setting that field ("--line-size: 48 is not a power of two from
 * 16 to 256"); or -PEBS_E_NOMEM.
 */
int pebs_c2c_new(struct pebs_c2c **c, const struct pebs_c2c_opts *o,
		 char *err, size_t errlen);

/* Frees @c.  NULL is fine. */
void pebs_c2c_free(struct pebs_c2c *c);

/* Last error message of @c ("" if none). */
const char *pebs_c2c_errmsg(const struct pebs_c2c *c);

/*
 * Takes the CPU -> NUMA node map from @m's topology.node.N.cpus keys (perf
 * cpu lists "0-27,56-83").  Keys already known are kept (the first input
 * wins; a CPU listed under two nodes is PEBS_E_PARSE).  Returns 0 or a
 * negative error.
 */
int pebs_c2c_set_topology(struct pebs_c2c *c, const struct pebs_meta *m);

/*
 * Takes the process maps (maps.N.pid/start/end/pgoff/path/build_id) of @m
 * for symbols, and the instructions a built-in workload names
 * (workload.ips.N.ip/name); maps of several inputs are renumbered, a map
 * or instruction read twice is kept once.  The instructions are not kept
 * in a YAML result.  0 or -PEBS_E_NOMEM.
 */
int pebs_c2c_add_maps(struct pebs_c2c *c, const struct pebs_meta *m);

/*
 * The maps (and workload instructions) gathered from the inputs (and maps
 * from merged YAML results) as metadata for pebs_sym_open(), or NULL when
 * there are none.  Owned by @c.
 */
const struct pebs_meta *pebs_c2c_maps(const struct pebs_c2c *c);

struct pebs_sym;
/*
 * Symbolizes the written reports with @s (borrowed: it must stay open
 * until the last pebs_c2c_write(); NULL turns symbols off): per listed
 * line its data symbol, per per-offset row the symbol and source line of
 * its most sampled instruction.  Lookups add notes to @s (missing binary,
 * build-id mismatch) for the caller to print.
 */
void pebs_c2c_set_sym(struct pebs_c2c *c, struct pebs_sym *s);

/*
 * Adds one sample / every sample of @b.  0, -PEBS_E_NOMEM, or
 * -PEBS_E_RANGE (with a message) when, with what was added and merged
 * before, the samples number more than 2^60 or the latencies of their
 * line samples add up to more than 2^64-1: the sums of the report could
 * not hold them.
 */
int pebs_c2c_add_sample(struct pebs_c2c *c, const struct pebs_sample *s);
int pebs_c2c_add_batch(struct pebs_c2c *c, const struct pebs_batch *b);

/*
 * Adds a YAML result written by pebs_c2c_write(PEBS_C2C_F_YAML) (@len bytes
 * at @buf): its cells and topology, so that merging the results of parts
 * gives the result of the whole.  Returns 0, -PEBS_E_NOMEM, or
 * -PEBS_E_PARSE with a message (line number) for text that is not such a
 * result, or whose counts would pass the bounds of pebs_c2c_add_batch()
 * (samples or cycles); cells read before the error stay added.
 */
int pebs_c2c_merge_yaml(struct pebs_c2c *c, const void *buf, size_t len);

/*
 * pebs_c2c_merge_yaml() of the YAML read from @rd with @ctx (pebs.h) as
 * it is parsed, in memory of the cells merged, not of the input's length.
 * Also -PEBS_E_IO ("read error") when @rd failed; what was read before
 * stays added.
 */
int pebs_c2c_merge_yaml_read(struct pebs_c2c *c, pebs_read_fn rd, void *ctx);

/*
 * Computes the per-line results (classification, statistics, verdicts,
 * order).  Must be called after the last add and before the accessors and
 * writers below; calling it again after more adds recomputes.  Returns 0
 * or -PEBS_E_NOMEM.
 */
int pebs_c2c_finish(struct pebs_c2c *c);

/* One cache line's result. */
struct pebs_c2c_line {
	uint64_t addr;			/* line address */
	/* its loads and stores, and the samples neither load nor store
	 * with a LOCK or BLK bit at an address on it (as perf files them;
	 * they add to nr_entries, locks, blk_*, noparse only) */
	struct pebs_c2c_stats st;
	uint64_t hitm_cycles;		/* sum of HITM latencies (display) */
	uint64_t sort_hitm;		/* HITMs of the display kind */
	uint64_t nloads;		/* loads with a latency (all classes) */
	double lat_mean;		/* over those loads; 0 when none */
	uint32_t lat_p50, lat_p99;
	uint64_t nhitm;			/* lcl + rmt HITM loads */
	double hitm_mean;
	uint32_t hitm_p50, hitm_p99;
	double lcl_hitm_cyc, rmt_hitm_cyc, ld_cyc;	/* perf's means */
	uint32_t ncpus, nthreads, npids;
	int nnodes;			/* -1 when there is no topology */
	enum pebs_c2c_verdict verdict;
	/* Texts (owned by @c), "" for lines not listed (see _listed()): */
	const char *why;		/* verdict reason */
	const char *evidence;		/* "0x00-0x07 (written by tid 1)..." */
	const char *fix;		/* concrete change, "" when none */
};

/*
 * Number of lines with results, in report order (most costly first): the
 * lines with a HITM of any kind, or with show_all every line with samples.
 * Lines without HITM are only counted (pebs_c2c_nlines_sampled()), which
 * keeps finish() cheap on captures with millions of lines.
 */
size_t pebs_c2c_nlines(const struct pebs_c2c *c);
/* Number of distinct lines with samples (loads or stores with address). */
size_t pebs_c2c_nlines_sampled(const struct pebs_c2c *c);
/* Line @i in report order, or NULL.  Owned by @c. */
const struct pebs_c2c_line *pebs_c2c_line_at(const struct pebs_c2c *c,
					     size_t i);
/* Whether line @i passes the listing filters (min_hitm, show_all). */
int pebs_c2c_line_listed(const struct pebs_c2c *c, size_t i);
/* Global statistics over every sample. */
const struct pebs_c2c_stats *pebs_c2c_totals(const struct pebs_c2c *c);

/* Verdict names: "unknown", "false-sharing", "true-sharing", "mixed". */
const char *pebs_c2c_verdict_name(enum pebs_c2c_verdict v);

/* ------------------------------------------------------------- writers */

enum pebs_c2c_format { PEBS_C2C_F_TEXT = 0, PEBS_C2C_F_CSV, PEBS_C2C_F_YAML,
		       PEBS_C2C_F_HTML, PEBS_C2C_F_STATS_TEXT,
		       PEBS_C2C_F_STATS_CSV, PEBS_C2C_F_SVG };

/*
 * Writes the finished report to @fp in format @fmt.  Returns 0, or
 * -PEBS_E_IO when a write failed (errno kept), -PEBS_E_NOMEM when a part
 * of the report (a line's offset rows, heat map, a symbol name of
 * pebs_c2c_set_sym()) could not be built (what was written is
 * incomplete), -PEBS_E_INVAL before pebs_c2c_finish().
 */
int pebs_c2c_write(struct pebs_c2c *c, FILE *fp, enum pebs_c2c_format fmt);

#ifdef __cplusplus
}
#endif

#endif
