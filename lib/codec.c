/*
 * codec.c - column kernels: byte-plane unpacking, delta prefix sums,
 * dictionary gathers, narrowing for the decoder; statistics and plane
 * packing for the encoder.  The same plain C loops are compiled three
 * times: for AVX2, for SSE4.2 and with vectorization disabled (the scalar
 * twin that tests compare against and PEBS_SCALAR=1 forces).  The compiler
 * vectorizes the first two; the choice is made once at run time.
 */
#if defined(__GNUC__) && !defined(__clang__)
/* The very-cheap cost model of -O2 leaves these loops scalar. */
#pragma GCC optimize("O3")
#endif

#include <stdlib.h>
#include <xxhash.h>

#include "fmt.h"
#include "pebs_format.h"

uint64_t fmt_checksum(uint32_t tag, const void *payload, uint64_t len)
{
	return XXH3_64bits_withSeed(payload, (size_t)len,
				    (uint64_t)tag << 32 ^ len);
}

uint64_t fmt_hash(const void *p, uint64_t len, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, (size_t)len, seed);
}

/*
 * The encoder's statistics of @n >= 1 values at @v (u64 or u32, taken as
 * u64): min, max, OR of the zigzagged neighbour differences into st[0..2].
 */
#define STAT_LOOP(v, n, st)						\
	do {								\
		uint64_t mn_ = (v)[0], mx_ = (v)[0], dor_ = 0;		\
		for (size_t i_ = 1; i_ < (n); i_++) {			\
			uint64_t x_ = (v)[i_], d_ = x_ - (v)[i_ - 1];	\
			mn_ = x_ < mn_ ? x_ : mn_;			\
			mx_ = x_ > mx_ ? x_ : mx_;			\
			dor_ |= (d_ << 1) ^ (0 - (d_ >> 63));		\
		}							\
		(st)[0] = mn_;						\
		(st)[1] = mx_;						\
		(st)[2] = dor_;						\
	} while (0)

/*
 * The kernels, as a macro instantiated per target.  Width-specialised
 * unpacking lets the compiler see constant trip counts for the plane loop.
 */
#define KERNELS(SFX, ATTR)						\
static ATTR int unpack_##SFX(const uint8_t *p, size_t n, unsigned w,	\
			     uint64_t add, uint64_t lim, uint64_t *out) \
{									\
	uint64_t bad = 0;						\
	if (w == 1) {							\
		/* a byte maximum: 32 bytes an instruction, not 4 */	\
		uint8_t mx = 0;						\
		for (size_t i = 0; lim < 255 && i < n; i++)		\
			mx = p[i] > mx ? p[i] : mx;			\
		for (size_t i = 0; i < n; i++)				\
			out[i] = add + p[i];				\
		return mx > lim;					\
	}								\
	for (size_t i = 0; i < n; i++)					\
		out[i] = p[i];						\
	for (unsigned k = 1; k + 1 < w; k++) {				\
		const uint8_t *q = p + (size_t)k * n;			\
		unsigned s = 8 * k;					\
		for (size_t i = 0; i < n; i++)				\
			out[i] += (uint64_t)q[i] << s;			\
	}								\
	/* the last plane completes each value: it is checked there */	\
	const uint8_t *q = p + (size_t)(w - 1) * n;			\
	unsigned s = 8 * (w - 1);					\
	for (size_t i = 0; i < n; i++) {				\
		uint64_t u = out[i] + ((uint64_t)q[i] << s);		\
		bad |= (uint64_t)(u > lim);				\
		out[i] = add + u;					\
	}								\
	return bad != 0;						\
}									\
static ATTR uint32_t unpack32_##SFX(const uint8_t *p, size_t n,	\
				    unsigned w, uint32_t add,		\
				    uint32_t *out)			\
{									\
	uint32_t mx = 0;						\
	unsigned top = w < 4 ? w - 1 : 3;				\
	if (!top) {							\
		for (size_t i = 0; i < n; i++) {			\
			uint32_t u = p[i];				\
			mx = u > mx ? u : mx;				\
			out[i] = add + u;				\
		}							\
		return mx;						\
	}								\
	for (size_t i = 0; i < n; i++)					\
		out[i] = p[i];						\
	for (unsigned k = 1; k < top; k++) {				\
		const uint8_t *q = p + (size_t)k * n;			\
		unsigned s = 8 * k;					\
		for (size_t i = 0; i < n; i++)				\
			out[i] += (uint32_t)q[i] << s;			\
	}								\
	const uint8_t *q = p + (size_t)top * n;				\
	for (size_t i = 0; i < n; i++) {				\
		uint32_t u = out[i] + ((uint32_t)q[i] << 8 * top);	\
		mx = u > mx ? u : mx;					\
		out[i] = add + u;					\
	}								\
	return mx;							\
}									\
static ATTR uint32_t dgather_##SFX(const uint64_t *dict, const uint8_t *p, \
				    size_t n, unsigned w, uint64_t *out) \
{									\
	uint32_t mx = 0;						\
	if (w == 1) {							\
		for (size_t i = 0; i < n; i++) {			\
			uint32_t x = p[i];				\
			mx = x > mx ? x : mx;				\
			out[i] = dict[x];				\
		}							\
		return mx;						\
	}								\
	const uint8_t *q = p + n;					\
	for (size_t i = 0; i < n; i++) {				\
		uint32_t x = p[i] | (uint32_t)q[i] << 8;		\
		mx = x > mx ? x : mx;					\
		out[i] = dict[x];					\
	}								\
	return mx;							\
}									\
static ATTR int undelta_##SFX(uint64_t *v, size_t n, uint64_t base)	\
{									\
	uint64_t odd = 0, zor = 0;					\
	for (size_t i = 0; i < n; i++) {				\
		odd |= v[i] & 1;					\
		zor |= v[i];						\
		v[i] = (v[i] >> 1) ^ (0 - (v[i] & 1));			\
	}								\
	uint64_t prev = base;						\
	for (size_t i = 0; i < n; i++) {				\
		prev += v[i];						\
		v[i] = prev;						\
	}								\
	/* no negative delta, and n of the largest stay below 2^64 */	\
	uint64_t dmax = zor >> 1;					\
	return !odd && (!dmax || n <= (UINT64_MAX - base) / dmax);	\
}									\
static ATTR void gather_##SFX(const uint64_t *dict, const uint64_t *idx, \
			      size_t n, uint64_t *out)			\
{									\
	for (size_t i = 0; i < n; i++)					\
		out[i] = dict[idx[i]];					\
}									\
static ATTR int narrow_##SFX(const uint64_t *in, size_t n, uint64_t lo, \
			     uint64_t span, uint32_t *out)		\
{									\
	uint64_t bad = 0;						\
	for (size_t i = 0; i < n; i++) {				\
		bad |= (uint64_t)(in[i] - lo > span);			\
		out[i] = (uint32_t)in[i];				\
	}								\
	return bad != 0;						\
}									\
static ATTR int outside_##SFX(const uint64_t *v, size_t n, uint64_t lo, \
			      uint64_t span)				\
{									\
	uint64_t bad = 0;						\
	for (size_t i = 0; i < n; i++)					\
		bad |= (uint64_t)(v[i] - lo > span);			\
	return bad != 0;						\
}									\
static ATTR void stat_##SFX(const uint64_t *v, size_t n, uint64_t *st) \
{									\
	STAT_LOOP(v, n, st);						\
}									\
static ATTR void pack_##SFX(const uint64_t *v, size_t n, unsigned w,	\
			    uint64_t sub, uint8_t *planes)		\
{									\
	for (unsigned k = 0; k < w; k++) {				\
		uint8_t *p = planes + (size_t)k * n;			\
		unsigned s = 8 * k;					\
		for (size_t i = 0; i < n; i++)				\
			p[i] = (uint8_t)((v[i] - sub) >> s);		\
	}								\
}									\
static ATTR void stat32_##SFX(const uint32_t *v, size_t n, uint64_t *st) \
{									\
	STAT_LOOP(v, n, st);						\
}									\
static ATTR void top_pack_##SFX(const uint8_t *restrict p, size_t n,	\
				unsigned tp, uint8_t *restrict out)	\
{									\
	size_t nq = n >> tp, i;						\
	if (tp == 1)							\
		for (size_t q = 0; q < nq; q++)				\
			out[q] = (uint8_t)(p[2 * q] | p[2 * q + 1] << 4); \
	else if (tp == 2)						\
		for (size_t q = 0; q < nq; q++)				\
			out[q] = (uint8_t)(p[4 * q] | p[4 * q + 1] << 2 | \
					   p[4 * q + 2] << 4 |		\
					   p[4 * q + 3] << 6);		\
	else								\
		for (size_t q = 0; q < nq; q++)				\
			out[q] = (uint8_t)(p[8 * q] | p[8 * q + 1] << 1 | \
					   p[8 * q + 2] << 2 |		\
					   p[8 * q + 3] << 3 |		\
					   p[8 * q + 4] << 4 |		\
					   p[8 * q + 5] << 5 |		\
					   p[8 * q + 6] << 6 |		\
					   p[8 * q + 7] << 7);		\
	if ((i = nq << tp) < n) {					\
		unsigned b = 0;						\
		for (unsigned s = 0; i < n; i++, s += 8u >> tp)	\
			b |= (unsigned)p[i] << s;			\
		out[nq] = (uint8_t)b;					\
	}								\
}									\
static ATTR void top_unpack_##SFX(const uint8_t *restrict pk, size_t n, \
				  unsigned tp, uint8_t *restrict out)	\
{									\
	size_t nq = n >> tp, i;						\
	if (tp == 1)							\
		for (size_t q = 0; q < nq; q++) {			\
			out[2 * q] = pk[q] & 15;			\
			out[2 * q + 1] = pk[q] >> 4;			\
		}							\
	else if (tp == 2)						\
		for (size_t q = 0; q < nq; q++) {			\
			out[4 * q] = pk[q] & 3;				\
			out[4 * q + 1] = pk[q] >> 2 & 3;		\
			out[4 * q + 2] = pk[q] >> 4 & 3;		\
			out[4 * q + 3] = pk[q] >> 6;			\
		}							\
	else								\
		for (size_t q = 0; q < nq; q++)				\
			for (unsigned j = 0; j < 8; j++)		\
				out[8 * q + j] = pk[q] >> j & 1;	\
	for (i = nq << tp; i < n; i++)					\
		out[i] = (uint8_t)(pk[nq] >> (8u >> tp) *		\
				   (unsigned)(i - (nq << tp)) &		\
				   ((1u << (8u >> tp)) - 1));		\
}									\
static const struct fmt_kernels k_##SFX = {				\
	#SFX, unpack_##SFX, undelta_##SFX, gather_##SFX, narrow_##SFX,	\
	stat_##SFX, unpack32_##SFX, dgather_##SFX, pack_##SFX,		\
	stat32_##SFX, top_pack_##SFX, top_unpack_##SFX, outside_##SFX	\
};

#if defined(__GNUC__) && !defined(__clang__)
#define NOVEC __attribute__((optimize("no-tree-vectorize")))
#else
#define NOVEC
#endif

KERNELS(scalar, NOVEC)
#if defined(__x86_64__)
#define HAVE_X86 1
KERNELS(sse42, __attribute__((target("sse4.2"))))
KERNELS(avx2, __attribute__((target("avx2"))))
#endif

const struct fmt_kernels *fmt_k = &k_scalar;

const char *pebs_codec_select(int force_scalar)
{
	fmt_k = &k_scalar;
#ifdef HAVE_X86
	if (!force_scalar) {
		__builtin_cpu_init();
		if (__builtin_cpu_supports("avx2"))
			fmt_k = &k_avx2;
		else if (__builtin_cpu_supports("sse4.2"))
			fmt_k = &k_sse42;
	}
#else
	(void)force_scalar;
#endif
	return fmt_k->name;
}

/* Picks the best kernels before main(), honouring PEBS_SCALAR=1. */
__attribute__((constructor)) static void codec_init(void)
{
	const char *e = getenv("PEBS_SCALAR");
	pebs_codec_select(e && *e == '1');
}
