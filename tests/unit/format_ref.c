/*
 * Reference decoder for BLCK chunks: byte by byte, no SIMD, no cleverness,
 * straight from the spec, so the fast decoder has something to agree with.
 * It verifies the column checksum table of minor version 1 (every column,
 * whatever is decoded) but not the chunk checksum, reads the packed top
 * planes of minor version 2, and requires every value (and every DICT
 * dictionary value) to lie within its directory's minimum and maximum.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>
#include "format_ref.h"

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The KEYED slot of a key (spec: "KEYED"). */
static uint32_t slot(uint64_t k)
{
	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 50);
}

/* Decodes one column described by directory entry @d from @src. */
static int ref_column(const uint8_t *src, const uint8_t *d, uint32_t n,
		      uint64_t **cols)
{
	unsigned col = (unsigned)le(d, 2), enc = d[2], w = d[3];
	uint64_t k = le(d + 4, 4), min = le(d + 8, 8), max = le(d + 16, 8);
	uint64_t base = le(d + 24, 8), clen = le(d + 32, 8);
	uint64_t rlen = le(d + 40, 8);
	if (col >= PEBS_COL_COUNT)
		return 0;
	/* CONST: every value is min; no data, no frame */
	if ((enc & 0x1f) == 0) {
		for (uint32_t j = 0; j < n; j++)
			cols[col][j] = min;
		return clen == 0 && rlen == 0 ? 0 : -1;
	}
	uint8_t *raw = malloc(rlen + 1);
	if (enc & 0x80) {
		memcpy(raw, src, rlen);
	} else if (ZSTD_findFrameCompressedSize(src, clen) != clen ||
		   ZSTD_decompress(raw, rlen, src, clen) != rlen) {
		/* exactly one zstd frame, of exactly rlen bytes */
		free(raw);
		return -1;
	}
	/* Bits 6:5: the top plane (plane w - 1) packed to 8 >> tp bits. */
	unsigned tp = (enc >> 5) & 3, tbits = 8u >> tp;
	enc &= 0x1f;
	if (enc == 4) {
		static uint64_t last[16384];
		const uint8_t *vd = raw + n;
		unsigned k1 = k & 0xff, k2 = (unsigned)(k >> 8);
		/* a key column this decoder does not know: cannot decode */
		if (k1 >= PEBS_COL_COUNT || k2 > PEBS_COL_COUNT) {
			free(raw);
			return -1;
		}
		for (uint32_t s = 0; s < 16384; s++)
			last[s] = base;
		for (uint32_t j = 0; j < n; j++) {
			uint64_t z = le(vd, raw[j]);
			vd += raw[j];
			uint64_t key = cols[k1][j];
			if (k2)
				key += cols[k2 - 1][j] * 0xD6E8FEB86659FD93ull;
			uint32_t s = slot(key);
			last[s] += (z >> 1) ^ (0 - (z & 1));
			cols[col][j] = last[s];
			/* every value within the directory's range */
			if (last[s] < min || last[s] > max) {
				free(raw);
				return -1;
			}
		}
		free(raw);
		return 0;
	}
	/* DICT: every dictionary value within the directory's range */
	for (uint64_t j = 0; enc == 3 && j < k; j++) {
		if (le(raw + 8 * j, 8) < min || le(raw + 8 * j, 8) > max) {
			free(raw);
			return -1;
		}
	}
	for (uint32_t j = 0; j < n; j++) {
		uint64_t v = 0;
		const uint8_t *planes = raw + (enc == 3 ? 8 * k : 0);
		for (unsigned b = 0; b + 1 < w; b++)
			v |= (uint64_t)planes[b * (size_t)n + j] << (8 * b);
		if (w) {
			const uint8_t *top = planes + (w - 1) * (size_t)n;
			uint64_t bit = (uint64_t)j * tbits;
			unsigned t = top[bit / 8] >> (bit % 8) &
				     ((1u << tbits) - 1);
			v |= (uint64_t)t << (8 * (w - 1));
		}
		if (enc == 1) {
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
		if (v < min || v > max) {
			free(raw);
			return -1;
		}
		cols[col][j] = v;
	}
	free(raw);
	return 0;
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
	/*
	 * bflags bit 0 (minor 1): ncols column checksums and the checksum of
	 * the first `data` bytes end the payload, right after the data.
	 */
	if (le(p + 12, 4) & 1) {
		size_t at = data;
		if (le(p + plen - 8, 8) !=
		    XXH3_64bits_withSeed(p, data, 0x4b434c42ull << 32 ^ data))
			return -1;
		for (uint32_t i = 0; i < ncols; i++) {
			const uint8_t *d = p + off + 48 * i;
			uint64_t clen = le(d + 32, 8);
			uint64_t seed = le(d, 2) << 32 ^ clen;
			size_t sum_at = plen - 8 - 8 * (size_t)(ncols - i);
			if (at + clen > plen || le(p + sum_at, 8) !=
			    XXH3_64bits_withSeed(p + at, clen, seed))
				return -1;
			at += clen;
		}
		if (at + 8 * (size_t)ncols + 8 != plen)
			return -1;
	}
	/* Keyed columns need their key columns: decode them in a 2nd pass. */
	for (int pass = 0; pass < 2; pass++) {
		size_t at = data;
		for (uint32_t i = 0; i < ncols; i++) {
			const uint8_t *d = p + off + 48 * i;
			uint64_t clen = le(d + 32, 8);
			int keyed = (d[2] & 0x7f) == 4;
			if (keyed == pass &&
			    ref_column(p + at, d, n, cols) < 0)
				return -1;
			at += clen;
		}
	}
	return n;
}
