/*
 * util_evcheck.h - the warning of pebs-filter and pebs-hist --where when
 * an event name of the expression matches no event of an input
 * ("event == "load-latncy"" would otherwise just match nothing).
 */
#ifndef PEBS_CMD_UTIL_EVCHECK_H
#define PEBS_CMD_UTIL_EVCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "pebs_expr.h"
#include "pebs_format.h"

struct util_evcheck {
	const struct pebs_expr *e;	/* NULL: nothing to check */
	const char *what;		/* "expression", "--where" */
	int have;			/* an input is being collected */
	uint32_t source, segment;	/* ... and where it is */
	int unlisted;			/* a segment of it lists no events
					 * in its metadata */
	char **names;			/* its event names, each once */
	size_t n, cap;
	const char **warned;		/* names warned about (the
					 * expression's strings) */
	size_t nwarned;
};

/*
 * Starts checking @e (the messages say "@what: col N: ...").  An
 * expression without event names makes every other call a no-op.
 */
void util_evcheck_start(struct util_evcheck *c, const struct pebs_expr *e,
			const char *what);

/*
 * Takes in the event names of batch @b just read from @r (its segment's
 * metadata events.N.name and the batch's dictionary); a batch of another
 * input first checks the input before it, read to its end.
 */
void util_evcheck_batch(struct util_evcheck *c, struct pebs_reader *r,
			const struct pebs_batch *b);

/*
 * Checks the last input when @complete (it was read to its end: not when
 * --head stopped early) and frees what @c holds.
 */
void util_evcheck_end(struct util_evcheck *c, struct pebs_reader *r,
		      int complete);

/*
 * Puts `t` of @e on the clock of batch @b's segment, just read from @r
 * (pebs_expr_set_segment(): each segment has its own).  A segment that
 * cannot convert a unit of @e is a usage error (exit 2) naming the input,
 * the segment when it is not the input's first, and "@what: col N".
 */
void util_expr_segment(struct pebs_expr *e, struct pebs_reader *r,
		       const struct pebs_batch *b, const char *what);

#endif
