/*
 * Reference decoder for BLCK chunks: byte by byte, no SIMD, no cleverness,
 * straight from the spec, so the fast decoder has something to agree with.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "format_ref.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

long ref_decode_block(const uint8_t *c, size_t len, uint64_t **cols)
{
	if (len < 24 || le(c, 4) != 0x4b434c42) /* "BLCK" */
		return -1;
	uint64_t plen = le(c + 8, 8);
	if (plen + 24 != len)
		return -1;
	const uint8_t *p = c + 16;
	uint32_t n = (uint32_t)le(p, 4), ncols = (uint32_t)le(p + 4, 4);
	uint32_t nnames = (uint32_t)le(p + 8, 4);
	size_t off = 16;
	for (uint32_t i = 0; i < nnames; i++)
		off += 2 + le(p + off, 2);
	size_t data = off + 48 * (size_t)ncols;
	for (uint32_t i = 0; i < ncols; i++) {
		const uint8_t *d = p + off + 48 * i;
		unsigned col = (unsigned)le(d, 2), enc = d[2], w = d[3];
		uint64_t k = le(d + 4, 4), min = le(d + 8, 8);
		uint64_t base = le(d + 24, 8), clen = le(d + 32, 8);
		uint64_t rlen = le(d + 40, 8);
		uint8_t *raw = malloc(rlen + 1);
		if (enc & 0x80)
			memcpy(raw, p + data, rlen);
		else if (rlen && ZSTD_decompress(raw, rlen, p + data, clen) !=
			 rlen) {
			free(raw);
			return -1;
		}
		data += clen;
		enc &= 0x7f;
		for (uint32_t j = 0; j < n; j++) {
			uint64_t v = 0;
			const uint8_t *planes = raw + (enc == 3 ? 8 * k : 0);
			for (unsigned b = 0; b < w; b++)
				v |= (uint64_t)planes[b * (size_t)n + j]
				     << (8 * b);
			if (enc == 0) {
				v = min;
			} else if (enc == 1) {
				v += min;
			} else if (enc == 2) {
				uint64_t dlt = (v >> 1) ^ (0 - (v & 1));
				uint64_t prev = j ? cols[col][j - 1] : base;
				v = prev + dlt;
			} else if (enc == 3) {
				if (v >= k) {
					free(raw);
					return -1;
				}
				v = le(raw + 8 * v, 8);
			}
			if (col < PEBS_COL_COUNT)
				cols[col][j] = v;
		}
		free(raw);
	}
	return n;
}
