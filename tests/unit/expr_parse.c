/*
 * expr_parse.c - pebs_expr: error messages and columns, the compiled form
 * of the language's pieces, time windows, data-source classes.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_field.h"

struct bad {
	const char *text;
	size_t col;
	const char *msg;
};

Test(expr_parse, errors_point_at_the_column)
{
	static const struct bad cases[] = {
		{ "lat > 3 and latt < 5", 13,
		  "unknown field \"latt\" (did you mean \"lat\"?)" },
		{ "latt", 1, "unknown field \"latt\" (did you mean \"lat\"?)" },
		{ "hitn", 1, "(did you mean \"hitm\"?)" },
		{ "5 == xyzzy", 6, "unknown field \"xyzzy\"" },
		{ "", 1, "empty expression" },
		{ "lat >", 6, "unexpected end of expression" },
		{ "(lat > 3", 1, "unbalanced '('" },
		{ "lat > 3)", 8, "unbalanced ')'" },
		{ "mem == L9", 8, "unknown mem value \"L9\"" },
		{ "snoop in (hit, bogus)", 16, "unknown snoop value" },
		{ "mem < L3", 1, "supports only ==, != and in" },
		{ "lat == \"x\"", 8, "expected a number" },
		{ "mem == 3", 8, "compare it with a string" },
		{ "lat > 1.5", 7, "fractional number is only valid with t" },
		{ "lat > 3s", 7, "time unit is only valid with t" },
		{ "lat > 3q", 7, "bad number suffix" },
		/* named, digits and _ too (it was not) */
		{ "lat == 1_000", 8, "bad number suffix \"_000\" (k or K" },
		{ "lat == 1ms2", 8, "bad number suffix \"ms2\"" },
		{ "lat > 99999999999999999999", 7, "number too large" },
		{ "lat > 0x11112222333344445", 7, "number too large" },
		{ "event == \"abc", 10, "unterminated string" },
		{ "lat in 5", 8, "expected a range" },
		{ "lat in (1, 2", 13, "expected ',' or ')'" },
		{ "lat > 3 lat", 9, "expected \"and\", \"or\"" },
		{ "line(mem) == 0", 6, "needs a numeric field" },
		{ "lat $ 3", 5, "unexpected character '$'" },
		{ "mem", 1, "expected a comparison" },
		{ "lat not 3", 9, "expected \"in\" after \"not\"" },
		{ "t", 1, "expected a comparison" },
		{ "t == t", 6, "t compared with itself" },
		{ "mem in (1..3)", 9, "a range needs a numeric field" },
		/* a class is a condition of its own, not a value */
		{ "hitm == 1", 1, "hitm is a data-source class (true or "
		  "false): use it alone, as in 'hitm' or 'not hitm'" },
		{ "lat > 1 and l1 == 1", 13, "l1 is a data-source class" },
		{ "lat in (3, stlb_miss)", 12, "stlb_miss is a data-source "
		  "class" },
		{ "true == 1", 1, "true is a constant condition" },
		/* swapped range ends are an error, not an empty match */
		{ "lat in 400..100", 8, "empty range 400..100 (the low end "
		  "comes first)" },
		{ "cpu in (1, 0x10..0xf)", 12, "empty range 0x10..0xf" },
		{ "t in 0.1s..0.05s", 6, "empty range 0.1s..0.05s" },
		{ "t in (1s, 100ms..99999us)", 11, "empty range "
		  "100ms..99999us" },
		{ "t in 10..9", 6, "empty range 10..9" },
		/* 0 is 0 in every unit: below 1s (or 1ns) as well */
		{ "t in 1s..0", 6, "empty range 1s..0 (the low end comes "
		  "first)" },
		{ "t in 1ns..0.0", 6, "empty range 1ns..0.0" },
		/* ordered by all their digits, past what 64 bits hold */
		{ "t in 2.00000000000000000002s..2.00000000000000000001s", 6,
		  "empty range 2.00000000000000000002s.." },
		/* 2^64 as a fraction with a suffix is an integer, too large */
		{ "lat <= 18446744073709551.616k", 8, "number too large" },
		/* a string field is not a number's value */
		{ "ip == comm", 7, "cannot compare a number with string "
		  "field \"comm\"" },
		/* a call is no bare word: not the string "addr" */
		{ "comm == line(addr)", 14, "field \"comm\" is a string: "
		  "compare it with a string" },
		{ "addr in line(0x80)..0x40", 9, "empty range "
		  "line(0x80)..0x40" },
		/* a range of ticks to seconds: refused, not 5 ticks..1s
		 * (0 is 0 in every unit) */
		{ "t in 5..1s", 6, "range 5..1s: 5 has no time unit" },
		{ "t in (0..1s, 2s..7)", 18, "range 2s..7: 7 has no time "
		  "unit" },
		/* columns count characters, not UTF-8 bytes */
		{ "event == \"\xc3\xa9\" and latt > 1", 18,
		  "unknown field \"latt\"" },
		{ "sym == \"\xe2\x82\xac\xe2\x82\xac\" latt", 13,
		  "expected \"and\", \"or\"" },
		/* a transposition is one edit; case does not hide a name */
		{ "mme == L3", 1, "unknown field \"mme\" (did you mean "
		  "\"mem\"?)" },
		{ "LAT > 5", 1, "unknown field \"LAT\" (did you mean "
		  "\"lat\"?)" },
		{ "Hitm", 1, "(did you mean \"hitm\"?)" },
		{ "tiem > 5", 1, "(did you mean \"time\"?)" },
		/* replacing every letter is no suggestion */
		{ "l4", 1, "unknown field \"l4\" (did you mean \"l1\"?)" },
		{ "xy", 1, "unknown field \"xy\"" },
		/* perf's names for fields named otherwise here name the
		 * field, ahead of a near spelling (daddr: addr) */
		{ "weight > 100", 1, "unknown field \"weight\" (perf's "
		  "weight is \"lat\")" },
		{ "lat > 1 and local_weight > 1", 13, "unknown field "
		  "\"local_weight\" (perf's local_weight is \"lat\")" },
		{ "symbol == \"f\"", 1, "(perf's symbol is \"sym\")" },
		{ "dcacheline == 0", 1, "(perf's dcacheline is \"line\")" },
		{ "symbol_daddr == \"v\"", 1, "(perf's symbol_daddr is "
		  "\"data_sym\")" },
		{ "daddr == 0", 1, "(perf's daddr is \"addr\")" },
		{ "dso_daddr == \"x\"", 1, "(perf's dso_daddr has no field "
		  "here; \"data_sym\" names the variable)" },
		{ "WEIGHT > 1", 1, "(perf's weight is \"lat\")" },
		/* an unknown escape is refused at its backslash, not
		 * dropped ("b\c" was read as "bc") */
		{ "event == \"b\\c\"", 12, "unknown escape \"\\c\"" },
		{ "event ~ 'x\\n*'", 11, "unknown escape \"\\n\"" },
		{ "lat > 1 or event ~ \"*\\.*\"", 22,
		  "unknown escape \"\\.\"" },
		{ "mem == \"L\\3\"", 10, "unknown escape \"\\3\"" },
		{ "event == \"\xc3\xa9\\\xc3\xa9\"", 12,
		  "unknown escape \"\\\xc3\xa9\"" },
		{ "event == \"\\\x01\"", 11, "unknown escape \"\\?\"" },
		/* an escaped quote does not end the string */
		{ "event == \"a\\\"", 10, "unterminated string" },
		{ "event == \"a\\", 10, "unterminated string" },
		/* where a value must stand, a class (a condition) is no
		 * suggestion, and a value of mem, snoop or op is named
		 * with its field */
		{ "lat == L3", 8, "unknown field \"L3\" (L3 is a value of "
		  "mem: did you mean mem == L3?)" },
		{ "L3 == lat", 1, "(L3 is a value of mem: did you mean "
		  "mem == L3?)" },
		{ "lat in (1, HITM)", 12, "(hitm is a value of snoop: did "
		  "you mean snoop == hitm?)" },
		{ "hitx", 1, "unknown field \"hitx\" (did you mean "
		  "\"hitm\"?)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pebs_expr *e = (void *)1;
		struct pebs_expr_error err;
		int r = pebs_expr_parse(cases[i].text, &e, &err);
		cr_assert_eq(r, -PEBS_E_PARSE, "\"%s\" accepted",
			     cases[i].text);
		cr_assert_null(e);
		cr_expect(strstr(err.msg, cases[i].msg) != NULL,
			  "\"%s\": message \"%s\"", cases[i].text, err.msg);
		cr_expect_eq(err.col, cases[i].col, "\"%s\": col %zu, want %zu",
			     cases[i].text, err.col, cases[i].col);
	}
}

/* The limits are said in the message (pebs-filter(1) states them). */
Test(expr_parse, limits_are_stated)
{
	size_t cap = 16 + 4097 * 6;
	char *buf = malloc(cap);
	cr_assert(buf);
	int n = sprintf(buf, "lat in (");
	for (int i = 0; i < 4097; i++)
		n += sprintf(buf + n, i ? ",%d" : "%d", i);
	strcpy(buf + n, ")");
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(buf, &e, &err), -PEBS_E_PARSE);
	cr_expect_str_eq(err.msg, "set too large (more than 4096 items)");
	/* 4096 items are fine */
	char *last = strrchr(buf, ',');
	last[0] = ')';
	last[1] = '\0';
	cr_assert_eq(pebs_expr_parse(buf, &e, NULL), 0, "%s", buf + n - 20);
	pebs_expr_free(e);
	free(buf);
	/* each "lat > 1" is at least 2 nodes: 2100 of them are too many */
	buf = malloc(2100 * 12 + 1);
	cr_assert(buf);
	n = 0;
	for (int i = 0; i < 2100; i++)
		n += sprintf(buf + n, i ? " or lat > 1" : "lat > 1");
	cr_assert_eq(pebs_expr_parse(buf, &e, &err), -PEBS_E_PARSE);
	cr_expect_str_eq(err.msg, "expression too large (more than 4096 "
			 "nodes)");
	free(buf);
	/* a value position suggests no class: "hitm" would be refused */
	cr_assert_eq(pebs_expr_parse("lat == hitx", &e, &err), -PEBS_E_PARSE);
	cr_expect_str_eq(err.msg, "unknown field \"hitx\"");
}

Test(expr_parse, deep_nesting_is_refused_not_crashed)
{
	char buf[4096] = "";
	for (int i = 0; i < 1000; i++)
		strcat(buf, "(");
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(buf, &e, &err), -PEBS_E_PARSE);
	cr_assert(strstr(err.msg, "nested too deeply"), "%s", err.msg);
	/* 48 deep, as pebs-filter(1) says, of each kind and mixed; 49 not
	 * (48 were refused) */
	static const char *const open[] = { "(", "not ", "line(", "(not " };
	static const char *const close[] = { ")", "", ")", ")" };
	for (int k = 0; k < 4; k++)
		for (int d = 48; d <= 49; d++) {
			buf[0] = 0;
			/* "(not " nests two at a time */
			int m = k == 3 ? d / 2 : d;
			for (int i = 0; i < m; i++)
				strcat(buf, open[k]);
			if (k == 3 && d % 2)
				strcat(buf, "(");
			strcat(buf, k == 2 ? "addr" : "lat");
			if (k == 3 && d % 2)
				strcat(buf, ")");
			for (int i = 0; i < m; i++)
				strcat(buf, close[k]);
			if (k == 2)
				strcat(buf, " == 0");
			int r = pebs_expr_parse(buf, &e, &err);
			cr_expect_eq(r, d == 48 ? 0 : -PEBS_E_PARSE,
				     "%s: %s", buf, r ? err.msg : "parsed");
			if (!r)
				pebs_expr_free(e);
		}
	/* a long flat chain is fine and evaluates */
	buf[0] = 0;
	for (int i = 0; i < 300; i++)
		strcat(buf, i ? " and lat > 1" : "lat > 1");
	cr_assert_eq(pebs_expr_parse(buf, &e, NULL), 0);
	pebs_expr_free(e);
}

/*
 * A chain "lat == 1 or lat == 2 or ..." is a left-deep tree as long as
 * the chain: every walk of it (parse, evaluation, block analysis, dump)
 * must go as deep as the parentheses, not the terms, since filters run on
 * reader threads with small stacks.  Each chain runs on a thread of a
 * 64 KiB stack; the results are checked on the main thread (Criterion's
 * asserts belong there).
 */
#define CHAIN 2047

struct chain_run {
	int and;		/* "lat != i and ..." instead of "lat == i or" */
	int parsed, inv;
	size_t got, got_inv, dumped;
	enum pebs_expr_match in, out, seg;
	char *text, *dump;
	/* "line(" nested far past the nesting limit */
	int deep_r;
	char deep_msg[256];
};

static void *chain_thread(void *arg)
{
	struct chain_run *c = arg;
	struct pebs_expr *e;
	struct pebs_expr_error err;
	c->parsed = pebs_expr_parse(c->text, &e, &err);
	if (c->parsed < 0)
		return NULL;
	struct pebs_batch *b = pebs_batch_new(4096);
	uint32_t *sel = malloc(4096 * sizeof(*sel));
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (unsigned i = 0; i < 4096; i++) {
		s.lat = i;
		pebs_batch_push(b, &s);
	}
	c->got = pebs_expr_eval(e, b, sel);
	struct pebs_block_info bi;
	memset(&bi, 0, sizeof(bi));
	bi.nsamples = 100;
	bi.min[PEBS_COL_LAT] = 1;
	bi.max[PEBS_COL_LAT] = 2;
	c->in = pebs_expr_block(e, &bi);
	bi.min[PEBS_COL_LAT] = 3000;
	bi.max[PEBS_COL_LAT] = 4000;
	c->out = pebs_expr_block(e, &bi);
	c->seg = pebs_expr_block_segment(e, &bi);
	c->dump = malloc(1 << 18);
	c->dumped = pebs_expr_dump(e, c->dump, 1 << 18);
	c->inv = pebs_expr_invert(e);
	c->got_inv = pebs_expr_eval(e, b, sel);
	free(sel);
	pebs_batch_free(b);
	pebs_expr_free(e);
	char *deep = malloc(20000 * 6 + 16), *p = deep;
	for (int i = 0; i < 20000; i++)
		p += sprintf(p, "line(");
	p += sprintf(p, "addr");
	for (int i = 0; i < 20000; i++)
		*p++ = ')';
	strcpy(p, " == 0");
	c->deep_r = pebs_expr_parse(deep, &e, &err);
	snprintf(c->deep_msg, sizeof(c->deep_msg), "%s", err.msg);
	free(deep);
	return NULL;
}

static void chain_on_small_stack(struct chain_run *c)
{
	size_t n = 0;
	c->text = malloc(CHAIN * 16);
	for (int i = 1; i <= CHAIN; i++)
		n += (size_t)sprintf(c->text + n, "%slat %s %d", i > 1 ?
				     (c->and ? " and " : " or ") : "",
				     c->and ? "!=" : "==", i);
	pthread_attr_t a;
	pthread_t t;
	cr_assert_eq(pthread_attr_init(&a), 0);
	cr_assert_eq(pthread_attr_setstacksize(&a, 64 << 10), 0);
	cr_assert_eq(pthread_create(&t, &a, chain_thread, c), 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);
	cr_assert_eq(c->parsed, 0);
	/* lat 0..4095: 1..2047 match the or-chain, the rest the and */
	cr_expect_eq(c->got, c->and ? 4096 - CHAIN : CHAIN);
	cr_expect_eq(c->got_inv, 4096 - c->got);
	cr_expect_eq(c->inv, 0);
	/* lat 1..2: both chains have terms that match in part */
	cr_expect_eq(c->in, PEBS_MATCH_SOME);
	cr_expect_eq(c->out, c->and ? PEBS_MATCH_ALL : PEBS_MATCH_NONE);
	cr_expect_eq(c->seg, c->out);
	/* the dump as the recursive one printed it: one '(' per link */
	char *want = malloc(1 << 18), *p = want;
	for (int i = 1; i < CHAIN; i++)
		*p++ = '(';
	for (int i = 1; i <= CHAIN; i++) {
		if (c->and)
			p += sprintf(p, "%slat in {0x0..0x%x,0x%x.."
				     "0xffffffffffffffff}%s",
				     i > 1 ? " and " : "", i - 1, i + 1,
				     i > 1 ? ")" : "");
		else
			p += sprintf(p, "%slat in {0x%x..0x%x}%s",
				     i > 1 ? " or " : "", i, i,
				     i > 1 ? ")" : "");
	}
	cr_expect_eq(c->dumped, (size_t)(p - want));
	cr_expect_str_eq(c->dump, want);
	cr_expect_eq(c->deep_r, -PEBS_E_PARSE);
	cr_expect(strstr(c->deep_msg, "nested too deeply"), "%s",
		  c->deep_msg);
	free(want);
	free(c->dump);
	free(c->text);
}

Test(expr_parse, long_or_chain_on_a_small_stack)
{
	struct chain_run c = { .and = 0 };
	chain_on_small_stack(&c);
}

Test(expr_parse, long_and_chain_on_a_small_stack)
{
	struct chain_run c = { .and = 1 };
	chain_on_small_stack(&c);
}

static const char *dump(const char *text)
{
	static char buf[1024];
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s: %s", text,
		     err.msg);
	pebs_expr_dump(e, buf, sizeof(buf));
	pebs_expr_free(e);
	return buf;
}

Test(expr_parse, compiled_forms)
{
	const char *gt200 = "lat in {0xc9..0xffffffffffffffff}";
	cr_assert_str_eq(dump("lat > 200"), gt200);
	cr_assert_str_eq(dump("200 < lat"), gt200);
	cr_assert_str_eq(dump("lat in 100..400"), "lat in {0x64..0x190}");
	cr_assert_str_eq(dump("lat != 5"),
			 "lat in {0x0..0x4,0x6..0xffffffffffffffff}");
	cr_assert_str_eq(dump("cpu in (1, 2, 3, 7)"),
			 "cpu in {0x1..0x3,0x7..0x7}");
	cr_assert_str_eq(dump("lat >= 2k and lat < 0x1M"),
			 "(lat in {0x7d0..0xffffffffffffffff} and "
			 "lat in {0x0..0xf423f})");
	/* line() and page() become address ranges */
	cr_assert_str_eq(dump("line(addr) == 0x1040"),
			 "addr in {0x1040..0x107f}");
	cr_assert_str_eq(dump("page == 0x3000"), "addr in {0x3000..0x3fff}");
	cr_assert_str_eq(dump("line(addr) == 0x1041"), "false");
	cr_assert_str_eq(dump("lat >= 0"), "true");
	cr_assert_str_eq(dump("lat < 0"), "false");
	cr_assert_str_eq(dump("lat > 3 or true"), "true");
	cr_assert_str_eq(dump("false and hitm"), "false");
	cr_assert_str_eq(dump("not not hitm"), dump("hitm"));
	cr_assert_str_eq(dump("event == load-latency"),
			 "event in {\"load-latency\"}");
	cr_assert_str_eq(dump("event not in (\"a\", b)"),
			 "event not in {\"a\",\"b\"}");
	cr_assert_str_eq(dump("addr"), "addr in {0x1..0xffffffffffffffff}");
	cr_assert_str_eq(dump("lat > ins_lat"),
			 "lat&0xffffffffffffffff > ins_lat&0xffffffffffffffff");
	cr_assert_str_eq(dump("lat in 100..100"), "lat in {0x64..0x64}");
}

Test(expr_parse, compiled_forms_name_classes_and_values)
{
	/* class leaves hold class bits, not dsrc bits: say the name */
	cr_assert_str_eq(dump("hitm"), "class hitm");
	cr_assert_str_eq(dump("stlb_miss"), "class stlb_miss");
	cr_assert_str_eq(dump("not l3"), "not class l3");
	cr_assert_str_eq(dump("mem == L3"), "mem in {L3}");
	cr_assert_str_eq(dump("mem not in (local_ram, L3)"),
			 "mem not in {L3,LOCAL_RAM}");
	cr_assert_str_eq(dump("snoop != hitm"), "snoop not in {hitm}");
	cr_assert_str_eq(dump("op in (load, store)"), "op in {load,store}");
	cr_assert_str_eq(dump("tlb == MISS"), "tlb in {miss}");
	cr_assert_str_eq(dump("lock == no"), "lock in {no}");
	/* t constants as written, exactly, before the clock is known */
	cr_assert_str_eq(dump("t >= 1.5s"), "time in {t >= 1.5s}");
	cr_assert_str_eq(dump("t < 0.000001s"), "time in {t < 0.000001s}");
	cr_assert_str_eq(dump("t == 1.50k"), "time in {t == 1500}");
	cr_assert_str_eq(dump("t >= 18446744073709551515"),
			 "time in {t >= 18446744073709551515}");
	/* all the digits, also more than 64 bits hold */
	cr_assert_str_eq(dump("t == 1.000000000000000000010s"),
			 "time in {t == 1.00000000000000000001s}");
	cr_assert_str_eq(dump("t < 0.0k"), "time in {t < 0}");
}

/*
 * For a string field a bare word is a string, also one that names a field
 * or t (two string fields are never compared with each other).
 */
Test(expr_parse, bare_words_naming_fields_are_strings)
{
	static const char *const c[][2] = {
		{ "comm in (bash, ip)", "comm in {\"bash\",\"ip\"}" },
		{ "comm == ip", "comm in {\"ip\"}" },
		{ "sym == line", "sym in {\"line\"}" },
		{ "comm != t", "comm not in {\"t\"}" },
		{ "event == lat", "event in {\"lat\"}" },
		{ "sym ~ page", "sym ~ {\"page\"}" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		cr_expect_str_eq(dump(c[i][0]), c[i][1], "%s", c[i][0]);
}

/* Strings and words of any length (mangled C++ names, long paths). */
Test(expr_parse, long_strings)
{
	char text[5200], want[5200];
	char name[5001];
	memset(name, 'a', 5000);
	name[5000] = 0;
	memcpy(name, "_ZN", 3);
	snprintf(text, sizeof(text), "sym == \"%s\"", name);
	snprintf(want, sizeof(want), "sym in {\"%s\"}", name);
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	char *buf = malloc(6000);
	cr_assert(buf);
	pebs_expr_dump(e, buf, 6000);
	cr_assert_str_eq(buf, want);
	pebs_expr_free(e);
	/* a bare word too */
	snprintf(text, sizeof(text), "comm in (x, %s)", name);
	snprintf(want, sizeof(want), "comm in {\"x\",\"%s\"}", name);
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	pebs_expr_dump(e, buf, 6000);
	cr_assert_str_eq(buf, want);
	pebs_expr_free(e);
	free(buf);
}

/*
 * Quoted strings: \\ \" \' \* \? \[ stand for the character; in a ~
 * pattern the last three are a literal wildcard, elsewhere themselves.
 */
/* An expression over event names; bit i of want: names[i] matches. */
struct name_case {
	const char *text;
	unsigned want;
};

/* Evaluates each of @cases over one sample per name of @names. */
static void check_name_cases(const char *const *names, uint32_t nn,
			     const struct name_case *cases, size_t nc)
{
	struct pebs_batch *b = pebs_batch_new(32);
	uint32_t sel[32];
	for (uint32_t i = 0; i < nn; i++) {
		struct pebs_sample smp;
		memset(&smp, 0, sizeof(smp));
		smp.event = (uint32_t)pebs_batch_intern(b, names[i]);
		cr_assert_eq(pebs_batch_push(b, &smp), 0);
	}
	for (size_t i = 0; i < nc; i++) {
		struct pebs_expr *e;
		struct pebs_expr_error err;
		int r = pebs_expr_parse(cases[i].text, &e, &err);
		cr_assert_eq(r, 0, "%s: %s", cases[i].text, err.msg);
		size_t n = pebs_expr_eval(e, b, sel);
		unsigned got = 0;
		for (size_t k = 0; k < n; k++)
			got |= 1u << sel[k];
		cr_expect_eq(got, cases[i].want, "%s: matched 0x%x, want 0x%x",
			     cases[i].text, got, cases[i].want);
		pebs_expr_free(e);
	}
	pebs_batch_free(b);
}

Test(expr_parse, string_escapes)
{
	/* names: a*, b\c, ab, a?, a[x], q"t, q't */
	static const char *const names[] = { "a*", "b\\c", "ab", "a?",
					      "a[x]", "q\"t", "q't" };
	static const struct name_case cases[] = {
		{ "event == \"b\\\\c\"", 1u << 1 },
		{ "event == 'b\\\\c'", 1u << 1 },
		{ "event ~ \"b\\\\*\"", 1u << 1 },
		{ "event ~ \"*\\*\"", 1u << 0 },
		{ "event ~ \"a\\*\"", 1u << 0 },
		{ "event ~ \"a*\"", 1u << 0 | 1u << 2 | 1u << 3 | 1u << 4 },
		{ "event ~ \"a\\?\"", 1u << 3 },
		{ "event ~ \"a?\"", 1u << 0 | 1u << 2 | 1u << 3 },
		{ "event ~ \"a\\[x]\"", 1u << 4 },
		{ "event ~ \"a[x]\"", 0 },
		{ "event !~ \"*\\**\"", 0x7fu & ~1u },
		/* outside ~ an escaped wildcard is the character itself */
		{ "event == \"a\\*\"", 1u << 0 },
		{ "event in (\"a\\?\", \"a*\")", 1u << 0 | 1u << 3 },
		{ "event == \"q\\\"t\"", 1u << 5 },
		{ "event == 'q\"t'", 1u << 5 },
		{ "event == 'q\\'t'", 1u << 6 },
		{ "event == \"q\\'t\"", 1u << 6 },
		{ "event ~ \"q\\\"*\"", 1u << 5 },
	};
	check_name_cases(names, 7, cases, sizeof(cases) / sizeof(cases[0]));
	/* data-source values are read unescaped ("L*" is none) */
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse("mem == \"L\\*\"", &e, &err),
		     -PEBS_E_PARSE);
	cr_expect(strstr(err.msg, "unknown mem value \"L*\""), "%s", err.msg);
	/* --explain quotes names so that they read back the same */
	cr_assert_str_eq(dump("event ~ \"a\\*\\\\\\\"\""),
			 "event ~ {\"a\\*\\\\\\\"\"}");
	cr_assert_str_eq(dump("event in (\"a\\*\", 'b\\\\\"')"),
			 "event in {\"a*\",\"b\\\\\\\"\"}");
}

Test(expr_parse, columns_used)
{
	struct pebs_expr *e;
	cr_assert_eq(pebs_expr_parse("lat > 3 and (hitm or event == x)", &e,
				     NULL), 0);
	cr_assert_eq(pebs_expr_cols(e), 1ull << PEBS_COL_LAT |
		     1ull << PEBS_COL_DSRC | 1ull << PEBS_COL_EVENT);
	pebs_expr_free(e);
	cr_assert_eq(pebs_expr_parse("page(addr) == 0 or t < 1s", &e, NULL),
		     0);
	cr_assert_eq(pebs_expr_cols(e), 1ull << PEBS_COL_ADDR |
		     1ull << PEBS_COL_TIME);
	cr_assert(pebs_expr_uses_t(e));
	pebs_expr_free(e);
}

/* Samples at t = 0, 0.5s, 1s, 1.5s, 2s with a 1 GHz TSC from 1000. */
static size_t count_t(const char *text, double hz, int *err_out)
{
	struct pebs_batch *b = pebs_batch_new(16);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 5; i++) {
		s.time = 1000 + (uint64_t)i * 500000000ull;
		pebs_batch_push(b, &s);
	}
	struct pebs_expr *e;
	struct pebs_expr_error err;
	uint32_t sel[16];
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	cr_assert(!pebs_expr_clock_ready(e));
	*err_out = pebs_expr_set_clock(e, 1000, hz, &err);
	size_t n = *err_out ? 0 : pebs_expr_eval(e, b, sel);
	pebs_expr_free(e);
	pebs_batch_free(b);
	return n;
}

Test(expr_parse, time_windows)
{
	int err;
	cr_assert_eq(count_t("t >= 1.5s", 1e9, &err), 2);
	cr_assert_eq(count_t("t > 1.5s", 1e9, &err), 1);
	cr_assert_eq(count_t("t < 500ms", 1e9, &err), 1);
	cr_assert_eq(count_t("t <= 500ms", 1e9, &err), 2);
	cr_assert_eq(count_t("t in 0.5s..1.5s", 1e9, &err), 3);
	cr_assert_eq(count_t("t in 500000us..1000000000ns", 1e9, &err), 2);
	cr_assert_eq(count_t("t == 1s", 1e9, &err), 1);
	cr_assert_eq(count_t("t != 1s", 1e9, &err), 4);
	cr_assert_eq(count_t("t not in (0s, 2s)", 1e9, &err), 3);
	/* 0 needs no unit: the same window as 0s..1s */
	cr_assert_eq(count_t("t in 0..1s", 1e9, &err),
		     count_t("t in 0s..1s", 1e9, &err));
	cr_assert_eq(count_t("t in 0..1s", 1e9, &err), 3);
	/* raw ticks without units, even without a frequency */
	cr_assert_eq(count_t("t >= 500000000", 0, &err), 4);
	cr_assert_eq(err, 0);
	/* a unit without a frequency is an error */
	cr_assert_eq(count_t("t >= 1s", 0, &err), 0);
	cr_assert_eq(err, -PEBS_E_PARSE);
	/* 2.5 GHz: 1s = 2.5e9 ticks; samples are 0.2s apart there */
	cr_assert_eq(count_t("t < 0.3s", 2.5e9, &err), 2);
}

/* The clock from metadata: a malformed tsc.hz is told from a missing one. */
Test(expr_parse, clock_from_metadata)
{
	static const struct {
		const char *unit, *hz, *msg;
	} c[] = {
		{ "ns", NULL, NULL },
		{ "ns", "abc", NULL },
		{ "tsc", "2500000000", NULL },
		{ "tsc", NULL, "t in ms needs the time frequency (metadata "
		  "tsc.hz)" },
		{ NULL, NULL, "t in ms needs the time frequency (metadata "
		  "tsc.hz)" },
		{ "tsc", "abc", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"abc\"" },
		{ "tsc", "0", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"0\"" },
		{ "tsc", "", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"\"" },
		/* a decimal integer above 0, as pebs_meta_check() wants it:
		 * not what strtod() makes of the rest (inf and 1e400 gave
		 * NaN ticks, 0x10 16 Hz, trailing junk was ignored) */
		{ "tsc", "inf", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"inf\"" },
		{ "tsc", "1e400", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"1e400\"" },
		{ "tsc", "0x10", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \"0x10\"" },
		{ "tsc", "2500000000junk", "t in ms needs the time frequency, "
		  "but metadata tsc.hz is malformed: \"2500000000junk\"" },
		{ "tsc", " 25", "t in ms needs the time frequency, but "
		  "metadata tsc.hz is malformed: \" 25\"" },
		{ "tsc", "18446744073709551616", "t in ms needs the time "
		  "frequency, but metadata tsc.hz is malformed: "
		  "\"18446744073709551616\"" },
		/* the value is the file's: what a terminal acts on is
		 * quoted as '?' (it was sent raw) */
		{ "tsc", "1\033]0;X\007\n\302\233", "t in ms needs the time "
		  "frequency, but metadata tsc.hz is malformed: \"1?]0;X???\"" },
		{ "tsc", "18446744073709551615", NULL },
		{ "tsc", "0100", NULL },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_meta *m = pebs_meta_new();
		struct pebs_expr *e;
		struct pebs_expr_error err = { 0, "" };
		cr_assert(m);
		if (c[i].unit)
			pebs_meta_set(m, "time.unit", c[i].unit);
		if (c[i].hz)
			pebs_meta_set(m, "tsc.hz", c[i].hz);
		cr_assert_eq(pebs_expr_parse("t > 1ms", &e, &err), 0);
		int r = pebs_expr_set_clock_meta(e, 0, m, &err);
		if (!c[i].msg) {
			cr_expect_eq(r, 0, "%zu: %s", i, err.msg);
		} else {
			cr_expect_eq(r, -PEBS_E_PARSE, "%zu", i);
			cr_expect_str_eq(err.msg, c[i].msg, "%zu", i);
			cr_expect_eq(err.col, 5, "%zu", i);
		}
		pebs_expr_free(e);
		pebs_meta_free(m);
	}
}

/* A batch of the samples at times @ts. */
static struct pebs_batch *time_batch(const uint64_t *ts, size_t n)
{
	struct pebs_batch *b = pebs_batch_new(16);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < n; i++) {
		s.time = ts[i];
		pebs_batch_push(b, &s);
	}
	return b;
}

/* Count of the samples at times @ts (t0 @t0, clock @hz) matching @text. */
static size_t count_at(const char *text, const uint64_t *ts, size_t n,
		       uint64_t t0, double hz)
{
	struct pebs_batch *b = time_batch(ts, n);
	struct pebs_expr *e;
	struct pebs_expr_error err;
	uint32_t sel[16];
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	cr_assert_eq(pebs_expr_set_clock(e, t0, hz, &err), 0, "%s", err.msg);
	size_t k = pebs_expr_eval(e, b, sel);
	pebs_expr_free(e);
	pebs_batch_free(b);
	return k;
}

Test(expr_parse, time_constants_on_a_tick_are_exact)
{
	/* ns files: a constant on a nanosecond is that nanosecond (in
	 * double, 9 * 1e-3 * 1e9 is 9000000.000000002) */
	static const uint64_t ns[] = { 500, 503, 600, 800, 9000500,
				       13000500 };
	static const struct { const char *text; size_t want; } c[] = {
		{ "t == 9ms", 1 }, { "t >= 9ms", 2 }, { "t > 9ms", 1 },
		{ "t in 9ms..13ms", 2 }, { "t < 13ms", 5 },
		{ "t <= 13ms", 6 }, { "t == 0.009s", 1 },
		{ "t == 3ns", 1 }, { "t >= 0.3us", 3 }, { "t < 0.3us", 3 },
		{ "t in 100ns..300ns", 2 }, { "t != 0.1us", 5 },
		{ "t == 0.0000000030s", 1 }, { "t == 3.5ns", 0 },
		{ "t != 3.5ns", 6 }, { "t > 3.5ns", 4 }, { "t < 3.5ns", 2 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		cr_expect_eq(count_at(c[i].text, ns, 6, 500, 1e9), c[i].want,
			     "%s: %zu, want %zu", c[i].text,
			     count_at(c[i].text, ns, 6, 500, 1e9), c[i].want);
	/* an integral TSC rate is exact too: 0.3us at 2.5 GHz is 750 */
	static const uint64_t tsc[] = { 1000, 1749, 1750, 1751 };
	cr_expect_eq(count_at("t >= 0.3us", tsc, 4, 1000, 2.5e9), 2);
	cr_expect_eq(count_at("t == 0.3us", tsc, 4, 1000, 2.5e9), 1);
	cr_expect_eq(count_at("t < 0.3us", tsc, 4, 1000, 2.5e9), 2);
	/* a rate that is not an integer still works, in double: 0.3us is
	 * 750.00000015 ticks, so t >= 0.3us starts at the next tick */
	cr_expect_eq(count_at("t >= 0.3us", tsc, 4, 1000, 2.5e9 + 0.5), 1);
}

/*
 * Constants with more digits than 64 bits hold are still exact: one a
 * hair past a tick is between two ticks, at any integral rate, and a raw
 * tick count keeps its integer part.
 */
Test(expr_parse, time_constants_past_64_bits_of_digits)
{
	static const uint64_t ns[] = { 1000, 1000001000, 1000001001 };
	static const struct { const char *text; size_t want; } c[] = {
		{ "t == 1.00000000000000000001s", 0 },
		{ "t >= 1.00000000000000000001s", 1 },
		{ "t > 1.00000000000000000001s", 1 },
		{ "t <= 1.00000000000000000001s", 2 },
		{ "t < 1.00000000000000000001s", 2 },
		{ "t != 1.00000000000000000001s", 3 },
		{ "t == 0.99999999999999999999999s", 0 },
		{ "t <= 0.99999999999999999999999s", 1 },
		{ "t >= 0.99999999999999999999999s", 2 },
		{ "t == 1.000000000000000000000000s", 1 },
		{ "t in 1s..1.00000000000000000001s", 1 },
		{ "t == 1000000001.000000000000000000001ns", 0 },
		{ "t <= 1000000001.000000000000000000001ns", 3 },
		/* raw ticks: the integer part is the floor */
		{ "t == 1000000000.000000000000000000001", 0 },
		{ "t <= 1000000000.000000000000000000001", 2 },
		{ "t >= 1000000000.999999999999999999999", 1 },
		{ "t < 1000000000.999999999999999999999", 2 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		size_t got = count_at(c[i].text, ns, 3, 1000, 1e9);
		cr_expect_eq(got, c[i].want, "%s: %zu, want %zu", c[i].text,
			     got, c[i].want);
	}
	/* 3 GHz: 0.333...34s is just past tick 10^9, 0.333...33s just
	 * before it, whatever digit the 64-bit part stops at */
	static const uint64_t tsc[] = { 999999999, 1000000000, 1000000001 };
	cr_expect_eq(count_at("t >= 0.33333333333333333334s", tsc, 3, 0,
			      3e9), 1);
	cr_expect_eq(count_at("t <= 0.33333333333333333334s", tsc, 3, 0,
			      3e9), 2);
	cr_expect_eq(count_at("t >= 0.33333333333333333333s", tsc, 3, 0,
			      3e9), 2);
	cr_expect_eq(count_at("t <= 0.33333333333333333333s", tsc, 3, 0,
			      3e9), 1);
	cr_expect_eq(count_at("t == 0.3333333333333333333333333333333333333"
			      "33333333333333333333333333333333333333333333s",
			      tsc, 3, 0, 3e9), 0);
}

/*
 * Before the clock every block may match: the caller then decodes the
 * first block and sets the clock from its metadata (a missing tsc.hz is
 * an error) however the rest of the expression would rule it out.
 */
Test(expr_parse, block_analysis_waits_for_the_clock)
{
	struct pebs_block_info bi;
	memset(&bi, 0, sizeof(bi));
	bi.nsamples = 10;
	bi.max[PEBS_COL_LAT] = 50;
	bi.max[PEBS_COL_TIME] = 100;
	static const char *const text[] = {
		"lat > 100000 and t >= 1s", "not (lat > 100000 and t >= 1s)",
		"lat < 100 or t >= 1s",
	};
	static const enum pebs_expr_match after[] = {
		PEBS_MATCH_NONE, PEBS_MATCH_ALL, PEBS_MATCH_ALL,
	};
	for (size_t i = 0; i < 3; i++) {
		struct pebs_expr *e;
		struct pebs_expr_error err;
		cr_assert_eq(pebs_expr_parse(text[i], &e, &err), 0);
		cr_expect_eq(pebs_expr_block(e, &bi), PEBS_MATCH_SOME, "%s",
			     text[i]);
		cr_assert_eq(pebs_expr_set_clock(e, 0, 1e9, &err), 0);
		cr_expect_eq(pebs_expr_block(e, &bi), after[i], "%s", text[i]);
		pebs_expr_free(e);
	}
}

/* Metadata of a segment with clock @unit (and @hz, when not NULL). */
static struct pebs_meta *clock_meta(const char *unit, const char *hz)
{
	struct pebs_meta *m = pebs_meta_new();
	cr_assert(m);
	cr_assert_eq(pebs_meta_set(m, "time.unit", unit), 0);
	if (hz)
		cr_assert_eq(pebs_meta_set(m, "tsc.hz", hz), 0);
	return m;
}

/*
 * Each segment's `t` counts from its own start on its own clock: a 1 kHz
 * segment, then a 1 MHz one whose ticks the first clock would put
 * hundreds of seconds in, then the first again (its clock and start come
 * back).
 */
Test(expr_parse, each_segment_has_its_own_clock)
{
	struct pebs_meta *ma = clock_meta("tsc", "1000");
	struct pebs_meta *mb = clock_meta("tsc", "1000000");
	static const uint64_t ta[] = { 1000, 2000, 3000 };
	static const uint64_t tb[] = { 500000, 501000, 502000, 1500000 };
	struct pebs_batch *a = time_batch(ta, 3), *b = time_batch(tb, 4);
	struct pebs_expr *e;
	struct pebs_expr_error err;
	uint32_t sel[16];
	cr_assert_eq(pebs_expr_parse("t >= 1ms and t < 1.5s", &e, &err), 0);
	cr_assert_eq(pebs_expr_set_segment(e, ma, a, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(pebs_expr_eval(e, a, sel), 1);	/* t = 1s */
	cr_expect_eq(sel[0], 1);
	cr_assert_eq(pebs_expr_set_segment(e, mb, b, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(pebs_expr_eval(e, b, sel), 3);	/* 1ms, 2ms, 1s */
	cr_expect_eq(sel[0], 1);
	/* a later batch of the first segment: its start stays 1000, not
	 * this batch's smallest time */
	static const uint64_t ta2[] = { 2000, 2600 };
	struct pebs_batch *a2 = time_batch(ta2, 2);
	cr_assert_eq(pebs_expr_set_segment(e, ma, a2, &err), 0);
	cr_expect_eq(pebs_expr_eval(e, a2, sel), 1);
	cr_expect_eq(sel[0], 0);
	/* a segment without a frequency: the clock of `t` in units is an
	 * error there, and stays the last good one */
	struct pebs_meta *mc = clock_meta("tsc", NULL);
	cr_expect_eq(pebs_expr_set_segment(e, mc, a, &err), -PEBS_E_PARSE);
	cr_expect_str_eq(err.msg, "t in ms needs the time frequency "
			 "(metadata tsc.hz)");
	cr_expect_eq(pebs_expr_eval(e, a2, sel), 1);
	pebs_expr_free(e);
	pebs_batch_free(a);
	pebs_batch_free(a2);
	pebs_batch_free(b);
	pebs_meta_free(ma);
	pebs_meta_free(mb);
	pebs_meta_free(mc);
}

/*
 * Block analysis places a block on its own segment's clock, from the
 * start its segment's first block gave, whatever clock evaluation is on
 * meanwhile (the reader runs ahead of it).
 */
Test(expr_parse, block_analysis_on_the_segment_clock)
{
	struct pebs_meta *ma = clock_meta("tsc", "1000");
	struct pebs_meta *mb = clock_meta("ns", NULL);
	struct pebs_meta *mc = clock_meta("tsc", NULL);
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse("t >= 1s", &e, &err), 0);
	struct pebs_block_info bi;
	memset(&bi, 0, sizeof(bi));
	bi.nsamples = 10;
	/* segment a's first block: t 0 to 0.5s; its second: 2s to 3s */
	bi.meta = ma;
	bi.min[PEBS_COL_TIME] = 1000;
	bi.max[PEBS_COL_TIME] = 1500;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_NONE);
	bi.min[PEBS_COL_TIME] = 3000;
	bi.max[PEBS_COL_TIME] = 4000;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_ALL);
	/* segment b (ns) starts at 5000: 1000 ticks of a's clock would be
	 * a second, here they are a microsecond */
	bi.meta = mb;
	bi.min[PEBS_COL_TIME] = 5000;
	bi.max[PEBS_COL_TIME] = 6000;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_NONE);
	bi.min[PEBS_COL_TIME] = 5000 + 999999999ull;
	bi.max[PEBS_COL_TIME] = 5000 + 1000000000ull;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_SOME);
	/* evaluation on segment b's clock does not move a's blocks */
	static const uint64_t tb[] = { 5000 };
	struct pebs_batch *b = time_batch(tb, 1);
	cr_assert_eq(pebs_expr_set_segment(e, mb, b, &err), 0, "%s",
		     err.msg);
	bi.meta = ma;
	bi.min[PEBS_COL_TIME] = 1500;
	bi.max[PEBS_COL_TIME] = 1900;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_NONE);
	/* no frequency: decoded, so that set_segment says so in order */
	bi.meta = mc;
	cr_expect_eq(pebs_expr_block_segment(e, &bi), PEBS_MATCH_SOME);
	pebs_expr_free(e);
	pebs_batch_free(b);
	pebs_meta_free(ma);
	pebs_meta_free(mb);
	pebs_meta_free(mc);
}

Test(expr_parse, raw_tick_constants_are_exact_past_2_53)
{
	static const uint64_t ts[] = { 100, UINT64_MAX - 1, UINT64_MAX };
	cr_expect_eq(count_at("t >= 18446744073709551515", ts, 3, 100, 0), 1);
	cr_expect_eq(count_at("t == 18446744073709551514", ts, 3, 100, 0), 1);
	cr_expect_eq(count_at("t < 18446744073709551514", ts, 3, 100, 0), 1);
	cr_expect_eq(count_at("t in 9007199254740993..18446744073709551514",
			      ts, 3, 100, 0), 1);
	/* with a unit, past the last tick: nothing, not a wrap */
	cr_expect_eq(count_at("t >= 18446744073709551515s", ts, 3, 100,
			      1e9), 0);
}

Test(expr_parse, dsrc_classes)
{
	uint64_t hitm = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HITM, 0, PEBS_DS_TLB_HIT,
		PEBS_DS_LNUM_L3, 0, 0);
	uint64_t rram = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
		PEBS_DS_LVL_REM_RAM1, PEBS_DS_SNOOP_HIT, 0, PEBS_DS_TLB_MISS |
		PEBS_DS_TLB_L2, PEBS_DS_LNUM_RAM, 1, 0);
	uint64_t st = pebs_dsrc_make(PEBS_DS_OP_STORE, PEBS_DS_LVL_HIT |
		PEBS_DS_LVL_L1, PEBS_DS_SNOOP_NA, PEBS_DS_LOCK_LOCKED,
		PEBS_DS_TLB_HIT, 0, 0, 0);
	cr_assert_eq(pebs_expr_dsrc_class(hitm) & 0x7ff, PEBS_DSF_HITM |
		     PEBS_DSF_L3 | PEBS_DSF_LOAD);
	cr_assert_eq(pebs_expr_dsrc_class(rram) & 0x7ff, PEBS_DSF_REMOTE |
		     PEBS_DSF_DRAM | PEBS_DSF_STLB_MISS | PEBS_DSF_LOAD);
	cr_assert_eq(pebs_expr_dsrc_class(st) & 0x7ff, PEBS_DSF_L1 |
		     PEBS_DSF_LOCKED | PEBS_DSF_STORE);
	cr_assert_eq(pebs_expr_dsrc_class(0) & 0x7ff, 0);
}

Test(expr_parse, sample_keep_is_deterministic_and_fair)
{
	size_t kept = 0;
	for (uint64_t t = 0; t < 100000; t++) {
		int k = pebs_expr_sample_keep(t * 2500, (uint32_t)(t % 7), 10);
		cr_assert_eq(k, pebs_expr_sample_keep(t * 2500,
						      (uint32_t)(t % 7), 10));
		kept += (size_t)k;
	}
	cr_assert(kept > 9500 && kept < 10500, "kept %zu of 100000", kept);
	cr_assert(pebs_expr_sample_keep(5, 1, 1));
	cr_assert(pebs_expr_sample_keep(5, 1, 0));
}

Test(expr_parse, select_copies_the_selected_samples)
{
	struct pebs_batch *src = pebs_batch_new(100), *dst = pebs_batch_new(8);
	struct pebs_sample s;
	pebs_batch_intern(src, "a");
	pebs_batch_intern(src, "b");
	for (uint32_t i = 0; i < 100; i++) {
		memset(&s, 0, sizeof(s));
		s.time = 1000 + i;
		s.lat = i;
		s.cpu = i % 4;
		s.event = i % 2;
		s.regs[PEBS_REG_R15] = i * 3;
		pebs_batch_push(src, &s);
	}
	pebs_batch_update_present(src);
	uint32_t sel[] = { 3, 10, 11, 99 };
	cr_assert_eq(pebs_expr_select(dst, src, sel, 4, 0), 0);
	cr_assert_eq(dst->n, 4);
	for (size_t i = 0; i < 4; i++) {
		struct pebs_sample a, b;
		pebs_batch_get(dst, i, &a);
		pebs_batch_get(src, sel[i], &b);
		cr_assert(memcmp(&a, &b, sizeof(a)) == 0, "sample %zu", i);
		cr_assert_str_eq(pebs_batch_event(dst, i),
				 pebs_batch_event(src, sel[i]));
	}
	/* only the asked columns; the others read as zero */
	cr_assert_eq(pebs_expr_select(dst, src, sel, 4, 1ull << PEBS_COL_LAT),
		     0);
	cr_assert_eq(dst->c32[PEBS_COL_LAT][3], 99);
	cr_assert_eq(dst->c64[PEBS_COL_TIME][3], 0);
	cr_assert_eq(dst->present, 1ull << PEBS_COL_LAT);
	/* dirty: exactly the columns copied, and a column dropped is zero
	 * past n too (a later, longer selection must not see old values) */
	cr_assert_eq(dst->dirty, 1ull << PEBS_COL_LAT);
	uint32_t sel8[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	cr_assert_eq(pebs_expr_select(dst, src, sel8, 8, 0), 0);
	cr_assert(dst->dirty >> PEBS_COL_TIME & 1);
	cr_assert_eq(pebs_expr_select(dst, src, sel, 2, 1ull << PEBS_COL_LAT),
		     0);
	cr_assert_eq(pebs_expr_select(dst, src, sel8, 8, 1ull << PEBS_COL_LAT),
		     0);
	for (size_t i = 0; i < 8; i++)
		cr_assert_eq(dst->c64[PEBS_COL_TIME][i], 0, "time %zu", i);
	uint32_t many[9] = { 0 };
	cr_assert_eq(pebs_expr_select(dst, src, many, 9, 0), -PEBS_E_RANGE);
	pebs_batch_free(src);
	pebs_batch_free(dst);
}

/*
 * A batch built in memory (pebs_batch_push(), pebs_batch_append()) has no
 * source block to set its present mask: the push does, so that selecting
 * from it copies its samples (it gave zeros in every column).
 */
Test(expr_parse, select_from_pushed_and_appended_batches)
{
	struct pebs_batch *src = pebs_batch_new(100), *dst = pebs_batch_new(8);
	struct pebs_batch *app = pebs_batch_new(100);
	struct pebs_sample s;
	int ev = pebs_batch_intern(src, "x");
	for (uint32_t i = 0; i < 100; i++) {
		memset(&s, 0, sizeof(s));
		s.event = (uint32_t)ev;
		s.time = i;
		s.lat = i + 1;
		s.regs[PEBS_REG_RAX] = i * 7;
		cr_assert_eq(pebs_batch_push(src, &s), 0);
		cr_assert_eq(pebs_batch_append(app, src, i), 0);
	}
	uint64_t want = 1ull << PEBS_COL_TIME | 1ull << PEBS_COL_LAT |
			1ull << PEBS_COL_EVENT | 1ull << PEBS_COL_REG0;
	cr_assert_eq(src->present & want, want, "present %llx",
		     (unsigned long long)src->present);
	cr_assert_eq(src->present >> PEBS_COL_ADDR & 1, 0);
	uint32_t sel[] = { 5, 6, 7 };
	struct pebs_batch *from[] = { src, app };
	for (size_t k = 0; k < 2; k++) {
		cr_assert_eq(pebs_expr_select(dst, from[k], sel, 3, 0), 0);
		cr_assert_eq(dst->n, 3);
		for (size_t i = 0; i < 3; i++) {
			struct pebs_sample a, b;
			pebs_batch_get(dst, i, &a);
			pebs_batch_get(from[k], sel[i], &b);
			cr_assert(memcmp(&a, &b, sizeof(a)) == 0,
				  "batch %zu sample %zu: lat %u", k, i, a.lat);
			cr_assert_str_eq(pebs_batch_event(dst, i), "x");
		}
	}
	pebs_batch_reset(src);
	cr_assert_eq(src->present, 0);
	pebs_batch_free(src);
	pebs_batch_free(app);
	pebs_batch_free(dst);
}

/*
 * The portable names match the events they stand for, whatever name the
 * input recorded: a capture the profile's (MEM_TRANS_RETIRED.LOAD_LATENCY),
 * pebs-gen the portable one, a perf import perf's string or raw code.
 */
Test(expr_parse, portable_event_names)
{
	static const char *const names[] = {
		"MEM_TRANS_RETIRED.LOAD_LATENCY",	/* 0 */
		"load-latency",				/* 1 */
		"cpu/mem-loads,ldlat=30/P",		/* 2 */
		"r1cd",					/* 3 */
		"MEM_INST_RETIRED.ALL_STORES",		/* 4 */
		"cpu/mem-stores/P",			/* 5 */
		"precise-store",			/* 6 */
		"MEM_LOAD_RETIRED.L1_HIT",		/* 7 */
		"MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD", /* 8 */
		"cpu/mem-loads-aux/",			/* 9 */
		"r41cd",				/* 10: edge: another */
	};
	static const struct name_case cases[] = {
		{ "event == load-latency", 0x10f },
		{ "event == \"LOAD-LATENCY\"", 0x10f },
		{ "event == \"mem-loads\"", 0x10f },
		{ "event != load-latency", 0x7ff & ~0x10fu },
		{ "event in (precise-store, \"x\")", 0x70 },
		{ "event == mem-stores", 0x70 },
		{ "event not in (load-latency, precise-store)", 0x680 },
		{ "event ~ \"load-*\"", 0x10f },
		{ "event ~ \"*STORE*\"", 0x10 },
		{ "event ~ \"*store*\"", 0x70 },
		{ "event ~ \"precise-*\"", 0x70 },
		/* other names stay exact */
		{ "event == \"MEM_TRANS_RETIRED.LOAD_LATENCY\"", 0x1 },
		{ "event == \"cpu/mem-loads,ldlat=30/P\"", 0x4 },
	};
	check_name_cases(names, sizeof(names) / sizeof(names[0]), cases,
			 sizeof(cases) / sizeof(cases[0]));
}

/*
 * A name without modifiers matches the events of that name with any: a
 * perf import keeps perf's modifiers ("NAME:ldlat=64:pp"), perf's
 * cpu/NAME,.../ form names the event in its first term.  Case is
 * ignored, as perf ignores it; a name with modifiers, or a pattern of
 * them, compares with the whole name.
 */
Test(expr_parse, event_names_without_modifiers)
{
	static const char *const names[] = {
		"MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64:precise=2:mh:mg:pinned",
		"dummy:HG",				/* 1 */
		"cpu/MEM_LOAD_RETIRED.L3_MISS,period=1000/pp", /* 2 */
		"cpu/event=0xd1,umask=0x20/",		/* 3 */
		"aaa",					/* 4 */
		"MEM_TRANS_RETIRED",			/* 5 */
	};
	static const struct name_case cases[] = {
		{ "event == MEM_TRANS_RETIRED.LOAD_LATENCY", 0x1 },
		{ "event == mem_trans_retired.load_latency", 0x1 },
		{ "event == dummy", 0x2 },
		{ "event == MEM_LOAD_RETIRED.L3_MISS", 0x4 },
		{ "event == AAA", 0x10 },
		/* the event, not a prefix of it; not a raw term */
		{ "event == MEM_TRANS_RETIRED", 0x20 },
		{ "event == \"event=0xd1\"", 0 },
		{ "event == \"cpu\"", 0 },
		{ "event != MEM_TRANS_RETIRED.LOAD_LATENCY", 0x3e },
		{ "event ~ \"*.LOAD_LATENCY\"", 0x1 },
		{ "event ~ \"*.L3_MISS\"", 0x4 },
		/* with modifiers: the whole name */
		{ "event == \"MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64\"", 0 },
		{ "event == \"dummy:HG\"", 0x2 },
		{ "event == \"dummy:hg\"", 0 },
		{ "event ~ \"*:HG\"", 0x2 },
	};
	check_name_cases(names, sizeof(names) / sizeof(names[0]), cases,
			 sizeof(cases) / sizeof(cases[0]));
}

/* The names of an expression that match no event of an input. */
Test(expr_parse, unmatched_events)
{
	static const char *const capture[] = {
		"MEM_TRANS_RETIRED.LOAD_LATENCY", "MEM_INST_RETIRED.ALL_STORES"
	};
	struct pebs_expr *e;
	struct pebs_expr_error err;
	const char *text = "event in (load-latency, \"typo\") or "
			   "(lat > 3 and event ~ 'MEM_X*') or "
			   "event != precise-store";
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s", err.msg);
	struct pebs_expr_name bad[4];
	size_t n = pebs_expr_unmatched_events(e, capture, 2, bad, 4);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(bad[0].text, "typo");
	cr_expect_eq(bad[0].col, 25);
	cr_expect_str_eq(bad[1].text, "MEM_X*");
	cr_expect_eq(bad[1].col, 57);
	/* the count alone; no names: every one is unmatched */
	cr_expect_eq(pebs_expr_unmatched_events(e, NULL, 0, NULL, 0), 4);
	pebs_expr_free(e);
	/* a perf import's name with modifiers is no unmatched name */
	static const char *const perf[] = {
		"MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64:precise=2:mh:mg:pinned",
	};
	cr_assert_eq(pebs_expr_parse("event == MEM_TRANS_RETIRED.LOAD_LATENCY",
				     &e, &err), 0, "%s", err.msg);
	cr_expect_eq(pebs_expr_unmatched_events(e, perf, 1, NULL, 0), 0);
	pebs_expr_free(e);
	cr_assert_eq(pebs_expr_parse("lat > 3", &e, &err), 0);
	cr_expect_eq(pebs_expr_unmatched_events(e, NULL, 0, NULL, 0), 0);
	pebs_expr_free(e);
}
