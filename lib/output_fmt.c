/*
 * output_fmt.c - number parsing and string escaping for the text formats.
 */
#include <stdlib.h>
#include <yaml.h>

#include "ascii.h"
#include "output_fmt.h"
#include "pebs.h"

const char pebs_outfmt_digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

const char pebs_outfmt_hex2[512] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* pow10[n] = 10^n except pow10[0] = 0, so that ndigits(0) is 1. */
const uint64_t pebs_outfmt_pow10[20] = {
	0, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

int pebs_outfmt_parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return -1;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (size_t i = 2; i < n; i++) {
			unsigned c = (unsigned char)s[i], d;
			if (c >= '0' && c <= '9')
				d = c - '0';
			else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
				d = (c | 0x20) - 'a' + 10;
			else
				return -1;
			if (v >> 60)
				return -2;
			v = v << 4 | d;
		}
		*out = v;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int pebs_num_parse(const char *s, size_t n, uint64_t *out)
{
	uint64_t mul = 1, v;
	if (n > 1) {
		switch (s[n - 1]) {
		case 'k': case 'K': mul = 1000; break;
		case 'M': mul = 1000000; break;
		case 'G': mul = 1000000000; break;
		}
		n -= mul > 1;
	}
	int r = pebs_outfmt_parse_u64(s, n, &v);
	if (r == -2 || (!r && v > UINT64_MAX / mul))
		return -PEBS_E_RANGE;
	if (r)
		return -PEBS_E_PARSE;
	*out = v * mul;
	return 0;
}

int pebs_outfmt_csv_needs_quote(const char *s, size_t n)
{
	if (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
		  s[n - 1] == '\t'))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return 1;
	return 0;
}

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

size_t pebs_outfmt_json_str(char *dst, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char *p = dst;
	*p++ = '"';
	for (size_t i = 0; i < n;) {
		unsigned c = u[i];
		if (c >= 0x80) {
			size_t l = utf8_len(u + i, n - i);
			if (l) {
				memcpy(p, u + i, l);
				p += l;
				i += l;
			} else {
				memcpy(p, "\\ufffd", 6);
				p += 6;
				i++;
			}
			continue;
		}
		i++;
		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = '\\';
			*p++ = 't';
		} else if (c == '\r') {
			*p++ = '\\';
			*p++ = 'r';
		} else if (c < 0x20) {
			memcpy(p, "\\u00", 4);
			p[4] = hex[c >> 4];
			p[5] = hex[c & 15];
			p += 6;
		} else {
			*p++ = (char)c;
		}
	}
	*p++ = '"';
	return (size_t)(p - dst);
}

/*
 * Characters the string writers below change, by class: each writer
 * changes some classes (and a few ASCII characters of its syntax) and
 * copies the rest in runs.
 */
enum {
	CH_CTRL = 1,		/* C0, DEL, C1: terminals act on them */
	CH_FFFE = 2,		/* U+FFFE, U+FFFF: neither YAML nor XML */
	CH_NONCHAR = 4,		/* other noncharacters: HTML parse errors */
	CH_LINESEP = 8,		/* U+2028, U+2029: YAML line breaks */
	CH_BAD = 16,		/* a byte of no valid UTF-8 sequence */
	CH_BIDI = 32,		/* bidirectional controls: they reorder a
				 * line on screen (text only) */
};

/*
 * Class of the character at @u (@avail bytes left, at least 1; a
 * NUL-terminated string may pass 4: utf8_len() stops at the NUL, which is
 * no continuation byte): 0 or a CH_ bit; *@len gets its length (1 for an
 * invalid byte), *@cp its code point.
 */
static unsigned ch_class(const unsigned char *u, size_t avail, size_t *len,
			 uint32_t *cp)
{
	unsigned c = u[0];
	size_t l = c < 0x80 ? 1 : utf8_len(u, avail);
	*len = l ? l : 1;
	*cp = c;
	if (!l)
		return CH_BAD;
	if (l == 1)
		return c < 0x20 || c == 0x7f ? CH_CTRL : 0;
	*cp = c & (0x7fu >> l);
	for (size_t i = 1; i < l; i++)
		*cp = *cp << 6 | (u[i] & 63u);
	uint32_t v = *cp;
	if (v < 0xa0)
		return CH_CTRL;
	if (v == 0x2028 || v == 0x2029)
		return CH_LINESEP;
	if (v == 0x061c || v == 0x200e || v == 0x200f ||
	    (v >= 0x202a && v <= 0x202e) || (v >= 0x2066 && v <= 0x2069))
		return CH_BIDI;
	if (v == 0xfffe || v == 0xffff)
		return CH_FFFE;
	if ((v >= 0xfdd0 && v <= 0xfdef) || (v & 0xfffe) == 0xfffe)
		return CH_NONCHAR;
	return 0;
}

/*
 * Writes @s to @fp, each character of a class in @mask or of @ascii
 * through @put (which writes it and returns its width in characters),
 * the others as they are.  Returns the width written.
 */
static size_t put_str(FILE *fp, const char *s, unsigned mask,
		      const char *ascii,
		      size_t (*put)(FILE *, unsigned, uint32_t))
{
	const unsigned char *u = (const unsigned char *)s, *run = u;
	size_t w = 0;
	while (*u) {
		size_t l = 1;
		uint32_t cp = *u;
		unsigned k = *u >= 0x20 && *u < 0x7f ? 0 :
			     ch_class(u, 4, &l, &cp);
		if (!(k & mask) && !(*u < 0x80 && strchr(ascii, *u))) {
			w++;
			u += l;
			continue;
		}
		fwrite(run, 1, (size_t)(u - run), fp);
		w += put(fp, k, cp);
		u += l;
		run = u;
	}
	fwrite(run, 1, (size_t)(u - run), fp);
	return w;
}

size_t pebs_outfmt_text_str(char *dst, const char *s, size_t n,
			    uint32_t *width)
{
	const unsigned char *u = (const unsigned char *)s;
	char *p = dst;
	uint32_t w = 0;
	for (size_t i = 0, l; i < n; w++, i += l) {
		uint32_t cp;
		l = 1;
		if (u[i] >= 0x20 && u[i] < 0x7f) {
			*p++ = (char)u[i];
		} else if (ch_class(u + i, n - i, &l, &cp) &
			   (CH_CTRL | CH_BAD | CH_BIDI)) {
			*p++ = '?';
		} else {
			/* memmove: @dst may be @s (pebs_outfmt_msg_fix) */
			memmove(p, u + i, l);
			p += l;
		}
	}
	*width = w;
	return (size_t)(p - dst);
}

size_t pebs_text_sanitize(char *dst, const char *s, size_t n)
{
	uint32_t w;
	return pebs_outfmt_text_str(dst, s, n, &w);
}

char *pebs_outfmt_msg_fix(char *s)
{
	uint32_t w;
	s[pebs_outfmt_text_str(s, s, strlen(s), &w)] = '\0';
	return s;
}

static size_t put_text(FILE *fp, unsigned k, uint32_t cp)
{
	(void)k;
	(void)cp;
	fputc('?', fp);
	return 1;
}

void pebs_outfmt_text_fputs(FILE *fp, const char *s, size_t pad)
{
	/* the classes pebs_outfmt_text_str() changes */
	size_t w = put_str(fp, s, CH_CTRL | CH_BAD | CH_BIDI, "", put_text);
	for (; w < pad; w++)
		fputc(' ', fp);
}

int pebs_outfmt_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0, l; i < n; i += l)
		if (!(l = u[i] < 0x80 ? 1 : utf8_len(u + i, n - i)))
			return 0;
	return 1;
}

static size_t put_yaml(FILE *fp, unsigned k, uint32_t cp)
{
	if (k == CH_BAD)
		fputs("\\ufffd", fp);
	else if (k == 0)
		fprintf(fp, "\\%c", (int)cp);	/* '"' or '\\' */
	else if (cp < 0x100)
		fprintf(fp, "\\x%02x", (unsigned)cp);
	else
		fprintf(fp, "\\u%04x", (unsigned)cp);
	return 1;
}

void pebs_outfmt_yaml_fputs(FILE *fp, const char *s)
{
	fputc('"', fp);
	put_str(fp, s, CH_CTRL | CH_FFFE | CH_LINESEP | CH_BAD, "\"\\",
		put_yaml);
	fputc('"', fp);
}

static size_t put_xml(FILE *fp, unsigned k, uint32_t cp)
{
	if (k)
		fputs("\xef\xbf\xbd", fp);
	else
		fputs(cp == '<' ? "&lt;" : cp == '>' ? "&gt;" :
		      cp == '&' ? "&amp;" : "&quot;", fp);
	return 1;
}

void pebs_outfmt_xml_fputs(FILE *fp, const char *s)
{
	put_str(fp, s, CH_CTRL | CH_FFFE | CH_NONCHAR | CH_BAD, "<>&\"",
		put_xml);
}

/*
 * The line breaks of the @n bytes at @s, one after the other: "\r\n" is
 * one; a '\r' last, whose next byte is not known (@next -1) or is the end
 * of the input, is one.
 */
static size_t count_breaks(const unsigned char *s, size_t n, int next)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n' || (s[i] == '\r' && (i + 1 < n ?
			s[i + 1] != '\n' : next != '\n'));
	return k;
}

/* pebs_outfmt_yin_err_line() of string @buf of @len bytes. */
static size_t yaml_err_line(const struct yaml_parser_s *p, const void *buf,
			    size_t len)
{
	if (p->error != YAML_READER_ERROR)
		return p->problem_mark.line + 1;
	size_t end = p->problem_offset < len ? p->problem_offset : len;
	return 1 + count_breaks(buf, end, end < len ?
				((const unsigned char *)buf)[end] : -1);
}

void pebs_outfmt_yin_string(struct yaml_parser_s *p,
			    struct pebs_outfmt_yin *in, const void *buf,
			    size_t len)
{
	memset(in, 0, sizeof(*in));
	in->buf = buf;
	in->len = len;
	yaml_parser_set_input_string(p, buf, len);
}

#define YIN_KEEP 65536	/* halved when full: 32 KiB at least stay */

static int yin_read(void *data, unsigned char *buf, size_t size,
		    size_t *size_read)
{
	struct pebs_outfmt_yin *in = data;
	size_t n = 0;
	*size_read = 0;
	if (in->rd(in->ctx, buf, size, &n) < 0 || n > size) {
		in->ioerr = 1;
		return 0;
	}
	*size_read = n;
	for (const unsigned char *b = buf; n;) {
		if (in->nkeep == YIN_KEEP) {
			size_t d = YIN_KEEP / 2;
			in->kline += count_breaks(in->keep, d, in->keep[d]);
			memmove(in->keep, in->keep + d, YIN_KEEP - d);
			in->kstart += d;
			in->nkeep -= d;
		}
		size_t c = YIN_KEEP - in->nkeep < n ? YIN_KEEP - in->nkeep : n;
		memcpy(in->keep + in->nkeep, b, c);
		in->nkeep += c;
		b += c;
		n -= c;
	}
	return 1;
}

int pebs_outfmt_yin_stream(struct yaml_parser_s *p,
			   struct pebs_outfmt_yin *in,
			   int (*rd)(void *ctx, void *buf, size_t size,
				     size_t *n), void *ctx)
{
	memset(in, 0, sizeof(*in));
	in->rd = rd;
	in->ctx = ctx;
	in->kline = 1;
	if (!(in->keep = malloc(YIN_KEEP)))
		return -PEBS_E_NOMEM;
	yaml_parser_set_input(p, yin_read, in);
	return 0;
}

void pebs_outfmt_yin_free(struct pebs_outfmt_yin *in)
{
	free(in->keep);
	in->keep = NULL;
}

size_t pebs_outfmt_yin_err_line(const struct yaml_parser_s *p,
				const struct pebs_outfmt_yin *in)
{
	if (!in->rd)
		return yaml_err_line(p, in->buf, in->len);
	if (p->error != YAML_READER_ERROR)
		return p->problem_mark.line + 1;
	/* before the bytes kept cannot be (the parser's read-ahead is
	 * less): counted to their start then */
	uint64_t off = p->problem_offset < in->kstart ? 0 :
		       p->problem_offset - in->kstart;
	size_t end = off < in->nkeep ? (size_t)off : in->nkeep;
	return in->kline + count_breaks(in->keep, end, end < in->nkeep ?
					in->keep[end] : -1);
}

size_t pebs_outfmt_utf8_fix(char *dst, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char *p = dst;
	for (size_t i = 0; i < n;) {
		size_t l = u[i] >= 0x80 ? utf8_len(u + i, n - i) : 1;
		if (l) {
			memcpy(p, u + i, l);
			p += l;
			i += l;
		} else {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			i++;
		}
	}
	return (size_t)(p - dst);
}

size_t pebs_utf8_fix(char *dst, const char *s, size_t n)
{
	return pebs_outfmt_utf8_fix(dst, s, n);
}

int pebs_outfmt_yaml_has_linesep(const char *s, size_t n)
{
	/* valid UTF-8 or not, these bytes in a row are one of the three */
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i + 1 < n; i++)
		if ((u[i] == 0xc2 && u[i + 1] == 0x85) ||
		    (u[i] == 0xe2 && i + 2 < n && u[i + 1] == 0x80 &&
		     (u[i + 2] == 0xa8 || u[i + 2] == 0xa9)))
			return 1;
	return 0;
}

int pebs_outfmt_yaml_needs_quote(const char *s, int numeric)
{
	/* YAML 1.1 readers (PyYAML) resolve these plain scalars to
	 * booleans, null, or the value and merge keys */
	static const char *const words[] = {
		"y", "n", "yes", "no", "true", "false", "on", "off", "null",
		"~", "=", "<<",
	};
	if (!*s)
		return 1;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (lib_strcasecmp(s, words[i]) == 0)
			return 1;
	/* Anything that starts like a number may be one: quote it. */
	return numeric && strchr("0123456789+-.", *s) != NULL;
}
