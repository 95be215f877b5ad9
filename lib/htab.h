/*
 * htab.h - a u64 -> u64 open-addressing table (key + 1 stored, so 0 means
 * empty: the key UINT64_MAX cannot be stored), at most half full; the
 * perf.data reader's and writer's; internal.
 */
#ifndef PEBS_HTAB_H
#define PEBS_HTAB_H

#include <stdint.h>
#include <stdlib.h>

#include "pebs.h"

struct htab {
	uint64_t *k, *v;
	size_t cap, n;
};

/*
 * The first slot of stored key @k in a table of @cap (a power of two)
 * slots: the top bits of k * 2^64/phi (Fibonacci hashing), which every bit
 * of @k moves.  Bits 7 and up of the product, as taken before, depend only
 * on k's low bits, so keys pid << 32 | tid that differ in pid alone all
 * started at one slot and each insert probed past all the others
 * (quadratic).
 */
static inline size_t ht_index(uint64_t k, size_t cap)
{
	return cap < 2 ? 0 : (size_t)((k * 0x9e3779b97f4a7c15ull) >>
				      (64 - __builtin_ctzll(cap)));
}

/* Doubles @h (64 slots at first).  0 or -PEBS_E_NOMEM. */
static inline int ht_grow(struct htab *h)
{
	size_t nc = h->cap ? h->cap * 2 : 64;
	uint64_t *nk = calloc(nc, 8), *nv = calloc(nc, 8);
	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -PEBS_E_NOMEM;
	}
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->k[i])
			continue;
		size_t j = ht_index(h->k[i], nc);
		while (nk[j])
			j = (j + 1) & (nc - 1);
		nk[j] = h->k[i];
		nv[j] = h->v[i];
	}
	free(h->k);
	free(h->v);
	h->k = nk;
	h->v = nv;
	h->cap = nc;
	return 0;
}

/*
 * The value of @key in @h; with @create, a new entry (value 0) when there
 * is none.  NULL when absent (or out of memory with @create).
 */
static inline uint64_t *ht_slot(struct htab *h, uint64_t key, int create)
{
	if (create && (h->n + 1) * 2 > h->cap && ht_grow(h) < 0)
		return NULL;
	if (!h->cap)
		return NULL;
	uint64_t k = key + 1;
	size_t j = ht_index(k, h->cap);
	while (h->k[j]) {
		if (h->k[j] == k)
			return &h->v[j];
		j = (j + 1) & (h->cap - 1);
	}
	if (!create)
		return NULL;
	h->k[j] = k;
	h->v[j] = 0;
	h->n++;
	return &h->v[j];
}

/* Frees @h's arrays. */
static inline void ht_free(struct htab *h)
{
	free(h->k);
	free(h->v);
}

#endif
