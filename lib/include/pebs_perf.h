/*
 * pebs_perf.h - Linux perf.data interoperability: a parser that turns a
 * perf.data file (seekable or pipe mode, either byte order) into samples and
 * metadata, and a writer that turns samples and metadata into a perf.data
 * file that `perf script`, `perf mem report` and `perf c2c report` accept.
 * The mapping between the two models is specified in formats/perf-import.md.
 */
#ifndef PEBS_PERF_H
#define PEBS_PERF_H

#include <stdio.h>
#include "pebs.h"
#include "pebs_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PERF_SAMPLE_* bits used in options (include/uapi/linux/perf_event.h). */
#define PEBS_PERF_S_IP		(1ull << 0)
#define PEBS_PERF_S_TID		(1ull << 1)
#define PEBS_PERF_S_TIME	(1ull << 2)
#define PEBS_PERF_S_ADDR	(1ull << 3)
#define PEBS_PERF_S_READ	(1ull << 4)
#define PEBS_PERF_S_CALLCHAIN	(1ull << 5)
#define PEBS_PERF_S_ID		(1ull << 6)
#define PEBS_PERF_S_CPU		(1ull << 7)
#define PEBS_PERF_S_PERIOD	(1ull << 8)
#define PEBS_PERF_S_STREAM_ID	(1ull << 9)
#define PEBS_PERF_S_RAW		(1ull << 10)
#define PEBS_PERF_S_BRANCH_STACK (1ull << 11)
#define PEBS_PERF_S_REGS_USER	(1ull << 12)
#define PEBS_PERF_S_STACK_USER	(1ull << 13)
#define PEBS_PERF_S_WEIGHT	(1ull << 14)
#define PEBS_PERF_S_DATA_SRC	(1ull << 15)
#define PEBS_PERF_S_IDENTIFIER	(1ull << 16)
#define PEBS_PERF_S_TRANSACTION	(1ull << 17)
#define PEBS_PERF_S_REGS_INTR	(1ull << 18)
#define PEBS_PERF_S_PHYS_ADDR	(1ull << 19)
#define PEBS_PERF_S_AUX		(1ull << 20)
#define PEBS_PERF_S_CGROUP	(1ull << 21)
#define PEBS_PERF_S_DATA_PAGE_SIZE (1ull << 22)
#define PEBS_PERF_S_CODE_PAGE_SIZE (1ull << 23)
#define PEBS_PERF_S_WEIGHT_STRUCT (1ull << 24)

/*
 * The perf event name of samples without an event name (""): the writer
 * gives them a raw event (type 4) of config 0 and config1 0, unless the
 * metadata has attributes for an event named "", and calls it this; the
 * parser names such an event "" again, so the empty name round-trips.
 * An event really called "pebs" with those attributes (none in the
 * metadata, or the same) looks the same, and comes back as "" too.
 */
#define PEBS_PERF_ANON_EVENT "pebs"

/*
 * CPUs a topology may describe (perf's own limit is lower): a larger
 * count in a file is ignored as damage, a larger cpu number in a sample
 * does not grow the topology the writer describes.
 */
#define PEBS_PERF_MAX_CPUS 16384u

/*
 * Events (distinct names) one perf.data of the writer holds.  The limit
 * is the writer's, not perf's: it bounds the event table, which is
 * searched name by name; more are refused (pebs_perf_writer_add()).
 */
#define PEBS_PERF_MAX_EVENTS 4096u

/* ---------------------------------------------------------------- parser */

struct pebs_perf_reader;

/* One item from the parser. */
enum pebs_perf_kind {
	PEBS_PERF_SAMPLE = 1,	/* s and event are valid */
	PEBS_PERF_LOST = 2,	/* lost, cpu and time are valid */
	/*
	 * The samples after this one are of a new segment, whose metadata
	 * pebs_perf_reader_meta() now gives: a thread or process was
	 * renamed (a COMM record) between samples it has: its comm.* keys
	 * change, and the maps.* and comm.* keys are those of the
	 * processes and threads with samples in the new segment
	 * (formats/perf-import.md, section 1.2).
	 */
	PEBS_PERF_SEGMENT = 3,
};

struct pebs_perf_item {
	int kind;		/* enum pebs_perf_kind */
	struct pebs_sample s;	/* s.event is the reader's event index */
	const char *event;	/* event name (owned by the reader) */
	uint64_t lost;		/* PEBS_PERF_LOST: samples lost */
	uint32_t cpu;		/* PEBS_PERF_LOST: cpu, when known, else 0 */
	uint64_t time;		/* PEBS_PERF_LOST: time, when known, else 0 */
};

struct pebs_perf_reader_opts {
	/*
	 * Keep process maps of every process, not only those with samples
	 * (maps.N.* metadata keys), in every segment.  Default: only
	 * processes with samples in the segment plus the kernel's maps
	 * (pid -1).
	 */
	int all_maps;
};

/*
 * Opens the perf.data on @fp (read from its current position; @name is used
 * in messages).  The input is read whole into memory, a regular file with
 * pread (not mapped: one that shrinks meanwhile is only cut short, never a
 * SIGBUS), a pipe to its end, so a whole `perf record -o -` stream is
 * accepted.  The whole input is scanned once to collect the metadata
 * (attributes, header features, process maps); samples are returned by
 * pebs_perf_reader_next().  @fp is not closed.  @opts may be NULL.
 *
 * Returns 0 and *@r, or a negative error with *@r still set (so its message
 * can be read; free it with pebs_perf_reader_close()) when the input is not
 * a perf.data file at all (PEBS_E_FORMAT), a feature is not supported
 * (PEBS_E_UNSUPPORTED) or I/O fails.  A file damaged after its header opens
 * fine: the damage is reported by pebs_perf_reader_next() after every
 * complete record before it.  Header features cut off by the end of the
 * file (they follow the data) are such damage too: reported after every
 * sample, the metadata holding the features that are whole.
 */
int pebs_perf_reader_open(struct pebs_perf_reader **r, FILE *fp,
			  const char *name,
			  const struct pebs_perf_reader_opts *opts);

/*
 * Like pebs_perf_reader_open() on the @len bytes at @buf, which must stay
 * valid and unchanged until pebs_perf_reader_close() (not copied).
 */
int pebs_perf_reader_open_mem(struct pebs_perf_reader **r, const void *buf,
			      size_t len,
			      const struct pebs_perf_reader_opts *opts);

/*
 * Metadata gathered from the file (source, host, os.release, cmdline,
 * cpu.*, uarch, time.unit, topology.*, events.N.*, maps.N.*, comm.*):
 * owned by @r, valid until pebs_perf_reader_close().  The maps.* and
 * comm.* keys are those of the current segment (the processes and
 * threads with samples in it): they change when pebs_perf_reader_next()
 * or pebs_perf_reader_read() returns a PEBS_PERF_SEGMENT item.
 */
const struct pebs_meta *pebs_perf_reader_meta(const struct pebs_perf_reader *r);

/*
 * Returns the next item through @it: 1 when one was returned, 0 at the end,
 * or a negative error (PEBS_E_TRUNCATED, PEBS_E_CORRUPT, ...) once every
 * complete record before the damage has been returned.  Samples come out in
 * time order, sorted within the reordering window of
 * PERF_RECORD_FINISHED_ROUND (memory is bounded by two rounds).  A
 * PEBS_PERF_SEGMENT item comes before the first sample of each segment
 * after the first.
 */
int pebs_perf_reader_next(struct pebs_perf_reader *r,
			  struct pebs_perf_item *it);

/*
 * The fast form of pebs_perf_reader_next() for bulk import: appends the
 * next samples, in the same order, to batch @b until it is full, a lost
 * record comes or the input ends.  Event names are interned in @b's
 * dictionary.  Only the columns a perf sample can set are written (time,
 * cpu, pid, tid, event, ip, addr, lat, ins_lat, dsrc, tsx, rax,
 * phys_addr, flags): @b must hold zeros in the others, as a batch from
 * pebs_batch_new() only ever filled by this function does; @b's dirty
 * mask is set to the written columns.  Returns the number of samples now
 * in @b, with @it->kind PEBS_PERF_LOST when a lost record stopped it (the
 * samples in @b come before it) and 0 otherwise; 0 samples and kind 0 at
 * the end; or a negative error as pebs_perf_reader_next() returns it, the
 * samples read before it being in @b.  A new segment stops it as a lost
 * record does: @it->kind PEBS_PERF_SEGMENT, the samples in @b being of
 * the segment before (there may be none).
 */
int pebs_perf_reader_read(struct pebs_perf_reader *r, struct pebs_batch *b,
			  struct pebs_perf_item *it);

/*
 * How far pebs_perf_reader_next() and pebs_perf_reader_read() have come:
 * *@done of the *@total bytes of the file's records (inflated, for
 * `perf record -z`) have been passed.  They go through them once, after
 * the scan of pebs_perf_reader_open(); for a progress display.
 */
void pebs_perf_reader_progress(const struct pebs_perf_reader *r,
			       uint64_t *done, uint64_t *total);

/* Number of events and the name of event @i (NULL when out of range). */
unsigned pebs_perf_reader_nevents(const struct pebs_perf_reader *r);
const char *pebs_perf_reader_event(const struct pebs_perf_reader *r,
				   unsigned i);

/* Detail message of the last error ("" if none). */
const char *pebs_perf_reader_errmsg(const struct pebs_perf_reader *r);

/* Frees @r and its mapping.  NULL is fine. */
void pebs_perf_reader_close(struct pebs_perf_reader *r);

/*
 * Returns 1 when @buf (@len bytes) starts like a perf.data file or stream
 * (magic "PERFILE2" in either byte order), else 0.
 */
int pebs_perf_probe(const void *buf, size_t len);

/* ---------------------------------------------------------------- writer */

struct pebs_perf_writer;

struct pebs_perf_writer_opts {
	/*
	 * PERF_SAMPLE_* bits of every event; 0 = the default
	 * IDENTIFIER|IP|TID|TIME|ADDR|ID|CPU|PERIOD|WEIGHT_STRUCT|DATA_SRC,
	 * plus PHYS_ADDR when the input has physical addresses: an event of
	 * the metadata recorded them (events.N.perf.sample_type), or the
	 * first sample added has one (flag PEBS_SF_PHYS, or a non-zero
	 * phys_addr), or any sample of the first batch added does; and
	 * TRANSACTION when an event of the metadata recorded it.  It is
	 * decided then, once (samples are written as they come): later
	 * samples' physical addresses are dropped when it was not.  Bits
	 * that the writer cannot fill from a sample (READ, CALLCHAIN, RAW,
	 * BRANCH_STACK, REGS_*, STACK_USER, AUX) are written empty
	 * (nr/size/abi 0) so readers skip them correctly.
	 */
	uint64_t sample_type;
	int big_endian;		/* write the other byte order (tests) */
	int pipe;		/* pipe mode even on a seekable stream */
	/* Emit a PERF_RECORD_FINISHED_ROUND every this many samples (0 =
	 * 4096). */
	unsigned round;
	/*
	 * 0: records are read by perf in the order they were added: where
	 * time goes backwards, rounds make perf flush what it holds first
	 * (an import's order is perf's own order of the original).  1: only
	 * the rounds above, so that perf (or a reader) sorts the records
	 * between two of them by time (tests of the reordering).
	 */
	int reorder;
};

/*
 * Starts a perf.data on @fp with the capture metadata @meta (copied; may be
 * NULL): that of the first input segment, which also gives the header
 * features (host, kernel, CPU, topology, command line) of the whole file.
 * A seekable @fp gets the normal file layout (header rewritten at
 * close); otherwise (or with opts->pipe) pipe mode.  Events are declared as
 * samples name them, those of @meta first; one file holds at most
 * PEBS_PERF_MAX_EVENTS.  @fp is not closed.  Returns 0 and *@w or a
 * negative error (*@w is then still to be closed); -PEBS_E_UNSUPPORTED
 * when @meta declares more events than a file holds (refused: see
 * pebs_perf_writer_close()).
 */
int pebs_perf_writer_open(struct pebs_perf_writer **w, FILE *fp,
			  const struct pebs_meta *meta,
			  const struct pebs_perf_writer_opts *opts);

/*
 * Starts the next input segment, with metadata @meta (copied; may be
 * NULL): the samples added after it are its own.  A perf.data has one
 * time base, nanoseconds: each segment's times are converted with its
 * own clock (time.unit tsc with tsc.hz; ns as they are).  A segment
 * without a usable clock (no time.unit, or tsc without tsc.hz) has its
 * times written unchanged, as a first segment does: it may follow only
 * segments of that same time.unit, and they only it.  The segment's
 * processes and maps (comm.*, maps.*) go out as COMM and MMAP2 records
 * before its samples, those perf has from a segment before (same name,
 * same map still in place) once only, and its build-ids join the table;
 * its events are declared (each sample then carries its own segment's
 * period).  Samples of the segments before are all processed by perf
 * before these records (FINISHED_ROUND).  The sample_type stays as the
 * first segment decided it.
 *
 * Returns 0 or a negative error as pebs_perf_writer_add() does, and
 * -PEBS_E_UNSUPPORTED (the writer failed, nothing of the segment
 * written) when the segment cannot share the file with those before: a
 * clock that the rule above rules out, an event of the same name with
 * other perf attributes (type, config, config1, precise_ip, frequency;
 * periods may differ), an object (path) with another build-id, or events
 * that with those before are more than PEBS_PERF_MAX_EVENTS;
 * pebs_perf_writer_errmsg() says which.
 */
int pebs_perf_writer_segment(struct pebs_perf_writer *w,
			     const struct pebs_meta *meta);

/*
 * Appends sample @s of event @event (a name; NULL or "" = no name, an
 * event perf sees as PEBS_PERF_ANON_EVENT, kept apart from any event
 * really called so).  A new
 * name declares a new event (in pipe mode after the start, with an in-band
 * attribute and name record).  With WEIGHT_STRUCT, an s->ins_lat above
 * 65535 is written as 65535 (perf keeps 16 bits).  The time is converted
 * to ns exactly (integers, rounded down).  Returns 0 or a negative error,
 * with pebs_perf_writer_errmsg(): -PEBS_E_IO when writing fails (errno
 * kept), -PEBS_E_NOMEM, -PEBS_E_RANGE (a record over 64 KiB),
 * -PEBS_E_INVAL (a sample_type perf cannot read), -PEBS_E_UNSUPPORTED
 * (refused, nothing of the sample written: a new event name past
 * PEBS_PERF_MAX_EVENTS, or a time of 2^64 ns or later, which perf's 64-bit
 * times cannot hold), or the error that made the writer fail before (a
 * writer that failed stays failed).
 */
int pebs_perf_writer_add(struct pebs_perf_writer *w,
			 const struct pebs_sample *s, const char *event);

/*
 * Declares event @name in advance (keeps event order).  Returns 0 or a
 * negative error as pebs_perf_writer_add() does.
 */
int pebs_perf_writer_event(struct pebs_perf_writer *w, const char *name);

/*
 * Appends every sample of batch @b (event names from its dictionary).  The
 * first batch decides the default sample_type's PHYS_ADDR from all its
 * samples (see pebs_perf_writer_opts.sample_type).  Returns 0 or the
 * first error of pebs_perf_writer_add() (the samples before it are
 * written).
 */
int pebs_perf_writer_add_batch(struct pebs_perf_writer *w,
			       const struct pebs_batch *b);

/*
 * Appends a PERF_RECORD_LOST_SAMPLES of @count on @cpu at @time.  Returns 0
 * or a negative error as pebs_perf_writer_add() does.
 */
int pebs_perf_writer_lost(struct pebs_perf_writer *w, uint32_t cpu,
			  uint64_t time, uint64_t count);

/*
 * Writes the attributes and header features (file mode), rewrites the
 * header, flushes and frees @w (@fp stays open).  A writer that failed
 * with -PEBS_E_UNSUPPORTED (a refusal: nothing of the refused segment or
 * sample written) is still finished so: a valid perf.data of what came
 * before.  Returns 0 or the first error of the writer's life (an error
 * in finishing after a refusal), with its message copied into @err
 * (@errlen bytes) when non-NULL.
 */
int pebs_perf_writer_close(struct pebs_perf_writer *w, char *err,
			   size_t errlen);

/*
 * Hands on what was added so far, for a live pipeline whose input stalls:
 * in pipe mode, once the header records are out, writes the pending
 * records, each time something came since the last flush with two
 * PERF_RECORD_FINISHED_ROUNDs first (perf then processes every sample
 * written rather than hold the last ones to sort them by time), and
 * flushes the stream.  A file (not pipe mode) is read only once closed:
 * nothing is done.  Returns 0 or a negative error as
 * pebs_perf_writer_add() does.
 */
int pebs_perf_writer_flush(struct pebs_perf_writer *w);

/* Detail message of the last error ("" if none). */
const char *pebs_perf_writer_errmsg(const struct pebs_perf_writer *w);

/* -------------------------------------------------------- conversions */

/* PERF_SAMPLE_TRANSACTION bits used below (uapi perf_event.h PERF_TXN_*). */
#define PEBS_PERF_TXN_TRANSACTION (1ull << 1)	/* RTM abort */
#define PEBS_PERF_TXN_ABORT_SHIFT 32		/* abort code, bits 63:32 */

/*
 * The PERF_SAMPLE_TRANSACTION value the kernel reports for a PEBS record
 * with TSX tuning field @tuning (the `tsx` column) and AX @ax
 * (arch/x86/events/intel/ds.c, intel_get_tsx_transaction()): the abort
 * flags of @tuning bits 39:32 as bits 7:0, and for an RTM abort
 * (PEBS_PERF_TXN_TRANSACTION) with AX bit 0 set (an XABORT) the abort
 * code AX[31:24] in bits 39:32.  @ax is 0 when no registers were
 * captured, as the kernel's is for a record without a GPR group.
 */
uint64_t pebs_perf_txn_from_tuning(uint64_t tuning, uint64_t ax);

/*
 * The inverse, as far as it goes: stores in *@tuning the TSX tuning field
 * with @txn's flags (bits 7:0) back in bits 39:32 and cycles 0 (bits 31:0
 * are not in @txn), and in *@ax what the kernel read of AX: code << 24 | 1
 * for an abort code, else 0 (the other bits of AX are not in @txn).
 * pebs_perf_txn_from_tuning(*@tuning, *@ax) gives @txn back whenever the
 * kernel could have written it.  Returns 1 then, 0 when @txn has bits the
 * kernel never sets (bits 31:8 or 63:40, an abort code without
 * PEBS_PERF_TXN_TRANSACTION), which are lost.
 */
int pebs_perf_txn_to_tuning(uint64_t txn, uint64_t *tuning, uint64_t *ax);

/*
 * Whether perf's WEIGHT (WEIGHT_STRUCT var1/var2) of the samples of an
 * event with perf attr type @type, config @config and precise_ip @precise,
 * recorded on a CPU of perf CPUID string @cpuid (feature CPUID; NULL:
 * unknown, taken as Intel), is a memory latency (`lat`, `ins_lat`): 1;
 * 0 when it is the TSX weight the kernel (ds.c) gives every other PEBS
 * event, the cycles that `tsx` bits 31:0 hold.  The import reads WEIGHT
 * by it and the export writes it by it, so that each is the other's
 * inverse (formats/perf-import.md, section 1.1).
 */
int pebs_perf_weight_is_lat(uint32_t type, uint64_t config, unsigned precise,
			    const char *cpuid);

/*
 * Imports the perf.data on @in (@name for messages) into .pebs segments
 * on @out written with options @wo (may be NULL): metadata from the file
 * plus @extra (may be NULL; its keys win), samples in time order, lost
 * counts in band.  One segment, and one more for each rename or exec
 * (or pid reused) that the reader starts a segment at
 * (PEBS_PERF_SEGMENT), so that every sample's segment names its thread
 * as it was called, and has its process's maps as they were, at the
 * sample's time.  On damage every complete record before it is written
 * and the segment closed properly.
 *
 * Returns 0 or a negative error with a message in @err (@errlen bytes).
 * *@write_failed is set to 1 when the error came from writing @out (an
 * I/O error of the output, not bad input).
 */
int pebs_perf_import(FILE *in, const char *name, FILE *out,
		     const struct pebs_writer_opts *wo,
		     const struct pebs_meta *extra, char *err, size_t errlen,
		     int *write_failed);

/*
 * The progress of pebs_perf_import_cb(): @samples written so far, and
 * pebs_perf_reader_progress()'s @done and @total.
 */
typedef void (*pebs_perf_progress_fn)(void *ctx, uint64_t samples,
				      uint64_t done, uint64_t total);

/*
 * pebs_perf_import() that calls @fn (may be NULL) with @ctx after each
 * batch of samples it writes (at most PEBS_BATCH_MAX).
 */
int pebs_perf_import_cb(FILE *in, const char *name, FILE *out,
			const struct pebs_writer_opts *wo,
			const struct pebs_meta *extra, pebs_perf_progress_fn fn,
			void *ctx, char *err, size_t errlen,
			int *write_failed);

#ifdef __cplusplus
}
#endif

#endif
