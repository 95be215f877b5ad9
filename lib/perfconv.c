/*
 * perfconv.c - perf.data -> .pebs glue used by pebs-import -f perf (the
 * other way, pebs_perf_writer_add_batch(), is the writer's: perfwrite.c),
 * and the TSX conversions both directions share: the `tsx` column is the
 * PEBS TSX tuning field, perf's PERF_SAMPLE_TRANSACTION what the kernel
 * derives from it and AX, and perf's WEIGHT of a non-latency event its
 * cycles (bits 31:0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_perf.h"

static int wfail(struct pebs_writer *w, int r, char *err, size_t errlen,
		 int *write_failed)
{
	*write_failed = 1;
	snprintf(err, errlen, "%s", w && *pebs_writer_errmsg(w) ?
		 pebs_writer_errmsg(w) : pebs_strerror(r));
	return r;
}

uint64_t pebs_perf_txn_from_tuning(uint64_t tuning, uint64_t ax)
{
	uint64_t txn = (tuning & 0xff00000000ull) >> 32;
	if ((txn & PEBS_PERF_TXN_TRANSACTION) && (ax & 1))
		txn |= ((ax >> 24) & 0xff) << PEBS_PERF_TXN_ABORT_SHIFT;
	return txn;
}

int pebs_perf_txn_to_tuning(uint64_t txn, uint64_t *tuning, uint64_t *ax)
{
	uint64_t code = txn >> PEBS_PERF_TXN_ABORT_SHIFT;
	*tuning = (txn & 0xff) << 32;
	*ax = 0;
	if (code && code <= 0xff && (txn & PEBS_PERF_TXN_TRANSACTION))
		*ax = code << 24 | 1;
	return pebs_perf_txn_from_tuning(*tuning, *ax) == txn;
}

/*
 * Linux ds.c gives a PEBS event the record's latency only for the load and
 * store latency events (flags PEBS_LDLAT, PEBS_STLAT: event codes 0x100B
 * on nhm/wsm, 0x01CD, 0x02CD, and Gracemont's 0x05D0 and 0x06D0); from
 * PEBS format 2 on, every other PEBS event gets the TSX weight
 * (intel_get_tsx_weight(): cycles of the last transactional block).  Not
 * precise (no PEBS), another vendor's PMU, a software, tracepoint or
 * breakpoint event, or a raw event of event select 0 (no event on Intel:
 * what our writer names samples without an event by) keep WEIGHT as the
 * latency it is elsewhere.
 */
int pebs_perf_weight_is_lat(uint32_t type, uint64_t config, unsigned precise,
			    const char *cpuid)
{
	uint64_t code = config & 0xffff;

	if (cpuid && strncmp(cpuid, "GenuineIntel,", 13) != 0)
		return 1;
	if (!(precise & 3) || type == 1 || type == 2 || type == 5)
		return 1;
	if (type == 0 || type == 3)	/* generic: never latency */
		return 0;
	return (code & 0xff) == 0 || code == 0x100b || code == 0x01cd ||
	       code == 0x02cd || code == 0x05d0 || code == 0x06d0;
}

/*
 * Starts a segment on @out with the metadata of @r's current segment plus
 * @extra, its events interned in file order so their ids are stable.
 * @origin (NULL for the first segment): the start of the import's time
 * line, for a segment that continues it (a rename), as its time.origin
 * unless @extra gives one.  0, or a negative error: *@w NULL when it could
 * not be opened.
 */
static int seg_open(struct pebs_writer **w, struct pebs_perf_reader *r,
		    FILE *out, const struct pebs_writer_opts *wo,
		    const struct pebs_meta *extra, const uint64_t *origin)
{
	*w = NULL;
	struct pebs_meta *m = pebs_meta_new();
	if (!m || pebs_meta_copy(m, pebs_perf_reader_meta(r)) < 0 ||
	    (extra && pebs_meta_copy(m, extra) < 0) ||
	    (origin && !pebs_meta_get(m, "time.origin") &&
	     pebs_meta_setf(m, "time.origin", "%llu",
			    (unsigned long long)*origin) < 0)) {
		pebs_meta_free(m);
		return -PEBS_E_NOMEM;
	}
	int we = pebs_writer_open(w, out, m, wo);
	pebs_meta_free(m);
	if (we < 0) {
		*w = NULL;
		return we;
	}
	for (unsigned i = 0; i < pebs_perf_reader_nevents(r); i++) {
		int id = pebs_writer_event(*w, pebs_perf_reader_event(r, i));
		if (id < 0)
			return id;
	}
	return 0;
}

int pebs_perf_import(FILE *in, const char *name, FILE *out,
		     const struct pebs_writer_opts *wo,
		     const struct pebs_meta *extra, char *err, size_t errlen,
		     int *write_failed)
{
	return pebs_perf_import_cb(in, name, out, wo, extra, NULL, NULL, err,
				   errlen, write_failed);
}

int pebs_perf_import_cb(FILE *in, const char *name, FILE *out,
			const struct pebs_writer_opts *wo,
			const struct pebs_meta *extra, pebs_perf_progress_fn fn,
			void *ctx, char *err, size_t errlen,
			int *write_failed)
{
	struct pebs_perf_reader *r;
	struct pebs_writer *w = NULL;
	struct pebs_perf_item it;
	int e, we = 0, have_origin = 0;
	uint64_t origin = 0, nsamples = 0;
	*write_failed = 0;
	e = pebs_perf_reader_open(&r, in, name, NULL);
	if (e < 0) {
		snprintf(err, errlen, "%s", r ? pebs_perf_reader_errmsg(r) :
			 pebs_strerror(e));
		pebs_perf_reader_close(r);
		return e;
	}
	we = seg_open(&w, r, out, wo, extra, NULL);
	if (we == -PEBS_E_NOMEM && !w) {
		pebs_perf_reader_close(r);
		snprintf(err, errlen, "out of memory");
		return we;
	}
	if (we < 0 && !w) {
		pebs_perf_reader_close(r);
		return wfail(NULL, we, err, errlen, write_failed);
	}
	struct pebs_batch *b = we ? NULL : pebs_batch_new(PEBS_BATCH_MAX);
	if (!we && !b)
		we = -PEBS_E_NOMEM;
	while (!we) {
		pebs_batch_reset(b);
		e = pebs_perf_reader_read(r, b, &it);
		if (b->n)
			we = pebs_writer_add_batch(w, b);
		nsamples += b->n;
		if (fn && b->n) {
			uint64_t done, total;
			pebs_perf_reader_progress(r, &done, &total);
			fn(ctx, nsamples, done, total);
		}
		if (!we && it.kind == PEBS_PERF_LOST)
			we = pebs_writer_lost(w, it.cpu, it.time, it.lost);
		if (!we && it.kind == PEBS_PERF_SEGMENT) {
			/*
			 * A rename splits one recording: `t` goes on from
			 * the first segment's start, not its own first block
			 * (formats/perf-import.md, section 1.2).
			 */
			we = pebs_writer_finish(w);
			if (!have_origin)
				have_origin = pebs_writer_first_time(w,
								     &origin);
			if (!we) {
				/* finished: closing cannot fail */
				pebs_writer_close(w);
				we = seg_open(&w, r, out, wo, extra,
					      have_origin ? &origin : NULL);
			}
		}
		if (e <= 0 && it.kind != PEBS_PERF_LOST &&
		    it.kind != PEBS_PERF_SEGMENT)
			break;
	}
	pebs_batch_free(b);
	if (we < 0) {
		wfail(w, we, err, errlen, write_failed);
		if (w)	/* NULL: a continuation segment failed to open */
			pebs_writer_close(w);
		pebs_perf_reader_close(r);
		return we;
	}
	if (e < 0)
		snprintf(err, errlen, "%s", pebs_perf_reader_errmsg(r));
	pebs_perf_reader_close(r);
	we = pebs_writer_close(w);
	if (we < 0 && e >= 0)
		return wfail(NULL, we, err, errlen, write_failed);
	return e < 0 ? e : 0;
}
