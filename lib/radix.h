/*
 * radix.h - sorting (u64 key, u32 payload) pairs (internal to lib/).
 */
#ifndef PEBS_RADIX_H
#define PEBS_RADIX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sorts @n (key, payload) pairs by key (stable LSD radix); @kt, @pt are
 * scratch of @n entries, and the result may be left in swapped arrays:
 * read it from (*@k, *@p).  0 or -PEBS_E_NOMEM.
 */
int lib_radix_sort(uint64_t **k, uint32_t **p, uint64_t **kt, uint32_t **pt,
		   size_t n);

#endif
