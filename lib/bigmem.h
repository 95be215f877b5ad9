/*
 * bigmem.h - large arrays in their own mappings (internal to lib/).
 */
#ifndef PEBS_BIGMEM_H
#define PEBS_BIGMEM_H

#include <stddef.h>

/*
 * realloc() for large arrays: each has its own mapping, grown without
 * copying, on huge pages past 512 KiB; a fresh one (@p NULL) is zeroed.
 * NULL on failure (@p kept).  Free with lib_big_free() only.
 * Keep no pointers to malloc'd memory in them: LeakSanitizer does not look
 * for pointers in private mappings, and reports what they hold as leaked.
 */
void *lib_big_realloc(void *p, size_t n);
void lib_big_free(void *p);

#endif
