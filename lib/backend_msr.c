/*
 * backend_msr.c - real hardware through the Linux msr driver and the
 * pebs_ds kernel module (kmod/pebs_ds.c).
 *
 * MSRs: /dev/cpu/N/msr, 8 bytes read or written at file offset = the MSR
 * number (the msr driver turns a #GP into EIO).  Root (CAP_SYS_RAWIO) and
 * `modprobe msr` are needed.
 *
 * DS memory: the processor writes PEBS records to linear addresses that
 * must stay mapped in every context (SDM 17.4.9: non-paged, accessed and
 * dirty), so user memory will not do; the pebs_ds module allocates a DS
 * area and PEBS buffer per CPU and lets user space mmap them:
 *   mmap offset  cpu * PEBS_KMOD_STRIDE: one page of DS save area, then
 *                the PEBS buffer (PEBS_KMOD_BUF bytes);
 *   ioctl PEBS_KMOD_INFO (struct pebs_kmod_info): the kernel linear
 *                addresses of both, written to IA32_DS_AREA / the DS;
 *   poll         POLLIN once a CPU took the DS threshold PMI.
 * These constants are kmod/pebs_ds.c's; keep both in step.  When the
 * device is a regular file (tests; decided once, at open, from its
 * type), made-up processor addresses are used.  A character device is
 * the module, and any ioctl failure there is an error: ENOTTY is what a
 * pebs_ds module of another version answers, and a made-up address in
 * the real IA32_DS_AREA would have the processor write PEBS records to
 * memory nobody owns.  A regular file standing in for an msr device
 * holds 8 bytes per MSR at offset 8 * MSR (the real device's offsets are
 * MSR numbers, which would overlap in a plain file).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_int.h"

#define PEBS_KMOD_STRIDE	(1u << 20)
#define PEBS_KMOD_BUF		65536u
struct pebs_kmod_info {
	uint32_t cpu;
	uint32_t pad;
	uint64_t area_addr;
	uint64_t buf_addr;
	uint64_t buf_size;
};
#define PEBS_KMOD_INFO		_IOWR('P', 1, struct pebs_kmod_info)
/* Fake processor addresses for a regular-file stand-in. */
#define FAKE_KADDR		0xffff888000000000ull

struct bk_msr {
	char root[512];
	int *fd;		/* per CPU index: msr device */
	int *reg;		/* per CPU index: a regular file (tests) */
	int dsfd;		/* pebs_ds device */
	int fake;		/* dsfd is a regular file (set at open only) */
	void **map;		/* per CPU index: mapping */
	size_t *maplen;
};

static int m_rdmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		   uint64_t *v)
{
	struct bk_msr *p = b->priv;
	for (size_t i = 0; i < b->ncpus; i++) {
		if (b->cpus[i] != cpu)
			continue;
		off_t off = p->reg[i] ? (off_t)msr * 8 : (off_t)msr;
		ssize_t n = pread(p->fd[i], v, 8, off);
		if (n != 8) {
			/* errno is stale after a short read (a stand-in
			 * file that ends early) */
			bk_err(b, "CPU %d: RDMSR 0x%x: %s", cpu, msr,
			       n >= 0 ? "short read" :
			       errno == EIO ? "#GP (no such MSR here)" :
			       strerror(errno));
			return -PEBS_E_IO;
		}
		return 0;
	}
	bk_err(b, "CPU %d not opened", cpu);
	return -PEBS_E_INVAL;
}

static int m_wrmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		   uint64_t v)
{
	struct bk_msr *p = b->priv;
	for (size_t i = 0; i < b->ncpus; i++) {
		if (b->cpus[i] != cpu)
			continue;
		off_t off = p->reg[i] ? (off_t)msr * 8 : (off_t)msr;
		ssize_t n = pwrite(p->fd[i], &v, 8, off);
		if (n != 8) {
			bk_err(b, "CPU %d: WRMSR 0x%x 0x%llx: %s", cpu, msr,
			       (unsigned long long)v, n >= 0 ? "short write" :
			       errno == EIO ? "#GP (reserved bit or no such "
			       "MSR)" : strerror(errno));
			return -PEBS_E_IO;
		}
		return 0;
	}
	bk_err(b, "CPU %d not opened", cpu);
	return -PEBS_E_INVAL;
}

static int m_ds_alloc(struct pebs_backend *b, size_t i, size_t size,
		      struct pebs_ds_mem *m)
{
	struct bk_msr *p = b->priv;
	struct pebs_kmod_info info = { .cpu = (uint32_t)b->cpus[i] };
	size_t len;
	void *map;

	if (size > PEBS_KMOD_BUF)
		size = PEBS_KMOD_BUF;
	if (!p->fake && ioctl(p->dsfd, PEBS_KMOD_INFO, &info) < 0) {
		int e = errno;
		bk_err(b, "CPU %d: pebs_ds: ioctl PEBS_KMOD_INFO: %s%s",
		       b->cpus[i], strerror(e), e == ENOTTY ? ": module "
		       "version mismatch? (rebuild and reload kmod/pebs_ds.ko "
		       "from this source tree)" : "");
		return -PEBS_E_IO;
	}
	if (p->fake) {
		info.area_addr = FAKE_KADDR +
				 (uint64_t)b->cpus[i] * PEBS_KMOD_STRIDE;
		info.buf_addr = info.area_addr + 4096;
		info.buf_size = PEBS_KMOD_BUF;
	}
	if (size > info.buf_size)
		size = (size_t)info.buf_size;
	len = 4096 + size;
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, p->dsfd,
		   (off_t)b->cpus[i] * PEBS_KMOD_STRIDE);
	if (map == MAP_FAILED) {
		bk_err(b, "CPU %d: mmap pebs_ds: %s", b->cpus[i],
		       strerror(errno));
		return -PEBS_E_IO;
	}
	p->map[i] = map;
	p->maplen[i] = len;
	m->area = map;
	m->area_addr = info.area_addr;
	m->buf = (uint8_t *)map + 4096;
	m->buf_addr = info.buf_addr;
	m->buf_size = size;
	return 0;
}

static int m_wait(struct pebs_backend *b, int timeout_ms)
{
	struct bk_msr *p = b->priv;

	if (!p->fake) {
		struct pollfd pf = { .fd = p->dsfd, .events = POLLIN };
		if (poll(&pf, 1, timeout_ms) < 0 && errno != EINTR) {
			bk_err(b, "poll pebs_ds: %s", strerror(errno));
			return -PEBS_E_IO;
		}
	} else {
		usleep((useconds_t)(timeout_ms > 10 ? 10 : timeout_ms) * 1000);
	}
	/* The DS fields say it whatever woke us (PMI, timeout, signal). */
	for (size_t i = 0; i < b->ncpus; i++) {
		struct pebs_ds *ds = pebs_backend_ds(b, i);
		if (ds && pebs_ds_get(ds, PEBS_DS_PEBS_INDEX) >=
			  pebs_ds_get(ds, PEBS_DS_PEBS_THRESH))
			return PEBS_BK_PMI;
	}
	return PEBS_BK_TIMEOUT;
}

/* The processor writes records beside the drain: stop this CPU's
 * counters around pebs_backend_take()'s window (SDM 002: change PEBS
 * state only while disabled), then give back the plan's value.  The
 * msr driver runs the WRMSR on that CPU and returns once it is done, so
 * nothing is written to the buffer after the pwrite returns. */
static int m_pause(struct pebs_backend *b, size_t i)
{
	return m_wrmsr(b, b->cpus[i], PEBS_MSR_GLOBAL_CTRL, 0);
}

static int m_resume(struct pebs_backend *b, size_t i)
{
	return m_wrmsr(b, b->cpus[i], PEBS_MSR_GLOBAL_CTRL,
		       pebs_plan_global_ctrl(b->plan));
}

static uint64_t m_now(const struct pebs_backend *b)
{
	(void)b;
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#else
	return 0;
#endif
}

static void m_free(struct pebs_backend *b)
{
	struct bk_msr *p = b->priv;
	if (!p)
		return;
	for (size_t i = 0; i < b->ncpus; i++) {
		if (p->fd && p->fd[i] >= 0)
			close(p->fd[i]);
		if (p->map && p->map[i])
			munmap(p->map[i], p->maplen[i]);
	}
	if (p->dsfd >= 0)
		close(p->dsfd);
	free(p->fd);
	free(p->reg);
	free(p->map);
	free(p->maplen);
	free(p);
}

static const struct bk_ops msr_ops = {
	.name = "msr",
	.caps = PEBS_BK_DS,
	.rdmsr = m_rdmsr,
	.wrmsr = m_wrmsr,
	.ds_alloc = m_ds_alloc,
	.wait = m_wait,
	.now = m_now,
	.free = m_free,
	.pause = m_pause,
	.resume = m_resume,
};

int pebs_backend_open_msr(struct pebs_backend **out, const char *root,
			  const struct pebs_uarch *u, const int *cpus,
			  size_t n, char *err, size_t errlen)
{
	struct pebs_backend *b;
	struct bk_msr *p;
	char path[600];
	struct stat st;

	*out = NULL;
	if (!u || !cpus || !n) {
		snprintf(err, errlen, "msr backend: no CPUs");
		return -PEBS_E_INVAL;
	}
	b = bk_new(&msr_ops, u, cpus, n);
	p = calloc(1, sizeof(*p));
	if (!b || !p) {
		free(p);
		pebs_backend_close(b);
		return -PEBS_E_NOMEM;
	}
	b->priv = p;
	p->dsfd = -1;
	snprintf(p->root, sizeof(p->root), "%s", root ? root : "");
	p->fd = malloc(n * sizeof(int));
	p->reg = calloc(n, sizeof(int));
	p->map = calloc(n, sizeof(void *));
	p->maplen = calloc(n, sizeof(size_t));
	if (!p->fd || !p->reg || !p->map || !p->maplen) {
		pebs_backend_close(b);
		return -PEBS_E_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		p->fd[i] = -1;
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", p->root,
			 cpus[i]);
		p->fd[i] = open(path, O_RDWR | O_CLOEXEC);
		if (p->fd[i] < 0) {
			int e = errno;
			snprintf(err, errlen, "%s: %s%s", path, strerror(e),
				 e == ENOENT ? " (modprobe msr; is CPU "
				 "online?)" : e == EACCES || e == EPERM ?
				 " (needs root / CAP_SYS_RAWIO)" : "");
			pebs_backend_close(b);
			return e == ENOENT || e == EACCES || e == EPERM ?
			       -PEBS_E_UNSUPPORTED : -PEBS_E_IO;
		}
		p->reg[i] = fstat(p->fd[i], &st) == 0 && S_ISREG(st.st_mode);
	}
	snprintf(path, sizeof(path), "%s/dev/pebs_ds", p->root);
	p->dsfd = open(path, O_RDWR | O_CLOEXEC);
	if (p->dsfd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s%s", path, strerror(e),
			 e == ENOENT ? " (the DS buffer needs the pebs_ds "
			 "kernel module: make -C kmod && insmod "
			 "kmod/pebs_ds.ko)" : "");
		pebs_backend_close(b);
		return e == ENOENT || e == EACCES ? -PEBS_E_UNSUPPORTED :
		       -PEBS_E_IO;
	}
	p->fake = fstat(p->dsfd, &st) == 0 && S_ISREG(st.st_mode);
	*out = b;
	return 0;
}
