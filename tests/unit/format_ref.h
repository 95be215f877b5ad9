/* A deliberately plain block decoder written from formats/pebs-format.md. */
#ifndef FORMAT_REF_H
#define FORMAT_REF_H
#include <stddef.h>
#include <stdint.h>
#include "pebs.h"
/*
 * Decodes block chunk @c (@len bytes) into @cols[col][i] (each array of
 * PEBS_BATCH_MAX u64, zeroed by the caller) and returns the sample count,
 * or -1 if malformed, if a column checksum table (bflags bit 0) does not
 * match, or if a KEYED column's key column is unknown to it (it decodes
 * every column).  Event names are not returned.
 */
long ref_decode_block(const uint8_t *c, size_t len, uint64_t **cols);
#endif
