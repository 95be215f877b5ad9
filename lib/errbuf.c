/*
 * errbuf.c - detail messages into a caller's buffer.
 */
#include <stdio.h>

#include "errbuf.h"
#include "output_fmt.h"

void lib_verrf(char *err, size_t len, const char *fmt, va_list ap)
{
	if (!err || !len)
		return;
	vsnprintf(err, len, fmt, ap);
	/* names and values quoted from input files end on a terminal */
	pebs_outfmt_msg_fix(err);
}

void lib_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lib_verrf(err, len, fmt, ap);
	va_end(ap);
}
