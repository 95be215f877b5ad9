/*
 * pebs_csvin.h - CSV to samples: the inverse of pebs-decode -f csv.
 *
 * Each input starts with a header line of field names (cli-contract.md),
 * any subset in any order; a repeated column must repeat its value.  The
 * derived names op, mem, snoop, tlb, lock (from dsrc) and line, page (from
 * addr) are accepted and ignored when their source column is present; when
 * it is absent, a source value that derives the same names is stored
 * instead, so a subset of fields read back prints the same text.  The
 * symbol names sym, dso, srcline and data_sym are ignored; comm goes to
 * pebs_csvin_set_comm()'s callback.  Any other name is an error.  Values
 * are decimal or 0x-hex numbers, the event column any string.  Columns a file lacks are 0 (the event "").  Quoting
 * follows RFC 4180 (libcsv, strict mode); lines may end in LF or CRLF;
 * spaces around unquoted fields are ignored; a UTF-8 byte order mark at the
 * start is skipped, also one split across pebs_csvin_feed() calls.  A row is at most PEBS_CSVIN_ROW_MAX bytes.
 */
#ifndef PEBS_CSVIN_H
#define PEBS_CSVIN_H

#include <stdio.h>
#include "pebs.h"
#include "pebs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The longest row, in bytes, from the line where it starts (line ends
 * inside quoted fields included, its own line end not).  It bounds the
 * memory a reader takes on input that is not CSV (a binary file with no
 * line end, /dev/zero), far above the longest row pebs-decode writes:
 * every field, with event names of up to 1024 bytes and symbol names
 * (mangled C++ names run to many KiB).
 */
#define PEBS_CSVIN_ROW_MAX (1u << 20)

/* Where samples go. */
struct pebs_csvin_sink {
	/* Returns the id to store in pebs_sample.event for @name, or < 0. */
	int (*event)(void *ctx, const char *name);
	/* Takes one sample; returns 0 or a negative error. */
	int (*sample)(void *ctx, const struct pebs_sample *s);
	void *ctx;
};

struct pebs_csvin;

/*
 * Creates a reader sending samples to @sink (copied).  Returns 0 and *@c,
 * or -PEBS_E_NOMEM.
 */
int pebs_csvin_open(struct pebs_csvin **c, const struct pebs_csvin_sink *sink);

/*
 * Takes the comm column (ignored by default, like the symbol columns):
 * @fn is called with the sink's ctx after its sample() for each row whose
 * comm holds a name (not "" or "[unknown]", what pebs-decode prints for a
 * thread without one), with the line where the row starts, the row's
 * sample (pid, tid) and that name; it returns 0 or a negative error, which
 * stops the input like bad text.  NULL ignores the column again.
 */
typedef int (*pebs_csvin_comm_fn)(void *ctx, uint64_t line,
				  const struct pebs_sample *s,
				  const char *name);
void pebs_csvin_set_comm(struct pebs_csvin *c, pebs_csvin_comm_fn fn);

/*
 * Whether the header of the input being read has a comm column: known
 * from its first event() or sample() call on (the header comes first), so
 * that a sink can decide there where that input's samples go.
 */
int pebs_csvin_has_comm(const struct pebs_csvin *c);

/*
 * pebs_csvin_open() with a sink that adds to writer @w (not owned).
 * Returns 0 and *@c, or -PEBS_E_NOMEM; the writer's errors come later,
 * from the feeding calls.
 */
int pebs_csvin_open_writer(struct pebs_csvin **c, struct pebs_writer *w);

/*
 * Parses the next @len bytes of the current input.  Returns 0, or a
 * negative error with a message in pebs_csvin_errmsg() such as
 * 'line 12: field "lat": not a number: "x"' (-PEBS_E_PARSE for bad text,
 * -PEBS_E_RANGE for a number too large for its field or a row over
 * PEBS_CSVIN_ROW_MAX, named by the line where the row starts,
 * -PEBS_E_FORMAT for a perf.data or .pebs file given as CSV, "line 1: a
 * perf.data file, not CSV": how the format was chosen is the caller's to
 * say; or the sink's error).
 * The rows before the error have gone to the sink.  After an error, the
 * rest of this input is ignored and the same error returned until
 * pebs_csvin_end().
 */
int pebs_csvin_feed(struct pebs_csvin *c, const void *buf, size_t len);

/*
 * Ends the current input (a last line without a line end is taken) and
 * makes the reader ready for another input with its own header.  Returns
 * 0 or the input's error (see pebs_csvin_feed); a quoted field still open
 * is -PEBS_E_PARSE, named by the line where its quote opened.  An empty
 * input is fine.
 */
int pebs_csvin_end(struct pebs_csvin *c);

/*
 * Feeds all of @fp and ends the input.  Returns 0, an error of
 * pebs_csvin_end(), or -PEBS_E_IO when reading failed (errno kept).
 */
int pebs_csvin_read(struct pebs_csvin *c, FILE *fp);

/* Message of the last error ("" if none); owned by @c. */
const char *pebs_csvin_errmsg(const struct pebs_csvin *c);

/* Samples passed to the sink so far, over all inputs. */
uint64_t pebs_csvin_samples(const struct pebs_csvin *c);

/*
 * Headers read whole and without error so far, over all inputs: an input
 * whose count it raised was CSV of samples, even when a later row was bad
 * (its error then names a line past the header), and one that failed
 * without raising it (a binary file, an unknown column) was none.
 */
uint64_t pebs_csvin_headers(const struct pebs_csvin *c);

/* Frees @c.  NULL is fine. */
void pebs_csvin_close(struct pebs_csvin *c);

#ifdef __cplusplus
}
#endif

#endif
