/*
 * output_fmt.c - the text formatters of pebs_output.h: exact strings for
 * every format, quoting and escaping, number formatting against snprintf.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "errbuf.h"
#include "output_fmt.h"
#include "pebs_dsrc.h"
#include "pebs_field.h"
#include "pebs_output.h"

/* A batch of two known samples; event names as given. */
static struct pebs_batch *two(const char *ev0, const char *ev1)
{
	struct pebs_batch *b = pebs_batch_new(16);
	struct pebs_sample s = { 0 };
	cr_assert(b);
	s.time = 1000;
	s.cpu = 3;
	s.pid = 42;
	s.tid = 43;
	s.event = (uint32_t)pebs_batch_intern(b, ev0);
	s.ip = 0x4005d0;
	s.addr = 0x7ffd1043;
	s.lat = 35;
	s.ins_lat = 7;
	s.dsrc = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
				PEBS_DS_LVL_L1, PEBS_DS_SNOOP_NONE, 0,
				PEBS_DS_TLB_HIT | PEBS_DS_TLB_L1, 0, 0, 0);
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	memset(&s, 0, sizeof(s));
	s.time = 18446744073709551615ull;
	s.event = (uint32_t)pebs_batch_intern(b, ev1);
	s.ip = 0xffffffffffffffffull;
	s.lat = 4294967295u;
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	return b;
}

/* Renders @b (NULL: no batch) with field list @list to a string. */
static char *render(int fmt, const char *list, unsigned flags,
		    const struct pebs_batch *b)
{
	int ids[64];
	const char *bad;
	char *out = NULL;
	size_t len = 0;
	int n = pebs_field_parse_list(list, ids, 64, &bad);
	cr_assert_gt(n, 0, "field list %s", list);
	FILE *fp = open_memstream(&out, &len);
	cr_assert(fp);
	struct pebs_output *o = pebs_output_open(fmt, ids, (size_t)n, flags,
						 fp);
	cr_assert(o);
	if (b)
		cr_assert_eq(pebs_output_batch(o, b), 0);
	cr_assert_eq(pebs_output_close(o), 0);
	fclose(fp);
	return out;
}

#define DEF "time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop"

Test(output, csv_default_fields)
{
	struct pebs_batch *b = two("load-latency", "x");
	char *s = render(PEBS_OUT_CSV, pebs_field_default_list, 0, b);
	cr_assert_str_eq(s,
		DEF "\n"
		"1000,3,42,43,load-latency,0x4005d0,0x7ffd1043,35,7,"
		"0x28100142,load,L1,none\n"
		"18446744073709551615,0,0,0,x,0xffffffffffffffff,0x0,"
		"4294967295,0,0x0,na,NA,na\n");
	free(s);
	pebs_batch_free(b);
}

Test(output, csv_no_header_and_derived)
{
	struct pebs_batch *b = two("a", "b");
	char *s = render(PEBS_OUT_CSV, "line,page,tlb,lock,addr",
			 PEBS_OUT_NO_HEADER, b);
	cr_assert_str_eq(s, "0x7ffd1040,0x7ffd1000,hit,no,0x7ffd1043\n"
			 "0x0,0x0,na,no,0x0\n");
	free(s);
	pebs_batch_free(b);
}

Test(output, csv_quoting)
{
	struct pebs_batch *b = two("a,b \"c\"", " lead");
	char *s = render(PEBS_OUT_CSV, "event,cpu", PEBS_OUT_NO_HEADER, b);
	cr_assert_str_eq(s, "\"a,b \"\"c\"\"\",3\n\" lead\",0\n");
	free(s);
	pebs_batch_reset(b);
	struct pebs_sample x = { 0 };
	x.event = (uint32_t)pebs_batch_intern(b, "two\nlines\r");
	pebs_batch_push(b, &x);
	x.event = (uint32_t)pebs_batch_intern(b, "trail\t");
	pebs_batch_push(b, &x);
	x.event = 99;		/* outside the dictionary: empty, alone: "" */
	pebs_batch_push(b, &x);
	s = render(PEBS_OUT_CSV, "event", PEBS_OUT_NO_HEADER, b);
	cr_assert_str_eq(s, "\"two\nlines\r\"\n\"trail\t\"\n\"\"\n");
	free(s);
	/* not alone: an empty field between commas */
	s = render(PEBS_OUT_CSV, "event,event", PEBS_OUT_NO_HEADER, b);
	cr_assert(strstr(s, "\n,\n") != NULL, "%s", s);
	free(s);
	pebs_batch_free(b);
}

Test(output, csv_empty_outputs)
{
	char *s = render(PEBS_OUT_CSV, "time,lat", 0, NULL);
	cr_assert_str_eq(s, "time,lat\n");
	free(s);
	s = render(PEBS_OUT_CSV, "time,lat", PEBS_OUT_NO_HEADER, NULL);
	cr_assert_str_eq(s, "");
	free(s);
	s = render(PEBS_OUT_JSONL, "time", 0, NULL);
	cr_assert_str_eq(s, "");
	free(s);
	s = render(PEBS_OUT_YAML, "time", 0, NULL);
	cr_assert_str_eq(s, "[]\n");
	free(s);
}

Test(output, csv_header_once_over_batches)
{
	struct pebs_batch *b = two("e", "e");
	int ids[] = { PEBS_COL_LAT };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	struct pebs_output *o = pebs_output_open(PEBS_OUT_CSV, ids, 1, 0, fp);
	cr_assert_eq(pebs_output_batch(o, b), 0);
	cr_assert_eq(pebs_output_batch(o, b), 0);
	cr_assert_eq(pebs_output_close(o), 0);
	fclose(fp);
	cr_assert_str_eq(out, "lat\n35\n4294967295\n35\n4294967295\n");
	free(out);
	pebs_batch_free(b);
}

Test(output, jsonl)
{
	struct pebs_batch *b = two("q\"\\\x01\xff", "\xc3\xa9t\xc3\xa9");
	char *s = render(PEBS_OUT_JSONL, "time,event,ip,lat,op", 0, b);
	cr_assert_str_eq(s,
		"{\"time\":1000,\"event\":\"q\\\"\\\\\\u0001\\ufffd\","
		"\"ip\":\"0x4005d0\",\"lat\":35,\"op\":\"load\"}\n"
		"{\"time\":18446744073709551615,"
		"\"event\":\"\xc3\xa9t\xc3\xa9\","
		"\"ip\":\"0xffffffffffffffff\",\"lat\":4294967295,"
		"\"op\":\"na\"}\n");
	free(s);
	pebs_batch_free(b);
}

Test(output, text_aligned)
{
	struct pebs_batch *b = two("load-latency", "\x1b[31m");
	char *s = render(PEBS_OUT_TEXT, "time,cpu,event,addr,mem", 0, b);
	char want[512];
	/* widths: time 16, cpu 4, event 20 (left), addr 18; last unpadded */
	snprintf(want, sizeof(want), "%16s %4s %-20s %18s %s\n"
		 "%16s %4s %-20s %18s %s\n%16s %4s %-20s %18s %s\n",
		 "time", "cpu", "event", "addr", "mem",
		 "1000", "3", "load-latency", "0x7ffd1043", "L1",
		 "18446744073709551615", "0", "?[31m", "0x0", "NA");
	cr_assert_str_eq(s, want);
	free(s);
	s = render(PEBS_OUT_TEXT, "lat", PEBS_OUT_NO_HEADER, b);
	cr_assert_str_eq(s, "    35\n4294967295\n");
	free(s);
	pebs_batch_free(b);
}

/*
 * The event column takes the longest name of the first batch up to 48; a
 * longer name caps it at 48 (it used to be skipped, leaving 20) and
 * overflows its own row only.
 */
Test(output, text_event_width_capped)
{
	static const unsigned lens[] = { 47, 48, 49, 62 };
	for (size_t t = 0; t < sizeof(lens) / sizeof(lens[0]); t++) {
		char name[64], want[256];
		unsigned n = lens[t], w = n < 48 ? n : 48;
		memset(name, 'E', n);
		name[n] = '\0';
		struct pebs_batch *b = two(name, "ab");
		char *s = render(PEBS_OUT_TEXT, "event,lat", 0, b);
		snprintf(want, sizeof(want), "%-*s %6s\n%-*s %6s\n%-*s %6s\n",
			 (int)w, "event", "lat", (int)w, name, "35",
			 (int)w, "ab", "4294967295");
		cr_assert_str_eq(s, want, "name of %u", n);
		free(s);
		pebs_batch_free(b);
	}
}

Test(output, yaml)
{
	struct pebs_batch *b = two("no", "123");
	char *s = render(PEBS_OUT_YAML, "time,event,addr,snoop", 0, b);
	cr_assert_str_eq(s,
		"- time: 1000\n"
		"  event: 'no'\n"
		"  addr: 0x7ffd1043\n"
		"  snoop: none\n"
		"- time: 18446744073709551615\n"
		"  event: '123'\n"
		"  addr: 0x0\n"
		"  snoop: na\n");
	free(s);
	pebs_batch_free(b);
}

Test(output, yaml_strings_need_care)
{
	struct pebs_batch *b = two("", "a: b\xff");
	char *s = render(PEBS_OUT_YAML, "event", 0, b);
	cr_assert_str_eq(s, "- event: ''\n- event: 'a: b\xef\xbf\xbd'\n");
	free(s);
	pebs_batch_free(b);
	/* YAML 1.1's value and merge keys read as tags, not strings */
	b = two("=", "<<");
	s = render(PEBS_OUT_YAML, "event", 0, b);
	cr_assert_str_eq(s, "- event: '='\n- event: '<<'\n");
	free(s);
	pebs_batch_free(b);
}

Test(output, bad_open_arguments)
{
	int ids[] = { PEBS_COL_TIME }, bad[] = { 1000 };
	cr_assert_null(pebs_output_open(99, ids, 1, 0, stdout));
	cr_assert_null(pebs_output_open(PEBS_OUT_CSV, ids, 0, 0, stdout));
	cr_assert_null(pebs_output_open(PEBS_OUT_CSV, bad, 1, 0, stdout));
	cr_assert_eq(pebs_output_close(NULL), 0);
}

/* yaml and jsonl keys are unique: a repeated field is refused there only. */
Test(output, repeat_refused_for_keyed_formats)
{
	int ids[] = { PEBS_COL_LAT, PEBS_COL_CPU, PEBS_COL_LAT, PEBS_COL_CPU };
	int one[] = { PEBS_COL_LAT, PEBS_COL_CPU, PEBS_F_LINE };
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_YAML, ids, 4), 2);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_JSONL, ids, 4), 2);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_JSONL, ids + 1, 3), 2);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_CSV, ids, 4), -1);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_TEXT, ids, 4), -1);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_YAML, one, 3), -1);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_YAML, ids, 2), -1);
	cr_assert_eq(pebs_output_find_repeat(PEBS_OUT_YAML, ids, 0), -1);
	cr_assert_null(pebs_output_open(PEBS_OUT_YAML, ids, 3, 0, stdout));
	cr_assert_null(pebs_output_open(PEBS_OUT_JSONL, ids, 3, 0, stdout));
	/* csv and text keep repeats */
	struct pebs_batch *b = two("x", "y");
	char *t = render(PEBS_OUT_CSV, "lat,lat", 0, b);
	cr_assert_str_eq(t, "lat,lat\n35,35\n4294967295,4294967295\n");
	free(t);
	pebs_batch_free(b);
}

Test(output, format_names)
{
	cr_assert_eq(pebs_output_format_parse("csv"), PEBS_OUT_CSV);
	cr_assert_eq(pebs_output_format_parse("yaml"), PEBS_OUT_YAML);
	cr_assert_eq(pebs_output_format_parse("jsonl"), PEBS_OUT_JSONL);
	cr_assert_eq(pebs_output_format_parse("text"), PEBS_OUT_TEXT);
	cr_assert_eq(pebs_output_format_parse("pebs"), -1);
	cr_assert_eq(pebs_output_format_parse("CSV"), -1);
}

Test(output, write_error_reported)
{
	FILE *fp = fopen("/dev/full", "w");
	if (!fp)
		cr_skip_test("no /dev/full");
	struct pebs_batch *b = two("e", "e");
	int ids[] = { PEBS_COL_TIME };
	struct pebs_output *o = pebs_output_open(PEBS_OUT_CSV, ids, 1, 0, fp);
	setvbuf(fp, NULL, _IONBF, 0);
	int r = 0;
	/* Unbuffered: the first batch already reaches the full device. */
	r = pebs_output_batch(o, b);
	cr_assert_eq(r, -PEBS_E_IO);
	cr_assert_eq(pebs_output_batch(o, b), -PEBS_E_IO);
	cr_assert_eq(pebs_output_close(o), -PEBS_E_IO);
	fclose(fp);
	pebs_batch_free(b);
}

/* ------------------------------------------------------------ numbers */

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void check_num(uint64_t v)
{
	char want[32], got[32];
	snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
	*pebs_outfmt_u64(got, v) = 0;
	cr_assert_str_eq(got, want);
	if (v <= UINT32_MAX) {
		*pebs_outfmt_u32(got, (uint32_t)v) = 0;
		cr_assert_str_eq(got, want);
	}
	snprintf(want, sizeof(want), "0x%llx", (unsigned long long)v);
	*pebs_outfmt_hex(got, v) = 0;
	cr_assert_str_eq(got, want);
	uint64_t back;
	cr_assert_eq(pebs_outfmt_parse_u64(want, strlen(want), &back), 0);
	cr_assert_eq(back, v);
}

Test(output, numbers_match_snprintf)
{
	uint64_t x = 88172645463325252ull;
	for (uint64_t p = 1, i = 0; i < 20; i++, p *= 10) {
		check_num(p - 1);
		check_num(p);
		check_num(p + 1);
	}
	for (unsigned s = 0; s < 64; s++) {
		check_num(1ull << s);
		check_num((1ull << s) - 1);
	}
	check_num(UINT32_MAX);
	check_num(UINT64_MAX);
	for (int i = 0; i < 200000; i++) {
		uint64_t v = rnd(&x);
		check_num(v >> (v & 63));
	}
}

Test(output, parse_numbers)
{
	uint64_t v = 7;
	cr_assert_eq(pebs_outfmt_parse_u64("", 0, &v), -1);
	cr_assert_eq(pebs_outfmt_parse_u64("0x", 2, &v), -1);
	cr_assert_eq(pebs_outfmt_parse_u64("0xg", 3, &v), -1);
	cr_assert_eq(pebs_outfmt_parse_u64("-1", 2, &v), -1);
	cr_assert_eq(pebs_outfmt_parse_u64("1 ", 2, &v), -1);
	cr_assert_eq(pebs_outfmt_parse_u64("18446744073709551616", 20, &v),
		     -2);
	cr_assert_eq(pebs_outfmt_parse_u64("0x10000000000000000", 19, &v),
		     -2);
	cr_assert_eq(pebs_outfmt_parse_u64("0x0000000000000000001", 21, &v),
		     0);
	cr_assert_eq(v, 1);
	cr_assert_eq(pebs_outfmt_parse_u64("0XfF", 4, &v), 0);
	cr_assert_eq(v, 255);
	cr_assert_eq(pebs_outfmt_parse_u64("007", 3, &v), 0);
	cr_assert_eq(v, 7);
}

/* The counts options take: what strtoull() accepted and this does not. */
Test(output, parse_counts)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} c[] = {
		{ "010", 0, 10 },	/* not octal */
		{ "0x10", 0, 16 },
		{ "1k", 0, 1000 },
		{ "2K", 0, 2000 },
		{ "3M", 0, 3000000 },
		{ "0x2G", 0, 2000000000 },
		{ "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709552k", -PEBS_E_RANGE, 0 },
		{ "18446744073709551616", -PEBS_E_RANGE, 0 },
		{ "19G", 0, 19000000000ull },
		{ " 5", -PEBS_E_PARSE, 0 },
		{ "+5", -PEBS_E_PARSE, 0 },
		{ "-5", -PEBS_E_PARSE, 0 },
		{ "5 ", -PEBS_E_PARSE, 0 },
		{ "k", -PEBS_E_PARSE, 0 },
		{ "1kk", -PEBS_E_PARSE, 0 },
		{ "1m", -PEBS_E_PARSE, 0 },
		{ "", -PEBS_E_PARSE, 0 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t v = 12345;
		int rc = pebs_num_parse(c[i].s, strlen(c[i].s), &v);
		cr_assert_eq(rc, c[i].rc, "\"%s\": %d", c[i].s, rc);
		cr_assert_eq(v, rc ? 12345 : c[i].v, "\"%s\"", c[i].s);
	}
	/* the length bounds it: no terminator read */
	uint64_t v;
	cr_assert_eq(pebs_num_parse("12k34", 3, &v), 0);
	cr_assert_eq(v, 12000);
}

/* --------------------------------------------------------------- info */

Test(output, info_yaml)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_set(m, "source", "gen");
	pebs_meta_set(m, "cpu.vendor", "GenuineIntel");
	pebs_meta_set(m, "cpu.model", "85");
	pebs_meta_set(m, "time.unit", "tsc");
	pebs_meta_set(m, "tsc.hz", "2000000000");
	pebs_meta_set(m, "events.0.name", "load-latency");
	pebs_meta_set(m, "events.0.ldlat", "30");
	pebs_meta_set(m, "events.1.name", "precise-store");
	pebs_meta_set(m, "topology.node.1.cpus", "28-55");
	pebs_meta_set(m, "host", "no");
	pebs_meta_set(m, "plan", "x");
	pebs_meta_set(m, "plan.0.msr", "0x3f1");
	struct pebs_summary *s = pebs_summary_new();
	struct pebs_batch *b = two("load-latency", "precise-store");
	b->c64[PEBS_COL_TIME][1] = 5000001000ull;
	cr_assert_eq(pebs_summary_add(s, b), 0);
	cr_assert_eq(pebs_summary_add(s, b), 0);
	struct pebs_read_stats st = { .samples = 4, .blocks = 2,
				      .segments = 2, .bytes = 1001,
				      .minor_min = 1, .minor_max = 2,
				      .have_minor = 1 };
	st.col_bytes[PEBS_COL_LAT] = 100;
	st.col_bytes[PEBS_COL_ADDR] = 300;
	st.col_bytes[PEBS_COL_TIME] = 100;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	cr_assert_eq(pebs_output_info(fp, "x.pebs", m, s, &st), 0);
	fclose(fp);
	cr_assert_str_eq(out,
		"---\n"
		"file: x.pebs\n"
		"metadata:\n"
		"  source: gen\n"
		"  cpu:\n"
		"    vendor: GenuineIntel\n"
		"    model: 85\n"
		"  time:\n"
		"    unit: tsc\n"
		"  tsc:\n"
		"    hz: 2000000000\n"
		"  events:\n"
		"  - name: load-latency\n"
		"    ldlat: 30\n"
		"  - name: precise-store\n"
		"  topology:\n"
		"    node:\n"
		"      1:\n"
		"        cpus: 28-55\n"
		"  host: 'no'\n"
		"  plan:\n"
		"    _: x\n"
		"    0:\n"
		"      msr: 0x3f1\n"
		"summary:\n"
		"  samples: 4\n"
		"  blocks: 2\n"
		"  segments: 2\n"
		"  lost: 0\n"
		"  damaged_blocks: 0\n"
		"  bytes: 1001\n"
		"  bytes_per_sample: 250.25\n"
		"  format: '1.1 to 1.2'\n"
		"  columns:\n"
		"  - name: addr\n"
		"    bytes: 300\n"
		"    bytes_per_sample: 75.000\n"
		"    percent_of_file: 30.0\n"
		"  - name: time\n"
		"    bytes: 100\n"
		"    bytes_per_sample: 25.000\n"
		"    percent_of_file: 10.0\n"
		"  - name: lat\n"
		"    bytes: 100\n"
		"    bytes_per_sample: 25.000\n"
		"    percent_of_file: 10.0\n"
		"  time:\n"
		"    first: 1000\n"
		"    last: 5000001000\n"
		"    unit: tsc\n"
		"    seconds: 2.500000000\n"
		"  events:\n"
		"  - name: load-latency\n"
		"    count: 2\n"
		"  - name: precise-store\n"
		"    count: 2\n");
	free(out);
	pebs_batch_free(b);
	pebs_summary_free(s);
	pebs_meta_free(m);
}

/*
 * Seconds only from a tsc.hz that is a decimal integer above 0, read as
 * pebs_meta_check() and pebs-filter's t read it: not 16 Hz from "0x10",
 * nor 2 GHz from "2000000000junk".
 */
Test(output, info_seconds_need_a_decimal_tsc_hz)
{
	static const struct {
		const char *hz;
		int seconds;
	} c[] = {
		{ "2000000000", 1 }, { "0x10", 0 }, { "2000000000junk", 0 },
		{ "inf", 0 }, { "1e400", 0 }, { "0", 0 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_meta *m = pebs_meta_new();
		pebs_meta_set(m, "time.unit", "tsc");
		pebs_meta_set(m, "tsc.hz", c[i].hz);
		struct pebs_summary *s = pebs_summary_new();
		struct pebs_batch *b = two("load-latency", "precise-store");
		cr_assert_eq(pebs_summary_add(s, b), 0);
		struct pebs_read_stats st = { .samples = 2, .blocks = 1,
					      .segments = 1, .bytes = 100 };
		char *out = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&out, &len);
		cr_assert_eq(pebs_output_info(fp, "x.pebs", m, s, &st), 0);
		fclose(fp);
		cr_expect_eq(strstr(out, "seconds:") != NULL, c[i].seconds,
			     "%s", c[i].hz);
		free(out);
		pebs_batch_free(b);
		pebs_summary_free(s);
		pebs_meta_free(m);
	}
}

/*
 * Many keys under one prefix (maps.N.* of a long-running process) and
 * many event names: both are indexed, the sequence is put in order
 * whatever order the keys came in, and same-named children of different
 * parents stay apart.
 */
Test(output, info_many_keys_and_names)
{
	enum { N = 100000, E = 65535 };
	struct pebs_meta *m = pebs_meta_new();
	char k[48], v[24];
	/* a permutation of 0..N-1 (N is not a multiple of 7919) */
	for (unsigned i = 0; i < N; i++) {
		unsigned j = (unsigned)((i * 7919ull) % N);
		snprintf(k, sizeof(k), "maps.%u.x", j);
		snprintf(v, sizeof(v), "%u", j);
		cr_assert_eq(pebs_meta_set(m, k, v), 0);
	}
	pebs_meta_set(m, "gap.0", "a");
	pebs_meta_set(m, "gap.2", "b");
	pebs_meta_set(m, "lead.01", "c");
	pebs_meta_set(m, "x.k", "1");
	pebs_meta_set(m, "y.k", "2");
	struct pebs_summary *s = pebs_summary_new();
	struct pebs_batch *b = pebs_batch_new(E);
	struct pebs_sample smp = { 0 };
	for (unsigned i = 0; i < E; i++) {
		snprintf(k, sizeof(k), "e%u", i);
		smp.event = (uint32_t)pebs_batch_intern(b, k);
		cr_assert_eq(pebs_batch_push(b, &smp), 0);
	}
	cr_assert_eq(pebs_summary_add(s, b), 0);
	cr_assert_eq(pebs_summary_add(s, b), 0);
	struct pebs_read_stats st = { .samples = 2 * E, .blocks = 2 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	cr_assert_eq(pebs_output_info(fp, "x.pebs", m, s, &st), 0);
	fclose(fp);
	cr_assert(strstr(out, "metadata:\n  maps:\n  - x: 0\n  - x: 1\n"));
	cr_assert(strstr(out, "  - x: 4999\n  - x: 5000\n"));
	/* 01 quoted: plain, a reader takes it for the number 1 */
	cr_assert(strstr(out, "  - x: 99999\n  gap:\n    0: a\n    2: b\n"
			 "  lead:\n    '01': c\n  x:\n    k: 1\n"
			 "  'y':\n    k: 2\n"),
		  "%.300s", strstr(out, "99999"));
	cr_assert(strstr(out, "  - name: e0\n    count: 2\n"
			 "  - name: e1\n    count: 2\n"));
	cr_assert(strstr(out, "  - name: e65534\n    count: 2\n"));
	/* every name once; counted line by line, since strstr() from each
	 * hit is quadratic under ASan, which measures the rest each call */
	size_t names = 0;
	const char *end = out + len, *nl;
	for (const char *p = out; (nl = memchr(p, '\n', (size_t)(end - p)));
	     p = nl + 1)
		names += !strncmp(p, "  - name: e", 11);
	cr_assert_eq(names, E);
	free(out);
	pebs_batch_free(b);
	pebs_summary_free(s);
	pebs_meta_free(m);
}

Test(output, info_empty)
{
	struct pebs_summary *s = pebs_summary_new();
	struct pebs_read_stats st = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	cr_assert_eq(pebs_output_info(fp, "-", NULL, s, &st), 0);
	fclose(fp);
	cr_assert_str_eq(out,
		"---\n"
		"file: '-'\n"
		"metadata: {}\n"
		"summary:\n"
		"  samples: 0\n"
		"  blocks: 0\n"
		"  segments: 0\n"
		"  lost: 0\n"
		"  damaged_blocks: 0\n"
		"  bytes: 0\n"
		"  events: []\n");
	free(out);
	pebs_summary_free(s);
}

/* What @put writes for @s, NUL-terminated, to free. */
static char *put_to_str(void (*put)(FILE *, const char *), const char *s)
{
	char *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert(fp);
	put(fp, s);
	cr_assert_eq(fclose(fp), 0);
	return buf;
}

static void text_put(FILE *fp, const char *s)
{
	pebs_outfmt_text_fputs(fp, s, 8);
}

Test(output, names_in_text_yaml_xml)
{
	static const struct {
		const char *in, *text, *yaml, *xml;
	} t[] = {
		{ "plain", "plain   ", "\"plain\"", "plain" },
		{ "a\"<&>\\", "a\"<&>\\  ", "\"a\\\"<&>\\\\\"",
		  "a&quot;&lt;&amp;&gt;\\" },
		{ "x\033[2J\ny\x7f", "x?[2J?y?", "\"x\\x1b[2J\\x0ay\\x7f\"",
		  "x\xef\xbf\xbd[2J\xef\xbf\xbdy\xef\xbf\xbd" },
		{ "c1\xc2\x85\xc2\x9b|\xe2\x80\xa8", "c1??|\xe2\x80\xa8  ",
		  "\"c1\\x85\\x9b|\\u2028\"",
		  "c1\xef\xbf\xbd\xef\xbf\xbd|\xe2\x80\xa8" },
		{ "caf\xe9 \xef\xbf\xbe\xef\xb7\x90", "caf? \xef\xbf\xbe"
		  "\xef\xb7\x90 ", "\"caf\\ufffd \\ufffe\xef\xb7\x90\"",
		  "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xe2\x82\xac\xf0\x9f\x98\x80", "\xe2\x82\xac\xf0\x9f\x98\x80"
		  "      ", "\"\xe2\x82\xac\xf0\x9f\x98\x80\"",
		  "\xe2\x82\xac\xf0\x9f\x98\x80" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *a = put_to_str(text_put, t[i].in);
		char *b = put_to_str(pebs_outfmt_yaml_fputs, t[i].in);
		char *c = put_to_str(pebs_outfmt_xml_fputs, t[i].in);
		cr_assert_str_eq(a, t[i].text, "text of case %zu", i);
		cr_assert_str_eq(b, t[i].yaml, "yaml of case %zu", i);
		cr_assert_str_eq(c, t[i].xml, "xml of case %zu", i);
		/* the buffer writer of pebs-decode's text table makes the
		 * same text (without the padding) and counts its width */
		char d[64];
		uint32_t w;
		size_t n = pebs_outfmt_text_str(d, t[i].in, strlen(t[i].in),
						&w);
		size_t want = strlen(t[i].text);
		while (want && t[i].text[want - 1] == ' ' && want > n)
			want--;
		cr_assert_eq(n, want, "text_str length of case %zu", i);
		cr_assert_eq(memcmp(d, t[i].text, n), 0,
			     "text_str of case %zu", i);
		/* the cases are at most 8 characters: the pad fills up
		 * what they lack of 8 */
		cr_assert_eq(w, 8 - (strlen(t[i].text) - want),
			     "text_str width of case %zu", i);
		free(a);
		free(b);
		free(c);
	}
	cr_assert(pebs_outfmt_utf8_valid("a\xc2\x85\xe2\x80\xa8", 6));
	cr_assert(!pebs_outfmt_utf8_valid("caf\xe9", 4));
	cr_assert(!pebs_outfmt_utf8_valid("\xed\xa0\x80", 3));
}

/* libyaml's reading of document @doc, one scalar, to free. */
static char *yaml_read_back(const char *doc, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	char *out = NULL;
	cr_assert(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)doc, len);
	for (;;) {
		cr_assert(yaml_parser_parse(&p, &ev), "libyaml: %s in %s",
			  p.problem, doc);
		yaml_event_type_t type = ev.type;
		if (type == YAML_SCALAR_EVENT && !out)
			out = strdup((const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
		if (type == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
	return out;
}

/*
 * Random valid UTF-8 names, rich in what YAML does not take as it is:
 * libyaml reads each back as the same bytes.
 */
Test(output, yaml_names_read_back)
{
	static const char *const parts[] = {
		"a", " ", "\"", "\\", "\t", "\n", "\r", "\x1b", "\x7f",
		"\xc2\x80", "\xc2\x85", "\xc2\x9f", "\xc2\xa0", "\xc3\xa9",
		"\xe2\x80\xa8", "\xe2\x80\xa9", "\xef\xbb\xbf", "\xef\xbf\xbe",
		"\xef\xbf\xbf", "\xef\xb7\x90", "\xf0\x9f\x98\x80",
		"\xf4\x8f\xbf\xbf", "#", ": ", "- ", "'", "%", "!", "&", "*",
	};
	const size_t np = sizeof(parts) / sizeof(parts[0]);
	uint64_t x = 12345;
	for (int i = 0; i < 3000; i++) {
		char name[256] = "";
		size_t n = rnd(&x) % 12;
		for (size_t k = 0; k < n; k++)
			strcat(name, parts[rnd(&x) % np]);
		char *q = put_to_str(pebs_outfmt_yaml_fputs, name);
		char doc[2048];
		int len = snprintf(doc, sizeof(doc), "%s\n", q);
		char *back = yaml_read_back(doc, (size_t)len);
		cr_assert_str_eq(back, name, "%s", q);
		free(back);
		free(q);
	}
}

/*
 * Names and values from input files in messages: pebs_text_sanitize(),
 * pebs_outfmt_msg_fix() and the library's lib_errf() show them as text
 * tables do (they reached the terminal raw: ESC sequences set its title
 * or cleared it, a '\n' started a line that passed for a message).
 */
Test(output, messages_show_names_as_text_tables)
{
	/* C0 ('\n', '\t', CR too), DEL, C1 as UTF-8 and as a raw byte,
	 * the bidirectional controls (U+202E, U+2066, U+2069, U+200F,
	 * U+061C: they reorder the line on screen), invalid UTF-8 (a lone
	 * lead, a cut sequence, an overlong): '?'; other UTF-8 stays,
	 * U+2028 and U+2030 as text tables keep them */
	static const char in[] = "a\033]0;X\007b\n\t\r\177\302\205\302\237"
				 "\233\377\303\251\342\200\250\342\200\256"
				 "\342\201\246\342\201\251\342\200\217\330\234"
				 "\342\200\260\300\257\342\200";
	static const char want[] = "a?]0;X?b????????\303\251\342\200\250"
				   "?????\342\200\260????";
	char out[sizeof(in)];
	size_t n = pebs_text_sanitize(out, in, sizeof(in) - 1);
	cr_assert_eq(n, sizeof(want) - 1);
	cr_assert_eq(memcmp(out, want, n), 0);
	uint32_t w;
	char tab[sizeof(in)];
	cr_assert_eq(pebs_outfmt_text_str(tab, in, sizeof(in) - 1, &w), n);
	cr_assert_eq(memcmp(tab, out, n), 0, "not as text tables");
	/* in place, and a second pass changes nothing */
	char buf[sizeof(in)];
	memcpy(buf, in, sizeof(in));
	cr_assert_eq(pebs_outfmt_msg_fix(buf), buf);
	cr_assert_str_eq(buf, want);
	cr_assert_str_eq(pebs_outfmt_msg_fix(buf), want);
	cr_assert_eq(pebs_text_sanitize(buf, "", 0), 0);
	/* the library's detail messages, cut or not */
	char msg[64];
	lib_errf(msg, sizeof(msg), "event \"%s\"", "r\033[31md\nfake: x");
	cr_assert_str_eq(msg, "event \"r?[31md?fake: x\"");
	lib_errf(msg, 9, "%s", "abcdef\302\233");
	cr_assert_str_eq(msg, "abcdef?");
	lib_errf(NULL, 0, "%s", "x");
}

/* pebs_utf8_fix(): valid UTF-8 as it is, each bad byte as U+FFFD. */
Test(output, utf8_fix_public)
{
	static const char in[] = "a\303\251\200\300\257\355\240\200\364\220"
				 "\200\200\342\202";
	char out[3 * sizeof(in)];
	size_t n = pebs_utf8_fix(out, in, sizeof(in) - 1);
	static const char want[] = "a\303\251"
		"\357\277\275"				/* stray 0x80 */
		"\357\277\275\357\277\275"		/* overlong */
		"\357\277\275\357\277\275\357\277\275"	/* surrogate */
		"\357\277\275\357\277\275\357\277\275\357\277\275" /* >10FFFF */
		"\357\277\275\357\277\275";		/* cut */
	cr_assert_eq(n, sizeof(want) - 1);
	cr_assert_eq(memcmp(out, want, n), 0);
	cr_assert_eq(pebs_utf8_fix(out, "", 0), 0);
}
