/*
 * backend_int.h - the backend vtable behind pebs_backend.h (internal).
 */
#ifndef PEBS_BACKEND_INT_H
#define PEBS_BACKEND_INT_H

#include <linux/perf_event.h>

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
	/* perf: kernel throttling of CPU index @i (pebs_backend_throttled). */
	uint64_t (*throttled)(const struct pebs_backend *b, size_t i,
			      uint64_t *ns);
	uint64_t (*now)(const struct pebs_backend *b);
	/* perf: replaces the MSR programming / restoring. */
	int (*program)(struct pebs_backend *b, const struct pebs_plan *p);
	int (*stop)(struct pebs_backend *b);
	long (*read)(struct pebs_backend *b, size_t i, struct pebs_batch *o);
	void (*free)(struct pebs_backend *b);
	/*
	 * DS backends whose processor goes on writing records while user
	 * space drains (msr): stop and restart counting on CPU index @i
	 * around pebs_backend_take()'s snapshot, copy and reset of its
	 * buffer.  NULL: nothing runs meanwhile (the sim retires accesses
	 * only inside wait()).
	 */
	int (*pause)(struct pebs_backend *b, size_t i);
	int (*resume)(struct pebs_backend *b, size_t i);
};

/* Steps of pebs_backend_take(), for the test hook below. */
enum bk_step {
	BK_STEP_PAUSED,		/* after pause() (or where it would be) */
	BK_STEP_SNAPSHOT,	/* the index was read */
	BK_STEP_COPIED,		/* the records were copied out */
	BK_STEP_RESET,		/* the index was set back to the base */
	BK_STEP_RESUMED,	/* after resume(): counting again */
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
	uint8_t *copy;		/* pebs_backend_take()'s copy of a buffer */
	size_t copycap;
	/*
	 * Tests only: called at every step of pebs_backend_take(), so that
	 * a test can stand in for the processor at the moments hardware
	 * could write records (and see the order of the steps).
	 */
	void (*step_hook)(struct pebs_backend *b, size_t i, enum bk_step s,
			  void *ctx);
	void *step_ctx;
	void *priv;
	char err[512];
};

/* Allocates the common part with @n CPUs @cpus (copied). */
struct pebs_backend *bk_new(const struct bk_ops *ops,
			    const struct pebs_uarch *u, const int *cpus,
			    size_t n);
void bk_err(struct pebs_backend *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


/* What a perf ring says besides its samples, per event (bk_perf_parse). */
struct bk_perf_tally {
	uint64_t lost;		/* PERF_RECORD_LOST + PERF_RECORD_LOST_SAMPLES */
	uint64_t throttles;	/* PERF_RECORD_THROTTLE records */
	uint64_t throttled_ns;	/* THROTTLE to UNTHROTTLE, summed */
	uint64_t throttled_at;	/* time of a THROTTLE not yet undone */
	int throttled;		/* throttled_at is valid */
};

/*
 * Whether the kernel's PERF_SAMPLE_WEIGHT of a PEBS event of kind @k is
 * the record's latency: only for load and store latency events (Linux
 * ds.c sets it from the latency field for those alone); for every other
 * PEBS event of format 2 on it is the TSX weight, intel_get_tsx_weight():
 * cycles of the last transactional block.
 */
int bk_perf_wlat(enum pebs_uarch_kind k);

/*
 * perf ring parsing (backend_perf.c; exposed for unit tests): walks the
 * records of the ring @data (@size bytes, a power of two) from *@tail to
 * @head, appends every sample (sample_type IP|TID|TIME|ADDR|CPU|WEIGHT|
 * DATA_SRC) to @out with event id @ev, its WEIGHT as `lat` when @wlat
 * (bk_perf_wlat()) and else as the cycles of `tsx` (bits 31:0, `lat`
 * 0), adds the counts of
 * PERF_RECORD_LOST (ring full) and PERF_RECORD_LOST_SAMPLES (PEBS
 * records the kernel dropped) to @t->lost, counts PERF_RECORD_THROTTLE
 * and the time until the matching PERF_RECORD_UNTHROTTLE in @t, and
 * advances *@tail past what it used.  Stops early when @out is full or a
 * record is incomplete.  Returns the samples appended.
 */
size_t bk_perf_parse(const uint8_t *data, size_t size, uint64_t *tail,
		     uint64_t head, struct pebs_batch *out, int ev, int wlat,
		     struct bk_perf_tally *t);

/* One perf_event_open() of the perf backend on each CPU. */
struct bk_perf_open {
	struct perf_event_attr attr;	/* precise_ip 2 for samples: the
					 * backend retries 1 on EINVAL or
					 * EOPNOTSUPP (below) */
	int leader;	/* index of the open leading its group, -1: none */
	int plan_ev;	/* plan event index; -1 for an auxiliary event */
};

/*
 * The opens of plan @p for one CPU, in order (a group leader before its
 * members), into @o (@max entries): one sampling event per plan event;
 * before a load-latency event with an auxiliary event (pebs_plan_aux,
 * spr), that event as a counting group leader and the load-latency
 * event its member, as perf mem does: the kernel refuses a lone SPR
 * load-latency event with ENODATA.  Every later load-latency event of
 * the plan is a member of the same group.  Returns the number of opens,
 * or 0 when @max is too small.  Exposed for unit tests.
 */
size_t bk_perf_opens(const struct pebs_plan *p, struct bk_perf_open *o,
		     size_t max);

/*
 * Tests only: stands in for the perf_event_open(2) system call of the
 * perf backend (NULL: the real one), with its arguments and its result
 * (a file descriptor the backend mmaps, ioctls and closes; or -1 and
 * errno).  Precise levels above the PMU's (Linux x86_pmu_max_precise())
 * fail with EOPNOTSUPP from x86_pmu_hw_config, other invalid attributes
 * with EINVAL: the backend retries precise_ip 1 on either.
 */
extern long (*bk_perf_syscall)(struct perf_event_attr *a, int pid, int cpu,
			       int group_fd, unsigned long flags);

#endif
