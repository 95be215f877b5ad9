/*
 * output_fmt.h - internal: fast number formatting and string escaping
 * shared by the writers (output.c, output_info.c, hist_out.c, c2c_*.c)
 * and the readers (csvin.c, the YAML merges) (not a public header).
 */
#ifndef PEBS_OUTPUT_FMT_H
#define PEBS_OUTPUT_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern const char pebs_outfmt_digits2[200];
extern const char pebs_outfmt_hex2[512];
extern const uint64_t pebs_outfmt_pow10[20];

/* Decimal digits of @v (1 for 0): bit length times log10(2), then fixed. */
static inline unsigned pebs_outfmt_ndigits(uint64_t v)
{
	unsigned n = ((unsigned)(64 - __builtin_clzll(v | 1)) * 1233) >> 12;
	return n + (v >= pebs_outfmt_pow10[n]);
}

/* Writes the @n last digits of @v < 2^32 backwards, ending at @e. */
static inline void pebs_outfmt_u32_back(char *e, uint32_t v)
{
	while (v >= 100) {
		uint32_t r = v % 100;
		v /= 100;
		e -= 2;
		memcpy(e, pebs_outfmt_digits2 + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(e - 2, pebs_outfmt_digits2 + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
}

/* Writes @v in decimal at @p (up to 20 bytes); returns the end. */
static inline char *pebs_outfmt_u64(char *p, uint64_t v)
{
	unsigned n = pebs_outfmt_ndigits(v);
	char *e = p + n;
	/* 32-bit arithmetic is cheaper: peel off 8 digits at a time. */
	while (v > UINT32_MAX) {
		uint32_t lo = (uint32_t)(v % 100000000u);
		v /= 100000000u;
		uint32_t a = lo / 10000, b = lo % 10000;
		memcpy(e - 8, pebs_outfmt_digits2 + 2 * (a / 100), 2);
		memcpy(e - 6, pebs_outfmt_digits2 + 2 * (a % 100), 2);
		memcpy(e - 4, pebs_outfmt_digits2 + 2 * (b / 100), 2);
		memcpy(e - 2, pebs_outfmt_digits2 + 2 * (b % 100), 2);
		e -= 8;
	}
	pebs_outfmt_u32_back(e, (uint32_t)v);
	return p + n;
}

/* pebs_outfmt_u64() for 32-bit values, with short values first. */
static inline char *pebs_outfmt_u32(char *p, uint32_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, pebs_outfmt_digits2 + 2 * v, 2);
		return p + 2;
	}
	unsigned n = pebs_outfmt_ndigits(v);
	pebs_outfmt_u32_back(p + n, v);
	return p + n;
}

/* Writes "0x" and @v in lowercase hex at @p (up to 18 bytes). */
static inline char *pebs_outfmt_hex(char *p, uint64_t v)
{
	unsigned n = (unsigned)(67 - __builtin_clzll(v | 1)) / 4;
	*p++ = '0';
	*p++ = 'x';
	char *e = p + n, *q = e;
	while (v >= 256) {
		q -= 2;
		memcpy(q, pebs_outfmt_hex2 + 2 * (v & 255), 2);
		v >>= 8;
	}
	if (v >= 16)
		memcpy(q - 2, pebs_outfmt_hex2 + 2 * v, 2);
	else
		q[-1] = pebs_outfmt_hex2[2 * v + 1];
	return e;
}

/*
 * Parses decimal or 0x-hex @s (@n bytes, no sign, no spaces) into *@out.
 * Returns 0, -1 when it is not a number, -2 when it exceeds 64 bits.
 */
int pebs_outfmt_parse_u64(const char *s, size_t n, uint64_t *out);

/* 1 when a CSV field must be quoted to read back as exactly @s. */
int pebs_outfmt_csv_needs_quote(const char *s, size_t n);

/*
 * Writes @s as a JSON string with its quotes at @dst (at most 6n+2 bytes);
 * invalid UTF-8 bytes become U+FFFD.  Returns the length.
 */
size_t pebs_outfmt_json_str(char *dst, const char *s, size_t n);

/*
 * Writes @s for a text table at @dst (at most n bytes; @dst may be @s):
 * control characters (C0, DEL, C1 U+0080..U+009F: a terminal would act on
 * them), bidirectional controls (they reorder the line) and invalid UTF-8
 * bytes become '?'.  *@width gets the number of
 * characters.  pebs_text_sanitize() (pebs.h) is its public form.
 */
size_t pebs_outfmt_text_str(char *dst, const char *s, size_t n,
			    uint32_t *width);

/*
 * Makes the NUL-terminated message @s, in place, as text tables show
 * names (pebs_outfmt_text_str(): '\n' and '\t' become '?' too, so a
 * value from an input cannot start a line of its own that passes for a
 * message).  The library's error helpers pass what they formatted
 * through it, since those messages quote names and values from input
 * files and end on a terminal.  Returns @s.
 */
char *pebs_outfmt_msg_fix(char *s);

/*
 * Writes @s to @fp as pebs_outfmt_text_str() does, then spaces up to @pad
 * characters.  The one way names reach a text table or report.
 */
void pebs_outfmt_text_fputs(FILE *fp, const char *s, size_t pad);

/* 1 when @s (@n bytes) is valid UTF-8. */
int pebs_outfmt_utf8_valid(const char *s, size_t n);

/*
 * Writes @s to @fp as a YAML double-quoted scalar, with its quotes, that
 * YAML readers read back as @s: escaped are '"', '\', what YAML does not
 * allow as it is (C0 controls, DEL, C1 controls, U+FFFE, U+FFFF; as \xNN
 * or \uNNNN) and what it reads as a line break (U+0085, U+2028, U+2029).
 * Invalid UTF-8 bytes become \ufffd: a caller that needs the bytes back
 * checks pebs_outfmt_utf8_valid() first (c2c_yaml.c writes !!binary).
 */
void pebs_outfmt_yaml_fputs(FILE *fp, const char *s);

/*
 * Writes @s to @fp as XML (and HTML) character data, fit for an attribute
 * value too: '<', '>', '&' and '"' as entities; what XML does not allow or
 * HTML takes as a parse error (controls C0, DEL and C1, noncharacters
 * U+FDD0..U+FDEF and U+xFFFE, U+xFFFF) and invalid UTF-8 bytes become
 * U+FFFD.
 */
void pebs_outfmt_xml_fputs(FILE *fp, const char *s);

struct yaml_parser_s;

/*
 * The input of a YAML merge's libyaml parser: a string, or a stream read
 * through a pebs_read_fn (pebs.h) as the parser asks for it, so that a
 * merge holds the documents' results, not their text.
 */
struct pebs_outfmt_yin {
	const void *buf;	/* a string input: @len bytes */
	size_t len;
	int (*rd)(void *ctx, void *buf, size_t size, size_t *n);
	void *ctx;		/* a stream: pebs_read_fn and its context */
	int ioerr;		/* rd failed (the parser says "input error") */
	/*
	 * The last bytes read, at least 32 KiB of them: the parser reads
	 * ahead of what it decoded by at most its raw buffer (16 KiB), and
	 * the line of a reader error is counted up to its byte offset.
	 */
	unsigned char *keep;
	size_t nkeep;
	uint64_t kstart;	/* the offset of keep[0] */
	size_t kline;		/* its line, from 1 */
};

/* Parser @p reads string @buf (@len bytes) through @in. */
void pebs_outfmt_yin_string(struct yaml_parser_s *p,
			    struct pebs_outfmt_yin *in, const void *buf,
			    size_t len);

/*
 * Parser @p reads from @rd with @ctx through @in.  0, then
 * pebs_outfmt_yin_free() when done, or -PEBS_E_NOMEM (nothing to free).
 */
int pebs_outfmt_yin_stream(struct yaml_parser_s *p,
			   struct pebs_outfmt_yin *in,
			   int (*rd)(void *ctx, void *buf, size_t size,
				     size_t *n), void *ctx);

/* Frees what pebs_outfmt_yin_stream() allocated in @in. */
void pebs_outfmt_yin_free(struct pebs_outfmt_yin *in);

/*
 * The line (from 1) of the error of parser @p reading through @in.
 * libyaml marks the line of scanner and parser errors, but for reader
 * errors (invalid UTF-8, a control character) sets only problem_offset,
 * the byte offset: the line is counted up to it, in the string or from
 * the stream's last bytes kept.
 */
size_t pebs_outfmt_yin_err_line(const struct yaml_parser_s *p,
				const struct pebs_outfmt_yin *in);

/* Copies @s to @dst (at most 3n bytes) replacing invalid UTF-8 by U+FFFD. */
size_t pebs_outfmt_utf8_fix(char *dst, const char *s, size_t n);

/*
 * 1 when @s (@n bytes) holds U+0085, U+2028 or U+2029.  libyaml takes them
 * for line breaks and, in a plain or single-quoted scalar, writes a line
 * break and indentation there, which YAML 1.2 readers (to which they are
 * content) read back as spaces: such a string is written double-quoted,
 * where libyaml escapes them as \N, \L, \P.
 */
int pebs_outfmt_yaml_has_linesep(const char *s, size_t n);

/*
 * 1 when plain YAML @s would not read back as that string: empty, a YAML
 * 1.1 bool/null word, or (when @numeric) something that reads as a number.
 */
int pebs_outfmt_yaml_needs_quote(const char *s, int numeric);

#endif
