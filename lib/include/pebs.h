/*
 * pebs.h - libpebs core: errors, the sample model, column batches, metadata.
 *
 * libpebs never prints, exits or aborts on bad input.  Functions return 0 (or
 * a count) on success and a negative PEBS_E_* code on failure; objects that
 * can fail keep a detail message reachable through their own *_errmsg().
 *
 * The program's locale changes nothing: numbers are read and written with
 * a '.' and names compare as in the C locale (ASCII case folding), also
 * in a program that called setlocale(LC_ALL, "") (tr_TR, de_DE, ...).
 */
#ifndef PEBS_H
#define PEBS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEBS_VERSION_STRING "0.1.0"

/* Error codes: always negative when returned. */
enum pebs_error {
	PEBS_OK = 0,
	PEBS_E_NOMEM = 1,	/* allocation failed */
	PEBS_E_IO = 2,		/* read/write/mmap failed (errno kept) */
	PEBS_E_FORMAT = 3,	/* not a .pebs stream, or a malformed structure */
	PEBS_E_VERSION = 4,	/* a required feature this reader lacks */
	PEBS_E_CHECKSUM = 5,	/* block checksum mismatch */
	PEBS_E_TRUNCATED = 6,	/* input ends inside a chunk */
	PEBS_E_CORRUPT = 7,	/* checksum ok but contents inconsistent */
	PEBS_E_INVAL = 8,	/* bad argument from the caller */
	PEBS_E_RANGE = 9,	/* a value does not fit its field */
	PEBS_E_PARSE = 10,	/* text input (CSV, expression, spec) malformed */
	PEBS_E_UNSUPPORTED = 11,	/* valid but not implemented/available */
	PEBS_E_RULE = 12,	/* a hardware rule forbids the configuration */
	PEBS_E_AGAIN = 13,	/* nothing yet; try again */
};

/*
 * Returns a static string naming error code @err (positive or negative);
 * "unknown error" for any other int, INT_MIN and INT_MAX included.
 */
const char *pebs_strerror(int err);

/*
 * The source of a parser that reads its input as it goes (the YAML
 * merges): puts up to @size bytes at @buf and their number in *@n, which
 * is 0 only at the end of the input; may return fewer than asked (what a
 * pipe holds), and is called again for more.  Returns 0, or -1 on a read
 * error (errno is the caller's to keep: the parser returns -PEBS_E_IO).
 */
typedef int (*pebs_read_fn)(void *ctx, void *buf, size_t size, size_t *n);

/*
 * Parses a count as the tools' options and pebs-filter(1) write one:
 * decimal (a leading zero is not octal) or 0x hex, then optionally k or K
 * (x1000), M (x10^6) or G (x10^9); no sign, no spaces.  @s is @n bytes (no
 * terminator needed).  Returns 0 with *@out set, -PEBS_E_PARSE when it is
 * not such a number, -PEBS_E_RANGE when it exceeds 64 bits.
 */
int pebs_num_parse(const char *s, size_t n, uint64_t *out);

/*
 * Copies the @n bytes of @s to @dst (room for @n bytes; @dst may be @s; no
 * NUL is added) as the text formats show names: each control character
 * (C0, '\n' and '\t' included, DEL, C1 U+0080..U+009F), each
 * bidirectional control (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069: they reorder a line on screen) and each byte of no valid
 * UTF-8 sequence becomes '?', so that nothing a terminal acts on remains
 * (a name from another machine's file can hold ESC sequences).
 * The library's detail messages (pebs_*_errmsg) already come this way.
 * Returns the bytes written, at most @n.
 */
size_t pebs_text_sanitize(char *dst, const char *s, size_t n);

/*
 * Copies the @n bytes of @s to @dst (room for 3 x @n bytes; no NUL is
 * added) with each byte of no valid UTF-8 sequence (a stray continuation
 * byte, an overlong form, a surrogate, a value past U+10FFFF, a cut
 * sequence) replaced by U+FFFD, as the YAML and JSON outputs write names:
 * what YAML and JSON writers and readers accept.  Returns the bytes
 * written.
 */
size_t pebs_utf8_fix(char *dst, const char *s, size_t n);

/* ---------------------------------------------------------------- columns */

/*
 * Column ids.  They are also the on-disk column ids of format v1 (see
 * formats/pebs-format.md); never renumber, only append.
 */
enum pebs_col {
	PEBS_COL_TIME = 0,	/* u64 timestamp (TSC ticks or ns: see metadata) */
	PEBS_COL_CPU,		/* u32 logical CPU */
	PEBS_COL_PID,		/* u32 */
	PEBS_COL_TID,		/* u32 */
	PEBS_COL_EVENT,		/* u32 index into the batch's event dictionary */
	PEBS_COL_IP,		/* u64 */
	PEBS_COL_ADDR,		/* u64 data linear address */
	PEBS_COL_LAT,		/* u32 load latency, core cycles */
	PEBS_COL_INS_LAT,	/* u32 instruction latency */
	PEBS_COL_DSRC,		/* u64 perf_mem_data_src layout */
	PEBS_COL_RAW_DSE,	/* u64 raw data-source / store-status bits */
	PEBS_COL_FMT,		/* u32 PEBS record format the sample came from */
	PEBS_COL_APPLICABLE,	/* u64 GLOBAL_STATUS / applicable-counter bits */
	PEBS_COL_TSX,		/* u64 TSX tuning info */
	PEBS_COL_PHYS_ADDR,	/* u64 physical address, 0 when unknown */
	PEBS_COL_FLAGS,		/* u32 PEBS_SF_* */
	PEBS_COL_REG0,		/* u64 x 18: register snapshot, PEBS_REG_* */
	PEBS_COL_COUNT = PEBS_COL_REG0 + 18
};

/* Register snapshot order (the legacy PEBS record order). */
enum pebs_reg {
	PEBS_REG_RFLAGS, PEBS_REG_RIP, PEBS_REG_RAX, PEBS_REG_RBX, PEBS_REG_RCX,
	PEBS_REG_RDX, PEBS_REG_RSI, PEBS_REG_RDI, PEBS_REG_RBP, PEBS_REG_RSP,
	PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12,
	PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15, PEBS_REG_COUNT
};

/* Sample flags (PEBS_COL_FLAGS). */
#define PEBS_SF_REGS	0x1u	/* register snapshot present */
#define PEBS_SF_PHYS	0x2u	/* phys_addr valid */
#define PEBS_SF_EVENTING_IP 0x4u	/* ip is the EventingIP (not trap-like) */
#define PEBS_SF_TSC	0x8u	/* time came from the record's own TSC */

enum pebs_type { PEBS_T_U32 = 1, PEBS_T_U64 = 2, PEBS_T_STR = 3 };

/* Static description of a column (name as in cli-contract.md). */
struct pebs_col_info {
	uint16_t id;
	uint8_t type;		/* enum pebs_type; STR columns store u32 ids */
	uint8_t hex;		/* printed as 0x... */
	const char *name;
	const char *unit;	/* "", "cycles", "ticks", ... */
};

/* Returns the description of column @id, or NULL if unknown. */
const struct pebs_col_info *pebs_col_info(unsigned id);
/* Returns the column id named @name (e.g. "lat", "r8"), or -1. */
int pebs_col_lookup(const char *name);

/* ----------------------------------------------------------------- sample */

/*
 * One normalized sample.  Decoded names (op, mem, snoop, tlb, lock) are
 * derived from dsrc (see pebs_dsrc.h) and never stored.
 */
struct pebs_sample {
	uint64_t time;
	uint32_t cpu, pid, tid;
	uint32_t event;		/* index into the event dictionary of its batch */
	uint64_t ip, addr;
	uint32_t lat, ins_lat;
	uint64_t dsrc;
	uint64_t raw_dse;
	uint32_t fmt;
	uint32_t flags;
	uint64_t applicable;
	uint64_t tsx;
	uint64_t phys_addr;
	uint64_t regs[PEBS_REG_COUNT];
};

/* --------------------------------------------------------------- batches */

/*
 * A batch: up to PEBS_BATCH_MAX samples held column-wise.  This is the unit
 * every tool consumes ("a block at a time").  Arrays not present in the
 * source block are zero-filled when decoded, so every pointer is valid for
 * n elements.  u32 columns live in c32[], u64 columns in c64[], indexed by
 * column id.
 */
#define PEBS_BATCH_MAX 65536u

struct pebs_batch {
	size_t n;			/* samples in this batch */
	size_t cap;			/* allocated capacity */
	uint32_t *c32[PEBS_COL_COUNT];	/* non-NULL for u32/str columns */
	uint64_t *c64[PEBS_COL_COUNT];	/* non-NULL for u64 columns */
	/*
	 * Bit per column (< 64) present in the source block; for a batch
	 * built in memory, pebs_batch_push() and pebs_batch_append() add the
	 * columns each sample makes non-zero (and the event column once the
	 * dictionary holds a name).  pebs_expr_select() copies only present
	 * columns.
	 */
	uint64_t present;
	/*
	 * Event dictionary: event column values index names[].  Code that
	 * fills it directly (not by pebs_batch_intern()) may only append to
	 * it, or empty it with pebs_batch_reset(): the name index (at the
	 * end) takes in appended names on its next use.
	 */
	char **names;
	uint32_t nnames;
	uint32_t names_cap;
	/* Where the batch came from (for messages); set by readers. */
	uint64_t block_index;		/* block number within the input, 0-based */
	uint64_t offset;		/* byte offset of the block in its source */
	uint32_t source;		/* index of the input among the reader's */
	uint32_t segment;		/* segment number within the source */
	/*
	 * Columns that may hold non-zero values (a superset).  New batches
	 * start with every bit set; pebs_batch_push() and the decoders keep it
	 * exact enough for encoders to skip clean columns.  Code that writes
	 * column arrays directly must leave the bits of those columns set.
	 */
	uint64_t dirty;
	void *mem;			/* the one allocation of all columns */
	/*
	 * Private to pebs_batch_intern() and pebs_batch_find(): a hash index
	 * of names[0, name_indexed), open addressing, each slot a name's id
	 * + 1 (0 = empty); name_slots is a power of two, or 0 before use.
	 */
	uint32_t *name_slot;
	uint32_t name_slots;
	uint32_t name_indexed;
};

/*
 * Allocates an empty batch with capacity @cap (0: PEBS_BATCH_MAX).  NULL
 * when memory is short or @cap is over PEBS_BATCH_MAX.
 */
struct pebs_batch *pebs_batch_new(size_t cap);
/*
 * The same, with the arrays of columns @first (bit per column id) placed
 * first, side by side: a full batch is on huge pages, and one filled in
 * those columns only then takes the memory of those, not 2 MiB for each.
 */
struct pebs_batch *pebs_batch_new_cols(size_t cap, uint64_t first);
/*
 * Gives empty batch @b fresh (zero) column arrays laid out as by
 * pebs_batch_new_cols(); its event names stay.  For a batch whose columns
 * are known only when the first samples come.  0, -PEBS_E_INVAL when @b
 * holds samples, or -PEBS_E_NOMEM (@b unchanged).
 */
int pebs_batch_relayout(struct pebs_batch *b, uint64_t first);
/*
 * Makes *@b a batch with room for @n samples (at most PEBS_BATCH_MAX):
 * kept when it has room (its contents too), else replaced by an empty,
 * clean one a power of two large, laid out as by pebs_batch_new_cols()
 * with @first (*@b may be NULL).  For batches that receive blocks of
 * varying sizes or a varying part of others (pebs_expr_select()): a full
 * one is on huge pages, which a few samples would spread over.  0,
 * -PEBS_E_RANGE for @n over PEBS_BATCH_MAX, or -PEBS_E_NOMEM; *@b is
 * unchanged on error.
 */
int pebs_batch_fit(struct pebs_batch **b, size_t n, uint64_t first);
/* Frees @b and all arrays it owns.  NULL is fine. */
void pebs_batch_free(struct pebs_batch *b);
/* Empties @b (n = 0, dictionary cleared, present = 0); keeps allocations. */
void pebs_batch_reset(struct pebs_batch *b);
/*
 * Interns @name in @b's event dictionary and returns its index (>= 0) or a
 * negative error.  Expected O(1) (a hash index owned by @b): the index of
 * a name the dictionary holds twice (blocks may) is the first one's.
 */
int pebs_batch_intern(struct pebs_batch *b, const char *name);
/*
 * Returns the index of @name in @b's event dictionary (the first one when
 * it is there twice), or -1 when it is not there.  Expected O(1); @b is not
 * const because names appended directly are indexed first.  Never fails:
 * without memory for the index it searches the dictionary in turn.
 */
int pebs_batch_find(struct pebs_batch *b, const char *name);
/*
 * Appends @s to @b; s->event must already index @b's dictionary.  Sets the
 * present (and dirty) bits of the columns @s makes non-zero.  Returns 0,
 * or -PEBS_E_RANGE when the batch is full.
 */
int pebs_batch_push(struct pebs_batch *b, const struct pebs_sample *s);
/* Copies sample @i of @b into @s. */
void pebs_batch_get(const struct pebs_batch *b, size_t i,
		    struct pebs_sample *s);
/* Returns the event name of sample @i ("" if out of dictionary). */
const char *pebs_batch_event(const struct pebs_batch *b, size_t i);
/*
 * Appends sample @i of @src to @dst, remapping its event name.  Returns 0 or
 * a negative error (PEBS_E_RANGE when @dst is full).
 */
int pebs_batch_append(struct pebs_batch *dst, const struct pebs_batch *src,
		      size_t i);
/* Recomputes the present mask from the data (non-zero columns). */
void pebs_batch_update_present(struct pebs_batch *b);

/* -------------------------------------------------------------- metadata */

/*
 * Capture metadata: an ordered list of (key, value) strings.  Keys are
 * dotted paths ("cpu.model", "events.0.name"); pebs-decode --info prints
 * them as nested YAML.  Well-known keys are listed in formats/pebs-format.md.
 */
struct pebs_meta;

/* Allocates an empty metadata set, or NULL. */
struct pebs_meta *pebs_meta_new(void);
/* Frees @m.  NULL is fine. */
void pebs_meta_free(struct pebs_meta *m);
/* Sets @key to @value (replacing an existing value).  0 or -PEBS_E_NOMEM. */
int pebs_meta_set(struct pebs_meta *m, const char *key, const char *value);
/*
 * printf-style pebs_meta_set().  Returns 0 or -PEBS_E_NOMEM (formatting the
 * value or storing it).
 */
int pebs_meta_setf(struct pebs_meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Returns the value of @key, or NULL.  Owned by @m. */
const char *pebs_meta_get(const struct pebs_meta *m, const char *key);
/* Number of entries, and entry @i (key and value owned by @m; both NULL
 * when @i is not below the count). */
size_t pebs_meta_count(const struct pebs_meta *m);
void pebs_meta_entry(const struct pebs_meta *m, size_t i, const char **key,
		     const char **value);
/*
 * Copies every entry of @src into @dst.  Returns 0 or -PEBS_E_NOMEM (@dst
 * then holds the entries copied so far).
 */
int pebs_meta_copy(struct pebs_meta *dst, const struct pebs_meta *src);
/*
 * Checks @value against the syntax the tools read well-known key @key with
 * (formats/pebs-format.md, section 9): time.unit (tsc or ns), tsc.hz and
 * topology.nr_cpus (decimal integers above 0), time.origin (a decimal
 * integer, 0 included), topology.node.N.cpus (a CPU list, N up to 4095).
 * For a caller that takes keys from a user, since the readers treat a
 * malformed value as a missing one (time.origin: as an error for `t`).
 * Returns 0 when @value fits, or @key has no syntax of its own; else
 * -PEBS_E_PARSE with the expected form, a static string, in *@expected
 * (when not NULL; NULL on success).
 */
int pebs_meta_check(const char *key, const char *value,
		    const char **expected);

#ifdef __cplusplus
}
#endif

#endif
