/*
 * pebs-trace.c - libpebs-trace: records the memory accesses of a real,
 * multi-threaded program for the simulated PMU (pebs-capture -b sim).
 *
 * The program is compiled with the compiler's thread-sanitizer
 * instrumentation (gcc or clang -fsanitize=thread -c) and linked, WITHOUT
 * -fsanitize=thread, against this library instead of libtsan.  Every
 * instrumented load, store and atomic then calls in here; each thread
 * appends (time, ip, addr, size, op) to its own buffer, and at exit the
 * buffers are merged in time order and written as the trace text format
 * (formats/trace-format.md) to $PEBS_TRACE_OUT (default
 * pebs-trace.PID.txt).  The program runs truly in parallel: a record costs
 * one clock_gettime() and a few stores in the thread's own memory.
 *
 * Time: the trace should show the program as it runs on the simulated
 * machine, where every thread has a core of its own, not as the host's
 * scheduler happened to time-slice it (on a busy host with few CPUs,
 * threads run in bursts of milliseconds and would never contend).  So each
 * thread keeps a virtual clock: CLOCK_MONOTONIC, except that a gap of more
 * than 200 us between two of its accesses (it was descheduled or blocked)
 * counts as 1 us; a thread started by pthread_create() starts at its
 * creator's virtual time, and pthread_join() moves the joiner's clock to
 * the joined thread's end.  (This library wraps those two functions.)
 *
 * Environment:
 *   PEBS_TRACE_OUT    output path
 *   PEBS_TRACE_MAX    most accesses kept per thread (default 4000000); the
 *                     rest are counted and reported in a header comment
 *   PEBS_TRACE_CLOCK  "wall": plain CLOCK_MONOTONIC times, no virtual clock
 *
 * Limits: accesses are recorded until exit() (or the return from main);
 * a process ending by _exit() or a signal before exit() writes nothing; a
 * forked child writes nothing (only the process that loaded the library
 * does); 128-bit atomics are not provided (they would need libatomic).
 *
 * Completeness: the trace (version 2) ends with "end N", written only
 * when all of it was written, so that a reader tells a cut trace from a
 * whole one.  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1 and
 * SIGUSR2 that come while it is written are held until it is complete,
 * then take their course (a Ctrl-C at exit no longer cuts it); SIGXFSZ
 * and SIGPIPE are ignored meanwhile, so that the write fails instead.
 * Any other signal that ends the program (SIGKILL...) cuts it.  On a
 * write error (a full disk, a file size limit), also one that only the
 * fsync() before the close, or the close() itself, reports (NFS), the
 * file is emptied and says so ("error WHY"), or, where that fails too,
 * removed; the message goes to standard error, and the program's exit
 * status stays its own.
 *
 * This file is not instrumented itself and never calls back into the
 * program.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_RECS 65536u
#define DEFAULT_MAX 4000000ull
#define GAP_NS 200000ull	/* a longer gap: the thread did not run */
#define GAP_AS_NS 1000ull	/* what such a gap counts as */

enum { OP_R, OP_W, OP_U };

struct rec {
	uint64_t t;		/* CLOCK_MONOTONIC ns */
	uint64_t addr;
	uint64_t ipx;		/* ip 47:0, size 55:48, op 57:56 */
};

struct chunk {
	struct chunk *next;
	uint32_t n;		/* records written (release-stored) */
	struct rec r[CHUNK_RECS];
};

struct tbuf {
	struct tbuf *next;	/* all threads ever seen */
	uint32_t tid;
	uint64_t vt;		/* virtual clock (ns), see the top */
	uint64_t last_wall;	/* CLOCK_MONOTONIC at the last reading */
	pthread_t pt;		/* for pthread_join() */
	int joined;		/* pt was joined (and may be reused) */
	uint64_t kept, dropped;
	struct chunk *head, *tail;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tbuf *threads;
static int stopping;		/* set at exit: no more records */
static pid_t owner_pid;		/* the process that writes the trace */
static uint64_t max_recs = DEFAULT_MAX;
static int wall_clock;		/* PEBS_TRACE_CLOCK=wall */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static __thread struct tbuf *self;
static __thread int busy;	/* a record in progress (signal handlers) */

static void write_trace(void);

static void init_once(void)
{
	const char *m = getenv("PEBS_TRACE_MAX");
	if (m && *m) {
		char *end;
		unsigned long long v = strtoull(m, &end, 10);
		if (!*end)
			max_recs = v;
	}
	const char *c = getenv("PEBS_TRACE_CLOCK");
	wall_clock = c && strcmp(c, "wall") == 0;
	owner_pid = getpid();
	atexit(write_trace);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The thread's virtual time now. */
static uint64_t vclock(struct tbuf *b)
{
	uint64_t w = wall_ns();
	if (wall_clock)
		return w;
	if (!b->last_wall) {
		if (!b->vt)
			b->vt = w;
	} else {
		uint64_t d = w > b->last_wall ? w - b->last_wall : 0;
		b->vt += d > GAP_NS ? GAP_AS_NS : d;
	}
	b->last_wall = w;
	return b->vt;
}

/* Registers the calling thread, its clock starting at @vt (0: now). */
static struct tbuf *thread_buf_at(uint64_t vt)
{
	struct tbuf *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->vt = vt;
	b->pt = pthread_self();
	b->tid = (uint32_t)syscall(SYS_gettid);
	pthread_mutex_lock(&reg_lock);
	b->next = threads;
	threads = b;
	pthread_mutex_unlock(&reg_lock);
	return b;
}

static struct tbuf *thread_buf(void)
{
	return thread_buf_at(0);
}

static void record(uint64_t ip, const volatile void *addr, unsigned size,
		   unsigned op)
{
	if (__atomic_load_n(&stopping, __ATOMIC_RELAXED) || busy)
		return;
	busy = 1;
	pthread_once(&once, init_once);
	struct tbuf *b = self;
	if (!b && !(b = self = thread_buf()))
		goto out;
	if (b->kept >= max_recs) {
		b->dropped++;
		goto out;
	}
	struct chunk *c = b->tail;
	if (!c || c->n == CHUNK_RECS) {
		struct chunk *nc = malloc(sizeof(*nc));
		if (!nc) {
			b->dropped++;
			goto out;
		}
		nc->next = NULL;
		nc->n = 0;
		if (c)
			__atomic_store_n(&c->next, nc, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&b->head, nc, __ATOMIC_RELEASE);
		b->tail = c = nc;
	}
	struct rec *r = &c->r[c->n];
	r->t = vclock(b);
	r->addr = (uint64_t)(uintptr_t)addr;
	r->ipx = (ip & 0xffffffffffffull) | (uint64_t)size << 48 |
		 (uint64_t)op << 56;
	__atomic_store_n(&c->n, c->n + 1, __ATOMIC_RELEASE);
	b->kept++;
out:
	busy = 0;
}

/* A range in pieces of at most 64 bytes, each within one line. */
static void record_range(uint64_t ip, const volatile void *addr,
			 unsigned long size, unsigned op)
{
	uintptr_t a = (uintptr_t)addr, end = a + size;
	while (a < end) {
		uintptr_t next = (a | 63) + 1;
		if (next > end)
			next = end;
		record(ip, (const void *)a, (unsigned)(next - a), op);
		a = next;
	}
}

#define RA() ((uint64_t)(uintptr_t)__builtin_return_address(0))

/* ------------------------------------------------------ the tsan ABI */

/*
 * Declared here (the compiler emits calls to them, no header declares
 * them) to keep -Wmissing-prototypes quiet.
 */
void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
void __tsan_read_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_vptr_update(void **vptr_p, void *new_val);
void __tsan_vptr_read(void **vptr_p);
void *__tsan_memcpy(void *dst, const void *src, unsigned long n);
void *__tsan_memmove(void *dst, const void *src, unsigned long n);
void *__tsan_memset(void *dst, int c, unsigned long n);
void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);

/* ------------------------------------------------ thread lifetimes */

struct start {
	void *(*fn)(void *);
	void *arg;
	uint64_t vt;
};

static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	free(p);
	busy = 1;
	self = thread_buf_at(s.vt);
	if (self)
		self->last_wall = wall_ns();
	busy = 0;
	return s.fn(s.arg);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *,
			   void *(*)(void *), void *);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (!real)
		return EAGAIN;
	pthread_once(&once, init_once);
	struct start *s = malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	s->vt = 0;
	if (!busy) {
		busy = 1;
		if (!self)
			self = thread_buf();
		if (self)
			s->vt = vclock(self);
		busy = 0;
	}
	int r = real(t, attr, trampoline, s);
	if (r)
		free(s);
	return r;
}

int pthread_join(pthread_t t, void **ret)
{
	static int (*real)(pthread_t, void **);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_join");
	if (!real)
		return EINVAL;
	int r = real(t, ret);
	if (r || busy)
		return r;
	busy = 1;
	uint64_t end = 0;
	pthread_mutex_lock(&reg_lock);
	for (struct tbuf *b = threads; b; b = b->next)
		if (!b->joined && pthread_equal(b->pt, t)) {
			b->joined = 1;
			if (b->vt > end)
				end = b->vt;
		}
	pthread_mutex_unlock(&reg_lock);
	if (!self)
		self = thread_buf();
	if (self && !wall_clock) {
		vclock(self);
		if (end > self->vt)
			self->vt = end;
	}
	busy = 0;
	return r;
}

void __tsan_init(void)
{
	pthread_once(&once, init_once);
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}

void __tsan_ignore_thread_begin(void)
{
}

void __tsan_ignore_thread_end(void)
{
}

#define PLAIN(N)							\
void __tsan_read##N(void *a);						\
void __tsan_write##N(void *a);						\
void __tsan_unaligned_read##N(void *a);					\
void __tsan_unaligned_write##N(void *a);				\
void __tsan_volatile_read##N(void *a);					\
void __tsan_volatile_write##N(void *a);					\
void __tsan_read##N##_pc(void *a, void *pc);				\
void __tsan_write##N##_pc(void *a, void *pc);				\
void __tsan_read##N(void *a) { record(RA(), a, N, OP_R); }		\
void __tsan_write##N(void *a) { record(RA(), a, N, OP_W); }		\
void __tsan_unaligned_read##N(void *a) { record(RA(), a, N, OP_R); }	\
void __tsan_unaligned_write##N(void *a) { record(RA(), a, N, OP_W); }	\
void __tsan_volatile_read##N(void *a) { record(RA(), a, N, OP_R); }	\
void __tsan_volatile_write##N(void *a) { record(RA(), a, N, OP_W); }	\
void __tsan_read##N##_pc(void *a, void *pc)				\
{ record((uint64_t)(uintptr_t)pc, a, N, OP_R); }			\
void __tsan_write##N##_pc(void *a, void *pc)				\
{ record((uint64_t)(uintptr_t)pc, a, N, OP_W); }

PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)

void __tsan_read_range(void *addr, unsigned long size)
{
	record_range(RA(), addr, size, OP_R);
}

void __tsan_write_range(void *addr, unsigned long size)
{
	record_range(RA(), addr, size, OP_W);
}

void __tsan_vptr_update(void **vptr_p, void *new_val)
{
	(void)new_val;
	record(RA(), vptr_p, sizeof(void *), OP_W);
}

void __tsan_vptr_read(void **vptr_p)
{
	record(RA(), vptr_p, sizeof(void *), OP_R);
}

void *__tsan_memcpy(void *dst, const void *src, unsigned long n)
{
	record_range(RA(), src, n, OP_R);
	record_range(RA(), dst, n, OP_W);
	return memcpy(dst, src, n);
}

void *__tsan_memmove(void *dst, const void *src, unsigned long n)
{
	record_range(RA(), src, n, OP_R);
	record_range(RA(), dst, n, OP_W);
	return memmove(dst, src, n);
}

void *__tsan_memset(void *dst, int c, unsigned long n)
{
	record_range(RA(), dst, n, OP_W);
	return memset(dst, c, n);
}

void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/*
 * Atomics: performed with sequential consistency whatever order was asked
 * (never weaker than asked), recorded as R, W or U (read-modify-write).
 */
#define RMW(N, T, NAME, BUILTIN)					\
T __tsan_atomic##N##_##NAME(volatile T *a, T v, int mo);		\
T __tsan_atomic##N##_##NAME(volatile T *a, T v, int mo)			\
{									\
	(void)mo;							\
	record(RA(), a, N / 8, OP_U);					\
	return BUILTIN(a, v, __ATOMIC_SEQ_CST);				\
}

#define ATOMICS(N, T)							\
T __tsan_atomic##N##_load(const volatile T *a, int mo);			\
T __tsan_atomic##N##_load(const volatile T *a, int mo)			\
{									\
	(void)mo;							\
	record(RA(), a, N / 8, OP_R);					\
	return __atomic_load_n(a, __ATOMIC_SEQ_CST);			\
}									\
void __tsan_atomic##N##_store(volatile T *a, T v, int mo);		\
void __tsan_atomic##N##_store(volatile T *a, T v, int mo)		\
{									\
	(void)mo;							\
	record(RA(), a, N / 8, OP_W);					\
	__atomic_store_n(a, v, __ATOMIC_SEQ_CST);			\
}									\
RMW(N, T, exchange, __atomic_exchange_n)				\
RMW(N, T, fetch_add, __atomic_fetch_add)				\
RMW(N, T, fetch_sub, __atomic_fetch_sub)				\
RMW(N, T, fetch_and, __atomic_fetch_and)				\
RMW(N, T, fetch_or, __atomic_fetch_or)					\
RMW(N, T, fetch_xor, __atomic_fetch_xor)				\
RMW(N, T, fetch_nand, __atomic_fetch_nand)				\
int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c,	\
					       T v, int mo, int fmo);	\
int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c,	\
					       T v, int mo, int fmo)	\
{									\
	(void)mo;							\
	(void)fmo;							\
	int ok = __atomic_compare_exchange_n(a, c, v, 0,		\
					     __ATOMIC_SEQ_CST,		\
					     __ATOMIC_SEQ_CST);		\
	record(RA(), a, N / 8, ok ? OP_U : OP_R);			\
	return ok;							\
}									\
int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c,	\
					     T v, int mo, int fmo);	\
int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c,	\
					     T v, int mo, int fmo)	\
{									\
	(void)mo;							\
	(void)fmo;							\
	int ok = __atomic_compare_exchange_n(a, c, v, 0,		\
					     __ATOMIC_SEQ_CST,		\
					     __ATOMIC_SEQ_CST);		\
	record(RA(), a, N / 8, ok ? OP_U : OP_R);			\
	return ok;							\
}									\
T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v,	\
					  int mo, int fmo);		\
T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v,	\
					  int mo, int fmo)		\
{									\
	(void)mo;							\
	(void)fmo;							\
	int ok = __atomic_compare_exchange_n(a, &c, v, 0,		\
					     __ATOMIC_SEQ_CST,		\
					     __ATOMIC_SEQ_CST);		\
	record(RA(), a, N / 8, ok ? OP_U : OP_R);			\
	return c;							\
}

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

/* ------------------------------------------------------------ output */

struct out {
	int fd;
	char buf[1 << 16];
	size_t n;
	int err;		/* the first write error */
};

/* All of @s (@n bytes) to the file, unless a write failed before. */
static void write_all(struct out *o, const char *s, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? errno : EIO;
			break;
		}
		s += w;
		n -= (size_t)w;
	}
}

static void flush(struct out *o)
{
	write_all(o, o->buf, o->n);
	o->n = 0;
}

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n > sizeof(o->buf))
		flush(o);
	if (n > sizeof(o->buf)) {
		write_all(o, s, n);
		return;
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

/*
 * The signals held while the trace is written (see the top): those that
 * end a program by default and are sent to it from outside (a stop
 * request, a timer); then those the trace's own write raises (a file
 * size limit, a FIFO without reader), ignored meanwhile: the write fails
 * instead (EFBIG, EPIPE) and says so, the program not killed for it.
 */
static const int held_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM,
				 SIGUSR1, SIGUSR2, SIGXFSZ, SIGPIPE };
#define NHELD (sizeof(held_sigs) / sizeof(held_sigs[0]))
#define NRAISED 7	/* the first ones: taking their course after */
static volatile sig_atomic_t held[NHELD];

static void hold_sig(int sig)
{
	for (size_t i = 0; i < NRAISED; i++)
		if (held_sigs[i] == sig)
			held[i] = 1;
}

/* Holds the signals not ignored (@old: their actions). */
static void hold_signals(struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < NHELD; i++) {
		sa.sa_handler = i < NRAISED ? hold_sig : SIG_IGN;
		if (sigaction(held_sigs[i], NULL, &old[i]) == 0 &&
		    old[i].sa_handler != SIG_IGN)
			sigaction(held_sigs[i], &sa, NULL);
	}
}

/* Puts the actions back; a signal that came meanwhile takes its course
 * now, the trace complete. */
static void release_signals(const struct sigaction *old)
{
	for (size_t i = 0; i < NHELD; i++)
		if (old[i].sa_handler != SIG_IGN)
			sigaction(held_sigs[i], &old[i], NULL);
	for (size_t i = 0; i < NRAISED; i++)
		if (held[i]) {
			held[i] = 0;
			raise(held_sigs[i]);
		}
}

/*
 * A write of the trace at @path, open as @fd, failed with @err: a regular
 * file is emptied and says so in its place ("error WHY",
 * formats/trace-format.md), so that no reader takes what was written for
 * the trace; where even that fails, it is removed.
 */
static void mark_failed(int fd, const char *path, int err)
{
	struct stat sb;
	char line[256];
	int n;

	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return;		/* a FIFO: the reader sees no end line */
	n = snprintf(line, sizeof(line), "pebs-trace 2\nerror %s\n",
		     strerror(err));
	if (ftruncate(fd, 0) < 0 || n < 0 ||
	    pwrite(fd, line, (size_t)n, 0) != n)
		unlink(path);
}

/*
 * The close() of the regular file @path, the trace, failed with @err (a
 * file system that says only then that a write was lost): its descriptor
 * is gone, so the file is opened again by its name to be marked as
 * mark_failed() does, or removed.
 */
static void mark_failed_closed(const char *path, int err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		unlink(path);
		return;
	}
	mark_failed(fd, path, err);
	if (close(fd) != 0)
		unlink(path);
}

static char *dec(char *p, uint64_t v)
{
	char t[24];
	int n = 0;
	do
		t[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = t[--n];
	return p;
}

static char *hex(char *p, uint64_t v)
{
	char t[24];
	int n = 0;
	*p++ = '0';
	*p++ = 'x';
	do
		t[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4));
	while (n)
		*p++ = t[--n];
	return p;
}

/* dl_iterate_phdr(): "build-id HEX PATH" for an object with an
 * NT_GNU_BUILD_ID note, PATH as /proc/self/maps names it. */
static int put_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct out *o = arg;
	char path[PATH_MAX], line[PATH_MAX + 64];
	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name) {
		ssize_t n = readlink("/proc/self/exe", path,
				     sizeof(path) - 1);
		if (n <= 0)
			return 0;
		path[n] = 0;
	} else if (!realpath(info->dlpi_name, path)) {
		return 0;	/* the vDSO, or a file gone */
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p, *e;
		if (ph->p_type != PT_NOTE)
			continue;
		p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		e = p + ph->p_memsz;
		while (e - p >= (ptrdiff_t)sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const void *)p;
			size_t nsz = (nh->n_namesz + 3) & ~3u;
			size_t dsz = (nh->n_descsz + 3) & ~3u;
			const uint8_t *d = p + sizeof(*nh) + nsz;
			if ((size_t)(e - p) < sizeof(*nh) + nsz + dsz)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID &&
			    nh->n_namesz == 4 && !memcmp(p + sizeof(*nh),
							"GNU", 4) &&
			    nh->n_descsz >= 1 && nh->n_descsz <= 20) {
				char *q = line + sprintf(line, "build-id ");
				for (unsigned k = 0; k < nh->n_descsz; k++)
					q += sprintf(q, "%02x", d[k]);
				size_t used = (size_t)(q - line);
				int n = snprintf(q, sizeof(line) - used,
						 " %s\n", path);
				if (n > 0 && (size_t)n < sizeof(line) - used)
					put(o, line, used + (size_t)n);
				return 0;
			}
			p = d + dsz;
		}
	}
	return 0;
}

static void put_header(struct out *o, uint64_t dropped)
{
	char line[512];
	int n = snprintf(line, sizeof(line),
			 "pebs-trace 2\n"
			 "# written by libpebs-trace (pebs-tools)\n"
			 "# TIME(ns) TID CPU OP SIZE IP ADDR\n"
			 "clock ns\n");
	put(o, line, (size_t)n);
	if (dropped) {
		n = snprintf(line, sizeof(line), "# dropped %llu accesses "
			     "beyond PEBS_TRACE_MAX per thread\n",
			     (unsigned long long)dropped);
		put(o, line, (size_t)n);
	}
	FILE *f = fopen("/proc/self/cmdline", "r");
	if (f) {
		size_t len = fread(line, 1, sizeof(line) - 1, f);
		fclose(f);
		for (size_t i = 0; i < len; i++)
			if (line[i] == 0 || line[i] == '\n')
				line[i] = ' ';
		while (len && line[len - 1] == ' ')
			len--;
		if (len) {
			put(o, "command ", 8);
			put(o, line, len);
			put(o, "\n", 1);
		}
	}
	n = snprintf(line, sizeof(line), "pid %d\n", (int)owner_pid);
	put(o, line, (size_t)n);
	/* File mappings (code and data), so that reports can name the
	 * instructions and variables; the reader drops what has no
	 * symbols. */
	f = fopen("/proc/self/maps", "r");
	char *l = NULL;
	size_t cap = 0;
	while (f && getline(&l, &cap, f) > 0) {
		unsigned long long s, e, off;
		char perm[8];
		int pos = 0;
		if (sscanf(l, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perm,
			   &off, &pos) < 4 || !pos || l[pos] != '/')
			continue;
		l[strcspn(l, "\n")] = 0;
		n = snprintf(line, sizeof(line), "map %d 0x%llx 0x%llx "
			     "0x%llx ", (int)owner_pid, s, e, off);
		put(o, line, (size_t)n);
		put(o, l + pos, strlen(l + pos));
		put(o, "\n", 1);
	}
	free(l);
	if (f)
		fclose(f);
	/* The build-ids of the objects as loaded (not as on disk now). */
	dl_iterate_phdr(put_build_id, o);
}

/* Cursor over one thread's records. */
struct cur {
	struct tbuf *b;
	struct chunk *c;
	uint32_t i, n;
};

static int cur_valid(struct cur *k)
{
	while (k->c && k->i == k->n) {
		k->c = __atomic_load_n(&k->c->next, __ATOMIC_ACQUIRE);
		k->i = 0;
		k->n = k->c ? __atomic_load_n(&k->c->n, __ATOMIC_ACQUIRE) : 0;
	}
	return k->c != NULL;
}

static void write_trace(void)
{
	if (getpid() != owner_pid)
		return;
	__atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
	const char *path = getenv("PEBS_TRACE_OUT");
	char def[64];
	if (!path || !*path) {
		snprintf(def, sizeof(def), "pebs-trace.%d.txt",
			 (int)owner_pid);
		path = def;
	}
	pthread_mutex_lock(&reg_lock);
	size_t nt = 0;
	uint64_t dropped = 0;
	for (struct tbuf *b = threads; b; b = b->next) {
		nt++;
		dropped += b->dropped;
	}
	struct cur *k = calloc(nt ? nt : 1, sizeof(*k));
	static struct out o;
	struct sigaction old[NHELD];
	uint64_t nacc = 0;
	hold_signals(old);
	o.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (!k || o.fd < 0) {
		fprintf(stderr, "pebs-trace: %s: %s\n", path,
			strerror(k ? errno : ENOMEM));
		pthread_mutex_unlock(&reg_lock);
		free(k);
		if (o.fd >= 0)
			close(o.fd);
		release_signals(old);
		return;
	}
	size_t i = 0;
	for (struct tbuf *b = threads; b; b = b->next, i++) {
		k[i].b = b;
		k[i].c = __atomic_load_n(&b->head, __ATOMIC_ACQUIRE);
		k[i].n = k[i].c ? __atomic_load_n(&k[i].c->n,
						  __ATOMIC_ACQUIRE) : 0;
	}
	put_header(&o, dropped);
	/* k-way merge by time; threads are few, a scan is enough. */
	for (;;) {
		struct cur *best = NULL;
		for (i = 0; i < nt; i++)
			if (cur_valid(&k[i]) && (!best || k[i].c->r[k[i].i].t <
					best->c->r[best->i].t))
				best = &k[i];
		if (!best)
			break;
		const struct rec *r = &best->c->r[best->i++];
		char line[128], *p = line;
		p = dec(p, r->t);
		*p++ = ' ';
		p = dec(p, best->b->tid);
		memcpy(p, " - ", 3);
		p += 3;
		*p++ = "RWU?"[(r->ipx >> 56) & 3];
		*p++ = ' ';
		p = dec(p, (r->ipx >> 48) & 0xff);
		*p++ = ' ';
		p = hex(p, r->ipx & 0xffffffffffffull);
		*p++ = ' ';
		p = hex(p, r->addr);
		*p++ = '\n';
		put(&o, line, (size_t)(p - line));
		nacc++;
	}
	pthread_mutex_unlock(&reg_lock);
	/* Last, so that a trace cut short has none. */
	char end[48], *q = end;
	memcpy(q, "end ", 4);
	q = dec(q + 4, nacc);
	*q++ = '\n';
	put(&o, end, (size_t)(q - end));
	flush(&o);
	/*
	 * A regular file is synced before it stands complete: a file system
	 * that reports a lost write late (NFS, a full disk under delayed
	 * allocation, a quota) does so here, while the file can still be
	 * marked through its descriptor; a FIFO has nothing to sync.
	 */
	struct stat sb;
	int reg = fstat(o.fd, &sb) == 0 && S_ISREG(sb.st_mode);
	if (!o.err && reg && fsync(o.fd) != 0)
		o.err = errno ? errno : EIO;
	if (o.err)
		mark_failed(o.fd, path, o.err);
	/* and where only close() says so, the file is marked by its name */
	if (close(o.fd) != 0 && !o.err) {
		o.err = errno ? errno : EIO;
		if (reg)
			mark_failed_closed(path, o.err);
	}
	if (o.err)
		fprintf(stderr, "pebs-trace: %s: %s\n", path,
			strerror(o.err));
	free(k);
	release_signals(old);
}
