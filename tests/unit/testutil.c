/*
 * testutil.c - helpers shared by the unit tests (see testutil.h).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_output.h"
#include "testutil.h"

/* What the SIGALRM handler writes; set before the alarm is armed. */
static char deadline_msg[64];
static size_t deadline_len;

static void deadline_hit(int sig)
{
	/* Only async-signal-safe calls: write, then die of the signal. */
	if (write(STDERR_FILENO, deadline_msg, deadline_len) < 0)
		deadline_len = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

void tu_deadline(unsigned seconds)
{
	int n = snprintf(deadline_msg, sizeof(deadline_msg),
			 "test ran past its %u s deadline\n", seconds);
	deadline_len = n > 0 ? (size_t)n : 0;
	cr_assert(signal(SIGALRM, deadline_hit) != SIG_ERR);
	alarm(seconds);
}

int tu_sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int r = system(cmd);
	return r == -1 ? -1 : WEXITSTATUS(r);
}

/* A regular file @path of @size bytes. */
static int sized_file(const char *path, off_t size)
{
	int fd = open(path, O_CREAT | O_RDWR, 0644);
	cr_assert(fd >= 0, "%s", path);
	cr_assert_eq(ftruncate(fd, size), 0);
	return fd;
}

void tu_fake_root(char *root, size_t len)
{
	char p[600];

	snprintf(root, len, "/tmp/pebs-root-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/dev", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/dev/cpu", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/dev/cpu/0", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/dev/cpu/0/msr", root);
	int fd = sized_file(p, 0x2000 * 8);
	uint64_t v = 0x70000000full;	/* someone's GLOBAL_CTRL */
	cr_assert_eq(pwrite(fd, &v, 8, 0x38f * 8), 8);
	v = 0x2c3;	/* IA32_PERF_CAPABILITIES: format 2, as hsw */
	cr_assert_eq(pwrite(fd, &v, 8, 0x345 * 8), 8);
	close(fd);
	/* What the probe an msr capture runs reads: a bare-metal Haswell
	 * (06_3C, DS, DTES64, PDCM, perfmon 3 with 4 + 3 counters), root:
	 * nothing against msr. */
	cr_assert_eq(tu_sh("mkdir -p %s/fake && printf '0x0: 0xd 0x756e6547 "
			   "0x6c65746e 0x49656e69\\n0x1: 0x306c3 0x0 "
			   "0x7ffafbff 0xbfebfbff\\n0xa: 0x7300403 0x0 0x0 "
			   "0x603\\n' > %s/fake/cpuid && echo 0 > %s/fake/uid",
			   root, root, root), 0);
	snprintf(p, sizeof(p), "%s/dev/pebs_ds", root);
	close(sized_file(p, 2 << 20));
}

void tu_msr_opts(struct pebs_capture_opts *o, const char *root)
{
	static const char *const ev[] = { "load-latency" };
	memset(o, 0, sizeof(*o));
	o->backend = "msr";
	o->uarch = "hsw";
	o->devroot = root;
	o->cpus = "0";
	o->events = ev;
	o->nevents = 1;
}

void tu_build_traced(const char *cc, const char *name, const char *defs,
		     const char *dir)
{
	if (tu_sh("cd %s && echo 'int x; int main(void) { return x; }' > "
		  "probe.c && %s -fsanitize=thread -c probe.c -o probe.o "
		  ">/dev/null 2>&1", dir, cc) != 0) {
		tu_sh("rm -rf %s", dir);
		cr_skip_test("%s has no -fsanitize=thread: not tested", cc);
	}
	char cwd[1024];
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(tu_sh("%s -O1 -g -fsanitize=thread %s -c "
			   "%s/examples/%s.c -o %s/prog.o", cc, defs, cwd,
			   name, dir), 0, "compile %s with %s", name, cc);
	cr_assert_eq(tu_sh("%s -std=gnu11 -O2 -D_GNU_SOURCE -pthread -c "
			   "%s/trace/pebs-trace.c -o %s/rt.o", cc, cwd, dir),
		     0);
	/* Linked WITHOUT -fsanitize=thread: our runtime, not libtsan. */
	cr_assert_eq(tu_sh("%s -o %s/fs %s/prog.o %s/rt.o -pthread -ldl", cc,
			   dir, dir, dir), 0);
}

size_t tu_maps_meta(FILE *in, const char *prog, unsigned pid,
		    struct pebs_meta *m)
{
	char line[1024], k[64];
	size_t n = 0;
	while (fgets(line, sizeof(line), in)) {
		unsigned long long lo, hi, off;
		char path[512] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %511s", &lo, &hi,
			   &off, path) < 4 || strcmp(path, prog))
			continue;
#define SETK(f, ...) do { snprintf(k, sizeof(k), "maps.%zu." f, n); \
	pebs_meta_setf(m, k, __VA_ARGS__); } while (0)
		SETK("pid", "%u", pid);
		SETK("start", "0x%llx", lo);
		SETK("end", "0x%llx", hi);
		SETK("pgoff", "0x%llx", off);
		SETK("path", "%s", path);
#undef SETK
		n++;
	}
	return n;
}

void tu_expr_rows(const char *text, struct pebs_sym *s,
		  const struct pebs_batch *b, char *out, size_t len)
{
	struct pebs_expr *e;
	struct pebs_expr_error err;
	cr_assert_eq(pebs_expr_parse(text, &e, &err), 0, "%s: %s", text,
		     err.msg);
	cr_expect(pebs_expr_uses_sym(e), "%s", text);
	pebs_expr_set_sym(e, s);
	uint32_t *v = calloc(b->n + 1, sizeof(*v));
	cr_assert_not_null(v);
	size_t n = pebs_expr_eval(e, b, v);
	cr_assert_neq(n, (size_t)-1);
	out[0] = 0;
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%u,", v[i]);
	free(v);
	pebs_expr_free(e);
}

char *tu_render(int fmt, const char *list, struct pebs_sym *s,
		const struct pebs_batch *b)
{
	int ids[16];
	const char *bad;
	int n = pebs_field_parse_list(list, ids, 16, &bad);
	cr_assert_gt(n, 0, "%s", list);
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct pebs_output *o = pebs_output_open(fmt, ids, (size_t)n,
						 PEBS_OUT_NO_HEADER, fp);
	cr_assert_not_null(o);
	pebs_output_set_sym(o, s);
	cr_assert_eq(pebs_output_batch(o, b), 0);
	cr_assert_eq(pebs_output_close(o), 0);
	fclose(fp);
	return text;
}
