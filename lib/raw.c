/*
 * raw.c - decoding of raw PEBS records, exactly as the hardware writes
 * them into the DS buffer, into struct pebs_sample.
 *
 * Normative description: formats/raw-records.md.  Layouts: SDM Vol. 3B
 * tables 18-21/18-23 (fmt 0/1), 18-44 (fmt 2), 18-55 (fmt 3), and the
 * adaptive groups of fmt 4/5 (pebs-facts.md section 3).  Attribution of
 * records to counters follows the kernel's drain_pebs_core / drain_pebs_nhm
 * / drain_pebs_icl (pebs-facts.md section 7).
 *
 * Every read is bounds-checked against the bytes the caller handed in; a
 * record is decoded only when all of it is present.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "pebs_perf.h"
#include "pebs_uarch.h"
#include "errbuf.h"

#define MAX_SAMPLES_PER_RECORD	64

/* Standard input in messages, as the .pebs reader names it. */
static const char STDIN_NAME[] = "standard input";

/* Little-endian u64 at @p + @off (the caller checked the bounds). */
static uint64_t rd64(const unsigned char *p, size_t off)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[off + (size_t)i];
	return v;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	lib_verrf(err, errlen, fmt, ap);
	va_end(ap);
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

static size_t fixed_size(unsigned fmt)
{
	switch (fmt) {
	case PEBS_FMT_CORE2: return PEBS_REC_SIZE_FMT0;
	case PEBS_FMT_NHM: return PEBS_REC_SIZE_FMT1;
	case PEBS_FMT_HSW: return PEBS_REC_SIZE_FMT2;
	case PEBS_FMT_SKL: return PEBS_REC_SIZE_FMT3;
	default: return 0;
	}
}

static int is_adaptive(const struct pebs_uarch *u)
{
	return u->pebs_fmt == PEBS_FMT_ICL || u->pebs_fmt == PEBS_FMT_5;
}

/* Size implied by the group bits and LBR count of @fs (format_size). */
static size_t implied_size(uint64_t fs)
{
	size_t sz = PEBS_ADAPT_BASIC_SIZE;

	if (fs & PEBS_DATACFG_MEMINFO)
		sz += PEBS_ADAPT_MEMINFO_SIZE;
	if (fs & PEBS_DATACFG_GPR)
		sz += PEBS_ADAPT_GPR_SIZE;
	if (fs & PEBS_DATACFG_XMM)
		sz += PEBS_ADAPT_XMM_SIZE;
	if (fs & PEBS_DATACFG_LBR)
		sz += (((fs >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1) *
		      PEBS_ADAPT_LBR_ENTRY;
	return sz;
}

/* Group bits 23:4 are not defined for formats 4 and 5. */
#define ADAPT_UNKNOWN_GROUPS	0x00fffff0ull

int pebs_raw_record_size(const struct pebs_raw_config *cfg, const void *buf,
			 size_t len, size_t *size, char *err, size_t errlen)
{
	const struct pebs_uarch *u;
	uint64_t fs;
	size_t sz, want;

	if (!cfg || !cfg->uarch || (!buf && len) || !size) {
		set_err(err, errlen, "bad arguments");
		return -PEBS_E_INVAL;
	}
	u = cfg->uarch;
	if (!is_adaptive(u)) {
		sz = fixed_size(u->pebs_fmt);
		if (!sz) {
			set_err(err, errlen, "PEBS record format %u unknown",
				u->pebs_fmt);
			return -PEBS_E_UNSUPPORTED;
		}
		if (len < sz) {
			set_err(err, errlen,
				"truncated: %zu of %zu bytes (format %u)",
				len, sz, u->pebs_fmt);
			return -PEBS_E_TRUNCATED;
		}
		*size = sz;
		return 0;
	}
	if (len < PEBS_ADAPT_BASIC_SIZE) {
		set_err(err, errlen,
			"truncated: %zu of %d bytes of the basic group",
			len, PEBS_ADAPT_BASIC_SIZE);
		return -PEBS_E_TRUNCATED;
	}
	fs = rd64(buf, 0);
	sz = (size_t)(fs >> 48);
	if (fs & ADAPT_UNKNOWN_GROUPS) {
		set_err(err, errlen,
			"format_size 0x%016llx has undefined group bits "
			"0x%llx", (unsigned long long)fs,
			(unsigned long long)(fs & ADAPT_UNKNOWN_GROUPS));
		return -PEBS_E_CORRUPT;
	}
	want = implied_size(fs);
	if (sz != want) {
		set_err(err, errlen,
			"record size field %zu but groups 0x%llx imply %zu "
			"bytes", sz, (unsigned long long)(fs & 0xf), want);
		return -PEBS_E_CORRUPT;
	}
	if (cfg->data_cfg_known) {
		uint64_t cfgmask = 0xf;

		if (fs & PEBS_DATACFG_LBR)
			cfgmask |= 0xffull << PEBS_DATACFG_LBR_SHIFT;
		if ((fs & cfgmask) != (cfg->data_cfg & cfgmask) ||
		    implied_size(cfg->data_cfg) != sz) {
			set_err(err, errlen,
				"record groups 0x%llx (size %zu) differ "
				"from PEBS_DATA_CFG 0x%llx (size %zu)",
				(unsigned long long)(fs & 0xff00000full), sz,
				(unsigned long long)cfg->data_cfg,
				implied_size(cfg->data_cfg));
			return -PEBS_E_CORRUPT;
		}
	}
	if (len < sz) {
		set_err(err, errlen, "truncated: %zu of %zu bytes", len, sz);
		return -PEBS_E_TRUNCATED;
	}
	*size = sz;
	return 0;
}

/* Fields of one record before attribution. */
struct rec {
	struct pebs_sample s;	/* common part of every sample */
	uint64_t status;	/* GLOBAL_STATUS / applicable counters */
	uint64_t dse;		/* raw data source */
	uint64_t lat;		/* raw latency field */
	int has_mem;		/* dse/lat/addr present */
};

static void decode_fixed(const struct pebs_uarch *u, const unsigned char *p,
			 struct rec *r)
{
	unsigned fmt = u->pebs_fmt;

	/* 0x00..0x88 hold RFLAGS, RIP, RAX..RSP, R8..R15: pebs_reg order. */
	for (int i = 0; i < PEBS_REG_COUNT; i++)
		r->s.regs[i] = rd64(p, 8 * (size_t)i);
	r->s.flags |= PEBS_SF_REGS;
	r->s.ip = r->s.regs[PEBS_REG_RIP];
	if (fmt >= PEBS_FMT_NHM) {
		r->status = rd64(p, 0x90);
		r->s.addr = rd64(p, 0x98);
		r->dse = rd64(p, 0xa0);
		r->lat = rd64(p, 0xa8);
		r->has_mem = 1;
	}
	if (fmt >= PEBS_FMT_HSW) {
		r->s.ip = rd64(p, 0xb0);
		r->s.flags |= PEBS_SF_EVENTING_IP;
		r->s.tsx = rd64(p, 0xb8);
	}
	if (fmt >= PEBS_FMT_SKL) {
		r->s.time = rd64(p, 0xc0);
		r->s.flags |= PEBS_SF_TSC;
	}
}

/* Adaptive GPR group order -> enum pebs_reg. */
static const uint8_t gpr_order[PEBS_REG_COUNT] = {
	PEBS_REG_RFLAGS, PEBS_REG_RIP, PEBS_REG_RAX, PEBS_REG_RCX,
	PEBS_REG_RDX, PEBS_REG_RBX, PEBS_REG_RSP, PEBS_REG_RBP,
	PEBS_REG_RSI, PEBS_REG_RDI, PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10,
	PEBS_REG_R11, PEBS_REG_R12, PEBS_REG_R13, PEBS_REG_R14,
	PEBS_REG_R15,
};

/* @p holds a whole record whose size pebs_raw_record_size() checked. */
static void decode_adaptive(const unsigned char *p, struct rec *r)
{
	uint64_t fs = rd64(p, 0);
	size_t off = PEBS_ADAPT_BASIC_SIZE;

	r->s.ip = rd64(p, 0x08);
	r->s.flags |= PEBS_SF_EVENTING_IP | PEBS_SF_TSC;
	r->status = rd64(p, 0x10);
	r->s.time = rd64(p, 0x18);
	if (fs & PEBS_DATACFG_MEMINFO) {
		r->s.addr = rd64(p, off);
		r->dse = rd64(p, off + 0x08);
		r->lat = rd64(p, off + 0x10);
		r->s.tsx = rd64(p, off + 0x18);
		r->has_mem = 1;
		off += PEBS_ADAPT_MEMINFO_SIZE;
	}
	if (fs & PEBS_DATACFG_GPR) {
		for (int i = 0; i < PEBS_REG_COUNT; i++)
			r->s.regs[gpr_order[i]] = rd64(p, off + 8 * (size_t)i);
		r->s.flags |= PEBS_SF_REGS;
	}
	/* XMM and LBR groups have no place in struct pebs_sample. */
}

/* Counters of @cfg the record @r is attributed to; 0 = dropped. */
static uint64_t attribute(const struct pebs_raw_config *cfg,
			  const struct rec *r, int *collision)
{
	const struct pebs_uarch *u = cfg->uarch;
	uint64_t enabled = cfg->pebs_enabled & u->pebs_counters;
	uint64_t st;

	*collision = 0;
	if (u->pebs_fmt == PEBS_FMT_CORE2)
		return enabled & 1;	/* drain_pebs_core: PMC0 only */
	st = r->status & enabled;
	if (u->pebs_fmt >= PEBS_FMT_SKL)
		return st;		/* exact: one sample per bit */
	/*
	 * fmt 1-2: a zero status with a single PEBS counter belongs to it
	 * (PEBS racing the clearing of GLOBAL_STATUS); more than one PEBS
	 * bit is a collision and the record is dropped (drain_pebs_nhm).
	 */
	if (!st && popcount64(enabled) == 1)
		st = enabled;
	if (popcount64(st) > 1) {
		*collision = popcount64(st);
		return 0;
	}
	return st;
}

static int decode_one(const struct pebs_raw_config *cfg, const void *buf,
		      size_t len, struct pebs_sample *out, unsigned max,
		      unsigned *nout, size_t *size, int *collision,
		      uint64_t *status, char *err, size_t errlen)
{
	const struct pebs_uarch *u;
	struct rec r;
	uint64_t bits;
	unsigned n = 0;
	int rc;

	*nout = 0;
	rc = pebs_raw_record_size(cfg, buf, len, size, err, errlen);
	if (rc)
		return rc;
	u = cfg->uarch;
	memset(&r, 0, sizeof(r));
	r.s.cpu = cfg->cpu;
	r.s.pid = cfg->pid;
	r.s.tid = cfg->tid;
	r.s.fmt = u->pebs_fmt;
	if (is_adaptive(u))
		decode_adaptive(buf, &r);
	else
		decode_fixed(u, buf, &r);
	if (cfg->drop_regs && (r.s.flags & PEBS_SF_REGS)) {
		memset(r.s.regs, 0, sizeof(r.s.regs));
		r.s.flags &= ~PEBS_SF_REGS;
	}
	r.s.applicable = r.status;
	r.s.raw_dse = r.dse;
	*status = r.status;

	bits = attribute(cfg, &r, collision);
	if ((unsigned)popcount64(bits) > max) {
		set_err(err, errlen, "%d samples do not fit in %u",
			popcount64(bits), max);
		return -PEBS_E_RANGE;
	}
	for (unsigned bit = 0; bit < 64; bit++) {
		struct pebs_sample *s;
		unsigned kind;

		if (!(bits >> bit & 1))
			continue;
		s = &out[n++];
		*s = r.s;
		s->event = bit;
		kind = cfg->ev[bit].kind;
		/*
		 * Without memory fields (fmt 0, adaptive without MemInfo)
		 * nothing but the operation is known: variant NONE.
		 */
		s->dsrc = pebs_udsrc_decode(r.has_mem ? u->dsrc :
					    PEBS_UDSRC_NONE, kind, r.dse);
		if (!r.has_mem)
			continue;
		if (u->features & PEBS_UF_INS_LAT) {
			/* 15:0 instruction latency, 47:32 cache latency. */
			s->ins_lat = (uint32_t)(r.lat & 0xffff);
			if (kind == PEBS_EVK_LOAD_LATENCY ||
			    kind == PEBS_EVK_STORE_LATENCY)
				s->lat = (uint32_t)((r.lat >> 32) & 0xffff);
		} else if (kind == PEBS_EVK_LOAD_LATENCY ||
			   kind == PEBS_EVK_STORE_LATENCY) {
			/* Only the low 32 bits are valid (ds.c, ICL). */
			s->lat = (uint32_t)r.lat;
		}
	}
	*nout = n;
	return 0;
}

static void count(struct pebs_raw_stats *st, unsigned n, size_t size,
		  int collision, uint64_t status)
{
	st->records++;
	st->samples += n;
	st->offset += size;
	if (collision) {
		st->collisions++;
		st->lost += (uint64_t)collision;
	} else if (!n) {
		st->unattributed++;
		st->unattributed_bits |= status;
	}
}

int pebs_raw_decode_record(const struct pebs_raw_config *cfg,
			   const void *buf, size_t len,
			   struct pebs_sample *out, unsigned max,
			   unsigned *nout, size_t *size,
			   struct pebs_raw_stats *st, char *err, size_t errlen)
{
	int collision = 0, rc;
	uint64_t status = 0;

	if (!out || !nout || !size) {
		set_err(err, errlen, "bad arguments");
		return -PEBS_E_INVAL;
	}
	rc = decode_one(cfg, buf, len, out, max, nout, size, &collision,
			&status, err, errlen);
	if (rc || !st)
		return rc;
	count(st, *nout, *size, collision, status);
	return 0;
}

/*
 * pebs_raw_decode() without the checks, with only WHY in @why on damage
 * (the callers say where: the dump offset, or the reader's file offset).
 */
static int decode_run(const struct pebs_raw_config *cfg, const void *buf,
		      size_t len, struct pebs_batch *b, size_t *consumed,
		      struct pebs_raw_stats *st, char *err, size_t errlen,
		      char *why, size_t whylen)
{
	struct pebs_sample out[MAX_SAMPLES_PER_RECORD];
	const unsigned char *p = buf;
	size_t pos = 0;

	*consumed = 0;
	while (pos < len) {
		unsigned n = 0;
		size_t size = 0;
		int collision = 0;
		uint64_t status = 0;
		int rc = decode_one(cfg, p + pos, len - pos, out,
				    MAX_SAMPLES_PER_RECORD, &n, &size,
				    &collision, &status, why, whylen);

		if (rc)
			return rc;
		if (b->n + n > b->cap) {
			if (b->n == 0) {
				set_err(err, errlen, "batch capacity %zu too "
					"small for %u samples", b->cap, n);
				return -PEBS_E_RANGE;
			}
			return 0;	/* caller flushes and calls again */
		}
		for (unsigned i = 0; i < n; i++) {
			unsigned bit = out[i].event;
			char cname[16];
			const char *name = cfg->ev[bit].name;
			int id;

			if (!name)
				name = pebs_uarch_counter_name(bit, cname,
							       sizeof(cname));
			id = pebs_batch_intern(b, name);
			if (id < 0) {
				set_err(err, errlen, "out of memory");
				return id;
			}
			out[i].event = (uint32_t)id;
			id = pebs_batch_push(b, &out[i]);
			if (id < 0) {
				set_err(err, errlen, "batch full");
				return id;
			}
		}
		count(st, n, size, collision, status);
		pos += size;
		*consumed = pos;
	}
	return 0;
}

int pebs_raw_decode(const struct pebs_raw_config *cfg, const void *buf,
		    size_t len, struct pebs_batch *b, size_t *consumed,
		    struct pebs_raw_stats *st, char *err, size_t errlen)
{
	char why[200] = "";
	int rc;

	if (!cfg || !cfg->uarch || !b || !consumed || !st ||
	    (!buf && len)) {
		set_err(err, errlen, "bad arguments");
		return -PEBS_E_INVAL;
	}
	rc = decode_run(cfg, buf, len, b, consumed, st, err, errlen, why,
			sizeof(why));
	if (rc && *why)
		set_err(err, errlen, "record %llu at offset 0x%llx: %s",
			(unsigned long long)st->records,
			(unsigned long long)st->offset, why);
	return rc;
}

/* The event of @u named @name (portable, SDM or rHEX); NULL if none. */
static const struct pebs_uarch_event *find_event(const struct pebs_uarch *u,
						 const char *name,
						 int *is_raw,
						 struct pebs_uarch_event *raw)
{
	const struct pebs_uarch_event *ev = NULL;

	*is_raw = 0;
	if (strcmp(name, "load-latency") == 0)
		return pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY);
	if (strcmp(name, "precise-store") == 0) {
		ev = pebs_uarch_event_by_kind(u, PEBS_EVK_PRECISE_STORE);
		return ev ? ev : pebs_uarch_event_by_kind(u,
						PEBS_EVK_DATALA_STORE);
	}
	if (strcmp(name, "store-latency") == 0)
		return pebs_uarch_event_by_kind(u, PEBS_EVK_STORE_LATENCY);
	if (strcmp(name, "frontend") == 0)
		return pebs_uarch_event_by_kind(u, PEBS_EVK_FRONTEND);
	if ((name[0] == 'r' || name[0] == 'R') && name[1] &&
	    strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1) &&
	    strlen(name + 1) <= 16) {
		unsigned long long v = strtoull(name + 1, NULL, 16);
		unsigned evsel = (unsigned)(v & 0xff);
		unsigned umask = (unsigned)(v >> 8 & 0xff);

		ev = pebs_uarch_event_by_code(u, evsel, umask);
		if (ev)
			return ev;
		memset(raw, 0, sizeof(*raw));
		raw->event = (uint8_t)evsel;
		raw->umask = (uint8_t)umask;
		raw->kind = PEBS_EVK_OTHER;
		/* The constraints of the encoding (INST_RETIRED.PREC_DIST
		 * on FIXED0 only, ...), as for pebs-capture's plan. */
		raw->counters = u->pebs_counters &
				pebs_uarch_event_code_counters(u, evsel, umask);
		*is_raw = 1;
		return raw;
	}
	return pebs_uarch_event_by_name(u, name);
}

int pebs_raw_config_default(struct pebs_raw_config *cfg,
			    const struct pebs_uarch *u, const char *event,
			    char *err, size_t errlen)
{
	const char *p = event;
	size_t nbuf = 0;

	if (!cfg || !u) {
		set_err(err, errlen, "bad arguments");
		return -PEBS_E_INVAL;
	}
	memset(cfg, 0, sizeof(*cfg));
	cfg->uarch = u;
	if (!event) {
		const struct pebs_uarch_event *ev =
			pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY);
		uint64_t allowed;

		for (unsigned i = 0; !ev && i < u->nevents; i++)
			if (u->events[i].precise)
				ev = &u->events[i];
		allowed = ev ? ev->counters & u->pebs_counters : 0;
		if (!allowed) {
			set_err(err, errlen, "%s has no built-in PEBS event",
				u->name);
			return -PEBS_E_INVAL;
		}
		unsigned bit = (unsigned)__builtin_ctzll(allowed);
		cfg->pebs_enabled = 1ull << bit;
		cfg->ev[bit].name = ev->name;
		cfg->ev[bit].kind = ev->kind;
		cfg->ev[bit].evtsel = (uint16_t)(ev->umask << 8 | ev->event);
		return 0;
	}
	do {
		const struct pebs_uarch_event *ev;
		struct pebs_uarch_event rawev;
		char item[128];
		char *at, *colon;
		size_t k = strcspn(p, ";");
		uint64_t allowed;
		int is_raw, bit;

		if (k == 0 || k >= sizeof(item)) {
			set_err(err, errlen, "%s event in \"%s\"",
				k ? "too long an" : "empty", event);
			return -PEBS_E_INVAL;
		}
		memcpy(item, p, k);
		item[k] = '\0';
		p += k;
		at = strrchr(item, '@');
		if (at)
			*at++ = '\0';
		colon = strchr(item, ':');	/* modifiers: no effect */
		if (colon)
			*colon = '\0';
		ev = find_event(u, item, &is_raw, &rawev);
		if (!ev) {
			set_err(err, errlen, "%s has no event \"%s\"", u->name,
				item);
			return -PEBS_E_INVAL;
		}
		allowed = ev->counters & u->pebs_counters;
		if (at) {
			bit = pebs_uarch_counter_parse(at);
			if (bit < 0) {
				set_err(err, errlen, "bad counter \"%s\" "
					"(PMCx or FIXEDj)", at);
				return -PEBS_E_INVAL;
			}
			if (!(allowed >> bit & 1)) {
				set_err(err, errlen, "%s cannot use %s on %s",
					item, at, u->name);
				return -PEBS_E_INVAL;
			}
			if (cfg->pebs_enabled >> bit & 1) {
				set_err(err, errlen, "counter %s used twice",
					at);
				return -PEBS_E_INVAL;
			}
		} else {
			allowed &= ~cfg->pebs_enabled;
			if (!allowed) {
				set_err(err, errlen, "no free PEBS counter for "
					"%s on %s", item, u->name);
				return -PEBS_E_INVAL;
			}
			bit = __builtin_ctzll(allowed);
		}
		cfg->pebs_enabled |= 1ull << bit;
		cfg->ev[bit].kind = ev->kind;
		cfg->ev[bit].evtsel = (uint16_t)(ev->umask << 8 | ev->event);
		if (is_raw) {
			/* Not in the table: the sample says "rHEX". */
			size_t n = strlen(item) + 1;

			if (nbuf + n > sizeof(cfg->namebuf)) {
				set_err(err, errlen, "too many raw events");
				return -PEBS_E_INVAL;
			}
			memcpy(cfg->namebuf + nbuf, item, n);
			cfg->ev[bit].name = cfg->namebuf + nbuf;
			nbuf += n;
		} else {
			cfg->ev[bit].name = ev->name;
		}
	} while (*p++ == ';');
	return 0;
}

/* ------------------------------------------------------- dump reader */

#define READER_BATCH	8192
#define READER_CHUNK	(256 * 1024)

struct pebs_raw_reader {
	struct pebs_raw_config cfg;
	const char *const *paths;
	size_t npaths, cur;	/* next input to open */
	const char *curname;	/* input being read (STDIN_NAME for -) */
	FILE *fp;
	int stream;		/* fp is no regular file: read as it comes */
	void (*idle)(void *);	/* pebs_raw_reader_set_idle() */
	void *idle_ctx;
	int fresh;		/* nothing read yet from fp */
	int eof_all;		/* every input read */
	int dead;		/* damaged record: framing lost */
	int pending;		/* error to return after the batch */
	int gap;		/* the unread bytes end before an input that
				 * could not be read */
	unsigned char *buf;	/* unread bytes are buf[pos..len) */
	size_t cap, len, pos;
	/* Inputs opened so far, with the dump offset where each begins:
	 * damage is reported in the input where its record starts. */
	const char **in_name;
	uint64_t *in_start;
	size_t nin;
	uint64_t read_total;	/* dump bytes read */
	struct pebs_batch *b;
	struct pebs_meta *meta;
	struct pebs_raw_stats st;
	char err[320];
	const char *errfile;
};

static int build_meta(struct pebs_raw_reader *r)
{
	const struct pebs_uarch *u = r->cfg.uarch;
	struct pebs_meta *m = r->meta;
	unsigned k = 0;
	int rc = 0;

	rc |= pebs_meta_set(m, "source", "raw");
	rc |= pebs_meta_set(m, "cpu.vendor", "GenuineIntel");
	rc |= pebs_meta_setf(m, "cpu.family", "%u", u->family);
	rc |= pebs_meta_set(m, "uarch", u->name);
	rc |= pebs_meta_setf(m, "pebs.format", "%u", u->pebs_fmt);
	if (u->features & PEBS_UF_TSC)
		rc |= pebs_meta_set(m, "time.unit", "tsc");
	for (unsigned bit = 0; bit < 64; bit++) {
		char key[48], cname[16];

		if (!(r->cfg.pebs_enabled >> bit & 1) ||
		    !(u->pebs_counters >> bit & 1))
			continue;
		pebs_uarch_counter_name(bit, cname, sizeof(cname));
		snprintf(key, sizeof(key), "events.%u.name", k);
		rc |= pebs_meta_set(m, key, r->cfg.ev[bit].name ?
				    r->cfg.ev[bit].name : cname);
		/* the encoding decides, as for a capture, which weight
		 * pebs-decode -f perf writes (the latency or, for a DataLA
		 * store, the TSX cycles as the kernel does) and perf's
		 * config of the event */
		if (r->cfg.ev[bit].evtsel) {
			snprintf(key, sizeof(key), "events.%u.evtsel", k);
			rc |= pebs_meta_setf(m, key, "0x%x",
					     r->cfg.ev[bit].evtsel);
		}
		snprintf(key, sizeof(key), "events.%u.counter", k);
		rc |= pebs_meta_set(m, key, cname);
		k++;
	}
	return rc ? -PEBS_E_NOMEM : 0;
}

int pebs_raw_reader_open(struct pebs_raw_reader **rp,
			 const char *const *paths, size_t n,
			 const struct pebs_raw_config *cfg)
{
	struct pebs_raw_reader *r;

	if (!rp || !cfg || !cfg->uarch || (!paths && n))
		return -PEBS_E_INVAL;
	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -PEBS_E_NOMEM;
	r->cfg = *cfg;
	/* Names in the caller's namebuf must point into our copy. */
	for (unsigned i = 0; i < 64; i++) {
		uintptr_t nm = (uintptr_t)cfg->ev[i].name;
		uintptr_t lo = (uintptr_t)cfg->namebuf;

		if (nm >= lo && nm < lo + sizeof(cfg->namebuf))
			r->cfg.ev[i].name = r->cfg.namebuf + (nm - lo);
	}
	r->paths = paths;
	r->npaths = n;
	r->errfile = STDIN_NAME;
	r->b = pebs_batch_new(READER_BATCH);
	r->meta = pebs_meta_new();
	r->in_name = calloc(n + 1, sizeof(*r->in_name));
	r->in_start = calloc(n + 1, sizeof(*r->in_start));
	if (!r->b || !r->meta || !r->in_name || !r->in_start ||
	    build_meta(r) < 0) {
		pebs_raw_reader_close(r);
		return -PEBS_E_NOMEM;
	}
	*rp = r;
	return 0;
}

static void close_cur(struct pebs_raw_reader *r)
{
	if (r->fp && r->fp != stdin)
		fclose(r->fp);
	r->fp = NULL;
}

/*
 * Whether the first @n bytes @p of an input are those of a file that is
 * surely no dump: a .pebs stream or a perf.data file (a file or perf's
 * pipe output, which starts with the same magic), whose bytes would
 * otherwise decode as thousands of nonsense records.  Sets the message.
 */
static int not_a_dump(struct pebs_raw_reader *r, const unsigned char *p,
		      size_t n)
{
	if (n >= FMT_MAGIC_LEN && memcmp(p, FMT_MAGIC, FMT_MAGIC_LEN) == 0)
		snprintf(r->err, sizeof(r->err), "a .pebs stream, not a raw "
			 "PEBS dump (read it without --raw)");
	else if (pebs_perf_probe(p, n))
		snprintf(r->err, sizeof(r->err), "a perf.data file, not a raw "
			 "PEBS dump (convert it with pebs-import -f perf)");
	else
		return 0;
	return 1;
}

/*
 * Reads at least @min bytes of the current input into @buf (fewer only at
 * its end), and what there is up to @max; returns the count or -1 with
 * errno.  With read(2), not fread(3), which waits until all of @max has
 * come: a live pipe's records are decoded as they come.  A stream's wait
 * is polled, calling the idle hook each 200 ms with nothing to read.
 */
static ssize_t in_read(struct pebs_raw_reader *r, unsigned char *buf,
		       size_t min, size_t max)
{
	int fd = fileno(r->fp);
	size_t got = 0;
	while (got < min) {
		if (r->stream) {
			struct pollfd pfd = { fd, POLLIN, 0 };
			int pr = poll(&pfd, 1, 200);
			if (pr == 0 && r->idle)
				r->idle(r->idle_ctx);
			if (pr < 0 && errno != EINTR)
				return -1;
			if (pr <= 0)
				continue;
		}
		ssize_t n = read(fd, buf + got, max - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)	/* what came before it is kept */
			return got ? (ssize_t)got : -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Whether the current input is a stream with nothing to read now. */
static int would_wait(const struct pebs_raw_reader *r)
{
	if (!r->fp || !r->stream)
		return 0;
	struct pollfd pfd = { fileno(r->fp), POLLIN, 0 };
	return poll(&pfd, 1, 0) == 0;
}

/*
 * Appends the next bytes of the input stream to buf.  Returns 0 (maybe
 * setting eof_all) or -PEBS_E_IO / -PEBS_E_NOMEM with the message set.
 */
static int refill(struct pebs_raw_reader *r)
{
	size_t got;

	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->cap - r->len < READER_CHUNK) {
		size_t ncap = r->len + READER_CHUNK;
		unsigned char *nb = realloc(r->buf, ncap);

		if (!nb) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			return -PEBS_E_NOMEM;
		}
		r->buf = nb;
		r->cap = ncap;
	}
	while (!r->fp) {
		const char *path;

		if (r->cur >= r->npaths) {
			r->eof_all = 1;
			return 0;
		}
		path = r->paths[r->cur++];
		if (!path || strcmp(path, "-") == 0) {
			r->curname = STDIN_NAME;
			r->fp = stdin;
		} else {
			r->curname = path;
			r->fp = fopen(path, "rb");
			if (!r->fp) {
				r->errfile = path;
				/* TOOL: FILE: WHAT: WHY, as the .pebs
				 * reader says it */
				snprintf(r->err, sizeof(r->err),
					 "cannot open: %s", strerror(errno));
				r->gap = r->len > 0;
				return -PEBS_E_IO;
			}
		}
		if (r->nin < r->npaths + 1) {
			r->in_name[r->nin] = r->curname;
			r->in_start[r->nin++] = r->read_total;
		}
		struct stat sb;
		r->stream = fstat(fileno(r->fp), &sb) < 0 ||
			    !S_ISREG(sb.st_mode);
		r->fresh = 1;
	}
	/* an input's first read: enough to tell a .pebs or perf.data */
	ssize_t n = in_read(r, r->buf + r->len, r->fresh ? 8 : 1,
			    r->cap - r->len);
	got = n < 0 ? 0 : (size_t)n;
	if (r->fresh && got && not_a_dump(r, r->buf + r->len, got)) {
		/* its bytes are not taken: the input is passed over, as one
		 * that cannot be read, and the next starts a record */
		r->errfile = r->curname;
		close_cur(r);
		r->fresh = 0;
		r->gap = r->len > 0;
		return -PEBS_E_FORMAT;
	}
	r->fresh = 0;
	r->len += got;
	r->read_total += got;
	if (got == 0) {
		if (n < 0) {
			r->errfile = r->curname;
			snprintf(r->err, sizeof(r->err), "read error: %s",
				 strerror(errno));
			close_cur(r);
			r->gap = r->len > 0;
			return -PEBS_E_IO;
		}
		close_cur(r);
	}
	return 0;
}

/*
 * Says damage @why of the record at the reader's dump offset in the input
 * where that record starts, with its offset in that input.
 */
static void damage(struct pebs_raw_reader *r, const char *why,
		   const char *more)
{
	uint64_t off = r->st.offset;
	const char *name = r->curname ? r->curname : STDIN_NAME;

	/* The last input that begins at or before the record (an empty
	 * input begins where the next one does and is passed over). */
	for (size_t i = r->nin; i-- > 0;)
		if (r->in_start[i] <= r->st.offset) {
			name = r->in_name[i];
			off = r->st.offset - r->in_start[i];
			break;
		}
	r->errfile = name;
	snprintf(r->err, sizeof(r->err), "record %llu at offset 0x%llx: %s%s",
		 (unsigned long long)r->st.records, (unsigned long long)off,
		 why, more);
}

int pebs_raw_reader_next(struct pebs_raw_reader *r, struct pebs_batch **bp)
{
	struct pebs_batch *b;
	int rc;

	if (!r || !bp)
		return -PEBS_E_INVAL;
	b = r->b;
	if (r->pending) {
		rc = r->pending;
		r->pending = 0;
		return rc;
	}
	if (r->dead)
		return 0;
	pebs_batch_reset(b);
	b->offset = r->st.offset;
	*bp = b;
	for (;;) {
		if (r->pos < r->len) {
			size_t used = 0;
			char why[200] = "";

			rc = decode_run(&r->cfg, r->buf + r->pos,
					r->len - r->pos, b, &used, &r->st,
					r->err, sizeof(r->err), why,
					sizeof(why));
			r->pos += used;
			if (rc == 0 && r->pos < r->len)
				return 1;	/* batch full */
			if (rc == -PEBS_E_TRUNCATED && r->gap) {
				/*
				 * A record begun before an input that could
				 * not be read: its rest is lost with that
				 * input, and joining the next input to it
				 * would misframe that one.  Dropped, said,
				 * and the next input read from its start.
				 */
				damage(r, why, "; the input after it could "
				       "not be read");
				r->st.offset += r->len - r->pos;
				r->pos = r->len;
				r->gap = 0;
				if (b->n) {
					r->pending = rc;
					return 1;
				}
				return rc;
			}
			if (rc < 0 && !(rc == -PEBS_E_TRUNCATED &&
					!r->eof_all)) {
				/* damaged: framing of what follows is lost */
				if (*why)
					damage(r, why, "");
				else
					r->errfile = r->curname ?
						     r->curname : STDIN_NAME;
				r->dead = 1;
				close_cur(r);
				if (b->n) {
					r->pending = rc;
					return 1;
				}
				return rc;
			}
		}
		if (r->eof_all)
			return b->n ? 1 : 0;
		/* a live pipe: what was decoded goes out before the wait,
		 * and before the next input's open and first read */
		if (b->n && (!r->fp || would_wait(r)))
			return 1;
		rc = refill(r);
		if (rc < 0) {
			if (b->n) {
				r->pending = rc;
				return 1;
			}
			return rc;
		}
	}
}

void pebs_raw_reader_set_idle(struct pebs_raw_reader *r,
			      void (*idle)(void *ctx), void *ctx)
{
	r->idle = idle;
	r->idle_ctx = ctx;
}

const struct pebs_meta *pebs_raw_reader_meta(const struct pebs_raw_reader *r)
{
	return r ? r->meta : NULL;
}

const char *pebs_raw_reader_errmsg(const struct pebs_raw_reader *r)
{
	return r ? r->err : "";
}

const char *pebs_raw_reader_errfile(const struct pebs_raw_reader *r)
{
	return r ? r->errfile : STDIN_NAME;
}

void pebs_raw_reader_stats(const struct pebs_raw_reader *r,
			   struct pebs_raw_stats *st)
{
	if (r && st)
		*st = r->st;
}

void pebs_raw_reader_close(struct pebs_raw_reader *r)
{
	if (!r)
		return;
	close_cur(r);
	free(r->buf);
	free(r->in_name);
	free(r->in_start);
	pebs_batch_free(r->b);
	pebs_meta_free(r->meta);
	free(r);
}
