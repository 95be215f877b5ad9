/*
 * csvin_parse.c - CSV import (pebs_csvin.h): edge cases with exact error
 * messages, and the round trip batch -> csv -> import -> csv.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_csvin.h"
#include "pebs_dsrc.h"
#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_output.h"

static char *to_csv(const struct pebs_batch *b, const int *ids, size_t n);

/* Sink into a batch: event ids are the batch's dictionary indexes. */
static int b_event(void *ctx, const char *name)
{
	return pebs_batch_intern(ctx, name);
}

static int b_sample(void *ctx, const struct pebs_sample *s)
{
	return pebs_batch_push(ctx, s);
}

struct run {
	struct pebs_batch *b;
	int rc;
	char msg[256];
};

/* Imports @text fed in pieces of @step bytes (0 = all at once). */
static struct run import_step(const char *text, size_t len, size_t step)
{
	struct run r = { pebs_batch_new(8192), 0, "" };
	struct pebs_csvin_sink sk = { b_event, b_sample, r.b };
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	if (!step)
		step = len ? len : 1;
	for (size_t at = 0; at < len && !r.rc; at += step)
		r.rc = pebs_csvin_feed(c, text + at,
				       len - at < step ? len - at : step);
	int e = pebs_csvin_end(c);
	if (!r.rc)
		r.rc = e;
	snprintf(r.msg, sizeof(r.msg), "%s", r.rc ? pebs_csvin_errmsg(c) : "");
	pebs_csvin_close(c);
	return r;
}

static struct run import(const char *text)
{
	return import_step(text, strlen(text), 0);
}

static void expect_error(const char *text, int rc, const char *msg)
{
	struct run r = import(text);
	cr_assert_eq(r.rc, rc, "rc %d for %s", r.rc, text);
	cr_assert_str_eq(r.msg, msg);
	pebs_batch_free(r.b);
}

Test(csvin, basic_subset_any_order)
{
	struct run r = import("lat,event,addr,op,time\n"
			      "35,load,0x7f00,load,100\n"
			      "0x10,store,0,store,18446744073709551615\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 2);
	cr_assert_eq(r.b->c32[PEBS_COL_LAT][0], 35);
	cr_assert_eq(r.b->c32[PEBS_COL_LAT][1], 16);
	cr_assert_eq(r.b->c64[PEBS_COL_ADDR][0], 0x7f00);
	cr_assert_eq(r.b->c64[PEBS_COL_TIME][1], UINT64_MAX);
	cr_assert_str_eq(pebs_batch_event(r.b, 0), "load");
	cr_assert_str_eq(pebs_batch_event(r.b, 1), "store");
	cr_assert_eq(r.b->c32[PEBS_COL_CPU][0], 0);
	pebs_batch_free(r.b);
}

Test(csvin, quoting_crlf_bom_spaces)
{
	struct run r = import("\xef\xbb\xbf" "event,cpu\r\n"
			      "\"a,\"\"b\"\"\r\nc\", 7 \r\n"
			      "\" x \",\"8\"\r\n"
			      "plain,9");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 3);
	cr_assert_str_eq(pebs_batch_event(r.b, 0), "a,\"b\"\r\nc");
	cr_assert_eq(r.b->c32[PEBS_COL_CPU][0], 7);
	cr_assert_str_eq(pebs_batch_event(r.b, 1), " x ");
	cr_assert_eq(r.b->c32[PEBS_COL_CPU][1], 8);
	cr_assert_str_eq(pebs_batch_event(r.b, 2), "plain");
	cr_assert_eq(r.b->c32[PEBS_COL_CPU][2], 9);
	pebs_batch_free(r.b);
}

/*
 * A BOM split across feeds is skipped too (it was only when the first
 * feed held all of it: "\xef" then "\xbb\xbf..." made a header field of
 * it); bytes that start like one and are not are the input's own.
 */
Test(csvin, bom_split_across_feeds)
{
	static const char bomcsv[] = "\xef\xbb\xbf" "event,cpu\n" "a,7\n";
	for (size_t step = 1; step <= 4; step++) {
		struct run r = import_step(bomcsv, strlen(bomcsv), step);
		cr_assert_eq(r.rc, 0, "step %zu: %s", step, r.msg);
		cr_assert_eq(r.b->n, 1);
		cr_assert_str_eq(pebs_batch_event(r.b, 0), "a");
		cr_assert_eq(r.b->c32[PEBS_COL_CPU][0], 7);
		pebs_batch_free(r.b);
	}
	static const char *const notbom[] = {
		"\xef\xbbtime\n1\n", "\xeftime\n1\n", "\xef\xbb", "\xef",
		"\xef\xbb\xbf\xef\xbb\xbftime\n1\n",
	};
	for (size_t i = 0; i < sizeof(notbom) / sizeof(notbom[0]); i++) {
		size_t len = strlen(notbom[i]);
		struct run whole = import_step(notbom[i], len, 0);
		cr_assert_neq(whole.rc, 0, "input %zu", i);
		for (size_t step = 1; step <= 3; step++) {
			struct run r = import_step(notbom[i], len, step);
			cr_assert_eq(r.rc, whole.rc, "input %zu step %zu", i,
				     step);
			cr_assert_str_eq(r.msg, whole.msg, "input %zu step %zu",
					 i, step);
			pebs_batch_free(r.b);
		}
		pebs_batch_free(whole.b);
	}
}

Test(csvin, empty_and_header_only)
{
	struct run r = import("");
	cr_assert_eq(r.rc, 0);
	cr_assert_eq(r.b->n, 0);
	pebs_batch_free(r.b);
	r = import("time,cpu\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_eq(r.b->n, 0);
	pebs_batch_free(r.b);
	/* Blank lines carry no row. */
	r = import("time\n\n1\n\n2\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 2);
	pebs_batch_free(r.b);
}

Test(csvin, repeated_columns_agree)
{
	struct run r = import("lat,event,lat,event\n5,e,5,e\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 1);
	cr_assert_eq(r.b->c32[PEBS_COL_LAT][0], 5);
	pebs_batch_free(r.b);
	expect_error("event,event\na,b\n", -PEBS_E_PARSE,
		     "line 2: field \"event\": repeated with another value");
}

/* Symbol columns (any pebs-decode --fields list) are read and ignored. */
Test(csvin, symbol_columns_ignored)
{
	struct run r = import("sym,time,dso,lat,srcline,data_sym\n"
			      "main+0x10,7,/bin/x,9,x.c:3,buf+0x8\n"
			      "[unknown],8,\"a,b\",0x10,[unknown],[unknown]\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 2);
	cr_assert_eq(r.b->c64[PEBS_COL_TIME][0], 7);
	cr_assert_eq(r.b->c32[PEBS_COL_LAT][0], 9);
	cr_assert_eq(r.b->c64[PEBS_COL_TIME][1], 8);
	cr_assert_eq(r.b->c32[PEBS_COL_LAT][1], 16);
	cr_assert_eq(r.b->c64[PEBS_COL_IP][0], 0);
	pebs_batch_free(r.b);
	/* still counted: a short row is an error */
	expect_error("time,sym\n1\n", -PEBS_E_PARSE,
		     "line 2: 1 field, but the header has 2");
	expect_error("time,symm\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"symm\" (did you mean \"sym\"?)");
}

/* Every combination of derived names survives without a dsrc column. */
Test(csvin, derived_names_without_source)
{
	static const char *const tlb[] = { "na", "hit", "miss" };
	static const char *const lock[] = { "no", "na", "locked" };
	int ids[5] = { PEBS_F_OP, PEBS_F_MEM, PEBS_F_SNOOP, PEBS_F_TLB,
		       PEBS_F_LOCK };
	char *text = NULL, *want = NULL;
	size_t tl = 0, wl = 0;
	FILE *in = open_memstream(&text, &tl), *w = open_memstream(&want, &wl);
	fputs("op,mem,snoop,tlb,lock\n", in);
	fputs("op,mem,snoop,tlb,lock\n", w);
	for (int o = 0; o <= PEBS_OP_EXEC; o++)
	for (int m = 0; m < PEBS_MEM_COUNT; m++)
	for (int sn = 0; sn < PEBS_SNOOP_COUNT; sn++)
	for (int t = 0; t < 3; t++)
	for (int l = 0; l < 3; l++) {
		fprintf(in, "%s,%s,%s,%s,%s\n", pebs_dsrc_op_name(o),
			pebs_dsrc_mem_name(m), pebs_dsrc_snoop_name(sn),
			tlb[t], lock[l]);
		fprintf(w, "%s,%s,%s,%s,%s\n", pebs_dsrc_op_name(o),
			pebs_dsrc_mem_name(m), pebs_dsrc_snoop_name(sn),
			tlb[t], lock[l]);
	}
	fclose(in);
	fclose(w);
	struct run r = import(text);
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	char *again = to_csv(r.b, ids, 5);
	cr_assert_str_eq(again, want);
	free(again);
	free(text);
	free(want);
	pebs_batch_free(r.b);
	expect_error("mem\nL9\n", -PEBS_E_PARSE,
		     "line 2: field \"mem\": unknown name \"L9\"");
	/* worded as every other number: "zz" read "not a 64-bit number" */
	expect_error("line\nzz\n", -PEBS_E_PARSE,
		     "line 2: field \"line\": not a number: \"zz\"");
	expect_error("page\n18446744073709551616\n", -PEBS_E_RANGE,
		     "line 2: field \"page\": out of range for 64 bits: "
		     "\"18446744073709551616\"");
	r = import("line,page\n0x1040,0x1000\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_eq(r.b->c64[PEBS_COL_ADDR][0], 0x1040);
	pebs_batch_free(r.b);
	/* With the source column present the names are not even read. */
	r = import("dsrc,mem,op,snoop,tlb,lock\n0x0,x,y,z,w,v\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	pebs_batch_free(r.b);
	r = import("page,addr,line\n0x1000,0x2222,zz\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	pebs_batch_free(r.b);
	r = import("page,addr,line\n0x1000,0x2222,0x1040\n");
	cr_assert_eq(r.b->c64[PEBS_COL_ADDR][0], 0x2222);
	pebs_batch_free(r.b);
}

Test(csvin, no_event_column_is_empty_name)
{
	struct run r = import("cpu\n1\n2\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_eq(r.b->n, 2);
	cr_assert_str_eq(pebs_batch_event(r.b, 1), "");
	pebs_batch_free(r.b);
}

Test(csvin, registers_and_all_columns)
{
	struct run r = import("r15,rflags,phys_addr,flags,fmt\n"
			      "0xffffffffffffffff,0x246,0x1000,0xf,4\n");
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->c64[PEBS_COL_REG0 + PEBS_REG_R15][0], UINT64_MAX);
	cr_assert_eq(r.b->c64[PEBS_COL_REG0 + PEBS_REG_RFLAGS][0], 0x246);
	cr_assert_eq(r.b->c64[PEBS_COL_PHYS_ADDR][0], 0x1000);
	cr_assert_eq(r.b->c32[PEBS_COL_FLAGS][0], 0xf);
	cr_assert_eq(r.b->c32[PEBS_COL_FMT][0], 4);
	pebs_batch_free(r.b);
}

Test(csvin, errors)
{
	expect_error("time,lat\n1,2\n3,x\n", -PEBS_E_PARSE,
		     "line 3: field \"lat\": not a number: \"x\"");
	/* one field: "1 field", not "1 fields" */
	expect_error("time,lat\n1,2\n3\n", -PEBS_E_PARSE,
		     "line 3: 1 field, but the header has 2");
	expect_error("time,lat\n1,2,3\n", -PEBS_E_PARSE,
		     "line 2: 3 fields, but the header has 2");
	expect_error("time,latt\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"latt\" (did you mean \"lat\"?)");
	/* perf's name for a column names the column, not a near spelling */
	expect_error("time,weight\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"weight\" (perf's weight is "
		     "\"lat\")");
	/* what the input is; how its format was chosen is the caller's to
	 * say (the hint named a -f csv not given) */
	expect_error("PERFILE2\n", -PEBS_E_FORMAT,
		     "line 1: a perf.data file, not CSV");
	expect_error("time,bogus_column\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"bogus_column\"");
	expect_error("lat,time,lat\n1,2,3\n", -PEBS_E_PARSE,
		     "line 2: field \"lat\": repeated with another value");
	expect_error("time,,lat\n", -PEBS_E_PARSE,
		     "line 1: column 2: empty column name");
	expect_error("time\n18446744073709551616\n", -PEBS_E_RANGE,
		     "line 2: field \"time\": out of range for 64 bits: "
		     "\"18446744073709551616\"");
	expect_error("cpu\n4294967296\n", -PEBS_E_RANGE,
		     "line 2: field \"cpu\": out of range for 32 bits: "
		     "\"4294967296\"");
	/* an excerpt shows controls (C0, DEL, C1 as UTF-8 or a raw byte),
	 * invalid UTF-8 and '"' as '?'; other UTF-8 stays.  DEL, C1 and
	 * invalid UTF-8 reached the terminal raw */
	expect_error("lat\n\"1\033[2J\177\302\233\233\377\303\251\"\"\"\n",
		     -PEBS_E_PARSE, "line 2: field \"lat\": not a number: "
		     "\"1?[2J????\303\251?\"");
	expect_error("ip\n0xfg\n", -PEBS_E_PARSE,
		     "line 2: field \"ip\": not a number: \"0xfg\"");
	expect_error("ip\n0x\n", -PEBS_E_PARSE,
		     "line 2: field \"ip\": not a number: \"0x\"");
	expect_error("ip\n-1\n", -PEBS_E_PARSE,
		     "line 2: field \"ip\": not a number: \"-1\"");
	expect_error("ip\n\n\"\"\n", -PEBS_E_PARSE,
		     "line 3: field \"ip\": not a number: \"\"");
	/* named with its field, as every other bad field: a row of many
	 * columns said only its line */
	expect_error("event,cpu\n\"a\"b,1\n", -PEBS_E_PARSE,
		     "line 2: field \"event\": malformed quoting (RFC 4180: a "
		     "quoted field ends at a quote followed by a comma or the "
		     "line end; a quote inside is doubled)");
	expect_error("event,cpu\na,1\"\n", -PEBS_E_PARSE,
		     "line 2: field \"cpu\": malformed quoting (RFC 4180: a "
		     "quoted field ends at a quote followed by a comma or the "
		     "line end; a quote inside is doubled)");
	expect_error("event,c\"pu\n", -PEBS_E_PARSE,
		     "line 1: column 2: malformed quoting (RFC 4180: a quoted "
		     "field ends at a quote followed by a comma or the line "
		     "end; a quote inside is doubled)");
	expect_error("event,cpu\n\"open,1\n2,3\n", -PEBS_E_PARSE,
		     "line 2: field \"event\": unterminated quoted field (the "
		     "input ends inside it)");
	expect_error("ip\n0x12345678901234567890123456789012345678901234\n",
		     -PEBS_E_RANGE, "line 2: field \"ip\": out of range for "
		     "64 bits: "
		     "\"0x123456789012345678901234567890123456789012...\"");
}

/*
 * pebs-decode's other outputs, and its CSV without the header, piped to
 * pebs-import: said what they are, where the messages were "column 1:
 * malformed quoting" (JSON Lines), unknown column "- time: 1000"
 * (YAML) or unknown column "time  cpu ..." (the text table).
 */
Test(csvin, other_decode_outputs_named)
{
	static const char *const yaml[] = {
		"- time: 1000\n  cpu: 5\n", "---\nfile: '-'\n",
	};
	const char *hint = "(pebs-decode -f csv writes what pebs-import "
			   "reads)";
	char want[160];
	snprintf(want, sizeof(want), "line 1: JSON Lines, not CSV %s", hint);
	expect_error("{\"time\":1000,\"cpu\":5}\n", -PEBS_E_FORMAT, want);
	snprintf(want, sizeof(want), "line 1: YAML, not CSV %s", hint);
	for (size_t i = 0; i < sizeof(yaml) / sizeof(yaml[0]); i++)
		expect_error(yaml[i], -PEBS_E_FORMAT, want);
	snprintf(want, sizeof(want), "line 1: a text table, not CSV %s",
		 hint);
	expect_error("            time  cpu event\n   1000    5 x\n",
		     -PEBS_E_FORMAT, want);
	expect_error("    lat event\n", -PEBS_E_FORMAT, want);
	/* the same split across feeds of one byte */
	struct run r = import_step("   lat event\n", 13, 1);
	cr_assert_eq(r.rc, -PEBS_E_FORMAT);
	cr_assert_str_eq(r.msg, want);
	pebs_batch_free(r.b);
	/* a header with a comma missing is no table, a column unknown */
	expect_error("time cpu,lat\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"time cpu\"");
	r = import_step("time cpu,lat\n", 13, 1);
	cr_assert_str_eq(r.msg, "line 1: unknown column \"time cpu\"");
	pebs_batch_free(r.b);
	expect_error("1000,5,x\n", -PEBS_E_PARSE,
		     "line 1: unknown column \"1000\" (a number: the first "
		     "line names the columns, which pebs-decode --no-header "
		     "leaves out)");
	/* past the header, a brace is a field's */
	expect_error("lat\n{\"x\"\n", -PEBS_E_PARSE,
		     "line 2: field \"lat\": malformed quoting (RFC 4180: a "
		     "quoted field ends at a quote followed by a comma or the "
		     "line end; a quote inside is doubled)");
}

/*
 * Lines that end in CR alone (old Mac line ends) are lines: the file was
 * one line to the row limit and the line numbers (libcsv ended the rows),
 * so past its first MiB it was refused as "line 1: row longer than
 * 1048576 bytes", and every error was on line 1.
 */
Test(csvin, cr_line_ends)
{
	const char *t = "time,lat\r1,2\r3,4\rx,5\r";
	for (size_t step = 0; step <= 1; step++) {
		struct run r = import_step(t, strlen(t), step);
		cr_assert_eq(r.rc, -PEBS_E_PARSE);
		cr_assert_str_eq(r.msg, "line 4: field \"time\": not a number: "
				 "\"x\"", "step %zu: %s", step, r.msg);
		cr_assert_eq(r.b->n, 2);
		pebs_batch_free(r.b);
	}
	/* CRLF split across feeds is one line end */
	struct run r = import_step("time\r\n1\r\nx\r\n", 13, 1);
	cr_assert_str_eq(r.msg, "line 3: field \"time\": not a number: "
			 "\"x\"");
	pebs_batch_free(r.b);
	/* a lone CR quoted in an LF file stays in its line */
	expect_error("event,lat\n\"a\rb\",1\nx,y\n", -PEBS_E_PARSE,
		     "line 3: field \"lat\": not a number: \"y\"");
	/* rows of 160 bytes (zeros lead the numbers), 1.2 MiB in all */
	size_t rows = 8000, len = 0;
	char *big = malloc(200 * rows), *q = big;
	cr_assert_not_null(big);
	q += sprintf(q, "time,cpu\r");
	for (size_t i = 0; i < rows; i++)
		q += sprintf(q, "%0150zu,%zu\r", i, i % 8);
	len = (size_t)(q - big);
	cr_assert_gt(len, PEBS_CSVIN_ROW_MAX);
	r = import_step(big, len, 0);
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, rows);
	pebs_batch_free(r.b);
	free(big);
}

Test(csvin, line_numbers_count_quoted_newlines)
{
	expect_error("event,lat\n\"a\nb\nc\",1\nx,y\n", -PEBS_E_PARSE,
		     "line 5: field \"lat\": not a number: \"y\"");
}

/* The message names the line where the unclosed quote opened, however fed. */
static void expect_unclosed(const char *text, const char *msg)
{
	static const size_t steps[] = { 0, 1, 2, 3, 5, 7 };
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct run r = import_step(text, strlen(text), steps[i]);
		cr_assert_eq(r.rc, -PEBS_E_PARSE, "step %zu", steps[i]);
		cr_assert_str_eq(r.msg, msg, "step %zu", steps[i]);
		pebs_batch_free(r.b);
	}
}

Test(csvin, unterminated_quote_names_its_line)
{
	expect_unclosed("event,lat\na,1\n\"b\n\nc,2\n",
			"line 3: field \"event\": unterminated quoted field "
			"(the input ends inside it)");
	/* doubled quotes, also across a line end, stay inside */
	expect_unclosed("lat,event\n1,\"a\"\"\n\"\"b\n",
			"line 2: field \"event\": unterminated quoted field "
			"(the input ends inside it)");
	/* a field closed on a later line, then another opened there */
	expect_unclosed("event,sym,lat\n\"a\nb\",  \"c\nd\n",
			"line 3: field \"sym\": unterminated quoted field "
			"(the input ends inside it)");
	/* an ignored derived column is still named; the header by number */
	expect_unclosed("dsrc,mem\n0x1,\"L1\n",
			"line 2: field \"mem\": unterminated quoted field "
			"(the input ends inside it)");
	expect_unclosed("time,\"lat\n",
			"line 1: column 2: unterminated quoted field "
			"(the input ends inside it)");
	/* the earlier rows went to the sink */
	struct run r = import("time\n1\n2\n\"3\n");
	cr_assert_eq(r.rc, -PEBS_E_PARSE);
	cr_assert_str_eq(r.msg, "line 4: field \"time\": unterminated quoted "
			 "field (the input ends inside it)");
	cr_assert_eq(r.b->n, 2);
	pebs_batch_free(r.b);
}

/* "time,sym\n1,\n" with the row's sym @len bytes of 'A' (@q: quoted, with
 * a line end in it), then "2,x\n"; *@n the text's length. */
static char *long_row(size_t len, int q, size_t *n)
{
	char *t = malloc(len + 64), *p = t;
	cr_assert(t);
	p += sprintf(p, "time,sym\n1,x\n2,");
	if (q)
		*p++ = '"';
	memset(p, 'A', len);
	if (q)
		p[len / 2] = '\n';
	p += len;
	if (q)
		*p++ = '"';
	p += sprintf(p, "\n3,x\n");
	*n = (size_t)(p - t);
	return t;
}

/* A row is at most PEBS_CSVIN_ROW_MAX bytes; memory stays bounded. */
Test(csvin, row_limit)
{
	const size_t max = PEBS_CSVIN_ROW_MAX;
	size_t n;
	/* "2," and the field: exactly the limit, then one byte over */
	char *t = long_row(max - 2, 0, &n);
	struct run r = import_step(t, n, 0);
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 3);
	pebs_batch_free(r.b);
	free(t);
	t = long_row(max - 1, 0, &n);
	for (size_t step = 0; step <= 65536; step += 65536) {
		r = import_step(t, n, step);
		cr_assert_eq(r.rc, -PEBS_E_RANGE);
		cr_assert_str_eq(r.msg, "line 3: row longer than 1048576 "
				 "bytes");
		cr_assert_eq(r.b->n, 1);
		pebs_batch_free(r.b);
	}
	free(t);
	/* quoted, with a line end: counted from the row's first line */
	t = long_row(max - 4, 1, &n);
	r = import_step(t, n, 4096);
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(r.b->n, 3);
	pebs_batch_free(r.b);
	free(t);
	t = long_row(max - 3, 1, &n);
	r = import_step(t, n, 4096);
	cr_assert_eq(r.rc, -PEBS_E_RANGE);
	cr_assert_str_eq(r.msg, "line 3: row longer than 1048576 bytes");
	pebs_batch_free(r.b);
	free(t);
	/* many short lines are no long row; a header is a row too */
	static char z[65536];
	struct pebs_batch *b = pebs_batch_new(8);
	struct pebs_csvin_sink sk = { b_event, b_sample, b };
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	cr_assert_eq(pebs_csvin_feed(c, "time\n", 5), 0);
	memset(z, '\n', sizeof(z));
	for (int i = 0; i < 32; i++)
		cr_assert_eq(pebs_csvin_feed(c, z, sizeof(z)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	/* a quoted field of line ends only: each counts */
	memset(z, '\n', sizeof(z));
	cr_assert_eq(pebs_csvin_feed(c, "sym\n\"", 5), 0);
	size_t fed = 1;
	int rc = 0;
	while (!rc && fed <= 2 * max) {
		rc = pebs_csvin_feed(c, z, sizeof(z));
		fed += sizeof(z);
	}
	cr_assert_eq(rc, -PEBS_E_RANGE);
	cr_assert_str_eq(pebs_csvin_errmsg(c), "line 2: row longer than "
			 "1048576 bytes");
	cr_assert_eq(pebs_csvin_end(c), -PEBS_E_RANGE);
	/* /dev/zero: refused after the limit, not read to the end */
	memset(z, 0, sizeof(z));
	fed = 0;
	rc = 0;
	while (!rc && fed <= 2 * max) {
		rc = pebs_csvin_feed(c, z, sizeof(z));
		fed += sizeof(z);
	}
	cr_assert_eq(rc, -PEBS_E_RANGE);
	cr_assert_eq(fed, max + sizeof(z));
	cr_assert_str_eq(pebs_csvin_errmsg(c), "line 1: row longer than "
			 "1048576 bytes");
	cr_assert_eq(pebs_csvin_end(c), -PEBS_E_RANGE);
	pebs_csvin_close(c);
	pebs_batch_free(b);
}

Test(csvin, errors_stop_the_input_but_not_the_next)
{
	struct pebs_batch *b = pebs_batch_new(64);
	struct pebs_csvin_sink sk = { b_event, b_sample, b };
	struct pebs_csvin *c;
	const char *bad = "lat\n1\nzz\n2\n", *good = "cpu,lat\n5,6\n";
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	cr_assert_eq(pebs_csvin_feed(c, bad, strlen(bad)), -PEBS_E_PARSE);
	cr_assert_eq(pebs_csvin_feed(c, "3\n", 2), -PEBS_E_PARSE);
	cr_assert_eq(pebs_csvin_end(c), -PEBS_E_PARSE);
	cr_assert_eq(b->n, 1);
	cr_assert_eq(pebs_csvin_feed(c, good, strlen(good)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	cr_assert_eq(b->n, 2);
	cr_assert_eq(b->c32[PEBS_COL_CPU][1], 5);
	cr_assert_eq(pebs_csvin_samples(c), 2);
	pebs_csvin_close(c);
	pebs_batch_free(b);
}

/* Headers count when read whole: not a binary file's nor a bad one. */
Test(csvin, headers_read)
{
	struct pebs_batch *b = pebs_batch_new(64);
	struct pebs_csvin_sink sk = { b_event, b_sample, b };
	struct pebs_csvin *c;
	static const struct {
		const char *text;
		int rc;
		uint64_t headers;	/* after it */
	} in[] = {
		{ "", 0, 0 },
		{ "foo,lat\n1,2\n", -PEBS_E_PARSE, 0 },
		{ "\x89PEBS\n", -PEBS_E_FORMAT, 0 },
		{ "time,lat", 0, 1 },		/* no line end */
		{ "time,lat\nx,2\n", -PEBS_E_PARSE, 2 },
		{ "\"time,lat\n", -PEBS_E_PARSE, 2 },	/* never ends */
		{ "cpu\n1\n", 0, 3 },
	};
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	cr_assert_eq(pebs_csvin_headers(c), 0);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		int r = pebs_csvin_feed(c, in[i].text, strlen(in[i].text));
		int e = pebs_csvin_end(c);
		cr_assert_eq(r ? r : e, in[i].rc, "input %zu: %d", i, r ? r : e);
		cr_assert_eq(pebs_csvin_headers(c), in[i].headers,
			     "input %zu", i);
	}
	cr_assert_eq(pebs_csvin_samples(c), 1);
	pebs_csvin_close(c);
	pebs_batch_free(b);
}

static int fail_sample(void *ctx, const struct pebs_sample *s)
{
	(void)ctx;
	(void)s;
	return -PEBS_E_IO;
}

Test(csvin, sink_error_passes_through)
{
	struct pebs_batch *b = pebs_batch_new(4);
	struct pebs_csvin_sink sk = { b_event, fail_sample, b };
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	cr_assert_eq(pebs_csvin_feed(c, "lat\n1\n", 6), -PEBS_E_IO);
	cr_assert_str_eq(pebs_csvin_errmsg(c), "line 2: I/O error");
	pebs_csvin_close(c);
	pebs_batch_free(b);
}

/* A sink whose dictionary is full after two names, as a writer's is. */
static int two_names(void *ctx, const char *name)
{
	int id = pebs_batch_intern(ctx, name);
	return id >= 2 ? -PEBS_E_RANGE : id;
}

/* The format's limits on event names are bad input, with line and field. */
Test(csvin, event_name_limits)
{
	char text[1200];
	snprintf(text, sizeof(text), "time,event\n1,a\n2,%01025d\n3,c\n", 0);
	expect_error(text, -PEBS_E_RANGE, "line 3: field \"event\": name "
		     "too long (at most 1024 bytes)");
	snprintf(text, sizeof(text), "event\n%01024d\n", 0);
	struct run r = import(text);
	cr_assert_eq(r.rc, 0, "%s", r.msg);
	cr_assert_eq(strlen(pebs_batch_event(r.b, 0)), 1024);
	pebs_batch_free(r.b);

	struct pebs_batch *b = pebs_batch_new(8);
	struct pebs_csvin_sink sk = { two_names, b_sample, b };
	struct pebs_csvin *c;
	const char *t = "event\na\nb\na\nc\nb\n";
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	cr_assert_eq(pebs_csvin_feed(c, t, strlen(t)), -PEBS_E_RANGE);
	cr_assert_str_eq(pebs_csvin_errmsg(c), "line 5: field \"event\": too "
			 "many distinct names (at most 65535)");
	cr_assert_eq(b->n, 3);
	pebs_csvin_close(c);
	pebs_batch_free(b);
}

/*
 * A name over a limit leaves the writer usable: the rows before it and
 * the next input are written, and the segment ends properly.
 */
Test(csvin, event_name_limit_keeps_writer)
{
	char path[] = "/tmp/csvin-lim-XXXXXX", bad[1200];
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *fp = fdopen(fd, "wb");
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, NULL), 0);
	cr_assert_eq(pebs_writer_event(w, ""), 0);
	memset(bad, 'A', sizeof(bad) - 1);
	bad[sizeof(bad) - 1] = 0;
	cr_assert_eq(pebs_writer_event(w, bad), -PEBS_E_RANGE);
	cr_assert_str_eq(pebs_writer_errmsg(w), "event name too long (at "
			 "most 1024 bytes)");
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open_writer(&c, w), 0);
	snprintf(bad, sizeof(bad), "time,event\n1,a\n2,%01025d\n3,c\n", 0);
	cr_assert_eq(pebs_csvin_feed(c, bad, strlen(bad)), -PEBS_E_RANGE);
	cr_assert_eq(pebs_csvin_end(c), -PEBS_E_RANGE);
	const char *good = "time,event\n4,d\n";
	cr_assert_eq(pebs_csvin_feed(c, good, strlen(good)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	pebs_csvin_close(c);
	cr_assert_eq(pebs_writer_close(w), 0);
	fclose(fp);

	const char *paths[] = { path };
	struct pebs_reader *rd;
	struct pebs_reader_opts ro = { .threads = 1 };
	cr_assert_eq(pebs_reader_open(&rd, paths, 1, &ro), 0);
	struct pebs_batch *rb;
	cr_assert_eq(pebs_reader_next(rd, &rb), 1, "%s",
		     pebs_reader_errmsg(rd));
	cr_assert_eq(rb->n, 2);
	cr_assert_eq(rb->c64[PEBS_COL_TIME][0], 1);
	cr_assert_eq(rb->c64[PEBS_COL_TIME][1], 4);
	cr_assert_str_eq(pebs_batch_event(rb, 1), "d");
	cr_assert_eq(pebs_reader_next(rd, &rb), 0, "%s",
		     pebs_reader_errmsg(rd));
	pebs_reader_close(rd);
	unlink(path);
}

/* ----------------------------------------------------------- round trip */

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Random values of every size, biased to small and to edge values. */
static uint64_t rval(uint64_t *x, int u32)
{
	uint64_t v = rnd(x);
	switch (v & 7) {
	case 0: v = 0; break;
	case 1: v = UINT64_MAX; break;
	case 2: v &= 0xff; break;
	default: v >>= rnd(x) & 63; break;
	}
	return u32 ? (uint32_t)v : v;
}

static struct pebs_batch *random_batch(uint64_t *x, size_t n)
{
	static const char *const names[] = {
		"load-latency", "precise-store", "a,b", "q\"uote", " sp ",
		"nl\nx", "", "MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=30",
		"\xc3\xa9t\xc3\xa9", "cr\r",
	};
	struct pebs_batch *b = pebs_batch_new(n);
	for (size_t i = 0; i < n; i++) {
		struct pebs_sample s;
		memset(&s, 0, sizeof(s));
		s.time = rval(x, 0);
		s.cpu = (uint32_t)rval(x, 1);
		s.pid = (uint32_t)rval(x, 1);
		s.tid = (uint32_t)rval(x, 1);
		s.ip = rval(x, 0);
		s.addr = rval(x, 0);
		s.lat = (uint32_t)rval(x, 1);
		s.ins_lat = (uint32_t)rval(x, 1);
		s.dsrc = rval(x, 0);
		s.raw_dse = rval(x, 0);
		s.fmt = (uint32_t)rval(x, 1);
		s.flags = (uint32_t)rval(x, 1);
		s.applicable = rval(x, 0);
		s.tsx = rval(x, 0);
		s.phys_addr = rval(x, 0);
		for (int r = 0; r < PEBS_REG_COUNT; r++)
			s.regs[r] = rval(x, 0);
		s.event = (uint32_t)pebs_batch_intern(
			b, names[rnd(x) % (sizeof(names) / sizeof(names[0]))]);
		cr_assert_eq(pebs_batch_push(b, &s), 0);
	}
	return b;
}

static char *to_csv(const struct pebs_batch *b, const int *ids, size_t n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	struct pebs_output *o = pebs_output_open(PEBS_OUT_CSV, ids, n, 0, fp);
	cr_assert(o);
	cr_assert_eq(pebs_output_batch(o, b), 0);
	cr_assert_eq(pebs_output_close(o), 0);
	fclose(fp);
	return out;
}

Test(csvin, round_trip_random_fields)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	const struct pebs_field *f;
	int all[128];
	size_t nall = 0;
	for (size_t i = 0; (f = pebs_field_at(i)); i++)
		all[nall++] = f->id;
	for (int round = 0; round < 60; round++) {
		struct pebs_batch *b = random_batch(&x, 1 + rnd(&x) % 300);
		int ids[128];
		size_t n;
		if (round == 0) {
			memcpy(ids, all, nall * sizeof(int));
			n = nall;
		} else if (round == 1) {
			const char *bad;
			n = (size_t)pebs_field_parse_list(
				pebs_field_default_list, ids, 128, &bad);
		} else {
			/* a random subset in random order, repeats allowed */
			n = 1 + rnd(&x) % nall;
			for (size_t i = 0; i < n; i++)
				ids[i] = all[rnd(&x) % nall];
		}
		char *csv = to_csv(b, ids, n);
		/* split feeds must not change anything */
		struct run r = import_step(csv, strlen(csv),
					   round % 3 ? 1 + rnd(&x) % 97 : 0);
		cr_assert_eq(r.rc, 0, "round %d: %s", round, r.msg);
		cr_assert_eq(r.b->n, b->n);
		char *again = to_csv(r.b, ids, n);
		cr_assert_str_eq(again, csv, "round %d", round);
		free(csv);
		free(again);
		pebs_batch_free(r.b);
		pebs_batch_free(b);
	}
}

/* The whole path: csv -> writer -> file -> reader -> csv. */
Test(csvin, round_trip_through_pebs_file)
{
	uint64_t x = 12345;
	struct pebs_batch *b = random_batch(&x, 3000);
	int ids[64];
	const char *bad;
	int n = pebs_field_parse_list(pebs_field_default_list, ids, 64, &bad);
	char *csv = to_csv(b, ids, (size_t)n);
	char path[] = "/tmp/csvin-rt-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	FILE *fp = fdopen(fd, "wb");
	struct pebs_writer *w;
	struct pebs_writer_opts wo = { .block_samples = 1000 };
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, &wo), 0);
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open_writer(&c, w), 0);
	cr_assert_eq(pebs_csvin_feed(c, csv, strlen(csv)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	pebs_csvin_close(c);
	cr_assert_eq(pebs_writer_close(w), 0);
	fclose(fp);

	const char *paths[] = { path };
	struct pebs_reader *rd;
	struct pebs_reader_opts ro = { .threads = 1 };
	cr_assert_eq(pebs_reader_open(&rd, paths, 1, &ro), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&out, &len);
	struct pebs_output *o = pebs_output_open(PEBS_OUT_CSV, ids, (size_t)n,
						 0, mf);
	struct pebs_batch *rb;
	int got, blocks = 0;
	while ((got = pebs_reader_next(rd, &rb)) > 0) {
		cr_assert_eq(pebs_output_batch(o, rb), 0);
		blocks++;
	}
	cr_assert_eq(got, 0, "%s", pebs_reader_errmsg(rd));
	cr_assert_eq(blocks, 3);
	cr_assert_eq(pebs_output_close(o), 0);
	fclose(mf);
	cr_assert_str_eq(out, csv);
	pebs_reader_close(rd);
	unlink(path);
	free(out);
	free(csv);
	pebs_batch_free(b);
}

/* comm values seen by the callback, "pid/tid=name;" each */
static char comm_log[256];

static int c_comm(void *ctx, uint64_t line, const struct pebs_sample *s,
		  const char *name)
{
	size_t n = strlen(comm_log);
	(void)ctx;
	snprintf(comm_log + n, sizeof(comm_log) - n, "%llu:%u/%u=%s;",
		 (unsigned long long)line, s->pid, s->tid, name);
	return strcmp(name, "bad") == 0 ? -PEBS_E_NOMEM : 0;
}

/* The comm column reaches the callback (it was dropped as a symbol). */
Test(csvin_parse, comm_callback)
{
	const char *text = "pid,tid,comm,sym,comm\n"
			   "5,6,\"a,b\",f,\"a,b\"\n"
			   "5,5,[unknown],g,[unknown]\n"
			   "7,7,,h,\n"
			   "\n8,9,x,i,x\n";
	struct pebs_batch *b = pebs_batch_new(16);
	struct pebs_csvin_sink sk = { b_event, b_sample, b };
	struct pebs_csvin *c;
	cr_assert_eq(pebs_csvin_open(&c, &sk), 0);
	comm_log[0] = 0;
	pebs_csvin_set_comm(c, c_comm);
	cr_assert_eq(pebs_csvin_feed(c, text, strlen(text)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	cr_assert_eq(b->n, 4);
	cr_assert_str_eq(comm_log, "2:5/6=a,b;6:8/9=x;");
	/* a repeat must agree; the callback's error stops the input */
	comm_log[0] = 0;
	const char *bad = "pid,comm,comm\n1,x,y\n";
	cr_assert_eq(pebs_csvin_feed(c, bad, strlen(bad)), -PEBS_E_PARSE);
	cr_assert_str_eq(pebs_csvin_errmsg(c), "line 2: field \"comm\": "
			 "repeated with another value");
	pebs_csvin_end(c);
	const char *cb = "pid,comm\n1,bad\n";
	cr_assert_eq(pebs_csvin_feed(c, cb, strlen(cb)), -PEBS_E_NOMEM);
	pebs_csvin_end(c);
	/* without the callback the column is ignored, as before */
	pebs_csvin_set_comm(c, NULL);
	comm_log[0] = 0;
	cr_assert_eq(pebs_csvin_feed(c, cb, strlen(cb)), 0);
	cr_assert_eq(pebs_csvin_end(c), 0);
	cr_assert_str_eq(comm_log, "");
	pebs_csvin_close(c);
	pebs_batch_free(b);
}
