/*
 * trace.c - reader of the trace text format (formats/trace-format.md),
 * the output of libpebs-trace and a format people can write by hand.
 *
 * Line oriented: the first line is "pebs-trace 1" or "pebs-trace 2"; then
 * comments ('#'), blank lines, directives (a word first) and accesses (a
 * number first):
 *   TIME TID CPU OP SIZE IP ADDR
 * Version 2 ends with "end N" (N access lines): one that ends before it
 * is incomplete (PEBS_E_TRUNCATED), so that a trace its writer was killed
 * while writing is not taken for a whole one; "error TEXT" says that the
 * writer failed (PEBS_E_IO).  Every error names its 1-based line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"
#include "errbuf.h"

#define MAX_MAPS 65536u

struct wtrace {
	FILE *fp;
	int own;
	char *buf;
	size_t bufcap;
	uint64_t line;
	int cycles;		/* clock cycles (else ns) */
	int started;		/* an access was read */
	int version;		/* 1 or 2 (2: ends with "end N") */
	int ended;		/* its "end" line was read */
	uint64_t naccess;	/* access lines read */
	uint32_t pid;
	uint64_t last_time;
	struct wtrace_map *maps;
	size_t nmaps, maps_cap;
	char *command;
	struct wtrace_rec first;	/* read by wtrace_open() */
	int have_first;		/* 1: first holds an access; -1: at end */
	/* what was read of a line before a signal interrupted it */
	char *part;
	size_t npart, partcap;
};

static int fail(char *msg, size_t cap, uint64_t line, int err,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(char *msg, size_t cap, uint64_t line, int err,
		const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(msg, cap, "line %llu: ", (unsigned long long)line);
	if (n < 0 || (size_t)n >= cap)
		return -err;
	va_start(ap, fmt);
	lib_verrf(msg + n, cap - (size_t)n, fmt, ap);
	va_end(ap);
	return -err;
}

/* A read error is the file's, not a line's: "read error: WHY", as the
 * other readers say it. */
static int read_error(char *msg, size_t cap)
{
	snprintf(msg, cap, "read error: %s", strerror(errno ? errno : EIO));
	return -PEBS_E_IO;
}

/*
 * Strips the line end of @buf (@n bytes, as getline() read it): the LF
 * and one CR before it, no more (formats/trace-format.md section 1).
 * Returns the new length; a CR left at the end, a second one, is an error
 * of the caller's line (see stray_cr).
 */
static size_t strip_eol(char *buf, size_t n)
{
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = 0;
	return n;
}

/* A CR still at the end of line @line (@n bytes) after strip_eol():
 * -@err and the message, else 0. */
static int stray_cr(char *msg, size_t cap, uint64_t line, const char *buf,
		    size_t n, int err)
{
	if (n == 0 || buf[n - 1] != '\r')
		return 0;
	snprintf(msg, cap, "line %llu, column %zu: a second CR before the "
		 "line's end (one CR before the LF is allowed)",
		 (unsigned long long)line, n);
	return -err;
}

/* Next whitespace-separated word of *@p (NUL-terminated in place). */
static char *word(char **p)
{
	char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	char *e = s;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	if (*e)
		*e++ = 0;
	*p = e;
	return s;
}

/* Unsigned number (base 10, or 16 with @hex; "0x" optional there). */
static int num(const char *s, int hex, uint64_t max, uint64_t *v)
{
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s)
		return -1;
	uint64_t x = 0;
	unsigned base = hex ? 16 : 10;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (hex && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (hex && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (__builtin_mul_overflow(x, base, &x) ||
		    __builtin_add_overflow(x, d, &x) || x > max)
			return -2;
	}
	*v = x;
	return 0;
}

/* Quotable excerpt: at most 24 bytes, control bytes as '?'. */
static const char *excerpt(char *dst, size_t cap, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 4 < cap && i < 24; i++)
		dst[i] = (unsigned char)s[i] < 0x20 ||
			 (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	if (s[i])
		memcpy(dst + i, "...", 4);
	else
		dst[i] = 0;
	return dst;
}

static int field(char *msg, size_t cap, uint64_t line, const char *name,
		 const char *s, int hex, uint64_t max, uint64_t *v)
{
	char ex[32];
	if (!s)
		return fail(msg, cap, line, PEBS_E_PARSE, "missing %s", name);
	int r = num(s, hex, max, v);
	if (r == -2)
		return fail(msg, cap, line, PEBS_E_RANGE,
			    "%s '%s' out of range", name,
			    excerpt(ex, sizeof(ex), s));
	if (r < 0)
		return fail(msg, cap, line, PEBS_E_PARSE,
			    "%s '%s' is not a %s number", name,
			    excerpt(ex, sizeof(ex), s),
			    hex ? "hexadecimal" : "decimal");
	return 0;
}

static int access_line(struct wtrace *t, char *p, struct wtrace_rec *r,
		       char *msg, size_t cap)
{
	uint64_t v, ln = t->line;
	char ex[32];
	int e;
	memset(r, 0, sizeof(*r));
	r->line = ln;
	if ((e = field(msg, cap, ln, "TIME", word(&p), 0, UINT64_MAX, &v)))
		return e;
	r->time = v;
	if ((e = field(msg, cap, ln, "TID", word(&p), 0, UINT32_MAX, &v)))
		return e;
	r->tid = (uint32_t)v;
	char *c = word(&p);
	if (c && strcmp(c, "-") == 0) {
		r->cpu = -1;
	} else {
		if ((e = field(msg, cap, ln, "CPU", c, 0, 1u << 20, &v)))
			return e;
		r->cpu = (int32_t)v;
	}
	char *op = word(&p);
	if (!op)
		return fail(msg, cap, ln, PEBS_E_PARSE, "missing OP");
	if (strcmp(op, "R") && strcmp(op, "W") && strcmp(op, "U"))
		return fail(msg, cap, ln, PEBS_E_PARSE,
			    "OP '%s' is not R, W or U",
			    excerpt(ex, sizeof(ex), op));
	r->op = op[0];
	char *sz = word(&p);
	if ((e = field(msg, cap, ln, "SIZE", sz, 0, 64, &v)))
		return e;
	if (v == 0)
		return fail(msg, cap, ln, PEBS_E_RANGE,
			    "SIZE 0 (must be 1-64)");
	r->size = (uint8_t)v;
	if ((e = field(msg, cap, ln, "IP", word(&p), 1, UINT64_MAX, &v)))
		return e;
	r->ip = v;
	if ((e = field(msg, cap, ln, "ADDR", word(&p), 1, UINT64_MAX, &v)))
		return e;
	r->addr = v;
	char *extra = word(&p);
	if (extra)
		return fail(msg, cap, ln, PEBS_E_PARSE,
			    "unexpected field '%s' after ADDR",
			    excerpt(ex, sizeof(ex), extra));
	if (t->started && r->time < t->last_time)
		return fail(msg, cap, ln, PEBS_E_PARSE,
			    "time %llu is before the previous access's "
			    "%llu (the trace must be in time order)",
			    (unsigned long long)r->time,
			    (unsigned long long)t->last_time);
	t->started = 1;
	t->last_time = r->time;
	r->pid = t->pid;
	return 1;
}

static int map_line(struct wtrace *t, char *p, char *msg, size_t cap)
{
	uint64_t pid, start, end, pgoff, ln = t->line;
	int e;
	if ((e = field(msg, cap, ln, "map PID", word(&p), 0, UINT32_MAX,
		       &pid)) ||
	    (e = field(msg, cap, ln, "map START", word(&p), 1, UINT64_MAX,
		       &start)) ||
	    (e = field(msg, cap, ln, "map END", word(&p), 1, UINT64_MAX,
		       &end)) ||
	    (e = field(msg, cap, ln, "map PGOFF", word(&p), 1, UINT64_MAX,
		       &pgoff)))
		return e;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return fail(msg, cap, ln, PEBS_E_PARSE, "map without a PATH");
	if (end <= start)
		return fail(msg, cap, ln, PEBS_E_RANGE,
			    "map END is not above START");
	if (t->nmaps >= MAX_MAPS)
		return fail(msg, cap, ln, PEBS_E_RANGE,
			    "more than %u maps", MAX_MAPS);
	if (t->nmaps == t->maps_cap) {
		size_t nc = t->maps_cap ? t->maps_cap * 2 : 16;
		void *n = realloc(t->maps, nc * sizeof(*t->maps));
		if (!n)
			return fail(msg, cap, ln, PEBS_E_NOMEM,
				    "out of memory");
		t->maps = n;
		t->maps_cap = nc;
	}
	char *path = strdup(p);
	if (!path)
		return fail(msg, cap, ln, PEBS_E_NOMEM, "out of memory");
	t->maps[t->nmaps++] = (struct wtrace_map){ (uint32_t)pid, start, end,
						   pgoff, path, "" };
	return 0;
}

/* "build-id HEX PATH": the build-id of the file of the maps before it. */
static int bid_line(struct wtrace *t, char *p, char *msg, size_t cap)
{
	char ex[32];
	char *hex = word(&p);
	size_t n = hex ? strlen(hex) : 0;
	if (!hex)
		return fail(msg, cap, t->line, PEBS_E_PARSE,
			    "build-id without HEX");
	if (n < 2 || n > 40 || n % 2 || strspn(hex, "0123456789abcdef") != n)
		return fail(msg, cap, t->line, PEBS_E_PARSE,
			    "build-id '%s' is not 1-20 bytes of lowercase "
			    "hex", excerpt(ex, sizeof(ex), hex));
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return fail(msg, cap, t->line, PEBS_E_PARSE,
			    "build-id without a PATH");
	for (size_t i = 0; i < t->nmaps; i++)
		if (!strcmp(t->maps[i].path, p))
			memcpy(t->maps[i].bid, hex, n + 1);
	return 0;
}

static int directive(struct wtrace *t, char *p, char *msg, size_t cap)
{
	char ex[32];
	uint64_t v;
	int e;
	char *w = word(&p);
	if (strcmp(w, "pid") == 0) {
		if ((e = field(msg, cap, t->line, "pid", word(&p), 0,
			       UINT32_MAX, &v)))
			return e;
		t->pid = (uint32_t)v;
		if ((w = word(&p)))
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "unexpected '%s' after pid",
				    excerpt(ex, sizeof(ex), w));
		return 0;
	}
	if (strcmp(w, "clock") == 0) {
		char *u = word(&p);
		if (t->started)
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "clock after the first access");
		if (u && strcmp(u, "ns") == 0)
			t->cycles = 0;
		else if (u && strcmp(u, "cycles") == 0)
			t->cycles = 1;
		else if (u)
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "clock '%s' is not 'ns' or 'cycles'",
				    excerpt(ex, sizeof(ex), u));
		else
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "clock without a unit ('ns' or "
				    "'cycles')");
		if ((w = word(&p)))
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "unexpected '%s' after clock %s",
				    excerpt(ex, sizeof(ex), w), u);
		return 0;
	}
	if (strcmp(w, "map") == 0)
		return map_line(t, p, msg, cap);
	if (strcmp(w, "build-id") == 0)
		return bid_line(t, p, msg, cap);
	if (strcmp(w, "end") == 0) {
		if ((e = field(msg, cap, t->line, "end", word(&p), 0,
			       UINT64_MAX, &v)))
			return e;
		if ((w = word(&p)))
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "unexpected '%s' after end",
				    excerpt(ex, sizeof(ex), w));
		if (v != t->naccess)
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "end says %llu access lines, the trace "
				    "has %llu", (unsigned long long)v,
				    (unsigned long long)t->naccess);
		t->ended = 1;
		return 0;
	}
	if (strcmp(w, "error") == 0) {
		while (*p == ' ' || *p == '\t')
			p++;
		/* libpebs-trace always gives a reason; another writer
		 * may not */
		return fail(msg, cap, t->line, PEBS_E_IO, "incomplete: its "
			    "program could not write it: %s",
			    *p ? p : "(no reason given)");
	}
	if (strcmp(w, "command") == 0) {
		while (*p == ' ' || *p == '\t')
			p++;
		char *c = strdup(p);
		if (!c)
			return fail(msg, cap, t->line, PEBS_E_NOMEM,
				    "out of memory");
		free(t->command);
		t->command = c;
		return 0;
	}
	return fail(msg, cap, t->line, PEBS_E_PARSE,
		    "unknown directive '%s'", excerpt(ex, sizeof(ex), w));
}

/*
 * getline() of the next line into t->buf, whole: a signal that
 * interrupts the wait for it on a pipe or a terminal (a stop request to
 * pebs-capture, whose handlers do not restart reads, so that a capture
 * whose trace stalls still stops) is -PEBS_E_AGAIN, what was read of
 * the line kept for the next call, -PEBS_E_NOMEM when it cannot be.
 * Else 0 with getline()'s count in *@len, -1 at the end or on an error
 * (ferror()).
 */
static int get_line(struct wtrace *t, ssize_t *len)
{
	errno = 0;
	ssize_t n = getline(&t->buf, &t->bufcap, t->fp);
	*len = n;
	if (ferror(t->fp) && errno == EINTR) {
		clearerr(t->fp);
		size_t k = n > 0 ? (size_t)n : 0;
		if (t->npart + k + 1 > t->partcap) {
			size_t nc = 2 * (t->npart + k + 1);
			char *np = realloc(t->part, nc);
			if (!np)
				return -PEBS_E_NOMEM;
			t->part = np;
			t->partcap = nc;
		}
		memcpy(t->part + t->npart, t->buf, k);
		t->npart += k;
		return -PEBS_E_AGAIN;
	}
	if (!t->npart || (n < 0 && ferror(t->fp)))
		return 0;
	/* the line is the part read before, then the rest */
	size_t k = n > 0 ? (size_t)n : 0;
	if (t->npart + k + 1 > t->partcap) {
		char *np = realloc(t->part, t->npart + k + 1);
		if (!np)
			return -PEBS_E_NOMEM;
		t->part = np;
		t->partcap = t->npart + k + 1;
	}
	memcpy(t->part + t->npart, t->buf, k);
	n = (ssize_t)(t->npart + k);
	t->part[n] = '\0';
	char *b = t->buf;
	size_t bc = t->bufcap;
	t->buf = t->part;
	t->bufcap = t->partcap;
	t->part = b;
	t->partcap = bc;
	t->npart = 0;
	*len = n;
	return 0;
}

/* Reads lines up to the next access. */
static int read_next(struct wtrace *t, struct wtrace_rec *r, char *msg,
		     size_t cap)
{
	while (!t->ended) {
		ssize_t n;
		int g = get_line(t, &n);
		if (g == -PEBS_E_AGAIN)
			snprintf(msg, cap, "interrupted by a signal");
		if (g == -PEBS_E_NOMEM)
			snprintf(msg, cap, "out of memory");
		if (g)
			return g;
		if (n < 0) {
			if (ferror(t->fp))
				return read_error(msg, cap);
			if (t->version >= 2)
				return fail(msg, cap, t->line + 1,
					    PEBS_E_TRUNCATED, "incomplete: "
					    "no 'end' line (its program was "
					    "probably killed while writing "
					    "it)");
			return 0;
		}
		t->line++;
		if (t->version >= 2 && t->buf[n - 1] != '\n')
			return fail(msg, cap, t->line, PEBS_E_TRUNCATED,
				    "incomplete: cut short, no 'end' line "
				    "(its program was probably killed while "
				    "writing it)");
		if ((size_t)n != strlen(t->buf))
			return fail(msg, cap, t->line, PEBS_E_PARSE,
				    "NUL byte in the line");
		n = (ssize_t)strip_eol(t->buf, (size_t)n);
		int e = stray_cr(msg, cap, t->line, t->buf, (size_t)n,
				 PEBS_E_PARSE);
		if (e)
			return e;
		char *p = t->buf;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (*p >= '0' && *p <= '9') {
			e = access_line(t, p, r, msg, cap);
			t->naccess += e > 0;
			return e;
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
			e = directive(t, p, msg, cap);
			if (e)
				return e;
			continue;
		}
		char ex[32];
		return fail(msg, cap, t->line, PEBS_E_PARSE,
			    "neither an access, a directive nor a comment: "
			    "'%s'", excerpt(ex, sizeof(ex), p));
	}
	return 0;	/* what follows "end" is not read */
}

/* What a header line is: the version written now, or the first. */
#define EXPECT "expected 'pebs-trace 2' or 'pebs-trace 1'"

/*
 * The first line, @n bytes in @buf: exactly "pebs-trace 1" or
 * "pebs-trace 2" (one space), then optional blanks, then the line end;
 * the version in *@version.  Errors in the line name their column
 * (1-based).
 */
static int header(char *buf, size_t n, int *version, char *msg,
		  size_t cap)
{
	static const char magic[] = "pebs-trace";
	const size_t m = sizeof(magic) - 1, v = m + 1;
	char ex[32];
	size_t i, ve;
	int e;

	if (n != strlen(buf))
		return fail(msg, cap, 1, PEBS_E_FORMAT, "not a pebs-trace "
			    "file (" EXPECT ")");
	n = strip_eol(buf, n);
	if (strncmp(buf, magic, m) != 0 ||
	    (buf[m] && buf[m] != ' ' && buf[m] != '\t'))
		return fail(msg, cap, 1, PEBS_E_FORMAT, "not a pebs-trace "
			    "file (" EXPECT ")");
	if ((e = stray_cr(msg, cap, 1, buf, n, PEBS_E_FORMAT)))
		return e;
	while (n > m && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = 0;
	if (n == m)
		return fail(msg, cap, 1, PEBS_E_FORMAT, "no version after "
			    "'pebs-trace' (" EXPECT ")");
	if (buf[m] != ' ' || buf[v] == ' ' || buf[v] == '\t') {
		i = buf[m] != ' ' ? m : v;
		snprintf(msg, cap, "line 1, column %zu: %s where the header "
			 "has one space (" EXPECT ")", i + 1,
			 buf[i] == ' ' ? "a second space" : "a tab");
		return -PEBS_E_FORMAT;
	}
	ve = v + strcspn(buf + v, " \t");
	if (ve < n) {
		i = ve + strspn(buf + ve, " \t");
		snprintf(msg, cap, "line 1, column %zu: unexpected '%s' after "
			 "the version", i + 1, excerpt(ex, sizeof(ex),
						     buf + i));
		return -PEBS_E_FORMAT;
	}
	if (strspn(buf + v, "0123456789") != ve - v) {
		snprintf(msg, cap, "line 1, column %zu: version '%s' is not a "
			 "number (" EXPECT ")", v + 1,
			 excerpt(ex, sizeof(ex), buf + v));
		return -PEBS_E_FORMAT;
	}
	if (strcmp(buf + v, "1") != 0 && strcmp(buf + v, "2") != 0)
		return fail(msg, cap, 1, PEBS_E_VERSION, "trace format "
			    "version '%s' is not supported (this reader "
			    "knows 1 and 2)", excerpt(ex, sizeof(ex),
						      buf + v));
	*version = buf[v] - '0';
	return 0;
}

void wtrace_close(struct wtrace *t)
{
	if (!t)
		return;
	if (t->own && t->fp)
		fclose(t->fp);
	for (size_t i = 0; i < t->nmaps; i++)
		free(t->maps[i].path);
	free(t->maps);
	free(t->buf);
	free(t->part);
	free(t->command);
	free(t);
}

int wtrace_open(struct wtrace **out, FILE *fp, int own, char *msg,
		size_t cap)
{
	*out = NULL;
	struct wtrace *t = calloc(1, sizeof(*t));
	if (!t) {
		if (own)
			fclose(fp);
		snprintf(msg, cap, "out of memory");
		return -PEBS_E_NOMEM;
	}
	t->fp = fp;
	t->own = own;
	ssize_t n = getline(&t->buf, &t->bufcap, fp);
	t->line = 1;
	int e = 0;
	if (n < 0) {
		e = ferror(fp) ? read_error(msg, cap) :
			fail(msg, cap, 1, PEBS_E_FORMAT,
			     "empty input, " EXPECT);
	} else {
		e = header(t->buf, (size_t)n, &t->version, msg, cap);
	}
	if (!e) {
		e = read_next(t, &t->first, msg, cap);
		if (e >= 0) {
			t->have_first = e ? 1 : -1;
			e = 0;
		}
	}
	if (e) {
		wtrace_close(t);
		return e;
	}
	*out = t;
	return 0;
}

int wtrace_next(struct wtrace *t, struct wtrace_rec *r, char *msg,
		size_t cap)
{
	if (t->have_first) {
		int h = t->have_first;
		t->have_first = 0;
		if (h < 0)
			return 0;
		*r = t->first;
		return 1;
	}
	return read_next(t, r, msg, cap);
}

int wtrace_cycles(const struct wtrace *t)
{
	return t->cycles;
}

size_t wtrace_nmaps(const struct wtrace *t)
{
	return t->nmaps;
}

const struct wtrace_map *wtrace_map(const struct wtrace *t, size_t i)
{
	return i < t->nmaps ? &t->maps[i] : NULL;
}

const char *wtrace_command(const struct wtrace *t)
{
	return t->command ? t->command : "";
}
