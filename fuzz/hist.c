/*
 * fuzz/hist.c - pebs-hist --merge on arbitrary YAML: a histogram of the
 * first document's field, group key and filter, the input merged into it, then write every format;
 * merging that histogram in memory into an empty one (as pebs-hist's
 * decode threads are merged) must keep every count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pebs_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct pebs_hist *h;
	if (pebs_hist_yaml_new(&h, (const char *)data, size, err,
			       sizeof(err)) < 0)
		return 0;
	int field = pebs_hist_field(h), by = pebs_hist_by(h);
	if (pebs_hist_merge_yaml(h, (const char *)data, size, err,
				 sizeof(err)) == 0) {
		struct pebs_hist_bins b;
		struct pebs_hist_pct p[3];
		int np = pebs_hist_pct_parse("0,50,99.9", p, 3);
		FILE *fp = fopen("/dev/null", "w");
		pebs_hist_bins_parse(size % 3 == 0 ? "log2" : size % 3 == 1 ?
				     "linear:7" : "1,10,100", &b);
		for (int f = PEBS_HIST_TEXT; fp && f <= PEBS_HIST_SVG; f++)
			pebs_hist_write(h, fp, f, &b, p, (size_t)np);
		if (fp)
			fclose(fp);
		struct pebs_hist *m;
		if (pebs_hist_new(&m, field, by) == 0) {
			int r = pebs_hist_set_where(m, pebs_hist_where(h));
			if (r == 0)
				r = pebs_hist_merge(m, h);
			if (r == 0 && (pebs_hist_total(m) != pebs_hist_total(h) ||
				       pebs_hist_ngroups(m) >
				       pebs_hist_ngroups(h)))
				abort();
			pebs_hist_free(m);
		}
	}
	pebs_hist_free(h);
	return 0;
}
