/*
 * Fuzz target: the perf.data parser (file and pipe layouts, both byte
 * orders, features, side records, samples, reordering) on arbitrary bytes;
 * whatever it accepts is written again as a pipe-mode perf.data and parsed
 * a second time, which must then succeed with the same sample count.  The
 * bulk reader (pebs_perf_reader_read) must return as many samples as the
 * item reader.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pebs_perf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pebs_perf_reader *r;
	struct pebs_perf_item it;
	char *buf = NULL;
	size_t len = 0, n = 0;
	if (pebs_perf_reader_open_mem(&r, data, size, NULL) < 0) {
		pebs_perf_reader_close(r);
		return 0;
	}
	FILE *out = open_memstream(&buf, &len);
	struct pebs_perf_writer *w = NULL;
	if (out && pebs_perf_writer_open(&w, out, pebs_perf_reader_meta(r),
					 NULL) < 0) {
		pebs_perf_writer_close(w, NULL, 0);
		w = NULL;
	}
	int e;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		if (it.kind == PEBS_PERF_SAMPLE) {
			n++;
			if (w && pebs_perf_writer_add(w, &it.s, it.event) < 0)
				abort();
		}
	}
	pebs_perf_reader_close(r);
	if (pebs_perf_reader_open_mem(&r, data, size, NULL) < 0)
		abort();
	struct pebs_batch *b = pebs_batch_new(1000);
	if (!b)
		abort();
	size_t nb = 0;
	int eb;
	do {
		pebs_batch_reset(b);
		eb = pebs_perf_reader_read(r, b, &it);
		nb += b->n;
	} while (eb > 0 || it.kind == PEBS_PERF_LOST ||
		 it.kind == PEBS_PERF_SEGMENT);
	if (nb != n || (eb < 0) != (e < 0))
		abort();
	pebs_batch_free(b);
	pebs_perf_reader_close(r);
	if (w && pebs_perf_writer_close(w, NULL, 0) < 0)
		abort();
	if (out)
		fclose(out);
	if (w) {
		size_t m = 0;
		if (pebs_perf_reader_open_mem(&r, buf, len, NULL) < 0)
			abort();
		while ((e = pebs_perf_reader_next(r, &it)) > 0)
			m += it.kind == PEBS_PERF_SAMPLE;
		if (e < 0 || m != n)
			abort();
		pebs_perf_reader_close(r);
	}
	free(buf);
	return 0;
}
