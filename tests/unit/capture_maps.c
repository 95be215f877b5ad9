/*
 * capture_maps.c - the maps and build-ids a capture records (lib/
 * capture_maps.c): pebs-import's exclusions, /proc/PID/maps of a live
 * process with the build-ids of its files, and end to end: a small
 * -fsanitize=thread program linked against libpebs-trace, captured on the
 * simulated PMU (adaptive icl, whose records carry no registers), must
 * leave its binary's maps with its build-id (as readelf prints it) in the
 * file's metadata, and pebs_sym must name the program's function from a
 * sample's ip and pid.  Skipped (saying why) without -fsanitize=thread.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture_int.h"
#include "pebs_capture.h"
#include "pebs_format.h"
#include "pebs_sym.h"
#include "testutil.h"

/* The build-id readelf prints for @path ("" when none or no readelf). */
static void readelf_bid(const char *path, char *hex, size_t cap)
{
	char cmd[PATH_MAX + 100];
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null | "
		 "sed -n 's/.*Build ID: *//p'", path);
	FILE *p = popen(cmd, "r");
	hex[0] = 0;
	if (!p)
		return;
	if (!fgets(hex, (int)cap, p))
		hex[0] = 0;
	hex[strcspn(hex, "\n")] = 0;
	pclose(p);
}

/*
 * The maps entries of header @m for the object @path: their count, the
 * pid of the last one in *@pid (when not NULL).  Every entry must be one
 * a capture keeps (cmaps_useless), and with @hex non-empty every entry of
 * @path must carry that build-id.
 */
static size_t maps_of(const struct pebs_meta *m, const char *path,
		      const char *hex, long *pid)
{
	size_t n = 0;
	char k[64];
	for (size_t i = 0;; i++) {
		snprintf(k, sizeof(k), "maps.%zu.path", i);
		const char *p = pebs_meta_get(m, k);
		if (!p)
			break;
		cr_assert_not(cmaps_useless(p), "%s", p);
		if (strcmp(p, path))
			continue;
		n++;
		snprintf(k, sizeof(k), "maps.%zu.build_id", i);
		if (hex[0])
			cr_assert_str_eq(pebs_meta_get(m, k), hex);
		snprintf(k, sizeof(k), "maps.%zu.pid", i);
		if (pid)
			*pid = strtol(pebs_meta_get(m, k), NULL, 10);
	}
	return n;
}

Test(capture_maps, useless_like_pebs_import)
{
	static const char *const no[] = {
		"", "[heap]", "[stack]", "[vdso]", "[anon:x]", "//anon",
		"/dev/zero", "/SYSV00000000", "/memfd:x", "/anon_hugepage",
		"/tmp/a.out (deleted)", "relative/path",
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		cr_assert(cmaps_useless(no[i]), "%s", no[i]);
	cr_assert_not(cmaps_useless("/usr/lib/libc.so.6"));
	cr_assert_not(cmaps_useless("/home/u/my prog"));
}

Test(capture_maps, add_dedup_and_meta)
{
	struct cmaps m = { 0 };
	struct pebs_meta *meta = pebs_meta_new();
	char exe[PATH_MAX], hex[41];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert(n > 0);
	exe[n] = 0;
	cr_assert_eq(cmaps_add(&m, 5, 0x1000, 0x2000, 0, exe, NULL), 1);
	cr_assert_eq(cmaps_add(&m, 5, 0x1000, 0x2000, 0, exe, NULL), 0);
	cr_assert_eq(cmaps_add(&m, 5, 0x3000, 0x4000, 0, "[heap]", NULL), 0);
	cr_assert_eq(cmaps_add(&m, 5, 0x5000, 0x5000, 0, exe, NULL), 0);
	cr_assert_eq(cmaps_add(&m, 6, 0x6000, 0x7000, 0x2000,
			       "/nonexistent/lib.so", "abcd"), 1);
	cr_assert_eq(m.n, 2);
	cr_assert_eq(cmaps_meta(&m, meta), 0);
	cr_assert_str_eq(pebs_meta_get(meta, "maps.0.pid"), "5");
	cr_assert_str_eq(pebs_meta_get(meta, "maps.0.start"), "0x1000");
	cr_assert_str_eq(pebs_meta_get(meta, "maps.0.end"), "0x2000");
	cr_assert_str_eq(pebs_meta_get(meta, "maps.0.pgoff"), "0x0");
	cr_assert_str_eq(pebs_meta_get(meta, "maps.0.path"), exe);
	readelf_bid(exe, hex, sizeof(hex));
	if (hex[0])
		cr_assert_str_eq(pebs_meta_get(meta, "maps.0.build_id"), hex);
	cr_assert_str_eq(pebs_meta_get(meta, "maps.1.pgoff"), "0x2000");
	cr_assert_str_eq(pebs_meta_get(meta, "maps.1.build_id"), "abcd");
	cr_assert_null(pebs_meta_get(meta, "maps.2.path"));
	cmaps_free(&m);
	pebs_meta_free(meta);
}

/* Paths come from trace files too: only regular files are read, a FIFO
 * never blocks; a file that is not ELF is left out. */
Test(capture_maps, build_id_only_regular_files)
{
	char dir[] = "/tmp/pebs-maps-fifo-XXXXXX", fifo[64], hex[41];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/f", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_eq(cmaps_build_id(fifo, hex), -1);
	cr_assert_str_eq(hex, "");
	cr_assert_eq(cmaps_build_id("/dev/null", hex), -1);
	cr_assert_eq(cmaps_build_id("/nonexistent", hex), -1);
	cr_assert_eq(cmaps_build_id(dir, hex), -1);
	unlink(fifo);
	/* A data file mapped by the program (a locale archive, a font):
	 * not ELF, so no symbols, so not kept. */
	FILE *f = fopen(fifo, "w");
	cr_assert_not_null(f);
	fputs("not an ELF file\n", f);
	fclose(f);
	cr_assert_eq(cmaps_build_id(fifo, hex), -2);
	struct cmaps m = { 0 };
	cr_assert_eq(cmaps_add(&m, 1, 0x1000, 0x2000, 0, fifo, NULL), 0);
	cr_assert_eq(m.n, 0);
	cmaps_free(&m);
	unlink(fifo);
	rmdir(dir);
}

Test(capture_maps, proc_self)
{
	struct cmaps m = { 0 };
	char exe[PATH_MAX], hex[41];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int found = 0;

	cr_assert(n > 0);
	exe[n] = 0;
	cr_assert_gt(cmaps_read_proc(&m, NULL, getpid()), 0);
	cr_assert_eq(cmaps_read_proc(&m, NULL, getpid()), 0, "no duplicates");
	for (size_t i = 0; i < m.n; i++) {
		cr_assert_not(cmaps_useless(m.v[i].path), "%s", m.v[i].path);
		cr_assert_eq(m.v[i].pid, getpid());
		if (!strcmp(m.v[i].path, exe) && m.v[i].pgoff == 0) {
			found = 1;
			readelf_bid(exe, hex, sizeof(hex));
			cr_assert_str_eq(m.bid[m.v[i].bidx].hex, hex);
		}
	}
	cr_assert(found, "the test binary's first map");
	cr_assert_eq(cmaps_read_proc(&m, NULL, -5), -PEBS_E_IO);
	cmaps_free(&m);
}

/*
 * The command names of a -- COMMAND: the process's and each other live
 * thread's from /proc (a fake one here), else (reaped: its pid may be
 * another process's now) the name the kernel gave its exec.
 */
Test(capture_maps, comm_from_proc_or_command)
{
	char root[64];
	char name[CMAPS_COMM_LEN];
	tu_fake_root(root, sizeof(root));
	cr_assert_eq(tu_sh("mkdir -p %s/proc/42/task/42 %s/proc/42/task/43 "
			   "%s/proc/42/task/44 && echo server >%s/proc/42/comm "
			   "&& echo server >%s/proc/42/task/42/comm && "
			   "echo io-worker >%s/proc/42/task/43/comm", root,
			   root, root, root, root, root), 0);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(cmaps_comm(m, root, 42, 1, "/usr/bin/ignored"), 0);
	cr_expect_str_eq(pebs_meta_get(m, "comm.42"), "server");
	cr_expect_str_eq(pebs_meta_get(m, "comm.42.43"), "io-worker");
	cr_expect_null(pebs_meta_get(m, "comm.42.42"));	/* is comm.42 */
	cr_expect_null(pebs_meta_get(m, "comm.42.44"));	/* no comm file */
	/* gone from /proc: the command's basename, cut as the kernel does */
	cr_assert_eq(cmaps_comm(m, root, 50, 1,
				"./build/a_very_long_program_name"), 0);
	cr_expect_str_eq(pebs_meta_get(m, "comm.50"), "a_very_long_pro");
	/* reaped: /proc is not read, a name already known is kept */
	cr_assert_eq(cmaps_comm(m, root, 42, 0, "other"), 0);
	cr_expect_str_eq(pebs_meta_get(m, "comm.42"), "server");
	cr_assert_eq(cmaps_comm(m, root, 60, 0, "prog"), 0);
	cr_expect_str_eq(pebs_meta_get(m, "comm.60"), "prog");
	cmaps_comm_name("/a/b/", name);
	cr_expect_str_eq(name, "");
	pebs_meta_free(m);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

Test(capture_maps, traced_program_symbols)
{
	tu_deadline(120);
	const char *t = getenv("TMPDIR");
	char dir[512], prog[600], out[600], hex[41];
	snprintf(dir, sizeof(dir), "%s/pebs-maps-XXXXXX", t && *t ? t : "/tmp");
	cr_assert_not_null(mkdtemp(dir));
	tu_build_traced("cc", "false_sharing", "", dir);
	snprintf(prog, sizeof(prog), "%s/fs", dir);
	snprintf(out, sizeof(out), "%s/fs.pebs", dir);
	readelf_bid(prog, hex, sizeof(hex));
	if (!hex[0]) {
		tu_sh("rm -rf %s", dir);
		cr_skip_test("no readelf or no build-id in %s", prog);
	}

	char *const cmd[] = { prog, NULL };
	static const char *const ev[] = { "load-latency" };
	struct pebs_capture_opts o = { 0 };
	struct pebs_capture_stats st;
	char err[512];
	FILE *fp = fopen(out, "w");
	cr_assert_not_null(fp);
	o.backend = "sim";
	o.uarch = "icl";	/* adaptive: no GPRs in the records */
	o.events = ev;
	o.nevents = 1;
	o.period = 20;
	o.command = cmd;
	o.out = fp;
	o.seed = 1;
	/* The program prints; keep it out of the test's output. */
	fflush(stdout);
	int saved = dup(1), devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 1);
	int r = pebs_capture_run(&o, &st, err, sizeof(err));
	dup2(saved, 1);
	close(saved);
	close(devnull);
	fclose(fp);
	cr_assert_eq(r, 0, "%s", err);
	cr_assert_gt(st.samples, 100);

	struct pebs_reader *rd;
	struct pebs_batch *b;
	const char *path = out;
	cr_assert_eq(pebs_reader_open(&rd, &path, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(rd, &b), 1);
	const struct pebs_meta *m = pebs_reader_meta(rd);
	long pid = -1;
	cr_assert_geq(maps_of(m, prog, hex, &pid), 2,
		      "the program's code and data maps");
	/* the trace names no process: the command's basename, its pid */
	char ck[48];
	snprintf(ck, sizeof(ck), "comm.%ld", pid);
	cr_expect_str_eq(pebs_meta_get(m, ck), "fs");

	struct pebs_sym *sym;
	struct pebs_sym_info si;
	cr_assert_eq(pebs_sym_open(&sym, m, NULL), 0);
	size_t named = 0, total = 0;
	do {
		for (size_t i = 0; i < b->n; i++, total++) {
			cr_assert_eq(b->c32[PEBS_COL_PID][i], (uint32_t)pid);
			cr_assert_neq(b->c32[PEBS_COL_TID][i], 0);
			if (pebs_sym_lookup(sym, b->c32[PEBS_COL_PID][i],
					    b->c64[PEBS_COL_IP][i], 0,
					    &si) == 1 &&
			    si.name && !strcmp(si.name, "worker") &&
			    si.dso && !strcmp(si.dso, prog))
				named++;
		}
	} while (pebs_reader_next(rd, &b) == 1);
	cr_assert_eq(total, st.samples);
	/* The workers' loop is nearly all the program's loads. */
	cr_assert_gt(named, total / 2, "%zu of %zu samples in worker()",
		     named, total);
	pebs_sym_close(sym);
	pebs_reader_close(rd);
	tu_sh("rm -rf %s", dir);
}

/*
 * Captures load-latency on CPU 0 of a new fake root (tu_fake_root) with
 * the msr backend while @cmd runs, into ROOT/out.pebs: @root and @out get
 * the paths.  Returns pebs_capture_run()'s result, its message in @err.
 */
static int msr_command(char *const *cmd, char root[64], char out[128],
		       struct pebs_capture_stats *st, char err[512])
{
	struct pebs_capture_opts o;

	tu_fake_root(root, 64);
	snprintf(out, 128, "%s/out.pebs", root);
	FILE *fp = fopen(out, "w");
	cr_assert_not_null(fp);
	tu_msr_opts(&o, root);
	o.command = cmd;
	o.out = fp;
	int r = pebs_capture_run(&o, st, err, 512);
	fclose(fp);
	return r;
}

/*
 * A hardware backend with -- COMMAND: the maps of a program that runs for
 * a few milliseconds only (read at its exit stop, before its address
 * space goes) are in the header, with the binary's build-id.
 */
Test(capture_maps, msr_command_maps)
{
	char root[64], err[512], hex[41], real[PATH_MAX], out[128];
	const char *tp = access("/usr/bin/true", X_OK) == 0 ?
			 "/usr/bin/true" : "/bin/true";
	char *const cmd[] = { (char *)tp, NULL };
	struct pebs_capture_stats st;
	struct pebs_reader *rd;
	struct pebs_batch *b;
	const char *path = out;

	if (access(tp, X_OK) != 0 || !realpath(tp, real))
		cr_skip_test("no true(1) binary");
	readelf_bid(real, hex, sizeof(hex));
	cr_assert_eq(msr_command(cmd, root, out, &st, err), 0, "%s", err);
	cr_assert_eq(st.cmd_status, 0);
	cr_assert_eq(pebs_reader_open(&rd, &path, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(rd, &b), 0, "no samples");
	const struct pebs_meta *m = pebs_reader_meta(rd);
	cr_assert(maps_of(m, real, hex, NULL), "maps of %s", real);
	cr_assert_str_eq(pebs_meta_get(m, "source"), "msr");
	/* and its name, for the comm field and perf's COMM records */
	long pid = -1;
	maps_of(m, real, "", &pid);
	char k[48];
	snprintf(k, sizeof(k), "comm.%ld", pid);
	cr_expect_str_eq(pebs_meta_get(m, k), "true");
	pebs_reader_close(rd);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/*
 * The command execs another program after the header was written (at
 * the first flush, a second in): the maps of the new image, read at its
 * exec and exit stops, go into a new segment's header.
 */
Test(capture_maps, msr_command_exec_new_segment)
{
	tu_deadline(60);
	char root[64], err[512], real[PATH_MAX], out[128];
	const char *tp = access("/usr/bin/true", X_OK) == 0 ?
			 "/usr/bin/true" : "/bin/true";
	char script[256];
	snprintf(script, sizeof(script), "sleep 1.3; exec %s", tp);
	char *const cmd[] = { (char *)"/bin/sh", (char *)"-c", script, NULL };
	struct pebs_capture_stats st;
	struct pebs_reader *rd;
	struct pebs_batch *b;
	struct pebs_read_stats rs;
	const char *path = out;

	if (access(tp, X_OK) != 0 || !realpath(tp, real) ||
	    access("/bin/sh", X_OK) != 0)
		cr_skip_test("no true(1) or sh(1)");
	cr_assert_eq(msr_command(cmd, root, out, &st, err), 0, "%s", err);
	cr_assert_eq(st.cmd_status, 0);
	cr_assert_eq(pebs_reader_open(&rd, &path, 1, NULL), 0);
	cr_assert_eq(pebs_reader_next(rd, &b), 0, "no samples");
	pebs_reader_stats(rd, &rs);
	cr_assert_eq(rs.segments, 2);
	/* The last segment's header: the exec'd program's maps too. */
	cr_assert(maps_of(pebs_reader_meta(rd), real, "", NULL),
		  "maps of %s in the last segment", real);
	pebs_reader_close(rd);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* The caller's pre_exec runs in the command's process, before its exec:
 * the command sees SIGPIPE as pre_exec set it, not as the caller had it
 * (ignored, as pebs-capture has it). */
static void default_sigpipe(void *ctx)
{
	(void)ctx;
	signal(SIGPIPE, SIG_DFL);
}

Test(capture_maps, msr_command_pre_exec)
{
	char root[64], err[512], out[128], script[600], line[128] = "";
	char *const cmd[] = { (char *)"/bin/sh", (char *)"-c", script, NULL };
	struct pebs_capture_opts o;
	struct pebs_capture_stats st;
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);

	if (access("/bin/sh", X_OK) != 0 ||
	    access("/proc/self/status", R_OK) != 0)
		cr_skip_test("no sh(1) or /proc");
	tu_fake_root(root, sizeof(root));
	snprintf(out, sizeof(out), "%s/out.pebs", root);
	snprintf(script, sizeof(script), "grep SigIgn /proc/self/status "
		 ">%s/sig", root);
	FILE *fp = fopen(out, "w");
	cr_assert_not_null(fp);
	tu_msr_opts(&o, root);
	o.command = cmd;
	o.out = fp;
	o.pre_exec = default_sigpipe;
	int r = pebs_capture_run(&o, &st, err, sizeof(err));
	fclose(fp);
	signal(SIGPIPE, old);
	cr_assert_eq(r, 0, "%s", err);
	cr_assert_eq(st.cmd_status, 0);
	snprintf(script, sizeof(script), "%s/sig", root);
	fp = fopen(script, "r");
	cr_assert_not_null(fp);
	cr_assert_not_null(fgets(line, sizeof(line), fp));
	fclose(fp);
	unsigned long long ign = strtoull(line + strcspn(line, "0123456789"),
					  NULL, 16);
	cr_assert_eq(ign & (1ull << (SIGPIPE - 1)), 0, "%s", line);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}

/* A command that cannot be run is refused (a usage error, as with the
 * sim) with errno's reason in the message: the library prints nothing,
 * in the child either (it printed its own line, and the capture went on
 * as if the command had run). */
Test(capture_maps, msr_command_not_found)
{
	char root[64], err[512], out[128];
	char *const cmd[] = { (char *)"/nonexistent/prog", NULL };
	struct pebs_capture_stats st;
	FILE *said = tmpfile();

	cr_assert_not_null(said);
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(said), 2);
	int r = msr_command(cmd, root, out, &st, err);
	dup2(saved, 2);
	close(saved);
	cr_assert_eq(r, -PEBS_E_INVAL, "%d %s", r, err);
	cr_assert_str_eq(err, "/nonexistent/prog: cannot run: No such file "
			 "or directory");
	cr_assert(WIFEXITED(st.cmd_status) && WEXITSTATUS(st.cmd_status) ==
		  127, "status 0x%x", st.cmd_status);
	cr_assert_eq(ftell(said), 0, "printed on stderr");
	fclose(said);
	cr_assert_lt(st.wall_s, 5.0);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
}
