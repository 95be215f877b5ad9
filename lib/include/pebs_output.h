/*
 * pebs_output.h - text renderings of sample batches: csv, yaml, jsonl, text;
 * and the YAML summary of pebs-decode --info.
 *
 * An output object streams: every pebs_output_batch() call writes its rows
 * at once (csv/jsonl/text through a large buffer flushed with fwrite), so
 * memory use does not grow with the input.  The library never prints
 * diagnostics: write failures return -PEBS_E_IO with errno kept from the
 * failing stdio call.
 */
#ifndef PEBS_OUTPUT_H
#define PEBS_OUTPUT_H

#include <stdio.h>
#include "pebs.h"
#include "pebs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Output formats (the contract's -f names, minus "pebs"). */
enum pebs_output_format {
	PEBS_OUT_CSV = 1,	/* RFC 4180, header line, LF line ends */
	PEBS_OUT_YAML,		/* one document: a sequence of mappings */
	PEBS_OUT_JSONL,		/* one JSON object per line */
	PEBS_OUT_TEXT,		/* aligned table, fixed column widths */
};

/* pebs_output_open() flags. */
#define PEBS_OUT_NO_HEADER 0x1u	/* csv/text: no header line */

/*
 * Returns the enum pebs_output_format named @name ("csv", "yaml", "jsonl",
 * "text"), or -1 when @name is none of them ("pebs" included).
 */
int pebs_output_format_parse(const char *name);

struct pebs_output;

/*
 * Where the field list @fields[0..@nfields) cannot be written in format
 * @fmt because a field repeats: yaml and jsonl name every value by its
 * field, and YAML requires unique mapping keys (JSON parsers disagree on
 * duplicates), so there a repeat is refused; csv and text allow repeats.
 * Returns the index of the first field that repeats an earlier one, or -1
 * when the list is fine for @fmt (any format but yaml or jsonl).
 */
long pebs_output_find_repeat(int fmt, const int *fields, size_t nfields);

/*
 * Creates an output of format @fmt writing the fields @fields[0..@nfields)
 * (ids of pebs_field.h: stored columns and derived fields; repeats allowed
 * in csv and text, see pebs_output_find_repeat()) to @fp, which stays
 * owned by the caller.  Nothing is written yet: the csv/text header and
 * the yaml document start come with the first batch, or at
 * pebs_output_close() when there was none.  Returns the object, or NULL
 * when @fmt or a field id is invalid, @nfields is 0, a field repeats in
 * yaml or jsonl, or memory is short.
 */
struct pebs_output *pebs_output_open(int fmt, const int *fields,
				     size_t nfields, unsigned flags,
				     FILE *fp);

struct pebs_sym;

/*
 * Gives @o the symbolizer that resolves its symbol fields (sym, dso,
 * srcline, data_sym; pebs_sym.h) from the next batch on; NULL (the
 * default) makes them read "[unknown]".  @s stays owned by the caller and
 * must outlive its use by @o.  Setting another symbolizer forgets the
 * strings rendered from the old one; to swap in a new symbolizer at the
 * address of a closed one, set NULL first.
 */
void pebs_output_set_sym(struct pebs_output *o, struct pebs_sym *s);

/*
 * Writes every sample of @b; the text is handed to @fp's stdio buffer
 * before it returns.  Fields whose columns @b does not hold are read from
 * its zero-filled arrays (so they print 0).  Returns 0, or
 * -PEBS_E_IO when a write failed (errno is kept), -PEBS_E_NOMEM.  After an
 * error every later call returns the same error.
 */
int pebs_output_batch(struct pebs_output *o, const struct pebs_batch *b);

/*
 * Finishes the output (header if no batch came, yaml document end), flushes
 * the internal buffer (not @fp itself: the caller checks and closes it) and
 * frees @o.  Returns 0 or the first error of the object's life.  NULL is
 * fine.
 */
int pebs_output_close(struct pebs_output *o);

/* ------------------------------------------------------------ --info */

/*
 * Per-input accumulator for the --info summary: event counts (in order of
 * first appearance) and the time range of the samples it was given.
 */
struct pebs_summary;

/* Allocates an empty summary, or NULL. */
struct pebs_summary *pebs_summary_new(void);
/* Frees @s.  NULL is fine. */
void pebs_summary_free(struct pebs_summary *s);
/*
 * Counts the samples of @b by event name and widens the time range.  Only
 * the time and event columns are read.  Returns 0 or -PEBS_E_NOMEM.
 */
int pebs_summary_add(struct pebs_summary *s, const struct pebs_batch *b);
/*
 * Notes the clock of the segment whose batches follow (its time.unit and
 * tsc.hz in @meta): when segments of one input have different clocks,
 * their times do not make one range in seconds, and the summary says the
 * unit is mixed instead of giving seconds.  Returns 0 or -PEBS_E_NOMEM.
 */
int pebs_summary_clock(struct pebs_summary *s, const struct pebs_meta *meta);

/*
 * Writes one YAML document ("---" first) describing input @file: its
 * metadata @meta, nested by the dots of the keys (see pebs-decode(1)), and
 * a summary from @s and the reader statistics @st (samples, blocks,
 * segments, lost, unattributed records when @st->raw, damaged blocks,
 * bytes, bytes per sample, time range with
 * seconds when the metadata gives the unit and frequency, events with
 * counts).  @meta may be NULL.  Returns 0, -PEBS_E_IO on a write error or
 * -PEBS_E_NOMEM.
 */
int pebs_output_info(FILE *fp, const char *file, const struct pebs_meta *meta,
		     const struct pebs_summary *s,
		     const struct pebs_read_stats *st);

#ifdef __cplusplus
}
#endif

#endif
