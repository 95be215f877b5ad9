/*
 * perfwrite.c - samples and metadata to a perf.data file (or a pipe-mode
 * stream) that Linux perf reads: perf script, perf mem report, perf c2c
 * report.  Layout and the metadata it uses: formats/perf-import.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "htab.h"
#include "pebs_perf.h"
#include "pebs_plan.h"
#include "pebs_sym.h"
#include "errbuf.h"
#include "meta_int.h"

#define ATTR_SIZE 128u		/* PERF_ATTR_SIZE_VER7 */
#define ID_BASE 1000u
#define MAX_EVENTS PEBS_PERF_MAX_EVENTS
#define MAX_PATH 4095u		/* longer paths are cut (PATH_MAX) */
#define MAX_NAME 4095u
#define KERNEL_DSO "[kernel.kallsyms]"
/* PHYS_ADDR is added when the input has physical addresses (fix_st()),
 * TRANSACTION when the metadata's events recorded it. */
#define DEFAULT_ST (PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP | \
	PEBS_PERF_S_TID | PEBS_PERF_S_TIME | PEBS_PERF_S_ADDR | \
	PEBS_PERF_S_ID | PEBS_PERF_S_CPU | PEBS_PERF_S_PERIOD | \
	PEBS_PERF_S_WEIGHT_STRUCT | PEBS_PERF_S_DATA_SRC)

struct buf {
	uint8_t *p;
	size_t n, cap;
	int swap;
	int oom;
};

struct wevent {
	char *name;		/* the samples' name; "" for none */
	uint32_t type;
	uint64_t config, config1;
	uint64_t period;	/* each sample's PERIOD, of the segment */
	uint64_t attr_period;	/* the attr's sample_period if !freq */
	uint64_t freq;		/* sample_freq; 0: a fixed period */
	unsigned precise;
	int wlat;		/* WEIGHT is `lat`, else `tsx` cycles */
};

/* A map an MMAP2 record gave perf (dead: a later one overlapped it). */
struct wmapst {
	int32_t pid;
	int live;
	uint64_t start, end, pgoff;
	char *path;
};

/* An entry of the build-id table (BUILD_ID feature). */
struct wbid {
	char *path;		/* [kernel.kallsyms] for the kernel's map */
	uint8_t id[20];
	uint8_t n;		/* bytes of id */
	int kernel;
};

struct pebs_perf_writer {
	FILE *fp;
	struct pebs_meta *meta;	/* the first segment's: header features */
	struct pebs_meta *seg;	/* the current segment's (meta for the first) */
	unsigned nseg;		/* segments begun */
	struct pebs_perf_writer_opts o;
	uint64_t st;		/* sample_type of every event */
	int st_fixed;		/* st final: a sample or attr is out */
	struct wevent *ev;
	size_t nev;
	size_t last_ev;
	int started;		/* pipe: header records written */
	struct buf out;		/* pending data records */
	uint64_t data_off, data_len;
	uint64_t nsamples;
	uint32_t max_cpu;
	uint64_t tsc_hz;	/* the segment's time.unit=tsc: convert to ns */
	int raw_clock;		/* the first segment's times written unchanged */
	uint64_t max_time;	/* latest time written (ns), for rounds */
	struct htab thr;	/* threads sampled in the segment: pid<<32|tid */
	struct htab comm;	/* pid << 32 | tid -> 1 + index of its COMM name */
	char **cname;		/* names COMM records gave */
	size_t ncname;
	struct wmapst *wm;	/* maps MMAP2 records gave */
	size_t nwm;
	struct wbid *bid;	/* the build-id table */
	size_t nbid;
	size_t bid_out;		/* pipe: entries already written in band */
	uint64_t flushed;	/* data_len at the last flush (writer_flush) */
	int err;
	int refused;		/* err is a refusal: the output so far is whole */
	char msg[512];
};

/* ------------------------------------------------------------ buffer */

static void b_grow(struct buf *b, size_t add)
{
	if (b->oom || b->n + add <= b->cap)
		return;
	size_t nc = b->cap ? b->cap : 4096;
	while (nc < b->n + add)
		nc *= 2;
	uint8_t *np = realloc(b->p, nc);
	if (!np) {
		b->oom = 1;
		return;
	}
	b->p = np;
	b->cap = nc;
}

static void b_put(struct buf *b, const void *p, size_t n)
{
	b_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_u16(struct buf *b, uint16_t v)
{
	if (b->swap)
		v = __builtin_bswap16(v);
	b_put(b, &v, 2);
}

static void b_u32(struct buf *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	b_put(b, &v, 4);
}

static void b_u64(struct buf *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	b_put(b, &v, 8);
}

static void b_zero(struct buf *b, size_t n)
{
	b_grow(b, n);
	if (b->oom)
		return;
	memset(b->p + b->n, 0, n);
	b->n += n;
}

/* Rewrites the u16 at @off (a record size known only at the end). */
static void b_set16(struct buf *b, size_t off, uint16_t v)
{
	if (b->oom)
		return;
	if (b->swap)
		v = __builtin_bswap16(v);
	memcpy(b->p + off, &v, 2);
}

/* A perf header string: u32 length (a multiple of 64), NUL-padded text. */
static void b_str(struct buf *b, const char *s)
{
	size_t l = strlen(s), al = (l + 1 + 63) & ~(size_t)63;
	b_u32(b, (uint32_t)al);
	b_put(b, s, l);
	b_zero(b, al - l);
}

/* The attr flag bitfield; on a big-endian writer bit order is reversed. */
static void b_flags(struct buf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		uint8_t c = (uint8_t)(v >> (8 * i)), x = c;
		if (b->swap) {
			x = 0;
			for (int j = 0; j < 8; j++)
				if (c & (1u << j))
					x |= (uint8_t)(0x80u >> j);
		}
		b_put(b, &x, 1);
	}
}

/* ------------------------------------------------------------ helpers */

static int vfail(struct pebs_perf_writer *w, int err, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));
static int vfail(struct pebs_perf_writer *w, int err, const char *fmt,
		 va_list ap)
{
	if (!w->err) {
		lib_verrf(w->msg, sizeof(w->msg), fmt, ap);
		w->err = err;
	}
	return -err;
}

static int fail(struct pebs_perf_writer *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct pebs_perf_writer *w, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(w, err, fmt, ap);
	va_end(ap);
	return -err;
}

/*
 * Fails the writer with PEBS_E_UNSUPPORTED for what one perf.data cannot
 * hold, called before anything of it is written: what was written before
 * is whole, and pebs_perf_writer_close() still finishes the file with it
 * (a header of zeros made the samples before unreadable too).
 */
static int refuse(struct pebs_perf_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse(struct pebs_perf_writer *w, const char *fmt, ...)
{
	if (!w->err)
		w->refused = 1;
	va_list ap;
	va_start(ap, fmt);
	vfail(w, PEBS_E_UNSUPPORTED, fmt, ap);
	va_end(ap);
	return -PEBS_E_UNSUPPORTED;
}

static const char *mget(const struct pebs_meta *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *mget(const struct pebs_meta *m, const char *fmt, ...)
{
	char k[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k, sizeof(k), fmt, ap);
	va_end(ap);
	return pebs_meta_get(m, k);
}

static uint64_t num(const char *s, uint64_t dflt)
{
	if (!s || !*s)
		return dflt;
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	return errno || *e ? dflt : v;
}

/* maps.N.* of the metadata, gathered in one pass. */
struct wmap {
	const char *pid, *start, *end, *pgoff, *path, *bid;
};

static struct wmap *collect_maps(const struct pebs_meta *meta, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	for (size_t i = 0; i < pebs_meta_count(meta); i++) {
		const char *k, *v;
		size_t idx;
		int end = 0;
		pebs_meta_entry(meta, i, &k, &v);
		if (sscanf(k, "maps.%zu.%n", &idx, &end) == 1 && end &&
		    idx < 1000000 && idx + 1 > cap)
			cap = idx + 1;
	}
	struct wmap *m = calloc(cap ? cap : 1, sizeof(*m));
	if (!m)
		return NULL;
	for (size_t i = 0; i < pebs_meta_count(meta); i++) {
		const char *k, *v, *f;
		size_t idx;
		int end = 0;
		pebs_meta_entry(meta, i, &k, &v);
		if (sscanf(k, "maps.%zu.%n", &idx, &end) != 1 || !end ||
		    idx >= cap)
			continue;
		f = k + end;
		if (!strcmp(f, "pid"))
			m[idx].pid = v;
		else if (!strcmp(f, "start"))
			m[idx].start = v;
		else if (!strcmp(f, "end"))
			m[idx].end = v;
		else if (!strcmp(f, "pgoff"))
			m[idx].pgoff = v;
		else if (!strcmp(f, "path"))
			m[idx].path = v;
		else if (!strcmp(f, "build_id"))
			m[idx].bid = v;
	}
	*n = cap;
	return m;
}

static int flush_out(struct pebs_perf_writer *w)
{
	if (w->out.oom)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	if (w->out.n && fwrite(w->out.p, 1, w->out.n, w->fp) != w->out.n)
		return fail(w, PEBS_E_IO, "write error: %s", strerror(errno));
	w->data_len += w->out.n;
	w->out.n = 0;
	return 0;
}

static size_t rec_begin(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->n;
	b_u32(b, type);
	b_u16(b, misc);
	b_u16(b, 0);
	return at;
}

static int rec_end(struct pebs_perf_writer *w, struct buf *b, size_t at)
{
	size_t n = b->n - at;
	if (n % 8)
		b_zero(b, 8 - n % 8);
	n = b->n - at;
	if (n > 65535)
		return fail(w, PEBS_E_RANGE, "record of %zu bytes", n);
	b_set16(b, at + 6, (uint16_t)n);
	return 0;
}

/* ------------------------------------------------------------ events */

static uint64_t ev_id(size_t i)
{
	return ID_BASE + i;
}

static uint64_t sample_type(const struct pebs_perf_writer *w)
{
	return w->st;
}

/*
 * The PERF_SAMPLE_* bits among @bits that the metadata says an event
 * recorded: the perf attributes of a perf.data import
 * (events.N.perf.sample_type).
 */
static uint64_t meta_st(const struct pebs_perf_writer *w, uint64_t bits)
{
	uint64_t st = 0;
	for (size_t i = 0; mget(w->meta, "events.%zu.name", i); i++)
		st |= num(mget(w->meta, "events.%zu.perf.sample_type", i), 0) &
		      bits;
	return st;
}

/*
 * Fixes the default sample_type before the first sample or attribute
 * goes out: PHYS_ADDR only when the input has physical addresses (@phys,
 * or the metadata at open), so that perf does not show phys_addr 0 for
 * every sample of an input that never had one.  A stream cannot change
 * it later: samples are written as they come, in the layout it gives,
 * and a pipe's attributes precede them.  So the decision rests on what is
 * known first: the metadata, and the first sample (or batch) added.
 * PHYS_ADDR is not part of the sample_id trailer that side records
 * written before this carry, so they stay valid whatever is decided.
 */
static void fix_st(struct pebs_perf_writer *w, int phys)
{
	if (w->st_fixed)
		return;
	if (phys)
		w->st |= PEBS_PERF_S_PHYS_ADDR;
	w->st_fixed = 1;
}

/* A physical address: flagged valid, or non-zero (0 means unknown). */
static int has_phys(const struct pebs_sample *s)
{
	return (s->flags & PEBS_SF_PHYS) || s->phys_addr;
}

static void put_attr(struct pebs_perf_writer *w, struct buf *b, size_t i)
{
	const struct wevent *e = &w->ev[i];
	uint64_t flags = (uint64_t)(e->precise & 3) << 15;
	flags |= 1ull << 18;				/* sample_id_all */
	if (e->freq)
		flags |= 1ull << 10;			/* freq */
	if (i == 0)	/* mmap comm task mmap_data mmap2 comm_exec */
		flags |= 1ull << 8 | 1ull << 9 | 1ull << 13 | 1ull << 17 |
			 1ull << 23 | 1ull << 24;
	size_t start = b->n;
	b_u32(b, e->type);
	b_u32(b, ATTR_SIZE);
	b_u64(b, e->config);
	b_u64(b, e->freq ? e->freq : e->attr_period);	/* a union */
	b_u64(b, sample_type(w));
	/* perf insists on PERF_FORMAT_ID when samples carry READ */
	b_u64(b, sample_type(w) & PEBS_PERF_S_READ ? 4 : 0);
	b_flags(b, flags);
	b_u32(b, 0);			/* wakeup_events */
	b_u32(b, 0);			/* bp_type */
	b_u64(b, e->config1);
	b_zero(b, ATTR_SIZE - (b->n - start));
}

/*
 * The perf attributes of event @name as segment metadata @m describes
 * it, into @e (name aside): from its events.N.* keys, else a raw event
 * with the segment's default period.  Returns 1 when @m lists the event,
 * 0 when these are the defaults.
 */
static int ev_attrs(const struct pebs_meta *m, const char *name,
		    struct wevent *e)
{
	const char *v;
	size_t mi;
	for (mi = 0; (v = mget(m, "events.%zu.name", mi)); mi++)
		if (strcmp(v, name) == 0)
			break;
	e->type = 4;		/* PERF_TYPE_RAW */
	e->config = e->config1 = e->freq = 0;
	e->precise = 2;
	e->period = num(pebs_meta_get(m, "period"), 1);
	if (!v)
		return 0;
	const char *t = mget(m, "events.%zu.perf.type", mi);
	if (t) {
		e->type = (uint32_t)num(t, 4);
		e->config = num(mget(m, "events.%zu.perf.config", mi), 0);
		e->config1 = num(mget(m, "events.%zu.perf.config1", mi), 0);
		e->precise = (unsigned)num(mget(m,
			"events.%zu.perf.precise_ip", mi), 2);
	} else {
		e->config = num(mget(m, "events.%zu.evtsel", mi), 0) & 0xffff;
		/* FRONTEND_RETIRED (either encoding: pebs_plan.h) carries
		 * its MSR_PEBS_FRONTEND value in config1, as perf's format
		 * "frontend" does; without it perf sees no selector */
		if (pebs_fe_evtsel_any(e->config))
			e->config1 = num(mget(m, "events.%zu.frontend", mi),
					 0);
		else
			e->config1 = num(mget(m, "events.%zu.ldlat", mi), 0);
	}
	e->period = num(mget(m, "events.%zu.period", mi), e->period);
	/*
	 * A frequency-mode event (a perf import): the kernel chose each
	 * sample's period and the .pebs has no column for it, so every
	 * sample gets the mean the import kept; totals (perf report's event
	 * count) stay right, single periods only when they were all equal.
	 * So does a member of a group read (period 0: it did not sample).
	 */
	e->freq = num(mget(m, "events.%zu.freq", mi), 0);
	uint64_t mean = num(mget(m, "events.%zu.perf.mean_period", mi), 0);
	if (mean && (e->freq || !e->period))
		e->period = mean;
	return 1;
}

static const char *cpuid_string(const struct pebs_perf_writer *w, char *buf,
				size_t len);

/* Declares event @name with the current segment's attributes. */
static int add_event(struct pebs_perf_writer *w, const char *name)
{
	/* the metadata's events were counted before (check_nevents()): this
	 * is a sample's, refused before anything of it is written */
	if (w->nev >= MAX_EVENTS)
		return refuse(w, "a sample of event \"%.256s\", a %uth event "
			      "name: one perf.data holds at most %u events "
			      "here; export them separately",
			      *name ? name : PEBS_PERF_ANON_EVENT,
			      MAX_EVENTS + 1, MAX_EVENTS);
	struct wevent *ne = realloc(w->ev, (w->nev + 1) * sizeof(*ne));
	if (!ne)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->ev = ne;
	struct wevent *e = &w->ev[w->nev];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	ev_attrs(w->seg, name, e);
	e->attr_period = e->period;
	/* as the import will read the CPUID feature written (w->meta's) */
	char tmp[128];
	e->wlat = pebs_perf_weight_is_lat(e->type, e->config, e->precise,
					  cpuid_string(w, tmp, sizeof(tmp)));
	w->nev++;
	return (int)(w->nev - 1);
}

/* The name perf gets for event @e (perf shows an empty one as ":"). */
static const char *perf_name(const struct wevent *e)
{
	return *e->name ? e->name : PEBS_PERF_ANON_EVENT;
}

/*
 * The event of samples named @name (NULL = ""), declared on first use.
 * Unnamed samples have their own event, apart from one really called
 * "pebs" (they were merged): with metadata attributes of its own, the
 * latter keeps its name through an import.
 */
static int find_event(struct pebs_perf_writer *w, const char *name)
{
	if (!name)
		name = "";
	if (w->last_ev < w->nev && strcmp(w->ev[w->last_ev].name, name) == 0)
		return (int)w->last_ev;
	for (size_t i = 0; i < w->nev; i++) {
		if (strcmp(w->ev[i].name, name) == 0) {
			w->last_ev = i;
			return (int)i;
		}
	}
	int k = add_event(w, name);
	if (k < 0)
		return k;
	w->last_ev = (size_t)k;
	if (w->started) {
		/*
		 * Pipe mode, header already out: perf takes an attribute
		 * in band at any point, and its name from an EVENT_UPDATE.
		 */
		struct buf *b = &w->out;
		size_t at = rec_begin(b, 64, 0);	/* HEADER_ATTR */
		put_attr(w, b, (size_t)k);
		b_u64(b, ev_id((size_t)k));
		if (rec_end(w, b, at) < 0)
			return -w->err;
		at = rec_begin(b, 78, 0);		/* EVENT_UPDATE */
		b_u64(b, 2);				/* NAME */
		b_u64(b, ev_id((size_t)k));
		name = perf_name(&w->ev[k]);
		b_put(b, name, strnlen(name, MAX_NAME));
		b_zero(b, 1);
		if (rec_end(w, b, at) < 0)
			return -w->err;
	}
	return k;
}

int pebs_perf_writer_event(struct pebs_perf_writer *w, const char *name)
{
	int k = find_event(w, name);
	return k < 0 ? k : 0;
}

/* ------------------------------------------------------------ records */

/* The sample_id trailer of non-sample records (sample_id_all). */
static void put_sample_id(struct pebs_perf_writer *w, struct buf *b,
			  uint32_t pid, uint32_t tid, uint64_t time,
			  uint32_t cpu)
{
	uint64_t st = sample_type(w);
	if (st & PEBS_PERF_S_TID) {
		b_u32(b, pid);
		b_u32(b, tid);
	}
	if (st & PEBS_PERF_S_TIME)
		b_u64(b, time);
	if (st & PEBS_PERF_S_ID)
		b_u64(b, ev_id(0));
	if (st & PEBS_PERF_S_STREAM_ID)
		b_u64(b, ev_id(0));
	if (st & PEBS_PERF_S_CPU) {
		b_u32(b, cpu);
		b_u32(b, 0);
	}
	if (st & PEBS_PERF_S_IDENTIFIER)
		b_u64(b, ev_id(0));
}

/* A COMM record: thread @tid of process @pid is named @name. */
static int put_comm(struct pebs_perf_writer *w, uint32_t pid, uint32_t tid,
		    const char *name, uint64_t time, uint32_t cpu)
{
	struct buf *b = &w->out;
	size_t at = rec_begin(b, 3, 0);
	b_u32(b, pid);
	b_u32(b, tid);
	b_put(b, name, strnlen(name, 255));	/* a kernel comm is 16 */
	b_zero(b, 1);
	b_zero(b, (8 - (b->n - at) % 8) % 8);
	put_sample_id(w, b, pid, tid, time, cpu);
	return rec_end(w, b, at) < 0 ? -w->err : 0;
}

/*
 * A COMM naming thread @tid of @pid @name, unless perf has that name for
 * it already (a segment before gave it: no duplicates, but a thread that
 * a segment in between named otherwise is named again).
 */
static int name_thread(struct pebs_perf_writer *w, uint32_t pid,
		       uint32_t tid, const char *name, uint64_t time,
		       uint32_t cpu)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	if (key == UINT64_MAX)		/* not a key of the table */
		return put_comm(w, pid, tid, name, time, cpu);
	uint64_t *v = ht_slot(&w->comm, key, 1);
	if (!v)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	if (*v && strcmp(w->cname[*v - 1], name) == 0)
		return 0;
	char **nc = realloc(w->cname, (w->ncname + 1) * sizeof(*nc));
	if (!nc)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->cname = nc;
	if (!(nc[w->ncname] = strdup(name)))
		return fail(w, PEBS_E_NOMEM, "out of memory");
	*v = ++w->ncname;
	return put_comm(w, pid, tid, name, time, cpu);
}

/*
 * First sample of thread @tid of @pid in the segment: when the segment's
 * metadata names its process (comm.PID) but not the thread (comm.PID.TID:
 * a capture knows only the threads alive when it looked, a sim capture
 * none), a COMM for it, at the sample's time, so that perf does not show
 * it as ":TID".
 */
static int thread_comm(struct pebs_perf_writer *w, uint32_t pid,
		       uint32_t tid, uint64_t time, uint32_t cpu)
{
	/* the main thread is named by its process's COMM */
	if (tid == pid)
		return 0;
	uint64_t *seen = ht_slot(&w->thr, (uint64_t)pid << 32 | tid, 1);
	if (!seen)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	if (*seen)
		return 0;
	*seen = 1;
	const char *name = mget(w->seg, "comm.%" PRIu32, pid);
	if (!name || mget(w->seg, "comm.%" PRIu32 ".%" PRIu32, pid, tid))
		return 0;
	return name_thread(w, pid, tid, name, time, cpu);
}

/*
 * Notes that an MMAP2 record gave @pid the map [@start, @end) of @path
 * at @pgoff; returns 1 when perf has it already (an identical record that
 * no later map overlapped), else 0 (the record is to be written), or a
 * negative error.  perf replaces what a new map overlaps, as the maps
 * overlapped here die.
 */
static int map_note(struct pebs_perf_writer *w, int32_t pid, uint64_t start,
		    uint64_t end, uint64_t pgoff, const char *path)
{
	for (size_t i = 0; i < w->nwm; i++) {
		const struct wmapst *m = &w->wm[i];
		if (m->live && m->pid == pid && m->start == start &&
		    m->end == end && m->pgoff == pgoff &&
		    strcmp(m->path, path) == 0)
			return 1;
	}
	for (size_t i = 0; i < w->nwm; i++) {
		struct wmapst *m = &w->wm[i];
		if (m->pid == pid && m->start < end && start < m->end)
			m->live = 0;
	}
	struct wmapst *nm = realloc(w->wm, (w->nwm + 1) * sizeof(*nm));
	if (!nm)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->wm = nm;
	nm += w->nwm;
	*nm = (struct wmapst){ .pid = pid, .live = 1, .start = start,
			       .end = end, .pgoff = pgoff,
			       .path = strdup(path) };
	if (!nm->path)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->nwm++;
	return 0;
}

/*
 * COMM and MMAP2 records for the processes and maps in the current
 * segment's metadata, those perf does not have already.
 */
static int put_side(struct pebs_perf_writer *w)
{
	struct buf *b = &w->out;
	for (size_t i = 0; i < pebs_meta_count(w->seg); i++) {
		const char *k, *v;
		pebs_meta_entry(w->seg, i, &k, &v);
		if (strncmp(k, "comm.", 5) != 0)
			continue;
		/* comm.PID names a process, comm.PID.TID one of its threads:
		 * without its own COMM, perf shows a thread as ":TID". */
		char *dot;
		errno = 0;
		uint32_t pid = (uint32_t)strtoul(k + 5, &dot, 10), tid = pid;
		if (*dot == '.')
			tid = (uint32_t)strtoul(dot + 1, &dot, 10);
		if (errno || *dot || dot == k + 5)
			continue;
		if (name_thread(w, pid, tid, v, 0, 0) < 0)
			return -w->err;
	}
	size_t nm;
	struct wmap *mp = collect_maps(w->seg, &nm);
	if (!mp)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	for (size_t i = 0; i < nm; i++) {
		const char *path = mp[i].path;
		if (!path)
			continue;
		/* The pid decimal, the others hex, as the symbolizer reads
		 * them, which leaves out a map of a value that does not parse
		 * (base 0 took 7f3a... as 7, a leading 0 as octal). */
		int32_t pid = 0;
		uint64_t start = 0, end = 0, pgoff = 0;
		if ((mp[i].pid && pebs_sym_map_pid(mp[i].pid, &pid)) ||
		    (mp[i].start && pebs_sym_map_num(mp[i].start, &start)) ||
		    (mp[i].end && pebs_sym_map_num(mp[i].end, &end)) ||
		    (mp[i].pgoff && pebs_sym_map_num(mp[i].pgoff, &pgoff)))
			continue;
		if (!mp[i].end)
			end = start;
		int kernel = pid == -1;
		int r = map_note(w, pid, start, end, pgoff, path);
		if (r < 0) {
			free(mp);
			return r;
		}
		if (r)
			continue;
		/* MMAP2: cpumode in misc (1 kernel, 2 user) */
		size_t at = rec_begin(b, 10, kernel ? 1 : 2);
		b_u32(b, (uint32_t)pid);
		b_u32(b, (uint32_t)pid);
		b_u64(b, start);
		b_u64(b, end > start ? end - start : 0);
		b_u64(b, pgoff);
		b_zero(b, 24);			/* maj, min, ino, ino_gen */
		b_u32(b, 5);			/* PROT_READ|PROT_EXEC */
		b_u32(b, 2);			/* MAP_PRIVATE */
		b_put(b, path, strnlen(path, MAX_PATH));
		b_zero(b, 1);
		b_zero(b, (8 - (b->n - at) % 8) % 8);
		put_sample_id(w, b, (uint32_t)pid, (uint32_t)pid, 0, 0);
		if (rec_end(w, b, at) < 0) {
			free(mp);
			return -w->err;
		}
	}
	free(mp);
	return 0;
}

/* ----------------------------------------------------------- features */

/* CPUs of the capture: metadata, or the highest cpu seen. */
static uint32_t nr_cpus(const struct pebs_perf_writer *w)
{
	uint64_t n = num(pebs_meta_get(w->meta, "topology.nr_cpus"), 0);
	if (n < (uint64_t)w->max_cpu + 1)
		n = (uint64_t)w->max_cpu + 1;
	return n > PEBS_PERF_MAX_CPUS ? PEBS_PERF_MAX_CPUS : (uint32_t)n;
}

static void feat_string(struct buf *b, const char *s)
{
	b_str(b, s ? s : "");
}

#define MAX_NODES 1024u

static void feat_numa(struct pebs_perf_writer *w, struct buf *b)
{
	/* topology.node.N.cpus, in one pass over the metadata */
	const char *cpus[MAX_NODES] = { 0 };
	uint32_t n = 0;
	for (size_t i = 0; i < pebs_meta_count(w->meta); i++) {
		const char *k, *v;
		unsigned node;
		int end = 0;
		pebs_meta_entry(w->meta, i, &k, &v);
		if (sscanf(k, "topology.node.%u.cpus%n", &node, &end) == 1 &&
		    !k[end] && node < MAX_NODES) {
			n += !cpus[node];
			cpus[node] = v;
		}
	}
	if (!n) {
		char all[32];
		snprintf(all, sizeof(all), "0-%u", nr_cpus(w) - 1);
		b_u32(b, 1);
		b_u32(b, 0);
		b_u64(b, 0);
		b_u64(b, 0);
		b_str(b, all);
		return;
	}
	b_u32(b, n);
	for (uint32_t node = 0; node < MAX_NODES; node++) {
		if (!cpus[node])
			continue;
		b_u32(b, node);
		b_u64(b, 0);		/* mem_total: unknown */
		b_u64(b, 0);		/* mem_free */
		b_str(b, cpus[node]);
	}
}

/*
 * Socket of every cpu from topology.cpu.N.socket (one pass over the
 * metadata: a lookup per cpu would be quadratic).  Caller frees.
 */
static uint32_t *sockets(const struct pebs_perf_writer *w, uint32_t n)
{
	uint32_t *sock = calloc(n ? n : 1, sizeof(*sock));
	if (!sock)
		return NULL;
	for (size_t i = 0; i < pebs_meta_count(w->meta); i++) {
		const char *k, *v;
		unsigned cpu;
		int end = 0;
		pebs_meta_entry(w->meta, i, &k, &v);
		if (sscanf(k, "topology.cpu.%u.socket%n", &cpu, &end) == 1 &&
		    !k[end] && cpu < n)
			sock[cpu] = (uint32_t)num(v, 0);
	}
	return sock;
}

static void feat_cpu_topology(struct pebs_perf_writer *w, struct buf *b)
{
	uint32_t n = nr_cpus(w), nsock = 1;
	uint32_t *sock = sockets(w, n);
	if (!sock) {
		b->oom = 1;
		return;
	}
	for (uint32_t c = 0; c < n; c++)
		if (sock[c] >= nsock && sock[c] < 1024)
			nsock = sock[c] + 1;
	/* core siblings: the cpus of each socket, as cpu lists */
	size_t cap = (size_t)n * 12 + 2;
	char *list = malloc(cap);
	if (!list) {
		free(sock);
		b->oom = 1;
		return;
	}
	b_u32(b, nsock);
	for (uint32_t s = 0; s < nsock; s++) {
		size_t o = 0;
		list[0] = 0;
		for (uint32_t c = 0; c < n; c++)
			if (sock[c] == s)
				o += (size_t)snprintf(list + o, cap - o,
						      "%s%u", o ? "," : "", c);
		b_str(b, list);
	}
	/* thread siblings: unknown, each cpu alone */
	b_u32(b, n);
	for (uint32_t c = 0; c < n; c++) {
		char one[16];
		snprintf(one, sizeof(one), "%u", c);
		b_str(b, one);
	}
	for (uint32_t c = 0; c < n; c++) {
		b_u32(b, c);			/* core_id */
		b_u32(b, sock[c]);		/* socket_id */
	}
	/*
	 * Dies: one per socket.  perf reads this part whenever the feature
	 * is longer than what came before, which a pipe record's padding
	 * makes it: so it must always be there.
	 */
	b_u32(b, nsock);
	for (uint32_t s = 0; s < nsock; s++) {
		size_t o = 0;
		list[0] = 0;
		for (uint32_t c = 0; c < n; c++)
			if (sock[c] == s)
				o += (size_t)snprintf(list + o, cap - o,
						      "%s%u", o ? "," : "", c);
		b_str(b, list);
	}
	for (uint32_t c = 0; c < n; c++)
		b_u32(b, sock[c] < nsock ? sock[c] : 0);	/* die_id */
	free(list);
	free(sock);
}

static void feat_event_desc(struct pebs_perf_writer *w, struct buf *b)
{
	b_u32(b, (uint32_t)w->nev);
	b_u32(b, ATTR_SIZE);
	for (size_t i = 0; i < w->nev; i++) {
		put_attr(w, b, i);
		b_u32(b, 1);
		b_str(b, perf_name(&w->ev[i]));
		b_u64(b, ev_id(i));
	}
}

/* Whether build-id table entries @a and @b are the same. */
static int bid_same(const struct wbid *a, const struct wbid *b)
{
	return a->kernel == b->kernel && a->n == b->n &&
	       memcmp(a->id, b->id, a->n) == 0 && strcmp(a->path, b->path) == 0;
}

/*
 * Appends to *@list (*@n entries) the build-id table entries of the maps
 * of segment metadata @m that have a build_id, each once.  0 or
 * -PEBS_E_NOMEM.
 */
static int collect_bids(const struct pebs_meta *m, struct wbid **list,
			size_t *n)
{
	size_t nm;
	struct wmap *mp = collect_maps(m, &nm);
	if (!mp)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < nm; i++) {
		const char *path = mp[i].path, *hex = mp[i].bid;
		if (!path || !hex)
			continue;
		struct wbid e = { .path = NULL };
		for (; e.n < 20 && hex[2 * e.n] && hex[2 * e.n + 1]; e.n++) {
			unsigned x;
			if (sscanf(hex + 2 * e.n, "%2x", &x) != 1)
				break;
			e.id[e.n] = (uint8_t)x;
		}
		/*
		 * The kernel's maps (modules too) are pid -1, as for the
		 * MMAP2 records: not a path in brackets, since [vdso] is a
		 * process's map.  perf 6.1 marks the dso of a kernel entry
		 * as the kernel's, and a process's MMAP2 of that dso then
		 * gets a map without the room of a kernel map, which perf
		 * writes 8 bytes past (heap corruption, "free(): invalid
		 * next size" in perf script and perf mem report).
		 */
		int32_t pid = 0;
		e.kernel = mp[i].pid && !pebs_sym_map_pid(mp[i].pid, &pid) &&
			   pid == -1;
		/*
		 * perf names the kernel's dso [kernel.kallsyms], not as its
		 * map ([kernel.kallsyms]_text): a build-id under the map's
		 * name would not reach it, and perf would then take the
		 * symbols of the kernel it runs on.
		 */
		if (e.kernel &&
		    strncmp(path, KERNEL_DSO, strlen(KERNEL_DSO)) == 0)
			path = KERNEL_DSO;
		e.path = (char *)path;
		size_t k = 0;
		while (k < *n && !bid_same(&(*list)[k], &e))
			k++;
		if (k < *n)		/* a map of the same object */
			continue;
		struct wbid *nl = realloc(*list, (*n + 1) * sizeof(*nl));
		if (!nl) {
			free(mp);
			return -PEBS_E_NOMEM;
		}
		*list = nl;
		if (!(e.path = strdup(path))) {
			free(mp);
			return -PEBS_E_NOMEM;
		}
		nl[(*n)++] = e;
	}
	free(mp);
	return 0;
}

static void free_bids(struct wbid *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i].path);
	free(list);
}

/*
 * Build-id records of the table's entries from @from on: the BUILD_ID
 * feature of a file, or (@type 67, HEADER_BUILD_ID) in-band records of a
 * pipe, where perf does not take the feature form.
 */
static void feat_build_id(struct pebs_perf_writer *w, struct buf *b,
			  uint32_t type, size_t from)
{
	for (size_t i = from; i < w->nbid; i++) {
		const struct wbid *e = &w->bid[i];
		size_t l = strlen(e->path), al = (l + 1 + 63) & ~(size_t)63;
		b_u32(b, type);
		b_u16(b, (uint16_t)((e->kernel ? 1 : 2) | 1u << 15));
		b_u16(b, (uint16_t)(8 + 4 + 24 + al));
		b_u32(b, (uint32_t)-1);		/* host machine */
		b_put(b, e->id, 20);
		uint8_t sz[4] = { e->n, 0, 0, 0 };
		b_put(b, sz, 4);
		b_put(b, e->path, l);
		b_zero(b, al - l);
	}
}

static const char *cpuid_string(const struct pebs_perf_writer *w, char *buf,
				size_t len)
{
	const char *c = pebs_meta_get(w->meta, "perf.cpuid");
	if (c)
		return c;
	const char *v = pebs_meta_get(w->meta, "cpu.vendor");
	const char *f = pebs_meta_get(w->meta, "cpu.family");
	const char *m = pebs_meta_get(w->meta, "cpu.model");
	const char *s = pebs_meta_get(w->meta, "cpu.stepping");
	if (!f || !m)
		return NULL;
	snprintf(buf, len, "%s,%s,%s,%s", v ? v : "GenuineIntel", f, m,
		 s ? s : "0");
	return buf;
}

/* Builds feature @id into @b; returns 1 when the file should have it. */
static int feature(struct pebs_perf_writer *w, unsigned id, struct buf *b)
{
	char tmp[128];
	const char *s;
	switch (id) {
	case 2:		/* BUILD_ID */
		feat_build_id(w, b, 0, 0);
		return b->n > 0;
	case 3:
		feat_string(b, pebs_meta_get(w->meta, "host"));
		return 1;
	case 4:
		feat_string(b, pebs_meta_get(w->meta, "os.release"));
		return 1;
	case 5:
		s = pebs_meta_get(w->meta, "perf.version");
		feat_string(b, s ? s : "pebs-tools " PEBS_VERSION_STRING);
		return 1;
	case 6:
		s = pebs_meta_get(w->meta, "perf.arch");
		feat_string(b, s ? s : "x86_64");
		return 1;
	case 7:		/* NRCPUS: available, online */
		b_u32(b, nr_cpus(w));
		b_u32(b, nr_cpus(w));
		return 1;
	case 8:
		s = pebs_meta_get(w->meta, "cpu.name");
		if (!s)
			return 0;
		feat_string(b, s);
		return 1;
	case 9:
		s = cpuid_string(w, tmp, sizeof(tmp));
		if (!s)
			return 0;
		feat_string(b, s);
		return 1;
	case 11:	/* CMDLINE: one string */
		b_u32(b, 1);
		feat_string(b, pebs_meta_get(w->meta, "cmdline"));
		return 1;
	case 12:
		feat_event_desc(w, b);
		return 1;
	case 13:
		feat_cpu_topology(w, b);
		return 1;
	case 14:
		feat_numa(w, b);
		return 1;
	default:
		return 0;
	}
}

static const unsigned feat_ids[] = { 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14 };
#define NFEAT (sizeof(feat_ids) / sizeof(feat_ids[0]))

/* ---------------------------------------------------------- pipe mode */

/* EVENT_UPDATE (NAME) records: event names without the EVENT_DESC. */
static int names_in_band(struct pebs_perf_writer *w)
{
	struct buf *b = &w->out;
	for (size_t i = 0; i < w->nev; i++) {
		size_t at = rec_begin(b, 78, 0);
		b_u64(b, 2);
		b_u64(b, ev_id(i));
		const char *name = perf_name(&w->ev[i]);
		b_put(b, name, strnlen(name, MAX_NAME));
		b_zero(b, 1);
		if (rec_end(w, b, at) < 0)
			return -w->err;
	}
	return 0;
}

static int pipe_start(struct pebs_perf_writer *w)
{
	struct buf *b = &w->out;
	fix_st(w, 0);
	if (w->nev == 0 && find_event(w, NULL) < 0)
		return -w->err;
	for (size_t i = 0; i < w->nev; i++) {
		size_t at = rec_begin(b, 64, 0);	/* HEADER_ATTR */
		put_attr(w, b, i);
		b_u64(b, ev_id(i));
		if (rec_end(w, b, at) < 0)
			return -w->err;
	}
	feat_build_id(w, b, 67, 0);
	w->bid_out = w->nbid;
	for (size_t k = 0; k < NFEAT; k++) {
		struct buf f = { .swap = w->o.big_endian };
		int ok = feat_ids[k] != 2 && feature(w, feat_ids[k], &f);
		if (f.oom) {
			free(f.p);
			return fail(w, PEBS_E_NOMEM, "out of memory");
		}
		/*
		 * A record holds at most 64 KiB: a bigger feature is left
		 * out, and event names then go as EVENT_UPDATE records.
		 */
		if (ok && f.n + 16 > 65535) {
			ok = 0;
			if (feat_ids[k] == 12 && names_in_band(w) < 0) {
				free(f.p);
				return -w->err;
			}
		}
		if (ok) {
			size_t at = rec_begin(b, 80, 0); /* HEADER_FEATURE */
			b_u64(b, feat_ids[k]);
			b_put(b, f.p, f.n);
			if (rec_end(w, b, at) < 0) {
				free(f.p);
				return -w->err;
			}
		}
		free(f.p);
	}
	w->started = 1;
	return put_side(w);
}

/* --------------------------------------------------------- segments */

/*
 * The clock of segment metadata @m: 1 when its times can go on perf's
 * time base, nanoseconds (time.unit ns; or tsc with a tsc.hz, *@hz, to
 * convert them by), else 0: they are written unchanged.
 */
static int seg_clock(const struct pebs_meta *m, uint64_t *hz)
{
	const char *unit = pebs_meta_get(m, "time.unit");
	*hz = 0;
	if (unit && strcmp(unit, "ns") == 0)
		return 1;
	if (unit && strcmp(unit, "tsc") == 0)
		*hz = meta_tsc_hz(m, NULL);
	return *hz != 0;
}

/* The clock of segment metadata @m, for messages. */
static const char *clock_desc(const struct pebs_meta *m, char *buf,
			      size_t len)
{
	const char *unit = pebs_meta_get(m, "time.unit");
	uint64_t hz;
	if (seg_clock(m, &hz))
		snprintf(buf, len, hz ? "TSC ticks at %" PRIu64 " Hz" :
			 "nanoseconds", hz);
	else if (!unit)
		snprintf(buf, len, "an unknown unit (no time.unit)");
	else if (strcmp(unit, "tsc") == 0)
		snprintf(buf, len, "TSC ticks of unknown rate (no tsc.hz)");
	else
		snprintf(buf, len, "time.unit \"%.32s\"", unit);
	return buf;
}

/*
 * Whether the times of segment metadata @m can share the file with those
 * written before: both on the ns base, or both written unchanged in the
 * same unit.  Fails the writer with PEBS_E_UNSUPPORTED if not.
 */
static int check_clock(struct pebs_perf_writer *w, const struct pebs_meta *m)
{
	uint64_t hz;
	int ok = seg_clock(m, &hz);
	if (!w->raw_clock && ok)
		return 0;
	const char *u0 = pebs_meta_get(w->meta, "time.unit");
	const char *u1 = pebs_meta_get(m, "time.unit");
	if (w->raw_clock && !ok && (u0 && u1 ? strcmp(u0, u1) == 0 : u0 == u1))
		return 0;
	char here[64], before[64];
	return refuse(w, "times in %s, but in %s before it: a perf.data "
		      "has one time base, nanoseconds, and times of unknown "
		      "rate cannot be converted to it; export them "
		      "separately", clock_desc(m, here, sizeof(here)),
		      clock_desc(w->meta, before, sizeof(before)));
}

/* "type T config C config1 C1 precise P [freq F]" of @e, for messages. */
static const char *attr_desc(const struct wevent *e, char *buf, size_t len)
{
	int n = snprintf(buf, len, "type %" PRIu32 " config %#" PRIx64
			 " config1 %#" PRIx64 " precise %u", e->type,
			 e->config, e->config1, e->precise);
	if (e->freq && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " freq %" PRIu64, e->freq);
	return buf;
}

/*
 * Whether the events segment metadata @m describes have the attributes
 * of the events of those names declared before (perf.data has one
 * attribute per event; the period may differ: each sample has its own).
 * Fails the writer with PEBS_E_UNSUPPORTED if not.
 */
static int check_events(struct pebs_perf_writer *w,
			const struct pebs_meta *m)
{
	const char *name;
	for (size_t i = 0; (name = mget(m, "events.%zu.name", i)); i++) {
		for (size_t k = 0; k < w->nev; k++) {
			const struct wevent *e = &w->ev[k];
			struct wevent n;
			if (strcmp(e->name, name) != 0)
				continue;
			ev_attrs(m, name, &n);
			if (n.type == e->type && n.config == e->config &&
			    n.config1 == e->config1 &&
			    n.precise == e->precise && n.freq == e->freq)
				break;
			char here[96], before[96];
			return refuse(w, "event \"%s\" has %s, in the "
				      "inputs before it %s: a perf.data has "
				      "one attribute per event name; export "
				      "them separately", perf_name(e),
				      attr_desc(&n, here, sizeof(here)),
				      attr_desc(e, before, sizeof(before)));
		}
	}
	return 0;
}

/*
 * Whether the events segment metadata @m names fit in the event table
 * with those declared before.  Fails the writer with PEBS_E_UNSUPPORTED
 * if not.
 */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_nevents(struct pebs_perf_writer *w,
			 const struct pebs_meta *m)
{
	size_t n = 0, add = 0;
	while (mget(m, "events.%zu.name", n))
		n++;
	if (w->nev + n <= MAX_EVENTS)
		return 0;
	/* the names not declared yet, each once (sorted: dupes adjacent) */
	const char **v = malloc(n * sizeof(*v));
	if (!v)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		v[i] = mget(m, "events.%zu.name", i);
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n && w->nev + add <= MAX_EVENTS; i++) {
		size_t k = 0;
		while (k < w->nev && strcmp(w->ev[k].name, v[i]) != 0)
			k++;
		if (k == w->nev && (!i || strcmp(v[i - 1], v[i]) != 0))
			add++;
	}
	free(v);
	if (w->nev + add <= MAX_EVENTS)
		return 0;
	if (!w->nev)
		return refuse(w, "the metadata declares %zu events: one "
			      "perf.data holds at most %u here; export them "
			      "separately", n, MAX_EVENTS);
	return refuse(w, "the metadata declares %zu events, with the %zu "
		      "before more than the %u that one perf.data holds "
		      "here; export them separately", n, w->nev, MAX_EVENTS);
}

/*
 * Moves the build-ids of @list (@n entries, freed) that the table lacks
 * into it; an object of the table with another build-id fails the writer
 * with PEBS_E_UNSUPPORTED (perf keeps one per path).
 */
static int merge_bids(struct pebs_perf_writer *w, struct wbid *list,
		      size_t n)
{
	size_t keep = 0;
	for (size_t i = 0; i < n; i++) {
		struct wbid *e = &list[i];
		size_t k = 0;
		while (k < w->nbid && (w->bid[k].kernel != e->kernel ||
				       strcmp(w->bid[k].path, e->path)))
			k++;
		if (k == w->nbid) {
			list[keep++] = *e;
			continue;
		}
		if (!bid_same(&w->bid[k], e)) {
			char here[41], before[41];
			for (unsigned j = 0; j < 20; j++) {
				snprintf(here + 2 * j, 3, "%02x", e->id[j]);
				snprintf(before + 2 * j, 3, "%02x",
					 w->bid[k].id[j]);
			}
			here[2 * e->n] = before[2 * w->bid[k].n] = '\0';
			refuse(w, "%s has build-id %s, in the inputs before "
			       "it %s: a perf.data has one build-id per "
			       "object; export them separately", e->path,
			       here, before);
			/* list[keep, i) were moved or freed */
			for (size_t j = 0; j < n; j++)
				if (j < keep || j >= i)
					free(list[j].path);
			free(list);
			return -w->err;
		}
		free(e->path);
	}
	/* nothing new: realloc(p, 0) would free the table (glibc) */
	if (!keep) {
		free(list);
		return 0;
	}
	struct wbid *nb = realloc(w->bid, (w->nbid + keep) * sizeof(*nb));
	if (!nb) {
		free_bids(list, keep);
		return fail(w, PEBS_E_NOMEM, "out of memory");
	}
	w->bid = nb;
	memcpy(w->bid + w->nbid, list, keep * sizeof(*list));
	w->nbid += keep;
	free(list);
	return 0;
}

/* ------------------------------------------------------------ public */

int pebs_perf_writer_open(struct pebs_perf_writer **wp, FILE *fp,
			  const struct pebs_meta *meta,
			  const struct pebs_perf_writer_opts *opts)
{
	struct pebs_perf_writer *w = calloc(1, sizeof(*w));
	*wp = w;
	if (!w)
		return -PEBS_E_NOMEM;
	w->fp = fp;
	if (opts)
		w->o = *opts;
	if (!w->o.round)
		w->o.round = 4096;
	w->out.swap = w->o.big_endian;
	w->meta = pebs_meta_new();
	if (!w->meta || (meta && pebs_meta_copy(w->meta, meta) < 0))
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->seg = w->meta;
	w->nseg = 1;
	w->raw_clock = !seg_clock(w->meta, &w->tsc_hz);
	if (collect_bids(w->meta, &w->bid, &w->nbid) < 0)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	w->st = w->o.sample_type ? w->o.sample_type : DEFAULT_ST;
	w->st_fixed = w->o.sample_type != 0;
	if (!w->st_fixed)	/* an import's physical addresses and TSX */
		w->st |= meta_st(w, PEBS_PERF_S_PHYS_ADDR |
				    PEBS_PERF_S_TRANSACTION);
	uint64_t st = sample_type(w);
	if ((st & PEBS_PERF_S_WEIGHT) && (st & PEBS_PERF_S_WEIGHT_STRUCT))
		return fail(w, PEBS_E_INVAL, "WEIGHT and WEIGHT_STRUCT are "
			    "exclusive");
	struct stat sb;
	int fd = fileno(fp);
	if (!w->o.pipe && (fd < 0 || fstat(fd, &sb) < 0 ||
			   !S_ISREG(sb.st_mode)))
		w->o.pipe = 1;
	struct buf *b = &w->out;
	uint64_t magic = 0x32454c4946524550ull;	/* "PERFILE2" */
	b_u64(b, magic);
	if (w->o.pipe) {
		b_u64(b, 16);
		w->data_off = 0;
		if (flush_out(w) < 0)
			return -w->err;
	} else {
		/* file mode: a placeholder header, rewritten by close */
		b_zero(b, 96);
		long pos = ftell(fp);
		if (pos < 0)
			return fail(w, PEBS_E_IO, "cannot tell position: %s",
				    strerror(errno));
		w->data_off = (uint64_t)pos + 104;
		if (flush_out(w) < 0)
			return -w->err;
		w->data_len = 0;
		w->started = 0;
		if (put_side(w) < 0)
			return -w->err;
	}
	/*
	 * Declare the metadata's events first, in order; after the start of
	 * the file, so that close can finish it when they are refused.
	 */
	if (check_nevents(w, w->meta) < 0)
		return -w->err;
	const char *name;
	for (size_t i = 0; (name = mget(w->meta, "events.%zu.name", i)); i++)
		if (find_event(w, name) < 0)
			return -w->err;
	return 0;
}

int pebs_perf_writer_segment(struct pebs_perf_writer *w,
			     const struct pebs_meta *meta)
{
	if (w->err)
		return -w->err;
	struct pebs_meta *m = pebs_meta_new();
	struct wbid *bl = NULL;
	size_t nbl = 0;
	if (!m || (meta && pebs_meta_copy(m, meta) < 0) ||
	    collect_bids(m, &bl, &nbl) < 0) {
		pebs_meta_free(m);
		free_bids(bl, nbl);
		return fail(w, PEBS_E_NOMEM, "out of memory");
	}
	/*
	 * What one perf.data cannot hold is refused before anything of the
	 * segment is written; a pipe's header goes out first, with the side
	 * records of the segment before (its attributes are the metadata's).
	 */
	if (check_clock(w, m) < 0 || check_events(w, m) < 0 ||
	    check_nevents(w, m) < 0) {
		free_bids(bl, nbl);	/* merge_bids() would have taken them */
		pebs_meta_free(m);
		return -w->err;
	}
	if (merge_bids(w, bl, nbl) < 0 ||
	    (w->o.pipe && !w->started && pipe_start(w) < 0)) {
		pebs_meta_free(m);
		return -w->err;
	}
	struct buf *b = &w->out;
	if (w->o.pipe && w->bid_out < w->nbid) {
		feat_build_id(w, b, 67, w->bid_out);
		w->bid_out = w->nbid;
	}
	/*
	 * perf delivers side records of time 0 as it reads them, and queues
	 * samples to sort them: two rounds make it process every sample of
	 * the segment before first, so that the new COMMs and maps do not
	 * apply to them.  The new segment's times start over.
	 */
	for (int k = 0; k < 2; k++) {
		size_t r = rec_begin(b, 68, 0);		/* FINISHED_ROUND */
		rec_end(w, b, r);
	}
	w->max_time = 0;
	if (w->seg != w->meta)
		pebs_meta_free(w->seg);
	w->seg = m;
	w->nseg++;
	seg_clock(m, &w->tsc_hz);
	ht_free(&w->thr);
	memset(&w->thr, 0, sizeof(w->thr));
	/* each sample carries the period of its own segment */
	for (size_t k = 0; k < w->nev; k++) {
		struct wevent n;
		ev_attrs(m, w->ev[k].name, &n);
		w->ev[k].period = n.period;
	}
	const char *name;
	for (size_t i = 0; (name = mget(m, "events.%zu.name", i)); i++)
		if (find_event(w, name) < 0)
			return -w->err;
	if (put_side(w) < 0)
		return -w->err;
	return b->oom ? fail(w, PEBS_E_NOMEM, "out of memory") : 0;
}

/*
 * Time @t of the segment's clock in ns, into *@ns: ticks exactly (integer
 * arithmetic, rounded down).  perf's times are 64-bit ns: a later time
 * (ticks of a slow clock near 2^64) is refused, not wrapped to an early
 * one; @what says whose time it is, for the message.
 */
static int to_ns(struct pebs_perf_writer *w, uint64_t t, uint64_t *ns,
		 const char *what)
{
	if (!w->tsc_hz) {
		*ns = t;
		return 0;
	}
	unsigned __int128 v = (unsigned __int128)t * 1000000000u / w->tsc_hz;
	if (v > UINT64_MAX)
		return refuse(w, "%s at %" PRIu64 " TSC ticks of %" PRIu64
			      " Hz: 2^64 ns or later, which the 64-bit times "
			      "of perf.data cannot hold", what, t, w->tsc_hz);
	*ns = (uint64_t)v;
	return 0;
}

/*
 * The WEIGHT or WEIGHT_STRUCT (per @st) of sample @s of event @e, the
 * inverse of the import's reading (pebs_perf_weight_is_lat()).  The weight
 * structure: var1_dw (u32) the latency, or of a non-latency event the TSX
 * weight, cycles of the last transaction (`tsx` bits 31:0), as the kernel
 * writes it; var2_w (u16) the instruction latency, which the kernel gives
 * every event; var3_w (u16) unused.  An instruction latency that does not
 * fit 16 bits is saturated: masking it made 65536 read 0, a short latency
 * instead of a very long one.  s->lat is a u32, as var1_dw is: it always
 * fits, and as a WEIGHT (u64) there is nothing to clamp.
 */
static uint64_t weight(const struct wevent *e, const struct pebs_sample *s,
		       uint64_t st)
{
	uint64_t v1 = e->wlat ? s->lat : (uint32_t)s->tsx;
	uint64_t ins = s->ins_lat > UINT16_MAX ? UINT16_MAX : s->ins_lat;
	return st & PEBS_PERF_S_WEIGHT_STRUCT ? v1 | ins << 32 : v1;
}

/*
 * perf's cpumode (header.misc bits 0-2) is not stored in a .pebs: the
 * canonical upper half of the x86-64 address space is the kernel's (perf
 * resolves such an ip in [kernel.kallsyms] only with KERNEL), the rest
 * user.  EXACT_IP (bit 14) is what PEBS_SF_EVENTING_IP records: a perf
 * import sets the flag from it, a PEBS decoder for an EventingIP, the
 * case in which the kernel sets the bit.
 */
static uint16_t sample_misc(const struct pebs_sample *s)
{
	uint16_t m = s->ip >= 0xffff800000000000ull ? 1 : 2;
	if (s->flags & PEBS_SF_EVENTING_IP)
		m |= 1u << 14;
	return m;
}

/*
 * perf sorts the records between two FINISHED_ROUNDs by time, so a record
 * older than one written before it would move.  The order samples come in
 * is the order to keep (an import's: perf's own order of the original), so
 * everything perf holds is flushed first: a round releases what is older
 * than the previous round's newest record, a second one then the rest.
 * perf counts such records "out of order", as it did for the original.
 * A record of time 0 or 2^64-1 ns perf does not queue at all
 * (ordered_events__queue()): it is delivered as it is read, so it too
 * comes after a flush of everything held, and counts for no round.
 */
static void keep_order(struct pebs_perf_writer *w, uint64_t t)
{
	if (!(sample_type(w) & PEBS_PERF_S_TIME) || w->o.reorder)
		return;
	if (t < w->max_time || (t == UINT64_MAX && w->max_time)) {
		for (int k = 0; k < 2; k++) {
			size_t r = rec_begin(&w->out, 68, 0);
			rec_end(w, &w->out, r);
		}
	}
	if (t > w->max_time && t != UINT64_MAX)
		w->max_time = t;
}

int pebs_perf_writer_add(struct pebs_perf_writer *w,
			 const struct pebs_sample *s, const char *event)
{
	if (w->err)
		return -w->err;
	fix_st(w, has_phys(s));
	/* what may refuse the sample first, the event before the pipe's
	 * header records (they then declare it) */
	uint64_t t = 0;	/* set unless refused */
	if (to_ns(w, s->time, &t, "a sample") < 0)
		return -w->err;
	int k = find_event(w, event);
	if (k < 0)
		return k;
	if (w->o.pipe && !w->started && pipe_start(w) < 0)
		return -w->err;
	const struct wevent *e = &w->ev[k];
	uint64_t st = sample_type(w), id = ev_id((size_t)k);
	struct buf *b = &w->out;
	/* before keep_order(): perf then takes the COMM with the records it
	 * holds (not counted out of order), and the sample after it */
	if ((st & PEBS_PERF_S_TID) &&
	    thread_comm(w, s->pid, s->tid, t, s->cpu) < 0)
		return -w->err;
	keep_order(w, t);
	size_t at = rec_begin(b, 9, sample_misc(s));
	if (st & PEBS_PERF_S_IDENTIFIER)
		b_u64(b, id);
	if (st & PEBS_PERF_S_IP)
		b_u64(b, s->ip);
	if (st & PEBS_PERF_S_TID) {
		b_u32(b, s->pid);
		b_u32(b, s->tid);
	}
	if (st & PEBS_PERF_S_TIME)
		b_u64(b, t);
	if (st & PEBS_PERF_S_ADDR)
		b_u64(b, s->addr);
	if (st & PEBS_PERF_S_ID)
		b_u64(b, id);
	if (st & PEBS_PERF_S_STREAM_ID)
		b_u64(b, id);
	if (st & PEBS_PERF_S_CPU) {
		b_u32(b, s->cpu);
		b_u32(b, 0);
	}
	if (st & PEBS_PERF_S_PERIOD)
		b_u64(b, e->period);
	if (st & PEBS_PERF_S_READ) {
		b_u64(b, 0);		/* read_format ID: value, id */
		b_u64(b, id);
	}
	if (st & PEBS_PERF_S_CALLCHAIN)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_RAW) {
		b_u32(b, 4);		/* u32 size + data stay 8-aligned */
		b_u32(b, 0);
	}
	if (st & PEBS_PERF_S_BRANCH_STACK)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_REGS_USER)
		b_u64(b, 0);		/* abi NONE: no registers */
	if (st & PEBS_PERF_S_STACK_USER)
		b_u64(b, 0);
	if (st & (PEBS_PERF_S_WEIGHT | PEBS_PERF_S_WEIGHT_STRUCT))
		b_u64(b, weight(e, s, st));
	if (st & PEBS_PERF_S_DATA_SRC)
		b_u64(b, s->dsrc);
	if (st & PEBS_PERF_S_TRANSACTION)	/* the kernel's, from tuning */
		b_u64(b, pebs_perf_txn_from_tuning(s->tsx,
						   s->regs[PEBS_REG_RAX]));
	if (st & PEBS_PERF_S_REGS_INTR)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_PHYS_ADDR)
		b_u64(b, s->phys_addr);
	if (st & PEBS_PERF_S_CGROUP)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_DATA_PAGE_SIZE)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_CODE_PAGE_SIZE)
		b_u64(b, 0);
	if (st & PEBS_PERF_S_AUX)
		b_u64(b, 0);
	if (rec_end(w, b, at) < 0)
		return -w->err;
	if (s->cpu > w->max_cpu && s->cpu < PEBS_PERF_MAX_CPUS)
		w->max_cpu = s->cpu;
	if (++w->nsamples % w->o.round == 0) {
		size_t r = rec_begin(b, 68, 0);		/* FINISHED_ROUND */
		rec_end(w, b, r);
	}
	if (b->n >= 1u << 16)
		return flush_out(w);
	return b->oom ? fail(w, PEBS_E_NOMEM, "out of memory") : 0;
}

int pebs_perf_writer_add_batch(struct pebs_perf_writer *w,
			       const struct pebs_batch *b)
{
	/* The whole first batch decides PHYS_ADDR, not only its first row. */
	if (!w->st_fixed && !w->err) {
		const uint32_t *fl = b->c32[PEBS_COL_FLAGS];
		const uint64_t *pa = b->c64[PEBS_COL_PHYS_ADDR];
		int phys = 0;
		for (size_t i = 0; i < b->n && !phys; i++)
			phys = (fl[i] & PEBS_SF_PHYS) || pa[i];
		if (b->n)
			fix_st(w, phys);
	}
	struct pebs_sample s;
	for (size_t i = 0; i < b->n; i++) {
		pebs_batch_get(b, i, &s);
		int r = pebs_perf_writer_add(w, &s, pebs_batch_event(b, i));
		if (r < 0)
			return r;
	}
	return 0;
}

int pebs_perf_writer_lost(struct pebs_perf_writer *w, uint32_t cpu,
			  uint64_t time, uint64_t count)
{
	if (w->err)
		return -w->err;
	fix_st(w, 0);
	uint64_t t = 0;	/* set unless refused */
	if (to_ns(w, time, &t, "lost samples") < 0)
		return -w->err;
	if (w->o.pipe && !w->started && pipe_start(w) < 0)
		return -w->err;
	if (!w->nev && find_event(w, NULL) < 0)
		return -w->err;
	struct buf *b = &w->out;
	keep_order(w, t);
	size_t at = rec_begin(b, 13, 0);	/* LOST_SAMPLES */
	b_u64(b, count);
	put_sample_id(w, b, 0, 0, t, cpu);
	return rec_end(w, b, at);
}

/* File mode: features after the data, then attrs, then the header. */
static int finish_file(struct pebs_perf_writer *w)
{
	struct buf *b = &w->out;
	fix_st(w, 0);
	if (!w->nev && find_event(w, NULL) < 0)
		return -w->err;
	/*
	 * A data size of 0 is perf's mark of a file never finished (readers
	 * then take what follows for records): no samples and no side
	 * records, or all refused, still get one record, a round.
	 */
	if (!w->data_len && !b->n) {
		size_t r = rec_begin(b, 68, 0);		/* FINISHED_ROUND */
		rec_end(w, b, r);
	}
	if (flush_out(w) < 0)
		return -w->err;
	uint64_t pos = w->data_off + w->data_len;
	/* feature table, then payloads */
	struct buf f[NFEAT];
	int have[NFEAT];
	size_t nf = 0;
	uint64_t bits[4] = { 0 };
	for (size_t k = 0; k < NFEAT; k++) {
		memset(&f[k], 0, sizeof(f[k]));
		f[k].swap = w->o.big_endian;
		have[k] = feature(w, feat_ids[k], &f[k]);
		if (f[k].oom) {
			/* a feature left out would pass for one the input
			 * had not */
			for (size_t j = 0; j <= k; j++)
				free(f[j].p);
			return fail(w, PEBS_E_NOMEM, "out of memory");
		}
		if (have[k]) {
			nf++;
			bits[feat_ids[k] / 64] |= 1ull << (feat_ids[k] % 64);
		}
	}
	uint64_t off = pos + 16 * nf;
	for (size_t k = 0; k < NFEAT; k++) {
		if (!have[k])
			continue;
		b_u64(b, off);
		b_u64(b, f[k].n);
		off += f[k].n;
	}
	for (size_t k = 0; k < NFEAT; k++) {
		if (have[k])
			b_put(b, f[k].p, f[k].n);
		free(f[k].p);
	}
	/* id arrays, then the attr section */
	uint64_t ids_off = off;
	for (size_t i = 0; i < w->nev; i++)
		b_u64(b, ev_id(i));
	uint64_t attrs_off = ids_off + 8 * w->nev;
	for (size_t i = 0; i < w->nev; i++) {
		put_attr(w, b, i);
		b_u64(b, ids_off + 8 * i);
		b_u64(b, 8);
	}
	uint64_t attrs_len = (uint64_t)w->nev * (ATTR_SIZE + 16);
	uint64_t data_len = w->data_len;
	if (flush_out(w) < 0)
		return -w->err;
	/* the header */
	b_u64(b, 0x32454c4946524550ull);
	b_u64(b, 104);
	b_u64(b, ATTR_SIZE + 16);
	b_u64(b, attrs_off);
	b_u64(b, attrs_len);
	b_u64(b, w->data_off);
	b_u64(b, data_len);
	b_u64(b, 0);			/* event_types: unused */
	b_u64(b, 0);
	for (int i = 0; i < 4; i++)
		b_u64(b, bits[i]);
	if (b->oom)
		return fail(w, PEBS_E_NOMEM, "out of memory");
	if (fseek(w->fp, (long)(w->data_off - 104), SEEK_SET) < 0 ||
	    fwrite(b->p, 1, b->n, w->fp) != b->n ||
	    fseek(w->fp, 0, SEEK_END) < 0)
		return fail(w, PEBS_E_IO, "cannot rewrite the header: %s",
			    strerror(errno));
	b->n = 0;
	return 0;
}

int pebs_perf_writer_flush(struct pebs_perf_writer *w)
{
	if (!w)
		return -PEBS_E_INVAL;
	if (w->err)
		return -w->err;
	/* a file is read once finished: nothing to hand on before */
	if (!w->o.pipe || !w->started)
		return 0;
	if (w->data_len + w->out.n != w->flushed) {
		/*
		 * perf queues samples to sort them by time until a round:
		 * two release all it holds (pebs_perf_writer_segment()).
		 * Only when something came since the last flush, so that a
		 * long stall adds nothing.
		 */
		for (int k = 0; k < 2; k++) {
			size_t r = rec_begin(&w->out, 68, 0); /* FINISHED_ROUND */
			rec_end(w, &w->out, r);
		}
		if (flush_out(w) < 0)
			return -w->err;
		w->flushed = w->data_len;
	}
	if (fflush(w->fp) == EOF)
		return fail(w, PEBS_E_IO, "write error: %s", strerror(errno));
	return 0;
}

int pebs_perf_writer_close(struct pebs_perf_writer *w, char *err,
			   size_t errlen)
{
	if (!w)
		return -PEBS_E_INVAL;
	/*
	 * A refusal came before anything of what it refused: the rest is
	 * finished as without it.  An error in finishing is the one to
	 * report then (the file is not whole); else the refusal.
	 */
	int refused = w->refused ? w->err : 0;
	char msg[sizeof(w->msg)];
	if (refused) {
		memcpy(msg, w->msg, sizeof(msg));
		w->err = 0;
	}
	if (!w->err) {
		if (w->o.pipe) {
			if (!w->started)
				pipe_start(w);
			flush_out(w);
		} else {
			finish_file(w);
		}
		if (!w->err && fflush(w->fp) == EOF)
			fail(w, PEBS_E_IO, "write error: %s", strerror(errno));
	}
	if (refused && !w->err) {
		w->err = refused;
		memcpy(w->msg, msg, sizeof(msg));
	}
	int e = w->err;
	if (err && errlen)
		snprintf(err, errlen, "%s", w->msg);
	for (size_t i = 0; i < w->nev; i++)
		free(w->ev[i].name);
	free(w->ev);
	free(w->out.p);
	ht_free(&w->thr);
	ht_free(&w->comm);
	for (size_t i = 0; i < w->ncname; i++)
		free(w->cname[i]);
	free(w->cname);
	for (size_t i = 0; i < w->nwm; i++)
		free(w->wm[i].path);
	free(w->wm);
	free_bids(w->bid, w->nbid);
	if (w->seg != w->meta)
		pebs_meta_free(w->seg);
	pebs_meta_free(w->meta);
	free(w);
	return -e;
}

const char *pebs_perf_writer_errmsg(const struct pebs_perf_writer *w)
{
	return w->msg;
}
