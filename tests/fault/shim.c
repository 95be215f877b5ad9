/*
 * shim.c - fault injection by LD_PRELOAD (jq's fopen/fread shim, sqlite's
 * allocator and I/O faults): makes the Nth call of a function family fail
 * with the errno a real failure would give, so that tests/fault/run.sh can
 * walk every failure point of a tool and check it fails cleanly.
 *
 * Environment:
 *   PEBS_FAULT=SPEC[,SPEC...]  SPEC is FAMILY:N[+][:ERRNO]: the Nth call
 *              (from 1) of FAMILY fails; with '+' that call and every
 *              later one; ERRNO (a name: ENOSPC, EACCES...) replaces the
 *              family's default.  FAMILY "all" counts every family
 *              together.
 *   PEBS_FAULT_REPORT=FILE  at exit, append one line "FAMILY COUNT" per
 *              family (and "all COUNT"), then "fired FAMILY N" when a
 *              fault was injected: how far a driver has to iterate.
 *   PEBS_FAULT_PROG=NAME    only a program of that name (argv[0]'s last
 *              component) is faulted; others (timeout, a shell) pass
 *              through.
 * Families and default errno:
 *   malloc (malloc calloc realloc reallocarray posix_memalign
 *   aligned_alloc memalign valloc pvalloc, and so libc's strdup, fopen's
 *   buffers...: ENOMEM),
 *   read (read readv: EIO), pread (pread pread64 preadv: EIO),
 *   write (write writev pwrite pwrite64: EIO), open (open open64 openat
 *   openat64 creat: EMFILE), fopen (fopen fopen64 freopen fdopen: EMFILE),
 *   mmap (mmap mmap64 mremap: ENOMEM), fread (fread fgets getline
 *   getdelim: EIO, the stream's error flag set), fwrite (fwrite fputs:
 *   EIO, the error flag set).
 *
 * Only calls made once main() runs are counted (the dynamic loader's and
 * libc's start-up, and constructors, are not): __libc_start_main is
 * wrapped.  The variables are removed from the environment then, so that
 * a command the tool runs is not faulted too.  Counters are atomic (the
 * reader is threaded).  dlsym() may allocate: until the real allocator is
 * known, allocations come from a static buffer that free() ignores.
 * libc's own internal calls (stdio reading with read(), malloc's own
 * mmap()) do not go through these symbols and are not counted; that is
 * why fread and fwrite are families of their own.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* Declared in <malloc.h> only, which would also declare what is above. */
void *memalign(size_t align, size_t n);
void *pvalloc(size_t n);

enum fam {
	F_MALLOC, F_READ, F_PREAD, F_WRITE, F_OPEN, F_FOPEN, F_MMAP, F_FREAD,
	F_FWRITE, F_NFAM, F_ALL = F_NFAM
};

static const char *const fam_name[] = {
	"malloc", "read", "pread", "write", "open", "fopen", "mmap", "fread",
	"fwrite", "all"
};

static const int fam_errno[] = {
	ENOMEM, EIO, EIO, EIO, EMFILE, EMFILE, ENOMEM, EIO, EIO
};

static const struct {
	const char *name;
	int value;
} errnos[] = {
	{ "ENOMEM", ENOMEM }, { "EIO", EIO }, { "ENOSPC", ENOSPC },
	{ "EMFILE", EMFILE }, { "ENFILE", ENFILE }, { "EACCES", EACCES },
	{ "EINTR", EINTR }, { "EAGAIN", EAGAIN }, { "EDQUOT", EDQUOT },
	{ "EFBIG", EFBIG }, { "ENOENT", ENOENT },
};

#define MAX_SPECS 8
static struct spec {
	int fam;
	unsigned long n;
	int sticky;
	int err;
} specs[MAX_SPECS];
static int nspecs;

static atomic_ulong counts[F_NFAM + 1];
static atomic_int armed;
static atomic_int fired_fam = -1;
static atomic_ulong fired_n;
static char report_path[4096];
static pid_t main_pid;

/* The real functions. */
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

/*
 * Bootstrap allocations (dlsym's, before the real allocator is known):
 * each has a size_t header, for realloc.
 */
static _Alignas(16) char boot[64 * 1024];
static atomic_size_t boot_used;

static int is_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof boot;
}

static void *boot_alloc(size_t n)
{
	size_t need = (n + 16 + 15) & ~(size_t)15;
	size_t at = atomic_fetch_add(&boot_used, need);
	if (at + need > sizeof boot)
		return NULL;
	*(size_t *)(boot + at) = n;
	return boot + at + 16;
}

static atomic_int resolving;

static void resolve_alloc(void)
{
	if (real_malloc)
		return;
	atomic_store(&resolving, 1);
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	atomic_store(&resolving, 0);
}

/* The real @name, looked up once into @slot. */
#define REAL(slot, name) \
	(slot ? slot : (slot = (__typeof__(slot))dlsym(RTLD_NEXT, name)))

/* Nonzero (errno set) when this call of @fam is to fail. */
static int fault(int fam)
{
	if (!atomic_load_explicit(&armed, memory_order_relaxed))
		return 0;
	unsigned long c = atomic_fetch_add(&counts[fam], 1) + 1;
	unsigned long a = atomic_fetch_add(&counts[F_ALL], 1) + 1;
	for (int i = 0; i < nspecs; i++) {
		const struct spec *s = &specs[i];
		unsigned long k = s->fam == F_ALL ? a : c;
		if (s->fam != F_ALL && s->fam != fam)
			continue;
		if (k == s->n || (s->sticky && k > s->n)) {
			int expect = -1;
			if (atomic_compare_exchange_strong(&fired_fam,
							   &expect, fam))
				atomic_store(&fired_n, c);
			errno = s->err ? s->err : fam_errno[fam];
			return 1;
		}
	}
	return 0;
}

/*
 * A wrapper of @name that fails (returning @fail, errno set by fault())
 * when this call of @fam is to, else calls the real one.
 */
#define WRAP(ret, name, params, args, fam, fail)                        \
	ret name params                                                 \
	{                                                               \
		static ret (*real) params;                              \
		REAL(real, #name);                                      \
		if (fault(fam))                                         \
			return fail;                                    \
		return real args;                                       \
	}


static int parse_specs(const char *env)
{
	char buf[512];
	if (strlen(env) >= sizeof buf)
		return -1;
	strcpy(buf, env);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (nspecs == MAX_SPECS)
			return -1;
		struct spec *s = &specs[nspecs];
		char *colon = strchr(t, ':');
		if (!colon)
			return -1;
		*colon = '\0';
		s->fam = -1;
		for (int f = 0; f <= F_ALL; f++)
			if (!strcmp(t, fam_name[f]))
				s->fam = f;
		if (s->fam < 0)
			return -1;
		char *end;
		s->n = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || s->n == 0)
			return -1;
		if (*end == '+') {
			s->sticky = 1;
			end++;
		}
		if (*end == ':') {
			for (size_t i = 0; i < sizeof errnos / sizeof *errnos;
			     i++)
				if (!strcmp(end + 1, errnos[i].name))
					s->err = errnos[i].value;
			if (!s->err)
				return -1;
		} else if (*end) {
			return -1;
		}
		nspecs++;
	}
	return 0;
}

static void say(const char *msg)
{
	syscall(SYS_write, 2, msg, strlen(msg));
}

static void report(void)
{
	atomic_store(&armed, 0);
	if (!report_path[0] || getpid() != main_pid)
		return;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, report_path,
			      O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[128];
	for (int f = 0; f <= F_ALL; f++) {
		int n = snprintf(line, sizeof line, "%s %lu\n", fam_name[f],
				 atomic_load(&counts[f]));
		syscall(SYS_write, fd, line, (size_t)n);
	}
	int ff = atomic_load(&fired_fam);
	if (ff >= 0) {
		int n = snprintf(line, sizeof line, "fired %s %lu\n",
				 fam_name[ff], atomic_load(&fired_n));
		syscall(SYS_write, fd, line, (size_t)n);
	}
	syscall(SYS_close, fd);
}

__attribute__((destructor)) static void shim_fini(void)
{
	report();
}

/* Arms the shim once main() is about to run. */
static void start(char **argv)
{
	const char *prog = getenv("PEBS_FAULT_PROG");
	if (prog && argv && argv[0]) {
		const char *base = strrchr(argv[0], '/');
		base = base ? base + 1 : argv[0];
		if (strcmp(base, prog))
			return;
	}
	const char *env = getenv("PEBS_FAULT");
	const char *rep = getenv("PEBS_FAULT_REPORT");
	if (rep && strlen(rep) < sizeof report_path)
		strcpy(report_path, rep);
	if (env && parse_specs(env) < 0) {
		say("pebs fault shim: bad PEBS_FAULT (FAMILY:N[+][:ERRNO])\n");
		_exit(125);
	}
	unsetenv("PEBS_FAULT");
	unsetenv("PEBS_FAULT_REPORT");
	unsetenv("PEBS_FAULT_PROG");
	main_pid = getpid();
	if (env || report_path[0])
		atomic_store(&armed, 1);
}

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int wrap_main(int argc, char **argv, char **envp)
{
	start(argv);
	return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv,
		      void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end);
int __libc_start_main(main_fn main, int argc, char **argv,
		      void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	static int (*real)(main_fn, int, char **, void (*)(void),
			   void (*)(void), void (*)(void), void *);
	REAL(real, "__libc_start_main");
	real_main = main;
	return real(wrap_main, argc, argv, init, fini, rtld_fini, stack_end);
}

/* Allocation. */

void *malloc(size_t n)
{
	if (!real_malloc) {
		if (atomic_load(&resolving))
			return boot_alloc(n);
		resolve_alloc();
	}
	if (fault(F_MALLOC))
		return NULL;
	return real_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (!real_calloc) {
		if (atomic_load(&resolving)) {
			if (size && n > SIZE_MAX / size)
				return NULL;
			return boot_alloc(n * size);	/* static: zeroed */
		}
		resolve_alloc();
	}
	if (fault(F_MALLOC))
		return NULL;
	return real_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (!real_realloc) {
		if (atomic_load(&resolving)) {
			void *q = boot_alloc(n);
			if (q && p) {
				size_t old = *(size_t *)((char *)p - 16);
				memcpy(q, p, old < n ? old : n);
			}
			return q;
		}
		resolve_alloc();
	}
	if (p && is_boot(p)) {
		void *q = malloc(n);
		if (q) {
			size_t old = *(size_t *)((char *)p - 16);
			memcpy(q, p, old < n ? old : n);
		}
		return q;
	}
	if (fault(F_MALLOC))
		return NULL;
	return real_realloc(p, n);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void free(void *p)
{
	if (!p || is_boot(p))
		return;
	if (!real_free)
		resolve_alloc();
	real_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	static int (*real)(void **, size_t, size_t);
	REAL(real, "posix_memalign");
	if (fault(F_MALLOC))
		return ENOMEM;	/* posix_memalign returns it, errno untouched */
	return real(out, align, n);
}

WRAP(void *, aligned_alloc, (size_t align, size_t n),
	(align, n), F_MALLOC, NULL)

WRAP(void *, memalign, (size_t align, size_t n), (align, n), F_MALLOC, NULL)

WRAP(void *, valloc, (size_t n), (n), F_MALLOC, NULL)

WRAP(void *, pvalloc, (size_t n), (n), F_MALLOC, NULL)

/* Reading and writing file descriptors. */

WRAP(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n), F_READ, -1)

WRAP(ssize_t, readv, (int fd, const struct iovec *iov, int n),
	(fd, iov, n), F_READ, -1)

WRAP(ssize_t, pread, (int fd, void *buf, size_t n, off_t off),
	(fd, buf, n, off), F_PREAD, -1)

WRAP(ssize_t, pread64, (int fd, void *buf, size_t n, off_t off),
	(fd, buf, n, off), F_PREAD, -1)

WRAP(ssize_t, preadv, (int fd, const struct iovec *iov, int n, off_t off),
	(fd, iov, n, off), F_PREAD, -1)

WRAP(ssize_t, write, (int fd, const void *buf, size_t n),
	(fd, buf, n), F_WRITE, -1)

WRAP(ssize_t, writev, (int fd, const struct iovec *iov, int n),
	(fd, iov, n), F_WRITE, -1)

WRAP(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off),
	(fd, buf, n, off), F_WRITE, -1)

WRAP(ssize_t, pwrite64, (int fd, const void *buf, size_t n, off_t off),
	(fd, buf, n, off), F_WRITE, -1)

/* Opening files. */

static mode_t open_mode(int flags, va_list ap)
{
	if (flags & (O_CREAT | __O_TMPFILE))
		return (mode_t)va_arg(ap, int);
	return 0;
}

#define OPEN_WRAPPER(name)                                              \
	int name(const char *path, int flags, ...)                      \
	{                                                               \
		static int (*real)(const char *, int, ...);             \
		REAL(real, #name);                                      \
		va_list ap;                                             \
		va_start(ap, flags);                                    \
		mode_t mode = open_mode(flags, ap);                     \
		va_end(ap);                                             \
		if (fault(F_OPEN))                                      \
			return -1;                                      \
		return real(path, flags, mode);                         \
	}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)                                            \
	int name(int dir, const char *path, int flags, ...)             \
	{                                                               \
		static int (*real)(int, const char *, int, ...);        \
		REAL(real, #name);                                      \
		va_list ap;                                             \
		va_start(ap, flags);                                    \
		mode_t mode = open_mode(flags, ap);                     \
		va_end(ap);                                             \
		if (fault(F_OPEN))                                      \
			return -1;                                      \
		return real(dir, path, flags, mode);                    \
	}
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

WRAP(int, creat, (const char *path, mode_t mode), (path, mode), F_OPEN, -1)

WRAP(FILE *, fopen, (const char *path, const char *mode),
	(path, mode), F_FOPEN, NULL)

WRAP(FILE *, fopen64, (const char *path, const char *mode),
	(path, mode), F_FOPEN, NULL)

WRAP(FILE *, freopen, (const char *path, const char *mode, FILE *fp),
	(path, mode, fp), F_FOPEN, NULL)

WRAP(FILE *, fdopen, (int fd, const char *mode), (fd, mode), F_FOPEN, NULL)

/* Mapping. */

WRAP(void *, mmap, 
	(void *addr, size_t n, int prot, int flags, int fd, off_t off),
	(addr, n, prot, flags, fd, off), F_MMAP, MAP_FAILED)

WRAP(void *, mmap64, 
	(void *addr, size_t n, int prot, int flags, int fd, off_t off),
	(addr, n, prot, flags, fd, off), F_MMAP, MAP_FAILED)

void *mremap(void *old, size_t oldn, size_t n, int flags, ...)
{
	static void *(*real)(void *, size_t, size_t, int, ...);
	REAL(real, "mremap");
	void *to = NULL;
	if (flags & MREMAP_FIXED) {
		va_list ap;
		va_start(ap, flags);
		to = va_arg(ap, void *);
		va_end(ap);
	}
	if (fault(F_MMAP))
		return MAP_FAILED;
	return real(old, oldn, n, flags, to);
}

/* stdio: a failed call sets the stream's error flag as a real one does. */

static void set_error(FILE *fp)
{
	flockfile(fp);
	fp->_flags |= _IO_ERR_SEEN;
	funlockfile(fp);
}

size_t fread(void *buf, size_t size, size_t n, FILE *fp)
{
	static size_t (*real)(void *, size_t, size_t, FILE *);
	REAL(real, "fread");
	if (size && n && fault(F_FREAD)) {
		set_error(fp);
		return 0;
	}
	return real(buf, size, n, fp);
}

char *fgets(char *s, int n, FILE *fp)
{
	static char *(*real)(char *, int, FILE *);
	REAL(real, "fgets");
	if (fault(F_FREAD)) {
		set_error(fp);
		return NULL;
	}
	return real(s, n, fp);
}

ssize_t getdelim(char **line, size_t *cap, int delim, FILE *fp)
{
	static ssize_t (*real)(char **, size_t *, int, FILE *);
	REAL(real, "getdelim");
	if (fault(F_FREAD)) {
		set_error(fp);
		return -1;
	}
	return real(line, cap, delim, fp);
}

ssize_t getline(char **line, size_t *cap, FILE *fp)
{
	return getdelim(line, cap, '\n', fp);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *fp)
{
	static size_t (*real)(const void *, size_t, size_t, FILE *);
	REAL(real, "fwrite");
	if (size && n && fault(F_FWRITE)) {
		set_error(fp);
		return 0;
	}
	return real(buf, size, n, fp);
}

int fputs(const char *s, FILE *fp)
{
	static int (*real)(const char *, FILE *);
	REAL(real, "fputs");
	if (fault(F_FWRITE)) {
		set_error(fp);
		return EOF;
	}
	return real(s, fp);
}
