/*
 * errbuf.c - detail messages into a caller's buffer.
 */
#include <stdio.h>

#include "errbuf.h"

void lib_verrf(char *err, size_t len, const char *fmt, va_list ap)
{
	if (err && len)
		vsnprintf(err, len, fmt, ap);
}

void lib_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lib_verrf(err, len, fmt, ap);
	va_end(ap);
}
