/*
 * Symbols (pebs_sym.h) on a real program built here with -g: it prints the
 * addresses of a function, a global array and a static variable and its
 * own /proc/self/maps; those maps become the metadata (maps.N.*), exactly
 * as a perf import records them.  Checked: function+offset, source line,
 * variable+offset, the batch API, --symfs, and the notes for a missing
 * binary and a build-id mismatch.
 */
#include <criterion/criterion.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_perf.h"
#include "pebs_sym.h"
#include "testutil.h"

static const char prog_src[] =
	"#include <stdio.h>\n"
	"long counter_global[16];\n"
	"static int static_var = 7;\n"
	"int work(int n)\n"
	"{\n"
	"\tint s = 0;\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\ts += (int)counter_global[i % 16] + static_var;\n"	/* 8 */
	"\treturn s;\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%p %p %p\\n\", (void *)work, (void *)counter_global,\n"
	"\t       (void *)&static_var);\n"
	"\tFILE *m = fopen(\"/proc/self/maps\", \"r\");\n"
	"\tchar l[1024];\n"
	"\twhile (m && fgets(l, sizeof(l), m))\n"
	"\t\tfputs(l, stdout);\n"
	"\treturn work(3) < 0;\n"
	"}\n";

static char dir[64], prog[128];
static uint64_t a_work, a_global, a_static;
static struct pebs_meta *meta;
static char bid[41];

#define PID 4242u

/* Builds the program, runs it, turns its maps into metadata. */
static void setup(void)
{
	strcpy(dir, "/tmp/pebs-sym-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	char src[128], cmd[512];
	snprintf(src, sizeof(src), "%s/prog.c", dir);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	FILE *fp = fopen(src, "w");
	fputs(prog_src, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -g -O0 -fPIE -pie -Wl,--build-id "
		 "-o %s %s", prog, src);
	cr_assert_eq(system(cmd), 0, "cannot build the test program");
	FILE *out = popen(prog, "r");
	cr_assert_not_null(out);
	cr_assert_eq(fscanf(out, "%" SCNx64 " %" SCNx64 " %" SCNx64 "\n",
			    &a_work, &a_global, &a_static), 3);
	meta = pebs_meta_new();
	size_t n = tu_maps_meta(out, prog, PID, meta);
	pclose(out);
	cr_assert_gt(n, 0, "no maps of the program");
	/* the binary's build-id, as perf would have recorded it */
	elf_version(EV_CURRENT);
	int fd = open(prog, O_RDONLY);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	const void *p;
	ssize_t bl = dwelf_elf_gnu_build_id(elf, &p);
	cr_assert_gt(bl, 0);
	for (ssize_t i = 0; i < bl && i < 20; i++)
		snprintf(bid + 2 * i, 3, "%02x", ((const uint8_t *)p)[i]);
	elf_end(elf);
	close(fd);
}

static void teardown(void)
{
	char cmd[128];
	pebs_meta_free(meta);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		cr_log_warn("cannot remove %s", dir);
}

TestSuite(sym, .init = setup, .fini = teardown);

Test(sym, function_offset_and_line)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	struct pebs_sym_info in;
	cr_assert_eq(pebs_sym_lookup(s, PID, a_work, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_eq(in.off, 0);
	cr_expect_str_eq(in.dso, prog);
	cr_assert_not_null(in.file);
	cr_expect(strstr(in.file, "prog.c") != NULL);
	cr_expect_eq(in.line, 5, "line of work()'s entry: %d", in.line);
	cr_assert_eq(pebs_sym_lookup(s, PID, a_work + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_eq(in.off, 5);
	pebs_sym_close(s);
}

Test(sym, data_variables)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	struct pebs_sym_info in;
	cr_assert_eq(pebs_sym_lookup(s, PID, a_global + 24, 1, &in), 1);
	cr_expect_str_eq(in.name, "counter_global");
	cr_expect_eq(in.off, 24);
	cr_assert_eq(pebs_sym_lookup(s, PID, a_static, 1, &in), 1);
	cr_expect_str_eq(in.name, "static_var");
	cr_expect_eq(in.off, 0);
	/* just past the array: not inside the variable */
	int k = pebs_sym_lookup(s, PID, a_global + 16 * 8 + 4096 * 64, 1,
				&in);
	cr_expect(k == 0 || strcmp(in.name, "counter_global") != 0);
	pebs_sym_close(s);
}

Test(sym, batch_strings)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	struct pebs_batch *b = pebs_batch_new(4);
	int ev = pebs_batch_intern(b, "load-latency");
	struct pebs_sample x = { .pid = PID, .tid = PID, .event = (uint32_t)ev,
				 .ip = a_work + 2, .addr = a_global + 8 };
	pebs_batch_push(b, &x);
	x.pid = 99;	/* a process without maps */
	pebs_batch_push(b, &x);
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_SYM), "work+0x2");
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_DSO), prog);
	cr_expect_str_eq(pebs_sym_str(s, b, 0, PEBS_SYM_DATA_SYM),
			 "counter_global+0x8");
	const char *sl = pebs_sym_str(s, b, 0, PEBS_SYM_SRCLINE);
	cr_expect_str_eq(sl, "prog.c:5");
	/* cached: the very same string */
	cr_expect_eq(pebs_sym_str(s, b, 0, PEBS_SYM_SYM),
		     pebs_sym_str(s, b, 0, PEBS_SYM_SYM));
	cr_expect_str_eq(pebs_sym_str(s, b, 1, PEBS_SYM_SYM),
			 PEBS_SYM_UNKNOWN);
	cr_expect_str_eq(pebs_sym_str(s, b, 1, PEBS_SYM_SRCLINE), "??:0");
	cr_expect_eq(pebs_sym_field_lookup("data_sym"), PEBS_SYM_DATA_SYM);
	cr_expect_eq(pebs_sym_field_lookup("lat"), -1);
	pebs_batch_free(b);
	pebs_sym_close(s);
}

/* Rewrites every maps.N.path from @from to @to. */
static struct pebs_meta *repath(const char *to)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_copy(m, meta);
	for (size_t i = 0; i < pebs_meta_count(meta); i++) {
		const char *k, *v;
		pebs_meta_entry(meta, i, &k, &v);
		if (strstr(k, ".path"))
			pebs_meta_set(m, k, to);
	}
	return m;
}

Test(sym, build_id_checked)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_copy(m, meta);
	pebs_meta_set(m, "maps.0.build_id", bid);
	struct pebs_sym *s;
	struct pebs_sym_info in;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work, 0, &in), 1);
	const char *n;
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);
	pebs_sym_close(s);
	/* another build-id: the binary is not the one that ran */
	pebs_meta_set(m, "maps.0.build_id",
		      "00112233445566778899aabbccddeeff00112233");
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work, 0, &in), 0);
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect(strstr(n, "build-id differs") != NULL, "%s", n);
	cr_expect(strstr(n, prog) == n, "%s", n);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

Test(sym, symfs_and_missing_binary)
{
	/* the capture says /opt/app/prog; the file lies under DIR/symfs */
	char cmd[512], symfs[128];
	snprintf(symfs, sizeof(symfs), "%s/symfs", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/opt/app && cp %s %s/opt/app/"
		 "prog", symfs, prog, symfs);
	cr_assert_eq(system(cmd), 0);
	struct pebs_meta *m = repath("/opt/app/prog");
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work, 0, &in), 0);
	cr_expect_str_eq(in.dso, "/opt/app/prog");
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect_str_eq(n, "/opt/app/prog: not found: its symbols read "
			 "[unknown]");
	pebs_sym_close(s);
	struct pebs_sym_opts o = { .symfs = symfs };
	cr_assert_eq(pebs_sym_open(&s, m, &o), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + 1, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_eq(pebs_sym_lookup(s, PID, a_static, 1, &in), 1);
	cr_expect_str_eq(in.name, "static_var");
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/*
 * End to end with a real perf.data: `perf record -e cpu-clock -d` of a
 * program spinning in work(), imported (maps and build-ids from its MMAP2
 * records and BUILD_ID feature), then symbolized.  Skipped where perf
 * cannot record (not installed, or perf_event_paranoid forbids it).
 */
Test(sym, perf_record_end_to_end)
{
	static const char spin[] =
		"long counter_global[1024];\n"
		"static long static_var = 3;\n"
		"__attribute__((noinline)) long work(long n)\n"
		"{\n"
		"\tlong s = 0;\n"
		"\tfor (long i = 0; i < n; i++)\n"
		"\t\ts += counter_global[i & 1023] + static_var;\n"
		"\treturn s;\n"
		"}\n"
		"int main(void) { return (int)(work(200000000) & 1); }\n";
	char src[128], bin[128], data[128], cmd[512];
	snprintf(src, sizeof(src), "%s/spin.c", dir);
	snprintf(bin, sizeof(bin), "%s/spin", dir);
	snprintf(data, sizeof(data), "%s/spin.data", dir);
	FILE *fp = fopen(src, "w");
	fputs(spin, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -g -O1 -o %s %s", bin, src);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "perf record -q -e cpu-clock -d -o %s %s "
		 ">/dev/null 2>&1", data, bin);
	if (system(cmd) != 0)
		cr_skip_test("perf record cannot run here");
	fp = fopen(data, "rb");
	cr_assert_not_null(fp);
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open(&r, fp, data, NULL), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	const struct pebs_meta *m = pebs_perf_reader_meta(r);
	/* the program's map, with the build-id perf recorded for it */
	const char *v;
	char k[64];
	int found = 0;
	for (size_t i = 0; snprintf(k, sizeof(k), "maps.%zu.path", i),
	     (v = pebs_meta_get(m, k)); i++) {
		if (strcmp(v, bin) != 0)
			continue;
		snprintf(k, sizeof(k), "maps.%zu.build_id", i);
		found += pebs_meta_get(m, k) != NULL;
	}
	cr_expect_gt(found, 0, "no map of %s with a build-id", bin);
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	struct pebs_perf_item it;
	size_t user = 0, in_work = 0;
	while (pebs_perf_reader_next(r, &it) > 0) {
		if (it.kind != PEBS_PERF_SAMPLE || it.s.ip >> 63)
			continue;	/* kernel samples: not resolved */
		struct pebs_sym_info in;
		if (pebs_sym_lookup(s, it.s.pid, it.s.ip, 0, &in) < 0)
			continue;
		if (!in.dso || strcmp(in.dso, bin) != 0)
			continue;
		user++;
		if (in.name && strcmp(in.name, "work") == 0) {
			in_work++;
			cr_expect_not_null(in.file);
		}
	}
	cr_expect_gt(user, 10, "only %zu samples in the program", user);
	cr_expect_geq(in_work * 10, user * 9, "%zu of %zu in work()",
		      in_work, user);
	const char *n;
	cr_expect_eq(pebs_sym_notes(s, 0, &n) > 0 ? strstr(n, bin) == NULL : 1,
		     1, "note about the program: %s", n);
	pebs_sym_close(s);
	pebs_perf_reader_close(r);
	fclose(fp);
}

/* Raw PEBS records (msr captures) carry no pid: pid 0 stands for the one
 * user process of the maps, and only when there is exactly one. */
Test(sym, pid0_is_the_only_process)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, meta, NULL), 0);
	struct pebs_sym_info in;
	cr_assert_eq(pebs_sym_lookup(s, 0, a_work + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_eq(in.off, 5);
	pebs_sym_close(s);

	/* a second process: pid 0 is ambiguous and stays unresolved */
	struct pebs_meta *m2 = pebs_meta_new();
	cr_assert_not_null(m2);
	cr_assert_eq(pebs_meta_copy(m2, meta), 0);
	char k[64];
	size_t n = 0;
	do
		snprintf(k, sizeof(k), "maps.%zu.path", n++);
	while (pebs_meta_get(m2, k));
	n--;
	snprintf(k, sizeof(k), "maps.%zu.pid", n);
	pebs_meta_set(m2, k, "777");
	snprintf(k, sizeof(k), "maps.%zu.start", n);
	pebs_meta_set(m2, k, "0x1000");
	snprintf(k, sizeof(k), "maps.%zu.end", n);
	pebs_meta_set(m2, k, "0x2000");
	snprintf(k, sizeof(k), "maps.%zu.path", n);
	pebs_meta_set(m2, k, "/nonexistent/other");
	cr_assert_eq(pebs_sym_open(&s, m2, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, 0, a_work + 5, 0, &in), 0);
	cr_expect_null(in.dso);
	cr_assert_eq(pebs_sym_lookup(s, PID, a_work + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	pebs_sym_close(s);
	pebs_meta_free(m2);
}

/* Adds to @m every map of @base as maps.(N + @at), moved by @shift and
 * named @path (NULL: the same path). */
static void put_copy(struct pebs_meta *m, const struct pebs_meta *base,
		     size_t at, uint64_t shift, const char *path)
{
	for (size_t i = 0; i < pebs_meta_count(base); i++) {
		const char *k, *v;
		size_t n;
		char f[16], nk[64];
		pebs_meta_entry(base, i, &k, &v);
		if (sscanf(k, "maps.%zu.%15s", &n, f) != 2)
			continue;
		snprintf(nk, sizeof(nk), "maps.%zu.%s", n + at, f);
		if (!strcmp(f, "start") || !strcmp(f, "end"))
			pebs_meta_setf(m, nk, "0x%" PRIx64,
				       (uint64_t)strtoull(v, NULL, 0) + shift);
		else
			pebs_meta_set(m, nk, path && !strcmp(f, "path") ? path :
				      v);
	}
}

/* @base and a copy of its maps (put_copy()). */
static struct pebs_meta *add_copy(const struct pebs_meta *base, size_t at,
				  uint64_t shift, const char *path)
{
	struct pebs_meta *m = pebs_meta_new();
	pebs_meta_copy(m, base);
	put_copy(m, base, at, shift, path);
	return m;
}

/* A symbolizer of @m; work() resolves at its address. */
static struct pebs_sym *open_work(const struct pebs_meta *m,
				  struct pebs_sym_info *in)
{
	struct pebs_sym *s;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + 5, 0, in), 1);
	cr_expect_str_eq(in->name, "work");
	return s;
}

/*
 * Two inputs of one pid, each with the program at its own load address
 * (as pebs-c2c gathers them): the program was reported once per pid (the
 * map of its lowest offset), so the other input's samples lost their
 * symbols silently.  Both resolve now.
 */
Test(sym, same_object_at_two_addresses_in_one_pid)
{
	const uint64_t shift = 0x100000000ull;
	struct pebs_meta *m = add_copy(meta, 100, shift, NULL);
	struct pebs_sym_info in;
	const char *n;
	struct pebs_sym *s = open_work(m, &in);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + shift + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_eq(in.off, 5);
	cr_expect_not_null(in.file);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_global + shift + 8, 1, &in), 1);
	cr_expect_str_eq(in.name, "counter_global");
	cr_expect_eq(pebs_sym_notes(s, 0, &n), 0);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/*
 * Two inputs of one pid that mapped different objects at the same
 * addresses: the one first in the metadata (the first input) is used,
 * the other is said not to be, and dso agrees with the symbol.
 */
Test(sym, overlapping_objects_first_wins)
{
	char other[160], cmd[400];
	snprintf(other, sizeof(other), "%s/other", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s", prog, other);
	cr_assert_eq(system(cmd), 0);
	struct pebs_meta *m = add_copy(meta, 100, 0, other);
	struct pebs_sym_info in;
	const char *n;
	struct pebs_sym *s = open_work(m, &in);
	cr_expect_str_eq(in.dso, prog);
	cr_expect_str_eq(pebs_sym_dso(s, PID, a_work), prog);
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect(strstr(n, other) == n && strstr(n, "mapped there first"),
		  "%s", n);
	pebs_sym_close(s);
	pebs_meta_free(m);
	/* the other order: the other object wins */
	struct pebs_meta *o = repath(other);
	m = add_copy(o, 100, 0, prog);
	s = open_work(m, &in);
	cr_expect_str_eq(in.dso, other);
	pebs_sym_close(s);
	pebs_meta_free(m);
	pebs_meta_free(o);
}

/*
 * Three copies of the program, each a page above the one before, every
 * one overlapping the next: x (second in the metadata) lowest, y (last)
 * a page up, z (first) two pages up.  z wins over both; y lost to x in
 * the address sweep, and x then lost to z, so y's note named x, which
 * holds nothing.  The note names the object that holds y's addresses.
 */
Test(sym, three_overlapping_loads_note_the_holder)
{
	char x[160], y[160], z[160], cmd[1024];
	snprintf(x, sizeof(x), "%s/x", dir);
	snprintf(y, sizeof(y), "%s/y", dir);
	snprintf(z, sizeof(z), "%s/z", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s && cp %s %s && cp %s %s", prog,
		 x, prog, y, prog, z);
	cr_assert_eq(system(cmd), 0);
	/* same digit count: key order and numbering agree */
	struct pebs_meta *m = pebs_meta_new();
	put_copy(m, meta, 100, 0x2000, z);
	put_copy(m, meta, 200, 0, x);
	put_copy(m, meta, 300, 0x1000, y);
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	char want[400];
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	/* z's work() */
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + 0x2000 + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_expect_str_eq(in.dso, z);
	/* in a map of y (it starts there last): resolved through z; every
	 * note about a map of y names z */
	pebs_sym_lookup(s, PID, a_work + 0x1000 + 5, 0, &in);
	cr_expect_str_eq(in.dso, z);
	size_t nn = pebs_sym_notes(s, 0, &n), found = 0;
	snprintf(want, sizeof(want), " over %s, mapped there first", z);
	for (size_t i = 0; i < nn; i++) {
		pebs_sym_notes(s, i, &n);
		if (strstr(n, y) != n)
			continue;
		found++;
		cr_expect(strstr(n, want), "%s", n);
	}
	cr_expect_gt(found, 0, "no note about %s", y);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/* A stripped binary gave no symbols and no word why. */
Test(sym, stripped_binary_noted)
{
	char bin[160], cmd[600];
	snprintf(bin, sizeof(bin), "%s/prog.strip", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s && strip %s", prog, bin, bin);
	cr_assert_eq(system(cmd), 0);
	struct pebs_meta *m = repath(bin);
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + 5, 0, &in), 0);
	cr_expect_str_eq(in.dso, bin);
	cr_expect_eq(pebs_sym_lookup(s, PID, a_work + 6, 0, &in), 0);
	cr_assert_eq(pebs_sym_notes(s, 0, &n), 1);
	cr_expect(strstr(n, bin) == n && strstr(n, ": no symbol table "
		  "(stripped) and no debug file found"), "%s", n);
	pebs_sym_close(s);
	pebs_meta_free(m);
}

/*
 * A small PIE linked with -z noseparate-code -z norelro: its RW segment
 * starts in the file's first page, so both its maps have pgoff 0 and two
 * candidate load biases each.  The data map took the text segment's (the
 * first), a wrong bias: the object then overlapped itself, that load was
 * dropped, and its variables read [unknown] under a note naming the
 * binary as mapped over itself.  The bias both maps share is used now.
 */
Test(sym, data_map_sharing_the_first_file_page)
{
	char bin[160], src[160], cmd[800];
	uint64_t w, g, st;
	snprintf(bin, sizeof(bin), "%s/prog.small", dir);
	snprintf(src, sizeof(src), "%s/prog.c", dir);
	snprintf(cmd, sizeof(cmd), "cc -g -O0 -fPIE -pie -Wl,--build-id "
		 "-Wl,-z,noseparate-code -Wl,-z,norelro -o %s %s", bin, src);
	cr_assert_eq(system(cmd), 0);
	FILE *out = popen(bin, "r");
	cr_assert_not_null(out);
	cr_assert_eq(fscanf(out, "%" SCNx64 " %" SCNx64 " %" SCNx64 "\n",
			    &w, &g, &st), 3);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_gt(tu_maps_meta(out, bin, PID, m), 0);
	pclose(out);
	struct pebs_sym *s;
	struct pebs_sym_info in;
	const char *n;
	cr_assert_eq(pebs_sym_open(&s, m, NULL), 0);
	cr_expect_eq(pebs_sym_lookup(s, PID, w + 5, 0, &in), 1);
	cr_expect_str_eq(in.name, "work");
	cr_assert_eq(pebs_sym_lookup(s, PID, g + 24, 1, &in), 1);
	cr_expect_str_eq(in.name, "counter_global");
	cr_expect_eq(in.off, 24);
	cr_assert_eq(pebs_sym_lookup(s, PID, st, 1, &in), 1);
	cr_expect_str_eq(in.name, "static_var");
	size_t nn = pebs_sym_notes(s, 0, &n);
	cr_expect_eq(nn, 0, "%s", nn ? n : "");
	pebs_sym_close(s);
	pebs_meta_free(m);
}
