/*
 * Fuzz target: the trace text format (formats/trace-format.md) on arbitrary
 * bytes, replayed through the cache model on a small machine.  Whatever
 * is read must be a well-formed stream (cycles nondecreasing, outcomes in
 * range, cpus inside the machine), and an error must come with a message
 * naming its line; else abort().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *fp = fmemopen((void *)data, size, "r");
	if (!fp)
		return 0;
	struct pebs_workload_opts o = { .seed = 1, .sockets = 2, .cores = 2,
					.accesses = 100000 };
	struct pebs_workload *w;
	if (workload_open_trace_fp(&w, fp, 1, "fuzz", &o) != 0)
		return 0;
	struct pebs_access a[64];
	uint64_t last = 0;
	long n;
	while ((n = pebs_workload_next(w, a, 64)) > 0) {
		for (long i = 0; i < n; i++) {
			if (a[i].cycle < last || a[i].cpu >= 4 ||
			    a[i].src >= PEBS_SRC_COUNT ||
			    a[i].src == PEBS_SRC_NONE || !a[i].size ||
			    a[i].size > 64)
				abort();
			last = a[i].cycle;
		}
	}
	/* Every error names its line, but a read error (trace-format.md). */
	if (n < 0 && strncmp(pebs_workload_errmsg(w), "line ", 5) != 0 &&
	    !(n == -PEBS_E_IO &&
	      strncmp(pebs_workload_errmsg(w), "read error: ", 12) == 0))
		abort();
	struct pebs_meta *m = pebs_meta_new();
	if (m && pebs_workload_meta(w, m) != 0)
		abort();
	pebs_meta_free(m);
	pebs_workload_close(w);
	return 0;
}
