/*
 * util_fields.c - the --fields option of the tools that print samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_field.h"
#include "pebs_output.h"
#include "util.h"

/*
 * One line of meaning per field, for --fields help; the names come from
 * the library's table (pebs_field_at(), then the symbol fields), so a
 * field added there is listed even before it is described here.  The
 * register columns share one meaning.
 */
static const struct { const char *name, *what; } meaning[] = {
	{ "time", "timestamp: TSC ticks or ns, as metadata time.unit says" },
	{ "cpu", "logical CPU" },
	{ "pid", "process, 0 where unknown" },
	{ "tid", "thread, 0 where unknown" },
	{ "event", "name of the event that produced the sample" },
	{ "ip", "instruction address (the EventingIP where recorded)" },
	{ "addr", "data linear address, 0 where none" },
	{ "lat", "load latency in core cycles (perf: weight)" },
	{ "ins_lat", "instruction latency where reported, else 0" },
	{ "dsrc", "data source, in the layout of perf_mem_data_src" },
	{ "raw_dse", "raw data-source or store-status bits of the record" },
	{ "fmt", "PEBS record format the sample came from" },
	{ "applicable", "applicable-counter bits of the record" },
	{ "tsx", "TSX tuning information of the record" },
	{ "phys_addr", "physical data address (flag 0x2)" },
	{ "flags", "0x1 registers, 0x2 phys_addr, 0x4 EventingIP, 0x8 own "
		   "TSC" },
	{ "op", "load, store, pfetch, exec or na (from dsrc)" },
	{ "mem", "where the access was satisfied: L1, LFB, L2, L3, "
		 "LOCAL_RAM, ..." },
	{ "snoop", "none, hit, miss, hitm, fwd or na (from dsrc)" },
	{ "tlb", "hit, miss or na (from dsrc)" },
	{ "lock", "locked, no or na (from dsrc)" },
	{ "line", "addr rounded down to 64 bytes" },
	{ "page", "addr rounded down to 4096 bytes" },
	{ "sym", "function+offset of ip (from the capture's maps)" },
	{ "dso", "path of the object ip is mapped from" },
	{ "srcline", "source file:line of ip (??:0 without debug info)" },
	{ "data_sym", "variable+offset that addr falls in" },
	{ "comm", "command name of the thread (metadata comm.PID[.TID])" },
};

static void print_field(const struct pebs_field *f)
{
	static const char *const kind[] = { "", "decimal", "hex", "string" };
	const char *what = f->id >= PEBS_COL_REG0 && f->id < PEBS_COL_COUNT ?
			   "register of the snapshot, 0 without one (flag 0x1)"
			   : "";
	for (size_t m = 0; !*what && m < sizeof(meaning) / sizeof(meaning[0]);
	     m++)
		if (!strcmp(meaning[m].name, f->name))
			what = meaning[m].what;
	printf("%-12s %-8s %s\n", f->name, kind[f->kind], what);
}

/* --fields help (or list): every field, kind and meaning, on stdout. */
static void list_fields(void)
{
	const struct pebs_field *f;
	printf("%-12s %-8s %s\n", "FIELD", "KIND", "MEANING");
	for (size_t i = 0; (f = pebs_field_at(i)); i++)
		print_field(f);
	for (int id = PEBS_F_SYM; id < PEBS_F_SYM_END; id++)
		if ((f = pebs_field_by_id(id)))
			print_field(f);
}

/*
 * The word of --fields that @name, no field, was meant as: "all" (where
 * @all allows it) or, when @name is the whole list (@whole), "help" or
 * "list", if one is nearer than any field and near enough; else NULL.
 * "ALL" was answered with "did you mean \"lat\"?".
 */
static const char *keyword_suggest(const char *name, int whole, int all)
{
	static const char *const kw[] = { "all", "help", "list" };
	const char *f = pebs_field_suggest(name), *best = NULL;
	int bd = f ? pebs_name_distance(name, f) + 1 : 3;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		if (i == 0 ? !all : !whole)
			continue;
		int d = pebs_name_distance(name, kw[i]);
		if (d < bd && (size_t)d < strlen(name)) {
			bd = d;
			best = kw[i];
		}
	}
	return best;
}

/* Exits 2 for pebs_field_parse_list()'s error @n at @bad (see
 * keyword_suggest() for @whole and @all). */
static void __attribute__((noreturn)) bad_fields(int n, const char *bad,
						  size_t cap, int whole,
						  int all)
{
	if (n == -PEBS_E_RANGE)
		util_die(EXIT_USAGE, "--fields: more than %zu fields", cap);
	size_t len = strcspn(bad, ",");
	if (len == 0)
		util_die(EXIT_USAGE, "--fields: empty field name");
	char name[256];
	snprintf(name, sizeof(name), "%.*s", (int)len, bad);
	const char *kw = keyword_suggest(name, whole, all);
	if (kw)
		util_die(EXIT_USAGE, "--fields: unknown field \"%s\" (did you "
			 "mean \"%s\"?)", name, kw);
	util_unknown_field("--fields", name);
}

void util_unknown_field(const char *opt, const char *name)
{
	const char *perf = pebs_field_perf_hint(name);
	const char *sug = pebs_field_suggest(name);
	if (perf)
		util_die(EXIT_USAGE, "%s: unknown field \"%s\" (%s)", opt,
			 name, perf);
	if (sug)
		util_die(EXIT_USAGE, "%s: unknown field \"%s\" (did you "
			 "mean \"%s\"?)", opt, name, sug);
	util_die(EXIT_USAGE, "%s: unknown field \"%s\"", opt, name);
}

/* Is "all" one of the names of @list? */
static int has_all(const char *list)
{
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		if (len == 3 && !memcmp(p, "all", 3))
			return 1;
		p += len;
		if (!*p)
			return 0;
	}
}

size_t util_parse_fields(const char *list, int *ids, size_t cap, int all)
{
	const char *bad;
	if (!strcmp(list, "help") || !strcmp(list, "list")) {
		list_fields();
		util_close_out(stdout, NULL);
		exit(EXIT_OK);
	}
	if (!all || !has_all(list)) {
		int n = pebs_field_parse_list(list, ids, cap, &bad);
		if (n < 0)
			bad_fields(n, bad, cap, !strchr(list, ','), all);
		return (size_t)n;
	}
	/*
	 * "all" leaves the symbol fields out (they cost a lookup per
	 * sample): "all,sym,comm" adds them, so it takes other names
	 * beside it, each name in its place.
	 */
	size_t n = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		if (len == 3 && !memcmp(p, "all", 3)) {
			const struct pebs_field *f;
			for (size_t i = 0; (f = pebs_field_at(i)); i++) {
				if (n == cap)
					bad_fields(-PEBS_E_RANGE, NULL, cap,
						   0, all);
				ids[n++] = f->id;
			}
		} else {
			char *one = strndup(p, len);
			if (!one)
				util_die(EXIT_SYS, "out of memory");
			int r = pebs_field_parse_list(one, ids + n, cap - n,
						      &bad);
			if (r < 0)
				bad_fields(r, bad, cap, 0, all);
			free(one);
			n += (size_t)r;
		}
		p += len;
		if (!*p)
			return n;
	}
}

void util_check_fields(int fmt, const int *ids, size_t n)
{
	long i = pebs_output_find_repeat(fmt, ids, n);
	if (i < 0)
		return;
	util_die(EXIT_USAGE, "--fields: \"%s\" twice: yaml and jsonl keys "
		 "must be unique", pebs_field_by_id(ids[i])->name);
}
