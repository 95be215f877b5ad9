/*
 * util_segout.c - one output segment per input segment, with the input
 * segment's start as time.origin (util_segout.h).
 */
#include <stdlib.h>

#include "util.h"
#include "util_segout.h"

void util_segout_init(struct util_segout *so, FILE *fp, const char *path,
		      const struct pebs_writer_opts *wo)
{
	*so = (struct util_segout){ .fp = fp, .path = path };
	if (wo)
		so->wo = *wo;
}

/* Opens the held segment, time.origin @t0 added when @known. */
static void open_held(struct util_segout *so, int known, uint64_t t0)
{
	if (known && !pebs_meta_get(so->held, "time.origin") &&
	    pebs_meta_setf(so->held, "time.origin", "%llu",
			   (unsigned long long)t0) < 0)
		util_die(EXIT_SYS, "out of memory");
	util_writer_check(NULL, pebs_writer_open(&so->w, so->fp, so->held,
						 &so->wo), so->path);
	pebs_meta_free(so->held);
	so->held = NULL;
	for (size_t i = 0; i < so->nlost; i++)
		util_writer_check(so->w, pebs_writer_lost(so->w,
				  so->lost[i].cpu, so->lost[i].time,
				  so->lost[i].count), so->path);
	so->nlost = 0;
}

/* Ends the segment being written: one still held has no samples, so no
 * `t` to keep. */
static void end(struct util_segout *so)
{
	if (so->held)
		open_held(so, 0, 0);
	if (so->w)
		util_writer_check(NULL, pebs_writer_close(so->w), so->path);
	so->w = NULL;
}

/* Starts a segment of metadata @m (copied, then decorated). */
static void start(struct util_segout *so, const struct pebs_meta *m)
{
	end(so);
	so->held = pebs_meta_new();
	if (!so->held || pebs_meta_copy(so->held, m) < 0 ||
	    (so->decorate && so->decorate(so->ctx, so->held) < 0))
		util_die(EXIT_SYS, "out of memory");
	so->started = 1;
}

void util_segout_next(struct util_segout *so, const struct pebs_reader *r,
		      const struct pebs_meta *m, const struct pebs_batch *b)
{
	if (!so->started || b->source != so->src || b->segment != so->seg)
		start(so, m);
	so->src = b->source;
	so->seg = b->segment;
	uint64_t t0;
	/*
	 * Unknown only for a LOST chunk before the segment's first block:
	 * the HEAD waits for the first batch of samples, which knows it.
	 */
	if (so->held && r && pebs_reader_segment_start(r, &t0))
		open_held(so, 1, t0);
}

struct pebs_writer *util_segout_writer(struct util_segout *so)
{
	if (so->held)
		open_held(so, 0, 0);
	return so->w;
}

void util_segout_lost(struct util_segout *so, uint32_t cpu, uint64_t time,
		      uint64_t count)
{
	if (!so->held) {
		util_writer_check(so->w, pebs_writer_lost(so->w, cpu, time,
							  count), so->path);
		return;
	}
	if (so->nlost == so->lostcap) {
		size_t nc = so->lostcap ? 2 * so->lostcap : 16;
		struct util_segout_lost *nl = realloc(so->lost,
						      nc * sizeof(*nl));
		if (!nl)
			util_die(EXIT_SYS, "out of memory");
		so->lost = nl;
		so->lostcap = nc;
	}
	so->lost[so->nlost++] = (struct util_segout_lost){ cpu, time, count };
}

void util_segout_empty(struct util_segout *so, const struct pebs_meta *m)
{
	if (!so->started)
		start(so, m);
}

void util_segout_idle(struct util_segout *so)
{
	if (so->w)
		util_writer_check(so->w, pebs_writer_flush(so->w), so->path);
	util_idle_out(so->fp, so->path);
}

void util_segout_close(struct util_segout *so)
{
	end(so);
	free(so->lost);
	so->lost = NULL;
	so->nlost = so->lostcap = 0;
}
