/*
 * capture_int.h - internals of the capture pipeline (not public): the
 * block-encoding worker pool of capture_enc.c.
 */
#ifndef PEBS_CAPTURE_INT_H
#define PEBS_CAPTURE_INT_H

#include <stddef.h>

#include "pebs.h"
#include "pebs_format.h"

#define CENC_MAX_THREADS 8

struct cap_enc;

/* Starts @threads workers (0 = encode inline) encoding at zstd @level
 * (0 = 3) batches of capacity @cap.  0 or -PEBS_E_NOMEM. */
int cenc_open(struct cap_enc **e, unsigned threads, int level, size_t cap);
/* An empty batch to fill (reused, or new; NULL when out of memory). */
struct pebs_batch *cenc_batch(struct cap_enc *e);
/*
 * Hands @b (ownership passes) to the encoders; blocks that are done are
 * written to @w in submission order (pebs_writer_copy_block).  *@werr
 * is set to 1 when the writer failed.  Returns 0 or a negative error.
 */
int cenc_submit(struct cap_enc *e, struct pebs_batch *b,
		struct pebs_writer *w, int *werr);
/* Waits for every submitted block and writes it.  0 or an error. */
int cenc_sync(struct cap_enc *e, struct pebs_writer *w, int *werr);
/* Stops the workers and frees everything.  NULL is fine. */
void cenc_close(struct cap_enc *e);

#endif
