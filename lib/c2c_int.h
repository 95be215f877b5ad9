/*
 * c2c_int.h - internals shared by the c2c_*.c files of libpebs (not public).
 *
 * Layout (see c2c.c): the samples that load or store at an address (line
 * samples) are kept, unaggregated, as 32-byte cells ("cells": a sample, or
 * an aggregate with a count from a merged result) with the data source
 * and the thread replaced by indices into small dictionaries, partitioned
 * as they come into buckets by a hash of their line; the other samples
 * are only counted, per data source.  pebs_c2c_finish() finds the lines
 * bucket by bucket (each in cache) and builds full results only for the
 * lines that can be listed (any HITM, or all with show_all); the rest are
 * only counted.
 */
#ifndef PEBS_C2C_INT_H
#define PEBS_C2C_INT_H

#include <stdarg.h>
#include "bigmem.h"
#include "cpulist.h"
#include "radix.h"
#include "pebs_c2c.h"

#define C2C_MAX_LINE 256u	/* verdict byte masks are sized for this */
#define C2C_MASK_WORDS (C2C_MAX_LINE / 64u)

/* Classes that make a line shared in perf 6.1's table: HITM or peer. */
#define C2C_SHARED_CLS (PEBS_C2C_LCL_HITM | PEBS_C2C_RMT_HITM | PEBS_C2C_PEER)

/* One exact aggregate: every sample with this key, counted. */
struct c2c_cell {
	uint64_t addr, ip, dsrc;
	uint32_t pid, tid, cpu, lat;
	uint64_t count;
};

/*
 * A sample outside lines (neither load nor store) with an address and a
 * LOCK or BLK bit: perf files every sample under the line of its address,
 * so it counts on that line's own counters (nr_entries, locks, blk_*,
 * noparse: line_xs()) and in "Locked/Blocked Access on shared lines" when
 * that line is shared.  Only these are kept with their address; nothing
 * else of a line (its loads, stores, offsets, threads, verdict) reads
 * samples that are not loads or stores.
 */
struct c2c_xs {
	uint64_t addr, count;
	uint32_t kind;
};

/* A line sample as kept (kind and thr: dictionary indices). */
struct c2c_ls {
	uint64_t addr, ip;
	uint32_t thr, cpu, lat, kind;
};

/* Cells c->ls[at .. at + cap) of one bucket; next: chunk index + 1. */
struct c2c_chunk {
	uint32_t at, cap, next;
};

/*
 * A bucket's chunks: first and last (chunk index + 1, 0 none), the cells
 * in all, and where the next cell goes in c->ls and where the last chunk
 * ends (so that adding a cell reads no chunk).
 */
struct c2c_bucket {
	uint32_t first, last, n, pos, end;
};

/*
 * 256 buckets: adding a cell writes to one of that many streams, which
 * stay in cache.  With 2,048, adding was 25% slower on 1M samples and
 * 40% on 10M; finish() reads larger buckets now, 18% slower on 10M, but
 * add and finish together take 10% less (bench/RESULTS.md).
 */
#define C2C_BUCKET_BITS 8

struct c2c_topo {
	int *node;		/* node of cpu i, -1 unknown */
	size_t ncpu;
	char **cpulist;		/* per node, as read (for YAML) */
	size_t nnodes;
};

/* A small open-addressing map u64 key -> dense index (dictionaries). */
struct c2c_dict {
	uint64_t *keys;		/* dense: index -> key */
	size_t n, cap;
	uint32_t *slot;		/* index + 1, 0 empty */
	size_t nslot;		/* power of two */
	uint64_t last_key;	/* one-entry cache */
	uint32_t last_idx;
	int have_last;
};

/*
 * A sample of a listed-candidate line, gathered contiguously per line at
 * finish() so that every per-line pass reads memory in order.
 */
struct c2c_rec {
	uint64_t ip;
	uint32_t thr;		/* thread dictionary index */
	uint32_t cpu, lat, kind;
	uint16_t off;		/* byte offset in the line */
	uint16_t cls;		/* PEBS_C2C_* class bits */
	uint64_t count;
};

/* Internal line record: the public part plus where its samples are. */
struct c2c_line_int {
	struct pebs_c2c_line pub;
	size_t first, n;	/* range in c->recs */
	char *why, *evidence, *fix;
	int listed;
};

struct pebs_c2c {
	struct pebs_c2c_opts o;
	unsigned line_shift;	/* log2(line_size) */
	/* the line samples, by bucket */
	struct c2c_ls *ls;
	uint64_t *cnt;		/* count per cell; NULL while all are 1 */
	size_t nls, capls;	/* cells handed to chunks, and room */
	size_t ncells;		/* line samples kept */
	struct c2c_chunk *chunks;
	size_t nchunks, capchunks;
	struct c2c_bucket *bk;	/* 1 << C2C_BUCKET_BITS */
	uint64_t *zero;		/* nzero zeros: a batch's absent columns */
	size_t nzero;
	/* per data source (kinds index): class bits with an address, the
	 * samples outside lines by [2 * kind + has address], and the line
	 * samples */
	unsigned *kcls;
	uint64_t *other, *lkn;
	size_t nkinds, capk;	/* kinds with the above, and room */
	struct c2c_xs *xs;	/* see struct c2c_xs */
	size_t nxs, capxs;
	struct c2c_dict kinds;	/* data source values */
	struct c2c_dict threads;	/* pid << 32 | tid */
	struct c2c_topo topo;
	/* finish() results */
	int finished;
	struct c2c_rec *recs;	/* samples of result lines, by line */
	size_t nrecs;
	struct c2c_line_int *lines;	/* lines with results, in report
					 * order (a private mapping:
					 * lib_big_realloc()) */
	char **texts;		/* every line's why, evidence and fix, also
				 * here: LeakSanitizer finds them from a
				 * malloc'd array, not from the mapping */
	size_t ntexts, textcap;
	size_t nlines;
	size_t nlisted;		/* of them, listed (l->listed) */
	size_t nsampled;	/* distinct lines with samples */
	/* perf's "Global Shared Cache Line" table: the lines with a HITM
	 * or a peer hit, and their samples' counters */
	size_t nshared;
	struct pebs_c2c_stats shared;
	/* symbols */
	struct pebs_meta *maps;	/* maps.N.* of every input, renumbered */
	size_t nmaps;
	struct pebs_meta *mapset;	/* the maps (and ips) kept, for dedup */
	size_t nips;		/* workload.ips.* in maps: c2c_ip_add() */
	struct pebs_sym *sym;	/* borrowed; NULL: no symbols */
	struct pebs_c2c_stats totals;
	/* every sample added (merged counts included), and the latencies
	 * of the line samples times their counts: bounded so that no sum
	 * of the report can wrap (C2C_MAX_SAMPLES) */
	uint64_t nsum, latsum;
	char err[256];
};

/*
 * The most samples, merged counts included: 2^60, so that every sum of
 * counters in the report fits in 64 bits, even where one sample counts
 * in several counters of a sum (tot_loads adds 9 counters; a dsrc can
 * name several levels).  The latencies times counts of the line samples
 * must add up to at most 2^64-1, which bounds every cycle sum.
 */
#define C2C_MAX_SAMPLES ((uint64_t)1 << 60)

/* Formats an error message into c->err and returns -@code. */
int c2c_fail(struct pebs_c2c *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds @count samples with key @k (k->count ignored).  0 or <0 (as
 * c2c_append_cell()). */
int c2c_add_cell(struct pebs_c2c *c, const struct c2c_cell *k,
		 uint64_t count);

/*
 * Adds @count samples with dictionary indices @kind, @thr.  0, <0, or
 * -PEBS_E_RANGE when the samples would pass the bounds of c->nsum and
 * c->latsum (nothing added).
 */
int c2c_append_cell(struct pebs_c2c *c, uint64_t addr, uint64_t ip,
		    uint32_t kind, uint32_t thr, uint32_t cpu, uint32_t lat,
		    uint64_t count);

/*
 * Adds @count samples outside lines of data source index @kind, with an
 * address or not (@has_addr), as counts only (--merge's "other").  0 or
 * <0 (as c2c_append_cell()).
 */
int c2c_add_other(struct pebs_c2c *c, uint32_t kind, int has_addr,
		  uint64_t count);

/*
 * Keeps @count samples of data source index @kind at @addr as a struct
 * c2c_xs (already counted in c->other).  0 or -PEBS_E_NOMEM.
 */
int c2c_add_xs(struct pebs_c2c *c, uint64_t addr, uint32_t kind,
	       uint64_t count);

/* Dictionary index of data source @dsrc, classified when new; <0 NOMEM. */
long c2c_kind_get(struct pebs_c2c *c, uint64_t dsrc);

/* Count of cell @i. */
static inline uint64_t c2c_count(const struct pebs_c2c *c, size_t i)
{
	return c->cnt ? c->cnt[i] : 1;
}

/* Is a sample of data source class @cls at @addr a line sample? */
static inline int c2c_is_line(uint64_t addr, unsigned cls)
{
	return addr && (cls & (PEBS_C2C_LOAD | PEBS_C2C_STORE));
}

/* Runs the block given last with size_t @q each cell index of bucket @b,
 * in order. */
#define C2C_BUCKET_CELLS(c, b, q, ...) do { \
		const struct c2c_bucket *bk_ = &(c)->bk[b]; \
		for (uint32_t ch_ = bk_->first; ch_; \
		     ch_ = (c)->chunks[ch_ - 1].next) { \
			const struct c2c_chunk *k_ = &(c)->chunks[ch_ - 1]; \
			size_t m_ = ch_ == bk_->last ? bk_->pos - k_->at : \
				    k_->cap; \
			for (size_t j_ = 0; j_ < m_; j_++) { \
				size_t q = k_->at + j_; \
				__VA_ARGS__ \
			} \
		} \
	} while (0)

/* Frees the results of finish(). */
void c2c_free_results(struct pebs_c2c *c);

/* Records node @node's cpu list (first definition wins).  0 or <0. */
int c2c_topo_add(struct pebs_c2c *c, unsigned node, const char *list);

/* Node of @cpu, or -1. */
int c2c_node_of(const struct pebs_c2c *c, uint32_t cpu);


/* Dictionary: index of @key, added when new.  Index or -PEBS_E_NOMEM. */
long c2c_dict_get(struct c2c_dict *d, uint64_t key);
void c2c_dict_free(struct c2c_dict *d);

/* Process maps (c2c_sym.c): fields pid start end pgoff path build_id. */
#define C2C_MAP_FIELDS 6
int c2c_map_field(const char *name);
const char *c2c_map_field_name(int f);
/* Adds one map (values by field; NULL = absent), once.  0 or <0. */
int c2c_map_add(struct pebs_c2c *c, const char *const v[C2C_MAP_FIELDS]);

/*
 * The longest name of a built-in workload's instruction kept (bytes):
 * theirs are tens; a longer one in a capture is ignored, in a YAML
 * result refused.
 */
#define C2C_IP_NAME_MAX 4096

/*
 * Names instruction @ip of a built-in workload (workload.ips.*, what the
 * symbolizer reads) @name, unless @ip has a name already (the first
 * stays) or @name is empty or longer than C2C_IP_NAME_MAX (ignored, as
 * the symbolizer ignores an empty one).  0 or -PEBS_E_NOMEM.
 */
int c2c_ip_add(struct pebs_c2c *c, uint64_t ip, const char *name);

/* A named instruction: @name borrowed from c->maps. */
struct c2c_ip {
	uint64_t ip;
	const char *name;
};

/*
 * The named instructions, by ip, into *@out (malloc'd, to free; NULL
 * when none).  Count or -PEBS_E_NOMEM.
 */
long c2c_ip_list(const struct pebs_c2c *c, struct c2c_ip **out);

/*
 * Symbol of the instruction @ip of process @pid ("work+0x1a") into *@sym
 * and its source line ("prog.c:8", NULL without debug info) into *@src,
 * full length, to free.  Returns 1 when found, 0 when not, or
 * -PEBS_E_NOMEM (both NULL then): a report without the name would pass
 * for one whose instruction has no symbol.
 */
int c2c_sym_code(const struct pebs_c2c *c, uint32_t pid, uint64_t ip,
		 char **sym, char **src);
/*
 * Data symbol of line @l ("counter+0x8"), full length, into *@out, to
 * free.  Returns 1 when found, 0 when not, or -PEBS_E_NOMEM (*@out NULL
 * then).
 */
int c2c_sym_data(const struct pebs_c2c *c, const struct c2c_line_int *l,
		 char **out);

/* Writers (c2c_out.c, c2c_yaml.c, c2c_html.c). */
int c2c_write_text(struct pebs_c2c *c, FILE *fp);
int c2c_write_csv(struct pebs_c2c *c, FILE *fp);
int c2c_write_stats(struct pebs_c2c *c, FILE *fp, int csv);
int c2c_write_yaml(struct pebs_c2c *c, FILE *fp);
int c2c_write_html(struct pebs_c2c *c, FILE *fp);
/* The heat maps of the listed lines as one SVG document. */
int c2c_write_svg(struct pebs_c2c *c, FILE *fp);

/* Per-offset rows of a line, coalesced by c->o.coalesce. */
struct c2c_row {
	uint32_t offset;
	uint32_t pid, tid, cpu;	/* keys when coalesced by them */
	const char *dso;	/* key when coalesced by dso (owned by the
				 * symbolizer, or PEBS_SYM_UNKNOWN) */
	uint64_t ip;		/* key when coalesced by iaddr, else top ip */
	uint64_t loads, stores, lcl_hitm, rmt_hitm;
	uint64_t lat_sum, lat_n;	/* over loads */
	uint32_t nthreads, ncpus, nips;
	uint64_t ips[3];	/* most sampled instructions */
	uint32_t ip_pid;	/* a process that ran ips[0] (symbols) */
};

/* Builds the rows of line @l (malloc'd array in *@rows).  Count or <0. */
long c2c_line_rows(const struct pebs_c2c *c, const struct c2c_line_int *l,
		   struct c2c_row **rows);

/*
 * Heat map cells: per (thread, 8-byte word) loads and stores, for at most
 * max_rows of the line's threads.  When it has more, the rows are its
 * busiest: most HITM loads plus stores (the samples of the contention, on
 * both sides: a thread that only writes has no HITM of its own), then most
 * stores, then most loads, ties by (pid, tid); not its first threads by
 * (pid, tid), which may all be idle readers.
 */
struct c2c_heat {
	uint32_t nthreads, nwords;	/* rows drawn, words per row */
	uint32_t nall;			/* threads of the line */
	uint64_t *thread;	/* pid << 32 | tid of each row, sorted */
	uint64_t *loads, *stores;	/* [thread * nwords + word] */
	/* samples of the threads without a row */
	uint64_t left_hitm, left_stores, left_loads;
};
int c2c_line_heat(const struct pebs_c2c *c, const struct c2c_line_int *l,
		  uint32_t max_rows, struct c2c_heat *h);
void c2c_heat_free(struct c2c_heat *h);

/* "mean 1.5 p50 1 p99 3" of @n latencies, or "n/a" when @n is 0. */
const char *c2c_fmt_lat(char *buf, size_t len, double mean, uint32_t p50,
			uint32_t p99, uint64_t n);

/* Formats a double with @prec decimals, or "n/a" when @n is 0. */
const char *c2c_fmt_mean(char *buf, size_t len, double v, uint64_t n,
			 int prec);

#endif
