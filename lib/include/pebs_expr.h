/*
 * pebs_expr.h - sample filter expressions (pebs-filter).
 *
 * An expression is parsed once into a small program over the fields of
 * pebs_field.h and evaluated column-wise over a whole batch with selection
 * vectors.  The same program answers, from a block's per-column min/max,
 * whether none, some or all of the block's samples can match, so readers
 * can skip or copy blocks without decompressing them.
 *
 * Language (the pebs-filter(1) man page is the reference):
 *   expr   := or
 *   or     := and { ("or" | "||") and }
 *   and    := unary { ("and" | "&&") unary }
 *   unary  := ("not" | "!") unary | "(" expr ")" | class | compare
 *   compare:= value OP value | value ["not"] "in" set | value ["not"] "in"
 *             range | value ("~" | "!~") STRING   (glob, string fields)
 *   value  := FIELD | "line(" value ")" | "page(" value ")" | "t" | NUMBER
 *             | STRING | WORD
 *   set    := "(" item { "," item } ")"     item := value | range
 *   range  := NUMBER ".." NUMBER            (both ends included)
 *   class  := hitm | remote | dram | l1 | lfb | l2 | l3 | stlb_miss |
 *             locked | store | load | true | false
 * Numbers: decimal or 0x hex, optional k (1e3), M (1e6), G (1e9) suffix;
 * with `t`, optional time unit s, ms, us, ns and a fraction ("1.5s").
 * Strings: in double or single quotes, where a backslash escapes \\, \",
 * \', \*, \? or \[ (in a ~ pattern the last three are a literal wildcard,
 * elsewhere the character itself); any other escape is a parse error.
 */
#ifndef PEBS_EXPR_H
#define PEBS_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pebs_expr;

/* Where and why parsing failed. */
struct pebs_expr_error {
	size_t col;		/* 1-based column of the offending token (of
				 * the backslash, for a bad escape) */
	char msg[192];		/* e.g. unknown field "latt" (...) */
};

/*
 * Parses @text into *@out.  Returns 0, or -PEBS_E_PARSE with @err filled
 * (@err may be NULL), or -PEBS_E_NOMEM when an allocation failed (@err then
 * says "out of memory"; it is no fault of @text).  Free *@out with
 * pebs_expr_free().
 */
int pebs_expr_parse(const char *text, struct pebs_expr **out,
		    struct pebs_expr_error *err);

/* Frees @e.  NULL is fine. */
void pebs_expr_free(struct pebs_expr *e);

/* Mask of the columns (1 << PEBS_COL_*) evaluation reads. */
uint64_t pebs_expr_cols(const struct pebs_expr *e);

/*
 * Wraps the whole program in a "not" (pebs-filter --invert).  Returns 0,
 * -PEBS_E_NOMEM, or -PEBS_E_RANGE when @e already has as many nodes as an
 * expression may; @e is unchanged on failure.
 */
int pebs_expr_invert(struct pebs_expr *e);

/*
 * Non-zero when the expression uses `t`: the time since the start of the
 * sample's segment, on that segment's clock (pebs_expr_set_segment()).
 */
int pebs_expr_uses_t(const struct pebs_expr *e);

/*
 * Fixes the clock for `t`: @t0 is the start in the time column's unit; @ticks_per_sec is how many time units make a second (tsc.hz for
 * time.unit tsc, 1e9 for ns, 0 when unknown: then only unit-less `t`
 * constants are allowed, counted in raw time units).  Constants convert
 * exactly when @ticks_per_sec is an integer (a constant on a tick is that
 * tick), through a double otherwise.  Must be called before evaluating an
 * expression that uses `t` (else `t` leaves match nothing and block
 * analysis answers "some").  A later call replaces the clock (another
 * segment's); it must not run while another thread is in
 * pebs_expr_block().  Returns 0, -PEBS_E_PARSE with @err when a constant
 * has a unit that cannot be converted (the clock is then unchanged), or
 * -PEBS_E_NOMEM.
 */
int pebs_expr_set_clock(struct pebs_expr *e, uint64_t t0,
			double ticks_per_sec, struct pebs_expr_error *err);

/*
 * pebs_expr_set_clock() with the frequency from metadata @m: time.unit ns
 * gives 1e9, otherwise tsc.hz when present, else 0 (raw units only).  The
 * message of -PEBS_E_PARSE tells a tsc.hz that is missing from one that is
 * there but gives no frequency ("abc", "0").
 */
int pebs_expr_set_clock_meta(struct pebs_expr *e, uint64_t t0,
			     const struct pebs_meta *m,
			     struct pebs_expr_error *err);

/*
 * Several segments (inputs read as one, concatenated files): each has its
 * own clock, its metadata's time.unit and tsc.hz, and its own start: its
 * metadata's time.origin (a segment derived from another keeps that one's
 * start there), else the smallest time stamp of its first block; `t` of
 * a sample counts from its segment's start on its segment's clock.  Call
 * before evaluating each batch (cheap while @m stays the same) with @m
 * the metadata of the batch's segment, as pebs_reader_meta() gives it,
 * and @b the batch: without time.origin the segment's start is the one
 * pebs_expr_block_segment() recorded for @m, else the smallest time of
 * @b (then the segment's first batch).  Segments are told apart by their
 * metadata object, one per segment: each one pebs_meta_new() makes is a
 * segment of its own, even at the address of one freed before, so one
 * expression may serve reader after reader (each frees its metadata at
 * close); what @e keeps of a segment is its own, not a pointer into @m.
 * @m must not change while @e may see it: its start is read once, at
 * its first use (another start is another segment, so a new metadata
 * object).  Returns 0 (also when `t` is not used), or as
 * pebs_expr_set_clock_meta(): -PEBS_E_PARSE with @err when this segment
 * cannot convert a unit of the expression, or when its time.origin is not
 * a decimal integer of 64 bits ("metadata time.origin is malformed").
 */
int pebs_expr_set_segment(struct pebs_expr *e, const struct pebs_meta *m,
			  const struct pebs_batch *b,
			  struct pebs_expr_error *err);

/* Non-zero once pebs_expr_set_clock() succeeded (or `t` is unused). */
int pebs_expr_clock_ready(const struct pebs_expr *e);

/*
 * Evaluates @e on every sample of @b.  Writes the indices of matching
 * samples, ascending, into @sel (capacity b->n) and returns their count.
 * Columns outside pebs_expr_cols() are not read.  Not thread-safe for one
 * @e (it owns scratch buffers); returns (size_t)-1 only when memory
 * cannot be allocated: scratch, or a symbol's name (pebs_sym_str()),
 * never a filter on sym, srcline or data_sym that read [unknown] for it.
 */
size_t pebs_expr_eval(struct pebs_expr *e, const struct pebs_batch *b,
		      uint32_t *sel);

/* A string constant compared with `event` (pebs_expr_unmatched_events). */
struct pebs_expr_name {
	size_t col;		/* 1-based column of the constant in the text */
	const char *text;	/* the name (unescaped), or the ~ pattern */
};

/*
 * The string constants compared with `event` (==, !=, in, ~) that match
 * none of @names[0..@n), an input's event names (its metadata's
 * events.N.name and its blocks' dictionaries), by the rules of
 * evaluation: `event == "load-latency"` (or "precise-store", or perf's
 * "mem-loads", "mem-stores") also matches the event it stands for
 * (pebs_event_stands_for(): MEM_TRANS_RETIRED.LOAD_LATENCY,
 * "cpu/mem-loads,ldlat=30/P", r1cd...), and a ~ pattern also matches such
 * an event by its portable name; a name or pattern without modifiers (no
 * ':' or '/') also matches the stored names without theirs (a name in any
 * case): "X" matches "x:ldlat=64:pp" and "cpu/X,period=9/P".  Writes the first @cap of them into
 * @out in the order of the text (the strings live as long as @e) and
 * returns how many there are.  Reads only the program: safe to call
 * while another thread evaluates @e.
 */
size_t pebs_expr_unmatched_events(const struct pebs_expr *e,
				  const char *const *names, size_t n,
				  struct pebs_expr_name *out, size_t cap);

struct pebs_sym;

/*
 * Gives @e the symbolizer for its symbol-field leaves (sym, dso, srcline,
 * data_sym; see pebs_sym.h) from the next evaluation on; without one they
 * read "[unknown]".  @s stays owned by the caller and must outlive its use;
 * another symbolizer makes @e forget its cached matches (to reuse the
 * address of a closed one, set NULL first).  Symbol leaves compare a
 * string without the value's detail with its main part: `sym == "f"`
 * matches "f+0x1a", `dso == "libc.so.6"` a path ending in it,
 * `srcline == "a.c"` any line of a.c.
 */
void pebs_expr_set_sym(struct pebs_expr *e, struct pebs_sym *s);

/* Non-zero when @e has a symbol-field leaf (it then needs a symbolizer). */
int pebs_expr_uses_sym(const struct pebs_expr *e);

/* Block analysis answers. */
enum pebs_expr_match { PEBS_MATCH_NONE = 0, PEBS_MATCH_SOME = 1,
		       PEBS_MATCH_ALL = 2 };

/*
 * From the directory of a block alone (@info: per-column min/max and the
 * present mask), says whether no sample, possibly some, or certainly every
 * sample of the block matches; always "possibly some" while an
 * expression with `t` has no clock, so that the caller decodes the block
 * and sets the clock from its metadata (which may fail) before any block
 * is skipped, counted or copied whole.  Safe to call from any thread
 * concurrently with itself and with pebs_expr_eval() (it reads only
 * immutable state and the clock published by pebs_expr_set_clock()).
 */
enum pebs_expr_match pebs_expr_block(const struct pebs_expr *e,
				     const struct pebs_block_info *info);

/*
 * pebs_expr_block() for a reader's filter callback over inputs of several
 * segments: `t` is placed on the clock of the block's segment
 * (@info->meta, its time.unit and tsc.hz; NULL: pebs_expr_block()), from
 * that segment's start: its metadata's time.origin, else what the first
 * call for a segment records, @info->min[time] (callbacks come in input
 * order).  Segments are told apart as pebs_expr_set_segment() tells
 * them: by metadata object, also across readers that @e outlives.
 * "Possibly some" for a block whose segment cannot convert a
 * unit of the expression or has a malformed time.origin, so that
 * pebs_expr_set_segment() reports it on the block's batch.  Independent
 * of the clock set for evaluation: safe to call from the reader's thread
 * while another thread evaluates and calls pebs_expr_set_segment().
 */
enum pebs_expr_match pebs_expr_block_segment(struct pebs_expr *e,
					     const struct pebs_block_info *info);

/*
 * Makes @dst (reset first) hold the samples @sel[0..@n) of @src, in that
 * order: columns in mask @cols (0 = all) are copied, the others are zero;
 * the event dictionary is copied whole, so event ids keep their meaning.
 * dst->dirty becomes the columns copied (so @dst's dirty bits must be
 * right on entry: a column marked clean is taken to be zero).
 * Returns 0, -PEBS_E_RANGE when @n exceeds dst->cap, or -PEBS_E_NOMEM.
 */
int pebs_expr_select(struct pebs_batch *dst, const struct pebs_batch *src,
		     const uint32_t *sel, size_t n, uint64_t cols);

/*
 * Writes a readable form of the compiled program into @buf (for tests and
 * --explain); returns the length it needed.
 */
size_t pebs_expr_dump(const struct pebs_expr *e, char *buf, size_t len);

/*
 * The feature bits of a perf_mem_data_src value used by the data-source
 * classes (exposed for tests and other tools):
 * PEBS_DSF_* bits of pebs_expr_dsrc_class().
 */
#define PEBS_DSF_HITM		(1ull << 0)
#define PEBS_DSF_REMOTE		(1ull << 1)
#define PEBS_DSF_DRAM		(1ull << 2)
#define PEBS_DSF_L1		(1ull << 3)
#define PEBS_DSF_LFB		(1ull << 4)
#define PEBS_DSF_L2		(1ull << 5)
#define PEBS_DSF_L3		(1ull << 6)
#define PEBS_DSF_STLB_MISS	(1ull << 7)
#define PEBS_DSF_LOCKED		(1ull << 8)
#define PEBS_DSF_STORE		(1ull << 9)
#define PEBS_DSF_LOAD		(1ull << 10)

/*
 * Returns the PEBS_DSF_* classes @dsrc belongs to:
 *   hitm      snoop HITM bit set (mem_snoop & HITM)
 *   remote    mem_remote set, or mem_lvl REM_RAM1/2 or REM_CCE1/2
 *   dram      derived mem is LOCAL_RAM or REMOTE_RAM
 *   l1 lfb l2 l3  derived mem is exactly L1, LFB, L2, L3 (a hit there)
 *   stlb_miss mem_dtlb MISS bit set
 *   locked    mem_lock LOCKED bit set
 *   store     derived op is store;  load  derived op is load
 */
uint64_t pebs_expr_dsrc_class(uint64_t dsrc);

/*
 * Deterministic 1-in-@n sampling key of a sample (pebs-filter --sample):
 * non-zero when the sample with @time and @cpu is kept.  @n == 0 or 1
 * keeps everything.
 */
int pebs_expr_sample_keep(uint64_t time, uint32_t cpu, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
