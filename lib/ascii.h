/*
 * ascii.h - the C locale's character classes and case folding, whatever
 * the locale (internal to lib/).
 *
 * <ctype.h> and strcasecmp() follow the calling thread's LC_CTYPE, and
 * libpebs runs inside programs that set one (setlocale(LC_ALL, ""); Python
 * sets LC_CTYPE at startup): under tr_TR.UTF-8 tolower('I') is 'I' (its
 * lower case is the dotless U+0131), so "HITM" no longer matched "hitm",
 * and under ISO-8859-1 isalpha(0xe9) is true.  Every name, keyword and
 * number the library reads is ASCII, so these are all it needs; <ctype.h>
 * is not used in lib/ (a call to it no longer compiles there).
 */
#ifndef PEBS_ASCII_H
#define PEBS_ASCII_H

#include <stddef.h>

static inline int lib_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int lib_isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static inline int lib_isalpha(int c)
{
	return lib_isupper(c) || (c >= 'a' && c <= 'z');
}

static inline int lib_isalnum(int c)
{
	return lib_isalpha(c) || lib_isdigit(c);
}

static inline int lib_isxdigit(int c)
{
	return lib_isdigit(c) || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static inline int lib_isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int lib_isprint(int c)
{
	return c >= 0x20 && c < 0x7f;
}

static inline int lib_tolower(int c)
{
	return lib_isupper(c) ? c - 'A' + 'a' : c;
}

static inline int lib_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int x = lib_tolower((unsigned char)*a);
		int y = lib_tolower((unsigned char)*b);
		if (x != y || !x)
			return x - y;
	}
	return 0;
}

static inline int lib_strcasecmp(const char *a, const char *b)
{
	return lib_strncasecmp(a, b, (size_t)-1);
}

#endif
