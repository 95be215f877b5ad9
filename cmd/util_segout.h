/*
 * util_segout.h - a .pebs output of one segment per input segment, as
 * pebs-decode -f pebs and pebs-filter write it: each with its input
 * segment's metadata and, unless that has one, time.origin = the input
 * segment's start (pebs_reader_segment_start()), so that a time since the
 * start (pebs-filter's `t`) stays what it was for every sample, however
 * many samples are left out or how the blocks are cut anew.
 */
#ifndef PEBS_CMD_UTIL_SEGOUT_H
#define PEBS_CMD_UTIL_SEGOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pebs_format.h"

struct util_segout_lost {
	uint32_t cpu;
	uint64_t time, count;
};

struct util_segout {
	FILE *fp;
	const char *path;	/* -o FILE, for messages (NULL: stdout) */
	struct pebs_writer_opts wo;
	/* adds the tool's own keys to a segment's metadata (may be NULL) */
	int (*decorate)(void *ctx, struct pebs_meta *m);
	void *ctx;
	struct pebs_writer *w;	/* the segment being written, or NULL */
	int started;		/* a segment was started (maybe waiting) */
	uint32_t src, seg;	/* the input segment it comes from */
	/*
	 * A segment started before its start was known (its input's LOST
	 * chunks before the first block): its metadata and lost records,
	 * held until a batch of samples says where `t` counts from.
	 */
	struct pebs_meta *held;
	struct util_segout_lost *lost;
	size_t nlost, lostcap;
};

/* An output to @fp (@path for messages) written with @wo (NULL: defaults). */
void util_segout_init(struct util_segout *so, FILE *fp, const char *path,
		      const struct pebs_writer_opts *wo);

/*
 * Called before writing anything of batch @b (samples or a lost record)
 * of the input segment with metadata @m, read by @r (NULL: raw dumps,
 * whose segments are the originals: no time.origin): a batch of another
 * input segment than the last ends the segment being written and starts
 * one.  Exits 3 on an error.
 */
void util_segout_next(struct util_segout *so, const struct pebs_reader *r,
		      const struct pebs_meta *m, const struct pebs_batch *b);

/* The writer of the segment, for samples (opened if it waited). */
struct pebs_writer *util_segout_writer(struct util_segout *so);

/* A lost-sample record, written or held with its segment. */
void util_segout_lost(struct util_segout *so, uint32_t cpu, uint64_t time,
		      uint64_t count);

/*
 * When no segment was started, starts one of metadata @m, for an output
 * without samples (a valid, empty file).
 */
void util_segout_empty(struct util_segout *so, const struct pebs_meta *m);

/*
 * The input stalls (pebs_reader_opts.idle): the samples pending go out
 * as a block, and the stream is flushed (util_idle_out()), so that a
 * reader downstream has them now.  Exits as util_idle_out() does.
 */
void util_segout_idle(struct util_segout *so);

/* Ends the output.  Exits 3 on an error. */
void util_segout_close(struct util_segout *so);

#endif
