/*
 * bigmem.h - large arrays in their own mappings (internal to lib/).
 */
#ifndef PEBS_BIGMEM_H
#define PEBS_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

/*
 * realloc() for large arrays: each has its own mapping, grown without
 * copying, on huge pages past 512 KiB; a fresh one (@p NULL) is zeroed.
 * NULL on failure (@p kept).  Free with lib_big_free() only.
 * Keep no pointers to malloc'd memory in them: LeakSanitizer does not look
 * for pointers in private mappings, and reports what they hold as leaked.
 */
void *lib_big_realloc(void *p, size_t n);

/*
 * The smallest power of two that is at least @n and @min (a power of
 * two): arrays sized to the blocks they serve come in a few sizes, so
 * they are reused rather than grown block by block.
 */
static inline size_t lib_big_pow2(size_t n, size_t min)
{
	while (min < n && min <= SIZE_MAX / 2)
		min *= 2;
	return min;
}
void lib_big_free(void *p);

#endif
