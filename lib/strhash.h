/*
 * strhash.h - the string hash of libpebs's open-addressing tables (event
 * names of a batch, metadata keys, pebs-hist's text groups); internal.
 */
#ifndef PEBS_STRHASH_H
#define PEBS_STRHASH_H

#include <stdint.h>

/*
 * FNV-1a of @s, its high half folded into the low one: the tables take
 * the low bits as the slot.  Names are short, and at most half full the
 * tables see few collisions.
 */
static inline uint64_t lib_str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h ^ (h >> 32);
}

#endif
