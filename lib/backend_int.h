/*
 * backend_int.h - the backend vtable behind pebs_backend.h (internal).
 */
#ifndef PEBS_BACKEND_INT_H
#define PEBS_BACKEND_INT_H

#include "pebs_backend.h"

struct pebs_backend;

struct bk_ops {
	const char *name;
	unsigned caps;
	int (*rdmsr)(struct pebs_backend *b, int cpu, uint32_t msr,
		     uint64_t *v);
	int (*wrmsr)(struct pebs_backend *b, int cpu, uint32_t msr,
		     uint64_t v);
	int (*ds_alloc)(struct pebs_backend *b, size_t i, size_t size,
			struct pebs_ds_mem *m);
	int (*wait)(struct pebs_backend *b, int timeout_ms);
	uint64_t (*lost)(const struct pebs_backend *b, size_t i);
	uint64_t (*now)(const struct pebs_backend *b);
	/* perf: replaces the MSR programming / restoring. */
	int (*program)(struct pebs_backend *b, const struct pebs_plan *p);
	int (*stop)(struct pebs_backend *b);
	long (*read)(struct pebs_backend *b, size_t i, struct pebs_batch *o);
	void (*free)(struct pebs_backend *b);
};

struct bk_saved {
	int cpu;
	uint32_t msr;
	uint64_t value;
};

struct pebs_backend {
	const struct bk_ops *ops;
	const struct pebs_uarch *u;
	int *cpus;
	size_t ncpus;
	struct pebs_ds *ds;	/* per CPU index (DS backends) */
	struct bk_saved *saved;
	size_t nsaved;
	int restored, programmed;
	const struct pebs_plan *plan;
	void *priv;
	char err[512];
};

/* Allocates the common part with @n CPUs @cpus (copied). */
struct pebs_backend *bk_new(const struct bk_ops *ops,
			    const struct pebs_uarch *u, const int *cpus,
			    size_t n);
void bk_err(struct pebs_backend *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


/*
 * perf ring parsing (backend_perf.c; exposed for unit tests): walks the
 * records of the ring @data (@size bytes, a power of two) from *@tail to
 * @head, appends every sample (sample_type IP|TID|TIME|ADDR|CPU|WEIGHT|
 * DATA_SRC) to @out with event id @ev, adds PERF_RECORD_LOST counts to
 * *@lost, and advances *@tail past what it used.  Stops early when @out
 * is full or a record is incomplete.  Returns the samples appended.
 */
size_t bk_perf_parse(const uint8_t *data, size_t size, uint64_t *tail,
		     uint64_t head, struct pebs_batch *out, int ev,
		     uint32_t cpu_default, uint64_t *lost);

#endif
