/*
 * Fuzz target: the symbolizer (lib/sym.c) on untrusted metadata (maps.N.*,
 * workload.ips.*, comm.*) and untrusted ELF/DWARF files.  An input is
 *
 *	key=value lines		metadata entries, in order
 *	?PID:ADDR lines		extra lookups (strtoull, base 0)
 *	@@@ NAME		then the bytes of file NAME, up to the next
 *				"\n@@@ " or the end (at most 4 files)
 *
 * The files are written to a private directory made once per process
 * (emptied after every input, removed at exit: a replay leaves nothing
 * behind).  NAME may hold '/' (usr/lib/debug/.build-id/xx/y.debug), never
 * an empty, "." or ".." component.  A maps.N.path value that starts with
 * '/' names a file of that directory: the symbolizer is opened once with
 * the directory prepended to such paths and once with the paths as they
 * are and the directory as --symfs (then without the build-id check); a
 * path holding "/.." is dropped, so nothing outside is read (but for the
 * debug files looked up under /usr/lib/debug without --symfs).  Each open
 * resolves, as code and as data, the addresses in and around every map
 * (the first 16), the workload ips and the ?PID:ADDR lookups, for the maps'
 * pids and pid 0, through pebs_sym_lookup(), pebs_sym_dso() and the cached
 * strings of pebs_sym_str()/pebs_sym_key(); then reads the notes.  abort()
 * when a promise of pebs_sym.h breaks: a found symbol without a name, a
 * note with a control character, pebs_sym_same_maps() false for its own
 * metadata, a NULL string.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pebs_sym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 4
#define MAX_LOOKUPS 32
#define MAX_MAPS 16
#define MAX_IPS 8

static char dir[64];

static int rm_one(const char *p, const struct stat *sb, int type,
		  struct FTW *f)
{
	(void)sb;
	(void)type;
	if (f->level > 0)
		remove(p);
	return 0;
}

/* Empties the directory (everything an input wrote). */
static void empty_dir(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_dir(void)
{
	empty_dir();
	rmdir(dir);
}

static int make_dir(void)
{
	if (dir[0])
		return 0;
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/fuzzsym.XXXXXX",
		 t && *t && strlen(t) < 40 ? t : "/tmp");
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return -1;
	}
	atexit(remove_dir);
	return 0;
}

/* Whether @name is a relative path without "", "." or ".." parts. */
static int safe_name(const char *name)
{
	if (!*name || strlen(name) > 200)
		return 0;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p)
			p++;
		if (!*p && p[-1] == '/')
			return 0;
	}
	return 1;
}

/* Writes file @name (its directories made) under dir. */
static void write_file(const char *name, const uint8_t *d, size_t n)
{
	char path[512];
	if (!safe_name(name))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0700);
		*p = '/';
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, d, n) != (ssize_t)n)
		errno = EIO;
	close(fd);
}

struct lk {
	uint32_t pid;
	uint64_t addr;
};

static void check_str(const char *str)
{
	if (!str)
		abort();
	(void)strlen(str);
}

/* FUZZ_SYM_VERBOSE set: what each lookup found and the notes, on stderr
 * (to see what a corpus input reaches). */
static int verbose;

static void lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr)
{
	struct pebs_sym_info in;
	for (int data = 0; data < 2; data++) {
		int r = pebs_sym_lookup(s, pid, addr, data, &in);
		if (verbose)
			fprintf(stderr, "%u:%#llx%s -> %d %s+%#llx %s %s:%d\n",
				pid, (unsigned long long)addr,
				data ? " data" : "", r,
				in.name ? in.name : "-",
				(unsigned long long)in.off,
				in.dso ? in.dso : "-", in.file ? in.file : "-",
				in.line);
		if (r == 1 && !in.name)
			abort();
		if (r < 0)
			continue;
		if (in.name)
			check_str(in.name);
		if (in.dso)
			check_str(in.dso);
		if (in.file)
			check_str(in.file);
	}
	const char *d = pebs_sym_dso(s, pid, addr);
	if (d)
		check_str(d);
}

/* One symbolizer over @m: every lookup, the strings, the notes. */
static void run(const struct pebs_meta *m, const struct pebs_sym_opts *o,
		const struct lk *lks, size_t nlk)
{
	struct pebs_sym *s;
	if (pebs_sym_open(&s, m, o) < 0) {
		pebs_sym_close(s);
		return;
	}
	if (!pebs_sym_same_maps(s, m))
		abort();
	(void)pebs_sym_nmaps(s);
	const char *v[PEBS_SYM_MAP_FIELDS];
	size_t it = 0, nm = 0;
	while (nm < MAX_MAPS && pebs_sym_map_next(m, &it, v)) {
		nm++;
		const char *p = v[PEBS_SYM_MAP_PID];
		uint32_t pid = p ? (uint32_t)strtol(p, NULL, 0) : 0;
		uint64_t a = v[PEBS_SYM_MAP_START] ?
			strtoull(v[PEBS_SYM_MAP_START], NULL, 0) : 0;
		uint64_t e = v[PEBS_SYM_MAP_END] ?
			strtoull(v[PEBS_SYM_MAP_END], NULL, 0) : 0;
		uint64_t at[] = { a, a - 1, a + 1, a + 0x10, a + 0x400,
				  a + (e - a) / 2, e - 1, e, e + 0x1000 };
		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
			lookup(s, pid, at[i]);
		lookup(s, 0, a + 0x20);
	}
	const char *ip, *name;
	it = 0;
	for (size_t n = 0; n < MAX_IPS && pebs_sym_ip_next(m, &it, &ip, &name);
	     n++) {
		uint64_t a = strtoull(ip, NULL, 0);
		lookup(s, 0, a);
		lookup(s, 1, a);
	}
	struct pebs_batch *b = pebs_batch_new(MAX_LOOKUPS);
	for (size_t i = 0; i < nlk; i++) {
		lookup(s, lks[i].pid, lks[i].addr);
		struct pebs_sample smp = { .pid = lks[i].pid,
					   .tid = (uint32_t)lks[i].addr,
					   .ip = lks[i].addr,
					   .addr = lks[i].addr };
		if (b)
			pebs_batch_push(b, &smp);
	}
	for (size_t i = 0; b && i < b->n; i++)
		for (int f = 0; f < PEBS_SYM_COUNT; f++) {
			check_str(pebs_sym_str(s, b, i, f));
			check_str(pebs_sym_key(s, b, i, f));
		}
	pebs_batch_free(b);
	const char *n;
	size_t nn = pebs_sym_notes(s, 0, &n);
	for (size_t i = 0; i < nn; i++) {
		pebs_sym_notes(s, i, &n);
		if (verbose)
			fprintf(stderr, "note: %s\n", n);
		for (const unsigned char *c = (const unsigned char *)n; *c; c++)
			if (*c < 0x20 || *c == 0x7f)
				abort();
	}
	pebs_sym_close(s);
}

/*
 * Adds line @l (@n bytes) of the metadata: to @abs with map paths under
 * dir, to @rel as written.
 */
static void meta_line(struct pebs_meta *abs, struct pebs_meta *rel,
		      struct lk *lks, size_t *nlk, const char *l)
{
	if (l[0] == '?') {
		char *end;
		if (*nlk < MAX_LOOKUPS) {
			lks[*nlk].pid = (uint32_t)strtoul(l + 1, &end, 0);
			lks[*nlk].addr = *end == ':' ?
				strtoull(end + 1, NULL, 0) : 0;
			(*nlk)++;
		}
		return;
	}
	const char *eq = strchr(l, '=');
	if (!eq || eq == l)
		return;
	char *k = strndup(l, (size_t)(eq - l));
	const char *val = eq + 1;
	if (!k)
		return;
	size_t kl = strlen(k);
	int path = strncmp(k, "maps.", 5) == 0 && kl > 5 &&
		   strcmp(k + kl - 5, ".path") == 0;
	if (path && strstr(val, "/..")) {
		free(k);
		return;
	}
	pebs_meta_set(rel, k, val);
	if (path && val[0] == '/') {
		char *a;
		if (asprintf(&a, "%s%s", dir, val) >= 0) {
			pebs_meta_set(abs, k, a);
			free(a);
		}
	} else {
		pebs_meta_set(abs, k, val);
	}
	free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char sep[] = "\n@@@ ";
	if (size > (1u << 20) || make_dir() < 0)
		return 0;
	verbose = getenv("FUZZ_SYM_VERBOSE") != NULL;
	const uint8_t *end = data + size;
	const uint8_t *f = memmem(data, size, sep + 1, 4);
	if (f != data)
		f = memmem(data, size, sep, 5);
	const uint8_t *mend = f ? f : end;
	/* the files: "@@@ NAME\n" then bytes to the next "\n@@@ " */
	for (int nf = 0; f && nf < MAX_FILES; nf++) {
		const uint8_t *h = f + (f == data ? 4 : 5);
		const uint8_t *nl = memchr(h, '\n', (size_t)(end - h));
		if (!nl)
			break;
		char *name = strndup((const char *)h, (size_t)(nl - h));
		const uint8_t *body = nl + 1;
		f = memmem(body, (size_t)(end - body), sep, 5);
		if (name)
			write_file(name, body,
				   (size_t)((f ? f : end) - body));
		free(name);
	}
	struct pebs_meta *abs = pebs_meta_new(), *rel = pebs_meta_new();
	char *text = strndup((const char *)data, (size_t)(mend - data));
	struct lk lks[MAX_LOOKUPS];
	size_t nlk = 0;
	if (abs && rel && text) {
		char *save, *l;
		for (l = strtok_r(text, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			meta_line(abs, rel, lks, &nlk, l);
		if (verbose)
			fprintf(stderr, "-- %s prepended\n", dir);
		run(abs, NULL, lks, nlk);
		if (verbose)
			fprintf(stderr, "-- symfs %s\n", dir);
		struct pebs_sym_opts o = { .symfs = dir,
					   .no_build_id_check = 1 };
		run(rel, &o, lks, nlk);
	}
	free(text);
	pebs_meta_free(abs);
	pebs_meta_free(rel);
	empty_dir();
	return 0;
}
