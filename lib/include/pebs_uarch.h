/*
 * pebs_uarch.h - Intel microarchitecture profiles for PEBS, decoding of raw
 * PEBS records (exactly as the hardware writes them into the DS buffer) and
 * of the raw data-source / store-status field into perf_mem_data_src.
 *
 * Three modules, one header:
 *   pebs_uarch_*  static profiles (record format, counters, facilities,
 *                 memory and front-end events) and CPUID detection;
 *   pebs_raw_*    raw record decoding into struct pebs_sample;
 *   pebs_udsrc_*  raw data-source bits -> perf_mem_data_src (pebs_dsrc.h).
 *
 * Facts come from the Intel SDM Vol. 3B chapters 17-18 and the Linux kernel
 * (arch/x86/events/intel/ds.c, core.c); formats/raw-records.md and
 * formats/data-source.md are the normative descriptions of the decoding.
 *
 * Counter masks: every counter mask in this header uses the layout of
 * IA32_PERF_GLOBAL_STATUS / GLOBAL_CTRL: bit x = general-purpose counter
 * IA32_PMCx, bit 32+j = fixed counter IA32_FIXED_CTRj.  (IA32_PEBS_ENABLE
 * uses bits 32+x for LL_EN_PMCx before PMU version 5, so it is NOT this
 * layout; see PEBS_UF_LL_EN.)
 *
 * Everything here is a pure function of its arguments: nothing reads MSRs,
 * CPUID or files.  Profiles are static and never freed.
 */
#ifndef PEBS_UARCH_H
#define PEBS_UARCH_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ constants */

/* Bit of fixed counter @j in a counter mask. */
#define PEBS_UARCH_FIXED(j)	(1ull << (32 + (j)))
/* All general-purpose counters of a mask / all fixed counters. */
#define PEBS_UARCH_GP_MASK	0x00000000ffffffffull
#define PEBS_UARCH_FIXED_MASK	0x0000ffff00000000ull

/* PEBS record formats (IA32_PERF_CAPABILITIES[11:8]) and their sizes. */
#define PEBS_FMT_CORE2	0	/* 144 B: RFLAGS, RIP, 16 GPRs */
#define PEBS_FMT_NHM	1	/* 176 B: + status, DLA, DSE, latency */
#define PEBS_FMT_HSW	2	/* 192 B: + EventingIP, TSX */
#define PEBS_FMT_SKL	3	/* 200 B: + TSC; 0x90 = applicable */
#define PEBS_FMT_ICL	4	/* adaptive (PERF_CAP bit 14): icl icx spr */
/* Adaptive, EPT-friendly (kernel pebs_ept): parts after Sapphire Rapids;
 * no profile here has it (SPR and EMR report format 4). */
#define PEBS_FMT_5	5
#define PEBS_REC_SIZE_FMT0	144
#define PEBS_REC_SIZE_FMT1	176
#define PEBS_REC_SIZE_FMT2	192
#define PEBS_REC_SIZE_FMT3	200

/* Adaptive PEBS group sizes (bytes) and MSR_PEBS_DATA_CFG bits. */
#define PEBS_ADAPT_BASIC_SIZE	32
#define PEBS_ADAPT_MEMINFO_SIZE	32
#define PEBS_ADAPT_GPR_SIZE	144
#define PEBS_ADAPT_XMM_SIZE	256
#define PEBS_ADAPT_LBR_ENTRY	24
#define PEBS_DATACFG_MEMINFO	0x1ull
#define PEBS_DATACFG_GPR	0x2ull
#define PEBS_DATACFG_XMM	0x4ull
#define PEBS_DATACFG_LBR	0x8ull
#define PEBS_DATACFG_LBR_SHIFT	24	/* 31:24 = LBR entries - 1 */

/* ------------------------------------------------------------- profiles */

/*
 * What an event's PEBS record carries in its data-source / latency fields,
 * i.e. how the raw field at 0xA0 (or MemInfo aux) must be read.
 */
enum pebs_uarch_kind {
	PEBS_EVK_OTHER = 0,	/* no memory information (dsrc all NA) */
	PEBS_EVK_LOAD_LATENCY,	/* load latency: source, latency */
	PEBS_EVK_PRECISE_STORE,	/* SNB/IVB precise store: store status */
	PEBS_EVK_DATALA_STORE,	/* HSW+ DataLA store: bit 0 = L1D hit */
	PEBS_EVK_STORE_LATENCY,	/* SPR store latency: load layout */
	PEBS_EVK_LOAD,		/* DataLA load: address only, op LOAD */
	PEBS_EVK_FRONTEND,	/* FRONTEND_RETIRED (MSR_PEBS_FRONTEND) */
	PEBS_EVK_COUNT
};

/*
 * Which data-source table and field layout a profile uses (see
 * formats/data-source.md for the full tables).
 */
enum pebs_udsrc_variant {
	PEBS_UDSRC_NONE = 0,	/* no data source: Core 2, GLM, GLP */
	PEBS_UDSRC_NHM,		/* NHM/WSM; STLB-miss and lock NA */
	PEBS_UDSRC_SNB,		/* SNB, IVB, HSW, BDW: default table */
	PEBS_UDSRC_SKL,		/* SKL client, ICL client: 8,9 = L4,
				 * B-D remote (kernel "skl" patch) */
	PEBS_UDSRC_SKX,		/* SKX, ICX: as SKL with PMEM for 8,9 */
	PEBS_UDSRC_GLC,		/* SPR (Golden Cove): SKX + bits 6/7 */
	PEBS_UDSRC_COUNT
};

/*
 * Profile feature bits (struct pebs_uarch.features):
 * LDLAT      load latency (MSR_PEBS_LD_LAT_THRESHOLD 0x3F6);
 * LL_EN      IA32_PEBS_ENABLE[32+x] is LL_EN_PMCx (PMU version < 5:
 *            NHM..SKX); without it bits 32+j enable PEBS on fixed
 *            counter j (PEBS_ALL parts);
 * PSTORE     precise store (SNB/IVB): PMC3 and PEBS_ENABLE[63] PS_EN;
 * DATALA     DataLA loads/stores, store status bit 0 (HSW+, GLM);
 * FRONTEND   MSR_PEBS_FRONTEND (0x3F7), FRONTEND_RETIRED (SKL+);
 * ADAPTIVE   MSR_PEBS_DATA_CFG (0x3F2) and adaptive record groups;
 * PEBS_ALL   PEBS on every GP and fixed counter;
 * FULL_WIDTH IA32_A_PMCx full-width writes expected (PERF_CAP[13] rules);
 * TRAP       PEBS is trap-like: the record's RIP is the next instruction;
 * EVENTING_IP the record has EventingIP (fmt >= 2, adaptive basic group);
 * TSX        the record has TSX tuning info;
 * TSC        the record has a TSC (fmt >= 3);
 * PDIR       precise distribution (kernel pebs_prec_dist): on big cores
 *            INST_RETIRED.PREC_DIST (PMC1, ICL+ fixed counter 0);
 * STLAT      store latency (SPR 0x02CD on PMC0);
 * BLOCK      data-source bits 6/7 (load blocked: data / address);
 * INS_LAT    MemInfo latency split: 15:0 instruction, 47:32 cache latency;
 * LDLAT_AUX  the load-latency event works only beside the auxiliary event
 *            0x8203 (event 0x03 umask 0x82) counting on another counter
 *            (Linux core.c PMU_FL_MEM_LOADS_AUX: SPR, EMR).
 */
#define PEBS_UF_LDLAT		0x0001u
#define PEBS_UF_LL_EN		0x0002u
#define PEBS_UF_PSTORE		0x0004u
#define PEBS_UF_DATALA		0x0008u
#define PEBS_UF_FRONTEND	0x0010u
#define PEBS_UF_ADAPTIVE	0x0020u
#define PEBS_UF_PEBS_ALL	0x0040u
#define PEBS_UF_FULL_WIDTH	0x0080u
#define PEBS_UF_TRAP		0x0100u
#define PEBS_UF_EVENTING_IP	0x0200u
#define PEBS_UF_TSX		0x0400u
#define PEBS_UF_TSC		0x0800u
#define PEBS_UF_PDIR		0x1000u
#define PEBS_UF_STLAT		0x2000u
#define PEBS_UF_BLOCK		0x4000u
#define PEBS_UF_INS_LAT		0x8000u
#define PEBS_UF_LDLAT_AUX	0x10000u

/* One built-in event of a profile. */
struct pebs_uarch_event {
	const char *name;	/* SDM name: MEM_TRANS_RETIRED.LOAD_LATENCY */
	uint8_t event;		/* IA32_PERFEVTSELx[7:0] */
	uint8_t umask;		/* IA32_PERFEVTSELx[15:8] */
	uint8_t kind;		/* enum pebs_uarch_kind */
	uint8_t precise;	/* 1: PEBS-capable (precise) here */
	/* Counters it may be sampled on (GLOBAL_STATUS layout); a
	 * fixed-counter event has only its fixed bit. */
	uint64_t counters;
};

/*
 * A microarchitecture profile.  All strings and arrays are static.  The
 * first event of each kind in events[] is the one the portable names map
 * to ("load-latency" -> first PEBS_EVK_LOAD_LATENCY event, "precise-store"
 * -> first PEBS_EVK_PRECISE_STORE, else first PEBS_EVK_DATALA_STORE).
 */
struct pebs_uarch {
	const char *name;	/* "skl": the cli-contract profile name */
	const char *desc;	/* one line: "Skylake client (...)" */
	unsigned family;	/* CPUID display family (6 for all here) */
	const uint8_t *models;	/* CPUID display models it covers */
	unsigned nmodels;
	unsigned pmu_version;	/* CPUID.0AH:EAX[7:0] */
	unsigned pebs_fmt;	/* PEBS_FMT_*: PERF_CAPABILITIES[11:8] */
	/* Bytes per record; 0 for adaptive formats (each record gives its
	 * own size). */
	unsigned rec_size;
	unsigned n_gp;		/* GP counters per logical CPU (HT on) */
	unsigned gp_width;	/* bits */
	unsigned n_fixed;	/* fixed counters */
	unsigned fixed_width;	/* bits */
	uint64_t pebs_counters;	/* counters that can do PEBS at all */
	uint64_t ldlat_counters; /* load-latency counters; 0 = none */
	/* Counters of the portable "precise-store" event (SNB/IVB precise
	 * store, else the first DataLA store event); 0 = none. */
	uint64_t store_counters;
	unsigned ldlat_min;	/* min LD_LAT_THRESHOLD (SDM: 3); 0 none */
	uint32_t features;	/* PEBS_UF_* */
	enum pebs_udsrc_variant dsrc;	/* data-source decoding variant */
	/* Built-in memory / front-end events. */
	const struct pebs_uarch_event *events;
	unsigned nevents;
	const char *notes;	/* missing facts / caveats, with sources */
};

/* Number of built-in profiles, and profile @i (NULL when out of range). */
unsigned pebs_uarch_count(void);
const struct pebs_uarch *pebs_uarch_get(unsigned i);

/* The profile named @name (case-insensitive, e.g. "skl"), or NULL. */
const struct pebs_uarch *pebs_uarch_by_name(const char *name);

/*
 * The profiles' names, separated by spaces ("core2 nhm ... spr"), into
 * @buf of @len bytes, cut to fit and always terminated (when @len > 0):
 * for messages that refuse an unknown name.  Returns @buf.
 */
char *pebs_uarch_names(char *buf, size_t len);

/*
 * The profile of CPUID display family @family and model @model (vendor not
 * checked), or NULL when no profile covers it.
 */
const struct pebs_uarch *pebs_uarch_by_model(unsigned family, unsigned model);

/*
 * Detection from values the caller read (CPUID leaf 0 vendor string, leaf 1
 * display family/model, and IA32_PERF_CAPABILITIES when @perf_cap_known).
 * Pure function.  On success stores the (static) profile in *@out and
 * returns 0.
 * Errors (message in @why, @whylen bytes, when non-NULL):
 *   -PEBS_E_UNSUPPORTED  not "GenuineIntel", or no profile for the model;
 *   -PEBS_E_UNSUPPORTED  PERF_CAPABILITIES[11:8] (record format) or bit 14
 *                        (adaptive baseline) contradicts the model's
 *                        profile (*@out is still set to the model's
 *                        profile so a caller may override).
 */
int pebs_uarch_detect(const char *vendor, unsigned family, unsigned model,
		      uint64_t perf_cap, int perf_cap_known,
		      const struct pebs_uarch **out, char *why, size_t whylen);

/*
 * Display family/model from CPUID.1:EAX (@eax): family = base + extended
 * when base is 0xF; model = base + (extended << 4) when family is 6 or 0xF.
 */
void pebs_uarch_cpuid_fms(uint32_t eax, unsigned *family, unsigned *model,
			  unsigned *stepping);

/* The event of @u named @name (SDM name, case-insensitive), or NULL. */
const struct pebs_uarch_event *
pebs_uarch_event_by_name(const struct pebs_uarch *u, const char *name);
/* The event of @u with event select @event and @umask, or NULL. */
const struct pebs_uarch_event *
pebs_uarch_event_by_code(const struct pebs_uarch *u, unsigned event,
			 unsigned umask);
/*
 * Counters @u allows PEBS on for event select @event with @umask under
 * the kernel's constraints that cover umasks or encodings its table does
 * not list, all ones when it has none.  Pure.  They are ds.c's whole-event
 * PEBS constraints (spr event 0xC0 INST_RETIRED.*, every umask, on
 * PMC1-7; icl and icx 0x01C0, the old INST_RETIRED.PREC_DIST, on fixed
 * counter 0 only) and, on the profiles that do PEBS on every counter,
 * core.c's main table, which holds the events ds.c does not list: on icl
 * and icx event codes 0x03-0x0A, 0x1F-0x28, 0x32, 0x48-0x54, 0x60-0x8B,
 * 0xA3 (but umasks 0x04, 0x10, 0x14), 0xA8-0xB0, 0xB7-0xBD, 0xD0-0xE6,
 * 0xEF and 0xF0-0xF4 on PMC0-3; on spr codes 0x01-0x8F but 0x2E and 0x3C,
 * 0x01A3, 0x02A3, 0x08A3 and 0xD0-0xDF on PMC0-3, 0x04A4, 0x08A4, 0x02CD
 * and 0xCE on PMC0 only.  They hold for counting these events too.
 */
uint64_t pebs_uarch_event_code_counters(const struct pebs_uarch *u,
					unsigned event, unsigned umask);
/* The first event of @u of kind @kind (the portable mapping), or NULL. */
const struct pebs_uarch_event *
pebs_uarch_event_by_kind(const struct pebs_uarch *u, enum pebs_uarch_kind k);

/* "load-latency", "precise-store", "datala-store", "store-latency",
 * "load", "frontend", "other"; "?" when out of range. */
const char *pebs_uarch_kind_name(enum pebs_uarch_kind k);
/* Parses a kind name back; returns the kind or -1. */
int pebs_uarch_kind_parse(const char *name);

/* "none", "nhm", "snb", "skl", "skx", "glc"; "?" when out of range. */
const char *pebs_udsrc_variant_name(enum pebs_udsrc_variant v);

/* Writes the name of counter-mask bit @bit ("PMC3", "FIXED0") into @buf
 * (@len bytes) and returns @buf. */
const char *pebs_uarch_counter_name(unsigned bit, char *buf, size_t len);
/* Parses "PMC3"/"pmc3"/"FIXED0"/"FIXED_CTR0" into a mask bit; -1 if bad. */
int pebs_uarch_counter_parse(const char *name);

/* ----------------------------------------------------------- data source */

/* op, lvl, snoop, lock and tlb all NA (the kernel's PERF_MEM_NA). */
#define PEBS_UDSRC_NA	0x05080021ull

/*
 * Converts the raw data-source / store-status bits @raw (record offset 0xA0
 * or the adaptive MemInfo aux field) of an event of kind @kind on a profile
 * using variant @v into the perf_mem_data_src layout.  Kinds without memory
 * information (OTHER, FRONTEND) give PEBS_UDSRC_NA (every field NA, as the
 * kernel's PERF_MEM_NA).  Never fails: reserved encodings give the
 * documented value.  Tables: formats/data-source.md.
 */
uint64_t pebs_udsrc_decode(enum pebs_udsrc_variant v,
			   enum pebs_uarch_kind kind, uint64_t raw);

/* ------------------------------------------------------ raw record decode */

/* Per-counter event assignment for attributing records. */
struct pebs_raw_event {
	const char *name;	/* sample event name; NULL = counter unused */
	uint8_t kind;		/* enum pebs_uarch_kind */
	/*
	 * PERFEVTSEL umask (15:8) and event (7:0), written as the metadata's
	 * events.N.evtsel; 0 = unknown (none written).  In what was padding:
	 * callers that fill the struct themselves and leave it 0 are as
	 * before.
	 */
	uint16_t evtsel;
};

/*
 * How the records were produced.  The raw DS buffer does not say which
 * events were programmed; the caller does.  Counter bits use the
 * GLOBAL_STATUS layout (GP x = bit x, fixed j = bit 32+j).
 */
struct pebs_raw_config {
	const struct pebs_uarch *uarch;	/* required */
	uint64_t pebs_enabled;	/* PEBS counters (GLOBAL_STATUS layout) */
	struct pebs_raw_event ev[64];	/* event per counter bit */
	uint64_t data_cfg;	/* MSR_PEBS_DATA_CFG, adaptive formats only */
	int data_cfg_known;	/* 1: every record's groups must match */
	uint32_t cpu, pid, tid;	/* copied into every sample */
	/*
	 * 1: the records' register snapshots are not kept (the samples get
	 * no PEBS_SF_REGS and zero registers), as a capture without
	 * --regs; 0 keeps them.
	 */
	int drop_regs;
	char namebuf[256];	/* names made by pebs_raw_config_default() */
};

/* Counters kept across calls of pebs_raw_decode() on one dump. */
struct pebs_raw_stats {
	uint64_t records;	/* complete records decoded */
	uint64_t samples;	/* samples produced */
	uint64_t offset;	/* bytes consumed (offset of the next record) */
	uint64_t collisions;	/* fmt 1-2: dropped, > 1 PEBS bit set */
	uint64_t unattributed;	/* dropped: no enabled counter */
	uint64_t unattributed_bits;	/* OR of their applicable values */
	uint64_t lost;		/* samples lost to collisions: one per
				 * colliding counter (perf_log_lost_samples) */
};

/*
 * Fills @cfg for a dump of profile @u.  @event is NULL (one event: the
 * profile's load-latency event, else its first precise event, on the
 * first counter it allows) or a ';'-separated list of EVENT[@COUNTER]:
 * EVENT is an SDM name of the profile's table, a portable name
 * ("load-latency", "precise-store", "store-latency", "frontend") or rHEX
 * (PERFEVTSEL bits: event 7:0, umask 15:8; looked up in the table, else
 * kind "other"); modifiers after ':' are ignored; COUNTER is "PMCx" or
 * "FIXEDj" (default: the first free counter the event allows).  Returns 0,
 * or -PEBS_E_INVAL (unknown event, counter not allowed or used twice;
 * message in @err).  Event names point into the profile's table or, for
 * rHEX events not in it, into cfg->namebuf.
 */
int pebs_raw_config_default(struct pebs_raw_config *cfg,
			    const struct pebs_uarch *u, const char *event,
			    char *err, size_t errlen);

/*
 * Size of the record at @buf (@len bytes available) for @cfg: the fixed
 * size of the format, or for adaptive formats the size the basic group
 * states in format_size[63:48], validated against the size implied by its
 * group bits and LBR count (and against cfg->data_cfg when known).
 * Returns 0 and *@size, or -PEBS_E_TRUNCATED (fewer bytes than the record
 * or its basic group), -PEBS_E_CORRUPT (inconsistent size/groups); message
 * in @err.
 */
int pebs_raw_record_size(const struct pebs_raw_config *cfg, const void *buf,
			 size_t len, size_t *size, char *err, size_t errlen);

/*
 * Decodes the single record at @buf (@len bytes available) into up to
 * @max samples at @out (one per attributed counter; event = the index of
 * the counter bit, see below).  *@nout = samples written, *@size = record
 * bytes.  For each sample out[i].event holds the counter bit (0..63) whose
 * cfg->ev[] names it; callers intern the name.  Returns 0 (also when the
 * record is dropped: *@nout = 0 and @st's collisions and lost, or
 * unattributed, incremented when @st is non-NULL), or a negative error as
 * pebs_raw_record_size(), or -PEBS_E_RANGE when @max is too small.
 */
int pebs_raw_decode_record(const struct pebs_raw_config *cfg,
			   const void *buf, size_t len,
			   struct pebs_sample *out, unsigned max,
			   unsigned *nout, size_t *size,
			   struct pebs_raw_stats *st, char *err, size_t errlen);

/*
 * Decodes the records of @buf (@len bytes, back to back from a record
 * boundary) and appends their samples to @b (event names interned).  Stops
 * early, returning 0, when @b has no room for the next record's samples:
 * then *@consumed < @len and the caller flushes @b and calls again with
 * the rest.  @st (required, zeroed by the caller before the first call)
 * accumulates counts and the dump offset used in messages.  On damaged
 * data returns a negative error with "record N at offset 0xOFF: WHY" in
 * @err; every complete record before it has been decoded and *@consumed is
 * the bad record's offset within @buf.
 */
int pebs_raw_decode(const struct pebs_raw_config *cfg, const void *buf,
		    size_t len, struct pebs_batch *b, size_t *consumed,
		    struct pebs_raw_stats *st, char *err, size_t errlen);

/* ------------------------------------------------------- dump reader */

/*
 * Streams raw DS-buffer dumps (files or "-" for stdin, read as if
 * concatenated) into batches, for pebs-decode --raw.  The reader copies
 * @cfg (names in cfg->namebuf follow the copy; other name pointers must
 * stay valid until close) and builds
 * metadata: source=raw, cpu.vendor, cpu.family, uarch, pebs.format,
 * time.unit (tsc when the format has a TSC), events.N.name/.evtsel
 * (when known)/.counter.
 */
struct pebs_raw_reader;

/*
 * Opens @n inputs @paths with @cfg.  Returns 0 and *@r, or -PEBS_E_NOMEM,
 * -PEBS_E_INVAL.  Files are opened lazily: an unreadable file is reported
 * by pebs_raw_reader_next().
 */
int pebs_raw_reader_open(struct pebs_raw_reader **r,
			 const char *const *paths, size_t n,
			 const struct pebs_raw_config *cfg);

/*
 * Next batch of samples (owned by @r, valid until the next call): returns
 * 1 and *@b, 0 at the end, or a negative error (-PEBS_E_IO for a file
 * that cannot be read, -PEBS_E_TRUNCATED/-PEBS_E_CORRUPT for damaged
 * data: every complete record before it has been returned) with
 * pebs_raw_reader_errmsg() / _errfile() saying what and where: the input
 * where the damaged record starts, with its offset in that input.  After
 * a damaged record the rest of the input cannot be framed: the following
 * call returns 0.  An input that starts as a .pebs stream or a perf.data
 * file is no dump: -PEBS_E_FORMAT, its bytes unread, and reading goes on
 * as after an unreadable file.  After an I/O error it goes on with the
 * next file; a
 * record begun before the unreadable file is dropped and reported
 * (-PEBS_E_TRUNCATED) by the next call, and the next file starts a record.
 */
int pebs_raw_reader_next(struct pebs_raw_reader *r, struct pebs_batch **b);

/*
 * For a live pipeline.  An input that is no regular file (a pipe, a FIFO,
 * a terminal) is read as it comes: pebs_raw_reader_next() returns the
 * samples decoded so far when such an input has nothing more to read at
 * once, and while it waits for more, calls @idle(@ctx) every 200 ms
 * that nothing came (the caller hands on its output there).  NULL: no
 * hook (the default).
 */
void pebs_raw_reader_set_idle(struct pebs_raw_reader *r,
			      void (*idle)(void *ctx), void *ctx);

/* Metadata described above (owned by @r). */
const struct pebs_meta *pebs_raw_reader_meta(const struct pebs_raw_reader *r);
/* Message and file name of the last error ("" when none; "standard
 * input" for -, as the .pebs reader says). */
const char *pebs_raw_reader_errmsg(const struct pebs_raw_reader *r);
const char *pebs_raw_reader_errfile(const struct pebs_raw_reader *r);
/* Decoding counters so far. */
void pebs_raw_reader_stats(const struct pebs_raw_reader *r,
			   struct pebs_raw_stats *st);
/* Closes all inputs and frees @r.  NULL is fine. */
void pebs_raw_reader_close(struct pebs_raw_reader *r);

#ifdef __cplusplus
}
#endif

#endif
