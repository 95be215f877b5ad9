/*
 * errbuf.h - detail messages into a caller's buffer (internal to lib/).
 * Many library functions take (char *err, size_t len) for the why of a
 * failure; this is the one place that formats into it.
 */
#ifndef PEBS_ERRBUF_H
#define PEBS_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * printf into @err (@len bytes), then pebs_outfmt_msg_fix(): controls and
 * invalid UTF-8 of the values become '?'; nothing when @err is NULL or
 * @len 0.
 */
void lib_errf(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void lib_verrf(char *err, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
