/*
 * util_input.h - the batch source of pebs-decode: .pebs files through
 * pebs_reader, or raw PEBS buffer dumps (--raw --uarch) through
 * pebs_raw_reader, with damage reported as warnings (the first
 * UTIL_INPUT_MAX_SHOWN of them) and skipped, and a progress line on a
 * terminal (util_progress.h).
 */
#ifndef PEBS_CMD_UTIL_INPUT_H
#define PEBS_CMD_UTIL_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pebs_format.h"
#include "pebs_uarch.h"
#include "util_progress.h"

#define UTIL_INPUT_MAX_SHOWN 20

struct util_input_opts {
	unsigned threads;
	int salvage;
	int raw;			/* raw dumps instead of .pebs */
	const char *uarch, *raw_event;	/* raw: their format and events */
	FILE *out;		/* the tool's output, for the progress line */
	int verify_all;		/* check every column (--info) */
	int lost_batches;	/* LOST chunks as empty batches, in order
				 * (pebs_reader_opts.lost_batches) */
	/* .pebs inputs: called when they stall (pebs_reader_opts.idle) */
	void (*idle)(void *ctx);
	void *idle_ctx;
};

struct util_input {
	struct pebs_reader *r;
	struct pebs_raw_reader *raw;	/* --raw instead of r */
	const char *const *paths;
	size_t npaths;
	int status;		/* worst exit status of the damage seen */
	int refused;		/* raw: an input that is no dump was met */
	size_t failed;		/* raw: inputs not taken (cannot be opened
				 * or read, or refused as no dump) */
	unsigned shown;
	struct util_progress pg;	/* .pebs inputs on a terminal */
};

/*
 * Opens @paths[0..@n) decoding the columns @cols (0 = all).  Exits 2 on a
 * bad --raw-event, 3 when reading cannot start.
 */
void util_input_open(struct util_input *in, const struct util_input_opts *o,
		     const char *const *paths, size_t n, uint64_t cols);

/* Next batch: 1, or 0 at the end.  Damage is reported and skipped. */
int util_input_next(struct util_input *in, struct pebs_batch **b);

/* Metadata of the segment of the last batch. */
const struct pebs_meta *util_input_meta(const struct util_input *in);

/* The input file batch @b came from ("-" for standard input). */
const char *util_input_file(const struct util_input *in,
			    const struct pebs_batch *b);

/*
 * With lost_batches, the lost-sample record the last batch (empty) stands
 * for: its count, CPU and time (pebs_reader_lost()); 0 for a batch of
 * samples.  Raw dumps have no such records (their collisions are counted
 * in the statistics): always 0.
 */
uint64_t util_input_lost(const struct util_input *in, uint32_t *cpu,
			 uint64_t *time);

/* Reader statistics (raw dumps: collisions count as lost samples). */
void util_input_stats(const struct util_input *in,
		      struct pebs_read_stats *st);

/*
 * Whether some input was read, as far as the reader has gone: the head of
 * a .pebs segment (its MAGIC), or for raw dumps, which have no head, a
 * byte, or no input that failed to open or read.  An output that shows
 * "no samples" (a csv header, an empty yaml sequence) is written only
 * then: for inputs none of which could be read, the messages are all.
 */
int util_input_readable(const struct util_input *in);

/*
 * The names of @paths[0..@n) joined with ", ": the name of the one dump
 * that raw inputs make together (formats/raw-records.md section 5).
 * @message: standard input as "standard input", as messages name it (else
 * "-", as --info's file: does).  Allocated; exits 3 when it cannot be.
 */
char *util_input_names(const char *const *paths, size_t n, int message);

/*
 * util_input_readable() for a reader opened by the tool itself (one that
 * needs reader options util_input does not pass, as pebs-filter's block
 * filter): whether @r has read the head of a .pebs segment.
 */
int util_reader_readable(const struct pebs_reader *r);

/* Closes @in and returns its exit status (0, 1 bad data, 3 I/O). */
int util_input_close(struct util_input *in);

#endif
