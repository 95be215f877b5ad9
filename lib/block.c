/*
 * block.c - one block: a self-contained columnar chunk of up to 64K samples.
 * Layout in formats/pebs-format.md section "BLCK".
 */
#if defined(__GNUC__) && !defined(__clang__)
/* Min/max, zigzag and plane loops vectorize only past -O2's cost model. */
#pragma GCC optimize("O3")
#endif
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "bigmem.h"
#include "errbuf.h"
#include "fmt.h"
#include "pebs_format.h"

#define DICT_MAX 4096u		/* most distinct values a DICT column has */
#define HASH_SIZE 8192u		/* > 2 * DICT_MAX, power of two */
/*
 * Incompressible-column test: a sample of 1/SAMPLE_DIV of the values of
 * columns of at least SAMPLE_MIN values; stored as is when zstd keeps
 * SAMPLE_PCT percent or more of the sample.
 */
/*
 * Room for a packed column: KEYED data takes up to 9 bytes a value (its
 * length byte and 8 data bytes), DICT 8 bytes a value and the dictionary;
 * keyed_pack() stores 8 bytes at a time past the end.
 */
#define RAW_CAP(n) (9 * (size_t)(n) + 8 * DICT_MAX + 16)
#define SAMPLE_DIV 16u
#define SAMPLE_MIN 16384u
#define SAMPLE_PCT 97u
#define SAMP_LEN (2 * 8 * (PEBS_BATCH_MAX / SAMPLE_DIV) + 1024)

/* Growable output buffer. */
struct obuf {
	uint8_t *p;
	size_t len, cap;
};

struct fmt_enc {
	ZSTD_CCtx *cctx;
	int cctx_level;		/* level the context is set for */
	int cctx_set;		/* cctx_level is valid */
	const uint64_t *v;	/* n values of the column being encoded */
	/* scratch for blocks of up to scratch_n samples (enc_scratch()) */
	size_t scratch_n;
	uint64_t *vbuf;		/* v widened from a u32 column; the start of
				 * the one mapping */
	uint64_t *tmp;		/* n scratch values */
	uint64_t *key;		/* n key values for KEYED */
	uint8_t *raw;		/* packed column, RAW_CAP(n) */
	/* tables, in the same mapping */
	uint64_t *last;		/* KEYED_SLOTS */
	uint64_t *hkey;		/* HASH_SIZE */
	uint16_t *hval;		/* HASH_SIZE: insertion index + 1; 0 empty */
	uint64_t *dict;		/* DICT_MAX */
	uint16_t *rank;		/* DICT_MAX: insertion index -> sorted index */
	/* A sample of a column's planes and room for its compression. */
	uint8_t *samp;		/* SAMP_LEN */
	/* Kept from block to block: fresh pages cost more than the copies. */
	struct obuf data, trial, out;
};

struct fmt_dec {
	ZSTD_DCtx *dctx;
	uint8_t *raw;
	size_t raw_cap;
	/* scratch for blocks of up to scratch_n samples (dec_scratch()) */
	size_t scratch_n;
	uint64_t *tmp;		/* values; the start of the one mapping */
	uint64_t *idx;		/* dictionary indices */
	uint64_t *key;		/* key values (KEYED) */
	uint64_t *key2;		/* second key column's values (KEYED) */
	/* in the same mapping: */
	uint64_t *dict;		/* 65536 */
	uint64_t *last;		/* KEYED_SLOTS + 1; one more: unkey's sink
				 * for unchanged values */
	uint8_t *pad;		/* padded copy of variable-length data */
	size_t pad_cap;
	uint8_t *top;		/* scratch_n / 2 bytes: a packed top plane */
};

struct fmt_enc *fmt_enc_new(void)
{
	struct fmt_enc *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->cctx = ZSTD_createCCtx();
	if (!e->cctx) {
		fmt_enc_free(e);
		return NULL;
	}
	return e;
}

/*
 * Scratch arrays for blocks of @n samples, in one mapping, grown when a
 * block needs more: as large as the blocks (a power of two), on huge
 * pages past 512 KiB (lib_big_realloc).  At PEBS_BATCH_MAX each on small
 * pages, their first use was 400 page faults, and a small block would
 * clear 2 MiB pages for a few kilobytes.
 */
static int enc_scratch(struct fmt_enc *e, size_t n)
{
	if (e->vbuf && n <= e->scratch_n)
		return 0;
	size_t cap = lib_big_pow2(n, 1024);
	const size_t a = cap * sizeof(uint64_t);
	const size_t raw = (RAW_CAP(cap) + 63) & ~(size_t)63;
	const size_t tabs = 8 * KEYED_SLOTS + 10 * HASH_SIZE + 10 * DICT_MAX +
			    SAMP_LEN;
	uint8_t *m = lib_big_realloc(NULL, 3 * a + raw + tabs);
	if (!m)
		return -PEBS_E_NOMEM;
	lib_big_free(e->vbuf);
	e->vbuf = (uint64_t *)(void *)m;
	e->tmp = (uint64_t *)(void *)(m + a);
	e->key = (uint64_t *)(void *)(m + 2 * a);
	e->raw = m + 3 * a;
	m += 3 * a + raw;
	e->last = (uint64_t *)(void *)m;
	e->hkey = e->last + KEYED_SLOTS;
	e->dict = e->hkey + HASH_SIZE;
	e->hval = (uint16_t *)(void *)(e->dict + DICT_MAX);
	e->rank = e->hval + HASH_SIZE;
	e->samp = (uint8_t *)(e->rank + DICT_MAX);
	e->scratch_n = cap;
	return 0;
}

void fmt_enc_free(struct fmt_enc *e)
{
	if (!e)
		return;
	ZSTD_freeCCtx(e->cctx);
	lib_big_free(e->vbuf);	/* all the scratch arrays */
	free(e->data.p);
	free(e->trial.p);
	free(e->out.p);
	free(e);
}

struct fmt_dec *fmt_dec_new(void)
{
	struct fmt_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->dctx = ZSTD_createDCtx();
	if (!d->dctx) {
		fmt_dec_free(d);
		return NULL;
	}
	return d;
}

/*
 * Room for @need bytes of column data in d->raw, and 8 spare zero bytes
 * past them: KEYED data is read 8 at a time.  0 or -PEBS_E_NOMEM.
 */
static int raw_room(struct fmt_dec *d, size_t need)
{
	if (d->raw_cap >= need)
		return 0;
	lib_big_free(d->raw);
	d->raw = lib_big_realloc(NULL, need + 8);
	d->raw_cap = d->raw ? need : 0;
	return d->raw ? 0 : -PEBS_E_NOMEM;
}

/*
 * Scratch arrays for blocks of @n samples: one mapping for all of them,
 * grown when a block needs more.  As large as the blocks (a power of
 * two), not PEBS_BATCH_MAX: they go on huge pages past 512 KiB
 * (lib_big_realloc; on small pages their first use was 500 page faults),
 * and a small input would clear 2 MiB pages for a few kilobytes.
 */
static int dec_scratch(struct fmt_dec *d, size_t n)
{
	if (d->tmp && n <= d->scratch_n)
		return 0;
	size_t cap = lib_big_pow2(n, 1024);
	const size_t a = cap * sizeof(uint64_t);
	uint8_t *m = lib_big_realloc(NULL, 4 * a + cap / 2 +
				     8 * (65536 + KEYED_SLOTS + 1));
	if (!m)
		return -PEBS_E_NOMEM;
	lib_big_free(d->tmp);
	d->tmp = (uint64_t *)(void *)m;
	d->idx = (uint64_t *)(void *)(m + a);
	d->key = (uint64_t *)(void *)(m + 2 * a);
	d->key2 = (uint64_t *)(void *)(m + 3 * a);
	d->dict = (uint64_t *)(void *)(m + 4 * a);
	d->last = d->dict + 65536;
	d->top = (uint8_t *)(d->last + KEYED_SLOTS + 1);
	d->scratch_n = cap;
	/* room for any column's data (KEYED: 9 bytes a value) at once, not
	 * grown (and faulted in again) column by column */
	return raw_room(d, 9 * cap + 64);
}

void fmt_dec_free(struct fmt_dec *d)
{
	if (!d)
		return;
	ZSTD_freeDCtx(d->dctx);
	lib_big_free(d->raw);
	lib_big_free(d->tmp);	/* all the scratch arrays */
	free(d->pad);
	free(d);
}

/* ------------------------------------------------------------- encoding */

static unsigned width_of(uint64_t v)
{
	unsigned w = 1;
	while (w < 8 && (v >> (8 * w)))
		w++;
	return w;
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (0 - (d >> 63));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * Collects the distinct values of e->v into e->dict and their indices into
 * e->tmp, most frequent value first: small indices then dominate, so the
 * high byte plane of the indices is nearly constant and compresses away.
 * Returns the count, or 0 when there are more than @limit (<= DICT_MAX):
 * the caller passes the most values that would still make the indices
 * narrower than the other encodings, so wide columns stop early.
 */
static size_t build_dict(struct fmt_enc *e, size_t n, size_t limit)
{
	size_t k = 0;
	uint32_t cnt[DICT_MAX];
	memset(e->hval, 0, HASH_SIZE * sizeof(*e->hval));
	for (size_t i = 0; i < n; i++) {
		uint64_t x = e->v[i];
		uint32_t h = (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> 51);
		while (e->hval[h] && e->hkey[h] != x)
			h = (h + 1) & (HASH_SIZE - 1);
		if (!e->hval[h]) {
			if (k == limit)
				return 0;
			e->hkey[h] = x;
			e->hval[h] = (uint16_t)(++k);
			cnt[k - 1] = 0;
		}
		cnt[e->hval[h] - 1u]++;
		e->tmp[i] = e->hval[h] - 1u;
	}
	/* Order by count (desc), then first appearance. */
	uint64_t key[DICT_MAX];
	uint64_t val[DICT_MAX];
	for (size_t j = 0; j < HASH_SIZE; j++)
		if (e->hval[j])
			val[e->hval[j] - 1u] = e->hkey[j];
	for (size_t j = 0; j < k; j++)
		key[j] = (uint64_t)(UINT32_MAX - cnt[j]) << 32 | j;
	qsort(key, k, sizeof(uint64_t), cmp_u64);
	for (size_t j = 0; j < k; j++) {
		uint32_t ins = (uint32_t)key[j];
		e->dict[j] = val[ins];
		e->rank[ins] = (uint16_t)j;
	}
	for (size_t i = 0; i < n; i++)
		e->tmp[i] = e->rank[e->tmp[i]];
	return k;
}

struct coldir {
	uint16_t col;
	uint8_t enc, width;
	uint32_t dict_count;
	uint64_t min, max, base, comp_len, raw_len;
};

static int obuf_reserve(struct obuf *o, size_t more)
{
	if (o->len + more <= o->cap)
		return 0;
	size_t nc = o->cap ? o->cap : 65536;
	while (nc < o->len + more)
		nc *= 2;
	uint8_t *np = realloc(o->p, nc);
	if (!np)
		return -PEBS_E_NOMEM;
	o->p = np;
	o->cap = nc;
	return 0;
}

/*
 * Sets e->cctx to @level (a no-op when it is already), with the fast
 * levels' (1-2) shortest match raised to 7 bytes: byte planes hold few
 * long repeats, so the shorter chance matches buy nothing (pebs-gen output:
 * the same size within 0.5% either way, as fast to decode) and cost the
 * encoder: on a capture's repetitive blocks zstd then does a third of the
 * work (bench/RESULTS-capture.md).  0 or a zstd error code.
 */
static size_t zlevel(struct fmt_enc *e, int level)
{
	if (e->cctx_set && e->cctx_level == level)
		return 0;
	ZSTD_CCtx_reset(e->cctx, ZSTD_reset_session_and_parameters);
	size_t r = ZSTD_CCtx_setParameter(e->cctx, ZSTD_c_compressionLevel,
					  level);
	if (!ZSTD_isError(r) && level <= 2)
		r = ZSTD_CCtx_setParameter(e->cctx, ZSTD_c_minMatch, 7);
	if (ZSTD_isError(r))
		return r;
	e->cctx_level = level;
	e->cctx_set = 1;
	return 0;
}

/* ZSTD_compressCCtx() at @level (see zlevel()): one frame. */
static size_t zcompress(struct fmt_enc *e, void *dst, size_t cap,
			const void *src, size_t len, int level)
{
	size_t r = zlevel(e, level);
	return ZSTD_isError(r) ? r : ZSTD_compress2(e->cctx, dst, cap, src,
						     len);
}

/*
 * One zstd frame of @len bytes whose blocks end at the @ncut offsets
 * @cut (ascending, inside the data): the plane boundaries of a column.
 * Each plane then gets its own literal (Huffman) table instead of sharing
 * one with its neighbours, which have other byte distributions: on
 * pebs-gen output 3.7% smaller and 7% faster to decompress than a frame
 * cut every 128 KiB (bench/RESULTS.md, eighth session).  Readers see an
 * ordinary frame.  Returns the size, or a zstd error code (also when @cap
 * is too small).
 */
static size_t zcompress_cut(struct fmt_enc *e, void *dst, size_t cap,
			    const void *src, size_t len, int level,
			    const size_t *cut, unsigned ncut)
{
	size_t r = zlevel(e, level);
	if (ZSTD_isError(r))
		return r;
	ZSTD_CCtx_reset(e->cctx, ZSTD_reset_session_only);
	r = ZSTD_CCtx_setPledgedSrcSize(e->cctx, len);
	if (ZSTD_isError(r))
		return r;
	ZSTD_outBuffer out = { dst, cap, 0 };
	size_t at = 0;
	for (unsigned i = 0; i <= ncut; i++) {
		size_t end = i < ncut ? cut[i] : len;
		ZSTD_inBuffer in = { (const uint8_t *)src + at, end - at, 0 };
		ZSTD_EndDirective op = i < ncut ? ZSTD_e_flush : ZSTD_e_end;
		do {
			r = ZSTD_compressStream2(e->cctx, &out, &in, op);
			if (ZSTD_isError(r))
				return r;
		} while (r && out.pos < out.size);
		/* output full with more to write: a zstd error code (-1 is
		 * ZSTD_error_GENERIC) that callers take as incompressible */
		if (r)
			return (size_t)-1;
		at = end;
	}
	return out.pos;
}

/* Planes smaller than this share zstd blocks: a literal table costs up to
 * a few hundred bytes, more than a small plane gains from its own. */
#define CUT_MIN 4096u

/*
 * The plane boundaries of @cd's packed data of @n values into @cut (at
 * most 8): after a DICT's table, between byte planes, after KEYED's length
 * bytes.  Returns how many.
 */
static unsigned plane_cuts(const struct coldir *cd, size_t n, size_t cut[8])
{
	unsigned enc = ENC_CODE(cd->enc), k = 0;
	size_t at = 0;
	if (n < CUT_MIN)
		return 0;
	if (enc == ENC_KEYED) {
		cut[k++] = n;
	} else if (enc == ENC_FOR || enc == ENC_DELTA || enc == ENC_DICT) {
		/* a small table shares the first plane's block */
		if (enc == ENC_DICT)
			at = 8 * (size_t)cd->dict_count;
		if (at >= CUT_MIN)
			cut[k++] = at;
		for (unsigned j = 1; j < cd->width; j++)
			cut[k++] = at += n;
	}
	while (k && cut[k - 1] >= cd->raw_len)
		k--;
	return k;
}

/*
 * Whether byte planes of @w planes of @n values in e->raw look
 * incompressible: the first 1/16 of each plane (the same values in every
 * plane) is compressed as a sample, at 1/16 of the cost of compressing the
 * column.  Noise such as scratch registers or random low address bytes
 * then skips zstd, which spends as long failing on it as succeeding.
 */
static int planes_incompressible(struct fmt_enc *e, int level, size_t n,
				 unsigned w)
{
	size_t ts = n / SAMPLE_DIV, len = ts * w;
	if (n < SAMPLE_MIN)
		return 0;
	for (unsigned k = 0; k < w; k++)
		memcpy(e->samp + k * ts, e->raw + (size_t)k * n, ts);
	size_t c = zcompress(e, e->samp + len, SAMP_LEN - len,
			     e->samp, len, level);
	return ZSTD_isError(c) || c * 100 >= len * SAMPLE_PCT;
}

/* Stores e->raw (cd->raw_len bytes) onto @data without compression. */
static int put_stored(struct fmt_enc *e, struct coldir *cd,
		      struct obuf *data)
{
	int r = obuf_reserve(data, cd->raw_len);
	if (r)
		return r;
	memcpy(data->p + data->len, e->raw, cd->raw_len);
	cd->enc |= ENC_STORED;
	cd->comp_len = cd->raw_len;
	data->len += cd->raw_len;
	return 0;
}

/*
 * Compresses e->raw (cd->raw_len bytes, the packed data of @n values)
 * onto @data, or stores it.
 */
static int put_data(struct fmt_enc *e, int level, size_t n,
		    struct coldir *cd, struct obuf *data)
{
	size_t raw_len = cd->raw_len, cut[8];
	unsigned ncut = plane_cuts(cd, n, cut);
	/* each cut may end a block early: a block header more */
	size_t bound = ZSTD_compressBound(raw_len) + 3 * (size_t)ncut;
	int r = obuf_reserve(data, bound > raw_len ? bound : raw_len);
	if (r)
		return r;
	size_t c = ncut ? zcompress_cut(e, data->p + data->len, bound, e->raw,
					raw_len, level, cut, ncut) :
			  zcompress(e, data->p + data->len, bound, e->raw,
				    raw_len, level);
	if (ZSTD_isError(c) || c >= raw_len) {
		memcpy(data->p + data->len, e->raw, raw_len);
		cd->enc |= ENC_STORED;
		c = raw_len;
	}
	cd->comp_len = c;
	data->len += c;
	return 0;
}

/* What one pass over a column tells the encoder. */
struct colstat {
	uint64_t min, max;
	uint64_t dmax;		/* OR of zigzagged neighbour differences */
};

/* One fused pass (a vector kernel): min, max and the DELTA width. */
static void col_stat(const uint64_t *v, size_t n, struct colstat *st)
{
	uint64_t r[3];
	fmt_k->stat(v, n, r);
	st->min = r[0];
	st->max = r[1];
	st->dmax = r[2];
}

/*
 * Packing of a top byte plane whose values are all at most @top: the
 * tp of ENC_TOP (0 when they need the whole byte).
 */
static unsigned top_packing(uint64_t top)
{
	return top < 2 ? 3 : top < 4 ? 2 : top < 16 ? 1 : 0;
}

/*
 * Encodes column values e->v[0..n) (statistics @st) into the output as
 * data, filling @cd.  Chooses the narrowest of FOR, DELTA and DICT (ties to
 * FOR, the fastest to decode).
 */
static int encode_column(struct fmt_enc *e, size_t n, int level,
			 const struct colstat *st, struct coldir *cd,
			 struct obuf *data)
{
	uint64_t mn = st->min, mx = st->max, prev;
	cd->min = mn;
	cd->max = mx;
	cd->base = 0;
	cd->dict_count = 0;
	if (mn == mx) {
		cd->enc = ENC_CONST;
		cd->width = 0;
		cd->comp_len = cd->raw_len = 0;
		return 0;
	}
	unsigned wfor = width_of(mx - mn);
	unsigned wdelta = width_of(st->dmax);
	unsigned best = wfor < wdelta ? wfor : wdelta;
	size_t raw_len;
	size_t k = 0;
	/* Indices narrower than @best: at most 256^(best-1) values. */
	size_t limit = best >= 3 ? DICT_MAX : 256;
	if (best >= 2 && (k = build_dict(e, n, limit)) != 0 &&
	    width_of(k - 1) < best) {
		unsigned w = width_of(k - 1);
		cd->enc = ENC_DICT;
		cd->width = (uint8_t)w;
		cd->dict_count = (uint32_t)k;
		for (size_t j = 0; j < k; j++)
			put64(e->raw + 8 * j, e->dict[j]);
		fmt_k->pack(e->tmp, n, w, 0, e->raw + 8 * k);
		raw_len = 8 * k + w * n;
	} else if (wdelta < wfor) {
		cd->enc = ENC_DELTA;
		cd->width = (uint8_t)wdelta;
		cd->base = e->v[0];
		prev = e->v[0];
		for (size_t i = 0; i < n; i++) {
			e->tmp[i] = zigzag(e->v[i] - prev);
			prev = e->v[i];
		}
		fmt_k->pack(e->tmp, n, wdelta, 0, e->raw);
		raw_len = wdelta * n;
	} else {
		cd->enc = ENC_FOR;
		cd->width = (uint8_t)wfor;
		fmt_k->pack(e->v, n, wfor, mn, e->raw);
		raw_len = wfor * n;
	}
	int stored = cd->enc != ENC_DICT &&
		     planes_incompressible(e, level, n, cd->width);
	/* The top plane: values at most @top (a bound, not the maximum). */
	uint64_t bound = cd->enc == ENC_DICT ? k - 1 :
			 cd->enc == ENC_DELTA ? st->dmax : mx - mn;
	unsigned tp = top_packing(bound >> (8 * (cd->width - 1u)));
	if (tp) {
		/* Through e->tmp: its indices or deltas are packed already. */
		uint8_t *top = e->raw + raw_len - n;
		fmt_k->top_pack(top, n, tp, (uint8_t *)e->tmp);
		raw_len -= n - fmt_top_len(n, tp);
		memcpy(top, e->tmp, fmt_top_len(n, tp));
		cd->enc = (uint8_t)(cd->enc | tp << ENC_TOP_SHIFT);
	}
	cd->raw_len = raw_len;
	return stored ? put_stored(e, cd, data) :
			put_data(e, level, n, cd, data);
}

/*
 * Tries the KEYED encoding of e->v against key values e->key (column
 * @keycol) and keeps it instead of @cd's when its compressed size is
 * smaller.  The data of @cd is the last thing in @data.
 */
/*
 * KEYED deltas of e->v against e->key into e->raw, variable-length packed:
 * n length bytes (0-8, the delta's significant bytes), then those bytes of
 * every delta, little-endian, back to back (zero costs only its length
 * byte).  Returns the packed size.
 */
static size_t keyed_pack(struct fmt_enc *e, size_t n, uint64_t base)
{
	for (size_t s = 0; s < KEYED_SLOTS; s++)
		e->last[s] = base;
	/* All 8 bytes of a delta are stored; the next one overwrites. */
	uint8_t *out = e->raw, *d = out + n;
	for (size_t i = 0; i < n; i++) {
		uint32_t s = fmt_key_slot(e->key[i]);
		uint64_t z = zigzag(e->v[i] - e->last[s]);
		e->last[s] = e->v[i];
		unsigned l = z ? (unsigned)(71 - __builtin_clzll(z)) / 8 : 0;
		uint64_t le = htole64(z);
		out[i] = (uint8_t)l;
		memcpy(d, &le, 8);
		d += l;
	}
	return (size_t)(d - out);
}

static int try_keyed(struct fmt_enc *e, size_t n, int level, unsigned keycol,
		     struct coldir *cd, struct obuf *data)
{
	struct coldir kd = *cd;
	kd.enc = ENC_KEYED;
	kd.width = 0;
	kd.base = cd->min;
	kd.dict_count = keycol;
	kd.raw_len = keyed_pack(e, n, cd->min);
	size_t at = data->len - cd->comp_len;
	int r = put_data(e, level, n, &kd, data);
	if (r)
		return r;
	if (kd.comp_len < cd->comp_len) {
		memmove(data->p + at, data->p + data->len - kd.comp_len,
			kd.comp_len);
		data->len = at + kd.comp_len;
		*cd = kd;
	} else {
		data->len -= kd.comp_len;
	}
	return 0;
}

/* Encodes e->v[0..n) as KEYED with key columns @aux, unconditionally. */
static int encode_keyed(struct fmt_enc *e, size_t n, int level, unsigned aux,
			const struct colstat *st, struct coldir *cd,
			struct obuf *data)
{
	cd->min = st->min;
	cd->max = st->max;
	cd->enc = ENC_KEYED;
	cd->width = 0;
	cd->base = st->min;
	cd->dict_count = aux;
	cd->raw_len = keyed_pack(e, n, st->min);
	return put_data(e, level, n, cd, data);
}

/*
 * Columns that follow another closely in real data: the same instruction
 * touches nearby addresses and is satisfied at the same level; a thread
 * mostly stays on its CPU.  Value = key column + 1; 0 = none.
 */
static const uint8_t key_of[PEBS_COL_COUNT][2] = {
	[PEBS_COL_ADDR] = { PEBS_COL_IP + 1, PEBS_COL_TID + 1 },
	[PEBS_COL_PHYS_ADDR] = { PEBS_COL_IP + 1, PEBS_COL_TID + 1 },
	[PEBS_COL_DSRC] = { PEBS_COL_IP + 1, 0 },
	[PEBS_COL_CPU] = { PEBS_COL_TID + 1, 0 },
};

/* Column @c of @b as @n u64 values at @out (a u32 column widened). */
static void col_u64(const struct pebs_batch *b, unsigned c, size_t n,
		    uint64_t *out)
{
	if (b->c64[c]) {
		memcpy(out, b->c64[c], n * sizeof(*out));
		return;
	}
	const uint32_t *s = b->c32[c];
	for (size_t i = 0; i < n; i++)
		out[i] = s[i];
}

/* Values decided on before a column's whole KEYED encoding is chosen. */
#define KEY_TRIAL 8192u

/*
 * Fills e->key[0..n) with key choice @kc of column @c (0: first key column,
 * 1: both) and *@aux with its directory value.  Returns 0 when every key is
 * zero (the choice cannot help).
 */
static int load_keys(struct fmt_enc *e, const struct pebs_batch *b,
		     unsigned c, unsigned kc, size_t n, unsigned *aux)
{
	unsigned k1 = key_of[c][0] - 1u, k2 = kc ? key_of[c][1] : 0;
	uint64_t acc = 0;
	col_u64(b, k1, n, e->key);
	/* The second key column's type resolved once, not per value. */
	if (k2 && b->c64[k2 - 1]) {
		const uint64_t *s = b->c64[k2 - 1];
		for (size_t i = 0; i < n; i++)
			e->key[i] += s[i] * FMT_KEY_C2;
	} else if (k2) {
		const uint32_t *s = b->c32[k2 - 1];
		for (size_t i = 0; i < n; i++)
			e->key[i] += s[i] * FMT_KEY_C2;
	}
	for (size_t i = 0; i < n; i++)
		acc |= e->key[i];
	/* aux: key column, and second key column + 1. */
	*aux = k1 | k2 << 8;
	return acc != 0;
}

/*
 * Loads column @c of @b as u64 values into e->v (the batch's own array for
 * u64 columns, widened into e->vbuf for u32 ones unless constant, when no
 * encoding reads them) and its statistics into @st.  Returns 0 when the
 * column is zero throughout (then absent from the block).
 */
static int load_column(struct fmt_enc *e, const struct pebs_batch *b,
		       unsigned c, size_t n, struct colstat *st)
{
	uint64_t r[3];
	if (b->c64[c]) {
		e->v = b->c64[c];
		fmt_k->stat(e->v, n, r);
	} else {
		/* Statistics first: a constant column (a capture has
		 * several) needs no widened copy. */
		fmt_k->stat32(b->c32[c], n, r);
		if (r[0] != r[1])
			col_u64(b, c, n, e->vbuf);
		e->v = e->vbuf;
	}
	st->min = r[0];
	st->max = r[1];
	st->dmax = r[2];
	return st->max != 0;
}

/*
 * Encodes the columns of @b into e->data and their directory into @cd;
 * returns the number of directory entries or a negative error.
 */
static int encode_columns(struct fmt_enc *e, const struct pebs_batch *b,
			  int level, struct coldir *cd)
{
	size_t n = b->n;
	unsigned ncols = 0;
	int r;

	e->data.len = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		struct colstat st;
		if (!(b->dirty & (1ull << c)))
			continue;
		/* An all-zero column is simply absent: readers zero-fill. */
		if (!load_column(e, b, c, n, &st))
			continue;
		cd[ncols].col = (uint16_t)c;
		/*
		 * Each key choice is a candidate.  Which one wins is decided on
		 * the first KEY_TRIAL values (each candidate compressed there),
		 * then only the winner is encoded for the whole column: three
		 * full compressions of a column would cost more than all the
		 * other columns together.
		 */
		int best = -1;		/* -1 plain, else the aux that won */
		if (key_of[c][0] && st.min != st.max) {
			size_t tn = n > KEY_TRIAL ? KEY_TRIAL : n;
			struct coldir t = { .col = (uint16_t)c };
			struct colstat tst;
			col_stat(e->v, tn, &tst);
			e->trial.len = 0;
			r = encode_column(e, tn, level, &tst, &t, &e->trial);
			for (unsigned kc = 0; !r && kc < 2 && key_of[c][kc] &&
			     t.enc != ENC_CONST; kc++) {
				unsigned aux;
				if (load_keys(e, b, c, kc, tn, &aux))
					r = try_keyed(e, tn, level, aux, &t,
						      &e->trial);
			}
			if (r)
				return r;
			if (ENC_CODE(t.enc) == ENC_KEYED)
				best = (int)t.dict_count;
		}
		if (best < 0) {
			r = encode_column(e, n, level, &st, &cd[ncols],
					  &e->data);
		} else {
			unsigned aux;
			load_keys(e, b, c, (unsigned)best >> 8 ? 1 : 0, n, &aux);
			r = encode_keyed(e, n, level, aux, &st, &cd[ncols],
					 &e->data);
		}
		if (r)
			return r;
		ncols++;
	}
	return (int)ncols;
}

/* Bytes of the event-name list of @b, or a negative error. */
static long names_size(const struct pebs_batch *b)
{
	size_t names_len = 0;
	for (uint32_t i = 0; i < b->nnames; i++) {
		size_t l = strlen(b->names[i]);
		if (l > PEBS_EVENT_NAME_MAX)
			return -PEBS_E_RANGE;
		names_len += 2 + l;
	}
	return (long)names_len;
}

/* Writes the whole chunk (@total bytes, payload @plen) into @buf. */
static void assemble(struct fmt_enc *e, const struct pebs_batch *b,
		     const struct coldir *cd, unsigned ncols, size_t plen,
		     uint8_t *buf)
{
	fmt_chunk_hdr(buf, TAG_BLCK, CHUNK_CRITICAL, plen);
	uint8_t *p = buf + CHUNK_HDR;
	put32(p, (uint32_t)b->n);
	put32(p + 4, ncols);
	put32(p + 8, b->nnames);
	put32(p + 12, BLK_F_COLSUMS);
	p += BLK_FIXED;
	for (uint32_t i = 0; i < b->nnames; i++) {
		size_t l = strlen(b->names[i]);
		put16(p, (uint16_t)l);
		memcpy(p + 2, b->names[i], l);
		p += 2 + l;
	}
	for (unsigned i = 0; i < ncols; i++, p += BLK_COLDIR) {
		put16(p, cd[i].col);
		p[2] = cd[i].enc;
		p[3] = cd[i].width;
		put32(p + 4, cd[i].dict_count);
		put64(p + 8, cd[i].min);
		put64(p + 16, cd[i].max);
		put64(p + 24, cd[i].base);
		put64(p + 32, cd[i].comp_len);
		put64(p + 40, cd[i].raw_len);
	}
	size_t head = (size_t)(p - (buf + CHUNK_HDR));
	if (e->data.len)
		memcpy(p, e->data.p, e->data.len);
	/* The column checksum table, then the checksum of the head. */
	const uint8_t *d = p;
	p += e->data.len;
	for (unsigned i = 0; i < ncols; i++, p += 8) {
		put64(p, fmt_hash(d, cd[i].comp_len,
				  fmt_colsum_seed(cd[i].col, cd[i].comp_len)));
		d += cd[i].comp_len;
	}
	put64(p, fmt_checksum(TAG_BLCK, buf + CHUNK_HDR, head));
	put64(buf + CHUNK_HDR + plen,
	      fmt_checksum(TAG_BLCK, buf + CHUNK_HDR, plen));
}

/*
 * Encodes @b into @dst when non-NULL (reusable, grown as needed), else
 * into a fresh malloc'd buffer returned through *@out.
 */
static int encode_block(struct fmt_enc *e, const struct pebs_batch *b,
			int level, struct obuf *dst, void **out, size_t *len)
{
	struct coldir cd[PEBS_COL_COUNT];

	if (b->n == 0 || b->n > PEBS_BATCH_MAX ||
	    b->nnames > PEBS_EVENT_NAMES_MAX)
		return -PEBS_E_INVAL;
	if (enc_scratch(e, b->n))
		return -PEBS_E_NOMEM;
	long names_len = names_size(b);
	if (names_len < 0)
		return (int)names_len;
	int r = encode_columns(e, b, level, cd);
	if (r < 0)
		return r;
	unsigned ncols = (unsigned)r;
	size_t plen = BLK_FIXED + (size_t)names_len + BLK_COLDIR * ncols +
		      e->data.len + 8 * (size_t)ncols + 8;
	size_t total = CHUNK_HDR + plen + CHUNK_TRL;
	uint8_t *buf;
	if (dst) {
		dst->len = 0;
		if (obuf_reserve(dst, total))
			return -PEBS_E_NOMEM;
		buf = dst->p;
		dst->len = total;
	} else if (!(buf = malloc(total))) {
		return -PEBS_E_NOMEM;
	}
	assemble(e, b, cd, ncols, plen, buf);
	*out = buf;
	*len = total;
	return 0;
}

int fmt_block_encode(struct fmt_enc *e, const struct pebs_batch *b, int level,
		     void **out, size_t *len)
{
	return encode_block(e, b, level, NULL, out, len);
}

int fmt_block_encode_buf(struct fmt_enc *e, const struct pebs_batch *b,
			 int level, const void **out, size_t *len)
{
	void *p;
	int r = encode_block(e, b, level, &e->out, &p, len);
	*out = r ? NULL : p;
	return r;
}

/*
 * pebs_block_encode() keeps one encoder per thread: its zstd context and
 * scratch buffers are worth reusing from block to block, and an encoder
 * carries nothing from one block to the next, so the output is the same.
 */
static pthread_key_t enc_key;
static pthread_once_t enc_once = PTHREAD_ONCE_INIT;

static void enc_destroy(void *p)
{
	fmt_enc_free(p);
}

static void enc_key_init(void)
{
	pthread_key_create(&enc_key, enc_destroy);
}

int pebs_block_encode(const struct pebs_batch *b, int level, void **out,
		      size_t *len)
{
	/* the writer's range: a level it refuses is not encoded here */
	if (level < PEBS_LEVEL_MIN || level > PEBS_LEVEL_MAX)
		return -PEBS_E_RANGE;
	pthread_once(&enc_once, enc_key_init);
	struct fmt_enc *e = pthread_getspecific(enc_key);
	if (!e) {
		if (!(e = fmt_enc_new()))
			return -PEBS_E_NOMEM;
		pthread_setspecific(enc_key, e);
	}
	return fmt_block_encode(e, b, level ? level : FMT_DEFAULT_LEVEL, out,
				len);
}

/* ------------------------------------------------------------- decoding */

__attribute__((format(printf, 4, 5)))
static int fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lib_verrf(err, errlen, fmt, ap);
	va_end(ap);
	return -code;
}

/* Parsed view of a block payload (pointers into the chunk). */
struct view {
	uint32_t n, ncols, nnames;
	const uint8_t *names;	/* nnames (u16 len, bytes) */
	struct coldir cd[PEBS_COL_COUNT];
	const uint8_t *data[PEBS_COL_COUNT];
	/* The column's checksum to verify before use, or NULL (verified). */
	const uint8_t *sum[PEBS_COL_COUNT];
	unsigned nknown;	/* directory entries kept (known columns) */
};

/*
 * Verifies a block with a column checksum table (payload @p, @plen bytes)
 * up to its directory: bounds-checks the names and directory, then checks
 * the head checksum at the end of the payload before anything in them is
 * trusted.  Returns 0, or a negative error (checksum mismatch, or a
 * payload too short for its own head and table).
 */
static int verify_head(const uint8_t *p, uint64_t plen, char *err,
		       size_t errlen)
{
	uint32_t ncols = get32(p + 4), nnames = get32(p + 8);
	if (ncols > 1024 || nnames > PEBS_EVENT_NAMES_MAX ||
	    plen < BLK_FIXED + 8 * (uint64_t)ncols + 8)
		return fail(PEBS_E_CHECKSUM, err, errlen, "checksum mismatch");
	const uint8_t *q = p + BLK_FIXED;
	const uint8_t *end = p + plen - 8 * (uint64_t)ncols - 8;
	for (uint32_t i = 0; i < nnames; i++) {
		if (end - q < 2 || (size_t)(end - q - 2) < get16(q))
			return fail(PEBS_E_CHECKSUM, err, errlen,
				    "checksum mismatch");
		q += 2 + get16(q);
	}
	if ((size_t)(end - q) < (size_t)ncols * BLK_COLDIR)
		return fail(PEBS_E_CHECKSUM, err, errlen, "checksum mismatch");
	q += (size_t)ncols * BLK_COLDIR;
	if (fmt_checksum(TAG_BLCK, p, (uint64_t)(q - p)) !=
	    get64(p + plen - 8))
		return fail(PEBS_E_CHECKSUM, err, errlen, "checksum mismatch");
	return 0;
}

/*
 * Validates framing, checksum (when @verify) and every size and count of
 * the block, so that decoding can trust them.  A block with a column
 * checksum table is verified by its head checksum here and by each
 * column's checksum when that column is used (v->sum); others by the
 * chunk checksum.
 */
static int parse(const void *chunk, size_t len, int verify, struct view *v,
		 char *err, size_t errlen)
{
	const uint8_t *c = chunk;
	if (len < CHUNK_HDR + CHUNK_TRL)
		return fail(PEBS_E_TRUNCATED, err, errlen, "truncated");
	if (get32(c) != TAG_BLCK)
		return fail(PEBS_E_FORMAT, err, errlen, "not a block chunk");
	uint64_t plen = get64(c + 8);
	if (plen != len - CHUNK_HDR - CHUNK_TRL)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "block length %llu does not match chunk size",
			    (unsigned long long)plen);
	const uint8_t *p = c + CHUNK_HDR, *end = p + plen;
	int colsums = plen >= BLK_FIXED && (get32(p + 12) & BLK_F_COLSUMS);
	if (verify && colsums) {
		int r = verify_head(p, plen, err, errlen);
		if (r)
			return r;
	} else if (verify && !fmt_block_sum_ok(p, plen)) {
		return fail(PEBS_E_CHECKSUM, err, errlen, "checksum mismatch");
	}
	if (plen < BLK_FIXED)
		return fail(PEBS_E_CORRUPT, err, errlen, "block too short");
	const uint8_t *sums = NULL;
	if (colsums) {
		uint64_t tl = 8 * (uint64_t)get32(p + 4) + 8;
		if (get32(p + 4) > 1024 || plen < BLK_FIXED + tl)
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "bad column count %u", get32(p + 4));
		end -= tl;
		sums = end;
	}
	v->n = get32(p);
	v->ncols = get32(p + 4);
	v->nnames = get32(p + 8);
	if (v->n == 0 || v->n > PEBS_BATCH_MAX)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "bad sample count %u", v->n);
	if (v->nnames > PEBS_EVENT_NAMES_MAX)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "bad event count %u", v->nnames);
	p += BLK_FIXED;
	v->names = p;
	for (uint32_t i = 0; i < v->nnames; i++) {
		if (end - p < 2 || (size_t)(end - p - 2) < get16(p) ||
		    get16(p) > PEBS_EVENT_NAME_MAX)
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "bad event name %u", i);
		p += 2 + get16(p);
	}
	if (v->ncols > 1024 || (size_t)(end - p) < (size_t)v->ncols *
	    BLK_COLDIR)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "bad column count %u", v->ncols);
	const uint8_t *data = p + (size_t)v->ncols * BLK_COLDIR;
	uint64_t seen = 0;
	v->nknown = 0;
	for (uint32_t i = 0; i < v->ncols; i++, p += BLK_COLDIR) {
		struct coldir cd;
		cd.col = get16(p);
		cd.enc = p[2];
		cd.width = p[3];
		cd.dict_count = get32(p + 4);
		cd.min = get64(p + 8);
		cd.max = get64(p + 16);
		cd.base = get64(p + 24);
		cd.comp_len = get64(p + 32);
		cd.raw_len = get64(p + 40);
		if (cd.comp_len > (uint64_t)(end - data))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u data out of bounds", cd.col);
		const uint8_t *cdata = data;
		data += cd.comp_len;
		/* Columns from a newer writer are skipped, not refused. */
		if (cd.col >= PEBS_COL_COUNT)
			continue;
		if (seen & (1ull << cd.col))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u twice", cd.col);
		seen |= 1ull << cd.col;
		unsigned enc = ENC_CODE(cd.enc), tp = ENC_TOP(cd.enc);
		/* Planes: the top one possibly packed (ENC_TOP). */
		uint64_t planes = cd.width ? (uint64_t)(cd.width - 1u) * v->n +
				  fmt_top_len(v->n, tp) : 0;
		uint64_t want;
		if (tp && (enc == ENC_CONST || enc == ENC_KEYED))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: packing without planes",
				    cd.col);
		switch (enc) {
		case ENC_CONST:
			/* No data at all, not even an empty frame (section 6). */
			if (cd.comp_len)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: constant with data",
					    cd.col);
			want = 0;
			break;
		case ENC_FOR:
		case ENC_DELTA:
			want = planes;
			break;
		case ENC_KEYED:
			/*
			 * Keyed on itself, or bits above 15: damage.  A key
			 * column id this reader does not know (a newer
			 * writer's) is not: only this column is unreadable,
			 * and only when asked for (key_values()).
			 */
			if ((cd.dict_count >> 16) ||
			    (cd.dict_count & 0xff) == cd.col ||
			    (cd.dict_count >> 8) == cd.col + 1u)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: bad key column",
					    cd.col);
			/*
			 * Varint: n length bytes plus up to 8n data bytes.
			 * Refused here, not by a want of ~0 that cannot
			 * match: a raw_len of ~0 did match it, and the
			 * decoder then took damage for a failed allocation.
			 */
			if (cd.raw_len < v->n || cd.raw_len > 9ull * v->n)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: bad size", cd.col);
			want = cd.raw_len;
			break;
		case ENC_DICT:
			if (cd.dict_count == 0 || cd.dict_count > 65536)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: bad dictionary size",
					    cd.col);
			want = 8ull * cd.dict_count + planes;
			break;
		default:
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: unknown encoding %u", cd.col,
				    enc);
		}
		/* CONST and KEYED have no planes: width 0 (section 6). */
		if (enc == ENC_KEYED || enc == ENC_CONST ? cd.width != 0 :
		    cd.width < 1 || cd.width > 8)
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: bad width %u", cd.col,
				    cd.width);
		if (cd.raw_len != want ||
		    ((cd.enc & ENC_STORED) && cd.comp_len != want))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: bad size", cd.col);
		if (cd.min > cd.max)
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: min above max", cd.col);
		/*
		 * A u32 column (or string ids) cannot hold 2^32: decoding
		 * would narrow such values one way when the column is read
		 * and another when it is only a key, and block skipping on
		 * min/max would disagree with both (format section 6).
		 */
		const struct pebs_col_info *ci = pebs_col_info(cd.col);
		if (ci && ci->type != PEBS_T_U64 &&
		    (cd.max > UINT32_MAX || cd.base > UINT32_MAX))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: value above 32 bits", cd.col);
		v->data[v->nknown] = cdata;
		v->sum[v->nknown] = verify && sums ? sums + 8 * (size_t)i :
				    NULL;
		v->cd[v->nknown++] = cd;
	}
	/* With a table, the data fills the space before it exactly. */
	if (sums && data != end)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "column data does not end at the checksum table");
	return 0;
}

int fmt_block_verify_head(const void *chunk, size_t len)
{
	const uint8_t *c = chunk;
	if (len < CHUNK_HDR + CHUNK_TRL)
		return -PEBS_E_TRUNCATED;
	uint64_t plen = len - CHUNK_HDR - CHUNK_TRL;
	const uint8_t *p = c + CHUNK_HDR;
	if (plen >= BLK_FIXED && (get32(p + 12) & BLK_F_COLSUMS))
		return verify_head(p, plen, NULL, 0);
	return fmt_block_sum_ok(p, plen) ? 0 : -PEBS_E_CHECKSUM;
}

int fmt_block_ranges(const void *chunk, size_t len, size_t head,
		     uint64_t cols, struct fmt_range *out)
{
	const uint8_t *c = chunk;
	if (head > len)
		head = len;
	if (len < CHUNK_HDR + BLK_FIXED + CHUNK_TRL ||
	    head < CHUNK_HDR + BLK_FIXED)
		return -PEBS_E_TRUNCATED;
	const uint8_t *p = c + CHUNK_HDR;
	if (!(get32(p + 12) & BLK_F_COLSUMS))
		return 0;
	/* The head's end, from its own counts, within what is there. */
	uint64_t h = CHUNK_HDR + BLK_FIXED;
	for (uint32_t i = 0, nn = get32(p + 8); i < nn; i++) {
		if (h + 2 > head)
			return -PEBS_E_TRUNCATED;
		h += 2 + (uint64_t)get16(c + h);
	}
	uint64_t ncols = get32(p + 4);
	h += ncols * BLK_COLDIR;
	if (h > head)
		return -PEBS_E_TRUNCATED;
	struct view v;
	int r = parse(chunk, len, 0, &v, NULL, 0);
	if (r)
		return r;
	uint64_t want = cols ? cols : ~0ull;
	for (unsigned i = 0; i < v.nknown; i++) {
		uint32_t aux = v.cd[i].dict_count;
		unsigned k1 = aux & 0xff, k2 = aux >> 8;
		if (!(want & (1ull << v.cd[i].col)) ||
		    ENC_CODE(v.cd[i].enc) != ENC_KEYED)
			continue;
		/* unknown key columns: decoding fails without their data */
		if (k1 < PEBS_COL_COUNT)
			want |= 1ull << k1;
		if (k2 && k2 - 1 < PEBS_COL_COUNT)
			want |= 1ull << (k2 - 1);
	}
	/* Directory order is data order: the ranges come out sorted. */
	size_t k = 0;
	out[k++] = (struct fmt_range){ 0, (size_t)h };
	for (unsigned i = 0; i < v.nknown; i++) {
		if (!(want & (1ull << v.cd[i].col)) || !v.cd[i].comp_len)
			continue;
		size_t off = (size_t)(v.data[i] - c);
		struct fmt_range *last = &out[k - 1];
		size_t cl = (size_t)v.cd[i].comp_len;
		if (last->off + last->len == off)
			last->len += cl;
		else
			out[k++] = (struct fmt_range){ off, cl };
	}
	size_t tail = (size_t)(8 * ncols + 8 + CHUNK_TRL);
	struct fmt_range *last = &out[k - 1];
	if (last->off + last->len == len - tail)
		last->len += tail;
	else
		out[k++] = (struct fmt_range){ len - tail, tail };
	return (int)k;
}

int pebs_block_info(const void *chunk, size_t len, int verify,
		    struct pebs_block_info *info, char *err, size_t errlen)
{
	struct view v;
	int r = parse(chunk, len, verify, &v, err, errlen);
	if (r)
		return r;
	memset(info->min, 0, sizeof(info->min));
	memset(info->max, 0, sizeof(info->max));
	memset(info->bytes, 0, sizeof(info->bytes));
	info->nsamples = v.n;
	info->present = 0;
	info->chunk_len = len;
	info->meta = NULL;
	for (unsigned i = 0; i < v.nknown; i++) {
		info->present |= 1ull << v.cd[i].col;
		info->min[v.cd[i].col] = v.cd[i].min;
		info->max[v.cd[i].col] = v.cd[i].max;
		info->bytes[v.cd[i].col] = v.cd[i].comp_len;
	}
	if (v.nnames)
		info->present |= 1ull << PEBS_COL_EVENT;
	return 0;
}

/*
 * The key of a KEYED column's rows: up to two key columns, each read where
 * it lies (a decoded u64 or u32 column, or scratch), combined as
 * k1 + k2 * FMT_KEY_C2 row by row; a column absent (both NULL) is zero.
 */
struct keysrc {
	const uint64_t *p64;
	const uint32_t *p32;
};

/* Kind of a key source: 0 absent, 1 u32, 2 u64. */
static int keysrc_kind(const struct keysrc *k)
{
	return k->p64 ? 2 : k->p32 ? 1 : 0;
}

static inline __attribute__((always_inline))
uint64_t key_at(const struct keysrc *k, int kind, size_t i)
{
	return kind == 2 ? k->p64[i] : kind == 1 ? k->p32[i] : 0;
}

/*
 * The loop of unkey() for key kinds @k1 and @k2 (constants where it is
 * inlined, so each combination compiles to its own loop without tests):
 * the keys are read from their columns as they are, not first copied and
 * combined in passes of their own.
 */
static inline __attribute__((always_inline))
void unkey_loop(struct fmt_dec *d, const uint8_t *raw, const uint8_t *p,
		size_t n, const struct keysrc *ks, int k1, int k2,
		int mostly_same, uint64_t *out)
{
	static const uint64_t mask[9] = {
		0, 0xff, 0xffff, 0xffffff, 0xffffffffull, 0xffffffffffull,
		0xffffffffffffull, 0xffffffffffffffull, ~0ull
	};
	uint64_t *last = d->last;
	size_t i = 0;
#define KEY_SLOT(i) fmt_key_slot(key_at(&ks[0], k1, (i)) + \
				 key_at(&ks[1], k2, (i)) * FMT_KEY_C2)
	/*
	 * One row: an unchanged value is not stored back to its slot:
	 * consecutive samples of one key (a thread's CPU) would otherwise
	 * chain each load to the previous store.  It goes to a slot never
	 * read instead of behind a branch, which mispredicts on columns
	 * where changes are irregular (a data source per instruction).
	 */
#define KEY_STEP(i) do {						\
		unsigned l_ = raw[(i)];					\
		uint64_t z_;						\
		memcpy(&z_, p, 8);					\
		z_ = le64toh(z_) & mask[l_];				\
		p += l_;						\
		uint32_t s_ = KEY_SLOT(i);				\
		uint64_t v_ = last[s_] + ((z_ >> 1) ^ (0 - (z_ & 1)));	\
		last[s_ + ((KEYED_SLOTS - s_) & (0 - (size_t)(z_ == 0)))] = v_; \
		out[(i)] = v_;						\
	} while (0)
	if (mostly_same) {
		/*
		 * Eight rows at a time: where all eight are unchanged (the
		 * common case: a thread's CPU), each is a plain lookup with
		 * no store, so the lookups are independent and no branch
		 * per row mispredicts; else the eight take the general step.
		 */
		for (; i + 8 <= n; i += 8) {
			uint64_t l8;
			memcpy(&l8, raw + i, 8);
			if (!l8) {
				for (size_t j = i; j < i + 8; j++)
					out[j] = last[KEY_SLOT(j)];
				continue;
			}
			for (size_t j = i; j < i + 8; j++)
				KEY_STEP(j);
		}
	}
	for (; i < n; i++)
		KEY_STEP(i);
#undef KEY_STEP
#undef KEY_SLOT
}

/*
 * Decodes KEYED data: keyed_pack() data (@len bytes at @raw, followed by at
 * least 8 readable bytes when @slack, else copied to a padded buffer)
 * into n values, each added to the last value of its key's slot (keys
 * from @ks[0] and @ks[1]).  The lengths are checked against the data size
 * first, so the loop can read 8 bytes at a time.  Unpacking and the
 * prediction are one pass: the table lookups are a dependency chain
 * anyway.
 */
static int unkey(struct fmt_dec *d, const uint8_t *raw, size_t len,
		 int slack, size_t n, const struct keysrc *ks, uint64_t base,
		 uint64_t *out)
{
	size_t sum = 0, same = 0;
	unsigned bad = 0;
	for (size_t i = 0; i < n; i++) {
		sum += raw[i];
		same += raw[i] == 0;
		bad |= raw[i] > 8;
	}
	if (bad || sum != len - n)
		return -1;
	const uint8_t *p = raw + n;
	if (!slack) {
		if (d->pad_cap < sum + 8) {
			free(d->pad);
			d->pad_cap = sum + 8 > 65536 ? sum + 8 : 65536;
			d->pad = malloc(d->pad_cap);
			if (!d->pad) {
				d->pad_cap = 0;
				return -1;
			}
		}
		memcpy(d->pad, raw + n, sum);
		memset(d->pad + sum, 0, 8);
		p = d->pad;
	}
	for (size_t s = 0; s < KEYED_SLOTS; s++)
		d->last[s] = base;
	/*
	 * The writer's key columns are one (ip, tid) or two (ip and tid).
	 * Where 15 values in 16 or more are unchanged, most runs of eight
	 * rows are unchanged throughout and skip the delta's work
	 * (unkey_loop(); CPU keyed by thread: 3.3 -> 1.5 ns a sample).
	 */
	int ms = same >= n - n / 16;
	int k1 = keysrc_kind(&ks[0]), k2 = keysrc_kind(&ks[1]);
	/* each common case its own loop, the rest one generic loop */
	switch ((k1 * 3 + k2) * 2 + ms) {
	case 6: unkey_loop(d, raw, p, n, ks, 1, 0, 0, out); break;
	case 7: unkey_loop(d, raw, p, n, ks, 1, 0, 1, out); break;
	case 12: unkey_loop(d, raw, p, n, ks, 2, 0, 0, out); break;
	case 13: unkey_loop(d, raw, p, n, ks, 2, 0, 1, out); break;
	case 14: unkey_loop(d, raw, p, n, ks, 2, 1, 0, out); break;
	default: unkey_loop(d, raw, p, n, ks, k1, k2, ms, out);
	}
	return 0;
}

/* The damage of a column with a value outside its directory's range. */
static int out_of_range(const struct coldir *cd, char *err, size_t errlen)
{
	return fail(PEBS_E_CORRUPT, err, errlen,
		    "column %u: value outside its minimum and maximum "
		    "(%llu to %llu)", cd->col, (unsigned long long)cd->min,
		    (unsigned long long)cd->max);
}

/* Checks column @i's checksum, when it has one still to check. */
static int col_sum(const struct view *v, unsigned i, char *err,
		   size_t errlen)
{
	const struct coldir *cd = &v->cd[i];
	if (v->sum[i] && fmt_hash(v->data[i], cd->comp_len,
				  fmt_colsum_seed(cd->col, cd->comp_len)) !=
	    get64(v->sum[i])) {
		const struct pebs_col_info *ci = pebs_col_info(cd->col);
		return fail(PEBS_E_CHECKSUM, err, errlen,
			    "checksum mismatch (column %s)",
			    ci ? ci->name : "?");
	}
	return 0;
}

/*
 * Decodes column @i of @v into @out (n values), or, when @o32 is not NULL,
 * into @o32 narrowed to u32 (@out is then scratch).
 */
static int decode_column(struct fmt_dec *d, const struct view *v,
			 unsigned i, const struct keysrc *key, uint64_t *out,
			 uint32_t *o32, char *err, size_t errlen)
{
	const struct coldir *cd = &v->cd[i];
	size_t n = v->n;
	unsigned enc = ENC_CODE(cd->enc);
	const uint8_t *raw = v->data[i];
	int rc;

	if ((rc = col_sum(v, i, err, errlen)))
		return rc;
	if (enc == ENC_CONST && o32) {
		for (size_t j = 0; j < n; j++)
			o32[j] = (uint32_t)cd->min;
		return 0;
	}
	if (enc == ENC_CONST) {
		for (size_t j = 0; j < n; j++)
			out[j] = cd->min;
		return 0;
	}
	/* The data with a packed top plane unpacked: @full bytes. */
	unsigned tp = ENC_TOP(cd->enc);
	size_t full = tp ? cd->raw_len - fmt_top_len(n, tp) + n : cd->raw_len;
	if (!(cd->enc & ENC_STORED) || tp) {
		if (raw_room(d, full))
			return -PEBS_E_NOMEM;
		const uint8_t *pk = raw + cd->raw_len - fmt_top_len(n, tp);
		if (cd->enc & ENC_STORED) {
			memcpy(d->raw, raw, full - n);
		} else {
			/*
			 * Exactly one frame (section 6): zstd would also take
			 * skippable frames and a second frame, which a reader
			 * written from the spec refuses.
			 */
			size_t fl = ZSTD_findFrameCompressedSize(raw,
								 cd->comp_len);
			if (fl != cd->comp_len)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: not one zstd frame%s%s",
					    cd->col,
					    ZSTD_isError(fl) ? ": " : "",
					    ZSTD_isError(fl) ?
					    ZSTD_getErrorName(fl) : "");
			size_t got = ZSTD_decompressDCtx(d->dctx, d->raw,
							 cd->raw_len, raw,
							 cd->comp_len);
			if (ZSTD_isError(got) || got != cd->raw_len)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: decompression "
					    "failed%s%s", cd->col,
					    ZSTD_isError(got) ? ": " : "",
					    ZSTD_isError(got) ?
					    ZSTD_getErrorName(got) : "");
			/* The packed plane moves out of its unpacked place. */
			if (tp)
				pk = memcpy(d->top, d->raw + full - n,
					    fmt_top_len(n, tp));
		}
		if (tp)
			fmt_k->top_unpack(pk, n, tp, d->raw + full - n);
		memset(d->raw + full, 0, 8);
		raw = d->raw;
	}
	/*
	 * Every value must lie in [min, max] (format section 6): readers
	 * skip and count whole blocks from the directory, so a value outside
	 * it would make the result depend on whether a block was decoded.
	 * Each case checks value - min <= @span in a loop it runs anyway
	 * where it can (DICT: in its dictionary).
	 */
	uint64_t span = cd->max - cd->min;
	int checked = 0;	/* all values known to be in range */
	if (enc == ENC_FOR && o32 && cd->width <= 4) {
		/* The common u32 case in one pass, no 64-bit detour. */
		if (fmt_k->unpack32(raw, n, cd->width, (uint32_t)cd->min,
				    o32) > span)
			return out_of_range(cd, err, errlen);
		return 0;
	}
	switch (enc) {
	case ENC_FOR:
		if (fmt_k->unpack(raw, n, cd->width, cd->min, span, out))
			return out_of_range(cd, err, errlen);
		break;
	case ENC_DELTA:
		fmt_k->unpack(raw, n, cd->width, 0, ~0ull, out);
		/* Non-decreasing (time): the ends bound every value. */
		if (fmt_k->undelta(out, n, cd->base)) {
			if (out[0] - cd->min > span ||
			    out[n - 1] - cd->min > span)
				return out_of_range(cd, err, errlen);
			checked = 1;
		}
		break;
	case ENC_DICT: {
		/* The values are the dictionary's: checked there, once. */
		unsigned bad = 0;
		for (uint32_t j = 0; j < cd->dict_count; j++) {
			d->dict[j] = get64(raw + 8 * j);
			bad |= d->dict[j] - cd->min > span;
		}
		if (bad)
			return out_of_range(cd, err, errlen);
		if (cd->width <= 2) {
			/* Unpack, check and look up in one pass. */
			if (fmt_k->dgather(d->dict, raw + 8 *
					   (size_t)cd->dict_count, n,
					   cd->width, out) >= cd->dict_count)
				return fail(PEBS_E_CORRUPT, err, errlen,
					    "column %u: dictionary index out "
					    "of range", cd->col);
			break;
		}
		if (fmt_k->unpack(raw + 8 * (size_t)cd->dict_count, n,
				  cd->width, 0, cd->dict_count - 1u, d->idx))
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: dictionary index out of range",
				    cd->col);
		fmt_k->gather(d->dict, d->idx, n, out);
		break;
	}
	case ENC_KEYED:
		if (unkey(d, raw, cd->raw_len, !(cd->enc & ENC_STORED), n, key,
			  cd->base, out) < 0)
			return fail(PEBS_E_CORRUPT, err, errlen,
				    "column %u: bad variable-length data",
				    cd->col);
		break;
	}
	/* DELTA and KEYED: checked in the narrowing pass, or one of its own. */
	int bad = o32 ? fmt_k->narrow(out, n, cd->min, span, o32) :
		  (enc == ENC_DELTA && !checked) || enc == ENC_KEYED ?
		  fmt_k->outside(out, n, cd->min, span) : 0;
	return bad ? out_of_range(cd, err, errlen) : 0;
}

/* Index of column @col in @v's directory, or -1. */
static int find_col(const struct view *v, unsigned col)
{
	for (unsigned i = 0; i < v->nknown; i++)
		if (v->cd[i].col == col)
			return (int)i;
	return -1;
}

/*
 * Key values of column @col for KEYED column @self into *@k: where @out
 * holds them decoded, else decoded into @scratch; nothing (both NULL)
 * for a column the block lacks, whose values are zero.  0 or an error.
 */
static int key_values(struct fmt_dec *d, const struct view *v,
		      unsigned self, unsigned col, uint64_t done,
		      struct pebs_batch *out, uint64_t *scratch,
		      struct keysrc *k, char *err, size_t errlen)
{
	k->p64 = NULL;
	k->p32 = NULL;
	/*
	 * Not absent but unknown: a newer writer's column, which this
	 * reader skipped.  Zeros would decode wrong values; only this
	 * column fails (format section 6), as one this reader cannot read.
	 */
	if (col >= PEBS_COL_COUNT)
		return fail(PEBS_E_VERSION, err, errlen,
			    "column %u: key column %u unknown to this reader",
			    self, col);
	int ki = find_col(v, col);
	if (ki < 0)
		return 0;
	if (ENC_CODE(v->cd[ki].enc) == ENC_KEYED)
		return fail(PEBS_E_CORRUPT, err, errlen,
			    "column %u: key column %u is keyed itself", self,
			    col);
	if (done & (1ull << col)) {
		k->p64 = out->c64[col];
		k->p32 = out->c64[col] ? NULL : out->c32[col];
		return 0;
	}
	k->p64 = scratch;
	return decode_column(d, v, (unsigned)ki, NULL, scratch, NULL, err,
			     errlen);
}

/*
 * The key columns of KEYED column @self (aux: first key column, second
 * key column + 1 or 0) into @k[0] and @k[1], each in its own scratch
 * when it was not decoded.  0 or an error.
 */
static int keys(struct fmt_dec *d, const struct view *v, unsigned self,
		uint32_t aux, uint64_t done, struct pebs_batch *out,
		struct keysrc *k, char *err, size_t errlen)
{
	int rc = key_values(d, v, self, aux & 0xff, done, out, d->key, &k[0],
			    err, errlen);
	k[1].p64 = NULL;
	k[1].p32 = NULL;
	if (!rc && aux >> 8)
		rc = key_values(d, v, self, (aux >> 8) - 1, done, out,
				d->key2, &k[1], err, errlen);
	return rc;
}

int fmt_block_decode(struct fmt_dec *d, const void *chunk, size_t len,
		     uint64_t cols, int verify, struct pebs_batch *out,
		     char *err, size_t errlen)
{
	struct view v;
	/*
	 * Emptied before anything can fail: a refused head left the batch
	 * of an earlier block in @out, which a caller going on after the
	 * error read as this block's samples.
	 */
	pebs_batch_reset(out);
	int r = parse(chunk, len, verify, &v, err, errlen);
	if (r)
		return r;
	if (v.n > out->cap)
		return fail(PEBS_E_RANGE, err, errlen,
			    "block of %u samples exceeds the batch", v.n);
	if (dec_scratch(d, v.n))
		return -PEBS_E_NOMEM;
	if (!cols)
		cols = ~0ull;
	const uint8_t *p = v.names;
	for (uint32_t i = 0; i < v.nnames; i++) {
		char name[PEBS_EVENT_NAME_MAX + 1];
		size_t l = get16(p);
		memcpy(name, p + 2, l);
		name[l] = 0;
		p += 2 + l;
		/* Duplicate names would collapse ids: keep slots apart. */
		if (out->nnames == out->names_cap) {
			uint32_t nc = out->names_cap ? out->names_cap * 2 : 8;
			char **nn = realloc(out->names, nc * sizeof(*nn));
			if (!nn)
				return -PEBS_E_NOMEM;
			out->names = nn;
			out->names_cap = nc;
		}
		out->names[out->nnames] = strdup(name);
		if (!out->names[out->nnames])
			return -PEBS_E_NOMEM;
		out->nnames++;
	}
	uint64_t done = 0;
	/* Keyed columns go second: their key columns must be decoded. */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < v.nknown; i++) {
			unsigned c = v.cd[i].col;
			int keyed = ENC_CODE(v.cd[i].enc) == ENC_KEYED;
			if (!(cols & (1ull << c)) || keyed != pass)
				continue;
			struct keysrc key[2];
			if (keyed && (r = keys(d, &v, c, v.cd[i].dict_count,
					       done, out, key, err, errlen)))
				return r;
			uint64_t *dst = out->c64[c] ? out->c64[c] : d->tmp;
			r = decode_column(d, &v, i, keyed ? key : NULL, dst,
					  out->c64[c] ? NULL : out->c32[c],
					  err, errlen);
			if (r)
				return r;
			done |= 1ull << c;
			out->present |= 1ull << c;
		}
	}
	/* The columns not decoded, when asked to check the whole block. */
	for (unsigned i = 0; verify > 1 && i < v.nknown; i++)
		if (!(done & (1ull << v.cd[i].col)) &&
		    (r = col_sum(&v, i, err, errlen)))
			return r;
	/* Zero what an earlier block left in columns this one lacks. */
	uint64_t stale = out->dirty & ~done;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		if (!(stale & (1ull << c)))
			continue;
		if (out->c64[c])
			memset(out->c64[c], 0, out->cap * sizeof(uint64_t));
		else
			memset(out->c32[c], 0, out->cap * sizeof(uint32_t));
	}
	out->dirty = done;
	if (v.nnames)
		out->present |= 1ull << PEBS_COL_EVENT;
	out->n = v.n;
	return 0;
}

/*
 * pebs_block_decode() keeps one decoder per thread, like the encoder: a
 * caller that decodes the rest of a block after a first look at some
 * columns (a filter) would otherwise pay for a zstd context and 640 KiB
 * of tables per block.
 */
static pthread_key_t dec_key;
static pthread_once_t dec_once = PTHREAD_ONCE_INIT;

static void dec_destroy(void *p)
{
	fmt_dec_free(p);
}

static void dec_key_init(void)
{
	pthread_key_create(&dec_key, dec_destroy);
}

int pebs_block_decode(const void *chunk, size_t len, uint64_t cols,
		      struct pebs_batch *out, char *err, size_t errlen)
{
	pthread_once(&dec_once, dec_key_init);
	struct fmt_dec *d = pthread_getspecific(dec_key);
	if (!d) {
		if (!(d = fmt_dec_new()))
			return -PEBS_E_NOMEM;
		pthread_setspecific(dec_key, d);
	}
	return fmt_block_decode(d, chunk, len, cols, 1, out, err, errlen);
}
