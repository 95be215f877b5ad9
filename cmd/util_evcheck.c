/*
 * util_evcheck.c - warns once of each event name of an expression that
 * matches no event of an input (util_evcheck.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util_evcheck.h"

/* Names listed in the message; the rest are counted. */
#define SHOWN_NAMES 8
/* An input with more distinct names than this is not checked. */
#define MAX_NAMES 4096

void util_evcheck_start(struct util_evcheck *c, const struct pebs_expr *e,
			const char *what)
{
	memset(c, 0, sizeof(*c));
	c->what = what;
	c->e = e && pebs_expr_unmatched_events(e, NULL, 0, NULL, 0) ? e :
	       NULL;
}

static void add(struct util_evcheck *c, const char *name)
{
	if (!name || c->n > MAX_NAMES)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		char **p = realloc(c->names, cap * sizeof(*p));
		if (!p)
			util_die(EXIT_SYS, "out of memory");
		c->names = p;
		c->cap = cap;
	}
	if (c->n == MAX_NAMES) {
		c->n++;		/* too many: no check */
		return;
	}
	if (!(c->names[c->n] = strdup(name)))
		util_die(EXIT_SYS, "out of memory");
	c->n++;
}

/* Warns about the names that match none of the input's; then forgets. */
static void check(struct util_evcheck *c, struct pebs_reader *r)
{
	struct pebs_expr_name bad[16];
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	/*
	 * Without the metadata's list, the names are those of the blocks
	 * read: a block skipped on its minimum and maximum (another clause
	 * of the expression) may hold the name, so say nothing once any
	 * block was skipped.  Not this input's skips only: decode threads
	 * decide ahead of what is delivered, so a count taken when the
	 * input's first batch arrived may already hold some of its skips.
	 */
	int known = !c->unlisted || st.skipped == 0;
	size_t nbad = c->have && known && c->n <= MAX_NAMES ?
		      pebs_expr_unmatched_events(c->e,
						 (const char *const *)c->names,
						 c->n, bad, 16) : 0;
	for (size_t i = 0; i < nbad && i < 16; i++) {
		/* a name given twice is one mistake */
		size_t w = 0;
		while (w < c->nwarned && strcmp(c->warned[w], bad[i].text))
			w++;
		if (w < c->nwarned)
			continue;
		const char **p = realloc(c->warned,
					 (c->nwarned + 1) * sizeof(*p));
		if (!p)
			util_die(EXIT_SYS, "out of memory");
		c->warned = p;
		c->warned[c->nwarned++] = bad[i].text;
		char list[1024] = "", safe[256];
		size_t len = 0;
		/* the input's names, which may hold a line end */
		for (size_t k = 0; k < c->n && k < SHOWN_NAMES &&
		     len < sizeof(list); k++)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", k ? ", " : "",
						util_safe(safe, sizeof(safe),
							  c->names[k]));
		if (c->n > SHOWN_NAMES && len < sizeof(list))
			snprintf(list + len, sizeof(list) - len,
				 ", and %zu more", c->n - SHOWN_NAMES);
		util_warn("%s: col %zu: \"%s\" matches no event of %s "
			  "(events: %s)", c->what, bad[i].col, bad[i].text,
			  pebs_reader_name(r, c->source),
			  c->n ? list : "none");
	}
	for (size_t i = 0; i < c->n && i < MAX_NAMES; i++)
		free(c->names[i]);
	c->n = 0;
	c->have = 0;
}

void util_evcheck_batch(struct util_evcheck *c, struct pebs_reader *r,
			const struct pebs_batch *b)
{
	if (!c->e)
		return;
	if (c->have && b->source != c->source)
		check(c, r);
	if (!c->have)
		c->unlisted = 0;
	if (!c->have || b->segment != c->segment) {
		/* each segment has metadata of its own */
		const struct pebs_meta *m = pebs_reader_meta(r);
		char key[48];
		size_t i = 0;
		for (;; i++) {
			snprintf(key, sizeof(key), "events.%zu.name", i);
			const char *v = pebs_meta_get(m, key);
			if (!v)
				break;
			add(c, v);
		}
		c->unlisted |= !i;
	}
	c->have = 1;
	c->source = b->source;
	c->segment = b->segment;
	for (uint32_t i = 0; i < b->nnames; i++)
		add(c, b->names[i]);
}

void util_evcheck_end(struct util_evcheck *c, struct pebs_reader *r,
		      int complete)
{
	if (c->e && complete)
		check(c, r);
	for (size_t i = 0; i < c->n && i < MAX_NAMES; i++)
		free(c->names[i]);
	free(c->names);
	free((void *)c->warned);
	memset(c, 0, sizeof(*c));
}

void util_expr_segment(struct pebs_expr *e, struct pebs_reader *r,
		       const struct pebs_batch *b, const char *what)
{
	struct pebs_expr_error err;
	int rc = pebs_expr_set_segment(e, pebs_reader_meta(r), b, &err);
	if (rc == -PEBS_E_NOMEM)
		util_die(EXIT_SYS, "out of memory");
	if (rc < 0 && b->segment)
		util_die(EXIT_USAGE, "%s: segment %u: %s: col %zu: %s",
			 pebs_reader_name(r, b->source), b->segment + 1, what,
			 err.col, err.msg);
	if (rc < 0)
		util_die(EXIT_USAGE, "%s: %s: col %zu: %s",
			 pebs_reader_name(r, b->source), what, err.col,
			 err.msg);
}
