/*
 * meta_int.h - values of well-known metadata keys read with the syntax
 * formats/pebs-format.md section 9 gives them (internal to lib/): one
 * reading for pebs_meta_check() and for every reader of the key.
 */
#ifndef PEBS_META_INT_H
#define PEBS_META_INT_H

#include <stdint.h>

#include "pebs_format.h"

/*
 * tsc.hz of @m (may be NULL): its value when it is a decimal integer
 * above 0 that fits 64 bits (digits only), else 0, as if missing.  *@bad
 * (when non-NULL) becomes a tsc.hz that is there but not such a number,
 * else NULL, so that a message can say it is malformed rather than
 * missing.
 */
uint64_t meta_tsc_hz(const struct pebs_meta *m, const char **bad);

/*
 * time.origin of @m (may be NULL), where a time since the segment's start
 * (pebs-filter's `t`) counts from: 1 and *@v when it is a decimal integer
 * that fits 64 bits (digits only, 0 included), 0 when it is missing (the
 * start is then the smallest time stamp of the segment's first block),
 * -1 when it is there but not such a number.  *@bad (when non-NULL)
 * becomes that malformed value, else NULL.
 */
int meta_time_origin(const struct pebs_meta *m, uint64_t *v,
		     const char **bad);

/*
 * A number of @m that no other metadata object of the process ever had
 * (0 for NULL): what tells segments apart where a pointer cannot, as one
 * freed and the next allocated at its address (pebs_expr's segment
 * starts, kept across readers).
 */
uint64_t meta_serial(const struct pebs_meta *m);

/*
 * 1 when a map of @path (a maps.N.path) has no symbols to keep it for:
 * anonymous memory, devices, SysV and memfd segments, [heap], [stack]
 * and an empty path.  pebs-import -f perf and the capture leave such
 * maps out (a busy server has thousands); the capture more besides.
 */
int meta_map_useless(const char *path);

/*
 * Drops every entry of @m after its first @n (none when it has no more),
 * so that a reader can give its metadata other trailing keys while the
 * pointer its callers hold stays valid (pebs-import -f perf's segments:
 * maps.* and comm.* of each).
 */
void meta_truncate(struct pebs_meta *m, size_t n);

#endif
