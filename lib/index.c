/*
 * index.c - reading a segment's footer index (INDX, found through TAIL).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "pebs_format.h"

/* Reads exactly @len bytes at @off; 0 or -1. */
static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + got, len - got,
				  (off_t)(off + got));
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

int pebs_file_index(const char *path, struct pebs_index_entry **out,
		    size_t *n)
{
	struct stat sb;
	uint8_t tail[CHUNK_HDR + 16 + CHUNK_TRL], ih[CHUNK_HDR];
	int rc = -PEBS_E_FORMAT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -PEBS_E_IO;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -PEBS_E_IO;
	}
	uint64_t size = (uint64_t)sb.st_size;
	if (size < sizeof(tail) + FMT_MAGIC_LEN ||
	    pread_all(fd, tail, sizeof(tail), size - sizeof(tail)) ||
	    get32(tail) != TAG_TAIL || get64(tail + 8) != 16 ||
	    fmt_checksum(TAG_TAIL, tail + CHUNK_HDR, 16) !=
	    get64(tail + CHUNK_HDR + 16))
		goto out;
	/* TAIL: INDX and TAIL offsets relative to the segment's magic. */
	uint64_t indx_rel = get64(tail + CHUNK_HDR);
	uint64_t tail_rel = get64(tail + CHUNK_HDR + 8);
	uint64_t tail_at = size - sizeof(tail);
	if (tail_rel > tail_at || indx_rel >= tail_rel)
		goto out;
	uint64_t seg = tail_at - tail_rel, best = seg + indx_rel;
	if (pread_all(fd, ih, sizeof(ih), best) < 0 ||
	    get32(ih) != TAG_INDX)
		goto out;
	/*
	 * Bounded before any sum: a length near 2^64 wrapped the sum below
	 * to the room there is, and the checksum then read 2^64 bytes.  The
	 * count is followed by 32-byte entries (section 7).
	 */
	uint64_t len = get64(ih + 8);
	if (len < 8 || len > CHUNK_MAX_LEN || (len - 8) % 32 != 0 ||
	    tail_at - best < CHUNK_HDR + CHUNK_TRL + 8 ||
	    len != tail_at - best - CHUNK_HDR - CHUNK_TRL) {
		rc = -PEBS_E_CORRUPT;
		goto out;
	}
	uint8_t *p = malloc(len + CHUNK_TRL);
	if (!p) {
		rc = -PEBS_E_NOMEM;
		goto out;
	}
	if (pread_all(fd, p, len + CHUNK_TRL, best + CHUNK_HDR) < 0 ||
	    fmt_checksum(TAG_INDX, p, len) != get64(p + len) ||
	    get64(p) != (len - 8) / 32) {
		free(p);
		rc = -PEBS_E_CORRUPT;
		goto out;
	}
	size_t cnt = (size_t)get64(p);
	struct pebs_index_entry *e = calloc(cnt ? cnt : 1, sizeof(*e));
	if (!e) {
		free(p);
		rc = -PEBS_E_NOMEM;
		goto out;
	}
	for (size_t i = 0; i < cnt; i++) {
		const uint8_t *q = p + 8 + 32 * i;
		e[i].offset = seg + get64(q);
		e[i].samples = get64(q + 8);
		e[i].tmin = get64(q + 16);
		e[i].tmax = get64(q + 24);
	}
	free(p);
	*out = e;
	*n = cnt;
	rc = 0;
out:
	close(fd);
	return rc;
}
