/*
 * radix.c - sorting (u64 key, u32 payload) pairs (internal to lib/): c2c's
 * YAML merge, pebs-hist's groups in output order.
 */
#include <stdlib.h>

#include "pebs.h"
#include "radix.h"

/*
 * 11-bit digits, and a digit equal in every key is skipped (line keys of
 * one program share their high bits).
 */
int lib_radix_sort(uint64_t **k, uint32_t **p, uint64_t **kt,
		   uint32_t **pt, size_t n)
{
	enum { BITS = 11, NB = 1 << BITS, ND = (64 + BITS - 1) / BITS };
	size_t (*cnt)[NB] = calloc(ND, sizeof(*cnt));
	if (!cnt)
		return -PEBS_E_NOMEM;
	const uint64_t *ks = *k;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = ks[i];
		for (unsigned d = 0; d < ND; d++)
			cnt[d][(x >> (d * BITS)) & (NB - 1)]++;
	}
	for (unsigned d = 0; d < ND; d++) {
		size_t pos = 0;
		int skip = 0;
		for (unsigned b = 0; b < NB; b++) {
			size_t x = cnt[d][b];
			skip |= x == n;
			cnt[d][b] = pos;
			pos += x;
		}
		if (skip)
			continue;
		uint64_t *a = *k, *at = *kt;
		uint32_t *q = *p, *qt = *pt;
		size_t *c = cnt[d];
		unsigned sh = d * BITS;
		for (size_t i = 0; i < n; i++) {
			size_t j = c[(a[i] >> sh) & (NB - 1)]++;
			at[j] = a[i];
			qt[j] = q[i];
		}
		*k = at;
		*kt = a;
		*p = qt;
		*pt = q;
	}
	free(cnt);
	return 0;
}
