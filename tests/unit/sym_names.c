/*
 * Names from the metadata rather than from binaries: the comm field
 * (comm.PID.TID, else comm.PID), and the instructions a built-in workload
 * names (workload.ips.N.ip/name) standing in for symbols when there are
 * no process maps (pebs_sym.h), in the tools' expressions and output too.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_output.h"
#include "pebs_sym.h"
#include "testutil.h"

/* A batch of rows (pid, tid, ip) of one event. */
static struct pebs_batch *rows(const uint32_t (*r)[3], size_t n)
{
	struct pebs_batch *b = pebs_batch_new(n);
	int ev = pebs_batch_intern(b, "load-latency");
	for (size_t i = 0; i < n; i++) {
		struct pebs_sample x = { .pid = r[i][0], .tid = r[i][1],
					 .ip = r[i][2],
					 .event = (uint32_t)ev };
		pebs_batch_push(b, &x);
	}
	return b;
}

Test(sym_names, comm_field)
{
	const struct pebs_field *f = pebs_field_find("comm");
	cr_assert_not_null(f);
	cr_expect_eq(f->id, PEBS_F_COMM);
	cr_expect_eq(f->kind, PEBS_FK_STR);
	cr_expect_eq(f->deps, 1ull << PEBS_COL_PID | 1ull << PEBS_COL_TID);
	cr_expect(pebs_field_is_sym(PEBS_F_COMM));
	cr_expect_null(pebs_field_lookup("comm"));	/* no CSV column */
	cr_expect_eq(pebs_sym_field_lookup("comm"), PEBS_SYM_COMM);
	cr_expect_str_eq(pebs_field_suggest("comn"), "comm");

	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "comm.10", "server");
	pebs_meta_set(m, "comm.10.12", "io-worker");
	pebs_meta_set(m, "comm.20", "");		/* no name */
	static const uint32_t r[][3] = {
		{ 10, 10, 1 }, { 10, 11, 2 }, { 10, 12, 3 }, { 20, 20, 4 },
		{ 30, 31, 5 },
	};
	struct pebs_batch *b = rows(r, 5);
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_COMM), "server");
	cr_expect_str_eq(pebs_sym_str(s, b, 1, PEBS_SYM_COMM), "server");
	cr_expect_str_eq(pebs_sym_str(s, b, 2, PEBS_SYM_COMM), "io-worker");
	cr_expect_str_eq(pebs_sym_key(s, b, 2, PEBS_SYM_COMM), "io-worker");
	cr_expect_str_eq(pebs_sym_str(s, b, 3, PEBS_SYM_COMM),
			 PEBS_SYM_UNKNOWN);
	cr_expect_str_eq(pebs_sym_str(s, b, 4, PEBS_SYM_COMM),
			 PEBS_SYM_UNKNOWN);
	/* comm alone says nothing about missing maps */
	const char *n;
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);

	char got[64];
	tu_expr_rows("comm == \"server\"", s, b, got, sizeof(got));
	cr_expect_str_eq(got, "0,1,");
	tu_expr_rows("comm ~ \"*work*\" || comm == \"[unknown]\"", s, b, got,
	    sizeof(got));
	cr_expect_str_eq(got, "2,3,4,");

	/* a segment naming other threads needs another symbolizer */
	struct pebs_meta *m2 = pebs_meta_new();
	pebs_meta_copy(m2, m);
	cr_expect_eq(pebs_sym_same_maps(s, m2), 1);
	pebs_meta_set(m2, "comm.10.11", "other");
	cr_expect_eq(pebs_sym_same_maps(s, m2), 0);

	char *text = tu_render(PEBS_OUT_CSV, "tid,comm", s, b);
	cr_expect_str_eq(text, "10,server\n11,server\n12,io-worker\n"
			 "20,[unknown]\n31,[unknown]\n");
	free(text);
	pebs_sym_close(s);
	pebs_meta_free(m2);
	pebs_meta_free(m);
	pebs_batch_free(b);
}

Test(sym_names, workload_ips)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "workload.ips.0.ip", "0x4011a3");
	pebs_meta_set(m, "workload.ips.0.name",
		      "fs_worker: load shared.count[id]");
	pebs_meta_set(m, "workload.ips.7.ip", "0x4011aa");	/* gap */
	pebs_meta_set(m, "workload.ips.7.name", "plain");
	pebs_meta_set(m, "workload.ips.8.ip", "0x4011a3");	/* again */
	pebs_meta_set(m, "workload.ips.8.name", "other: x");
	pebs_meta_set(m, "workload.ips.9.ip", "junk");
	pebs_meta_set(m, "workload.ips.9.name", "bad: ip");
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, 2000, 0x4011a3, 0, &in), 1);
	cr_expect_str_eq(in.name, "fs_worker");
	cr_expect_eq(in.off, 0);
	cr_expect_str_eq(in.file, "load shared.count[id]");
	cr_expect_null(in.dso);
	cr_expect_eq(pebs_sym_lookup(s, 2000, 0x4011aa, 0, &in), 1);
	cr_expect_str_eq(in.name, "plain");
	cr_expect_null(in.file);
	/* exact ips only, code only */
	cr_expect_eq(pebs_sym_lookup(s, 2000, 0x4011a4, 0, &in), 0);
	cr_expect_eq(pebs_sym_lookup(s, 2000, 0x4011a3, 1, &in), 0);
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0, "no note: names exist");

	static const uint32_t r[][3] = {
		{ 2000, 2000, 0x4011a3 }, { 2000, 2001, 0x4011aa },
		{ 2000, 2001, 0x4011b0 },
	};
	struct pebs_batch *b = rows(r, 3);
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_SYM), "fs_worker");
	cr_expect_str_eq(pebs_sym_key(s, b, 0, PEBS_SYM_SYM), "fs_worker");
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_SRCLINE),
			 "load shared.count[id]");
	cr_expect_str_eq(pebs_sym_str(s, b, 1, PEBS_SYM_SRCLINE), "??:0");
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_DSO),
			 PEBS_SYM_UNKNOWN);
	cr_expect_str_eq(pebs_sym_str(s, b, 2, PEBS_SYM_SYM),
			 PEBS_SYM_UNKNOWN);
	char got[64];
	tu_expr_rows("sym == \"fs_worker\"", s, b, got, sizeof(got));
	cr_expect_str_eq(got, "0,");
	tu_expr_rows("srcline ~ \"load *\"", s, b, got, sizeof(got));
	cr_expect_str_eq(got, "0,");
	pebs_sym_close(s);
	pebs_batch_free(b);
	pebs_meta_free(m);
}

/* No maps and no names at all: one note, at the first lookup. */
Test(sym_names, no_maps_note)
{
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);
	cr_expect_eq(pebs_sym_lookup(s, 1, 0x1000, 0, &in), 0);
	cr_expect_eq(pebs_sym_lookup(s, 1, 0x2000, 1, &in), 0);
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect_str_eq(n, "no process maps in the metadata: sym, dso and "
			 "data_sym read [unknown], srcline ??:0");
	pebs_sym_close(s);
	pebs_meta_free(m);
}
