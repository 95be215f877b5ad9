/*
 * meta_check.c - pebs_meta_check(): the syntax of the well-known metadata
 * keys that the tools read (formats/pebs-format.md, section 9).
 */
#include <criterion/criterion.h>

#include "pebs.h"

static void ok(const char *key, const char *value)
{
	const char *want = "x";
	cr_expect_eq(pebs_meta_check(key, value, &want), 0, "%s=%s", key,
		     value);
	cr_expect_null(want, "%s=%s", key, value);
}

static void bad(const char *key, const char *value, const char *expected)
{
	const char *want = NULL;
	cr_expect_eq(pebs_meta_check(key, value, &want), -PEBS_E_PARSE,
		     "%s=%s", key, value);
	cr_expect_str_eq(want ? want : "(null)", expected, "%s=%s", key,
			 value);
	cr_expect_eq(pebs_meta_check(key, value, NULL), -PEBS_E_PARSE);
}

Test(meta_check, time_unit)
{
	ok("time.unit", "tsc");
	ok("time.unit", "ns");
	bad("time.unit", "TSC", "tsc or ns");
	bad("time.unit", "us", "tsc or ns");
	bad("time.unit", "", "tsc or ns");
	bad("time.unit", "ns ", "tsc or ns");
}

Test(meta_check, tsc_hz)
{
	const char *w = "a decimal integer above 0 (TSC ticks per second)";
	ok("tsc.hz", "2500000000");
	ok("tsc.hz", "1");
	ok("tsc.hz", "18446744073709551615");
	bad("tsc.hz", "abc", w);
	bad("tsc.hz", "", w);
	bad("tsc.hz", "0", w);
	bad("tsc.hz", "000", w);
	bad("tsc.hz", "-1", w);
	bad("tsc.hz", "+1", w);
	bad("tsc.hz", " 1", w);
	bad("tsc.hz", "12abc", w);
	bad("tsc.hz", "2.5e9", w);
	bad("tsc.hz", "0x10", w);
	bad("tsc.hz", "18446744073709551616", w);
}

Test(meta_check, topology)
{
	const char *n = "a decimal integer above 0 (the number of CPUs)";
	const char *l = "a CPU list such as 0-27,56-83 (CPUs up to 65535, "
			"node N up to 4095)";
	ok("topology.nr_cpus", "112");
	ok("topology.nr_cpus", "4294967295");
	bad("topology.nr_cpus", "0", n);
	bad("topology.nr_cpus", "4294967296", n);
	bad("topology.nr_cpus", "many", n);
	ok("topology.node.0.cpus", "0-27,56-83");
	ok("topology.node.1.cpus", "5");
	ok("topology.node.4095.cpus", "");
	bad("topology.node.0.cpus", "0-27,", l);
	bad("topology.node.0.cpus", "27-0", l);
	bad("topology.node.0.cpus", "0-65536", l);
	bad("topology.node.0.cpus", "a-b", l);
	bad("topology.node.4096.cpus", "1", l);
	bad("topology.node.99999999999999999999.cpus", "1", l);
}

/* Keys without a syntax of their own take anything. */
Test(meta_check, other_keys)
{
	ok("note", "");
	ok("time.units", "weeks");
	ok("topology.node.x.cpus", "zz");
	ok("topology.node.0.cpus.extra", "zz");
	ok("topology.node..cpus", "zz");
	ok("tsc.hz.note", "abc");
}

/* Entries past the count are NULLs, not reads past the arrays. */
Test(meta_check, entry_past_count)
{
	struct pebs_meta *m = pebs_meta_new();
	const char *k = "x", *v = "y";
	cr_assert_not_null(m);
	pebs_meta_entry(m, 0, &k, &v);
	cr_assert(!k && !v);
	cr_assert_eq(pebs_meta_set(m, "a", "1"), 0);
	pebs_meta_entry(m, 0, &k, &v);
	cr_assert_str_eq(k, "a");
	cr_assert_str_eq(v, "1");
	pebs_meta_entry(m, 1, &k, &v);
	cr_assert(!k && !v);
	pebs_meta_entry(m, (size_t)-1, &k, &v);
	cr_assert(!k && !v);
	pebs_meta_free(m);
}
