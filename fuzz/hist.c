/*
 * fuzz/hist.c - pebs-hist --merge on arbitrary YAML: a histogram of the
 * first document's field, group key and filter, the input merged into it
 * (from the text, and as a stream read in pieces: the same), then write
 * every format;
 * merging that histogram in memory into an empty one (as pebs-hist's
 * decode threads are merged) must keep every count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pebs_hist.h"
#include "pieces.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The merge of the stream (pebs-hist --merge) into the histogram its
 * head makes.  Whether an error is found before or after the head can
 * depend on how far the parser decoded ahead, but a valid input merges,
 * the same, read either way.  Returns it, or NULL.
 */
static struct pebs_hist *streamed(const uint8_t *data, size_t size)
{
	char err[256];
	struct pieces p = { data, size, 0, pieces_step(size) };
	struct pebs_hist *s = NULL;
	if (pebs_hist_merge_yaml_read(&s, pieces_read, &p, err,
				      sizeof(err)) < 0) {
		pebs_hist_free(s);
		return NULL;
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct pebs_hist *h, *s = streamed(data, size);
	if (pebs_hist_yaml_new(&h, (const char *)data, size, err,
			       sizeof(err)) < 0) {
		if (s)
			abort();
		return 0;
	}
	int field = pebs_hist_field(h), by = pebs_hist_by(h);
	int r = pebs_hist_merge_yaml(h, (const char *)data, size, err,
				     sizeof(err));
	if (!r != !!s || (s && (pebs_hist_total(s) != pebs_hist_total(h) ||
				pebs_hist_ngroups(s) != pebs_hist_ngroups(h))))
		abort();
	pebs_hist_free(s);
	if (r == 0) {
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
			r = pebs_hist_set_where(m, pebs_hist_where(h));
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
