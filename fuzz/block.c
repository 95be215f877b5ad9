/*
 * Fuzz target: the block decoder on arbitrary bytes.  The checksums are
 * recomputed first (the chunk's, and the column checksum table's when the
 * block has one and its layout can be found), so mutations reach the
 * directory and column decoders instead of stopping at a checksum.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "pebs_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Rewrites the column checksum table of payload @p (@size bytes) to match
 * its contents, when bflags bit 0 is set and the sizes hold together.
 */
static void fix_colsums(uint8_t *p, size_t size)
{
	if (size < BLK_FIXED || !(get32(p + 12) & BLK_F_COLSUMS))
		return;
	uint64_t ncols = get32(p + 4), nnames = get32(p + 8);
	if (ncols > 1024 || nnames > 65535 || size < BLK_FIXED + 8 * ncols + 8)
		return;
	size_t end = size - 8 * (size_t)ncols - 8, at = BLK_FIXED;
	for (uint64_t i = 0; i < nnames; i++) {
		if (end - at < 2 || end - at - 2 < get16(p + at))
			return;
		at += 2 + (size_t)get16(p + at);
	}
	if (end - at < ncols * BLK_COLDIR)
		return;
	size_t dir = at, data = at + ncols * BLK_COLDIR;
	put64(p + size - 8, fmt_checksum(TAG_BLCK, p, data));
	for (uint64_t i = 0; i < ncols; i++) {
		const uint8_t *d = p + dir + BLK_COLDIR * i;
		uint64_t clen = get64(d + 32);
		if (clen > end - data)
			return;
		put64(p + end + 8 * i, fmt_hash(p + data, clen,
						fmt_colsum_seed(get16(d),
								clen)));
		data += clen;
	}
}

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
	fix_colsums(c + CHUNK_HDR, size);
	put64(c + CHUNK_HDR + size, fmt_checksum(TAG_BLCK, data, size));
	size_t len = size + CHUNK_HDR + CHUNK_TRL;
	struct pebs_block_info bi;
	if (pebs_block_info(c, len, 1, &bi, err, sizeof(err)) == 0)
		pebs_block_decode(c, len, 0, b, err, sizeof(err));
	/* A column subset takes other paths through the stale-column logic. */
	pebs_block_decode(c, len, 1ull << PEBS_COL_LAT, b, err, sizeof(err));
	/* A KEYED column alone: key columns verified and decoded inside. */
	pebs_block_decode(c, len, 1ull << PEBS_COL_ADDR, b, err, sizeof(err));
	pebs_block_decode(c, len, 1ull << PEBS_COL_CPU, b, err, sizeof(err));
	fmt_block_verify_head(c, len);
	free(c);
	return 0;
}
