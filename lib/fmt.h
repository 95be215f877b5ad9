/*
 * fmt.h - internal constants and helpers of the .pebs format v1
 * (formats/pebs-format.md is normative; keep the two in step).
 */
#ifndef PEBS_FMT_H
#define PEBS_FMT_H

#include <stdint.h>
#include <string.h>

#include "pebs.h"

/* Segment magic: 8 bytes, PNG-style, catches text-mode transfers. */
#define FMT_MAGIC "\x89PEBS\r\n\x1a"
#define FMT_MAGIC_LEN 8

/* Chunk tags, little-endian u32 of four ASCII bytes. */
#define FMT_TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | \
			     (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define TAG_HEAD FMT_TAG('H', 'E', 'A', 'D')
#define TAG_BLCK FMT_TAG('B', 'L', 'C', 'K')
#define TAG_LOST FMT_TAG('L', 'O', 'S', 'T')
#define TAG_END  FMT_TAG('E', 'N', 'D', ' ')
#define TAG_INDX FMT_TAG('I', 'N', 'D', 'X')
#define TAG_TAIL FMT_TAG('T', 'A', 'I', 'L')

/* Chunk flags. */
#define CHUNK_CRITICAL 0x1u	/* a reader that does not know the tag fails */

/*
 * zstd level 1 by default: the column transforms do the modelling, so
 * higher levels gain under 1% in size at twice the encoding time.
 */
#define FMT_DEFAULT_LEVEL 1

#define CHUNK_HDR 16		/* u32 tag, u32 flags, u64 len */
#define CHUNK_TRL 8		/* u64 checksum */
#define CHUNK_MAX_LEN (256ull << 20)	/* sanity bound on payloads */

/*
 * The encoding byte of a directory entry: the encoding in bits 4:0, the
 * packing of the top byte plane in bits 6:5 (format 1.2), bit 7 = payload
 * stored without zstd.
 */
enum {
	ENC_CONST = 0,		/* every value == min; no data */
	ENC_FOR = 1,		/* v - min, w bytes, byte planes */
	ENC_DELTA = 2,		/* zigzag(v[i] - v[i-1]), v[-1] = base */
	ENC_DICT = 3,		/* k u64 values, then w-byte indices, planes */
	ENC_KEYED = 4,		/* zigzag(v[i] - last[slot(key[i])]), varint */
};
#define KEYED_SLOTS 16384u
/*
 * Slot of a key in the KEYED table (both sides must agree).  A key is one
 * column's value, or two columns' values combined as k1 + k2 * C2.
 */
#define FMT_KEY_C2 0xD6E8FEB86659FD93ull
static inline uint32_t fmt_key_slot(uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 50);
}
#define ENC_STORED 0x80
#define ENC_CODE(e) ((unsigned)(e) & 0x1fu)
/*
 * Top plane packing (minor version 2): 0 = one byte per value, 1-3 = the
 * top plane's values fit in 8 >> tp bits (4, 2, 1) and are packed that
 * many to a byte, first value in the lowest bits.  Small values in a
 * byte plane compress no better than packed ones but cost zstd more (its
 * matches in such data are short): packed, the same planes decode 1.6-16x
 * faster and compress smaller (bench/RESULTS.md, fourth session).
 */
#define ENC_TOP(e) (((unsigned)(e) >> 5) & 3u)
#define ENC_TOP_SHIFT 5
/* Bytes of a top plane of @n values packed by @tp. */
static inline uint64_t fmt_top_len(uint64_t n, unsigned tp)
{
	unsigned per = 1u << tp;
	return (n + per - 1) / per;
}

#define BLK_FIXED 16		/* u32 n, ncols, nnames, bflags */
#define BLK_COLDIR 48		/* one directory entry */
/*
 * bflags bit 0 (minor version 1): the payload ends with a checksum per
 * column and one of the part before the column data, so readers of a few
 * columns hash only those.
 */
#define BLK_F_COLSUMS 0x1u
#define FMT_MINOR 2		/* minor version written in HEAD */
/*
 * Required feature bit 0 (minor version 2): blocks may pack their top
 * planes (ENC_TOP).  Older readers would take such a column for damage,
 * so the header makes them refuse the file instead.
 */
#define FMT_REQ_TOP 0x1ull
#define FMT_REQ_KNOWN FMT_REQ_TOP

/* Seed of a column's checksum in the table: binds it to id and length. */
static inline uint64_t fmt_colsum_seed(unsigned col, uint64_t clen)
{
	return (uint64_t)col << 32 ^ clen;
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Checksum of a chunk: XXH3-64 of the payload seeded by tag and length. */
uint64_t fmt_checksum(uint32_t tag, const void *payload, uint64_t len);
/*
 * Whether the checksum that follows BLCK payload @p of @plen bytes (in the
 * chunk trailer) matches the whole payload: what a block without column
 * checksums is verified by, and what a copy of a block as it is needs.
 */
static inline int fmt_block_sum_ok(const uint8_t *p, uint64_t plen)
{
	return fmt_checksum(TAG_BLCK, p, plen) == get64(p + plen);
}

/* XXH3-64 of @len bytes with @seed (the column checksum table). */
uint64_t fmt_hash(const void *p, uint64_t len, uint64_t seed);

/* Column kernels (codec.c), chosen at run time. */
struct fmt_kernels {
	const char *name;
	/*
	 * out[i] = add + u[i], u[i] = sum_k planes[k*n + i] << 8k, k < w
	 * (1 to 8); returns whether some u[i] > lim (FOR: a value above the
	 * directory's maximum; DICT: an index out of range).
	 */
	int (*unpack)(const uint8_t *planes, size_t n, unsigned w,
		      uint64_t add, uint64_t lim, uint64_t *out);
	/*
	 * in place: v = prev + unzigzag(v), prev starting at base; returns
	 * 1 when the values are known to be non-decreasing without wrapping
	 * (no negative delta, and base + n times the largest stays below
	 * 2^64: a time column), so that the first and last value bound
	 * them all, else 0 (nothing known)
	 */
	int (*undelta)(uint64_t *v, size_t n, uint64_t base);
	/* out[i] = dict[idx[i]] ; idx already < k (checked by caller) */
	void (*gather)(const uint64_t *dict, const uint64_t *idx, size_t n,
		       uint64_t *out);
	/* out32[i] = (uint32_t)in[i]; returns outside(in, n, lo, span) */
	int (*narrow)(const uint64_t *in, size_t n, uint64_t lo, uint64_t span,
		      uint32_t *out);
	/*
	 * Encoder statistics of n >= 1 values: st[0] = min, st[1] = max,
	 * st[2] = OR of the zigzagged neighbour differences (its highest bit
	 * is that of their maximum, all the DELTA width needs).
	 */
	void (*stat)(const uint64_t *v, size_t n, uint64_t *st);
	/*
	 * unpack() then narrow() in one pass, for u32 columns of w <= 4
	 * (1 to 4; planes at and above byte 4 would vanish modulo 2^32, so
	 * only the first four are read); returns the largest u[i].
	 */
	uint32_t (*unpack32)(const uint8_t *planes, size_t n, unsigned w,
			     uint32_t add, uint32_t *out);
	/*
	 * DICT indices of width @w (1 or 2) straight from their planes:
	 * out[i] = dict[index i].  @dict must have 65,536 readable entries
	 * (a bad index reads a stale one); returns the largest index, which
	 * the caller checks against the dictionary size.
	 */
	uint32_t (*dgather)(const uint64_t *dict, const uint8_t *planes,
			    size_t n, unsigned w, uint64_t *out);
	/*
	 * The encoder's inverse of unpack(): planes[k*n + i] = byte k of
	 * v[i] - sub, k < w.
	 */
	void (*pack)(const uint64_t *v, size_t n, unsigned w, uint64_t sub,
		     uint8_t *planes);
	/* stat() of u32 values, as if widened to u64 first. */
	void (*stat32)(const uint32_t *v, size_t n, uint64_t *st);
	/*
	 * A top plane packed by ENC_TOP @tp (1-3): @n bytes at @plane, each
	 * below 1 << (8 >> tp), into fmt_top_len(n, tp) bytes at @out
	 * (which must not overlap), and back.
	 */
	void (*top_pack)(const uint8_t *plane, size_t n, unsigned tp,
			 uint8_t *out);
	void (*top_unpack)(const uint8_t *packed, size_t n, unsigned tp,
			   uint8_t *plane);
	/*
	 * Whether some v[i] lies outside [lo, lo + span] (v[i] - lo > span
	 * modulo 2^64).  Compares ORed together, not a running maximum: the
	 * compare and select of a maximum would chain from value to value.
	 * A pass of its own, not part of the serial loops (DELTA's prefix
	 * sum, KEYED's table), which it would slow as much.
	 */
	int (*outside)(const uint64_t *v, size_t n, uint64_t lo, uint64_t span);
};
extern const struct fmt_kernels *fmt_k;

/* Reusable encoder/decoder state (zstd contexts and scratch buffers). */
struct fmt_enc;
struct fmt_dec;
struct fmt_enc *fmt_enc_new(void);
void fmt_enc_free(struct fmt_enc *e);
struct fmt_dec *fmt_dec_new(void);
void fmt_dec_free(struct fmt_dec *d);

/* pebs_block_encode() with reusable state. */
int fmt_block_encode(struct fmt_enc *e, const struct pebs_batch *b, int level,
		     void **out, size_t *len);
/*
 * The same, into a buffer owned by @e (valid until its next use): the
 * writer's path, which copies the block out at once.
 */
int fmt_block_encode_buf(struct fmt_enc *e, const struct pebs_batch *b,
			 int level, const void **out, size_t *len);
/*
 * pebs_block_decode() with reusable state; @verify = check the checksums
 * (of the head, and of each column decoded); 2: also of the columns not
 * decoded (an integrity check that costs a hash, no decompression).
 */
int fmt_block_decode(struct fmt_dec *d, const void *chunk, size_t len,
		     uint64_t cols, int verify, struct pebs_batch *out,
		     char *err, size_t errlen);

/*
 * Verifies what a reader that uses only a block's directory relies on:
 * the head checksum of a block with a column checksum table, else the
 * chunk checksum.  @chunk is a whole BLCK chunk of @len bytes whose
 * length field matches.  Returns 0 or -PEBS_E_CHECKSUM (or
 * -PEBS_E_TRUNCATED when too short).
 */
int fmt_block_verify_head(const void *chunk, size_t len);

/* A byte range of a chunk: [off, off + len). */
struct fmt_range {
	size_t off, len;
};

/*
 * The byte ranges of BLCK chunk @chunk (@len bytes) that verifying and
 * decoding @cols reads (0: all; FMT_COLS_HEAD: none, which is what
 * fmt_block_verify_head reads): the chunk header and block head (fixed
 * part, names, directory), the data of each column asked for and of the
 * key columns of KEYED ones among them, and the column checksum table
 * with the chunk trailer; in increasing order, adjacent ones merged.
 * Only the first @head bytes of @chunk are read (the rest may be
 * missing): the caller fetches the ranges, then decodes.  Returns the
 * number of ranges (at most FMT_RANGES_MAX), 0 when the whole chunk is
 * needed (no column checksum table: the chunk checksum covers
 * everything), or a negative error when the head is damaged or longer
 * than @head (fetch everything, and let decoding report it).
 */
#define FMT_RANGES_MAX (PEBS_COL_COUNT + 2)
#define FMT_COLS_HEAD (1ull << 63)	/* no column has this bit */
int fmt_block_ranges(const void *chunk, size_t len, size_t head,
		     uint64_t cols, struct fmt_range *out);

/*
 * One HEAD metadata entry (format section 4): @klen bytes of key and
 * @vlen of value, not NUL-terminated, set in @m as pebs_meta_set() does
 * (a repeated key keeps its first place and takes the last value).
 * Returns 0, -PEBS_E_CORRUPT when either holds a NUL byte (the HEAD is
 * malformed), or -PEBS_E_NOMEM.
 */
int fmt_meta_set(struct pebs_meta *m, const void *key, size_t klen,
		 const void *val, size_t vlen);

/* Writes a chunk header for @tag/@len into @p (16 bytes). */
static inline void fmt_chunk_hdr(uint8_t *p, uint32_t tag, uint32_t flags,
				 uint64_t len)
{
	put32(p, tag);
	put32(p + 4, flags);
	put64(p + 8, len);
}

#endif
