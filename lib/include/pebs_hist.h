/*
 * pebs_hist.h - exact histograms of a numeric sample field, grouped by any
 * field (pebs-hist).
 *
 * Every distinct value is counted exactly (a dense array for small values,
 * a hash for the rest), so counts, min, max, mean and nearest-rank
 * percentiles are exact, and bins of any shape are computed at output time
 * from the value counts.  The YAML output carries the value counts, so
 * histograms of parts merge into exactly the histogram of the whole.
 */
#ifndef PEBS_HIST_H
#define PEBS_HIST_H

#include <stdio.h>

#include "pebs.h"

/*
 * pebs_hist_stats.sum and pebs_hist_bin.hi are unsigned __int128: an exact
 * sum of up to 2^64 values below 2^64, and a bin bound that may be 2^64
 * itself, do not fit 64 bits, and two uint64_t halves would make every
 * caller do the carries.  GCC and Clang have the type on 64-bit targets,
 * which libpebs needs anyway (it uses the type throughout); __extension__
 * keeps -Wpedantic quiet about it, in C and in C++.
 */
#ifndef __SIZEOF_INT128__
#error "pebs_hist.h needs unsigned __int128: GCC or Clang, 64-bit target"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct pebs_hist;

/*
 * Creates a histogram of field @field (a numeric field id of pebs_field.h:
 * stored column, PEBS_F_LINE or PEBS_F_PAGE) grouped by field @by (any
 * field id, symbol fields included, or -1 for one group "all").  Group
 * names of events and symbol texts are valid UTF-8: each byte that is not
 * becomes U+FFFD (so YAML, which must be UTF-8, reads back into the same
 * groups).  Returns 0 and *@h, -PEBS_E_INVAL for a string @field or an
 * unknown id, or -PEBS_E_NOMEM.
 */
int pebs_hist_new(struct pebs_hist **h, int field, int by);

/* Frees @h.  NULL is fine. */
void pebs_hist_free(struct pebs_hist *h);

struct pebs_sym;

/*
 * Gives @h the symbolizer for grouping by a symbol field (sym, dso,
 * srcline, data_sym; pebs_sym.h) from the next pebs_hist_add() on;
 * without one every sample falls in group "[unknown]".  Groups are the
 * texts of pebs_sym_key(): by sym and data_sym the symbol name without its
 * offset.  @s stays owned by the caller and must outlive its use; to reuse
 * the address of a closed one, set NULL first.
 */
void pebs_hist_set_sym(struct pebs_hist *h, struct pebs_sym *s);

/* Mask of the columns pebs_hist_add() reads. */
uint64_t pebs_hist_cols(const struct pebs_hist *h);

/* The field and group-by ids given to pebs_hist_new(). */
int pebs_hist_field(const struct pebs_hist *h);
int pebs_hist_by(const struct pebs_hist *h);

/*
 * Counts every sample of @b.  Returns 0, -PEBS_E_NOMEM, or -PEBS_E_RANGE
 * (nothing counted) when the histogram would hold more than 2^64-1
 * samples: no count of it may wrap.
 */
int pebs_hist_add(struct pebs_hist *h, const struct pebs_batch *b);

/*
 * Records the filter the samples counted into @h passed (the --where
 * expression as the user gave it; NULL, the default: every sample).  The
 * histogram does not apply it (the caller selects the samples); the YAML
 * output writes it as key where, and merges refuse histograms of another
 * filter.  0 or -PEBS_E_NOMEM (the filter before kept).
 */
int pebs_hist_set_where(struct pebs_hist *h, const char *where);

/* The filter of pebs_hist_set_where(), or NULL. */
const char *pebs_hist_where(const struct pebs_hist *h);

/*
 * Adds every count of @src to @h, which then holds exactly the histogram
 * of both inputs (so threads can count apart and merge at the end).  Both
 * must have the same field, group-by and filter (pebs_hist_set_where():
 * the same text, or the same compiled expression, so "lat>100" is
 * "100 < lat"; else -PEBS_E_INVAL); groups are
 * matched by key, or by name for events and symbol texts.  Returns 0,
 * -PEBS_E_NOMEM, or -PEBS_E_RANGE (nothing added) when both hold more
 * than 2^64-1 samples together.
 */
int pebs_hist_merge(struct pebs_hist *h, const struct pebs_hist *src);

/*
 * Adds @count samples of value @value to group @group (its printed name:
 * "L3", "load-latency", "17", "0x4005d0"; "all" without grouping).
 * Returns 0, -PEBS_E_PARSE when @group is not a value of the group-by
 * field, -PEBS_E_RANGE (nothing added) when the histogram would hold more
 * than 2^64-1 samples, or -PEBS_E_NOMEM.
 */
int pebs_hist_add_value(struct pebs_hist *h, const char *group,
			uint64_t value, uint64_t count);

/*
 * Merges the histograms in YAML text @text (@len bytes, one or more
 * documents written by pebs_hist_write(PEBS_HIST_YAML)) into @h.  Their
 * field and group-by must be @h's, their version (pebs_hist) 1, and their
 * numbers decimal or 0x hex within 64 bits; every group has values, each
 * a value its field can hold with a count of at least 1; a group's count
 * may be absent, and when present must be the sum of its values' counts;
 * the counts must not take the samples of @h past 2^64-1 (-PEBS_E_PARSE,
 * the pair that would is not added).
 * Their field, group-by and filter (key where, as pebs_hist_merge()
 * compares them; absent, as in YAML written before the key existed: every
 * sample) must be @h's, else -PEBS_E_INVAL with a message in @err naming
 * both, as pebs_hist_merge(): counts of other samples, or grouped
 * otherwise, are no part of the histogram.  Returns 0 or -PEBS_E_PARSE
 * with a message in @err (naming the line where it can); -PEBS_E_NOMEM.
 * What was read before an error stays merged.
 */
int pebs_hist_merge_yaml(struct pebs_hist *h, const char *text, size_t len,
			 char *err, size_t errlen);

/*
 * pebs_hist_merge_yaml() of the YAML read from @rd with @ctx (pebs.h) as
 * it is parsed, in memory of the groups merged, not of the input's
 * length, however many documents it holds.  With *@hp NULL, first
 * creates there the histogram of the first document's head (as
 * pebs_hist_yaml_new(); *@hp stays NULL when that fails).  Returns 0, or
 * as pebs_hist_merge_yaml() with a message in @err, or -PEBS_E_IO when
 * @rd failed ("read error"; what was read before stays merged).
 */
int pebs_hist_merge_yaml_read(struct pebs_hist **hp, pebs_read_fn rd,
			      void *ctx, char *err, size_t errlen);

/*
 * Reads the field and group-by names of the first document of YAML @text
 * (so a merge can create the right histogram).  *@field and *@by get field
 * ids (*@by = -1 for none).  Returns 0 or -PEBS_E_PARSE with @err.
 */
int pebs_hist_yaml_peek(const char *text, size_t len, int *field, int *by,
			char *err, size_t errlen);

/*
 * Creates in *@hp the empty histogram of the field, group-by and filter
 * (key where) of the first document of YAML @text, to merge it and others
 * into with pebs_hist_merge_yaml().  Returns 0, or -PEBS_E_PARSE or
 * -PEBS_E_NOMEM with a message in @err (*@hp NULL).
 */
int pebs_hist_yaml_new(struct pebs_hist **hp, const char *text, size_t len,
		       char *err, size_t errlen);

/*
 * Latency fields (those in cycles: lat, ins_lat) hold 0 where nothing was
 * measured: PEBS fills them only for the events that measure them (load
 * latency, always above its threshold of at least 3; SPR stores; ...), and
 * stores on other parts, like every other event, carry 0 (perf shows that
 * weight as 0 too).  So by default their samples of value 0 are left out
 * of the histogram (counts, statistics, percentiles, bins) and counted
 * apart as "unmeasured"; pebs_hist_set_zeros(@h, 1) counts them as the
 * value 0 instead.  Either way they are counted as value 0 inside, so the
 * setting can change at any time, and merges stay exact.  Fields whose 0
 * is a value (addr, cpu, ...) are never affected.
 */
void pebs_hist_set_zeros(struct pebs_hist *h, int as_values);

/*
 * Samples in the histograms of all groups (unmeasured ones left out, see
 * pebs_hist_set_zeros()).
 */
uint64_t pebs_hist_total(const struct pebs_hist *h);
/* Unmeasured samples of all groups (0 when none are left out). */
uint64_t pebs_hist_unmeasured_total(const struct pebs_hist *h);
/*
 * Groups, those of only unmeasured samples included (they have a count
 * of 0 in pebs_hist_group_stats()).
 */
size_t pebs_hist_ngroups(const struct pebs_hist *h);

/* ------------------------------------------------------------ statistics */

/* Summary of group @g (0..ngroups-1, in output order). */
struct pebs_hist_stats {
	const char *group;	/* printed name; owned by the histogram */
	uint64_t count, min, max;
	__extension__ unsigned __int128 sum;	/* exact (see the top) */
	double mean;		/* sum / count rounded to a double: above
				 * 2^53 it is not exact (and may exceed max);
				 * pebs_hist_write() prints sum / count
				 * exactly instead */
};
/*
 * Fills @st for group @g (groups sorted by key): count, min, max, sum and
 * mean of the samples in the histogram (not the unmeasured ones; all 0
 * for a group of only those).  0, -PEBS_E_INVAL when @g is not below
 * pebs_hist_ngroups(), or -PEBS_E_NOMEM.
 */
int pebs_hist_group_stats(struct pebs_hist *h, size_t g,
			  struct pebs_hist_stats *st);

/*
 * Unmeasured samples of group @g (see pebs_hist_set_zeros()), or 0; also
 * 0 when memory is short, which pebs_hist_group_stats() of the same group
 * reports.
 */
uint64_t pebs_hist_unmeasured(struct pebs_hist *h, size_t g);

/* A percentile P = num / den (exactly, e.g. 99.9 = 999/10). */
struct pebs_hist_pct {
	uint64_t num, den;
	char name[24];		/* as written: "99.9" */
};

/*
 * Parses a comma-separated list of percentiles in [0, 100] ("50,90,99.9")
 * of at most 19 digits each (so that num and den are exact) into @p
 * (capacity @cap).  Returns the count, -PEBS_E_PARSE, -PEBS_E_RANGE when
 * the list holds more than @cap percentiles, or -PEBS_E_INVAL when a
 * percentile repeats (also written differently: 50 and 50.0).
 */
int pebs_hist_pct_parse(const char *list, struct pebs_hist_pct *p,
			size_t cap);

/*
 * Nearest-rank percentile of group @g: the smallest value v such that at
 * least ceil(P/100 * count) samples are <= v (rank at least 1).  Returns 0
 * with *@v, -PEBS_E_RANGE for an empty group, -PEBS_E_INVAL when @g is
 * not below pebs_hist_ngroups(), or -PEBS_E_NOMEM.
 */
int pebs_hist_percentile(struct pebs_hist *h, size_t g,
			 const struct pebs_hist_pct *p, uint64_t *v);

/* ------------------------------------------------------------------ bins */

enum pebs_hist_bin_kind { PEBS_BINS_LOG2, PEBS_BINS_LINEAR,
			  PEBS_BINS_EDGES };

#define PEBS_HIST_MAX_EDGES 1024

struct pebs_hist_bins {
	int kind;
	uint64_t width;		/* LINEAR */
	uint64_t edges[PEBS_HIST_MAX_EDGES];	/* EDGES, ascending */
	size_t nedges;
};

/*
 * Parses "log2", "linear:WIDTH" or "E0,E1,..." (strictly ascending; also
 * written "edges:E0,E1,...") into @b.  Numbers are written as in pebs-filter(1): decimal (a leading zero
 * is not octal) or 0x hex, with an optional suffix k or K (x1000), M
 * (x10^6) or G (x10^9).  Returns 0, -PEBS_E_RANGE when a number exceeds
 * 64 bits, -PEBS_E_UNSUPPORTED for more than PEBS_HIST_MAX_EDGES edges,
 * -PEBS_E_INVAL for well-formed numbers that make no bins (a WIDTH of 0,
 * or an edge not above the one before it: then @b->edges[@b->nedges] is
 * that edge, @b->edges[@b->nedges - 1] the one before), or -PEBS_E_PARSE.
 */
int pebs_hist_bins_parse(const char *spec, struct pebs_hist_bins *b);

/* One bin: [lo, hi), hi may be 2^64. */
struct pebs_hist_bin {
	uint64_t lo;
	__extension__ unsigned __int128 hi;	/* see the top */
	uint64_t count;
};

/*
 * Computes the bins of group @g into *@out (malloc'd, caller frees) and
 * their number *@n.  log2/linear: every bin from the one holding the
 * minimum to the one holding the maximum (linear spans of more than 10000
 * bins: the non-empty ones only); edges: every [e_i, e_i+1) plus the
 * under/overflow bins [0, e_0) and [e_last, 2^64) when not empty.
 * Returns 0, -PEBS_E_INVAL when @g is not below pebs_hist_ngroups(), or
 * -PEBS_E_NOMEM.
 */
int pebs_hist_bins_of(struct pebs_hist *h, size_t g,
		      const struct pebs_hist_bins *bins,
		      struct pebs_hist_bin **out, size_t *n);

/* ---------------------------------------------------------------- output */

enum pebs_hist_format { PEBS_HIST_TEXT = 1, PEBS_HIST_CSV, PEBS_HIST_YAML,
			PEBS_HIST_SVG };

/* "text", "csv", "yaml", "svg" to enum pebs_hist_format, else -1. */
int pebs_hist_format_parse(const char *name);

/*
 * Makes the text, csv and svg outputs of pebs_hist_write() list only the
 * @top groups with the most samples, most first (equal counts in the usual
 * order; svg draws at most ten either way); 0, the default, lists every
 * group in the usual order.  YAML always holds every group: it is what
 * pebs_hist_merge_yaml() combines exactly.
 */
void pebs_hist_set_top(struct pebs_hist *h, size_t top);

/*
 * Makes the text output of pebs_hist_write() draw its bar chart in ASCII
 * (@ascii 1: '#' per whole cell, '+' for a part of one) instead of
 * Unicode block elements (0, the default, in eighths of a cell), for a
 * terminal whose character set is not UTF-8.  The other formats and the
 * text's numbers and names are not affected.
 */
void pebs_hist_set_ascii(struct pebs_hist *h, int ascii);

/*
 * Writes @h to @fp in format @fmt with bins @bins (NULL: log2, as
 * pebs-hist's default) and percentiles @p[0..@np) (CSV: with @np > 0 the
 * percentile table replaces the bins; text, yaml: 50, 90, 99 when @np is
 * 0).  Returns 0, -PEBS_E_INVAL for a @fmt not of enum pebs_hist_format
 * (nothing written), -PEBS_E_IO on a write error (errno kept) or
 * -PEBS_E_NOMEM.
 */
int pebs_hist_write(struct pebs_hist *h, FILE *fp, int fmt,
		    const struct pebs_hist_bins *bins,
		    const struct pebs_hist_pct *p, size_t np);

#ifdef __cplusplus
}
#endif

#endif
