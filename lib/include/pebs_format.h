/*
 * pebs_format.h - the .pebs record format 1.2: block codec,
 * streaming writer, reader of pipes and files.  The format itself is
 * specified normatively in formats/pebs-format.md.
 */
#ifndef PEBS_FORMAT_H
#define PEBS_FORMAT_H

#include <stdio.h>
#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PEBS_FORMAT_VERSION 1

/* ---------------------------------------------------------- block codec */

/* What a block's directory tells without decompressing anything. */
struct pebs_block_info {
	uint64_t nsamples;
	uint64_t present;		/* bit per column id stored in the block */
	uint64_t min[PEBS_COL_COUNT];	/* per-column min (0 if absent) */
	uint64_t max[PEBS_COL_COUNT];	/* per-column max (0 if absent) */
	uint64_t bytes[PEBS_COL_COUNT];	/* stored data bytes per column */
	uint64_t offset;		/* of the block chunk in its source */
	uint64_t index;			/* block number in the whole input */
	size_t chunk_len;		/* bytes of the whole chunk */
	/*
	 * Metadata of the block's segment, for a reader's filter callback
	 * (pebs_reader_opts.filter): the same pointer pebs_reader_meta()
	 * gives with the segment's batches, one per segment while the
	 * reader is open.  NULL from pebs_block_info().
	 */
	const struct pebs_meta *meta;
};

/*
 * Encodes @b (n <= PEBS_BATCH_MAX) as one complete block chunk, compressed
 * with zstd @level (0 = the default, 1).  Thread-safe; the output depends
 * only on @b and @level.  On success *@out is a malloc'd buffer of *@len bytes
 * owned by the caller.  Returns 0, -PEBS_E_RANGE for a level outside
 * PEBS_LEVEL_MIN to PEBS_LEVEL_MAX (as pebs_writer_open()), -PEBS_E_INVAL
 * for a batch of no samples (a block holds 1 to 65,536: pebs-format.md,
 * section 6) or of more than PEBS_EVENT_NAMES_MAX event names, or another
 * negative error.
 */
int pebs_block_encode(const struct pebs_batch *b, int level, void **out,
		      size_t *len);

/*
 * Parses the directory of the block chunk @chunk (@len bytes, starting at
 * the chunk tag) into @info without decompressing.  Verifies, when @verify
 * is non-zero, what the directory depends on: the head checksum of a block
 * with a column checksum table (format 1.1), else the chunk checksum.
 * Returns 0 or a negative error, with a message in @err (@errlen bytes)
 * when non-NULL.
 */
int pebs_block_info(const void *chunk, size_t len, int verify,
		    struct pebs_block_info *info, char *err, size_t errlen);

/*
 * Decodes block chunk @chunk into @out (reset first).  Only the columns in
 * mask @cols are decompressed (0 = all); the others are zero.  What is used
 * is verified before it is trusted: with a column checksum table (format
 * 1.1) the block's head and each decoded column (key columns of KEYED ones
 * included), else the whole chunk; a mismatch is -PEBS_E_CHECKSUM
 * ("checksum mismatch", naming the column when one is to blame).  Uses a
 * decoder kept per thread.  Returns 0 or a negative error with a message
 * in @err; @out then holds no samples (n 0, its capacity kept).
 */
int pebs_block_decode(const void *chunk, size_t len, uint64_t cols,
		      struct pebs_batch *out, char *err, size_t errlen);

/*
 * Selects the column decoders: 0 = best the CPU supports, 1 = force scalar.
 * The environment variable PEBS_SCALAR=1 forces scalar at start-up.
 * Returns the name of the active implementation ("avx2", "sse4.2",
 * "scalar").
 */
const char *pebs_codec_select(int force_scalar);

/* ---------------------------------------------------------------- writer */

struct pebs_writer;

/*
 * zstd levels a writer takes: 1 to 22, and zstd's fast levels -1 to -7,
 * which store the byte planes' literals without entropy coding: files
 * about 30% larger that readers decode up to 1.5 times as fast (the same
 * format: any reader reads any level; bench/RESULTS.md).
 */
#define PEBS_LEVEL_MIN (-7)
#define PEBS_LEVEL_MAX 22

struct pebs_writer_opts {
	int level;		/* zstd level (PEBS_LEVEL_MIN to _MAX);
				 * 0 = default (1) */
	unsigned block_samples;	/* samples per block, at most
				 * PEBS_BATCH_MAX; 0 = PEBS_BATCH_MAX */
	int no_index;		/* do not write the footer index */
};

/*
 * Starts a segment on @fp (a pipe is fine: nothing is ever sought) with
 * metadata @meta (copied; may be NULL).  The stream is not closed by the
 * writer.  Returns 0 and *@w, -PEBS_E_RANGE for a level outside
 * PEBS_LEVEL_MIN to PEBS_LEVEL_MAX or a block_samples over PEBS_BATCH_MAX
 * (nothing written, *@w untouched), -PEBS_E_RANGE with *@w set (to close;
 * pebs_writer_errmsg() says why) and nothing written for metadata that
 * makes the HEAD chunk longer than the format's 256 MiB, or another
 * negative error.
 */
int pebs_writer_open(struct pebs_writer **w, FILE *fp,
		     const struct pebs_meta *meta,
		     const struct pebs_writer_opts *opts);

/* The format's limits on event names (pebs-format.md, a block's names):
 * bytes of one name, and distinct names of a segment. */
#define PEBS_EVENT_NAME_MAX 1024
#define PEBS_EVENT_NAMES_MAX 65535

/*
 * Returns the writer-wide id for event @name (interning it), or < 0:
 * -PEBS_E_RANGE for a name over PEBS_EVENT_NAME_MAX bytes or a name past
 * PEBS_EVENT_NAMES_MAX distinct ones
 * (the writer stays usable: the caller skips that sample), another error
 * when the writer failed.
 */
int pebs_writer_event(struct pebs_writer *w, const char *name);

/*
 * Appends sample @s whose s->event came from pebs_writer_event().  A full
 * block is encoded and written.  Returns 0, -PEBS_E_INVAL for an event id
 * the writer did not hand out (with names interned; the sample is
 * skipped, the writer stays usable and pebs_writer_errmsg() says why), or
 * another negative error when the writer failed.
 *
 * While no name is interned, s->event is not checked: the format reads an
 * id without a name as the empty name (pebs-format.md, Events), so a
 * writer that never names its events (event 0 throughout) is valid.  Such
 * an id is written as is: a name interned before its block is written
 * (pebs_writer_flush()) names it, and from then on ids past the names are
 * refused.
 */
int pebs_writer_add(struct pebs_writer *w, const struct pebs_sample *s);

/*
 * Appends every sample of batch @b (event names remapped).  Returns 0,
 * -PEBS_E_NOMEM, or the first error of pebs_writer_event() or
 * pebs_writer_add().
 */
int pebs_writer_add_batch(struct pebs_writer *w, const struct pebs_batch *b);

/*
 * Writes an already-encoded block chunk as is (pebs-filter copies blocks
 * whose every sample matches).  Pending samples are flushed first.
 * Returns 0 or a negative error.  Two refusals write nothing and leave
 * the writer usable, pebs_writer_errmsg() saying why: -PEBS_E_CHECKSUM
 * for a block chunk whose checksum does not match (encode the samples
 * instead), -PEBS_E_INVAL for bytes that are no block chunk at all
 * (shorter than a chunk, another tag, or a length field that does not
 * give @len).  Any other error is the writer's, as pebs_writer_flush()'s.
 */
int pebs_writer_copy_block(struct pebs_writer *w, const void *chunk,
			   size_t len);

/* Records @count samples lost on @cpu at @time, in band.  0 or error. */
int pebs_writer_lost(struct pebs_writer *w, uint32_t cpu, uint64_t time,
		     uint64_t count);

/*
 * Encodes and writes the pending partial block, then fflush()es.  Returns
 * 0 or a negative error, with pebs_writer_errmsg(): -PEBS_E_IO when
 * writing fails (errno kept), -PEBS_E_NOMEM, or the error that made the
 * writer fail before (a writer that failed stays failed).
 */
int pebs_writer_flush(struct pebs_writer *w);

/*
 * Flushes and writes the end-of-segment chunk and footer index; @w stays
 * valid for pebs_writer_errmsg()/_stats() until pebs_writer_close().
 * Returns 0 or the first error seen during the writer's life.  The
 * segment is then complete: pebs_writer_event(), _add(), _add_batch(),
 * _copy_block() and _lost() return -PEBS_E_INVAL and write nothing
 * (pebs_writer_errmsg() says why; not an error of the writer, which
 * pebs_writer_close() would return).
 */
int pebs_writer_finish(struct pebs_writer *w);

/*
 * pebs_writer_finish() (unless already done), then frees @w.  Returns 0 or
 * the first error seen.  NULL is fine (0).
 */
int pebs_writer_close(struct pebs_writer *w);

/*
 * Last error message of @w ("" if none).  After -PEBS_E_IO, errno still
 * holds the system error (EPIPE for a closed pipe).
 */
const char *pebs_writer_errmsg(const struct pebs_writer *w);

/*
 * The smallest time stamp of the first block @w wrote (samples still
 * pending are not in a block: pebs_writer_flush() or _finish() writes
 * them): where a time since the start (pebs-filter's `t`) counts from in
 * this segment unless its metadata has time.origin.  A writer that goes
 * on with the same time line in a new segment (pebs-import -f perf at a
 * thread's rename) gives it as that segment's time.origin.  Returns 1
 * with *@t0, or 0 (*@t0 = 0) before the first block.
 */
int pebs_writer_first_time(const struct pebs_writer *w, uint64_t *t0);

/* Totals so far. */
struct pebs_write_stats {
	uint64_t samples, blocks, bytes, lost;
};
void pebs_writer_stats(const struct pebs_writer *w,
		       struct pebs_write_stats *st);

/* ---------------------------------------------------------------- reader */

struct pebs_reader;

/*
 * Called for every block before it is decompressed, once its head (the
 * directory @info comes from) is verified; return 0 to skip the block (it
 * is then neither decoded nor returned), 1 to decode it.
 *
 * Calls come one at a time, in input order, from the first
 * pebs_reader_next() on (so pebs_reader_open() has returned the reader)
 * until pebs_reader_close().  With one thread they come from inside
 * pebs_reader_next(), on its caller's thread; with more, also from the
 * decode threads, at any time in between as they read ahead of the
 * batches returned, and under the reader's lock.  Of its own reader the
 * callback may call pebs_reader_stats() only (counts of what was
 * delivered so far: the callback runs ahead of that); the other reader
 * functions belong to the thread that calls pebs_reader_next().  It must
 * not call pebs_reader_stats() of another reader with several threads,
 * whose filter could be asking for this one's: each would hold its own
 * lock and wait for the other's.
 */
typedef int (*pebs_block_filter_fn)(void *ctx,
				    const struct pebs_block_info *info);

#define PEBS_READER_MAX_THREADS 8

struct pebs_reader_opts {
	/*
	 * Decode threads, the caller's own included: pebs_reader_next()
	 * decodes the next block itself while the batch it is due to return
	 * is not ready, so N threads are N - 1 workers and the caller.
	 * 0 = number of CPUs (max 8).
	 */
	unsigned threads;
	int salvage;		/* skip damaged blocks and go on */
	uint64_t cols;		/* columns to decode; 0 = all */
	pebs_block_filter_fn filter;
	void *filter_ctx;
	int raw_chunks;		/* keep each batch's raw chunk (see _raw) */
	/*
	 * Check the checksum of every column of each block, also of those
	 * not decoded (cols): a damaged column makes its block damaged, as
	 * when decoding everything, at the cost of a hash per column.
	 */
	int verify_all;
	/*
	 * When set, called in the decoding thread with each batch it has
	 * decoded, before the batch is delivered (in order, as always):
	 * work that does not need input order (counting) then runs on every
	 * decode thread.  Exactly the batches pebs_reader_next() will
	 * deliver are consumed: not those read ahead past damage that ends
	 * a source (no salvage).  With more than one thread it may also
	 * run on the caller's thread, from inside pebs_reader_next().
	 * Like the filter, from the first pebs_reader_next() on.
	 * @worker, below PEBS_READER_MAX_THREADS, is the same for all calls
	 * from one thread, so per-worker state needs no lock.  Returns 0,
	 * or a negative error that pebs_reader_next() reports as that
	 * block's (then, without salvage, blocks after it may have been
	 * consumed too).
	 */
	int (*consume)(void *ctx, unsigned worker,
		       const struct pebs_batch *b);
	void *consume_ctx;
	/*
	 * Return each LOST chunk (a count of samples lost) in input order,
	 * as an empty batch (n = 0) of its segment: source, segment, the
	 * chunk's offset, and block_index the number of the block after it;
	 * pebs_reader_lost() gives its record and pebs_reader_meta() its
	 * segment's metadata.  The counts then stay where they were in the
	 * input, in their own segment even when it has no samples, however
	 * far the decode threads read ahead.  Such batches are not passed
	 * to consume.  0: LOST chunks are only counted (stats.lost).
	 */
	int lost_batches;
	/*
	 * When set, called when the input stalls: a stream (a pipe, a FIFO,
	 * a terminal) has had nothing to read for 200 ms, and every batch
	 * read before is delivered; again every 200 ms while it stalls.
	 * From inside pebs_reader_next(), on its caller's thread and
	 * without the reader's lock (so it may call pebs_reader_stats(),
	 * not pebs_reader_next()).  A tool that writes as it reads flushes
	 * its output there: what it has is then not held until more input
	 * comes (a filter in the middle of a live pipeline), and it can
	 * tell that its own reader is gone.
	 */
	void (*idle)(void *ctx);
	void *idle_ctx;
};

/*
 * Opens @n inputs ("-" or NULL = standard input; @n 0: standard input,
 * @paths unread) read as if concatenated.
 * Each input is opened when reading reaches it and closed once it is
 * read, so any number of inputs needs only a few file descriptors.
 * Regular files are read with pread, only the byte ranges of the columns
 * in use; anything else is streamed.  Errors opening a file are
 * reported by pebs_reader_next() in order, so inputs before it are read
 * first; a file that shrinks while it is read gives an error there too.
 * Returns 0 and *@r, or a negative error.
 */
int pebs_reader_open(struct pebs_reader **r, const char *const *paths,
		     size_t n, const struct pebs_reader_opts *opts);

/*
 * Returns the next decoded batch in input order through *@out (owned by the
 * reader, valid until the next call): 1 when a batch was returned, 0 at the
 * end of all inputs, or a negative error.  After an error the reader can
 * still be asked for more: with salvage it goes on after damage; without,
 * it goes on with the next input file.
 */
int pebs_reader_next(struct pebs_reader *r, struct pebs_batch **out);

/*
 * The lost-sample record of the last batch when it was a LOST chunk
 * (opts.lost_batches): returns its count (never 0) and, where non-NULL,
 * its CPU in *@cpu and time in *@time.  0 (and zeros) for a batch of
 * samples, or without lost_batches.
 */
uint64_t pebs_reader_lost(const struct pebs_reader *r, uint32_t *cpu,
			  uint64_t *time);

/* The raw chunk bytes of the last batch (opts.raw_chunks), else NULL. */
const void *pebs_reader_raw(const struct pebs_reader *r, size_t *len);

/*
 * Message for the last error: "block 12 at offset 0x3f000: checksum
 * mismatch", and the input it concerns ("standard input" for stdin).
 */
const char *pebs_reader_errmsg(const struct pebs_reader *r);
const char *pebs_reader_errfile(const struct pebs_reader *r);

/*
 * Name of input @source (a batch's source index) as messages give it: its
 * path, "standard input" for stdin, "?" for an index out of range.
 */
const char *pebs_reader_name(const struct pebs_reader *r, uint32_t source);

/* Metadata of the segment the last batch came from (never NULL). */
const struct pebs_meta *pebs_reader_meta(const struct pebs_reader *r);

/*
 * The start of the segment the last batch came from, where a time since
 * the start (pebs-filter's `t`) counts from: its metadata's time.origin
 * when that is a decimal integer, else the smallest time stamp of its
 * first block (formats/pebs-format.md, section 9).  Returns 1 with *@t0,
 * or 0 (*@t0 = 0) while neither is known: the last batch is a LOST chunk
 * (opts.lost_batches) that comes before the segment's first block.  A
 * tool that writes a segment of its own from this one's samples (some of
 * them, or all in blocks cut anew, whose first block may start later)
 * sets time.origin to it, so that `t` of each sample stays.
 */
int pebs_reader_segment_start(const struct pebs_reader *r, uint64_t *t0);

/*
 * Counts as far as reading has delivered, the same whatever the number of
 * threads: what the decode threads read ahead of the last batch returned
 * (or error reported) is counted only once the reader gets there, and
 * what they read past damage that stops a source (without salvage) never.
 * At the end of input, all that was read.
 */
struct pebs_read_stats {
	uint64_t samples;	/* samples in returned batches */
	uint64_t blocks;	/* blocks returned */
	uint64_t skipped;	/* blocks skipped by the filter callback */
	uint64_t damaged;	/* blocks skipped because damaged (salvage) */
	uint64_t lost;		/* in-band lost-sample counts (LOST) */
	uint64_t segments;
	uint64_t bytes;		/* input bytes consumed */
	uint64_t tmin, tmax;	/* time range of returned samples */
	/* stored data bytes of each column in the returned blocks */
	uint64_t col_bytes[PEBS_COL_COUNT];
	/* lowest and highest format minor version of the segments read */
	unsigned minor_min, minor_max;
	/* the counts are a raw dump's (set by pebs-decode --raw, never by
	 * this reader): unattributed below is meaningful */
	int raw;
	/* minor_min and minor_max are set: a segment's header was read
	 * (in what was padding: the struct's size and layout stay) */
	int have_minor;
	/* raw dumps only (raw set): records dropped because they matched
	 * no configured counter */
	uint64_t unattributed;
};
/* Safe from any thread, and from @r's own filter callback (not from
 * another reader's: pebs_block_filter_fn). */
void pebs_reader_stats(const struct pebs_reader *r,
		       struct pebs_read_stats *st);

/* Closes all inputs and frees @r.  NULL is fine. */
void pebs_reader_close(struct pebs_reader *r);

/* ----------------------------------------------------------- footer index */

/* One block of a segment's footer index. */
struct pebs_index_entry {
	uint64_t offset;	/* of the block chunk, from the file start */
	uint64_t samples;
	uint64_t tmin, tmax;	/* time range of the block */
};

/*
 * Reads the footer index of the last segment of the regular file @path
 * (found through its TAIL chunk, without reading the blocks), for random
 * access by time.  On success *@out is a malloc'd array of *@n entries
 * owned by the caller.  Returns 0, -PEBS_E_FORMAT when the file has no
 * index (written to a pipe that was cut, or with no_index), or another
 * negative error.
 */
int pebs_file_index(const char *path, struct pebs_index_entry **out,
		    size_t *n);

#ifdef __cplusplus
}
#endif

#endif
