/*
 * Fuzz target: the block decoder on arbitrary bytes.  The checksum is
 * recomputed first, so mutations reach the directory and column decoders
 * instead of stopping at the checksum.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "pebs_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pebs_batch *b;
	char err[128];
	if (!b && !(b = pebs_batch_new(PEBS_BATCH_MAX)))
		return 0;
	uint8_t *c = malloc(size + CHUNK_HDR + CHUNK_TRL);
	if (!c)
		return 0;
	fmt_chunk_hdr(c, TAG_BLCK, CHUNK_CRITICAL, size);
	memcpy(c + CHUNK_HDR, data, size);
	put64(c + CHUNK_HDR + size, fmt_checksum(TAG_BLCK, data, size));
	size_t len = size + CHUNK_HDR + CHUNK_TRL;
	struct pebs_block_info bi;
	if (pebs_block_info(c, len, 1, &bi, err, sizeof(err)) == 0)
		pebs_block_decode(c, len, 0, b, err, sizeof(err));
	/* A column subset takes other paths through the stale-column logic. */
	pebs_block_decode(c, len, 1ull << PEBS_COL_LAT, b, err, sizeof(err));
	free(c);
	return 0;
}
