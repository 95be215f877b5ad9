/*
 * The symbol fields (sym, dso, srcline, data_sym) in the consumers: the
 * text outputs (pebs_output_set_sym), filter expressions
 * (pebs_expr_set_sym) and histogram groups (pebs_hist_set_sym), on a real
 * program built here with -g whose own maps become the metadata.  Also
 * pebs_sym_key(), pebs_sym_same_maps() and the notes that only objects a
 * lookup touches produce.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_hist.h"
#include "pebs_output.h"
#include "pebs_sym.h"
#include "testutil.h"

static const char src[] =
	"long table[16];\n"				/* 1 */
	"static int static_var = 7;\n"
	"int helper(int x)\n"				/* 3 */
	"{\n"
	"\treturn x * static_var;\n"
	"}\n"
	"int worker(int n)\n"				/* 7 */
	"{\n"
	"\tlong s = 0;\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\ts += table[i % 16] + helper(i);\n"
	"\treturn (int)s;\n"
	"}\n"
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%p %p %p %p\\n\", (void *)worker, (void *)helper,\n"
	"\t       (void *)table, (void *)&static_var);\n"
	"\tFILE *m = fopen(\"/proc/self/maps\", \"r\");\n"
	"\tchar l[1024];\n"
	"\twhile (m && fgets(l, sizeof(l), m))\n"
	"\t\tfputs(l, stdout);\n"
	"\treturn worker(3) < 0;\n"
	"}\n";

#define PID 777u

static char dir[64], prog[128];
static uint64_t a_worker, a_helper, a_table, a_static;
static struct pebs_meta *meta;
static struct pebs_batch *batch;
static size_t nmaps;		/* maps.0 .. maps.<nmaps - 1> */

/* Sample rows of the batch every test uses. */
enum { R_WORKER, R_WORKER4, R_HELPER, R_NOPROC, NROWS };

static void setup(void)
{
	strcpy(dir, "/tmp/pebs-symf-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	char path[128], cmd[512];
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(src, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -g -O0 -o %s %s", prog, path);
	cr_assert_eq(system(cmd), 0, "cannot build the test program");
	FILE *out = popen(prog, "r");
	cr_assert_not_null(out);
	cr_assert_eq(fscanf(out, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %"
			    SCNx64 "\n", &a_worker, &a_helper, &a_table,
			    &a_static), 4);
	meta = pebs_meta_new();
	size_t n = tu_maps_meta(out, prog, PID, meta);
	pclose(out);
	cr_assert_gt(n, 0, "no maps of the program");
	nmaps = n;
	batch = pebs_batch_new(NROWS);
	int ev = pebs_batch_intern(batch, "load-latency");
	struct pebs_sample x = { .pid = PID, .event = (uint32_t)ev };
	x.ip = a_worker;
	x.addr = a_table + 8;
	x.lat = 10;
	pebs_batch_push(batch, &x);
	x.ip = a_worker + 4;
	x.addr = a_table;
	x.lat = 20;
	pebs_batch_push(batch, &x);
	x.ip = a_helper;
	x.addr = a_static;
	x.lat = 300;
	pebs_batch_push(batch, &x);
	x.pid = 5;		/* a process without maps */
	x.ip = a_worker;
	x.lat = 40;
	pebs_batch_push(batch, &x);
}

static void teardown(void)
{
	char cmd[128];
	pebs_meta_free(meta);
	pebs_batch_free(batch);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		cr_log_warn("cannot remove %s", dir);
}

TestSuite(symf, .init = setup, .fini = teardown);

/* Renders batch @b with @list in format @fmt through symbolizer @s. */
static char *render(int fmt, const char *list, struct pebs_sym *s,
		    const struct pebs_batch *b)
{
	return tu_render(fmt, list, s, b);
}

Test(symf, field_registry)
{
	const struct pebs_field *f = pebs_field_find("data_sym");
	cr_assert_not_null(f);
	cr_expect_eq(f->id, PEBS_F_DATA_SYM);
	cr_expect_eq(f->kind, PEBS_FK_STR);
	cr_expect_eq(f->deps, 1ull << PEBS_COL_PID | 1ull << PEBS_COL_ADDR);
	cr_expect_eq(pebs_field_find("sym")->deps,
		     1ull << PEBS_COL_PID | 1ull << PEBS_COL_IP);
	/* not CSV input columns, not in "all" */
	cr_expect_null(pebs_field_lookup("sym"));
	const struct pebs_field *g;
	for (size_t i = 0; (g = pebs_field_at(i)); i++)
		cr_expect(!pebs_field_is_sym(g->id), "%s", g->name);
	cr_expect_str_eq(pebs_field_by_id(PEBS_F_SRCLINE)->name, "srcline");
	cr_expect_str_eq(pebs_field_suggest("sim"), "sym");
	/* a swap is one edit, case is none, and no letter kept is no match */
	cr_expect_str_eq(pebs_field_suggest("mme"), "mem");
	cr_expect_str_eq(pebs_field_suggest("LAT"), "lat");
	cr_expect_null(pebs_field_suggest("l1"));
	cr_expect_eq(pebs_name_distance("latt", "lat"), 1);
	/* the same order as enum pebs_sym_field */
	for (int k = 0; k < PEBS_SYM_COUNT; k++)
		cr_expect_str_eq(pebs_field_by_id(PEBS_F_SYM + k)->name,
				 pebs_sym_field_name(k));
}

Test(symf, output_formats)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	char want[1024];
	char *csv = render(PEBS_OUT_CSV, "lat,sym,srcline,data_sym,dso", s,
			   batch);
	snprintf(want, sizeof(want),
		 "10,worker,prog.c:8,table+0x8,%s\n"
		 "20,worker+0x4,prog.c:8,table,%s\n"
		 "300,helper,prog.c:4,static_var,%s\n"
		 "40,[unknown],??:0,[unknown],[unknown]\n", prog, prog, prog);
	cr_expect_str_eq(csv, want);
	char *js = render(PEBS_OUT_JSONL, "sym,data_sym", s, batch);
	cr_expect_str_eq(js, "{\"sym\":\"worker\",\"data_sym\":\"table+0x8\"}\n"
			 "{\"sym\":\"worker+0x4\",\"data_sym\":\"table\"}\n"
			 "{\"sym\":\"helper\",\"data_sym\":\"static_var\"}\n"
			 "{\"sym\":\"[unknown]\",\"data_sym\":"
			 "\"[unknown]\"}\n");
	/* yaml: "[unknown]" would read as a sequence unquoted */
	char *ym = render(PEBS_OUT_YAML, "sym", s, batch);
	cr_expect(strstr(ym, "- sym: worker+0x4\n") != NULL, "%s", ym);
	cr_expect(strstr(ym, "- sym: '[unknown]'\n") != NULL, "%s", ym);
	/* text: padded to the column width, the last column not */
	char *tx = render(PEBS_OUT_TEXT, "sym,lat", s, batch);
	cr_expect(strncmp(tx, "worker                       10\n", 32) == 0,
		  "%s", tx);
	free(csv);
	free(js);
	free(ym);
	free(tx);
	pebs_sym_close(s);
}

Test(symf, output_without_symbolizer)
{
	char *csv = render(PEBS_OUT_CSV, "sym,srcline,lat", NULL, batch);
	cr_expect_str_eq(csv, "[unknown],[unknown],10\n[unknown],[unknown],"
			 "20\n[unknown],[unknown],300\n[unknown],[unknown],"
			 "40\n");
	free(csv);
}

/* Indices of the rows of the batch matching @text, as "0,2,". */
static void matches(const char *text, struct pebs_sym *s, char *out,
		    size_t len)
{
	tu_expr_rows(text, s, batch, out, len);
}

Test(symf, expressions)
{
	struct pebs_sym *s;
	char got[64];
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	static const struct { const char *e, *rows; } cases[] = {
		{ "sym == \"worker\"", "0,1," },
		{ "sym == \"worker+0x4\"", "1," },
		{ "sym != worker", "2,3," },
		{ "sym ~ \"h*\"", "2," },
		{ "sym !~ \"*er\"", "3," },
		{ "sym ~ \"*+0x4\"", "1," },
		{ "sym == \"[unknown]\"", "3," },
		{ "data_sym in (table, static_var)", "0,1,2," },
		{ "data_sym == \"table+0x8\"", "0," },
		{ "dso == \"prog\"", "0,1,2," },
		{ "srcline == \"prog.c\"", "0,1,2," },
		{ "srcline == \"prog.c:4\"", "2," },
		{ "srcline ~ \"*:8\" and lat > 15", "1," },
		{ "not sym in (worker, helper) or lat == 300", "2,3," },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		matches(cases[i].e, s, got, sizeof(got));
		cr_expect_str_eq(got, cases[i].rows, "%s", cases[i].e);
	}
	/* without a symbolizer every value is [unknown] */
	matches("sym == \"[unknown]\"", NULL, got, sizeof(got));
	cr_expect_str_eq(got, "0,1,2,3,");
	pebs_sym_close(s);
}

Test(symf, expression_errors)
{
	static const struct { const char *e, *msg; } cases[] = {
		{ "sim == x", "unknown field \"sim\" (did you mean \"sym\"?)" },
		{ "sym > \"a\"", "string field \"sym\" supports only ==, !=, "
		  "in, ~ and !~" },
		{ "lat ~ \"1*\"", "~ needs a string field on its left" },
		{ "sym == 3", "field \"sym\" is a string: compare it with a "
		  "string" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pebs_expr *e;
		struct pebs_expr_error err;
		cr_expect_eq(pebs_expr_parse(cases[i].e, &e, &err),
			     -PEBS_E_PARSE, "%s", cases[i].e);
		cr_expect_str_eq(err.msg, cases[i].msg);
	}
	/* event takes glob patterns too */
	struct pebs_expr *e;
	cr_assert_eq(pebs_expr_parse("event ~ \"load-*\"", &e, NULL), 0);
	cr_expect(!pebs_expr_uses_sym(e));
	uint32_t sel[NROWS];
	cr_expect_eq(pebs_expr_eval(e, batch, sel), NROWS);
	pebs_expr_free(e);
}

Test(symf, histogram_groups_and_merge)
{
	struct pebs_sym *s;
	struct pebs_hist *h;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_F_SYM), 0);
	cr_expect_eq(pebs_hist_cols(h) & (1ull << PEBS_COL_IP |
					  1ull << PEBS_COL_PID),
		     1ull << PEBS_COL_IP | 1ull << PEBS_COL_PID);
	pebs_hist_set_sym(h, s);
	cr_assert_eq(pebs_hist_add(h, batch), 0);
	cr_assert_eq(pebs_hist_add(h, batch), 0);
	/* by name, offsets dropped: worker and worker+0x4 are one group */
	cr_assert_eq(pebs_hist_ngroups(h), 3);
	static const char *const names[] = { "[unknown]", "helper", "worker" };
	static const uint64_t counts[] = { 2, 2, 4 };
	for (size_t g = 0; g < 3; g++) {
		struct pebs_hist_stats st;
		cr_assert_eq(pebs_hist_group_stats(h, g, &st), 0);
		cr_expect_str_eq(st.group, names[g]);
		cr_expect_eq(st.count, counts[g], "%s", names[g]);
	}
	/* yaml out, merged back: the same groups */
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	cr_assert_eq(pebs_hist_write(h, fp, PEBS_HIST_YAML, &(struct
		     pebs_hist_bins){ .kind = PEBS_BINS_LOG2 }, NULL, 0), 0);
	fclose(fp);
	int f, by;
	char err[128];
	cr_assert_eq(pebs_hist_yaml_peek(text, len, &f, &by, err,
					 sizeof(err)), 0, "%s", err);
	cr_expect_eq(by, PEBS_F_SYM);
	struct pebs_hist *m;
	cr_assert_eq(pebs_hist_new(&m, f, by), 0);
	cr_assert_eq(pebs_hist_merge_yaml(m, text, len, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(pebs_hist_ngroups(m), 3);
	struct pebs_hist_stats st;
	cr_assert_eq(pebs_hist_group_stats(m, 2, &st), 0);
	cr_expect_str_eq(st.group, "worker");
	cr_expect_eq(st.count, 4);
	cr_expect_eq(st.max, 20);
	free(text);
	pebs_hist_free(m);
	pebs_hist_free(h);
	/* by data_sym, without a symbolizer: one [unknown] group */
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_LAT, PEBS_F_DATA_SYM), 0);
	cr_assert_eq(pebs_hist_add(h, batch), 0);
	cr_expect_eq(pebs_hist_ngroups(h), 1);
	pebs_hist_free(h);
	pebs_sym_close(s);
}

Test(symf, keys_and_same_maps)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	cr_expect_str_eq(pebs_sym_key(s, batch, R_WORKER4, PEBS_SYM_SYM),
			 "worker");
	cr_expect_str_eq(pebs_sym_key(s, batch, R_WORKER, PEBS_SYM_DATA_SYM),
			 "table");
	cr_expect_str_eq(pebs_sym_key(s, batch, R_WORKER, PEBS_SYM_SRCLINE),
			 "prog.c:8");
	cr_expect_str_eq(pebs_sym_key(s, batch, R_NOPROC, PEBS_SYM_SYM),
			 PEBS_SYM_UNKNOWN);
	cr_expect_gt(pebs_sym_nmaps(s), 0);
	cr_expect_eq(pebs_sym_same_maps(s, meta), 1);
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_copy(m, meta);
	pebs_meta_set(m, "host", "elsewhere");	/* not a map: same */
	cr_expect_eq(pebs_sym_same_maps(s, m), 1);
	pebs_meta_set(m, "maps.0.pid", "778");
	cr_expect_eq(pebs_sym_same_maps(s, m), 0);
	cr_expect_eq(pebs_sym_same_maps(s, NULL), 0);
	pebs_meta_free(m);
	pebs_sym_close(s);
}

Test(symf, notes_only_for_objects_hit)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_copy(m, meta);
	/* a missing library mapped far above the program */
	char k[64];
#define SETM(f, v) do { snprintf(k, sizeof(k), "maps.%zu." f, nmaps); \
	pebs_meta_set(m, k, v); } while (0)
	SETM("pid", "777");
	SETM("start", "0x7f0000000000");
	SETM("end", "0x7f0000100000");
	SETM("pgoff", "0");
	SETM("path", "/nonexistent/libgone.so");
	struct pebs_sym *s;
	const char *n;
	struct pebs_sym_info in;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_worker, 0, &in), 1);
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, 0x7f0000000040, 0, &in), 0);
	cr_expect_str_eq(in.dso, "/nonexistent/libgone.so");
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect_str_eq(n, "/nonexistent/libgone.so: not found: its "
			 "symbols read [unknown]");
	/* once per object */
	pebs_sym_lookup(s, PID, 0x7f0000000080, 0, &in);
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 1);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/*
 * Many distinct strings: the rendered-string table grows while rows of
 * the batch already point at rendered strings (they must not move).
 */
Test(symf, output_many_distinct_strings)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	struct pebs_batch *b = pebs_batch_new(2000);
	int ev = pebs_batch_intern(b, "load-latency");
	for (unsigned i = 0; i < 2000; i++) {
		struct pebs_sample x = { .pid = PID, .event = (uint32_t)ev };
		x.ip = a_worker + i % 40;
		x.addr = a_table + i % 128;
		x.lat = i;
		pebs_batch_push(b, &x);
	}
	char *text = render(PEBS_OUT_CSV, "sym,data_sym,lat", s, b);
	char *line = text;
	for (size_t i = 0; i < b->n; i++) {
		char want[128];
		snprintf(want, sizeof(want), "%s,%s,%zu\n",
			 pebs_sym_str(s, b, i, PEBS_SYM_SYM),
			 pebs_sym_str(s, b, i, PEBS_SYM_DATA_SYM), i);
		cr_assert(strncmp(line, want, strlen(want)) == 0,
			  "row %zu: %.40s, want %s", i, line, want);
		line += strlen(want);
	}
	cr_expect_eq(*line, 0);
	cr_expect_str_eq(pebs_sym_str(s, b, 1, PEBS_SYM_DATA_SYM),
			 "table+0x1");
	free(text);
	pebs_batch_free(b);
	pebs_sym_close(s);
}

/* Hostile maps: a FIFO (opening it must not block), a directory, a map
 * whose end is below its start (left out, with a note). */
Test(symf, maps_naming_non_files)
{
	tu_deadline(10);
	char fifo[128];
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	struct pebs_meta *m = pebs_meta_new();
	const char *paths[] = { fifo, dir, "/etc/hostname" };
	const char *range[][2] = { { "0x1000", "0x2000" },
				   { "0x3000", "0x4000" },
				   { "0x6000", "0x5000" } };
	for (size_t i = 0; i < 3; i++) {
		char k[64];
		snprintf(k, sizeof(k), "maps.%zu.pid", i);
		pebs_meta_set(m, k, "1");
		snprintf(k, sizeof(k), "maps.%zu.start", i);
		pebs_meta_set(m, k, range[i][0]);
		snprintf(k, sizeof(k), "maps.%zu.end", i);
		pebs_meta_set(m, k, range[i][1]);
		snprintf(k, sizeof(k), "maps.%zu.pgoff", i);
		pebs_meta_set(m, k, "0");
		snprintf(k, sizeof(k), "maps.%zu.path", i);
		pebs_meta_set(m, k, paths[i]);
	}
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_nmaps(s), 2);
	cr_expect_eq(pebs_sym_lookup(s, 1, 0x1010, 0, &in), 0);
	cr_expect_str_eq(in.dso, fifo);
	cr_expect_eq(pebs_sym_lookup(s, 1, 0x3010, 1, &in), 0);
	cr_expect_eq(pebs_sym_lookup(s, 1, 0x5800, 0, &in), 0);
	cr_expect_null(in.dso);
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 3);
	cr_expect(strstr(n, "/etc/hostname: map with start 0x6000 and end "
			 "0x5000 in the metadata") != NULL, "%s", n);
	pebs_sym_notes(s, 1, &n);
	cr_expect(strstr(n, "not a regular file") != NULL, "%s", n);
	pebs_sym_close(s);
	pebs_meta_free(m);
}
