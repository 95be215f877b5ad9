/*
 * nomem.c - library functions under a failing allocation
 * (tu_alloc_fail): each must report -PEBS_E_NOMEM, not another error nor
 * a success with a partial result.  Every allocation a call makes is made
 * to fail in turn, until the call makes fewer.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pebs_c2c.h"
#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_perf.h"
#include "pebs_sym.h"
#include "testutil.h"

#define MAX_POINTS 10000

/* Skips the test where allocations cannot be made to fail. */
static void arm(long n)
{
	if (tu_alloc_fail(n) < 0)
		cr_skip_test("allocation faults need a build without "
			     "sanitizer");
}

Test(nomem, expr_parse_reports_no_memory_not_a_parse_error)
{
	/* node growth, a set's items, string names, a negated set, t
	 * constants' digits, a field's name as a word, a string longer than
	 * the token buffer starts with */
	static const char text[] =
		"lat >= 30 and op == load and mem in (L2, L3, LFB) and "
		"event in (\"load-latency\", \"x\") and not snoop in (hit) "
		"or addr in 0x1000..0x2000 or (tid != 3 and lat not in "
		"(1, 5..9)) or (t in 1s..2.000000000000000000001s and comm "
		"in (ip, \"_ZN0123456789012345678901234567890123456789012345"
		"6789012345678901234567890123456789012345678901234567890123"
		"4567890123456789Ev\"))";
	long n;
	for (n = 1; n < MAX_POINTS; n++) {
		struct pebs_expr *e = NULL;
		struct pebs_expr_error err;
		arm(n);
		int r = pebs_expr_parse(text, &e, &err);
		int injected = tu_alloc_failed();
		if (!injected) {
			cr_assert_eq(r, 0);
			/* the inverted program needs one node more */
			long k;
			for (k = 1; k < MAX_POINTS; k++) {
				arm(k);
				int ir = pebs_expr_invert(e);
				if (!tu_alloc_failed()) {
					cr_assert_eq(ir, 0);
					break;
				}
				cr_assert_eq(ir, -PEBS_E_NOMEM,
					     "invert, allocation %ld: %d", k,
					     ir);
			}
			pebs_expr_free(e);
			break;
		}
		cr_assert_eq(r, -PEBS_E_NOMEM, "allocation %ld: %d (%s)", n,
			     r, err.msg);
		cr_assert_null(e);
	}
	cr_assert_gt(n, 3, "the parse allocates more than that");
}

/*
 * Two threads of process @pid writing line @line each at their own offset
 * (0x00, 0x20), and HITM loads, at instructions @ip + k * @step (k < 4),
 * with maps @maps (NULL: none): a listed line with offset rows and a heat
 * map.
 */
static struct pebs_c2c *c2c_two_writers(uint32_t pid, uint64_t line,
					uint64_t ip, unsigned step,
					const struct pebs_meta *maps)
{
	uint64_t st = pebs_dsrc_make(PEBS_DS_OP_STORE, PEBS_DS_LVL_HIT |
				     PEBS_DS_LVL_L1, 1, 0, 0, 0, 0, 0);
	uint64_t hitm = pebs_dsrc_make(PEBS_DS_OP_LOAD, PEBS_DS_LVL_HIT |
				       PEBS_DS_LVL_L3, PEBS_DS_SNOOP_HITM, 0,
				       0, 0, 0, 0);
	struct pebs_c2c *c;
	cr_assert_eq(pebs_c2c_new(&c, NULL, NULL, 0), 0);
	if (maps)
		cr_assert_eq(pebs_c2c_add_maps(c, maps), 0);
	struct pebs_batch *b = pebs_batch_new(64);
	cr_assert(b);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = pid;
	s.event = (uint32_t)pebs_batch_intern(b, "load-latency");
	for (unsigned i = 0; i < 40; i++) {
		s.cpu = i & 1;
		s.tid = 1001 + (i & 1);
		s.addr = line + (i & 1) * 0x20;
		s.ip = ip + (i & 3) * step;
		s.dsrc = i & 2 ? hitm : st;
		s.lat = i & 2 ? 200 : 0;
		cr_assert_eq(pebs_batch_push(b, &s), 0);
	}
	cr_assert_eq(pebs_c2c_add_batch(c, b), 0);
	pebs_batch_free(b);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	return c;
}

static struct pebs_c2c *c2c_false_sharing(void)
{
	return c2c_two_writers(100, 0x7f0000001000, 0x10, 8, NULL);
}

Test(nomem, c2c_write_reports_no_memory_not_a_shorter_report)
{
	static const enum pebs_c2c_format fmts[] = {
		PEBS_C2C_F_TEXT, PEBS_C2C_F_CSV, PEBS_C2C_F_YAML,
		PEBS_C2C_F_HTML, PEBS_C2C_F_SVG, PEBS_C2C_F_STATS_TEXT,
	};
	struct pebs_c2c *c = c2c_false_sharing();
	/* a buffer of its own: stdio allocates none while armed */
	static char buf[1 << 16];
	FILE *fp = fopen("/dev/null", "w");
	cr_assert(fp);
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		long n;
		for (n = 1; n < MAX_POINTS; n++) {
			arm(n);
			int r = pebs_c2c_write(c, fp, fmts[f]);
			if (!tu_alloc_failed()) {
				cr_assert_eq(r, 0, "format %d: %s", fmts[f],
					     pebs_c2c_errmsg(c));
				break;
			}
			cr_assert_eq(r, -PEBS_E_NOMEM, "format %d, allocation "
				     "%ld: %d", fmts[f], n, r);
			cr_assert_str_eq(pebs_c2c_errmsg(c), "out of memory");
		}
		/* the text, HTML and SVG reports build offset rows or heat
		 * maps of the line */
		if (fmts[f] != PEBS_C2C_F_CSV &&
		    fmts[f] != PEBS_C2C_F_STATS_TEXT)
			cr_assert_gt(n, 1, "format %d allocates", fmts[f]);
	}
	fclose(fp);
	pebs_c2c_free(c);
}

/* What the symbol test's samples point at: a variable and a function of
 * this binary, found through its own maps. */
static long sym_shared[16] __attribute__((aligned(64)));

static __attribute__((noinline)) long sym_worker(long x)
{
	return sym_shared[x & 15] + x;
}

/* New metadata with this binary's maps (maps.N.*) as process @pid's. */
static struct pebs_meta *own_maps_meta(uint32_t pid)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	cr_assert_gt(n, 0);
	exe[n] = 0;
	FILE *maps = fopen("/proc/self/maps", "r");
	cr_assert(maps);
	struct pebs_meta *meta = pebs_meta_new();
	cr_assert(meta);
	cr_assert_gt(tu_maps_meta(maps, exe, pid, meta), 0);
	fclose(maps);
	return meta;
}

/*
 * A c2c whose line is sym_shared, written by two threads at sym_worker's
 * instructions, with symbols from this process's maps: each row names an
 * instruction (function+offset and source line) and the line its
 * variable.
 */
static struct pebs_c2c *c2c_with_symbols(struct pebs_sym **sym,
					 struct pebs_meta **meta)
{
	uint32_t pid = (uint32_t)getpid();
	*meta = own_maps_meta(pid);
	struct pebs_c2c *c = c2c_two_writers(pid, (uintptr_t)sym_shared,
					     (uintptr_t)sym_worker, 1, *meta);
	cr_assert_eq(pebs_sym_open(sym, pebs_c2c_maps(c), NULL), 0);
	pebs_c2c_set_sym(c, *sym);
	return c;
}

/*
 * Report @fmt of @c into @buf (NUL-terminated) with the @n-th allocation
 * failing (0: none); its length in *@len, whether the failure was
 * injected in *@injected.  The stream has a buffer of its own: stdio
 * allocates none while armed.
 */
static int c2c_write_buf(struct pebs_c2c *c, enum pebs_c2c_format fmt,
			 long n, char *buf, size_t size, long *len,
			 int *injected)
{
	static char iobuf[1 << 12];
	FILE *fp = fmemopen(buf, size, "w");
	cr_assert(fp);
	setvbuf(fp, iobuf, _IOFBF, sizeof(iobuf));
	if (n)
		arm(n);
	int r = pebs_c2c_write(c, fp, fmt);
	*injected = n && tu_alloc_failed();
	fflush(fp);
	*len = ftell(fp);
	fclose(fp);
	return r;
}

/*
 * The names of instructions and of the line's variable are part of the
 * report: an allocation failing while they are looked up or formatted
 * is -PEBS_E_NOMEM, or the whole report all the same (asprintf() only
 * shrinking its buffer), never one that shows a bare address instead.
 */
Test(nomem, c2c_symbols_no_memory_not_a_bare_address)
{
	static const enum pebs_c2c_format fmts[] = {
		PEBS_C2C_F_TEXT, PEBS_C2C_F_CSV, PEBS_C2C_F_YAML,
		PEBS_C2C_F_HTML,
	};
	static const char *const want[] = {
		"sym_worker+0x", "sym_shared", "nomem.c:",
	};
	struct pebs_sym *sym;
	struct pebs_meta *meta;
	struct pebs_c2c *c = c2c_with_symbols(&sym, &meta);
	static char whole[1 << 16], buf[1 << 16];
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		/* unarmed first: the names are there (the CSV has no
		 * instructions), and the binary's symbols are loaded, so
		 * that the armed runs fail only the report's allocations */
		long wlen, len;
		int injected;
		cr_assert_eq(c2c_write_buf(c, fmts[f], 0, whole, sizeof(whole),
					   &wlen, &injected), 0, "%s",
			     pebs_c2c_errmsg(c));
		cr_assert_lt(wlen, (long)sizeof(whole) - 1);
		for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++)
			if (fmts[f] != PEBS_C2C_F_CSV || w == 1)
				cr_assert(strstr(whole, want[w]), "format %d:"
					  " no %s in\n%s", fmts[f], want[w],
					  whole);
		long n;
		for (n = 1; n < MAX_POINTS; n++) {
			int r = c2c_write_buf(c, fmts[f], n, buf, sizeof(buf),
					      &len, &injected);
			if (r == 0) {
				cr_assert(len == wlen && !memcmp(buf, whole,
								 (size_t)len),
					  "format %d, allocation %ld: a "
					  "report short of\n%s\nwas\n%s",
					  fmts[f], n, whole, buf);
				if (!injected)
					break;
				continue;
			}
			cr_assert(injected, "format %d: %s", fmts[f],
				  pebs_c2c_errmsg(c));
			cr_assert_eq(r, -PEBS_E_NOMEM, "format %d, allocation "
				     "%ld: %d", fmts[f], n, r);
			cr_assert_str_eq(pebs_c2c_errmsg(c), "out of memory");
		}
		cr_assert_gt(n, 1, "format %d allocates", fmts[f]);
	}
	pebs_c2c_free(c);
	pebs_sym_close(sym);
	pebs_meta_free(meta);
}

/* What sym_fields_buf() ran into: a NULL string without an error, no
 * room for the fields; the child ended (see sym_fields_child()) after
 * an allocation of elfutils failed, or after another. */
enum { SYM_NO_ERROR = 1000, SYM_NO_ROOM, SYM_ELFUTILS_ENDED, SYM_ENDED };

/*
 * Symbolizes a sample of sym_worker touching sym_shared with a new
 * symbolizer over @meta, with the @n-th allocation failing (0: none), so
 * that opening and loading (the binary, its symbols, lines, debug file)
 * are tried too: every field as text, the lookups and the notes, into
 * @buf.  0, or the first error; the failure injected in *@injected.
 */
static int sym_fields_buf(const struct pebs_meta *meta,
			  const struct pebs_batch *b, long n, char *buf,
			  size_t size, int *injected)
{
	struct pebs_sym *s = NULL;
	struct pebs_sym_info in;
	size_t len = 0;
	int r;
	buf[0] = 0;
	if (n)
		tu_alloc_fail(n);
	r = pebs_sym_open(&s, meta, NULL);
	for (int f = 0; r == 0 && f < PEBS_SYM_COUNT; f++) {
		const char *str = pebs_sym_str(s, b, 0, f);
		const char *key = pebs_sym_key(s, b, 0, f);
		if (!str || !key)
			r = pebs_sym_error(s) ? pebs_sym_error(s) : SYM_NO_ERROR;
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%s=%s key %s\n",
						pebs_sym_field_name(f), str,
						key);
	}
	for (int data = 0; r == 0 && data < 2; data++) {
		uint64_t a = data ? b->c64[PEBS_COL_ADDR][0] :
			     b->c64[PEBS_COL_IP][0] + 1;
		r = pebs_sym_lookup(s, b->c32[PEBS_COL_PID][0], a, data, &in);
		if (r >= 0)
			len += (size_t)snprintf(buf + len, size - len,
						"%d %s+%llu %s %s:%d\n", r,
						in.name ? in.name : "-",
						(unsigned long long)in.off,
						in.dso ? in.dso : "-",
						in.file ? in.file : "-",
						in.line);
	}
	if (r == 0) {
		const char *d = pebs_sym_dso(s, b->c32[PEBS_COL_PID][0],
					     b->c64[PEBS_COL_IP][0]);
		r = d ? 0 : pebs_sym_error(s);
		len += (size_t)snprintf(buf + len, size - len, "dso %s\n",
					d ? d : "-");
	}
	const char *note;
	for (size_t i = 0; r >= 0 && i < pebs_sym_notes(s, 0, &note); i++) {
		pebs_sym_notes(s, i, &note);
		len += (size_t)snprintf(buf + len, size - len, "%s\n", note);
	}
	*injected = n && tu_alloc_failed();
	pebs_sym_close(s);
	return len >= size ? SYM_NO_ROOM : r < 0 || r >= SYM_NO_ERROR ? r : 0;
}

/* The pipe of sym_fields_child()'s child. */
static int sym_child_fd = -1;

/* The child ends (exit() or a signal) before it wrote its answer: says
 * whose allocation had failed. */
static void sym_child_ended(void)
{
	Dl_info di;
	const void *at = tu_alloc_failed_at();
	int hdr[2] = { SYM_ENDED, 1 };
	if (at && dladdr(at, &di) && di.dli_fname &&
	    (strstr(di.dli_fname, "/libdw") || strstr(di.dli_fname, "/libelf")))
		hdr[0] = SYM_ELFUTILS_ENDED;
	if (write(sym_child_fd, hdr, sizeof(hdr)) != sizeof(hdr) ||
	    write(sym_child_fd, "", 1) != 1)
		_exit(2);
}

static void sym_child_signal(int sig)
{
	sym_child_ended();
	_exit(128 + sig);
}

/*
 * sym_fields_buf() in a child process, for elfutils: libdw's own
 * allocator of DWARF data ends the process (error(EXIT_FAILURE, ENOMEM,
 * "libdw")) rather than return NULL, and a failure while libdw 0.188
 * reads a CU's aranges makes it crash in dwarf_getsrclines(): no caller
 * can turn those into -PEBS_E_NOMEM.  They are SYM_ELFUTILS_ENDED, the
 * process ending after any other failed allocation SYM_ENDED.
 */
static int sym_fields_child(const struct pebs_meta *meta,
			    const struct pebs_batch *b, long n, char *buf,
			    size_t size, int *injected)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	fflush(NULL);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		int hdr[2];
		close(fds[0]);
		/* stderr is libdw's message: not the test's output */
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		sym_child_fd = fds[1];
		atexit(sym_child_ended);
		signal(SIGSEGV, sym_child_signal);
		signal(SIGBUS, sym_child_signal);
		signal(SIGABRT, sym_child_signal);
		hdr[0] = sym_fields_buf(meta, b, n, buf, size, &hdr[1]);
		size_t len = strlen(buf) + 1;
		if (write(fds[1], hdr, sizeof(hdr)) != sizeof(hdr) ||
		    write(fds[1], buf, len) != (ssize_t)len)
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	int hdr[2], st;
	ssize_t got = read(fds[0], hdr, sizeof(hdr)), k;
	size_t len = 0;
	while (got == sizeof(hdr) && len + 1 < size &&
	       (k = read(fds[0], buf + len, size - 1 - len)) > 0)
		len += (size_t)k;
	buf[len] = 0;
	close(fds[0]);
	cr_assert_eq(waitpid(child, &st, 0), child);
	cr_assert_eq(got, sizeof(hdr), "allocation %ld: the child died "
		     "(%#x)", n, st);
	cr_assert(hdr[0] != SYM_ENDED, "allocation %ld: the child ended "
		  "(%#x)", n, st);
	cr_assert(WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
				    hdr[0] == SYM_ELFUTILS_ENDED));
	*injected = hdr[1];
	return hdr[0];
}

/*
 * An allocation failing while a symbolizer loads the binary or looks an
 * address up (ours, or one in libelf/libdw: this binary's allocator is
 * the one they use) is -PEBS_E_NOMEM or the whole answer, never
 * "[unknown]", "??:0" or a note gone missing.  Nothing is looked up
 * before, so that loading is covered.
 */
Test(nomem, sym_lookup_no_memory_not_unknown)
{
	uint32_t pid = (uint32_t)getpid();
	struct pebs_meta *meta = own_maps_meta(pid);
	char ck[32];
	snprintf(ck, sizeof(ck), "comm.%u", (unsigned)pid);
	cr_assert_eq(pebs_meta_set(meta, ck, "sym-test"), 0);
	struct pebs_batch *b = pebs_batch_new(4);
	struct pebs_sample x = { .pid = pid, .tid = pid,
				 .ip = (uintptr_t)sym_worker + 1,
				 .addr = (uintptr_t)&sym_shared[3] };
	cr_assert(b);
	pebs_batch_push(b, &x);
	static char whole[1 << 14], buf[1 << 14];
	int injected;
	if (tu_alloc_fail(0) < 0)
		cr_skip_test("allocation faults need a build without "
			     "sanitizer");
	cr_assert_eq(sym_fields_child(meta, b, 0, whole, sizeof(whole),
				      &injected), 0);
	cr_assert(strstr(whole, "sym=sym_worker+0x1 key sym_worker\n") &&
		  strstr(whole, "data_sym=sym_shared+0x18 key sym_shared\n") &&
		  strstr(whole, "srcline=nomem.c:"), "%s", whole);
	long n, elfutils_ended = 0;
	for (n = 1; n < 10 * MAX_POINTS; n++) {
		int r = sym_fields_child(meta, b, n, buf, sizeof(buf),
					 &injected);
		if (r == SYM_ELFUTILS_ENDED) {
			elfutils_ended++;
			continue;
		}
		if (r == 0) {
			cr_assert_str_eq(buf, whole, "allocation %ld:\n%s\nnot\n%s", n,
					 buf, whole);
			if (!injected)
				break;
			continue;
		}
		cr_assert(injected, "allocation %ld: %d", n, r);
		cr_assert_eq(r, -PEBS_E_NOMEM, "allocation %ld", n);
	}
	cr_assert_lt(n, 10 * MAX_POINTS, "the end was reached");
	cr_assert_gt(n, 20, "it allocates");
	cr_log_info("sym: %ld allocations, %ld of elfutils's ended the "
		    "process", n - 1, elfutils_ended);
	pebs_batch_free(b);
	pebs_meta_free(meta);
}

/* Opens perf.data file @path with the @n-th allocation failing (0: none):
 * the error, and the metadata in *@count / *@host. */
static int perf_open_meta(const char *path, long n, size_t *count,
			  char *host, size_t hostlen, int *injected)
{
	struct pebs_perf_reader *r = NULL;
	FILE *fp = fopen(path, "rb");
	cr_assert(fp, "%s", path);
	if (n)
		arm(n);
	int e = pebs_perf_reader_open(&r, fp, path, NULL);
	*injected = n && tu_alloc_failed();
	*count = 0;
	host[0] = 0;
	if (e == 0) {
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		const char *h = pebs_meta_get(m, "host");
		*count = pebs_meta_count(m);
		snprintf(host, hostlen, "%s", h ? h : "(none)");
	}
	pebs_perf_reader_close(r);
	fclose(fp);
	return e;
}

/*
 * The pipe file's opening allocates about 800 times, each tried.  The
 * system-wide capture's metadata (536 mappings, 3,000 keys) is over 10,000
 * allocations: trying each took 75 s of make test and still stopped short
 * of the end, so its first 256 are tried, then every n / 32th (odd, so
 * that the steps fall at every place in the few allocations each mapping
 * makes), to the end.
 */
Test(nomem, perf_reader_metadata_is_whole_or_no_memory)
{
	static const char *const files[] = {
		"testdata/perf/skx-load-latency.perf.data",
		"testdata/perf/skx-pipe.perf.data",
	};
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		size_t count0, count;
		char host0[256], host[256];
		int inj;
		cr_assert_eq(perf_open_meta(files[f], 0, &count0, host0,
					    sizeof(host0), &inj), 0);
		cr_assert_gt(count0, 0);
		long n;
		for (n = 1; n < 10 * MAX_POINTS;
		     n += n < 256 ? 1 : (n / 32) | 1) {
			int e = perf_open_meta(files[f], n, &count, host,
					       sizeof(host), &inj);
			if (!inj) {
				cr_assert_eq(e, 0);
				break;
			}
			if (e == 0) {
				/* recovered: then nothing may be missing */
				cr_assert_eq(count, count0, "%s, allocation "
					     "%ld: %zu keys, not %zu",
					     files[f], n, count, count0);
				cr_assert_str_eq(host, host0);
			} else {
				cr_assert_eq(e, -PEBS_E_NOMEM, "%s, allocation "
					     "%ld: %d", files[f], n, e);
			}
		}
		cr_assert_gt(n, 10, "%s: the reader allocates", files[f]);
		cr_assert_lt(n, 10 * MAX_POINTS, "%s: the end was reached",
			     files[f]);
	}
}

/* A perf.data file of a few samples written with the @n-th allocation
 * failing (0: none) and @pipe or not: the error; the bytes in @out. */
static int perf_write(long n, int pipe, char *out, size_t cap, size_t *len,
		      int *injected)
{
	static char buf[1 << 16];
	struct pebs_meta *m = pebs_meta_new();
	cr_assert(m);
	static const char *const kv[][2] = {
		{ "host", "box" }, { "os.release", "6.1" },
		{ "cpu.vendor", "GenuineIntel" }, { "cpu.family", "6" },
		{ "cpu.model", "85" }, { "topology.nr_cpus", "4" },
		{ "topology.cpu.1.socket", "1" }, { "maps.0.pid", "7" },
		{ "maps.0.start", "0x400000" }, { "maps.0.end", "0x401000" },
		{ "maps.0.pgoff", "0x0" }, { "maps.0.path", "/bin/x" },
		{ "comm.7", "x" },
	};
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		cr_assert_eq(pebs_meta_set(m, kv[i][0], kv[i][1]), 0);
	FILE *fp = tmpfile();
	cr_assert(fp);
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	struct pebs_perf_writer_opts o = { .pipe = pipe };
	struct pebs_perf_writer *w = NULL;
	if (n)
		arm(n);
	int e = pebs_perf_writer_open(&w, fp, m, &o);
	for (unsigned i = 0; !e && i < 50; i++) {
		struct pebs_sample s;
		memset(&s, 0, sizeof(s));
		s.time = 1000 + i;
		s.cpu = i % 4;
		s.pid = 7;
		s.tid = 7 + i % 2;
		s.ip = 0x400100 + i;
		s.addr = 0x10000 + 8 * i;
		s.lat = 30 + i;
		e = pebs_perf_writer_add(w, &s, i % 3 ? "load-latency" :
					 "precise-store");
	}
	int ce = w ? pebs_perf_writer_close(w, NULL, 0) : 0;
	*injected = n && tu_alloc_failed();
	if (!e)
		e = ce;
	fflush(fp);
	*len = (size_t)ftell(fp);
	cr_assert_leq(*len, cap);
	rewind(fp);
	cr_assert_eq(fread(out, 1, *len, fp), *len);
	fclose(fp);
	pebs_meta_free(m);
	return e;
}

Test(nomem, perf_writer_writes_every_feature_or_no_memory)
{
	static char base[1 << 16], got[1 << 16];
	for (int pipe = 0; pipe < 2; pipe++) {
		size_t blen, glen;
		int inj;
		cr_assert_eq(perf_write(0, pipe, base, sizeof(base), &blen,
					&inj), 0);
		long n;
		for (n = 1; n < MAX_POINTS; n++) {
			int e = perf_write(n, pipe, got, sizeof(got), &glen,
					   &inj);
			if (!inj) {
				cr_assert_eq(e, 0);
				break;
			}
			if (e == 0)
				cr_assert(glen == blen &&
					  !memcmp(got, base, blen),
					  "pipe %d, allocation %ld: exit 0 "
					  "with other bytes", pipe, n);
			else
				cr_assert_eq(e, -PEBS_E_NOMEM, "pipe %d, "
					     "allocation %ld: %d", pipe, n, e);
		}
		cr_assert_gt(n, 10, "the writer allocates");
	}
}
