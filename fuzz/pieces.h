/*
 * pieces.h - for the fuzz targets of the YAML merges: their input read as
 * a stream (a pebs_read_fn), in pieces as a pipe gives them.
 */
#ifndef FUZZ_PIECES_H
#define FUZZ_PIECES_H

#include <stdint.h>
#include <string.h>

/* @data (@size bytes) from @off on, at most @step bytes a read. */
struct pieces {
	const uint8_t *data;
	size_t size, off, step;
};

/* A piece size from the input's size: 1 to 61 bytes, or all at once. */
static inline size_t pieces_step(size_t size)
{
	return size % 5 ? 1 + size % 61 : size + 1;
}

static inline int pieces_read(void *ctx, void *buf, size_t size, size_t *n)
{
	struct pieces *p = ctx;
	size_t k = p->size - p->off;
	k = k < size ? k : size;
	k = k < p->step ? k : p->step;
	memcpy(buf, p->data + p->off, k);
	p->off += k;
	*n = k;
	return 0;
}

#endif
