/*
 * csvin.c - CSV (a header of field names, then one sample per row) to
 * samples, with libcsv doing the RFC 4180 tokenizing.
 *
 * libcsv does not count lines, so input is handed to csv_parse() one line
 * at a time: every callback then fires while c->line is the line it
 * concerns.  Nor does it say where a row or a quoted field starts, which
 * the row limit and the message for an unclosed quote need: track_quotes()
 * follows the quoting alongside.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "pebs_csvin.h"
#include "pebs_dsrc.h"
#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_perf.h"
#include "pebs_sym.h"
#include "output_fmt.h"

#define NCACHE 64		/* event names remembered */
/*
 * A column not stored: a derived name decided by its source, or a symbol
 * column.  Its field id is kept (for messages) as IGNORED(id), negative.
 */
#define IGNORED(id) (-2 - (id))
#define IGNORED_ID(col) (-2 - (col))

/* Line ends of an input (line_end()): not seen yet, LF (or CRLF), CR. */
enum { EOL_UNKNOWN, EOL_LF, EOL_CR };

/* Quoting state of track_quotes(). */
enum { Q_OUT, Q_IN, Q_MIGHT_END };

struct evc {
	char *name;
	int id;
};

struct pebs_csvin {
	struct pebs_csvin_sink sink;
	struct csv_parser p;
	int err;
	char msg[256];
	uint64_t line;		/* 1-based line of the current input */
	uint64_t row_line;	/* the line where the current row started */
	size_t row_bytes;	/* bytes of that row so far */
	int q;			/* Q_*: inside a quoted field? */
	uint64_t q_line;	/* the line where that field opened */
	uint64_t samples;
	uint64_t headers;	/* headers read whole, over all inputs */
	int in_header;		/* the header row is being read */
	int first;		/* the input's first byte (after a BOM) or -1 */
	int comma1;		/* its first line has a comma (so far) */
	int cr_held;		/* the last feed ended in a CR, no line end */
	int eol;		/* EOL_*: the input's line ends, once seen */
	int bom_checked;	/* the input's start is past the BOM */
	unsigned bom_held;	/* bytes of a BOM's start held back */
	int *col;		/* column index -> field id or IGNORED(id) */
	size_t ncol, col_cap;
	size_t field;		/* field index within the current row */
	struct pebs_sample s;
	uint64_t seen;		/* columns set in this row, bit per id */
	uint64_t val[PEBS_COL_COUNT];	/* their values (repeats agree) */
	unsigned dseen;		/* derived fields in this row, bit per id */
	uint64_t dval[PEBS_F_END - PEBS_F_OP];
	int have_event;		/* the header has an event column */
	int have_comm;		/* the header has a comm column */
	pebs_csvin_comm_fn comm_fn;
	char *comm;		/* this row's comm (comm_fn set), or NULL */
	size_t comm_cap;
	int comm_seen;		/* a comm column was read in this row */
	int empty_id;		/* event id of "", or -1 before first use */
	struct evc ev[NCACHE];
	size_t nev;
	size_t ev_last;
};

/* ------------------------------------------------------------- errors */

static void vfail(struct pebs_csvin *c, uint64_t line, int err,
		  const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void vfail(struct pebs_csvin *c, uint64_t line, int err,
		  const char *fmt, va_list ap)
{
	if (c->err)
		return;
	c->err = err;
	int n = snprintf(c->msg, sizeof(c->msg), "line %llu: ",
			 (unsigned long long)line);
	vsnprintf(c->msg + n, sizeof(c->msg) - (size_t)n, fmt, ap);
	pebs_outfmt_msg_fix(c->msg);
}

static void fail(struct pebs_csvin *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct pebs_csvin *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(c, c->line, err, fmt, ap);
	va_end(ap);
}

/* fail() for an error that belongs to an earlier line than c->line. */
static void fail_at(struct pebs_csvin *c, uint64_t line, int err,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail_at(struct pebs_csvin *c, uint64_t line, int err,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(c, line, err, fmt, ap);
	va_end(ap);
}

/*
 * Quotable excerpt of a bad value: at most cap - 4 bytes of it, shown as
 * text tables show names (controls, invalid UTF-8 as '?'), and '"' as '?'
 * so that the quotes around it are the message's.
 */
static const char *excerpt(char *dst, size_t cap, const char *s, size_t n)
{
	uint32_t w;
	size_t m = n < cap - 4 ? n : cap - 4;
	size_t k = pebs_outfmt_text_str(dst, s, m, &w);
	for (size_t i = 0; i < k; i++)
		if (dst[i] == '"')
			dst[i] = '?';
	memcpy(dst + k, m < n ? "..." : "", m < n ? 4 : 1);
	return dst;
}

/* ------------------------------------------------------------- events */

static int event_id(struct pebs_csvin *c, const char *name)
{
	if (c->nev && strcmp(c->ev[c->ev_last].name, name) == 0)
		return c->ev[c->ev_last].id;
	for (size_t i = 0; i < c->nev; i++) {
		if (strcmp(c->ev[i].name, name) == 0) {
			c->ev_last = i;
			return c->ev[i].id;
		}
	}
	int id = c->sink.event(c->sink.ctx, name);
	if (id < 0 || c->nev == NCACHE)
		return id;
	char *copy = strdup(name);
	if (!copy)
		return -PEBS_E_NOMEM;
	c->ev[c->nev].name = copy;
	c->ev[c->nev].id = id;
	c->ev_last = c->nev++;
	return id;
}

/* ------------------------------------------------------------- header */

/* The hint of every "another output of pebs-decode" message. */
#define DECODE_CSV "pebs-decode -f csv writes what pebs-import reads"

/*
 * Whether the first field @name (@len bytes) of a line without a comma is
 * the header of pebs-decode's text table: known field names separated by
 * blanks.  (A header "time cpu,lat" lacks a comma; it is no table.)
 */
static int text_header(const char *name, size_t len)
{
	char tok[32];
	size_t i = 0, ntok = 0;
	while (i < len) {
		while (i < len && (name[i] == ' ' || name[i] == '\t'))
			i++;
		size_t j = i;
		while (j < len && name[j] != ' ' && name[j] != '\t')
			j++;
		if (j == i)
			break;
		if (j - i >= sizeof(tok))
			return 0;
		memcpy(tok, name + i, j - i);
		tok[j - i] = 0;
		if (!pebs_field_find(tok))
			return 0;
		ntok++;
		i = j;
	}
	return ntok >= 2;
}

/*
 * A first field that is no column name but the start of another output of
 * pebs-decode (YAML, the text table) or of a CSV without its header: said
 * so, where "unknown column" left the user to guess.  1 when told.
 */
static int header_not_csv(struct pebs_csvin *c, const char *name, size_t len)
{
	uint64_t v;
	char ex[48];
	/* --info and the other tools' YAML start with ---, -f yaml with
	 * "- time: ..." */
	if ((len == 3 && !memcmp(name, "---", 3)) ||
	    (len >= 2 && !memcmp(name, "- ", 2) && memchr(name, ':', len))) {
		fail(c, -PEBS_E_FORMAT, "YAML, not CSV (" DECODE_CSV ")");
		return 1;
	}
	if (!c->comma1 && text_header(name, len)) {
		fail(c, -PEBS_E_FORMAT, "a text table, not CSV (" DECODE_CSV
		     ")");
		return 1;
	}
	if (pebs_outfmt_parse_u64(name, len, &v) == 0) {
		fail(c, -PEBS_E_PARSE, "unknown column \"%s\" (a number: the "
		     "first line names the columns, which pebs-decode "
		     "--no-header leaves out)", excerpt(ex, sizeof(ex), name,
							len));
		return 1;
	}
	return 0;
}

static void header_field(struct pebs_csvin *c, const char *name, size_t len)
{
	char ex[48];
	if (c->ncol == c->col_cap) {
		size_t nc = c->col_cap ? 2 * c->col_cap : 32;
		int *n = realloc(c->col, nc * sizeof(*n));
		if (!n) {
			fail(c, -PEBS_E_NOMEM, "out of memory");
			return;
		}
		c->col = n;
		c->col_cap = nc;
	}
	if (len == 0) {
		fail(c, -PEBS_E_PARSE, "column %zu: empty column name",
		     c->ncol + 1);
		return;
	}
	const struct pebs_field *f = strlen(name) == len ?
				     pebs_field_find(name) : NULL;
	/* binary input given as CSV: say what it is, not "unknown column" */
	if (!f && c->ncol == 0 && pebs_perf_probe(name, len)) {
		fail(c, -PEBS_E_FORMAT, "a perf.data file, not CSV");
		return;
	}
	if (!f && c->ncol == 0 && len >= 5 && !memcmp(name, "\x89PEBS", 5)) {
		fail(c, -PEBS_E_FORMAT, "a .pebs file, not CSV (it is read "
		     "as it is: pebs-decode, pebs-filter, ...)");
		return;
	}
	if (!f && c->ncol == 0 && header_not_csv(c, name, len))
		return;
	if (!f) {
		const char *sug = strlen(name) == len ?
				  pebs_field_suggest(name) : NULL;
		const char *perf = strlen(name) == len ?
				   pebs_field_perf_hint(name) : NULL;
		excerpt(ex, sizeof(ex), name, len);
		if (perf)
			fail(c, -PEBS_E_PARSE, "unknown column \"%s\" (%s)",
			     ex, perf);
		else if (sug)
			fail(c, -PEBS_E_PARSE, "unknown column \"%s\" "
			     "(did you mean \"%s\"?)", ex, sug);
		else
			fail(c, -PEBS_E_PARSE, "unknown column \"%s\"", ex);
		return;
	}
	/*
	 * A repeated column is allowed (pebs-decode --fields lat,lat writes
	 * one); its values must then agree on every row.
	 */
	int id = f->id;
	/*
	 * Symbol names are resolved from pid and ip (addr) through the
	 * capture's maps, which a CSV does not carry: nothing to store, but
	 * any pebs-decode --fields list must read back.  A comm is no symbol
	 * but a name per thread, which goes to comm_fn (to metadata) by
	 * data_field().
	 */
	if (pebs_field_is_sym(id))
		id = IGNORED(id);
	if (id == PEBS_COL_EVENT)
		c->have_event = 1;
	if (id == IGNORED(PEBS_F_COMM))
		c->have_comm = 1;
	c->col[c->ncol++] = id;
}

/*
 * Derived names whose source column is in the header are not even parsed:
 * the source decides them.
 */
static void header_done(struct pebs_csvin *c)
{
	int dsrc = 0, addr = 0;
	for (size_t i = 0; i < c->ncol; i++) {
		dsrc |= c->col[i] == PEBS_COL_DSRC;
		addr |= c->col[i] == PEBS_COL_ADDR;
	}
	for (size_t i = 0; i < c->ncol; i++) {
		int id = c->col[i];
		if ((dsrc && id >= PEBS_F_OP && id <= PEBS_F_LOCK) ||
		    (addr && (id == PEBS_F_LINE || id == PEBS_F_PAGE)))
			c->col[i] = IGNORED(id);
	}
}

/* --------------------------------------------------------------- data */

static void set_col(struct pebs_sample *s, int col, uint64_t v)
{
	switch (col) {
	case PEBS_COL_TIME: s->time = v; break;
	case PEBS_COL_CPU: s->cpu = (uint32_t)v; break;
	case PEBS_COL_PID: s->pid = (uint32_t)v; break;
	case PEBS_COL_TID: s->tid = (uint32_t)v; break;
	case PEBS_COL_IP: s->ip = v; break;
	case PEBS_COL_ADDR: s->addr = v; break;
	case PEBS_COL_LAT: s->lat = (uint32_t)v; break;
	case PEBS_COL_INS_LAT: s->ins_lat = (uint32_t)v; break;
	case PEBS_COL_DSRC: s->dsrc = v; break;
	case PEBS_COL_RAW_DSE: s->raw_dse = v; break;
	case PEBS_COL_FMT: s->fmt = (uint32_t)v; break;
	case PEBS_COL_APPLICABLE: s->applicable = v; break;
	case PEBS_COL_TSX: s->tsx = v; break;
	case PEBS_COL_PHYS_ADDR: s->phys_addr = v; break;
	case PEBS_COL_FLAGS: s->flags = (uint32_t)v; break;
	default:
		if (col >= PEBS_COL_REG0 &&
		    col < PEBS_COL_REG0 + PEBS_REG_COUNT)
			s->regs[col - PEBS_COL_REG0] = v;
	}
}

/* The comm of this row, kept for cb_row() when the sink takes it. */
static void comm_field(struct pebs_csvin *c, const char *s, size_t len)
{
	if (!c->comm_fn)
		return;
	if (strlen(s) != len) {
		fail(c, -PEBS_E_PARSE, "field \"comm\": NUL byte in name");
		return;
	}
	if (c->comm_seen) {
		if (strcmp(c->comm, s) != 0)
			fail(c, -PEBS_E_PARSE, "field \"comm\": repeated "
			     "with another value");
		return;
	}
	if (len >= c->comm_cap) {
		char *n = realloc(c->comm, len + 1);
		if (!n) {
			fail(c, -PEBS_E_NOMEM, "out of memory");
			return;
		}
		c->comm = n;
		c->comm_cap = len + 1;
	}
	memcpy(c->comm, s, len + 1);
	c->comm_seen = 1;
}

/* The value of field @s for column @col: 0, or -1 after fail(). */
static int field_value(struct pebs_csvin *c, int col, const char *s,
		       size_t len, uint64_t *v)
{
	const struct pebs_col_info *ci = pebs_col_info((unsigned)col);
	char ex[48];
	if (col == PEBS_COL_EVENT) {
		if (strlen(s) != len) {
			fail(c, -PEBS_E_PARSE, "field \"event\": NUL byte "
			     "in name");
			return -1;
		}
		/* The format's limits (pebs-format.md, block names), as
		 * bad input here rather than a writer failure later. */
		if (len > PEBS_EVENT_NAME_MAX) {
			fail(c, -PEBS_E_RANGE, "field \"event\": name too "
			     "long (at most %d bytes)", PEBS_EVENT_NAME_MAX);
			return -1;
		}
		int id = event_id(c, s);
		if (id == -PEBS_E_RANGE) {
			fail(c, id, "field \"event\": too many distinct names "
			     "(at most %d)", PEBS_EVENT_NAMES_MAX);
			return -1;
		}
		if (id < 0) {
			fail(c, id, "field \"event\": %s", pebs_strerror(id));
			return -1;
		}
		*v = (uint64_t)id;
		return 0;
	}
	int r = pebs_outfmt_parse_u64(s, len, v);
	if (r == 0 && ci->type == PEBS_T_U32 && *v > UINT32_MAX)
		r = -2;
	if (r == -1)
		fail(c, -PEBS_E_PARSE, "field \"%s\": not a number: \"%s\"",
		     ci->name, excerpt(ex, sizeof(ex), s, len));
	else if (r == -2)
		fail(c, -PEBS_E_RANGE, "field \"%s\": out of range for "
		     "%s: \"%s\"", ci->name, ci->type == PEBS_T_U32 ?
		     "32 bits" : "64 bits", excerpt(ex, sizeof(ex), s, len));
	return r ? -1 : 0;
}

/*
 * Derived names are kept and used only when their source column (dsrc for
 * op/mem/snoop/tlb/lock, addr for line/page) is absent from the row: then
 * a source value that derives the same names is made up, so that a subset
 * of fields written by pebs-decode reads back to the same text.
 */
static void derived_field(struct pebs_csvin *c, int id, const char *s,
			  size_t len)
{
	static const char *const tlb[] = { "na", "hit", "miss" };
	static const char *const lock[] = { "no", "na", "locked" };
	const char *name = pebs_field_by_id(id)->name;
	unsigned k = (unsigned)(id - PEBS_F_OP);
	uint64_t v = 0;
	long e = -1;
	char ex[48];
	if (id == PEBS_F_LINE || id == PEBS_F_PAGE) {
		/* worded as field_value() words every other number */
		int r = pebs_outfmt_parse_u64(s, len, &v);
		if (r) {
			fail(c, r == -2 ? -PEBS_E_RANGE : -PEBS_E_PARSE,
			     "field \"%s\": %s: \"%s\"", name, r == -2 ?
			     "out of range for 64 bits" : "not a number",
			     excerpt(ex, sizeof(ex), s, len));
			return;
		}
	} else {
		if (id == PEBS_F_OP)
			e = pebs_dsrc_op_parse(s);
		else if (id == PEBS_F_MEM)
			e = pebs_dsrc_mem_parse(s);
		else if (id == PEBS_F_SNOOP)
			e = pebs_dsrc_snoop_parse(s);
		else
			for (long i = 0; i < 3; i++)
				if (!strcmp(s, id == PEBS_F_TLB ? tlb[i] :
					    lock[i]))
					e = i;
		if (e < 0) {
			fail(c, -PEBS_E_PARSE, "field \"%s\": unknown name "
			     "\"%s\"", name, excerpt(ex, sizeof(ex), s, len));
			return;
		}
		v = (uint64_t)e;
	}
	if (c->dseen & 1u << k && c->dval[k] != v) {
		fail(c, -PEBS_E_PARSE, "field \"%s\": repeated with another "
		     "value", name);
		return;
	}
	c->dseen |= 1u << k;
	c->dval[k] = v;
}

/* A perf_mem_data_src value whose derived names are the row's. */
static uint64_t make_dsrc(const struct pebs_csvin *c)
{
	static const uint8_t op[] = {
		[PEBS_OP_NA] = PEBS_DS_OP_NA, [PEBS_OP_LOAD] = PEBS_DS_OP_LOAD,
		[PEBS_OP_STORE] = PEBS_DS_OP_STORE,
		[PEBS_OP_PFETCH] = PEBS_DS_OP_PFETCH,
		[PEBS_OP_EXEC] = PEBS_DS_OP_EXEC,
	};
	/* level bits, level number, remote */
	static const uint16_t mem[PEBS_MEM_COUNT][3] = {
		[PEBS_MEM_NA] = { PEBS_DS_LVL_NA, 0, 0 },
		[PEBS_MEM_L1] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_L1,
				  PEBS_DS_LNUM_L1, 0 },
		[PEBS_MEM_LFB] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_LFB,
				   PEBS_DS_LNUM_LFB, 0 },
		[PEBS_MEM_L2] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_L2,
				  PEBS_DS_LNUM_L2, 0 },
		[PEBS_MEM_L3] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_L3,
				  PEBS_DS_LNUM_L3, 0 },
		[PEBS_MEM_L4] = { PEBS_DS_LVL_HIT, PEBS_DS_LNUM_L4, 0 },
		[PEBS_MEM_LOCAL_RAM] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_LOC_RAM,
					 PEBS_DS_LNUM_RAM, 0 },
		[PEBS_MEM_REMOTE_RAM] = { PEBS_DS_LVL_HIT |
					  PEBS_DS_LVL_REM_RAM1,
					  PEBS_DS_LNUM_RAM, 1 },
		[PEBS_MEM_REMOTE_CACHE] = { PEBS_DS_LVL_HIT |
					    PEBS_DS_LVL_REM_CCE1,
					    PEBS_DS_LNUM_ANY_CACHE, 1 },
		[PEBS_MEM_PMEM] = { PEBS_DS_LVL_HIT, PEBS_DS_LNUM_PMEM, 0 },
		[PEBS_MEM_CXL] = { PEBS_DS_LVL_HIT, PEBS_DS_LNUM_CXL, 0 },
		[PEBS_MEM_IO] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_IO,
				  PEBS_DS_LNUM_IO, 0 },
		[PEBS_MEM_UNCACHED] = { PEBS_DS_LVL_HIT | PEBS_DS_LVL_UNC, 0,
					0 },
		[PEBS_MEM_L1_MISS] = { PEBS_DS_LVL_MISS | PEBS_DS_LVL_L1, 0,
				       0 },
		[PEBS_MEM_L2_MISS] = { PEBS_DS_LVL_MISS | PEBS_DS_LVL_L2, 0,
				       0 },
		[PEBS_MEM_L3_MISS] = { PEBS_DS_LVL_MISS | PEBS_DS_LVL_L3, 0,
				       0 },
	};
	static const uint8_t snoop[PEBS_SNOOP_COUNT] = {
		[PEBS_SNOOP_NA] = PEBS_DS_SNOOP_NA,
		[PEBS_SNOOP_NONE] = PEBS_DS_SNOOP_NONE,
		[PEBS_SNOOP_HIT] = PEBS_DS_SNOOP_HIT,
		[PEBS_SNOOP_MISS] = PEBS_DS_SNOOP_MISS,
		[PEBS_SNOOP_HITM] = PEBS_DS_SNOOP_HITM,
		[PEBS_SNOOP_FWD] = 0,
	};
	static const uint8_t tlb[] = { PEBS_DS_TLB_NA, PEBS_DS_TLB_HIT,
				       PEBS_DS_TLB_MISS };
	static const uint8_t lock[] = { 0, PEBS_DS_LOCK_NA,
					PEBS_DS_LOCK_LOCKED };
	const uint64_t *d = c->dval;
	unsigned has = c->dseen;
	unsigned m = has & 2 ? (unsigned)d[1] % PEBS_MEM_COUNT : PEBS_MEM_NA;
	unsigned sn = has & 4 ? (unsigned)d[2] % PEBS_SNOOP_COUNT :
		      PEBS_SNOOP_NA;
	return pebs_dsrc_make(op[has & 1 ? d[0] % 5 : PEBS_OP_NA],
			      mem[m][0], snoop[sn], lock[has & 16 ? d[4] : 1],
			      tlb[has & 8 ? d[3] : 0], mem[m][1], mem[m][2],
			      sn == PEBS_SNOOP_FWD ? PEBS_DS_SNOOPX_FWD : 0);
}

static void data_field(struct pebs_csvin *c, const char *s, size_t len)
{
	uint64_t v;
	if (c->field >= c->ncol)
		return;		/* counted and reported at the row end */
	int col = c->col[c->field];
	if (col == IGNORED(PEBS_F_COMM)) {
		comm_field(c, s, len);
		return;
	}
	if (col < 0)
		return;
	if (col >= PEBS_F_OP) {
		derived_field(c, col, s, len);
		return;
	}
	if (field_value(c, col, s, len, &v) < 0)
		return;
	uint64_t bit = 1ull << col;
	if (c->seen & bit) {
		if (c->val[col] != v)
			fail(c, -PEBS_E_PARSE, "field \"%s\": repeated with "
			     "another value",
			     pebs_col_info((unsigned)col)->name);
		return;
	}
	c->seen |= bit;
	c->val[col] = v;
	if (col == PEBS_COL_EVENT)
		c->s.event = (uint32_t)v;
	else
		set_col(&c->s, col, v);
}

static void cb_field(void *field, size_t len, void *data)
{
	struct pebs_csvin *c = data;
	const char *s = field ? field : "";
	if (c->err)
		return;
	if (c->in_header)
		header_field(c, s, len);
	else
		data_field(c, s, len);
	c->field++;
}

static void cb_row(int term, void *data)
{
	struct pebs_csvin *c = data;
	(void)term;
	if (c->err)
		return;
	if (c->in_header) {
		c->in_header = 0;
		header_done(c);
		c->headers++;
	} else if (c->field != c->ncol) {
		fail(c, -PEBS_E_PARSE, "%zu field%s, but the header has %zu",
		     c->field, c->field == 1 ? "" : "s", c->ncol);
	} else {
		if (!c->have_event) {
			if (c->empty_id < 0)
				c->empty_id = event_id(c, "");
			if (c->empty_id < 0) {
				fail(c, c->empty_id, "event: %s",
				     pebs_strerror(c->empty_id));
				return;
			}
			c->s.event = (uint32_t)c->empty_id;
		}
		unsigned dmask = (1u << (PEBS_F_LINE - PEBS_F_OP)) - 1;
		if (c->dseen & dmask && !(c->seen & 1ull << PEBS_COL_DSRC))
			c->s.dsrc = make_dsrc(c);
		if (!(c->seen & 1ull << PEBS_COL_ADDR))
			c->s.addr = c->dseen & 1u << (PEBS_F_LINE - PEBS_F_OP) ?
				    c->dval[PEBS_F_LINE - PEBS_F_OP] :
				    c->dseen & 1u << (PEBS_F_PAGE - PEBS_F_OP) ?
				    c->dval[PEBS_F_PAGE - PEBS_F_OP] : 0;
		int r = c->sink.sample(c->sink.ctx, &c->s);
		if (r < 0)
			fail(c, r, "%s", pebs_strerror(r));
		else
			c->samples++;
		/* "" and [unknown] are what pebs-decode prints for a thread
		 * without a name: nothing to record */
		if (r >= 0 && c->comm_seen && *c->comm &&
		    strcmp(c->comm, PEBS_SYM_UNKNOWN) != 0) {
			r = c->comm_fn(c->sink.ctx, c->row_line, &c->s,
					 c->comm);
			if (r < 0)
				fail(c, r, "%s", pebs_strerror(r));
		}
	}
	memset(&c->s, 0, sizeof(c->s));
	c->comm_seen = 0;
	c->seen = 0;
	c->dseen = 0;
	c->field = 0;
}

/* ---------------------------------------------------------------- api */

/*
 * libcsv grows a field's buffer by its block size, 128 bytes unless told:
 * a field near the row limit took 8000 reallocs, each a copy of the whole
 * field where realloc cannot grow in place (under ASan, 20 s for one test
 * of 1 MiB rows).  64 KiB makes that 16.  0 or -1.
 */
static int parser_init(struct csv_parser *p)
{
	if (csv_init(p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL))
		return -1;
	csv_set_blk_size(p, 64 * 1024);
	return 0;
}

static int reset(struct pebs_csvin *c)
{
	csv_free(&c->p);
	if (parser_init(&c->p))
		return -PEBS_E_NOMEM;
	c->err = 0;
	c->line = 1;
	c->row_line = 1;
	c->row_bytes = 0;
	c->q = Q_OUT;
	c->in_header = 1;
	c->first = -1;
	c->comma1 = 0;
	c->cr_held = 0;
	c->eol = EOL_UNKNOWN;
	c->bom_checked = 0;
	c->bom_held = 0;
	c->ncol = 0;
	c->field = 0;
	c->have_event = 0;
	c->have_comm = 0;
	c->comm_seen = 0;
	c->seen = 0;
	c->dseen = 0;
	memset(&c->s, 0, sizeof(c->s));
	return 0;
}

int pebs_csvin_open(struct pebs_csvin **out, const struct pebs_csvin_sink *sk)
{
	struct pebs_csvin *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (!c)
		return -PEBS_E_NOMEM;
	if (parser_init(&c->p)) {
		free(c);
		return -PEBS_E_NOMEM;
	}
	c->sink = *sk;
	c->empty_id = -1;
	c->first = -1;
	c->line = 1;
	c->row_line = 1;
	c->in_header = 1;
	*out = c;
	return 0;
}

void pebs_csvin_set_comm(struct pebs_csvin *c, pebs_csvin_comm_fn fn)
{
	c->comm_fn = fn;
}

int pebs_csvin_has_comm(const struct pebs_csvin *c)
{
	return c->have_comm;
}

static int w_event(void *ctx, const char *name)
{
	return pebs_writer_event(ctx, name);
}

static int w_sample(void *ctx, const struct pebs_sample *s)
{
	return pebs_writer_add(ctx, s);
}

int pebs_csvin_open_writer(struct pebs_csvin **c, struct pebs_writer *w)
{
	struct pebs_csvin_sink sk = { w_event, w_sample, w };
	return pebs_csvin_open(c, &sk);
}


/*
 * Follows the quoting of @n bytes that libcsv accepted, on line c->line.
 * In what strict libcsv accepts, a quote outside a quoted field opens one,
 * and inside one is either doubled or closes it: counting quotes is enough,
 * one byte of lookahead (Q_MIGHT_END) aside, which may cross a feed.
 */
static void track_quotes(struct pebs_csvin *c, const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		if (c->q == Q_MIGHT_END) {
			/* a doubled quote stays inside; else it closed */
			c->q = *p == '"' ? Q_IN : Q_OUT;
			p += c->q == Q_IN;
			continue;
		}
		const char *qt = memchr(p, '"', (size_t)(end - p));
		if (!qt)
			return;
		if (c->q == Q_OUT) {
			c->q = Q_IN;
			c->q_line = c->line;
		} else {
			c->q = Q_MIGHT_END;
		}
		p = qt + 1;
	}
}

/* "field \"lat\"" or "column 3" for the field libcsv is reading. */
static const char *field_label(const struct pebs_csvin *c, char *buf,
			       size_t cap)
{
	const struct pebs_field *f = NULL;
	if (!c->in_header && c->field < c->ncol) {
		int col = c->col[c->field];
		f = pebs_field_by_id(col < 0 ? IGNORED_ID(col) : col);
	}
	if (f)
		snprintf(buf, cap, "field \"%s\"", f->name);
	else
		snprintf(buf, cap, "column %zu", c->field + 1);
	return buf;
}

/*
 * libcsv refused the line: named with the field it was reading (c->field
 * counts the fields it completed), as every other bad field is.
 */
static void parse_error(struct pebs_csvin *c)
{
	char lab[48];
	if (csv_error(&c->p) == CSV_ENOMEM || csv_error(&c->p) == CSV_ETOOBIG)
		fail(c, -PEBS_E_NOMEM, "field too large or out of memory");
	else if (c->in_header && c->field == 0 && c->first == '{')
		/* {"time":... is a quote inside an unquoted field */
		fail(c, -PEBS_E_FORMAT, "JSON Lines, not CSV (" DECODE_CSV
		     ")");
	else
		fail(c, -PEBS_E_PARSE, "%s: malformed quoting (RFC 4180: a "
		     "quoted field ends at a quote followed by a comma or "
		     "the line end; a quote inside is doubled)",
		     field_label(c, lab, sizeof(lab)));
}

static void row_too_long(struct pebs_csvin *c)
{
	fail_at(c, c->row_line, -PEBS_E_RANGE, "row longer than %u bytes",
		PEBS_CSVIN_ROW_MAX);
}

static const char bom[3] = "\xef\xbb\xbf";

/*
 * The end of the line that starts at @p: its LF, or in an input whose
 * lines end in CR alone (old Mac line ends: its first line end is a CR
 * that no LF follows) such a CR too.  libcsv ends rows at them, but they
 * were no line end here: the file was one line, its rows past the first
 * MiB refused as a row too long, its errors all on line 1.  In other
 * input a lone CR (in a quoted field) stays inside its line, as an
 * editor shows it.  NULL when the line goes on past @end (a CR last in
 * [@p, @end) is told by the next feed: c->cr_held).
 */
static const char *line_end(struct pebs_csvin *c, const char *p,
			    const char *end)
{
	if (c->eol == EOL_LF)
		return memchr(p, '\n', (size_t)(end - p));
	/*
	 * The first CR bounds the search for an LF, so that a line costs
	 * its own length: in CR input an LF may be nowhere, and looking for
	 * it to the end of the feed for each line made such an input three
	 * times slower to import.
	 */
	const char *at;
	for (const char *q = p;;) {
		const char *cr = memchr(q, '\r', (size_t)(end - q));
		at = memchr(q, '\n', (size_t)((cr ? cr : end) - q));
		if (at || !cr)
			break;
		if (cr + 1 < end && cr[1] != '\n') {
			at = cr;
			break;
		}
		/* CR LF (the LF ends the line), or a CR last in the feed */
		q = cr + 1;
	}
	if (at && c->eol == EOL_UNKNOWN)
		c->eol = *at == '\n' ? EOL_LF : EOL_CR;
	return at;
}

/* A line ended: the next one starts, in the row or a new one. */
static void next_line(struct pebs_csvin *c)
{
	c->line++;
	if (c->q != Q_IN) {
		c->row_line = c->line;
		c->row_bytes = 0;
	} else if (c->row_bytes == PEBS_CSVIN_ROW_MAX) {
		/* the row goes on past this line end: over */
		row_too_long(c);
	} else {
		/* a line end inside a quoted field is the row's */
		c->row_bytes++;
	}
}

/* Parses [@p, @end) of the input. */
static void parse(struct pebs_csvin *c, const char *p, const char *end)
{
	if (c->first < 0 && p < end)
		c->first = (unsigned char)*p;
	if (c->cr_held && p < end) {
		/* the last feed ended in a CR: without an LF, a line end */
		c->cr_held = 0;
		if (*p != '\n') {
			c->eol = EOL_CR;
			next_line(c);
		}
	}
	while (p < end && !c->err) {
		const char *nl = line_end(c, p, end);
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		size_t body = n - (nl != NULL);
		/*
		 * The bound on memory: libcsv grows a field, and the header
		 * its columns, as long as the input goes on (a binary file,
		 * /dev/zero).  row_bytes <= PEBS_CSVIN_ROW_MAX: no overflow.
		 */
		if (body > PEBS_CSVIN_ROW_MAX - c->row_bytes) {
			row_too_long(c);
			break;
		}
		/* before libcsv ends the first field at the comma */
		if (c->line == 1 && memchr(p, ',', n))
			c->comma1 = 1;
		if (csv_parse(&c->p, p, n, cb_field, cb_row, c) != n)
			parse_error(c);
		if (c->err)
			break;
		track_quotes(c, p, n);
		c->row_bytes += body;
		p += n;
		if (!nl) {
			c->cr_held = c->eol != EOL_LF && p[-1] == '\r';
			continue;
		}
		next_line(c);
	}
}

/*
 * The bytes a BOM's start held back were not one: they are the input's
 * first, parsed now.
 */
static void bom_release(struct pebs_csvin *c)
{
	unsigned held = c->bom_held;
	c->bom_checked = 1;
	c->bom_held = 0;
	parse(c, bom, bom + held);
}

int pebs_csvin_feed(struct pebs_csvin *c, const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;
	if (c->err)
		return c->err;
	/*
	 * A BOM may come split across feeds (a pipe, a caller feeding a
	 * byte at a time): its start is held back until the bytes that
	 * follow tell.
	 */
	while (!c->bom_checked && p < end) {
		if (*p != bom[c->bom_held]) {
			bom_release(c);
			break;
		}
		p++;
		if (++c->bom_held == sizeof(bom)) {
			c->bom_checked = 1;
			c->bom_held = 0;
		}
	}
	parse(c, p, end);
	return c->err;
}

int pebs_csvin_end(struct pebs_csvin *c)
{
	char lab[48];
	if (!c->err && c->bom_held)	/* an input of a BOM's start only */
		bom_release(c);
	/* Named where the quote opened, not at the line after the last. */
	if (!c->err && csv_fini(&c->p, cb_field, cb_row, c))
		fail_at(c, c->q_line, -PEBS_E_PARSE, "%s: unterminated quoted "
			"field (the input ends inside it)",
			field_label(c, lab, sizeof(lab)));
	int err = c->err;
	if (reset(c) < 0 && !err)
		err = -PEBS_E_NOMEM;
	/* reset() clears err; keep the message for the caller. */
	return err;
}

int pebs_csvin_read(struct pebs_csvin *c, FILE *fp)
{
	char buf[1 << 16];
	size_t n;
	int r = 0;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if ((r = pebs_csvin_feed(c, buf, n)) < 0)
			break;
	if (r == 0 && ferror(fp)) {
		int e = errno ? errno : EIO;
		pebs_csvin_end(c);
		snprintf(c->msg, sizeof(c->msg), "read error: %s",
			 strerror(e));
		errno = e;
		return -PEBS_E_IO;
	}
	return pebs_csvin_end(c);
}

const char *pebs_csvin_errmsg(const struct pebs_csvin *c)
{
	return c->msg;
}

uint64_t pebs_csvin_samples(const struct pebs_csvin *c)
{
	return c->samples;
}

uint64_t pebs_csvin_headers(const struct pebs_csvin *c)
{
	return c->headers;
}

void pebs_csvin_close(struct pebs_csvin *c)
{
	if (!c)
		return;
	csv_free(&c->p);
	for (size_t i = 0; i < c->nev; i++)
		free(c->ev[i].name);
	free(c->col);
	free(c->comm);
	free(c);
}
