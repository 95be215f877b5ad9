/*
 * Fuzz target: CSV import on arbitrary bytes, fed in two pieces (the first
 * byte picks the split, so line and quote state crosses a feed boundary).
 * Whatever imports is then written as CSV with every field, imported and
 * written again: the two texts must be equal (pebs-import is the exact
 * inverse of pebs-decode -f csv), else abort().  A comm column's names go
 * to a callback, which checks what pebs_csvin.h promises of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_csvin.h"
#include "pebs_field.h"
#include "pebs_output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int b_event(void *ctx, const char *name)
{
	return pebs_batch_intern(ctx, name);
}

static int b_sample(void *ctx, const struct pebs_sample *s)
{
	return pebs_batch_push(ctx, s);
}

static struct pebs_csvin *cur;

static int b_comm(void *ctx, uint64_t line, const struct pebs_sample *s,
		  const char *name)
{
	(void)ctx;
	(void)s;
	/* a name, not "" nor [unknown], only where the header has comm */
	if (!line || !*name || strcmp(name, "[unknown]") == 0 ||
	    !pebs_csvin_has_comm(cur))
		abort();
	return 0;
}

static int import(struct pebs_batch *b, const char *p, size_t n, size_t cut)
{
	struct pebs_csvin_sink sk = { b_event, b_sample, b };
	struct pebs_csvin *c;
	if (pebs_csvin_open(&c, &sk) < 0)
		return -1;
	pebs_csvin_set_comm(c, b_comm);
	cur = c;
	int r = pebs_csvin_feed(c, p, cut);
	if (r == 0)
		r = pebs_csvin_feed(c, p + cut, n - cut);
	int e = pebs_csvin_end(c);
	pebs_csvin_close(c);
	return r ? r : e;
}

static char *to_csv(const struct pebs_batch *b, size_t *len)
{
	static int ids[128];
	static size_t nids;
	const struct pebs_field *f;
	char *out = NULL;
	if (!nids)
		for (size_t i = 0; (f = pebs_field_at(i)) && nids < 128; i++)
			ids[nids++] = f->id;
	FILE *fp = open_memstream(&out, len);
	if (!fp)
		abort();
	struct pebs_output *o = pebs_output_open(PEBS_OUT_CSV, ids, nids, 0,
						 fp);
	if (!o || pebs_output_batch(o, b) || pebs_output_close(o))
		abort();
	fclose(fp);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pebs_batch *a, *b;
	if ((!a && !(a = pebs_batch_new(4096))) ||
	    (!b && !(b = pebs_batch_new(4096))))
		return 0;
	pebs_batch_reset(a);
	pebs_batch_reset(b);
	if (size == 0) {
		import(a, "", 0, 0);	/* an empty input is valid */
		return 0;
	}
	size_t cut = data[0] % size;
	const char *p = (const char *)data + 1;
	size_t n = size - 1;
	if (cut > n)
		cut = n;
	if (import(a, p, n, cut) != 0 || a->n == 0)
		return 0;
	size_t l1, l2;
	char *t1 = to_csv(a, &l1);
	if (import(b, t1, l1, l1 / 2) != 0)
		abort();
	char *t2 = to_csv(b, &l2);
	if (l1 != l2 || memcmp(t1, t2, l1))
		abort();
	free(t1);
	free(t2);
	return 0;
}
