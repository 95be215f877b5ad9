/*
 * fileio.h - reading regular files whole, without mapping them (internal
 * to lib/): a mapped file that shrinks while it is read kills the process
 * with SIGBUS, where a short read is only a truncated input.
 */
#ifndef PEBS_FILEIO_H
#define PEBS_FILEIO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * Reads @len bytes at offset @off of regular file @fd into @buf, retrying
 * interrupted and partial reads; returns the count (short only at end of
 * file) or -1 with errno.
 */
static inline ssize_t lib_pread_full(int fd, void *buf, size_t len,
				     uint64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got,
				  (off_t)(off + got));
		if (n < 0 && errno != EINTR)
			return -1;
		if (n == 0)
			break;
		if (n > 0)
			got += (size_t)n;
	}
	return (ssize_t)got;
}

#endif
