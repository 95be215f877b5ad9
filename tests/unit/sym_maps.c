/*
 * The maps.N.* metadata as pebs_sym.h reads it, without binaries: any
 * numbering (pebs_sym_map_next(), the one reader pebs_sym_open() and
 * pebs_c2c_add_maps() share), nested maps, and the cost of many maps.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pebs_c2c.h"
#include "pebs_sym.h"
#include "testutil.h"

/* Sets maps.@n.* of @m (pgoff 0). */
static void set_map(struct pebs_meta *m, const char *n, unsigned pid,
		    uint64_t start, uint64_t end, const char *path)
{
	char k[64];
	snprintf(k, sizeof(k), "maps.%s.pid", n);
	pebs_meta_setf(m, k, "%u", pid);
	snprintf(k, sizeof(k), "maps.%s.start", n);
	pebs_meta_setf(m, k, "0x%llx", (unsigned long long)start);
	snprintf(k, sizeof(k), "maps.%s.end", n);
	pebs_meta_setf(m, k, "0x%llx", (unsigned long long)end);
	snprintf(k, sizeof(k), "maps.%s.pgoff", n);
	pebs_meta_set(m, k, "0x0");
	snprintf(k, sizeof(k), "maps.%s.path", n);
	pebs_meta_set(m, k, path);
}

/* pebs-hist, -decode and -filter read only maps.0..k: a file whose maps
 * were numbered with a gap lost them all ("no process maps"). */
Test(sym_maps, any_numbering)
{
	struct pebs_meta *m = pebs_meta_new();
	set_map(m, "7", 5, 0x1000, 0x2000, "/a");
	set_map(m, "007x", 5, 0x3000, 0x4000, "/not-a-map");
	pebs_meta_set(m, "maps.12.pid", "5");	/* no path: not a map */
	set_map(m, "3", 5, 0x5000, 0x6000, "/b");
	pebs_meta_set(m, "maps.3.build_id", "abcd");
	const char *v[PEBS_SYM_MAP_FIELDS];
	size_t i = 0;
	cr_assert_eq(pebs_sym_map_next(m, &i, v), 1);
	cr_expect_str_eq(v[PEBS_SYM_MAP_PATH], "/a");
	cr_expect_str_eq(v[PEBS_SYM_MAP_START], "0x1000");
	cr_expect_null(v[PEBS_SYM_MAP_BUILD_ID]);
	cr_assert_eq(pebs_sym_map_next(m, &i, v), 1);
	cr_expect_str_eq(v[PEBS_SYM_MAP_PATH], "/b");
	cr_expect_str_eq(v[PEBS_SYM_MAP_BUILD_ID], "abcd");
	cr_expect_eq(pebs_sym_map_next(m, &i, v), 0);
	cr_expect_eq(pebs_sym_map_field_lookup("pgoff"), PEBS_SYM_MAP_PGOFF);
	cr_expect_str_eq(pebs_sym_map_field_name(PEBS_SYM_MAP_BUILD_ID),
			 "build_id");

	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_nmaps(s), 2);
	cr_expect_str_eq(pebs_sym_dso(s, 5, 0x1800), "/a");
	cr_expect_str_eq(pebs_sym_dso(s, 5, 0x5800), "/b");
	cr_expect_null(pebs_sym_dso(s, 5, 0x3800));
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/* find_map() looked back at most 16 maps: an address in a large map
 * followed by more nested (later starting) maps got no dso. */
/* workload.ips.N: any N with both keys, in the order of the .ip keys */
Test(sym_maps, workload_ips_any_numbering)
{
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	pebs_meta_set(m, "workload.ips.7.ip", "0x10");
	pebs_meta_set(m, "workload.ips.7.name", "f: load a");
	pebs_meta_set(m, "workload.ips.2.ip", "0x20");	/* no name */
	pebs_meta_set(m, "workload.ips.x.ip", "0x30");	/* not a number */
	pebs_meta_set(m, "workload.ips.x.name", "g");
	pebs_meta_set(m, "workload.ips.0.name", "h");
	pebs_meta_set(m, "workload.ips.0.ip", "0x40");
	const char *ip, *name;
	size_t i = 0;
	cr_assert_eq(pebs_sym_ip_next(m, &i, &ip, &name), 1);
	cr_expect_str_eq(ip, "0x10");
	cr_expect_str_eq(name, "f: load a");
	cr_assert_eq(pebs_sym_ip_next(m, &i, &ip, &name), 1);
	cr_expect_str_eq(ip, "0x40");
	cr_expect_str_eq(name, "h");
	cr_expect_eq(pebs_sym_ip_next(m, &i, &ip, &name), 0);
	i = 0;
	cr_expect_eq(pebs_sym_ip_next(NULL, &i, &ip, &name), 0);
	pebs_meta_free(m);
}

Test(sym_maps, address_under_many_nested_maps)
{
	struct pebs_meta *m = pebs_meta_new();
	char n[16];
	set_map(m, "0", 9, 0x10000000, 0x20000000, "/big");
	for (unsigned i = 1; i <= 40; i++) {
		snprintf(n, sizeof(n), "%u", i);
		set_map(m, n, 9, 0x10000000 + i * 0x10000,
			0x10000000 + i * 0x10000 + 0x1000, "/small");
	}
	/* nested twice: a middle map holding small ones of its own */
	set_map(m, "41", 9, 0x18000000, 0x19000000, "/mid");
	for (unsigned i = 0; i < 40; i++) {
		snprintf(n, sizeof(n), "%u", 42 + i);
		set_map(m, n, 9, 0x18000000 + i * 0x10000,
			0x18000000 + i * 0x10000 + 0x1000, "/inner");
	}
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x10000000), "/big");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x10100800), "/small");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x10108000), "/big");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x1f000000), "/big");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x18000800), "/inner");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x18ff0000), "/mid");
	cr_expect_str_eq(pebs_sym_dso(s, 9, 0x19000000), "/big");
	cr_expect_null(pebs_sym_dso(s, 9, 0x20000000));
	cr_expect_null(pebs_sym_dso(s, 8, 0x18000800));
	struct pebs_sym_info in;
	cr_expect_eq(pebs_sym_lookup(s, 9, 0x1f000000, 0, &in), 0);
	cr_expect_str_eq(in.dso, "/big");
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/* CPU time: the machine running the tests may be busy. */
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * 20000 maps (the capture's limit) in one process, gathered twice by
 * pebs-c2c (the second input repeats them) and resolved: the set-up
 * compared every pair of maps (8000 took 23 s).  Now n log n: about 0.3 s
 * of CPU in a normal build, 0.6 s under ASan.
 */
Test(sym_maps, many_maps_set_up_fast)
{
	tu_deadline(60);
	enum { N = 20000 };
	struct pebs_meta *m = pebs_meta_new();
	char n[16], path[64];
	for (unsigned i = 0; i < N; i++) {
		snprintf(n, sizeof(n), "%u", i);
		snprintf(path, sizeof(path), "/nonexistent/lib%u.so", i);
		set_map(m, n, 42, 0x100000000ull + i * 0x2000ull,
			0x100000000ull + i * 0x2000ull + 0x1000, path);
	}
	double t0 = now();
	struct pebs_c2c *c;
	char err[128];
	cr_assert_eq(pebs_c2c_new(&c, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_c2c_add_maps(c, m), 0);
	cr_assert_eq(pebs_c2c_add_maps(c, m), 0);
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, pebs_c2c_maps(c), NULL), 0);
	cr_expect_eq(pebs_sym_nmaps(s), N);
	struct pebs_sym_info in;
	cr_expect_eq(pebs_sym_lookup(s, 42, 0x100000000ull + 7 * 0x2000, 0,
				     &in), 0);
	cr_expect_str_eq(in.dso, "/nonexistent/lib7.so");
	double dt = now() - t0;
	cr_log_info("%d maps: %.3f s of CPU", N, dt);
	cr_expect_lt(dt, 1.5, "%d maps took %.2f s of CPU to set up", N, dt);
	pebs_sym_close(s);
	pebs_c2c_free(c);
	pebs_meta_free(m);
}

/*
 * start, end and pgoff are hex with or without 0x, as /proc/PID/maps
 * prints them: strtoull(v, NULL, 0) read "7f0000001000" as 7 and a
 * leading 0 as octal, silently.  A value that does not parse leaves the
 * map out, with a note.
 */
Test(sym_maps, map_values_are_hex)
{
	uint64_t x = 42;
	cr_assert_eq(pebs_sym_map_num("7f0000001000", &x), 0);
	cr_expect_eq(x, 0x7f0000001000ull);
	cr_assert_eq(pebs_sym_map_num("0x10", &x), 0);
	cr_expect_eq(x, 0x10);
	cr_assert_eq(pebs_sym_map_num("0X0400000", &x), 0);
	cr_expect_eq(x, 0x400000);
	cr_assert_eq(pebs_sym_map_num("010", &x), 0);
	cr_expect_eq(x, 0x10);
	cr_assert_eq(pebs_sym_map_num("ffffffffffffffff", &x), 0);
	cr_expect_eq(x, UINT64_MAX);
	static const char *const bad[] = {
		"", "0x", "zz", "10 ", " 10", "-1", "+1", "0x0x1", "1g",
		"10000000000000000",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		x = 42;
		cr_expect_eq(pebs_sym_map_num(bad[i], &x), -PEBS_E_PARSE,
			     "'%s'", bad[i]);
		cr_expect_eq(x, 42, "'%s'", bad[i]);
	}

	/* map, field, value */
	static const char *const maps[][3] = {
		/* as /proc/PID/maps prints them */
		{ "0", "pid", "5" }, { "0", "start", "7f0000001000" },
		{ "0", "end", "7f0000002000" }, { "0", "pgoff", "00001000" },
		{ "0", "path", "/a" },
		/* leading zeros: hex, not octal */
		{ "1", "pid", "5" }, { "1", "start", "0400000" },
		{ "1", "end", "0401000" }, { "1", "path", "/b" },
		/* not a number: left out, with a note */
		{ "2", "pid", "5" }, { "2", "start", "0x900000" },
		{ "2", "end", "nine" }, { "2", "path", "/c" },
	};
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		char k[64];
		snprintf(k, sizeof(k), "maps.%s.%s", maps[i][0], maps[i][1]);
		pebs_meta_set(m, k, maps[i][2]);
	}
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_nmaps(s), 2);
	cr_expect_str_eq(pebs_sym_dso(s, 5, 0x7f0000001800ull), "/a");
	cr_expect_str_eq(pebs_sym_dso(s, 5, 0x400800), "/b");
	cr_expect_null(pebs_sym_dso(s, 5, 0x900000));
	const char *note = NULL;
	cr_assert_eq(pebs_sym_notes(s, 0, &note), 1);
	cr_expect_str_eq(note, "/c: map with end 'nine' in the metadata (hex "
			 "expected): not used");
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/*
 * pid is decimal, as everywhere else: strtol(v, NULL, 0) read "010" as
 * pid 8 and "0x10" as 16, and "12 " as 12.  -1 is the kernel's maps.  A
 * pid that does not parse leaves the map out, with a note, as a start
 * that does not.
 */
Test(sym_maps, map_pid_is_decimal)
{
	int32_t x = 42;
	cr_assert_eq(pebs_sym_map_pid("010", &x), 0);
	cr_expect_eq(x, 10);
	cr_assert_eq(pebs_sym_map_pid("-1", &x), 0);
	cr_expect_eq(x, -1);
	cr_assert_eq(pebs_sym_map_pid("0", &x), 0);
	cr_expect_eq(x, 0);
	cr_assert_eq(pebs_sym_map_pid("2147483647", &x), 0);
	cr_expect_eq(x, INT32_MAX);
	static const char *const bad[] = {
		"", "0x10", "0X10", "a", "12 ", " 12", "+1", "-2", "-01",
		"--1", "-", "1e3", "2147483648", "99999999999999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		x = 42;
		cr_expect_eq(pebs_sym_map_pid(bad[i], &x), -PEBS_E_PARSE,
			     "'%s'", bad[i]);
		cr_expect_eq(x, 42, "'%s'", bad[i]);
	}

	struct pebs_meta *m = pebs_meta_new();
	cr_assert_not_null(m);
	set_map(m, "0", 8, 0x1000, 0x2000, "/a");
	pebs_meta_set(m, "maps.0.pid", "010");
	set_map(m, "1", 8, 0x3000, 0x4000, "/b");
	pebs_meta_set(m, "maps.1.pid", "0x10");
	set_map(m, "2", 8, 0x5000, 0x6000, "/c");
	set_map(m, "3", 8, 0x7000, 0x8000, "/d");
	pebs_meta_set(m, "maps.3.pid", "12 ");
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_nmaps(s), 2);
	cr_expect_str_eq(pebs_sym_dso(s, 10, 0x1800), "/a");
	cr_expect_null(pebs_sym_dso(s, 8, 0x1800), "010 is not octal");
	cr_expect_null(pebs_sym_dso(s, 16, 0x3800), "0x10 is not hex");
	cr_expect_null(pebs_sym_dso(s, 12, 0x7800));
	cr_expect_str_eq(pebs_sym_dso(s, 8, 0x5800), "/c");
	const char *note = NULL;
	cr_assert_eq(pebs_sym_notes(s, 0, &note), 2);
	cr_expect_str_eq(note, "/b: map with pid '0x10' in the metadata "
			 "(decimal expected): not used");
	cr_assert_eq(pebs_sym_notes(s, 1, &note), 2);
	cr_expect_str_eq(note, "/d: map with pid '12 ' in the metadata "
			 "(decimal expected): not used");
	pebs_sym_close(s);
	pebs_meta_free(m);
}
