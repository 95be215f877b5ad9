/*
 * util_progress.h - the progress line of the tools that read or write
 * many samples: on a terminal only, after the first second of work, at
 * most twice a second, "\rTOOL: 12.3M samples, 1.1 of 4.0 GB (27%), 3 s"
 * (no percentage for pipes; "12.3M of 40.0M samples (31%)" for a known
 * number of samples to write), cleared at the end.
 */
#ifndef PEBS_CMD_UTIL_PROGRESS_H
#define PEBS_CMD_UTIL_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pebs_format.h"

struct util_progress {
	int on;			/* stderr is a terminal */
	double t0, after, last;	/* start, first line, last line (s) */
	uint64_t total;		/* bytes of the regular input files */
	int total_known;	/* every input is a regular file */
	uint64_t want;		/* samples to write, when known (pebs-gen) */
};

/*
 * Starts for reading @paths[0..@n) (n == 0 or "-": standard input).
 * @out is what the tool writes while it reads (NULL: it writes only at
 * the end); when that is a terminal too, the line would garble it, so
 * there is none.  PEBS_PROGRESS_AFTER=SECONDS changes the 1-second delay
 * (the tests use 0); PEBS_PROGRESS=0 turns the line off.
 */
void util_progress_start(struct util_progress *p, const char *const *paths,
			 size_t n, FILE *out);

/*
 * util_progress_start() without its refusal of a terminal on standard
 * input, for the tools that read other things than .pebs (pebs-import)
 * or nothing (pebs-gen: @n 0, and set @p->want).
 */
void util_progress_init(struct util_progress *p, const char *const *paths,
			size_t n, FILE *out);

/*
 * Whether a progress line goes to standard error: it is a terminal (not
 * TERM=dumb, which cannot erase one), PEBS_PROGRESS is not 0, and @out
 * (what the tool writes meanwhile, NULL for nothing) is not a terminal
 * too.  For pebs-capture, whose library calls back with its totals.
 */
int util_progress_wanted(FILE *out);

/*
 * Shows @line as the progress line: rewritten in place, cut to the
 * terminal's width (a wrapped line could not be rewritten), erased by
 * util_progress_clear() and before any message.
 */
void util_progress_print(const char *line);

/* Erases a line shown (util_progress_shown), as util_progress_end(). */
void util_progress_clear(void);

/* After each batch of @r: updates the line when it is due. */
void util_progress_tick(struct util_progress *p,
			const struct pebs_reader *r);

/*
 * Updates the line when it is due, from the totals so far: @samples, and
 * @bytes of the inputs read (UINT64_MAX: not known, not shown).
 */
void util_progress_at(struct util_progress *p, uint64_t samples,
		      uint64_t bytes);

/* Clears the line, if one was shown. */
void util_progress_end(struct util_progress *p);

#endif
