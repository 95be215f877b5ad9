/*
 * util_fields.c - the --fields option of the tools that print samples.
 */
#include <stdio.h>
#include <string.h>

#include "pebs_field.h"
#include "pebs_output.h"
#include "util.h"

size_t util_parse_fields(const char *list, int *ids, size_t cap, int all)
{
	const char *bad;
	if (all && strcmp(list, "all") == 0) {
		const struct pebs_field *f;
		size_t n = 0;
		for (size_t i = 0; (f = pebs_field_at(i)) && n < cap; i++)
			ids[n++] = f->id;
		return n;
	}
	int n = pebs_field_parse_list(list, ids, cap, &bad);
	if (n >= 0)
		return (size_t)n;
	if (n == -PEBS_E_RANGE)
		util_die(EXIT_USAGE, "--fields: more than %zu fields", cap);
	size_t len = strcspn(bad, ",");
	if (len == 0)
		util_die(EXIT_USAGE, "--fields: empty field name");
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)len, bad);
	const char *sug = pebs_field_suggest(name);
	if (sug)
		util_die(EXIT_USAGE, "--fields: unknown field \"%.*s\" (did "
			 "you mean \"%s\"?)", (int)len, bad, sug);
	util_die(EXIT_USAGE, "--fields: unknown field \"%.*s\"", (int)len,
		 bad);
}

void util_check_fields(int fmt, const int *ids, size_t n)
{
	long i = pebs_output_find_repeat(fmt, ids, n);
	if (i < 0)
		return;
	util_die(EXIT_USAGE, "--fields: \"%s\" twice: yaml and jsonl keys "
		 "must be unique", pebs_field_by_id(ids[i])->name);
}
