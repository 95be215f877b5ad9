/*
 * expr_select.c - copying the samples a selection vector names.
 */
#include <string.h>

#include "pebs_expr.h"

int pebs_expr_select(struct pebs_batch *dst, const struct pebs_batch *src,
		     const uint32_t *sel, size_t n, uint64_t cols)
{
	if (n > dst->cap)
		return -PEBS_E_RANGE;
	pebs_batch_reset(dst);
	/* same dictionary order, so event ids stay valid as they are */
	for (uint32_t i = 0; i < src->nnames; i++) {
		int r = pebs_batch_intern(dst, src->names[i]);
		if (r < 0)
			return r;
	}
	/*
	 * dst->dirty is kept exact: a column zeroed is cleared whole, once,
	 * and then left alone while it stays absent, so that the writer
	 * copies (and the pages hold) only the columns gathered.
	 */
	uint64_t dirty = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		int want = c >= 64 || ((cols ? cols : ~0ull) >> c & 1);
		/* absent and unwanted columns are zero: nothing to gather */
		if (!want || (c < 64 && !(src->present >> c & 1))) {
			if (c < 64 && !(dst->dirty >> c & 1))
				continue;
			if (src->c64[c])
				memset(dst->c64[c], 0,
				       dst->cap * sizeof(uint64_t));
			else
				memset(dst->c32[c], 0,
				       dst->cap * sizeof(uint32_t));
		} else if (src->c64[c]) {
			for (size_t i = 0; i < n; i++)
				dst->c64[c][i] = src->c64[c][sel[i]];
			dirty |= c < 64 ? 1ull << c : 0;
		} else {
			for (size_t i = 0; i < n; i++)
				dst->c32[c][i] = src->c32[c][sel[i]];
			dirty |= c < 64 ? 1ull << c : 0;
		}
	}
	dst->dirty = dirty;
	dst->n = n;
	dst->present = src->present & (cols ? cols : ~0ull);
	return 0;
}
