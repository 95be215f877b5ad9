/*
 * expr.c - pebs-filter expressions: parser, compiler to interval leaves,
 * column-wise evaluation with selection vectors, block (min/max) analysis.
 *
 * Every numeric comparison is compiled into "column value lies in a sorted
 * list of disjoint closed intervals": `lat > 200` is lat in [201, max],
 * `line(addr) == X` is addr in [X, X+63], `t >= 1.5s` becomes a time
 * interval once the clock is known.  One leaf form keeps both the batch
 * loops (one subtract and compare per sample) and the block analysis
 * (interval against [min, max]) small and exact.
 */
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_plan.h"
#include "pebs_sym.h"
#include "dsrc_int.h"
#include "meta_int.h"
#include "output_fmt.h"

/*
 * Parentheses, not and line()/page() nest at most MAXDEPTH deep
 * (pebs-filter(1)); L->depth counts the expression itself too, so it
 * goes to MAXDEPTH + 1 (it went to MAXDEPTH: 48 nested were refused).
 */
#define MAXDEPTH 48
#define MAXNODES 4096
#define MAXSET 4096	/* items of a set: a power of 2 */
#define U64MAX UINT64_MAX

enum nkind { N_TRUE, N_FALSE, N_AND, N_OR, N_NOT, N_NUM, N_DSRC, N_EVENT,
	     N_T, N_CMP2, N_SYM };
/* OP_MATCH, OP_NMATCH: "~" and "!~", glob patterns of string fields */
enum cmpop { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH,
	     OP_NMATCH };

struct ival { uint64_t lo, hi; };

struct node {
	int kind;
	int a, b;		/* children (AND/OR/NOT) */
	int col;		/* N_NUM, N_CMP2 left column */
	int col2;		/* N_CMP2 right column */
	uint64_t m1, m2;	/* N_CMP2 value masks (line/page) */
	int op;			/* N_T, N_CMP2 */
	int neg;		/* N_DSRC, N_EVENT, N_SYM: negated membership */
	int glob;		/* N_EVENT, N_SYM: names are fnmatch patterns */
	int symf;		/* N_SYM: enum pebs_sym_field */
	uint64_t mask;		/* N_DSRC feature bits */
	struct ival *iv;	/* N_NUM intervals; N_T lowered intervals */
	size_t niv;
	char **names;		/* N_EVENT, N_SYM */
	size_t nnames;
	/* N_EVENT: each name's column in the text, and the portable event
	 * it names (enum pebs_evspec_type; PEBS_SPEC_NAME: none) */
	size_t *ncol;
	uint8_t *nport;
	/* N_SYM: symbol string (pointer from pebs_sym_str) -> match */
	const char **ckey;
	uint8_t *cmatch;
	size_t ccap, cn;
	/* N_T constant, exactly as written: the decimal digits tdig
	 * (malloc'd; "" for 0) times 10^texp units */
	char *tdig;
	int texp;
	double tval;		/* N_T constant as a double (for a clock
				 * rate that is not an integer) */
	int tunit;		/* N_T: 0 raw ticks, else index in units[] */
	size_t tcol;		/* N_T: column in the text (for messages) */
};

struct pebs_expr {
	struct node *nodes;
	size_t nn, ncap;
	int root;
	uint64_t cols;
	int uses_t;
	int clock_ready;	/* atomic; published by set_clock */
	/* the segment whose clock the `t` leaves are lowered for
	 * (pebs_expr_set_segment), its metadata's meta_serial(); 0 (that
	 * of NULL) after pebs_expr_set_clock() */
	uint64_t seg;
	/*
	 * Each segment's start, by its metadata: recorded by the reader's
	 * filter callback (pebs_expr_block_segment) or the first batch
	 * (pebs_expr_set_segment), whichever comes first, read by both.
	 * Known by meta_serial(), not by address: the expression outlives
	 * readers, and a reader frees its metadata at close, where the
	 * next one's is often allocated.  Nothing points into metadata.
	 */
	pthread_mutex_t smu;
	struct segstart {
		uint64_t serial;
		uint64_t t0;
		char *bad;	/* a malformed time.origin (a copy), or NULL */
	} *segs;
	size_t nsegs, segcap;
	/* scratch for evaluation */
	uint32_t **pool;
	size_t npool, pool_used, pool_cap;	/* pool_cap: elements each */
	uint8_t *evmatch;
	size_t evcap;
	uint64_t ckey[256], cval[256];
	uint8_t cvalid[256];
	struct pebs_sym *sym;	/* resolves N_SYM leaves; NULL: [unknown] */
};

/* --------------------------------------------------- data-source classes */

/* Feature word layout: classes in bits 0-10 (PEBS_DSF_*), one-hot derived
 * names above, so any predicate over dsrc is "features & mask". */
#define F_MEM_SHIFT 16		/* 16 mem values */
#define F_SNOOP_SHIFT 32	/* 6 snoop values */
#define F_OP_SHIFT 40		/* 5 op values */
#define F_TLB_SHIFT 48		/* hit, miss, na */
#define F_LOCK_SHIFT 52		/* locked, na, no */

uint64_t pebs_expr_dsrc_class(uint64_t d)
{
	uint64_t f = 0;
	enum pebs_mem m = pebs_dsrc_mem(d);
	enum pebs_op op = pebs_dsrc_op(d);
	unsigned lvl = PEBS_DS_LVL(d);
	if (PEBS_DS_SNOOP(d) & PEBS_DS_SNOOP_HITM)
		f |= PEBS_DSF_HITM;
	if (PEBS_DS_REMOTE(d) || (lvl & (PEBS_DS_LVL_REM_RAM1 |
	    PEBS_DS_LVL_REM_RAM2 | PEBS_DS_LVL_REM_CCE1 |
	    PEBS_DS_LVL_REM_CCE2)))
		f |= PEBS_DSF_REMOTE;
	if (m == PEBS_MEM_LOCAL_RAM || m == PEBS_MEM_REMOTE_RAM)
		f |= PEBS_DSF_DRAM;
	if (m == PEBS_MEM_L1)
		f |= PEBS_DSF_L1;
	if (m == PEBS_MEM_LFB)
		f |= PEBS_DSF_LFB;
	if (m == PEBS_MEM_L2)
		f |= PEBS_DSF_L2;
	if (m == PEBS_MEM_L3)
		f |= PEBS_DSF_L3;
	if (PEBS_DS_TLB(d) & PEBS_DS_TLB_MISS)
		f |= PEBS_DSF_STLB_MISS;
	if (PEBS_DS_LOCK(d) & PEBS_DS_LOCK_LOCKED)
		f |= PEBS_DSF_LOCKED;
	if (op == PEBS_OP_STORE)
		f |= PEBS_DSF_STORE;
	if (op == PEBS_OP_LOAD)
		f |= PEBS_DSF_LOAD;
	f |= 1ull << (F_MEM_SHIFT + (unsigned)m);
	f |= 1ull << (F_SNOOP_SHIFT + (unsigned)pebs_dsrc_snoop(d));
	f |= 1ull << (F_OP_SHIFT + (unsigned)op);
	f |= 1ull << (F_TLB_SHIFT + (unsigned)lib_dsrc_tlb(d));
	f |= 1ull << (F_LOCK_SHIFT + (unsigned)lib_dsrc_lock(d));
	return f;
}

static const struct { const char *name; uint64_t bit; } classes[] = {
	{ "hitm", PEBS_DSF_HITM }, { "remote", PEBS_DSF_REMOTE },
	{ "dram", PEBS_DSF_DRAM }, { "l1", PEBS_DSF_L1 },
	{ "lfb", PEBS_DSF_LFB }, { "l2", PEBS_DSF_L2 }, { "l3", PEBS_DSF_L3 },
	{ "stlb_miss", PEBS_DSF_STLB_MISS }, { "locked", PEBS_DSF_LOCKED },
	{ "store", PEBS_DSF_STORE }, { "load", PEBS_DSF_LOAD },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

int pebs_expr_sample_keep(uint64_t time, uint32_t cpu, uint64_t n)
{
	if (n <= 1)
		return 1;
	uint64_t z = time ^ ((uint64_t)cpu * 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z % n == 0;
}

/* ---------------------------------------------------------------- lexer */

enum tok { T_END, T_NUM, T_STR, T_WORD, T_LP, T_RP, T_COMMA, T_DOTDOT,
	   T_CMP, T_AND, T_OR, T_NOT, T_IN, T_BAD };

static const char *const units[] = { "", "ns", "us", "ms", "s" };
/* a second is 10^-unit_exp[u] of unit u (raw ticks: 0, unused) */
static const int unit_exp[] = { 0, -9, -6, -3, 0 };

struct lex {
	const char *src, *p;
	int tok;
	const char *start;	/* the current token's first byte */
	size_t col;		/* 1-based column of the current token, in
				 * characters (UTF-8 code points) */
	const char *colp;	/* text up to colp is counted in ccol */
	size_t ccol;
	/* T_NUM */
	uint64_t num;
	double dnum;
	int integral;		/* the value is the integer num */
	const char *dig;	/* the value is dig * 10^dexp exactly: */
	int dexp;		/* its significant digits (kept, "" for 0) */
	int unit;		/* index in units[], 0 none */
	/* T_STR / T_WORD, any length */
	char *text;
	size_t textcap;
	int op;			/* T_CMP */
	/* parser */
	struct pebs_expr *e;
	struct pebs_expr_error *err;
	int failed;
	int nomem;		/* the failure was an allocation: the caller
				 * gets -PEBS_E_NOMEM, not a parse error */
	int depth;
	/* strings operands point to, freed when parsing ends (operands
	 * are copied by value, so they own nothing) */
	char **kept;
	size_t nkept, keptcap;
};

static void fail(struct lex *L, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct lex *L, size_t col, const char *fmt, ...)
{
	if (L->failed)
		return;
	L->failed = 1;
	if (!L->err)
		return;
	va_list ap;
	va_start(ap, fmt);
	L->err->col = col;
	vsnprintf(L->err->msg, sizeof(L->err->msg), fmt, ap);
	va_end(ap);
}

/* An allocation failed: a system failure, not a fault of the text. */
static void fail_nomem(struct lex *L, size_t col)
{
	if (!L->failed)
		L->nomem = 1;
	fail(L, col, "out of memory");
}

/*
 * Keeps a copy of @n bytes at @str until parsing ends; returns it, or NULL
 * (out of memory, reported).
 */
static const char *lex_keep(struct lex *L, const char *str, size_t n)
{
	if (L->nkept == L->keptcap) {
		size_t nc = L->keptcap ? L->keptcap * 2 : 16;
		char **nk = realloc(L->kept, nc * sizeof(*nk));
		if (!nk) {
			fail_nomem(L, L->col);
			return NULL;
		}
		L->kept = nk;
		L->keptcap = nc;
	}
	char *c = strndup(str, n);
	if (!c) {
		fail_nomem(L, L->col);
		return NULL;
	}
	L->kept[L->nkept++] = c;
	return c;
}

/* Frees what the lexer holds: its text buffer and the kept strings. */
static void lex_done(struct lex *L)
{
	for (size_t i = 0; i < L->nkept; i++)
		free(L->kept[i]);
	free(L->kept);
	free(L->text);
}

/* Sets byte @i of the token text, growing it; 0 or -1 (reported). */
static int text_put(struct lex *L, size_t i, char c)
{
	if (i >= L->textcap) {
		size_t nc = L->textcap ? L->textcap * 2 : 128;
		char *nt = realloc(L->text, nc);
		if (!nt) {
			fail_nomem(L, L->col);
			return -1;
		}
		L->text = nt;
		L->textcap = nc;
	}
	L->text[i] = c;
	return 0;
}

static int isword(int c)
{
	return lib_isalnum(c) || c == '_' || c == '-' || c == '.';
}

/*
 * Fails on the number suffix at @p: its letters, digits and _ named (up
 * to 16, then "..."), whatever made it bad.
 */
static void bad_suffix(struct lex *L, const char *p)
{
	size_t m = 0;
	while (m < 17 && (lib_isalnum((unsigned char)p[m]) || p[m] == '_'))
		m++;
	fail(L, L->col, "bad number suffix \"%.*s%s\" (k or K, M, G, or a "
	     "time unit s, ms, us, ns)", (int)(m < 17 ? m : 16), p,
	     m < 17 ? "" : "...");
}

/*
 * A number is kept as the decimal it was written as, all its significant
 * digits times a power of ten, and not only as a double: `t == 9ms` must
 * land on tick 9000000 exactly (9 * 1e-3 * 1e9 in double is
 * 9000000.000000002), and `t == 1.00000000000000000001s`, with more
 * digits than 64 bits hold, still lies strictly between two ns ticks.
 */
static void lex_number(struct lex *L)
{
	const char *p = L->p;
	uint64_t v = 0;
	int over = 0, exp10 = 0;
	/* the digits as written: integer part [ip, ie), fraction [fp, fe) */
	const char *ip = p, *ie = p, *fp = p, *fe = p;
	char hex[24];
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!lib_isxdigit((unsigned char)*p)) {
			fail(L, L->col, "bad hex number");
			return;
		}
		while (lib_isxdigit((unsigned char)*p)) {
			int d = lib_isdigit((unsigned char)*p) ? *p - '0' :
				lib_tolower((unsigned char)*p) - 'a' + 10;
			if (v >> 60)
				over = 1;
			v = v << 4 | (unsigned)d;
			p++;
		}
		ip = hex;
		ie = hex + snprintf(hex, sizeof(hex), "%llu",
				    (unsigned long long)v);
	} else {
		while (lib_isdigit((unsigned char)*p)) {
			unsigned d = (unsigned)(*p - '0');
			if (v > (U64MAX - d) / 10)
				over = 1;
			v = v * 10 + d;
			p++;
		}
		ie = p;
		/* "1.5" is a fraction, "1..5" a range */
		if (p[0] == '.' && lib_isdigit((unsigned char)p[1])) {
			const char *end = fp = ++p;
			while (lib_isdigit((unsigned char)*end))
				end++;
			/* trailing zeros change nothing: "1.50" is 15e-1 */
			for (fe = end; fe > fp && fe[-1] == '0'; fe--)
				;
			/* the double (dnum) takes what 64 bits hold */
			for (; p < fe && !over; p++) {
				unsigned d = (unsigned)(*p - '0');
				if (v > (U64MAX - d) / 10)
					break;
				v = v * 10 + d;
				exp10--;
			}
			p = end;
		}
	}
	if (over) {
		fail(L, L->col, "number too large");
		return;
	}
	char suf[8];
	size_t n = 0;
	while (lib_isalpha((unsigned char)p[n]) && n < sizeof(suf) - 1) {
		suf[n] = p[n];
		n++;
	}
	suf[n] = 0;
	if (lib_isalnum((unsigned char)p[n]) || p[n] == '_') {
		bad_suffix(L, p);
		return;
	}
	L->unit = 0;
	int sexp = 0;
	if (n == 0) {
	} else if (strcmp(suf, "k") == 0 || strcmp(suf, "K") == 0) {
		sexp = 3;
	} else if (strcmp(suf, "M") == 0) {
		sexp = 6;
	} else if (strcmp(suf, "G") == 0) {
		sexp = 9;
	} else {
		int u = 0;
		for (int i = 1; i < 5; i++)
			if (strcmp(suf, units[i]) == 0)
				u = i;
		if (!u) {
			bad_suffix(L, p);
			return;
		}
		L->unit = u;
	}
	p += n;
	exp10 += sexp;
	L->dnum = exp10 < 0 ? (double)v / pow(10, -exp10) :
		  (double)v * pow(10, exp10);
	/* the significant digits, without leading or trailing zeros */
	size_t ni = (size_t)(ie - ip), nf = (size_t)(fe - fp);
	char *d = malloc(ni + nf + 1);
	if (!d) {
		fail_nomem(L, L->col);
		return;
	}
	memcpy(d, ip, ni);
	memcpy(d + ni, fp, nf);
	size_t nd = ni + nf, skip = 0;
	int dexp = sexp - (int)nf;
	while (nd && d[nd - 1] == '0') {
		nd--;
		dexp++;
	}
	while (skip < nd && d[skip] == '0')
		skip++;
	L->dig = lex_keep(L, d + skip, nd - skip);
	free(d);
	if (!L->dig)
		return;
	L->dexp = dexp;
	L->integral = dexp >= 0;
	/* the integer part (all of an integer: its value must fit) */
	uint64_t num = 0;
	nd -= skip;
	for (long i = 0; i < (long)nd + dexp; i++) {
		unsigned x = i < (long)nd ? (unsigned)(L->dig[i] - '0') : 0;
		if (num > (U64MAX - x) / 10) {
			fail(L, L->col, "number too large");
			return;
		}
		num = num * 10 + x;
	}
	L->num = num;
	L->p = p;
	L->tok = T_NUM;
}

/*
 * Checks the escape at @p (a backslash inside a quoted string): \\, \" and
 * \' quote a backslash or quote, \* \? \[ a glob character (a literal one
 * in a ~ pattern; itself elsewhere).  Any other character after the
 * backslash is an error rather than itself, so that "b\c" cannot silently
 * mean "bc" and a pattern cannot lose an escape it seemed to have.
 * Returns 0, or -1 with the error at the backslash's column.
 */
static int lex_escape(struct lex *L, const char *p)
{
	unsigned char x = (unsigned char)p[1];
	if (strchr("\\\"'*?[", x))
		return 0;
	size_t col = L->col;
	for (const char *q = L->start; q < p; q++)
		col += ((unsigned char)*q & 0xc0) != 0x80;
	/* show the character as typed: all of a UTF-8 sequence, else '?' */
	int len = 1;
	if (x >= 0xc0)
		while (len < 4 && ((unsigned char)p[1 + len] & 0xc0) == 0x80)
			len++;
	fail(L, col, "unknown escape \"\\%.*s\" (known: \\\\ \\\" \\', and "
	     "in ~ patterns \\* \\? \\[ for a literal * ? [)",
	     x >= 0x80 || lib_isprint(x) ? len : 1,
	     x >= 0x80 || lib_isprint(x) ? p + 1 : "?");
	return -1;
}

static void lex_next(struct lex *L)
{
	if (L->failed) {
		L->tok = T_BAD;
		return;
	}
	while (lib_isspace((unsigned char)*L->p))
		L->p++;
	/* columns count characters, not bytes: skip UTF-8 continuation
	 * bytes, so the column after "é" is where a terminal shows it */
	for (; L->colp < L->p; L->colp++)
		L->ccol += ((unsigned char)*L->colp & 0xc0) != 0x80;
	L->col = L->ccol + 1;
	L->start = L->p;
	const char *p = L->p;
	char c = *p;
	switch (c) {
	case 0: L->tok = T_END; return;
	case '(': L->tok = T_LP; L->p++; return;
	case ')': L->tok = T_RP; L->p++; return;
	case ',': L->tok = T_COMMA; L->p++; return;
	default: break;
	}
	if (c == '.' && p[1] == '.') {
		L->tok = T_DOTDOT;
		L->p += 2;
		return;
	}
	if (c == '&' && p[1] == '&') {
		L->tok = T_AND;
		L->p += 2;
		return;
	}
	if (c == '|' && p[1] == '|') {
		L->tok = T_OR;
		L->p += 2;
		return;
	}
	if (c == '~' || (c == '!' && p[1] == '~')) {
		L->tok = T_CMP;
		L->op = c == '~' ? OP_MATCH : OP_NMATCH;
		L->p += c == '~' ? 1 : 2;
		return;
	}
	if (strchr("=!<>", c)) {
		int two = p[1] == '=';
		L->tok = T_CMP;
		if (c == '=') {
			L->op = OP_EQ;	/* "=" and "==" */
		} else if (c == '!') {
			if (!two) {
				L->tok = T_NOT;
				L->p++;
				return;
			}
			L->op = OP_NE;
		} else if (c == '<') {
			L->op = two ? OP_LE : OP_LT;
		} else {
			L->op = two ? OP_GE : OP_GT;
		}
		L->p += 1 + two;
		return;
	}
	if (c == '"' || c == '\'') {
		size_t n = 0;
		p++;
		while (*p && *p != c) {
			/* a backslash that stays (see lex_escape) takes a byte */
			size_t keep = *p == '\\' && p[1] && p[1] != '"' &&
				      p[1] != '\'';
			if (*p == '\\' && p[1]) {
				if (lex_escape(L, p) < 0 || (keep &&
				    text_put(L, n++, '\\') < 0)) {
					L->tok = T_BAD;
					return;
				}
				p++;
			}
			if (text_put(L, n++, *p++) < 0) {
				L->tok = T_BAD;
				return;
			}
		}
		if (!*p) {
			fail(L, L->col, "unterminated string");
			L->tok = T_BAD;
			return;
		}
		if (text_put(L, n, 0) < 0) {
			L->tok = T_BAD;
			return;
		}
		L->p = p + 1;
		L->tok = T_STR;
		return;
	}
	if (lib_isdigit((unsigned char)c)) {
		lex_number(L);
		if (L->failed)
			L->tok = T_BAD;
		return;
	}
	if (lib_isalpha((unsigned char)c) || c == '_') {
		size_t n = 0;
		/* '-' and '.' continue a word ("load-latency"), but not ".."
		 */
		while (isword((unsigned char)*p) &&
		       !(p[0] == '.' && p[1] == '.')) {
			if (text_put(L, n++, *p++) < 0) {
				L->tok = T_BAD;
				return;
			}
		}
		if (text_put(L, n, 0) < 0) {
			L->tok = T_BAD;
			return;
		}
		L->p = p;
		if (strcmp(L->text, "and") == 0)
			L->tok = T_AND;
		else if (strcmp(L->text, "or") == 0)
			L->tok = T_OR;
		else if (strcmp(L->text, "not") == 0)
			L->tok = T_NOT;
		else if (strcmp(L->text, "in") == 0)
			L->tok = T_IN;
		else
			L->tok = T_WORD;
		return;
	}
	fail(L, L->col, "unexpected character '%c'", lib_isprint((unsigned char)c)
	     ? c : '?');
	L->tok = T_BAD;
}

/*
 * Strings keep their escapes in fnmatch(3) form: \\ \* \? \[ stay two
 * bytes, so a ~ pattern hands them to fnmatch() as a literal backslash,
 * star, question mark or bracket; \" and \' are the quote alone (fnmatch
 * reads a quote as itself).  Comparisons that want the string itself (==,
 * in, the data-source values) drop the backslashes with unescape(), which
 * returns a malloc'd copy (NULL: out of memory).
 */
static char *unescape(const char *src)
{
	char *dst = malloc(strlen(src) + 1);
	size_t n = 0;
	if (!dst)
		return NULL;
	for (; *src; src++) {
		if (*src == '\\' && src[1])
			src++;
		dst[n++] = *src;
	}
	dst[n] = 0;
	return dst;
}

/* ---------------------------------------------------------------- nodes */

static int node_new(struct lex *L, int kind)
{
	struct pebs_expr *e = L->e;
	if (e->nn >= MAXNODES) {
		fail(L, L->col, "expression too large (more than %d "
		     "nodes)", MAXNODES);
		return -1;
	}
	if (e->nn == e->ncap) {
		size_t nc = e->ncap ? e->ncap * 2 : 16;
		struct node *nn = realloc(e->nodes, nc * sizeof(*nn));
		if (!nn) {
			fail_nomem(L, L->col);
			return -1;
		}
		e->nodes = nn;
		e->ncap = nc;
	}
	struct node *n = &e->nodes[e->nn];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->a = n->b = -1;
	return (int)e->nn++;
}

static int mk_bin(struct lex *L, int kind, int a, int b)
{
	if (a < 0 || b < 0)
		return -1;
	struct node *na = &L->e->nodes[a], *nb = &L->e->nodes[b];
	/* constant folding keeps TRUE/FALSE out of evaluated programs */
	if (kind == N_AND) {
		if (na->kind == N_FALSE || nb->kind == N_TRUE)
			return a;
		if (nb->kind == N_FALSE || na->kind == N_TRUE)
			return b;
	} else {
		if (na->kind == N_TRUE || nb->kind == N_FALSE)
			return a;
		if (nb->kind == N_TRUE || na->kind == N_FALSE)
			return b;
	}
	int n = node_new(L, kind);
	if (n < 0)
		return -1;
	L->e->nodes[n].a = a;
	L->e->nodes[n].b = b;
	return n;
}

static int mk_not(struct lex *L, int a)
{
	if (a < 0)
		return -1;
	int k = L->e->nodes[a].kind;
	if (k == N_TRUE || k == N_FALSE)
		return node_new(L, k == N_TRUE ? N_FALSE : N_TRUE);
	if (k == N_NOT)
		return L->e->nodes[a].a;
	int n = node_new(L, N_NOT);
	if (n >= 0)
		L->e->nodes[n].a = a;
	return n;
}

/* ------------------------------------------------------------ intervals */

static int ival_cmp(const void *x, const void *y)
{
	const struct ival *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts and merges overlapping or adjacent intervals in place. */
static size_t ival_norm(struct ival *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), ival_cmp);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[k].hi == U64MAX || v[i].lo <= v[k].hi + 1) {
			if (v[i].hi > v[k].hi)
				v[k].hi = v[i].hi;
		} else {
			v[++k] = v[i];
		}
	}
	return k + 1;
}

/* Complement of a normalized list into @out (capacity n + 1). */
static size_t ival_not(const struct ival *v, size_t n, struct ival *out)
{
	size_t k = 0;
	uint64_t next = 0;
	int done = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].lo > next)
			out[k++] = (struct ival){ next, v[i].lo - 1 };
		if (v[i].hi == U64MAX) {
			done = 1;
			break;
		}
		next = v[i].hi + 1;
	}
	if (!done)
		out[k++] = (struct ival){ next, U64MAX };
	return k;
}

/* Interval of x with "x OP c"; returns 0 when empty. */
static int ival_of(int op, uint64_t c, struct ival *out, size_t *n)
{
	*n = 1;
	switch (op) {
	case OP_EQ: out[0] = (struct ival){ c, c }; return 1;
	case OP_LE: out[0] = (struct ival){ 0, c }; return 1;
	case OP_GE: out[0] = (struct ival){ c, U64MAX }; return 1;
	case OP_LT:
		if (!c)
			return *n = 0;
		out[0] = (struct ival){ 0, c - 1 };
		return 1;
	case OP_GT:
		if (c == U64MAX)
			return *n = 0;
		out[0] = (struct ival){ c + 1, U64MAX };
		return 1;
	default: {
		struct ival one = { c, c };
		*n = ival_not(&one, 1, out);
		return *n != 0;
	}
	}
}

/*
 * "(v & mask) in [lo, hi]" as an interval on v, for mask = ~(2^k - 1)
 * (line(): k = 6, page(): k = 12).
 */
static int ival_unmask(struct ival *iv, uint64_t mask)
{
	uint64_t low = ~mask;
	uint64_t lo = iv->lo, hi = iv->hi;
	if (lo & low) {
		if (lo > U64MAX - low)
			return 0;
		lo = (lo + low) & mask;
	}
	hi = (hi & mask) | low;
	if (lo > hi)
		return 0;
	iv->lo = lo;
	iv->hi = hi;
	return 1;
}

/* ------------------------------------------------------------- operands */

enum okind { O_FIELD, O_NUM, O_STR, O_WORD, O_T };

struct operand {
	int kind;
	size_t col;
	int field;		/* O_FIELD: column id or PEBS_F_* */
	uint64_t mask;		/* O_FIELD numeric: value = column & mask */
	uint64_t num;
	double dnum;
	int integral, unit;
	const char *dig;	/* O_NUM: as struct lex */
	int dexp;
	const char *src;	/* O_NUM: the number as written (not */
	int srclen;		/* NUL-terminated), for messages */
	const char *text;	/* O_STR, O_WORD, and O_FIELD and O_T from a
				 * word (lex_keep) */
	int word;		/* O_FIELD, O_T: a bare word (no call), which
				 * is also a string value */
};

static int parse_or(struct lex *L);

static int field_kind(int id)
{
	const struct pebs_field *f = pebs_field_by_id(id);
	return f ? f->kind : 0;
}

/* Keeps @name in *@best when it is closer to @w than *@bd edits. */
static void closer(const char *w, const char *name, const char **best,
		   int *bd)
{
	int d = pebs_name_distance(w, name);
	/* as many edits as letters is a different word ("l1", "ip") */
	if (d < *bd && (size_t)d < strlen(w)) {
		*bd = d;
		*best = name;
	}
}

/*
 * The name a mistyped word most likely meant (at most 2 edits), or NULL:
 * the field registry's suggestion (which wins a tie), or a name only the
 * language has, t, or where a whole condition may stand (@cond), a class.
 */
static const char *suggest(const char *w, int cond)
{
	const char *best = pebs_field_suggest(w);
	int bd = best ? pebs_name_distance(w, best) : 3;
	for (size_t i = 0; cond && i < NCLASSES; i++)
		closer(w, classes[i].name, &best, &bd);
	closer(w, "t", &best, &bd);
	return best;
}

/*
 * The string field whose value @w names ("L3": mem), with that value as
 * written in *@v, or NULL when none or more than one ("na") does.
 */
static const char *value_of(const char *w, const char **v)
{
	int m = pebs_dsrc_mem_parse(w), s = pebs_dsrc_snoop_parse(w);
	int o = pebs_dsrc_op_parse(w);
	if ((m >= 0) + (s >= 0) + (o >= 0) != 1)
		return NULL;
	*v = m >= 0 ? pebs_dsrc_mem_name((enum pebs_mem)m) :
	     s >= 0 ? pebs_dsrc_snoop_name((enum pebs_snoop)s) :
	     pebs_dsrc_op_name((enum pebs_op)o);
	return m >= 0 ? "mem" : s >= 0 ? "snoop" : "op";
}

/*
 * A bare word that names nothing, where a whole condition may stand
 * (@cond) or where a value must (an operand): there a class, a condition,
 * is no suggestion, and a value of mem, snoop or op is named with its
 * field ("lat == L3": did you mean mem == L3?).
 */
static void unknown_word(struct lex *L, size_t col, const char *w, int cond)
{
	/* a class is a whole condition, not a value: "hitm == 1" */
	for (size_t i = 0; i < NCLASSES; i++) {
		if (strcmp(w, classes[i].name) == 0) {
			fail(L, col, "%s is a data-source class (true or "
			     "false): use it alone, as in '%s' or 'not %s'",
			     w, w, w);
			return;
		}
	}
	if (strcmp(w, "true") == 0 || strcmp(w, "false") == 0) {
		fail(L, col, "%s is a constant condition: use it alone", w);
		return;
	}
	/* perf's name for a field outranks a near spelling ("daddr") */
	const char *perf = pebs_field_perf_hint(w);
	const char *s = suggest(w, cond), *v = NULL;
	const char *vf = cond ? NULL : value_of(w, &v);
	if (perf)
		fail(L, col, "unknown field \"%s\" (%s)", w, perf);
	else if (vf)
		fail(L, col, "unknown field \"%s\" (%s is a value of %s: did "
		     "you mean %s == %s?)", w, v, vf, vf, v);
	else if (s)
		fail(L, col, "unknown field \"%s\" (did you mean \"%s\"?)", w,
		     s);
	else
		fail(L, col, "unknown field \"%s\"", w);
}

/*
 * Resolves a bare word @w (kept) used as a value: field, t, else left as
 * a word.
 */
static void word_operand(struct operand *o, const char *w)
{
	const struct pebs_field *f = pebs_field_find(w);
	o->text = w;
	o->word = 1;
	o->kind = O_WORD;
	o->mask = U64MAX;
	if (strcmp(w, "t") == 0) {
		o->kind = O_T;
	} else if (f) {
		o->kind = O_FIELD;
		o->field = f->id;
		if (f->id == PEBS_F_LINE) {
			o->field = PEBS_COL_ADDR;
			o->mask = ~(uint64_t)63;
		} else if (f->id == PEBS_F_PAGE) {
			o->field = PEBS_COL_ADDR;
			o->mask = ~(uint64_t)4095;
		}
	}
}

/* One level deeper (a parenthesis, not, line() or page()); nonzero, with
 * the message, past the limit (MAXDEPTH). */
static int deeper(struct lex *L)
{
	if (++L->depth <= MAXDEPTH + 1)
		return 0;
	fail(L, L->col, "expression nested too deeply");
	return 1;
}

static int parse_operand(struct lex *L, struct operand *o)
{
	memset(o, 0, sizeof(*o));
	o->col = L->col;
	o->mask = U64MAX;
	switch (L->tok) {
	case T_NUM:
		o->kind = O_NUM;
		o->num = L->num;
		o->dnum = L->dnum;
		o->integral = L->integral;
		o->unit = L->unit;
		o->dig = L->dig;
		o->dexp = L->dexp;
		o->src = L->start;
		o->srclen = (int)(L->p - L->start);
		lex_next(L);
		return 0;
	case T_STR:
		o->kind = O_STR;
		if (!(o->text = lex_keep(L, L->text, strlen(L->text))))
			return -1;
		lex_next(L);
		return 0;
	case T_WORD:
		break;
	default:
		fail(L, L->col, L->tok == T_END ? "unexpected end of "
		     "expression" : "expected a field, number or string");
		return -1;
	}
	const char *ws = L->start;
	const char *w = lex_keep(L, L->text, strlen(L->text));
	if (!w)
		return -1;
	lex_next(L);
	if (L->tok == T_LP && (strcmp(w, "line") == 0 ||
			       strcmp(w, "page") == 0)) {
		uint64_t m = w[0] == 'l' ? ~(uint64_t)63 : ~(uint64_t)4095;
		lex_next(L);
		/* line(line(...)) nests like parentheses, and as deep */
		if (deeper(L))
			return -1;
		struct operand in;
		int r = parse_operand(L, &in);
		L->depth--;
		if (r < 0)
			return -1;
		if (L->tok != T_RP) {
			fail(L, L->col, "expected ')' after %s(", w);
			return -1;
		}
		const char *we = L->p;
		lex_next(L);
		if (in.kind == O_NUM && in.integral && !in.unit) {
			size_t wcol = o->col;
			*o = in;
			o->col = wcol;
			o->src = ws;
			o->srclen = (int)(we - ws);
			o->num &= m;
			o->dnum = (double)o->num;
			/* the digits of num, for t */
			char d[24];
			int nd = snprintf(d, sizeof(d), "%llu",
					  (unsigned long long)o->num);
			for (o->dexp = 0; nd && d[nd - 1] == '0'; nd--)
				o->dexp++;
			if (!(o->dig = lex_keep(L, d, (size_t)nd)))
				return -1;
			return 0;
		}
		if (in.kind == O_WORD)
			unknown_word(L, in.col, in.text, 0);
		if (in.kind != O_FIELD || field_kind(in.field) == PEBS_FK_STR) {
			fail(L, in.col, "%s() needs a numeric field", w);
			return -1;
		}
		*o = in;
		o->col = in.col;
		o->mask &= m;
		o->word = 0;
		return 0;
	}
	word_operand(o, w);
	return 0;
}

/* ---------------------------------------------------------- comparisons */

static int flip(int op)
{
	switch (op) {
	case OP_LT: return OP_GT;
	case OP_LE: return OP_GE;
	case OP_GT: return OP_LT;
	case OP_GE: return OP_LE;
	default: return op;
	}
}

/* A set item: a value or a range lo..hi. */
struct item {
	struct operand lo, hi;
	int range;
};

static int is_strfield(const struct operand *o)
{
	return o->kind == O_FIELD && field_kind(o->field) == PEBS_FK_STR;
}

/* Bit(s) of the feature word for value @s (unescaped) of operand @v of
 * string field @id; 0 when unknown (error reported). */
static uint64_t str_bits(struct lex *L, int id, const struct operand *v,
			 const char *s)
{
	int k = -1;
	switch (id) {
	case PEBS_F_MEM:
		k = pebs_dsrc_mem_parse(s);
		if (k >= 0)
			return 1ull << (F_MEM_SHIFT + k);
		fail(L, v->col, "unknown mem value \"%s\" (L1, LFB, L2, L3, "
		     "L4, LOCAL_RAM, REMOTE_RAM, REMOTE_CACHE, PMEM, CXL, IO, "
		     "UNCACHED, L1_MISS, L2_MISS, L3_MISS, NA)", s);
		return 0;
	case PEBS_F_SNOOP:
		k = pebs_dsrc_snoop_parse(s);
		if (k >= 0)
			return 1ull << (F_SNOOP_SHIFT + k);
		fail(L, v->col, "unknown snoop value \"%s\" (none, hit, miss, "
		     "hitm, fwd, na)", s);
		return 0;
	case PEBS_F_OP:
		k = pebs_dsrc_op_parse(s);
		if (k >= 0)
			return 1ull << (F_OP_SHIFT + k);
		fail(L, v->col, "unknown op value \"%s\" (load, store, pfetch, "
		     "exec, na)", s);
		return 0;
	case PEBS_F_TLB:
		for (int i = 0; i < LIB_DSRC_TLB_COUNT; i++)
			if (lib_strcasecmp(s, lib_dsrc_tlb_names[i]) == 0)
				return 1ull << (F_TLB_SHIFT + i);
		fail(L, v->col, "unknown tlb value \"%s\" (hit, miss, na)", s);
		return 0;
	case PEBS_F_LOCK:
		for (int i = 0; i < LIB_DSRC_LOCK_COUNT; i++)
			if (lib_strcasecmp(s, lib_dsrc_lock_names[i]) == 0)
				return 1ull << (F_LOCK_SHIFT + i);
		fail(L, v->col, "unknown lock value \"%s\" (locked, no, na)",
		     s);
		return 0;
	default:
		fail(L, v->col, "bad string field");
		return 0;
	}
}

/* str_bits() of the value of operand @v. */
static uint64_t str_feature(struct lex *L, int id, const struct operand *v)
{
	char *s = unescape(v->text);
	if (!s) {
		fail_nomem(L, v->col);
		return 0;
	}
	uint64_t b = str_bits(L, id, v, s);
	free(s);
	return b;
}

/*
 * Copies the item strings into node @nd's names: as fnmatch() patterns
 * for ~ (p->glob), else as the strings themselves; 0 or -1.
 */
static int set_names(struct lex *L, int nd, const struct operand *f,
		     const struct item *it, size_t n)
{
	struct node *p = &L->e->nodes[nd];
	p->names = calloc(n, sizeof(char *));
	p->ncol = calloc(n, sizeof(*p->ncol));
	p->nport = calloc(n, sizeof(*p->nport));
	if (!p->names || !p->ncol || !p->nport) {
		fail_nomem(L, f->col);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		p->names[i] = p->glob ? strdup(it[i].lo.text) :
			      unescape(it[i].lo.text);
		if (!p->names[i]) {
			fail_nomem(L, f->col);
			return -1;
		}
		p->ncol[i] = it[i].lo.col;
		/* "load-latency" also names the event it maps to (a
		 * pattern matches that by the portable name instead) */
		p->nport[i] = p->glob ? PEBS_SPEC_NAME :
			      (uint8_t)pebs_event_portable(p->names[i]);
		p->nnames++;
	}
	return 0;
}

/*
 * String field @f against items (==, in, or ~ when @glob): builds N_DSRC,
 * N_EVENT or N_SYM.
 */
static int cmp_string(struct lex *L, const struct operand *f,
		      const struct item *it, size_t n, int neg, int glob)
{
	for (size_t i = 0; i < n; i++) {
		if (it[i].range) {
			fail(L, it[i].lo.col, "a range needs a numeric field");
			return -1;
		}
		/* a bare word is a string here, also one that names a
		 * field or t ("comm in (bash, ip)"): two string fields are
		 * never compared with each other */
		if (it[i].lo.kind != O_STR && it[i].lo.kind != O_WORD &&
		    !it[i].lo.word) {
			fail(L, it[i].lo.col, "field \"%s\" is a string: "
			     "compare it with a string",
			     pebs_field_by_id(f->field)->name);
			return -1;
		}
	}
	if (f->field == PEBS_COL_EVENT || pebs_field_is_sym(f->field)) {
		int sym = pebs_field_is_sym(f->field);
		int nd = node_new(L, sym ? N_SYM : N_EVENT);
		if (nd < 0)
			return -1;
		struct node *p = &L->e->nodes[nd];
		p->neg = neg;
		p->glob = glob;
		p->symf = sym ? f->field - PEBS_F_SYM : 0;
		if (set_names(L, nd, f, it, n) < 0)
			return -1;
		L->e->cols |= pebs_field_by_id(f->field)->deps;
		return nd;
	}
	if (glob) {
		fail(L, f->col, "~ applies to event and the symbol fields "
		     "(sym, dso, srcline, data_sym), not to \"%s\"",
		     pebs_field_by_id(f->field)->name);
		return -1;
	}
	uint64_t mask = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t b = str_feature(L, f->field, &it[i].lo);
		if (!b)
			return -1;
		mask |= b;
	}
	int nd = node_new(L, N_DSRC);
	if (nd < 0)
		return -1;
	L->e->nodes[nd].mask = mask;
	L->e->nodes[nd].neg = neg;
	L->e->cols |= 1ull << PEBS_COL_DSRC;
	return nd;
}

static int num_const(struct lex *L, const struct operand *o)
{
	if (o->kind == O_WORD) {
		unknown_word(L, o->col, o->text, 0);
		return -1;
	}
	if (o->kind != O_NUM) {
		fail(L, o->col, "expected a number");
		return -1;
	}
	if (o->unit) {
		fail(L, o->col, "a time unit is only valid with t");
		return -1;
	}
	if (!o->integral) {
		fail(L, o->col, "fractional number is only valid with t");
		return -1;
	}
	return 0;
}

/*
 * "lo..hi" with lo > hi: an error, not a range that silently matches
 * nothing (the ends were likely swapped).
 */
static void empty_range(struct lex *L, const struct item *it)
{
	fail(L, it->lo.col, "empty range %.*s..%.*s (the low end comes "
	     "first)", it->lo.srclen, it->lo.src, it->hi.srclen, it->hi.src);
}

/* Numeric field in a set of items: one N_NUM leaf. */
static int cmp_numset(struct lex *L, const struct operand *f,
		      const struct item *it, size_t n, int neg)
{
	struct ival *v = calloc(2 * n + 2, sizeof(*v));
	size_t k = 0;
	if (!v) {
		fail_nomem(L, f->col);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (num_const(L, &it[i].lo) < 0 ||
		    (it[i].range && num_const(L, &it[i].hi) < 0)) {
			free(v);
			return -1;
		}
		struct ival x = { it[i].lo.num, it[i].range ? it[i].hi.num :
				  it[i].lo.num };
		if (x.lo > x.hi) {
			empty_range(L, &it[i]);
			free(v);
			return -1;
		}
		if (f->mask != U64MAX && !ival_unmask(&x, f->mask))
			continue;
		v[k++] = x;
	}
	k = ival_norm(v, k);
	if (neg) {
		struct ival *c = calloc(k + 1, sizeof(*c));
		if (!c) {
			free(v);
			fail_nomem(L, f->col);
			return -1;
		}
		k = ival_not(v, k, c);
		free(v);
		v = c;
	}
	const struct pebs_col_info *ci = pebs_col_info((unsigned)f->field);
	int full = k == 1 && v[0].lo == 0 && (v[0].hi == U64MAX ||
		   (ci->type != PEBS_T_U64 && v[0].hi >= UINT32_MAX));
	if (k == 0 || full) {
		free(v);
		return node_new(L, k ? N_TRUE : N_FALSE);
	}
	int nd = node_new(L, N_NUM);
	if (nd < 0) {
		free(v);
		return -1;
	}
	L->e->nodes[nd].col = f->field;
	L->e->nodes[nd].iv = v;
	L->e->nodes[nd].niv = k;
	L->e->cols |= 1ull << f->field;
	return nd;
}

static int mk_t(struct lex *L, int op, const struct operand *c)
{
	if (c->kind != O_NUM) {
		if (c->kind == O_WORD)
			unknown_word(L, c->col, c->text, 0);
		else
			fail(L, c->col, "t is compared with a number");
		return -1;
	}
	int nd = node_new(L, N_T);
	if (nd < 0)
		return -1;
	struct node *p = &L->e->nodes[nd];
	p->op = op;
	if (!(p->tdig = strdup(c->dig))) {
		fail_nomem(L, c->col);
		return -1;
	}
	p->texp = c->dexp;
	p->tval = c->dnum;
	p->tunit = c->unit;
	p->tcol = c->col;
	L->e->uses_t = 1;
	L->e->cols |= 1ull << PEBS_COL_TIME;
	return nd;
}

/*
 * Compares decimals @a * 10^@ea and @b * 10^@eb, -1, 0 or 1, from their
 * significant digits ("" for 0).
 */
static int dec_cmp(const char *a, long ea, const char *b, long eb)
{
	if (!*a || !*b)
		return (*a != 0) - (*b != 0);
	/* the position of the leading digit decides, then the digits */
	long ma = (long)strlen(a) + ea, mb = (long)strlen(b) + eb;
	if (ma != mb)
		return ma > mb ? 1 : -1;
	int c = strcmp(a, b);
	return (c > 0) - (c < 0);
}

/*
 * Compares two t constants, -1, 0 or 1, in seconds or both in raw ticks;
 * 0 also when they cannot be compared before the clock is known (one in
 * ticks, one with a unit, neither 0: refused in ranges by the caller).
 */
static int t_cmp(const struct operand *a, const struct operand *b)
{
	if (a->kind != O_NUM || b->kind != O_NUM)
		return 0;
	/* 0 is 0 in any unit: "t in 1s..0" is an empty range */
	if (*a->dig && *b->dig && !a->unit != !b->unit)
		return 0;
	return dec_cmp(a->dig, (long)a->dexp + unit_exp[a->unit], b->dig,
		       (long)b->dexp + unit_exp[b->unit]);
}

/* t in items: or of (t == x) / (t >= lo and t <= hi). */
static int cmp_tset(struct lex *L, const struct item *it, size_t n, int neg)
{
	int acc = node_new(L, N_FALSE);
	for (size_t i = 0; i < n && acc >= 0; i++) {
		int x;
		/* "t in 5..1s" is 5 ticks to a second: almost surely meant
		 * as 5s, and no order can be checked before the clock (0 is
		 * 0 in any unit: "t in 0..1s" is fine) */
		const struct operand *o = it[i].lo.unit ? &it[i].hi :
					  &it[i].lo;
		if (it[i].range && it[i].lo.kind == O_NUM &&
		    it[i].hi.kind == O_NUM && !it[i].lo.unit !=
		    !it[i].hi.unit && *o->dig) {
			fail(L, o->col, "range %.*s..%.*s: %.*s has no time "
			     "unit (a plain number is in raw time units); "
			     "give both ends a unit, or neither",
			     it[i].lo.srclen, it[i].lo.src, it[i].hi.srclen,
			     it[i].hi.src, o->srclen, o->src);
			return -1;
		}
		if (it[i].range && t_cmp(&it[i].lo, &it[i].hi) > 0) {
			empty_range(L, &it[i]);
			return -1;
		}
		if (it[i].range)
			x = mk_bin(L, N_AND, mk_t(L, OP_GE, &it[i].lo),
				   mk_t(L, OP_LE, &it[i].hi));
		else
			x = mk_t(L, OP_EQ, &it[i].lo);
		acc = mk_bin(L, N_OR, acc, x);
	}
	return neg ? mk_not(L, acc) : acc;
}

static int is_num_operand(const struct operand *o)
{
	return o->kind == O_FIELD && field_kind(o->field) != PEBS_FK_STR;
}

/* value OP value */
static int compare(struct lex *L, struct operand *a, int op,
		   struct operand *b)
{
	if (a->kind != O_FIELD && a->kind != O_T &&
	    (b->kind == O_FIELD || b->kind == O_T)) {
		struct operand *t = a;
		a = b;
		b = t;
		op = flip(op);
	}
	if (a->kind != O_FIELD && a->kind != O_T) {
		if (a->kind == O_WORD)
			unknown_word(L, a->col, a->text, 0);
		else if (b->kind == O_WORD)
			unknown_word(L, b->col, b->text, 0);
		else
			fail(L, a->col, "comparison needs a field");
		return -1;
	}
	int glob = op == OP_MATCH || op == OP_NMATCH;
	if (glob && !is_strfield(a)) {
		fail(L, a->col, "~ needs a string field on its left");
		return -1;
	}
	if (a->kind == O_T) {
		if (b->kind == O_T) {
			fail(L, b->col, "t compared with itself");
			return -1;
		}
		return mk_t(L, op, b);
	}
	if (is_strfield(a)) {
		if (op != OP_EQ && op != OP_NE && !glob) {
			int pat = a->field == PEBS_COL_EVENT ||
				  pebs_field_is_sym(a->field);
			fail(L, a->col, "string field \"%s\" supports only "
			     "==, !=%s in%s", pebs_field_by_id(a->field)->name,
			     pat ? "," : " and", pat ? ", ~ and !~" : "");
			return -1;
		}
		struct item it = { *b, { 0 }, 0 };
		return cmp_string(L, a, &it, 1, op == OP_NE || op == OP_NMATCH,
				  glob);
	}
	/* numeric field */
	if (b->kind == O_FIELD) {
		if (is_strfield(b)) {
			fail(L, b->col, "cannot compare a number with string "
			     "field \"%s\"", pebs_field_by_id(b->field)->name);
			return -1;
		}
		int nd = node_new(L, N_CMP2);
		if (nd < 0)
			return -1;
		struct node *p = &L->e->nodes[nd];
		p->col = a->field;
		p->col2 = b->field;
		p->m1 = a->mask;
		p->m2 = b->mask;
		p->op = op;
		L->e->cols |= 1ull << a->field | 1ull << b->field;
		return nd;
	}
	if (b->kind == O_T) {
		fail(L, b->col, "t is compared with a number");
		return -1;
	}
	if (num_const(L, b) < 0)
		return -1;
	struct ival v[2];
	size_t k;
	ival_of(op, b->num, v, &k);
	struct item it[2];
	memset(it, 0, sizeof(it));
	for (size_t i = 0; i < k; i++) {
		it[i].lo = *b;
		it[i].hi = *b;
		it[i].lo.num = v[i].lo;
		it[i].hi.num = v[i].hi;
		it[i].range = 1;
	}
	return cmp_numset(L, a, it, k, 0);
}

static int parse_item(struct lex *L, struct item *it)
{
	memset(it, 0, sizeof(*it));
	if (parse_operand(L, &it->lo) < 0)
		return -1;
	if (L->tok == T_DOTDOT) {
		lex_next(L);
		if (parse_operand(L, &it->hi) < 0)
			return -1;
		it->range = 1;
	}
	return 0;
}

/* value [not] in (set) | value [not] in a..b */
static int parse_in(struct lex *L, struct operand *a, int neg)
{
	struct item *it = NULL;
	size_t n = 0, cap = 0;
	int r = -1;
	if (L->tok == T_LP) {
		lex_next(L);
		for (;;) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				if (cap > MAXSET) {
					fail(L, L->col, "set too large (more "
					     "than %d items)", MAXSET);
					goto out;
				}
				struct item *ni = realloc(it, cap *
							  sizeof(*ni));
				if (!ni) {
					fail_nomem(L, L->col);
					goto out;
				}
				it = ni;
			}
			if (parse_item(L, &it[n]) < 0)
				goto out;
			n++;
			if (L->tok == T_RP)
				break;
			if (L->tok != T_COMMA) {
				fail(L, L->col, "expected ',' or ')' in set");
				goto out;
			}
			lex_next(L);
		}
		lex_next(L);
	} else {
		it = calloc(1, sizeof(*it));
		if (!it) {
			fail_nomem(L, L->col);
			goto out;
		}
		if (parse_item(L, it) < 0)
			goto out;
		n = 1;
		if (!it->range) {
			fail(L, it->lo.col, "expected a range a..b or a set "
			     "(x, y)");
			goto out;
		}
	}
	if (a->kind == O_T)
		r = cmp_tset(L, it, n, neg);
	else if (a->kind == O_WORD)
		unknown_word(L, a->col, a->text, 0);
	else if (a->kind != O_FIELD)
		fail(L, a->col, "\"in\" needs a field on its left");
	else if (is_strfield(a))
		r = cmp_string(L, a, it, n, neg, 0);
	else
		r = cmp_numset(L, a, it, n, neg);
out:
	free(it);
	return L->failed ? -1 : r;
}

static int parse_unary(struct lex *L)
{
	if (L->failed)
		return -1;
	if (deeper(L))
		return -1;
	int r = -1;
	if (L->tok == T_NOT) {
		lex_next(L);
		r = mk_not(L, parse_unary(L));
	} else if (L->tok == T_LP) {
		size_t col = L->col;
		lex_next(L);
		r = parse_or(L);
		if (r >= 0 && L->tok != T_RP) {
			fail(L, L->tok == T_END ? col : L->col,
			     L->tok == T_END ? "unbalanced '('" :
			     "expected ')'");
			r = -1;
		}
		lex_next(L);
	} else {
		struct operand a;
		if (parse_operand(L, &a) < 0)
			goto out;
		if (L->tok == T_CMP) {
			int op = L->op;
			struct operand b;
			lex_next(L);
			if (parse_operand(L, &b) < 0)
				goto out;
			r = compare(L, &a, op, &b);
		} else if (L->tok == T_IN) {
			lex_next(L);
			r = parse_in(L, &a, 0);
		} else if (L->tok == T_NOT) {
			lex_next(L);
			if (L->tok != T_IN) {
				fail(L, L->col,
				     "expected \"in\" after \"not\"");
				goto out;
			}
			lex_next(L);
			r = parse_in(L, &a, 1);
		} else if (a.kind == O_WORD) {
			/* a class used as a boolean */
			if (strcmp(a.text, "true") == 0) {
				r = node_new(L, N_TRUE);
				goto out;
			}
			if (strcmp(a.text, "false") == 0) {
				r = node_new(L, N_FALSE);
				goto out;
			}
			for (size_t i = 0; i < NCLASSES; i++) {
				if (strcmp(a.text, classes[i].name))
					continue;
				r = node_new(L, N_DSRC);
				if (r >= 0) {
					L->e->nodes[r].mask = classes[i].bit;
					L->e->cols |= 1ull << PEBS_COL_DSRC;
				}
				goto out;
			}
			unknown_word(L, a.col, a.text, 1);
		} else if (is_num_operand(&a)) {
			/* a numeric field alone: true when non-zero */
			struct operand z = a;
			z.kind = O_NUM;
			z.num = 0;
			z.dnum = 0;
			z.integral = 1;
			z.unit = 0;
			z.dig = "";
			z.dexp = 0;
			r = compare(L, &a, OP_NE, &z);
		} else {
			fail(L, a.col, "expected a comparison");
		}
	}
out:
	L->depth--;
	return L->failed ? -1 : r;
}

static int parse_and(struct lex *L)
{
	int a = parse_unary(L);
	while (a >= 0 && L->tok == T_AND) {
		lex_next(L);
		a = mk_bin(L, N_AND, a, parse_unary(L));
	}
	return L->failed ? -1 : a;
}

static int parse_or(struct lex *L)
{
	int a = parse_and(L);
	while (a >= 0 && L->tok == T_OR) {
		lex_next(L);
		a = mk_bin(L, N_OR, a, parse_and(L));
	}
	return L->failed ? -1 : a;
}

void pebs_expr_free(struct pebs_expr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nn; i++) {
		free(e->nodes[i].iv);
		free(e->nodes[i].tdig);
		for (size_t j = 0; j < e->nodes[i].nnames; j++)
			free(e->nodes[i].names[j]);
		free(e->nodes[i].names);
		free(e->nodes[i].ncol);
		free(e->nodes[i].nport);
		free(e->nodes[i].ckey);
		free(e->nodes[i].cmatch);
	}
	free(e->nodes);
	for (size_t i = 0; i < e->npool; i++)
		free(e->pool[i]);
	free(e->pool);
	free(e->evmatch);
	for (size_t i = 0; i < e->nsegs; i++)
		free(e->segs[i].bad);
	free(e->segs);
	pthread_mutex_destroy(&e->smu);
	free(e);
}

int pebs_expr_parse(const char *text, struct pebs_expr **out,
		    struct pebs_expr_error *err)
{
	*out = NULL;
	if (err) {
		err->col = 0;
		err->msg[0] = 0;
	}
	struct pebs_expr *e = calloc(1, sizeof(*e));
	if (!e)
		return -PEBS_E_NOMEM;
	pthread_mutex_init(&e->smu, NULL);
	struct lex L = { .src = text, .p = text, .colp = text, .e = e,
			 .err = err };
	lex_next(&L);
	if (L.tok == T_END)
		fail(&L, 1, "empty expression");
	int root = parse_or(&L);
	if (!L.failed && L.tok != T_END)
		fail(&L, L.col, L.tok == T_RP ? "unbalanced ')'" :
		     "expected \"and\", \"or\" or the end of the expression");
	lex_done(&L);
	if (L.failed || root < 0) {
		pebs_expr_free(e);
		return L.nomem ? -PEBS_E_NOMEM : -PEBS_E_PARSE;
	}
	e->root = root;
	e->clock_ready = !e->uses_t;
	*out = e;
	return 0;
}

uint64_t pebs_expr_cols(const struct pebs_expr *e)
{
	return e->cols;
}

int pebs_expr_uses_t(const struct pebs_expr *e)
{
	return e->uses_t;
}

int pebs_expr_invert(struct pebs_expr *e)
{
	struct lex L = { .src = "", .p = "", .e = e };
	int r = mk_not(&L, e->root);
	if (r < 0)
		return L.nomem ? -PEBS_E_NOMEM : -PEBS_E_RANGE;
	e->root = r;
	return 0;
}

int pebs_expr_clock_ready(const struct pebs_expr *e)
{
	return __atomic_load_n(&e->clock_ready, __ATOMIC_ACQUIRE);
}

#define T_INF ((__int128)1 << 100)	/* past every tick */

/*
 * floor and ceiling of node @p's constant in ticks, at @ticks_per_sec
 * for a constant with a unit.  Exact whenever the rate is an integer (ns
 * files, an integral tsc.hz), from the decimal as written, all its digits:
 * a constant on a tick is that tick, not a double's neighbour of it, and
 * one between two ticks, however close to one, is strictly between.
 */
static void t_ticks(const struct node *p, double ticks_per_sec,
		    __int128 *fl, __int128 *ce)
{
	int u = p->tunit;
	int rate_int = !u || (ticks_per_sec == floor(ticks_per_sec) &&
			      ticks_per_sec <= 9.2e18);
	if (rate_int) {
		/* tdig * r / 10^k, by long multiplication: the digits below
		 * the point give the carry into the integer part, and
		 * whether anything is left over */
		const unsigned __int128 inf = (unsigned __int128)T_INF;
		uint64_t r = u ? (uint64_t)ticks_per_sec : 1;
		const char *d = p->tdig;
		size_t nd = strlen(d), nint = nd;
		long e = (long)p->texp + unit_exp[u];
		unsigned __int128 c = 0, h = 0;	/* c < r at every step */
		int rem = 0;
		if (e < 0) {
			size_t k = (size_t)-e;
			nint = k < nd ? nd - k : 0;
			for (size_t i = nd; i > nint; i--) {
				unsigned __int128 x = (unsigned __int128)
					(unsigned)(d[i - 1] - '0') * r + c;
				rem |= x % 10 != 0;
				c = x / 10;
			}
			/* the zeros between the point and the digits */
			for (size_t i = nd; i < k && c; i++) {
				rem |= c % 10 != 0;
				c /= 10;
			}
		}
		for (size_t i = 0; i < nint && h < inf; i++)
			h = h * 10 + (unsigned)(d[i] - '0');
		for (; e > 0 && h && h < inf; e--)
			h *= 10;
		h = h >= inf || (h && r > inf / h) ? inf : h * r + c;
		if (h > inf)
			h = inf;
		*fl = (__int128)h;
		*ce = (__int128)h + rem;
		return;
	}
	const double big = 1.8446744073709552e19;	/* 2^64 */
	double x = p->tval * ticks_per_sec * pow(10, unit_exp[u]);
	double f = floor(x), c = ceil(x);
	*fl = f >= big ? T_INF : (__int128)f;
	*ce = c >= big ? T_INF : (__int128)c;
}

/*
 * t OP x, x in ticks between @f = floor(x) and @c = ceil(x), as one
 * interval of t (signed, in ticks).
 */
static int t_interval(int op, __int128 f, __int128 c, __int128 *lo,
		      __int128 *hi, int *ne)
{
	*ne = 0;
	*lo = -T_INF;
	*hi = T_INF;
	switch (op) {
	case OP_GE: *lo = c; break;
	case OP_GT: *lo = f + 1; break;
	case OP_LE: *hi = f; break;
	case OP_LT: *hi = c - 1; break;
	case OP_EQ:
	case OP_NE:
		if (f != c)
			return op == OP_EQ ? 0 : 2;	/* never / always */
		*lo = *hi = f;
		*ne = op == OP_NE;
		break;
	}
	return 1;
}

/*
 * The intervals of the time column that `t` leaf @p stands for on the
 * clock (@t0, @ticks_per_sec), into @v (room for 2): returns how many,
 * or -1 when the constant has a unit and the rate is unknown.
 */
static int t_lower(const struct node *p, uint64_t t0, double ticks_per_sec,
		   struct ival *v)
{
	if (p->tunit && !(ticks_per_sec > 0))
		return -1;
	__int128 tf, tc, lo, hi;
	int ne;
	t_ticks(p, ticks_per_sec, &tf, &tc);
	int k = t_interval(p->op, tf, tc, &lo, &hi, &ne);
	if (k == 2) {
		v[0] = (struct ival){ 0, U64MAX };
		return 1;
	}
	if (k == 0)
		return 0;
	size_t n = 0;
	lo += t0;
	hi += t0;
	if (lo < 0)
		lo = 0;
	if (hi > (__int128)U64MAX)
		hi = U64MAX;
	if (lo <= hi)
		v[n++] = (struct ival){ (uint64_t)lo, (uint64_t)hi };
	if (ne) {
		struct ival c[2];
		n = ival_not(v, n, c);
		memcpy(v, c, n * sizeof(*v));
	}
	return (int)n;
}

/* The column of the first `t` leaf of @e, for messages (0: none left). */
static size_t t_col(const struct pebs_expr *e)
{
	for (size_t i = 0; i < e->nn; i++)
		if (e->nodes[i].kind == N_T)
			return e->nodes[i].tcol;
	return 0;
}

/* A `t` leaf of @e with a unit that @ticks_per_sec cannot convert, or
 * NULL. */
static const struct node *t_unconvertible(const struct pebs_expr *e,
					  double ticks_per_sec)
{
	if (ticks_per_sec > 0)
		return NULL;
	for (size_t i = 0; i < e->nn; i++)
		if (e->nodes[i].kind == N_T && e->nodes[i].tunit)
			return &e->nodes[i];
	return NULL;
}

/*
 * pebs_expr_set_clock(); @bad_hz is a tsc.hz of the metadata that gave no
 * frequency, or NULL: the message then says the key is there but wrong
 * rather than missing, which would send the user looking for nothing.
 * Nothing changes on failure.
 */
static int set_clock(struct pebs_expr *e, uint64_t t0, double ticks_per_sec,
		     const char *bad_hz, struct pebs_expr_error *err)
{
	const struct node *bad = t_unconvertible(e, ticks_per_sec);
	if (bad) {
		if (err && bad_hz) {
			err->col = bad->tcol;
			snprintf(err->msg, sizeof(err->msg),
				 "t in %s needs the time frequency, but "
				 "metadata tsc.hz is malformed: \"%.40s\"",
				 units[bad->tunit], bad_hz);
			/* the value is the input file's */
			pebs_outfmt_msg_fix(err->msg);
		} else if (err) {
			err->col = bad->tcol;
			snprintf(err->msg, sizeof(err->msg),
				 "t in %s needs the time frequency "
				 "(metadata tsc.hz)", units[bad->tunit]);
		}
		return -PEBS_E_PARSE;
	}
	for (size_t i = 0; i < e->nn; i++) {
		struct node *p = &e->nodes[i];
		if (p->kind != N_T)
			continue;
		/* room for two, once: a later segment's clock rewrites
		 * them in place */
		if (!p->iv && !(p->iv = calloc(2, sizeof(*p->iv))))
			return -PEBS_E_NOMEM;
		p->niv = (size_t)t_lower(p, t0, ticks_per_sec, p->iv);
	}
	e->seg = 0;
	__atomic_store_n(&e->clock_ready, 1, __ATOMIC_RELEASE);
	return 0;
}

int pebs_expr_set_clock(struct pebs_expr *e, uint64_t t0,
			double ticks_per_sec, struct pebs_expr_error *err)
{
	return set_clock(e, t0, ticks_per_sec, NULL, err);
}

/*
 * Ticks per second of the segment with metadata @m: time.unit ns gives
 * 1e9, otherwise tsc.hz when it is a decimal integer above 0, else 0.
 * *@bad (when non-NULL) becomes a tsc.hz that is there but gives no
 * frequency, else NULL.  Read as pebs_meta_check() checks it: "inf",
 * "0x10" or "25e8junk" are malformed, not a rate strtod() makes of them.
 */
static double meta_rate(const struct pebs_meta *m, const char **bad)
{
	const char *unit = m ? pebs_meta_get(m, "time.unit") : NULL;
	if (unit && strcmp(unit, "ns") == 0) {
		if (bad)
			*bad = NULL;
		return 1e9;
	}
	return (double)meta_tsc_hz(m, bad);
}

int pebs_expr_set_clock_meta(struct pebs_expr *e, uint64_t t0,
			     const struct pebs_meta *m,
			     struct pebs_expr_error *err)
{
	const char *bad;
	double tps = meta_rate(m, &bad);
	return set_clock(e, t0, tps, bad, err);
}

/*
 * The start of the segment with metadata @m: the one recorded, else its
 * time.origin, else @t0, which becomes its start (*@nomem is set when it
 * cannot be recorded).  *@bad becomes a time.origin of @m that is
 * malformed (a copy @e owns), else NULL: then no start is right, and `t`
 * is an error.
 */
static uint64_t seg_start(struct pebs_expr *e, const struct pebs_meta *m,
			  uint64_t t0, int *nomem, const char **bad)
{
	uint64_t serial = meta_serial(m);
	pthread_mutex_lock(&e->smu);
	/* from the last: segments come in order, so this is the one asked
	 * for, or one of the few the reader is ahead by */
	for (size_t i = e->nsegs; i-- > 0;) {
		if (e->segs[i].serial == serial) {
			t0 = e->segs[i].t0;
			*bad = e->segs[i].bad;
			goto out;
		}
	}
	/*
	 * A segment a tool derived from another (pebs-filter's, pebs-decode
	 * -f pebs's, the continuation of a perf import) says where its
	 * source's `t` counted from: its own first block may start later.
	 * Read once here, not per block.
	 */
	uint64_t o;
	char *bcopy = NULL;
	if (meta_time_origin(m, &o, bad) > 0)
		t0 = o;
	if (*bad && !(bcopy = strdup(*bad))) {
		*bad = NULL;
		*nomem = 1;
		goto out;
	}
	*bad = bcopy;
	if (e->nsegs == e->segcap) {
		size_t nc = e->segcap ? 2 * e->segcap : 16;
		struct segstart *ns = realloc(e->segs, nc * sizeof(*ns));
		if (!ns) {
			free(bcopy);
			*bad = NULL;
			*nomem = 1;
			goto out;
		}
		e->segs = ns;
		e->segcap = nc;
	}
	e->segs[e->nsegs++] = (struct segstart){ serial, t0, bcopy };
out:
	pthread_mutex_unlock(&e->smu);
	return t0;
}

int pebs_expr_set_segment(struct pebs_expr *e, const struct pebs_meta *m,
			  const struct pebs_batch *b,
			  struct pebs_expr_error *err)
{
	if (!e->uses_t ||
	    (e->seg == meta_serial(m) && pebs_expr_clock_ready(e)))
		return 0;
	uint64_t t0 = 0;
	const uint64_t *t = b ? b->c64[PEBS_COL_TIME] : NULL;
	if (t && b->n) {
		t0 = t[0];
		for (size_t i = 1; i < b->n; i++)
			t0 = t[i] < t0 ? t[i] : t0;
	}
	int nomem = 0;
	const char *bad;
	t0 = seg_start(e, m, t0, &nomem, &bad);
	if (nomem) {
		if (err) {
			err->col = 0;
			snprintf(err->msg, sizeof(err->msg), "out of memory");
		}
		return -PEBS_E_NOMEM;
	}
	if (bad) {
		if (err) {
			err->col = t_col(e);
			snprintf(err->msg, sizeof(err->msg),
				 "t needs the segment's start, but metadata "
				 "time.origin is malformed: \"%.40s\"", bad);
		}
		return -PEBS_E_PARSE;
	}
	int r = pebs_expr_set_clock_meta(e, t0, m, err);
	if (r == 0)
		e->seg = meta_serial(m);
	return r;
}

/* ----------------------------------------------------------- evaluation */

static uint32_t *buf_get(struct pebs_expr *e)
{
	if (e->pool_used == e->npool) {
		uint32_t **np = realloc(e->pool, (e->npool + 1) * sizeof(*np));
		if (!np)
			return NULL;
		e->pool = np;
		e->pool[e->npool] = malloc(e->pool_cap * sizeof(uint32_t));
		if (!e->pool[e->npool])
			return NULL;
		e->npool++;
	}
	return e->pool[e->pool_used++];
}

/* in \ s, both ascending, s a subset of in (in NULL = 0..n-1). */
static size_t sel_diff(const uint32_t *in, size_t nin, const uint32_t *s,
		       size_t ns, uint32_t *out)
{
	size_t k = 0, j = 0;
	for (size_t i = 0; i < nin; i++) {
		uint32_t x = in ? in[i] : (uint32_t)i;
		if (j < ns && s[j] == x)
			j++;
		else
			out[k++] = x;
	}
	return k;
}

static size_t sel_merge(const uint32_t *a, size_t na, const uint32_t *b,
			size_t nb, uint32_t *out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = a[i] < b[j] ? a[i++] : b[j++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
	return k;
}

#define NUM_LOOP(T, col)						\
	do {								\
		const T *c = (const T *)(col);				\
		if (niv == 1) {						\
			uint64_t lo = iv[0].lo, w = iv[0].hi - iv[0].lo; \
			if (!in) {					\
				for (size_t i = 0; i < nin; i++) {	\
					out[k] = (uint32_t)i;		\
					k += (uint64_t)c[i] - lo <= w;	\
				}					\
			} else {					\
				for (size_t i = 0; i < nin; i++) {	\
					uint32_t x = in[i];		\
					out[k] = x;			\
					k += (uint64_t)c[x] - lo <= w;	\
				}					\
			}						\
			break;						\
		}							\
		for (size_t i = 0; i < nin; i++) {			\
			uint32_t x = in ? in[i] : (uint32_t)i;		\
			uint64_t v = c[x];				\
			int m = 0;					\
			for (size_t j = 0; j < niv && !m; j++)		\
				m = v - iv[j].lo <= iv[j].hi - iv[j].lo; \
			out[k] = x;					\
			k += m;						\
		}							\
	} while (0)

static size_t ev_num(int col, const struct ival *iv, size_t niv,
		     const struct pebs_batch *b, const uint32_t *in,
		     size_t nin, uint32_t *out)
{
	size_t k = 0;
	if (niv == 0)
		return 0;
	if (b->c64[col])
		NUM_LOOP(uint64_t, b->c64[col]);
	else
		NUM_LOOP(uint32_t, b->c32[col]);
	return k;
}

static uint64_t features(struct pebs_expr *e, uint64_t d)
{
	unsigned h = (unsigned)((d * 0x9e3779b97f4a7c15ull) >> 56);
	if (e->cvalid[h] && e->ckey[h] == d)
		return e->cval[h];
	uint64_t f = pebs_expr_dsrc_class(d);
	e->ckey[h] = d;
	e->cval[h] = f;
	e->cvalid[h] = 1;
	return f;
}

static size_t ev_dsrc(struct pebs_expr *e, const struct node *p,
		      const struct pebs_batch *b, const uint32_t *in,
		      size_t nin, uint32_t *out)
{
	const uint64_t *c = b->c64[PEBS_COL_DSRC];
	uint64_t mask = p->mask;
	int neg = p->neg;
	size_t k = 0;
	uint64_t last = 0, lastm = (features(e, 0) & mask) != 0;
	for (size_t i = 0; i < nin; i++) {
		uint32_t x = in ? in[i] : (uint32_t)i;
		uint64_t d = c[x];
		/* runs of one data source are common: skip the cache */
		if (d != last) {
			last = d;
			lastm = (features(e, d) & mask) != 0;
		}
		out[k] = x;
		k += lastm ^ (uint64_t)neg;
	}
	return k;
}

/* Portable name of portable event type @t, or NULL. */
static const char *portable_name(enum pebs_evspec_type t)
{
	return t == PEBS_SPEC_LOAD_LATENCY ? "load-latency" :
	       t == PEBS_SPEC_PRECISE_STORE ? "precise-store" : NULL;
}

/*
 * The event of stored event name @s without its modifiers, into @buf
 * (@len bytes): perf's "cpu/NAME,ldlat=30/P" gives its first term when
 * that is a name (not event=0xcd), "NAME:ldlat=64:pp" what precedes the
 * first ':'.  NULL when @s has no modifiers (it is its own event) or no
 * such name.
 */
static const char *event_part(const char *s, char *buf, size_t len)
{
	const char *slash = strchr(s, '/');
	const char *p = slash ? slash + 1 : s;
	size_t n = strcspn(p, slash ? ",/" : ":");
	if ((!slash && !p[n]) || !n || n >= len || memchr(p, '=', n))
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/*
 * Does name or pattern @name of the expression match stored event name
 * @s?  Exactly (or as a pattern), or, when @name has no modifiers itself
 * (no ':' or '/'), by the event of @s without its modifiers: perf imports
 * keep "MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64:pp", which
 * MEM_TRANS_RETIRED.LOAD_LATENCY names (in any case, as perf takes event
 * names; a pattern as it is written).
 */
static int event_name_match(const char *name, int glob, const char *s)
{
	if (glob ? fnmatch(name, s, 0) == 0 : strcmp(s, name) == 0)
		return 1;
	if (strpbrk(name, ":/"))
		return 0;
	char buf[PEBS_EVENT_NAME_MAX + 1];	/* any stored name's part */
	const char *ev = event_part(s, buf, sizeof(buf));
	if (!ev)
		ev = strpbrk(s, ":/") ? NULL : s;
	return ev && (glob ? fnmatch(name, ev, 0) == 0 :
		      lib_strcasecmp(ev, name) == 0);
}

/*
 * Does event name @s match one of the names of N_EVENT @p, or name @only
 * alone when below p->nnames?  A name without modifiers matches the
 * events of that name with any (event_name_match()); a portable name
 * (load-latency, mem-loads, ...) matches the events it stands for
 * (pebs_event_stands_for()), and a pattern matches such an event by its
 * portable name too.
 */
static int event_match(const struct node *p, const char *s, size_t only)
{
	enum pebs_evspec_type t = PEBS_SPEC_NAME;
	int typed = 0;
	for (size_t j = 0; j < p->nnames; j++) {
		if (only < p->nnames && j != only)
			continue;
		if (event_name_match(p->names[j], p->glob, s))
			return 1;
		if (!p->glob && p->nport[j] == PEBS_SPEC_NAME)
			continue;
		if (!typed) {
			t = pebs_event_stands_for(s);
			typed = 1;
		}
		if (t == PEBS_SPEC_NAME)
			continue;
		if (p->glob ? fnmatch(p->names[j], portable_name(t), 0) == 0 :
		    p->nport[j] == t)
			return 1;
	}
	return 0;
}

static size_t ev_event(struct pebs_expr *e, const struct node *p,
		       const struct pebs_batch *b, const uint32_t *in,
		       size_t nin, uint32_t *out)
{
	uint32_t nn = b->nnames;
	if (nn + 1 > e->evcap) {
		uint8_t *m = realloc(e->evmatch, nn + 1);
		if (!m)
			return (size_t)-1;
		e->evmatch = m;
		e->evcap = nn + 1;
	}
	/* names[nn] stands for ids outside the dictionary: "" */
	for (uint32_t i = 0; i <= nn; i++) {
		const char *s = i < nn ? b->names[i] : "";
		e->evmatch[i] = (uint8_t)(event_match(p, s, p->nnames) ^
					  p->neg);
	}
	const uint32_t *c = b->c32[PEBS_COL_EVENT];
	size_t k = 0;
	for (size_t i = 0; i < nin; i++) {
		uint32_t x = in ? in[i] : (uint32_t)i;
		uint32_t id = c[x] < nn ? c[x] : nn;
		out[k] = x;
		k += e->evmatch[id];
	}
	return k;
}

size_t pebs_expr_unmatched_events(const struct pebs_expr *e,
				  const char *const *names, size_t n,
				  struct pebs_expr_name *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < e->nn; i++) {
		const struct node *p = &e->nodes[i];
		if (p->kind != N_EVENT)
			continue;
		for (size_t j = 0; j < p->nnames; j++) {
			size_t x = 0;
			while (x < n && !event_match(p, names[x], j))
				x++;
			if (x < n)
				continue;
			if (k < cap) {
				out[k].col = p->ncol[j];
				out[k].text = p->names[j];
			}
			k++;
		}
	}
	return k;
}

/*
 * The part of symbol string @full that pattern @pat is compared with: a
 * pattern without the detail of a value compares with its main part, so
 * `sym == "work"` matches "work+0x1a", `dso == "libc.so.6"` matches
 * "/usr/lib/libc.so.6" and `srcline == "a.c"` matches "a.c:42".  The
 * part starts at the pointer returned and is *@len bytes long.
 */
static const char *sym_part(int f, const char *full, const char *pat,
			    size_t *len)
{
	const char *cut = NULL;
	*len = strlen(full);
	switch (f) {
	case PEBS_SYM_SYM:
	case PEBS_SYM_DATA_SYM:
		if (strchr(pat, '+'))
			return full;
		cut = strrchr(full, '+');
		if (cut && (cut == full || strncmp(cut, "+0x", 3)))
			cut = NULL;
		break;
	case PEBS_SYM_DSO:
		if (strchr(pat, '/'))
			return full;
		cut = strrchr(full, '/');
		if (cut)
			*len -= (size_t)(cut + 1 - full);
		return cut ? cut + 1 : full;
	case PEBS_SYM_SRCLINE:
		if (strchr(pat, ':'))
			return full;
		cut = strrchr(full, ':');
		break;
	default:
		return full;
	}
	if (cut)
		*len = (size_t)(cut - full);
	return full;
}

/* Whether @full matches one of @p's names: 1, 0, or -1 (out of memory). */
static int sym_matches(const struct node *p, const char *full)
{
	char buf[512], *heap = NULL;
	int m = 0;
	for (size_t j = 0; j < p->nnames && !m; j++) {
		size_t n;
		const char *v = sym_part(p->symf, full, p->names[j], &n);
		if (v[n]) {
			/* a head, NUL-terminated for fnmatch(): a mangled
			 * C++ name may be longer than buf */
			char *h = buf;
			if (n >= sizeof(buf)) {
				free(heap);
				if (!(heap = malloc(n + 1)))
					return -1;
				h = heap;
			}
			memcpy(h, v, n);
			h[n] = 0;
			v = h;
		}
		m = p->glob ? fnmatch(p->names[j], v, 0) == 0 :
		    strcmp(v, p->names[j]) == 0;
	}
	free(heap);
	return m;
}

/* Whether symbol string @str matches leaf @p, cached by pointer; -1 on
 * out of memory. */
static int sym_match(struct node *p, const char *str)
{
	if ((p->cn + 1) * 2 > p->ccap) {
		size_t nc = p->ccap ? p->ccap * 2 : 256;
		const char **k = calloc(nc, sizeof(*k));
		uint8_t *m = malloc(nc);
		if (!k || !m) {
			free(k);
			free(m);
			return -1;
		}
		for (size_t i = 0; i < p->ccap; i++) {
			if (!p->ckey[i])
				continue;
			size_t j = ((uintptr_t)p->ckey[i] *
				    0x9e3779b97f4a7c15ull >> 20) & (nc - 1);
			while (k[j])
				j = (j + 1) & (nc - 1);
			k[j] = p->ckey[i];
			m[j] = p->cmatch[i];
		}
		free(p->ckey);
		free(p->cmatch);
		p->ckey = k;
		p->cmatch = m;
		p->ccap = nc;
	}
	size_t j = ((uintptr_t)str * 0x9e3779b97f4a7c15ull >> 20) &
		   (p->ccap - 1);
	while (p->ckey[j]) {
		if (p->ckey[j] == str)
			return p->cmatch[j];
		j = (j + 1) & (p->ccap - 1);
	}
	int m = sym_matches(p, str);
	if (m < 0)
		return -1;
	p->ckey[j] = str;
	p->cmatch[j] = (uint8_t)(m ^ p->neg);
	p->cn++;
	return p->cmatch[j];
}

static size_t ev_sym(struct pebs_expr *e, struct node *p,
		     const struct pebs_batch *b, const uint32_t *in,
		     size_t nin, uint32_t *out)
{
	size_t k = 0;
	const char *last = NULL;
	int lastm = 0;
	for (size_t i = 0; i < nin; i++) {
		uint32_t x = in ? in[i] : (uint32_t)i;
		const char *str = e->sym ? pebs_sym_str(e->sym, b, x, p->symf) :
				  PEBS_SYM_UNKNOWN;
		if (!str)
			return (size_t)-1;	/* out of memory */
		/* neighbours often share a symbol: skip the cache then */
		if (str != last) {
			lastm = sym_match(p, str);
			if (lastm < 0)
				return (size_t)-1;
			last = str;
		}
		out[k] = x;
		k += (size_t)lastm;
	}
	return k;
}

void pebs_expr_set_sym(struct pebs_expr *e, struct pebs_sym *s)
{
	if (s == e->sym)
		return;
	e->sym = s;
	for (size_t i = 0; i < e->nn; i++) {
		struct node *p = &e->nodes[i];
		if (p->ckey)
			memset(p->ckey, 0, p->ccap * sizeof(*p->ckey));
		p->cn = 0;
	}
}

int pebs_expr_uses_sym(const struct pebs_expr *e)
{
	for (size_t i = 0; i < e->nn; i++)
		if (e->nodes[i].kind == N_SYM)
			return 1;
	return 0;
}

static uint64_t colval(const struct pebs_batch *b, int col, size_t i)
{
	return b->c64[col] ? b->c64[col][i] : b->c32[col][i];
}

static int cmp_true(int op, uint64_t x, uint64_t y)
{
	switch (op) {
	case OP_EQ: return x == y;
	case OP_NE: return x != y;
	case OP_LT: return x < y;
	case OP_LE: return x <= y;
	case OP_GT: return x > y;
	default: return x >= y;
	}
}

static size_t ev(struct pebs_expr *e, int ni, const struct pebs_batch *b,
		 const uint32_t *in, size_t nin, uint32_t *out);

/*
 * The operands of a chain "a and b and c" (a left-deep tree), leftmost
 * first.  Chains are evaluated iteratively so that a long chain needs a
 * constant number of scratch buffers, not one per link.
 */
static int *spine(const struct pebs_expr *e, int ni, int kind, size_t *n)
{
	size_t k = 1;
	for (int x = ni; e->nodes[x].kind == kind; x = e->nodes[x].a)
		k++;
	int *v = malloc(k * sizeof(*v));
	if (!v)
		return NULL;
	*n = k;
	int x = ni;
	while (e->nodes[x].kind == kind) {
		v[--k] = e->nodes[x].b;
		x = e->nodes[x].a;
	}
	v[0] = x;
	return v;
}

static size_t ev_and(struct pebs_expr *e, int ni, const struct pebs_batch *b,
		     const uint32_t *in, size_t nin, uint32_t *out)
{
	size_t n, cur = nin;
	int *v = spine(e, ni, N_AND, &n);
	uint32_t *t[2];
	if (!v || !(t[0] = buf_get(e)) || !(t[1] = buf_get(e))) {
		free(v);
		return (size_t)-1;
	}
	const uint32_t *src = in;
	for (size_t i = 0; i < n && cur; i++) {
		uint32_t *dst = i == n - 1 ? out : t[i & 1];
		cur = ev(e, v[i], b, src, cur, dst);
		if (cur == (size_t)-1)
			break;
		src = dst;
	}
	free(v);
	e->pool_used -= 2;
	return cur;
}

static size_t ev_or(struct pebs_expr *e, int ni, const struct pebs_batch *b,
		    const uint32_t *in, size_t nin, uint32_t *out)
{
	size_t n, nm = 0, nr = nin, nt;
	int *v = spine(e, ni, N_OR, &n);
	uint32_t *m[2], *r[2], *t;
	if (!v || !(m[0] = buf_get(e)) || !(m[1] = buf_get(e)) ||
	    !(r[0] = buf_get(e)) || !(r[1] = buf_get(e)) ||
	    !(t = buf_get(e))) {
		free(v);
		return (size_t)-1;
	}
	/* m: matched so far; rest: not yet matched, the next operand's input */
	const uint32_t *rest = in;
	uint32_t *mat = m[0];
	for (size_t i = 0; i < n && nr; i++) {
		nt = ev(e, v[i], b, rest, nr, t);
		if (nt == (size_t)-1) {
			nm = nt;
			goto out;
		}
		if (!nt)
			continue;
		uint32_t *nmat = mat == m[0] ? m[1] : m[0];
		nm = sel_merge(mat, nm, t, nt, nmat);
		mat = nmat;
		uint32_t *nrest = rest == r[0] ? r[1] : r[0];
		nr = sel_diff(rest, nr, t, nt, nrest);
		rest = nrest;
	}
	memcpy(out, mat, nm * sizeof(*out));
out:
	free(v);
	e->pool_used -= 5;
	return nm;
}

static size_t ev(struct pebs_expr *e, int ni, const struct pebs_batch *b,
		 const uint32_t *in, size_t nin, uint32_t *out)
{
	const struct node *p = &e->nodes[ni];
	size_t k = 0, n1;
	uint32_t *t1;
	switch (p->kind) {
	case N_TRUE:
		for (size_t i = 0; i < nin; i++)
			out[i] = in ? in[i] : (uint32_t)i;
		return nin;
	case N_FALSE:
		return 0;
	case N_NUM:
		return ev_num(p->col, p->iv, p->niv, b, in, nin, out);
	case N_T:
		if (!pebs_expr_clock_ready(e))
			return 0;
		return ev_num(PEBS_COL_TIME, p->iv, p->niv, b, in, nin, out);
	case N_DSRC:
		return ev_dsrc(e, p, b, in, nin, out);
	case N_EVENT:
		return ev_event(e, p, b, in, nin, out);
	case N_SYM:
		return ev_sym(e, &e->nodes[ni], b, in, nin, out);
	case N_CMP2:
		for (size_t i = 0; i < nin; i++) {
			uint32_t x = in ? in[i] : (uint32_t)i;
			out[k] = x;
			k += cmp_true(p->op, colval(b, p->col, x) & p->m1,
				      colval(b, p->col2, x) & p->m2);
		}
		return k;
	case N_AND:
		return ev_and(e, ni, b, in, nin, out);
	case N_OR:
		return ev_or(e, ni, b, in, nin, out);
	case N_NOT:
		if (!(t1 = buf_get(e)))
			return (size_t)-1;
		n1 = ev(e, p->a, b, in, nin, t1);
		if (n1 == (size_t)-1)
			return n1;
		k = sel_diff(in, nin, t1, n1, out);
		e->pool_used--;
		return k;
	}
	return 0;
}

size_t pebs_expr_eval(struct pebs_expr *e, const struct pebs_batch *b,
		      uint32_t *sel)
{
	if (b->n > e->pool_cap) {
		/* grow every scratch buffer to the new batch size */
		for (size_t i = 0; i < e->npool; i++)
			free(e->pool[i]);
		e->npool = 0;
		e->pool_cap = b->n < 1024 ? 1024 : b->n;
	}
	e->pool_used = 0;
	size_t r = ev(e, e->root, b, NULL, b->n, sel);
	e->pool_used = 0;
	return r;
}

/* ------------------------------------------------------- block analysis */

static enum pebs_expr_match iv_match(const struct ival *iv, size_t niv,
				     uint64_t mn, uint64_t mx)
{
	for (size_t i = 0; i < niv; i++) {
		if (iv[i].lo <= mn && mx <= iv[i].hi)
			return PEBS_MATCH_ALL;
		if (iv[i].lo <= mx && mn <= iv[i].hi)
			return PEBS_MATCH_SOME;
	}
	return PEBS_MATCH_NONE;
}

/* A clock of `t` for block analysis: the block's segment's. */
struct tclock {
	uint64_t t0;
	double tps;
};

static enum pebs_expr_match blk(const struct pebs_expr *e, int ni,
				const struct pebs_block_info *bi,
				const struct tclock *clk);

/*
 * The chain "v0 and v1 and ..." (or "or") that node @ni heads: the match
 * of the least (the most) matching operand, stopping at NONE (ALL).  A
 * chain is a left-deep tree as long as it has terms, so it is walked
 * along its spine, not recursively: recursion goes only into operands,
 * as deep as the parentheses (MAXDEPTH), on reader threads' stacks.  The
 * leftmost operand is tried first, as written; the result does not
 * depend on the order.
 */
static enum pebs_expr_match blk_chain(const struct pebs_expr *e, int ni,
				      const struct pebs_block_info *bi,
				      const struct tclock *clk)
{
	int kind = e->nodes[ni].kind, and = kind == N_AND, x = ni;
	enum pebs_expr_match stop = and ? PEBS_MATCH_NONE : PEBS_MATCH_ALL;
	while (e->nodes[x].kind == kind)
		x = e->nodes[x].a;
	enum pebs_expr_match m = blk(e, x, bi, clk), y;
	for (x = ni; m != stop && e->nodes[x].kind == kind;
	     x = e->nodes[x].a) {
		y = blk(e, e->nodes[x].b, bi, clk);
		m = (y < m) == and ? y : m;
	}
	return m;
}

/*
 * @clk: the clock of the block's segment, or NULL for the one the leaves
 * were lowered for (pebs_expr_set_clock()).
 */
static enum pebs_expr_match blk(const struct pebs_expr *e, int ni,
				const struct pebs_block_info *bi,
				const struct tclock *clk)
{
	const struct node *p = &e->nodes[ni];
	enum pebs_expr_match x;
	struct ival tv[2];
	int ntv;
	switch (p->kind) {
	case N_TRUE: return PEBS_MATCH_ALL;
	case N_FALSE: return PEBS_MATCH_NONE;
	case N_NUM:
		return iv_match(p->iv, p->niv, bi->min[p->col],
				bi->max[p->col]);
	case N_T:
		if (!clk)
			return iv_match(p->iv, p->niv, bi->min[PEBS_COL_TIME],
					bi->max[PEBS_COL_TIME]);
		/* lowered here, not read from p->iv, which the thread that
		 * evaluates rewrites for its own segment meanwhile */
		ntv = t_lower(p, clk->t0, clk->tps, tv);
		if (ntv < 0)
			return PEBS_MATCH_SOME;
		return iv_match(tv, (size_t)ntv, bi->min[PEBS_COL_TIME],
				bi->max[PEBS_COL_TIME]);
	case N_DSRC:
		if (bi->min[PEBS_COL_DSRC] != bi->max[PEBS_COL_DSRC])
			return PEBS_MATCH_SOME;
		x = ((pebs_expr_dsrc_class(bi->min[PEBS_COL_DSRC]) &
		      p->mask) != 0) ^ p->neg;
		return x ? PEBS_MATCH_ALL : PEBS_MATCH_NONE;
	case N_EVENT:
	case N_CMP2:
	case N_SYM:
		return PEBS_MATCH_SOME;
	case N_AND:
	case N_OR:
		return blk_chain(e, ni, bi, clk);
	case N_NOT:
		return PEBS_MATCH_ALL - blk(e, p->a, bi, clk);
	}
	return PEBS_MATCH_SOME;
}

enum pebs_expr_match pebs_expr_block(const struct pebs_expr *e,
				     const struct pebs_block_info *info)
{
	if (info->nsamples == 0)
		return PEBS_MATCH_NONE;
	/*
	 * Before the clock every block is decoded, whatever the rest of the
	 * expression says: the first block's batch is what sets the clock
	 * from its segment's metadata (pebs_expr_set_clock_meta()), so a
	 * unit without tsc.hz is an error even where `lat > 100000` rules
	 * out every block, and no block is counted or copied unseen.
	 */
	if (!pebs_expr_clock_ready(e))
		return PEBS_MATCH_SOME;
	return blk(e, e->root, info, NULL);
}

enum pebs_expr_match pebs_expr_block_segment(struct pebs_expr *e,
					     const struct pebs_block_info *info)
{
	if (info->nsamples == 0)
		return PEBS_MATCH_NONE;
	if (!e->uses_t)
		return blk(e, e->root, info, NULL);
	if (!info->meta)
		return pebs_expr_block(e, info);
	int nomem = 0;
	const char *bad;
	struct tclock c;
	c.t0 = seg_start(e, info->meta, info->min[PEBS_COL_TIME], &nomem,
			 &bad);
	c.tps = meta_rate(info->meta, NULL);
	/*
	 * A unit this segment's metadata cannot convert, or a malformed
	 * time.origin, is decoded, as before the clock (pebs_expr_block()):
	 * pebs_expr_set_segment() on its first batch then reports it, in
	 * input order, whatever the rest of the expression says.  Without
	 * the start recorded, the block cannot be placed on the segment's
	 * time line.
	 */
	if (nomem || bad || t_unconvertible(e, c.tps))
		return PEBS_MATCH_SOME;
	return blk(e, e->root, info, &c);
}

/* ------------------------------------------------------------------ dump */

struct sbuf {
	char *p;
	size_t len, used;
};

static void sb_printf(struct sbuf *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = s->used < s->len ? s->len - s->used : 0;
	int n = vsnprintf(room ? s->p + s->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->used += (size_t)n;
}

/*
 * Name @v of an event or symbol leaf, quoted as the parser reads it back:
 * a ~ pattern (@glob) is kept in fnmatch form, whose backslash pairs are
 * already the language's escapes; a plain string escapes its backslashes.
 */
static void dump_str(struct sbuf *s, const char *v, int glob)
{
	for (; *v; v++) {
		if (*v == '\\' && glob && v[1]) {
			sb_printf(s, "\\%c", *++v);
			continue;
		}
		sb_printf(s, "%s%c", *v == '"' || *v == '\\' ? "\\" : "", *v);
	}
}

static const char *const opnames[] = { "==", "!=", "<", "<=", ">", ">=",
				       "~", "!~" };

/* The constant of N_T leaf @p as the decimal it was written as. */
static void dump_dec(const struct node *p, struct sbuf *s)
{
	const char *d = *p->tdig ? p->tdig : "0";
	long n = (long)strlen(d);
	long point = *p->tdig ? n + p->texp : 1;	/* digits before the
							 * decimal point */
	if (point <= 0) {
		sb_printf(s, "0.");
		for (long i = point; i < 0; i++)
			sb_printf(s, "0");
		sb_printf(s, "%s", d);
	} else if (point >= n) {
		sb_printf(s, "%s", d);
		for (long i = n; i < point; i++)
			sb_printf(s, "0");
	} else {
		sb_printf(s, "%.*s.%s", (int)point, d, d + point);
	}
}

/*
 * A data-source leaf by name: its mask is one class bit (PEBS_DSF_*) or
 * values of one derived field (str_feature()), never dsrc bits.
 */
static void dump_dsrc(const struct node *p, struct sbuf *s)
{
	static const struct { const char *name; int shift, n; } fld[] = {
		{ "mem", F_MEM_SHIFT, PEBS_MEM_COUNT },
		{ "snoop", F_SNOOP_SHIFT, PEBS_SNOOP_COUNT },
		{ "op", F_OP_SHIFT, PEBS_OP_EXEC + 1 },
		{ "tlb", F_TLB_SHIFT, LIB_DSRC_TLB_COUNT },
		{ "lock", F_LOCK_SHIFT, LIB_DSRC_LOCK_COUNT },
	};
	for (size_t i = 0; i < NCLASSES; i++) {
		if (p->mask == classes[i].bit) {
			sb_printf(s, "%sclass %s", p->neg ? "not " : "",
				  classes[i].name);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(fld) / sizeof(fld[0]); i++) {
		uint64_t all = ((1ull << fld[i].n) - 1) << fld[i].shift;
		if (!(p->mask & all))
			continue;
		sb_printf(s, "%s %sin {", fld[i].name, p->neg ? "not " : "");
		const char *sep = "";
		for (int k = 0; k < fld[i].n; k++) {
			if (!(p->mask >> (fld[i].shift + k) & 1))
				continue;
			const char *v = i == 0 ? pebs_dsrc_mem_name(k) :
					i == 1 ? pebs_dsrc_snoop_name(k) :
					i == 2 ? pebs_dsrc_op_name(k) :
					i == 3 ? lib_dsrc_tlb_names[k] :
					lib_dsrc_lock_names[k];
			/* never NULL (names of every value below n); said
			 * for gcc -O3, whose -Wformat-overflow thinks so */
			sb_printf(s, "%s%s", sep, v ? v : "?");
			sep = ",";
		}
		sb_printf(s, "}");
		return;
	}
	sb_printf(s, "%sdsrc features 0x%llx", p->neg ? "not " : "",
		  (unsigned long long)p->mask);
}

static void dump(const struct pebs_expr *e, int ni, struct sbuf *s);

/*
 * The chain ((v0 and v1) and v2)... that node @ni heads, printed so, a
 * '(' per link, along its spine rather than recursively (blk_chain()).
 * Link i's operand is found from the top each time: quadratic in the
 * links (at most MAXNODES), for an explanation printed once.
 */
static void dump_chain(const struct pebs_expr *e, int ni, struct sbuf *s)
{
	int kind = e->nodes[ni].kind, x = ni;
	size_t links = 0;
	for (; e->nodes[x].kind == kind; x = e->nodes[x].a, links++)
		sb_printf(s, "(");
	dump(e, x, s);
	while (links--) {
		x = ni;
		for (size_t i = 0; i < links; i++)
			x = e->nodes[x].a;
		sb_printf(s, kind == N_AND ? " and " : " or ");
		dump(e, e->nodes[x].b, s);
		sb_printf(s, ")");
	}
}

static void dump(const struct pebs_expr *e, int ni, struct sbuf *s)
{
	const struct node *p = &e->nodes[ni];
	switch (p->kind) {
	case N_TRUE: sb_printf(s, "true"); break;
	case N_FALSE: sb_printf(s, "false"); break;
	case N_AND:
	case N_OR:
		dump_chain(e, ni, s);
		break;
	case N_NOT:
		sb_printf(s, "not ");
		dump(e, p->a, s);
		break;
	case N_NUM:
	case N_T:
		sb_printf(s, "%s in {", p->kind == N_T ? "time" :
			  pebs_col_info((unsigned)p->col)->name);
		if (p->kind == N_T && !pebs_expr_clock_ready(e)) {
			sb_printf(s, "t %s ", opnames[p->op]);
			dump_dec(p, s);
			sb_printf(s, "%s", units[p->tunit]);
		}
		for (size_t i = 0; i < p->niv; i++)
			sb_printf(s, "%s0x%llx..0x%llx", i ? "," : "",
				  (unsigned long long)p->iv[i].lo,
				  (unsigned long long)p->iv[i].hi);
		sb_printf(s, "}");
		break;
	case N_DSRC:
		dump_dsrc(p, s);
		break;
	case N_EVENT:
	case N_SYM:
		sb_printf(s, "%s %s%s {", p->kind == N_SYM ?
			  pebs_sym_field_name(p->symf) : "event",
			  p->neg ? "not " : "", p->glob ? "~" : "in");
		for (size_t i = 0; i < p->nnames; i++) {
			sb_printf(s, "%s\"", i ? "," : "");
			dump_str(s, p->names[i], p->glob);
			sb_printf(s, "\"");
		}
		sb_printf(s, "}");
		break;
	case N_CMP2:
		sb_printf(s, "%s&0x%llx %s %s&0x%llx",
			  pebs_col_info((unsigned)p->col)->name,
			  (unsigned long long)p->m1, opnames[p->op],
			  pebs_col_info((unsigned)p->col2)->name,
			  (unsigned long long)p->m2);
		break;
	}
}

size_t pebs_expr_dump(const struct pebs_expr *e, char *buf, size_t len)
{
	struct sbuf s = { buf, len, 0 };
	if (len)
		buf[0] = 0;
	dump(e, e->root, &s);
	return s.used;
}
