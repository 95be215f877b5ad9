/*
 * output.c - batches rendered as csv, jsonl, text (hand-made formatting
 * into a large buffer: this is the hot path of pebs-decode) and yaml
 * (libyaml's emitter, where speed matters less than correct quoting).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>
#include <yaml.h>

#include "pebs_dsrc.h"
#include "pebs_field.h"
#include "pebs_output.h"
#include "pebs_sym.h"
#include "output_fmt.h"

#define BUF_SIZE (1u << 20)
#define NDERIV 5		/* op, mem, snoop, tlb, lock: from dsrc */
#define DCACHE 256		/* dsrc -> names cache entries */
/*
 * Rendered strings of up to SLACK bytes are copied with one fixed-size
 * memcpy (two vector moves, no call): arenas keep SLACK readable bytes past
 * their end and rows reserve SLACK spare bytes per string field.
 */
#define SLACK 32

/* Per-field emit operation, chosen once at open. */
enum emit {
	E_U64DEC, E_U32DEC, E_U64HEX, E_U32HEX, E_EVENT, E_DERIV,
	E_LINE, E_PAGE, E_SYM
};

struct ofield {
	int id;
	int emit;
	const uint64_t *c64;	/* this batch's column, per emit */
	const uint32_t *c32;
	int kind;
	const char *name;
	unsigned width;		/* text: column width */
	unsigned deriv;		/* E_DERIV: 0 op .. 4 lock; E_SYM: field */
	const struct rstr **sr;	/* E_SYM: this batch's rendered values */
};

/* A string already rendered for the format (escaped, quoted). */
struct rstr {
	const char *p;
	uint32_t len;
	uint32_t width;		/* text: display width */
};

/*
 * Symbol strings rendered once each: pebs_sym_str() returns one pointer
 * per distinct text for the life of its symbolizer, so the pointer is the
 * key.  Rendered text and its struct rstr live in chunks that never move
 * (rows point at them while the table grows).
 */
struct schunk {
	struct schunk *next;
	size_t used, cap;
	_Alignas(16) char buf[];
};

struct sentry {
	const char *key;
	const struct rstr *r;
};

struct dentry {
	uint64_t key;
	int valid;
	const struct rstr *s[NDERIV];
};

struct pebs_output {
	int fmt;
	unsigned flags;
	FILE *fp;
	int err;
	int started;
	size_t nf;
	struct ofield *f;
	int need_dsrc;
	char *buf;
	size_t cap, len;
	size_t rowfix;		/* bytes of a row, strings excluded */
	size_t nstr;		/* string fields per row */
	/* Event dictionary of the current batch, rendered. */
	char *dict;
	size_t dict_cap;
	struct rstr *dr;
	size_t dr_cap;
	size_t dict_max;	/* longest rendered name */
	/* Every derived name, rendered once at open. */
	struct rstr *names;	/* op[], mem[], snoop[], tlb[128], lock[4] */
	char *names_buf;
	size_t deriv_max;
	struct dentry *dc;
	/* symbol fields */
	struct pebs_sym *sym;
	size_t nsym;		/* E_SYM fields */
	size_t sr_cap;		/* rows each ofield.sr holds */
	struct sentry *sc;	/* open addressing, key NULL = empty */
	size_t sc_cap, sc_n;
	struct schunk *chunks;
	size_t sym_max;		/* longest rendered symbol string */
	/* yaml */
	yaml_emitter_t em;
	int yaml_init;
	char *tmp;
	size_t tmp_cap;
};

#define N_OP (PEBS_OP_EXEC + 1)
#define N_TLB 128
#define N_LOCK 4
#define I_OP 0
#define I_MEM (I_OP + N_OP)
#define I_SNOOP (I_MEM + PEBS_MEM_COUNT)
#define I_TLB (I_SNOOP + PEBS_SNOOP_COUNT)
#define I_LOCK (I_TLB + N_TLB)
#define N_NAMES (I_LOCK + N_LOCK)

int pebs_output_format_parse(const char *name)
{
	static const char *const names[] = {
		[PEBS_OUT_CSV] = "csv", [PEBS_OUT_YAML] = "yaml",
		[PEBS_OUT_JSONL] = "jsonl", [PEBS_OUT_TEXT] = "text",
	};
	for (int i = PEBS_OUT_CSV; i <= PEBS_OUT_TEXT; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* ------------------------------------------------------- string render */

/* Text table widths: wide enough for typical values, so the table streams. */
static unsigned text_width(const struct pebs_field *f)
{
	unsigned w;
	switch (f->id) {
	case PEBS_COL_TIME: w = 16; break;
	case PEBS_COL_CPU: w = 4; break;
	case PEBS_COL_PID: case PEBS_COL_TID: w = 7; break;
	case PEBS_COL_EVENT: w = 20; break;
	case PEBS_COL_LAT: w = 6; break;
	case PEBS_COL_DSRC: w = 13; break;
	case PEBS_COL_FMT: w = 3; break;
	case PEBS_F_OP: case PEBS_F_SNOOP: case PEBS_F_TLB: w = 5; break;
	case PEBS_F_LOCK: w = 6; break;
	case PEBS_F_MEM: w = 12; break;
	case PEBS_F_SYM: w = 24; break;
	case PEBS_F_DSO: case PEBS_F_DATA_SYM: w = 20; break;
	case PEBS_F_SRCLINE: w = 16; break;
	case PEBS_F_COMM: w = 15; break;	/* a kernel comm */
	default:
		if (f->kind == PEBS_FK_HEX)
			w = f->id < PEBS_COL_COUNT &&
			    pebs_col_info((unsigned)f->id)->type == PEBS_T_U32 ?
			    10 : 18;
		else if (f->kind == PEBS_FK_NUM)
			w = 10;
		else
			w = 8;
	}
	size_t n = strlen(f->name);
	return n > w ? (unsigned)n : w;
}

/* Renders @s for @fmt into @dst; returns the length (at most render_max()). */
static size_t render(int fmt, const char *s, char *dst, uint32_t *width)
{
	size_t n = strlen(s);
	*width = 0;
	switch (fmt) {
	case PEBS_OUT_CSV:
		if (!pebs_outfmt_csv_needs_quote(s, n)) {
			memcpy(dst, s, n);
			return n;
		}
		return csv_write(dst, 2 * n + 2, s, n);
	case PEBS_OUT_JSONL:
		return pebs_outfmt_json_str(dst, s, n);
	case PEBS_OUT_TEXT:
		return pebs_outfmt_text_str(dst, s, n, width);
	default:
		return 0;
	}
}

/* Worst-case rendered size of an @n-byte string (json: \uXXXX per byte). */
static size_t render_max(size_t n)
{
	return 6 * n + 2;
}

static int render_names(struct pebs_output *o)
{
	const char *src[N_NAMES];
	size_t total = 0;
	for (unsigned i = 0; i < N_OP; i++)
		src[I_OP + i] = pebs_dsrc_op_name((enum pebs_op)i);
	for (unsigned i = 0; i < PEBS_MEM_COUNT; i++)
		src[I_MEM + i] = pebs_dsrc_mem_name((enum pebs_mem)i);
	for (unsigned i = 0; i < PEBS_SNOOP_COUNT; i++)
		src[I_SNOOP + i] = pebs_dsrc_snoop_name((enum pebs_snoop)i);
	for (unsigned i = 0; i < N_TLB; i++)
		src[I_TLB + i] = pebs_dsrc_tlb_name((uint64_t)i <<
						    PEBS_DS_TLB_SHIFT);
	for (unsigned i = 0; i < N_LOCK; i++)
		src[I_LOCK + i] = pebs_dsrc_lock_name((uint64_t)i <<
						      PEBS_DS_LOCK_SHIFT);
	for (unsigned i = 0; i < N_NAMES; i++) {
		if (!src[i])
			src[i] = "";
		total += render_max(strlen(src[i]));
	}
	o->names = calloc(N_NAMES, sizeof(*o->names));
	o->names_buf = calloc(1, total + SLACK);
	if (!o->names || !o->names_buf)
		return -PEBS_E_NOMEM;
	size_t at = 0;
	for (unsigned i = 0; i < N_NAMES; i++) {
		size_t n = render(o->fmt, src[i], o->names_buf + at,
				  &o->names[i].width);
		o->names[i].p = o->names_buf + at;
		o->names[i].len = (uint32_t)n;
		at += n;
		if (n > o->deriv_max)
			o->deriv_max = n;
	}
	return 0;
}

static inline const struct dentry *dsrc_names(struct pebs_output *o, uint64_t d)
{
	uint64_t h = (d * 0x9e3779b97f4a7c15ull) >> 56;
	struct dentry *e = &o->dc[h];
	if (e->valid && e->key == d)
		return e;
	e->key = d;
	e->valid = 1;
	e->s[0] = &o->names[I_OP + pebs_dsrc_op(d) % N_OP];
	e->s[1] = &o->names[I_MEM + pebs_dsrc_mem(d) % PEBS_MEM_COUNT];
	e->s[2] = &o->names[I_SNOOP + pebs_dsrc_snoop(d) % PEBS_SNOOP_COUNT];
	e->s[3] = &o->names[I_TLB + PEBS_DS_TLB(d)];
	e->s[4] = &o->names[I_LOCK + PEBS_DS_LOCK(d)];
	return e;
}

static int render_dict(struct pebs_output *o, const struct pebs_batch *b)
{
	size_t total = 0;
	for (uint32_t i = 0; i < b->nnames; i++)
		total += render_max(strlen(b->names[i]));
	if (total + SLACK > o->dict_cap) {
		char *nd = realloc(o->dict, total + SLACK);
		if (!nd)
			return -PEBS_E_NOMEM;
		o->dict = nd;
		o->dict_cap = total + SLACK;
	}
	/* One spare entry renders out-of-dictionary ids as "". */
	if (b->nnames + 1u > o->dr_cap) {
		struct rstr *nr = realloc(o->dr, (b->nnames + 1u) *
					  sizeof(*nr));
		if (!nr)
			return -PEBS_E_NOMEM;
		o->dr = nr;
		o->dr_cap = b->nnames + 1u;
	}
	size_t at = 0;
	o->dict_max = 0;
	memset(o->dict + total, 0, SLACK);
	for (uint32_t i = 0; i < b->nnames; i++) {
		size_t n = render(o->fmt, b->names[i], o->dict + at,
				  &o->dr[i].width);
		o->dr[i].p = o->dict + at;
		o->dr[i].len = (uint32_t)n;
		at += n;
		if (n > o->dict_max)
			o->dict_max = n;
	}
	/* Static arrays, so the fixed-size copy of put_str() stays inside. */
	static const char none[SLACK], json_none[SLACK] = "\"\"";
	o->dr[b->nnames].p = o->fmt == PEBS_OUT_JSONL ? json_none : none;
	o->dr[b->nnames].len = o->fmt == PEBS_OUT_JSONL ? 2 : 0;
	o->dr[b->nnames].width = 0;
	return 0;
}

/* ------------------------------------------------------ symbol fields */

static void sym_forget(struct pebs_output *o)
{
	while (o->chunks) {
		struct schunk *c = o->chunks;
		o->chunks = c->next;
		free(c);
	}
	free(o->sc);
	o->sc = NULL;
	o->sc_cap = o->sc_n = 0;
	o->sym_max = 0;
}

void pebs_output_set_sym(struct pebs_output *o, struct pebs_sym *s)
{
	if (s == o->sym)
		return;
	sym_forget(o);
	o->sym = s;
}

static int sc_grow(struct pebs_output *o)
{
	size_t nc = o->sc_cap ? o->sc_cap * 2 : 256;
	struct sentry *t = calloc(nc, sizeof(*t));
	if (!t)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < o->sc_cap; i++) {
		if (!o->sc[i].key)
			continue;
		size_t j = ((uintptr_t)o->sc[i].key * 0x9e3779b97f4a7c15ull >>
			    20) & (nc - 1);
		while (t[j].key)
			j = (j + 1) & (nc - 1);
		t[j] = o->sc[i];
	}
	free(o->sc);
	o->sc = t;
	o->sc_cap = nc;
	return 0;
}

/* The rendering of symbol string @str, made on first sight. */
static const struct rstr *sym_render(struct pebs_output *o, const char *str)
{
	if ((o->sc_n + 1) * 2 > o->sc_cap && sc_grow(o) < 0)
		return NULL;
	size_t j = ((uintptr_t)str * 0x9e3779b97f4a7c15ull >> 20) &
		   (o->sc_cap - 1);
	while (o->sc[j].key) {
		if (o->sc[j].key == str)
			return o->sc[j].r;
		j = (j + 1) & (o->sc_cap - 1);
	}
	const size_t hdr = (sizeof(struct rstr) + 15) & ~(size_t)15;
	size_t need = hdr + render_max(strlen(str)) + SLACK + 16;
	struct schunk *c = o->chunks;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > 65536 ? need : 65536;
		c = calloc(1, sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->next = o->chunks;
		o->chunks = c;
	}
	/* the rstr first, 16-aligned, then the text */
	c->used = (c->used + 15) & ~(size_t)15;
	struct rstr *r = (struct rstr *)(void *)(c->buf + c->used);
	char *text = c->buf + c->used + hdr;
	size_t n = render(o->fmt, str, text, &r->width);
	r->p = text;
	r->len = (uint32_t)n;
	/* SLACK zero bytes stay after it for put_str()'s fixed copy */
	c->used += hdr + n + SLACK;
	o->sc[j].key = str;
	o->sc[j].r = r;
	o->sc_n++;
	if (n > o->sym_max)
		o->sym_max = n;
	return r;
}

/* Renders the symbol fields of every row of @b into ofield.sr. */
static int render_syms(struct pebs_output *o, const struct pebs_batch *b)
{
	if (b->n > o->sr_cap) {
		for (size_t k = 0; k < o->nf; k++) {
			struct ofield *x = &o->f[k];
			if (x->emit != E_SYM)
				continue;
			free(x->sr);
			x->sr = malloc(b->n * sizeof(*x->sr));
			if (!x->sr)
				return -PEBS_E_NOMEM;
		}
		o->sr_cap = b->n;
	}
	for (size_t k = 0; k < o->nf; k++) {
		struct ofield *x = &o->f[k];
		if (x->emit != E_SYM)
			continue;
		const char *last = NULL;
		const struct rstr *lr = NULL;
		for (size_t i = 0; i < b->n; i++) {
			const char *str = o->sym ? pebs_sym_str(o->sym, b, i,
					  (int)x->deriv) : PEBS_SYM_UNKNOWN;
			if (!str)
				return -PEBS_E_NOMEM;
			if (str != last) {
				lr = sym_render(o, str);
				if (!lr)
					return -PEBS_E_NOMEM;
				last = str;
			}
			x->sr[i] = lr;
		}
	}
	return 0;
}

/* --------------------------------------------------------------- open */

long pebs_output_find_repeat(int fmt, const int *fields, size_t nfields)
{
	if (fmt != PEBS_OUT_YAML && fmt != PEBS_OUT_JSONL)
		return -1;
	/* lists are a few hundred fields at most: quadratic is fine */
	for (size_t i = 1; i < nfields; i++)
		for (size_t j = 0; j < i; j++)
			if (fields[i] == fields[j])
				return (long)i;
	return -1;
}

struct pebs_output *pebs_output_open(int fmt, const int *fields,
				     size_t nfields, unsigned flags,
				     FILE *fp)
{
	if (fmt < PEBS_OUT_CSV || fmt > PEBS_OUT_TEXT || !nfields || !fp ||
	    !fields || pebs_output_find_repeat(fmt, fields, nfields) >= 0)
		return NULL;
	struct pebs_output *o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->fmt = fmt;
	o->flags = flags;
	o->fp = fp;
	o->nf = nfields;
	o->f = calloc(nfields, sizeof(*o->f));
	if (!o->f)
		goto fail;
	for (size_t i = 0; i < nfields; i++) {
		const struct pebs_field *pf = pebs_field_by_id(fields[i]);
		struct ofield *f = &o->f[i];
		if (!pf)
			goto fail;
		f->id = pf->id;
		f->kind = pf->kind;
		f->name = pf->name;
		f->width = text_width(pf);
		if (pf->id == PEBS_COL_EVENT) {
			f->emit = E_EVENT;
		} else if (pf->id >= PEBS_F_OP && pf->id <= PEBS_F_LOCK) {
			f->emit = E_DERIV;
			f->deriv = (unsigned)(pf->id - PEBS_F_OP);
			o->need_dsrc = 1;
		} else if (pf->id == PEBS_F_LINE) {
			f->emit = E_LINE;
		} else if (pf->id == PEBS_F_PAGE) {
			f->emit = E_PAGE;
		} else if (pebs_field_is_sym(pf->id)) {
			f->emit = E_SYM;
			f->deriv = (unsigned)(pf->id - PEBS_F_SYM);
			o->nsym++;
		} else if (pf->id < PEBS_COL_COUNT) {
			int u64 = pebs_col_info((unsigned)pf->id)->type ==
				  PEBS_T_U64;
			if (pf->kind == PEBS_FK_HEX)
				f->emit = u64 ? E_U64HEX : E_U32HEX;
			else
				f->emit = u64 ? E_U64DEC : E_U32DEC;
		} else {
			goto fail;
		}
		if (pf->kind == PEBS_FK_STR)
			o->nstr++;
		/* number, separators, json key and quotes, text padding */
		o->rowfix += 24 + strlen(pf->name) + 4 + f->width;
	}
	o->rowfix += 4;
	if (fmt == PEBS_OUT_YAML) {
		if (!yaml_emitter_initialize(&o->em))
			goto fail;
		o->yaml_init = 1;
	} else {
		o->cap = BUF_SIZE;
		o->buf = malloc(o->cap);
		o->dc = calloc(DCACHE, sizeof(*o->dc));
		if (!o->buf || !o->dc || render_names(o) < 0)
			goto fail;
	}
	return o;
fail:
	pebs_output_close(o);
	return NULL;
}

/* ------------------------------------------------------ buffered write */

static int flush(struct pebs_output *o)
{
	if (o->len && !o->err) {
		if (fwrite(o->buf, 1, o->len, o->fp) != o->len) {
			if (!errno)
				errno = EIO;
			o->err = -PEBS_E_IO;
		}
	}
	o->len = 0;
	return o->err;
}

/* Makes room for @n more bytes in the buffer. */
static int reserve(struct pebs_output *o, size_t n)
{
	if (o->cap - o->len >= n)
		return 0;
	if (flush(o) < 0)
		return o->err;
	if (n > o->cap) {
		char *nb = realloc(o->buf, n);
		if (!nb)
			return o->err = -PEBS_E_NOMEM;
		o->buf = nb;
		o->cap = n;
	}
	return 0;
}

static char *pad(char *p, size_t n)
{
	memset(p, ' ', n);
	return p + n;
}

static int header(struct pebs_output *o)
{
	if (o->flags & PEBS_OUT_NO_HEADER)
		return 0;
	size_t need = 2;
	for (size_t i = 0; i < o->nf; i++)
		need += strlen(o->f[i].name) + o->f[i].width + 2;
	if (reserve(o, need) < 0)
		return o->err;
	char *p = o->buf + o->len;
	for (size_t i = 0; i < o->nf; i++) {
		const struct ofield *f = &o->f[i];
		size_t n = strlen(f->name);
		if (i)
			*p++ = o->fmt == PEBS_OUT_CSV ? ',' : ' ';
		if (o->fmt == PEBS_OUT_TEXT && f->kind != PEBS_FK_STR &&
		    n < f->width)
			p = pad(p, f->width - n);
		memcpy(p, f->name, n);
		p += n;
		if (o->fmt == PEBS_OUT_TEXT && f->kind == PEBS_FK_STR &&
		    n < f->width && i + 1 < o->nf)
			p = pad(p, f->width - n);
	}
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
	return 0;
}

/* ------------------------------------------------- csv / jsonl / text */

static inline uint64_t num(const struct pebs_batch *b, const struct ofield *f,
			   size_t i)
{
	switch (f->emit) {
	case E_U64DEC: case E_U64HEX: return b->c64[f->id][i];
	case E_U32DEC: case E_U32HEX: return b->c32[f->id][i];
	case E_LINE: return b->c64[PEBS_COL_ADDR][i] & ~(uint64_t)63;
	case E_PAGE: return b->c64[PEBS_COL_ADDR][i] & ~(uint64_t)4095;
	default: return 0;
	}
}

static inline const struct rstr *str(struct pebs_output *o,
				     const struct pebs_batch *b,
				     const struct ofield *f, size_t i,
				     const struct dentry *de)
{
	if (f->emit == E_EVENT) {
		uint32_t e = b->c32[PEBS_COL_EVENT][i];
		return &o->dr[e < b->nnames ? e : b->nnames];
	}
	if (f->emit == E_SYM)
		return f->sr[i];
	return de->s[f->deriv];
}

static inline char *put_str(char *p, const struct rstr *s)
{
	if (s->len <= SLACK)
		memcpy(p, s->p, SLACK);
	else
		memcpy(p, s->p, s->len);
	return p + s->len;
}

/* Points each field at its column in @b, once per batch. */
static void bind(struct pebs_output *o, const struct pebs_batch *b)
{
	for (size_t k = 0; k < o->nf; k++) {
		struct ofield *x = &o->f[k];
		x->c64 = NULL;
		x->c32 = NULL;
		switch (x->emit) {
		case E_U64DEC: case E_U64HEX: x->c64 = b->c64[x->id]; break;
		case E_U32DEC: case E_U32HEX: x->c32 = b->c32[x->id]; break;
		case E_LINE: case E_PAGE: x->c64 = b->c64[PEBS_COL_ADDR]; break;
		case E_EVENT: x->c32 = b->c32[PEBS_COL_EVENT]; break;
		default: break;
		}
	}
}

/*
 * The hot path: one CSV row per sample, straight into the buffer, no call
 * per field.
 */
static int rows_csv(struct pebs_output *o, const struct pebs_batch *b,
		    size_t maxrow)
{
	const struct ofield *f = o->f, *fe = o->f + o->nf;
	const uint64_t *dsrc = b->c64[PEBS_COL_DSRC];
	const struct rstr *dr = o->dr;
	uint32_t nn = b->nnames;
	const struct dentry *de = NULL;
	bind(o, b);
	for (size_t i = 0; i < b->n; i++) {
		if (o->cap - o->len < maxrow && reserve(o, maxrow) < 0)
			return o->err;
		char *p = o->buf + o->len, *row = p;
		if (o->need_dsrc && (!de || de->key != dsrc[i]))
			de = dsrc_names(o, dsrc[i]);
		for (const struct ofield *x = f; x < fe; x++) {
			switch (x->emit) {
			case E_U64DEC:
				p = pebs_outfmt_u64(p, x->c64[i]);
				break;
			case E_U32DEC:
				p = pebs_outfmt_u32(p, x->c32[i]);
				break;
			case E_U64HEX:
				p = pebs_outfmt_hex(p, x->c64[i]);
				break;
			case E_U32HEX:
				p = pebs_outfmt_hex(p, x->c32[i]);
				break;
			case E_LINE:
				p = pebs_outfmt_hex(p, x->c64[i] &
						    ~(uint64_t)63);
				break;
			case E_PAGE:
				p = pebs_outfmt_hex(p, x->c64[i] &
						    ~(uint64_t)4095);
				break;
			case E_EVENT: {
				uint32_t e = x->c32[i];
				p = put_str(p, &dr[e < nn ? e : nn]);
				break;
			}
			case E_SYM:
				p = put_str(p, x->sr[i]);
				break;
			default:
				p = put_str(p, de->s[x->deriv]);
			}
			*p++ = ',';
		}
		/* A sole empty field is "": an empty line is no record to
		 * RFC 4180 readers, and pebs-import skips blank lines. */
		if (p == row + 1) {
			memcpy(row, "\"\",", 3);
			p = row + 3;
		}
		p[-1] = '\n';
		o->len = (size_t)(p - o->buf);
	}
	return 0;
}

static int rows_jsonl(struct pebs_output *o, const struct pebs_batch *b,
		      size_t maxrow)
{
	for (size_t i = 0; i < b->n; i++) {
		if (o->cap - o->len < maxrow && reserve(o, maxrow) < 0)
			return o->err;
		char *p = o->buf + o->len;
		const struct dentry *de = o->need_dsrc ?
			dsrc_names(o, b->c64[PEBS_COL_DSRC][i]) : NULL;
		*p++ = '{';
		for (size_t k = 0; k < o->nf; k++) {
			const struct ofield *x = &o->f[k];
			size_t n = strlen(x->name);
			if (k)
				*p++ = ',';
			*p++ = '"';
			memcpy(p, x->name, n);
			p += n;
			*p++ = '"';
			*p++ = ':';
			if (x->kind == PEBS_FK_STR) {
				const struct rstr *s = str(o, b, x, i, de);
				memcpy(p, s->p, s->len);
				p += s->len;
			} else if (x->kind == PEBS_FK_HEX) {
				*p++ = '"';
				p = pebs_outfmt_hex(p, num(b, x, i));
				*p++ = '"';
			} else {
				p = pebs_outfmt_u64(p, num(b, x, i));
			}
		}
		*p++ = '}';
		*p++ = '\n';
		o->len = (size_t)(p - o->buf);
	}
	return 0;
}

static int rows_text(struct pebs_output *o, const struct pebs_batch *b,
		     size_t maxrow)
{
	for (size_t i = 0; i < b->n; i++) {
		if (o->cap - o->len < maxrow && reserve(o, maxrow) < 0)
			return o->err;
		char *p = o->buf + o->len;
		const struct dentry *de = o->need_dsrc ?
			dsrc_names(o, b->c64[PEBS_COL_DSRC][i]) : NULL;
		for (size_t k = 0; k < o->nf; k++) {
			const struct ofield *x = &o->f[k];
			if (k)
				*p++ = ' ';
			if (x->kind == PEBS_FK_STR) {
				const struct rstr *s = str(o, b, x, i, de);
				memcpy(p, s->p, s->len);
				p += s->len;
				if (s->width < x->width && k + 1 < o->nf)
					p = pad(p, x->width - s->width);
				continue;
			}
			char tmp[24];
			char *e = x->kind == PEBS_FK_HEX ?
				pebs_outfmt_hex(tmp, num(b, x, i)) :
				pebs_outfmt_u64(tmp, num(b, x, i));
			size_t n = (size_t)(e - tmp);
			if (n < x->width)
				p = pad(p, x->width - n);
			memcpy(p, tmp, n);
			p += n;
		}
		*p++ = '\n';
		o->len = (size_t)(p - o->buf);
	}
	return 0;
}

/* --------------------------------------------------------------- yaml */

static int yaml_write(void *data, unsigned char *buf, size_t size)
{
	struct pebs_output *o = data;
	if (fwrite(buf, 1, size, o->fp) != size) {
		if (!errno)
			errno = EIO;
		o->err = -PEBS_E_IO;
		return 0;
	}
	return 1;
}

static int yaml_fail(struct pebs_output *o)
{
	if (!o->err)
		o->err = o->em.error == YAML_MEMORY_ERROR ? -PEBS_E_NOMEM :
			 -PEBS_E_IO;
	return o->err;
}

static int yaml_scalar(struct pebs_output *o, const char *s, size_t n,
		       int quote)
{
	yaml_event_t ev;
	yaml_scalar_style_t st = pebs_outfmt_yaml_has_linesep(s, n) ?
				 YAML_DOUBLE_QUOTED_SCALAR_STYLE :
				 quote ? YAML_SINGLE_QUOTED_SCALAR_STYLE :
				 YAML_PLAIN_SCALAR_STYLE;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
					  (yaml_char_t *)(uintptr_t)s,
					  (int)n, 1, 1, st))
		return yaml_fail(o);
	if (!yaml_emitter_emit(&o->em, &ev))
		return yaml_fail(o);
	return 0;
}

/* A string scalar: valid UTF-8, quoted when it would read as non-string. */
static int yaml_string(struct pebs_output *o, const char *s)
{
	size_t n = strlen(s);
	if (n * 3 + 1 > o->tmp_cap) {
		char *t = realloc(o->tmp, n * 3 + 1);
		if (!t)
			return o->err = -PEBS_E_NOMEM;
		o->tmp = t;
		o->tmp_cap = n * 3 + 1;
	}
	size_t m = pebs_outfmt_utf8_fix(o->tmp, s, n);
	o->tmp[m] = 0;
	return yaml_scalar(o, o->tmp, m,
			   pebs_outfmt_yaml_needs_quote(o->tmp, 1));
}

static int yaml_simple(struct pebs_output *o, yaml_event_t *ev, int ok)
{
	if (!ok || !yaml_emitter_emit(&o->em, ev))
		return yaml_fail(o);
	return 0;
}

static int yaml_start(struct pebs_output *o)
{
	yaml_event_t ev;
	yaml_emitter_set_output(&o->em, yaml_write, o);
	yaml_emitter_set_unicode(&o->em, 1);
	yaml_emitter_set_width(&o->em, -1);
	if (yaml_simple(o, &ev, yaml_stream_start_event_initialize(
				&ev, YAML_UTF8_ENCODING)) ||
	    yaml_simple(o, &ev, yaml_document_start_event_initialize(
				&ev, NULL, NULL, NULL, 1)) ||
	    yaml_simple(o, &ev, yaml_sequence_start_event_initialize(
				&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE)))
		return o->err;
	return 0;
}

static int rows_yaml(struct pebs_output *o, const struct pebs_batch *b)
{
	yaml_event_t ev;
	char tmp[24];
	for (size_t i = 0; i < b->n; i++) {
		if (yaml_simple(o, &ev, yaml_mapping_start_event_initialize(
				&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE)))
			return o->err;
		for (size_t k = 0; k < o->nf; k++) {
			const struct ofield *x = &o->f[k];
			int r = yaml_scalar(o, x->name, strlen(x->name), 0);
			if (r)
				return r;
			if (x->emit == E_SYM) {
				const char *str = o->sym ? pebs_sym_str(o->sym,
						b, i, (int)x->deriv) :
						PEBS_SYM_UNKNOWN;
				r = str ? yaml_string(o, str) : -PEBS_E_NOMEM;
			} else if (x->kind == PEBS_FK_STR) {
				r = yaml_string(o, pebs_field_str(b, i, x->id));
			} else {
				char *e = x->kind == PEBS_FK_HEX ?
					pebs_outfmt_hex(tmp, num(b, x, i)) :
					pebs_outfmt_u64(tmp, num(b, x, i));
				r = yaml_scalar(o, tmp, (size_t)(e - tmp), 0);
			}
			if (r)
				return r;
		}
		if (yaml_simple(o, &ev, yaml_mapping_end_event_initialize(&ev)))
			return o->err;
	}
	return 0;
}

/* ---------------------------------------------------------------- api */

static int start(struct pebs_output *o)
{
	if (o->started)
		return 0;
	o->started = 1;
	return o->fmt == PEBS_OUT_YAML ? yaml_start(o) :
	       o->fmt == PEBS_OUT_JSONL ? 0 : header(o);
}

/* The widest event column a text table takes from its names. */
#define EVENT_WIDTH_MAX 48

/*
 * Text: before the header, the event column grows to the longest name of
 * the first batch (at most EVENT_WIDTH_MAX), so that a table of SDM names
 * (MEM_TRANS_RETIRED.LOAD_LATENCY) lines up; the table streams, so a
 * longer name that comes later shifts its own rows only.  A name over the
 * cap still widens the column to the cap (perf imports carry 60-character
 * names next to short ones): skipping it would leave the column at its
 * default width and misalign every row of the table, not just its own.
 */
static void fit_event_width(struct pebs_output *o, const struct pebs_batch *b)
{
	for (size_t k = 0; k < o->nf; k++) {
		struct ofield *f = &o->f[k];
		if (f->id != PEBS_COL_EVENT)
			continue;
		for (uint32_t j = 0; j < b->nnames; j++) {
			uint32_t w = o->dr[j].width;
			if (w > EVENT_WIDTH_MAX)
				w = EVENT_WIDTH_MAX;
			if (w > f->width) {
				o->rowfix += w - f->width;
				f->width = w;
			}
		}
	}
}

int pebs_output_batch(struct pebs_output *o, const struct pebs_batch *b)
{
	if (o->err)
		return o->err;
	if (o->fmt != PEBS_OUT_YAML && o->nstr && render_dict(o, b) < 0)
		return o->err = -PEBS_E_NOMEM;
	if (o->fmt == PEBS_OUT_TEXT && !o->started)
		fit_event_width(o, b);
	if (start(o) < 0)
		return o->err;
	if (o->fmt == PEBS_OUT_YAML) {
		/* libyaml's emitter keeps what it wrote until flushed */
		int r = rows_yaml(o, b);
		if (!r && !yaml_emitter_flush(&o->em))
			r = yaml_fail(o);
		return r;
	}
	if (o->nsym && render_syms(o, b) < 0)
		return o->err = -PEBS_E_NOMEM;
	size_t smax = o->dict_max > o->deriv_max ? o->dict_max :
		      o->deriv_max;
	if (o->sym_max > smax)
		smax = o->sym_max;
	size_t maxrow = o->rowfix + o->nstr * (smax + SLACK);
	int r = o->fmt == PEBS_OUT_CSV ? rows_csv(o, b, maxrow) :
		o->fmt == PEBS_OUT_JSONL ? rows_jsonl(o, b, maxrow) :
		rows_text(o, b, maxrow);
	/* Hand every batch to stdio, so a live pipe sees rows as they come. */
	return r < 0 ? r : flush(o);
}

int pebs_output_close(struct pebs_output *o)
{
	if (!o)
		return 0;
	if (!o->err && o->f && (o->buf || o->yaml_init))
		start(o);
	if (o->fmt == PEBS_OUT_YAML && o->yaml_init && o->started &&
	    !o->err) {
		yaml_event_t ev;
		if (!yaml_simple(o, &ev,
				 yaml_sequence_end_event_initialize(&ev)) &&
		    !yaml_simple(o, &ev, yaml_document_end_event_initialize(
					&ev, 1)) &&
		    !yaml_simple(o, &ev, yaml_stream_end_event_initialize(&ev)))
			if (!yaml_emitter_flush(&o->em))
				yaml_fail(o);
	}
	if (o->buf)
		flush(o);
	int err = o->err;
	if (o->yaml_init)
		yaml_emitter_delete(&o->em);
	sym_forget(o);
	for (size_t i = 0; o->f && i < o->nf; i++)
		free(o->f[i].sr);
	free(o->f);
	free(o->buf);
	free(o->dict);
	free(o->dr);
	free(o->names);
	free(o->names_buf);
	free(o->dc);
	free(o->tmp);
	free(o);
	return err;
}
