/*
 * backend.c - the common part of every backend (pebs_backend.h): plan
 * programming with saved originals, restore, and dispatch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_int.h"
#include "cpulist.h"
#include "pebs_sim.h"

struct pebs_backend *bk_new(const struct bk_ops *ops,
			    const struct pebs_uarch *u, const int *cpus,
			    size_t n)
{
	struct pebs_backend *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->ops = ops;
	b->u = u;
	b->cpus = calloc(n ? n : 1, sizeof(int));
	b->ds = calloc(n ? n : 1, sizeof(*b->ds));
	if (!b->cpus || !b->ds) {
		free(b->cpus);
		free(b->ds);
		free(b);
		return NULL;
	}
	if (n)
		memcpy(b->cpus, cpus, n * sizeof(int));
	b->ncpus = n;
	return b;
}

struct cpu_acc {
	int *v;
	size_t n, cap;
	int oom;
};

static int cpu_add(void *ctx, unsigned cpu)
{
	struct cpu_acc *a = ctx;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		int *v = realloc(a->v, cap * sizeof(*v));
		if (!v) {
			a->oom = 1;
			return 1;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = (int)cpu;
	return 0;
}

int pebs_backend_online_cpus(const char *root, int **cpus, size_t *n,
			     char *err, size_t errlen)
{
	char path[600], *line = NULL;
	struct cpu_acc a = { NULL, 0, 0, 0 };
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	*cpus = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online",
		 root ? root : "");
	f = fopen(path, "r");
	if (!f) {
		/* No sysfs (a chroot): the count is all there is. */
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		for (long i = 0; i < (nc < 1 ? 1 : nc) && !a.oom; i++)
			cpu_add(&a, (unsigned)i);
	} else {
		errno = 0;
		len = getline(&line, &cap, f);
		if (len < 0 && errno) {
			snprintf(err, errlen, "%s: read error: %s", path,
				 strerror(errno));
			free(line);
			fclose(f);
			return errno == ENOMEM ? -PEBS_E_NOMEM : -PEBS_E_IO;
		}
		fclose(f);
		while (len > 0 && (line[len - 1] == '\n' ||
				   line[len - 1] == ' '))
			line[--len] = 0;
		if ((len <= 0 || meta_parse_cpulist(line, cpu_add, &a) < 0 ||
		     !a.n) && !a.oom) {
			snprintf(err, errlen, "%s: not a CPU list: \"%.64s\"",
				 path, len > 0 ? line : "");
			free(line);
			free(a.v);
			return -PEBS_E_IO;
		}
		free(line);
	}
	if (a.oom) {
		free(a.v);
		return -PEBS_E_NOMEM;
	}
	*cpus = a.v;
	*n = a.n;
	return 0;
}

void bk_err(struct pebs_backend *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err, sizeof(b->err), fmt, ap);
	va_end(ap);
}

const char *pebs_backend_name(const struct pebs_backend *b)
{
	return b->ops->name;
}

unsigned pebs_backend_caps(const struct pebs_backend *b)
{
	return b->ops->caps;
}

size_t pebs_backend_ncpus(const struct pebs_backend *b)
{
	return b->ncpus;
}

int pebs_backend_cpu(const struct pebs_backend *b, size_t i)
{
	return i < b->ncpus ? b->cpus[i] : -1;
}

int pebs_backend_rdmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		       uint64_t *v)
{
	if (!b->ops->rdmsr) {
		bk_err(b, "%s backend: no MSR access", b->ops->name);
		return -PEBS_E_UNSUPPORTED;
	}
	return b->ops->rdmsr(b, cpu, msr, v);
}

int pebs_backend_wrmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		       uint64_t v)
{
	if (!b->ops->wrmsr) {
		bk_err(b, "%s backend: no MSR access", b->ops->name);
		return -PEBS_E_UNSUPPORTED;
	}
	return b->ops->wrmsr(b, cpu, msr, v);
}

/* Reads and remembers @msr of @cpu unless already saved. */
static int save(struct pebs_backend *b, int cpu, uint32_t msr)
{
	uint64_t v;
	int r;

	for (size_t i = 0; i < b->nsaved; i++)
		if (b->saved[i].cpu == cpu && b->saved[i].msr == msr)
			return 0;
	if (b->nsaved == PEBS_BK_MAX_SAVED) {
		bk_err(b, "more than %u registers to save",
		       PEBS_BK_MAX_SAVED);
		return -PEBS_E_RANGE;
	}
	if (!b->saved) {
		b->saved = calloc(PEBS_BK_MAX_SAVED, sizeof(*b->saved));
		if (!b->saved)
			return -PEBS_E_NOMEM;
	}
	r = b->ops->rdmsr(b, cpu, msr, &v);
	if (r < 0)
		return r;
	b->saved[b->nsaved].cpu = cpu;
	b->saved[b->nsaved].msr = msr;
	b->saved[b->nsaved].value = v;
	b->nsaved++;
	return 0;
}

static int program_ds(struct pebs_backend *b, const struct pebs_plan *p,
		      size_t buf_size)
{
	size_t rec = pebs_ds_record_size(b->u, pebs_plan_data_cfg(p));
	int r;

	if (!buf_size)
		buf_size = b->u->pebs_fmt == PEBS_FMT_CORE2 ? 4096 :
			   PEBS_DS_DEFAULT_BUF;
	for (size_t i = 0; i < b->ncpus; i++) {
		struct pebs_ds_mem m;
		r = b->ops->ds_alloc(b, i, buf_size, &m);
		if (r < 0)
			return r;
		r = pebs_ds_init(&b->ds[i], &m, b->u, rec);
		if (r < 0) {
			bk_err(b, "CPU %d: DS buffer of %zu bytes cannot "
			       "hold 2 records of %zu bytes", b->cpus[i],
			       buf_size, rec);
			return r;
		}
		if (m.buf_size > b->copycap) {
			uint8_t *n = realloc(b->copy, m.buf_size);
			if (!n)
				return -PEBS_E_NOMEM;
			b->copy = n;
			b->copycap = m.buf_size;
		}
		for (size_t k = 0; k < pebs_plan_nresets(p); k++) {
			const struct pebs_ds_reset *rs = pebs_plan_reset(p, k);
			pebs_ds_set(&b->ds[i], rs->offset, rs->value);
		}
	}
	for (size_t w = 0; w < pebs_plan_nwrites(p); w++) {
		const struct pebs_msr_write *mw = pebs_plan_write(p, w);
		for (size_t i = 0; i < b->ncpus; i++) {
			uint64_t v = mw->value;
			if (mw->cpu >= 0 && mw->cpu != b->cpus[i])
				continue;
			if (mw->flags & PEBS_MW_DS_ADDR)
				v = b->ds[i].mem.area_addr;
			/* write-1-to-clear: there is nothing to restore */
			r = mw->msr == PEBS_MSR_GLOBAL_OVF ? 0 :
			    save(b, b->cpus[i], mw->msr);
			if (r < 0)
				return r;
			r = b->ops->wrmsr(b, b->cpus[i], mw->msr, v);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int pebs_backend_program(struct pebs_backend *b, const struct pebs_plan *p,
			 size_t buf_size)
{
	int r;

	if (b->programmed) {
		bk_err(b, "already programmed");
		return -PEBS_E_INVAL;
	}
	b->plan = p;
	b->programmed = 1;
	if (b->ops->program)
		r = b->ops->program(b, p);
	else
		r = program_ds(b, p, buf_size);
	if (r < 0) {
		char keep[sizeof(b->err)];
		memcpy(keep, b->err, sizeof(keep));
		pebs_backend_restore(b);
		memcpy(b->err, keep, sizeof(keep));
	}
	return r;
}

struct pebs_ds *pebs_backend_ds(struct pebs_backend *b, size_t i)
{
	if (!(b->ops->caps & PEBS_BK_DS) || i >= b->ncpus || !b->programmed)
		return NULL;
	return &b->ds[i];
}

int pebs_backend_ack(struct pebs_backend *b, size_t i)
{
	if (!(b->ops->caps & PEBS_BK_DS) || i >= b->ncpus)
		return 0;
	return b->ops->wrmsr(b, b->cpus[i], PEBS_MSR_GLOBAL_OVF,
			     PEBS_STATUS_DS_THRESH);
}

static void step(struct pebs_backend *b, size_t i, enum bk_step s)
{
	if (b->step_hook)
		b->step_hook(b, i, s, b->step_ctx);
}

int pebs_backend_take(struct pebs_backend *b, size_t i,
		      const uint8_t **recs, size_t *len, int *full)
{
	struct pebs_ds *ds = pebs_backend_ds(b, i);
	const uint8_t *p;
	int paused = 0, r, r2;

	*recs = NULL;
	*len = 0;
	*full = 0;
	if (!ds) {
		bk_err(b, "%s backend: no DS buffer on CPU index %zu",
		       b->ops->name, i);
		return -PEBS_E_INVAL;
	}
	/*
	 * The processor appends at the index for as long as it counts: a
	 * record it writes between the snapshot and the reset would be
	 * overwritten uncounted, and its own index update could race ours.
	 * So counting stops first (the kernel drains with GLOBAL_CTRL = 0
	 * too), the window holds only a copy, and decoding runs on the
	 * copy once counting goes on.  After restore the counters are no
	 * longer ours to start or stop.
	 */
	if (b->ops->pause && !b->restored) {
		r = b->ops->pause(b, i);
		if (r < 0)
			return r;
		paused = 1;
	}
	step(b, i, BK_STEP_PAUSED);
	r = pebs_ds_pending(ds, &p, len, full);
	step(b, i, BK_STEP_SNAPSHOT);
	if (r == 0 && *len > b->copycap) {
		/* cannot happen: pending stays inside the buffer */
		*len = 0;
		r = -PEBS_E_CORRUPT;
	}
	if (r == 0 && *len) {
		memcpy(b->copy, p, *len);
		*recs = b->copy;
	}
	step(b, i, BK_STEP_COPIED);
	if (r == -PEBS_E_CORRUPT) {
		/*
		 * The fields were changed behind our back: resetting only
		 * the index would leave a damaged base or maximum, so every
		 * later drain would be refused too, and a maximum moved up
		 * would let the processor write past the buffer.  Counting
		 * is stopped here: put back all four from our own layout.
		 */
		pebs_ds_set(ds, PEBS_DS_PEBS_BASE, ds->lay.base);
		pebs_ds_set(ds, PEBS_DS_PEBS_MAX, ds->lay.max);
		pebs_ds_set(ds, PEBS_DS_PEBS_THRESH, ds->lay.thresh);
	}
	/* Every record written (fixed formats: whole ones; adaptive
	 * records all have the size DATA_CFG gives) is in the copy. */
	pebs_ds_reset_index(ds, *len / ds->rec_size);
	step(b, i, BK_STEP_RESET);
	if (r == 0)
		r = pebs_backend_ack(b, i);
	if (paused) {
		r2 = b->ops->resume(b, i);
		if (r2 < 0 && r >= 0)
			r = r2;
	}
	step(b, i, BK_STEP_RESUMED);
	if (r < 0 && r != -PEBS_E_CORRUPT) {
		*recs = NULL;
		*len = 0;
	}
	return r;
}

int pebs_backend_wait(struct pebs_backend *b, int timeout_ms)
{
	return b->ops->wait(b, timeout_ms);
}

uint64_t pebs_backend_lost(const struct pebs_backend *b, size_t i)
{
	return b->ops->lost ? b->ops->lost(b, i) : 0;
}

uint64_t pebs_backend_throttled(const struct pebs_backend *b, size_t i,
				uint64_t *ns)
{
	*ns = 0;
	return b->ops->throttled ? b->ops->throttled(b, i, ns) : 0;
}

long pebs_backend_read(struct pebs_backend *b, size_t i,
		       struct pebs_batch *out)
{
	if (!b->ops->read)
		return -PEBS_E_UNSUPPORTED;
	return b->ops->read(b, i, out);
}

uint64_t pebs_backend_now(const struct pebs_backend *b)
{
	return b->ops->now ? b->ops->now(b) : 0;
}

int pebs_backend_restore(struct pebs_backend *b)
{
	int first = 0, r;

	if (b->restored)
		return 0;
	b->restored = 1;
	if (b->ops->stop) {
		r = b->ops->stop(b);
		if (r < 0)
			first = r;
	}
	if (!b->nsaved)
		return first;
	/*
	 * Stop counting before anything else changes (SDM 002), then undo
	 * the writes newest first, so GLOBAL_CTRL gets its original value
	 * last of all.  Only where GLOBAL_CTRL was saved: on a CPU that
	 * programming never reached, a 0 would stay there and stop
	 * someone else's counters (the NMI watchdog's, perf's).
	 */
	for (size_t i = 0; i < b->nsaved; i++) {
		const struct bk_saved *s = &b->saved[i];
		if (s->msr != PEBS_MSR_GLOBAL_CTRL)
			continue;
		r = b->ops->wrmsr(b, s->cpu, PEBS_MSR_GLOBAL_CTRL, 0);
		if (r < 0 && !first)
			first = r;
	}
	for (size_t i = b->nsaved; i-- > 0;) {
		const struct bk_saved *s = &b->saved[i];
		r = b->ops->wrmsr(b, s->cpu, s->msr, s->value);
		if (r < 0 && !first)
			first = r;
	}
	return first;
}

const char *pebs_backend_errmsg(const struct pebs_backend *b)
{
	return b->err;
}

void pebs_backend_close(struct pebs_backend *b)
{
	if (!b)
		return;
	pebs_backend_restore(b);
	if (b->ops->free)
		b->ops->free(b);
	free(b->saved);
	free(b->copy);
	free(b->ds);
	free(b->cpus);
	free(b);
}
