/*
 * pebs_backend.h - what a capture drives: per-CPU MSR access, DS memory,
 * programming from a plan with every original register value kept for
 * restoring, waiting for the DS threshold interrupt (or a timeout), and
 * run/stop.  Three implementations:
 *
 *   sim   the simulated PMU (pebs_sim.h) fed by an access source;
 *   msr   real hardware: /dev/cpu/N/msr (pread/pwrite at the MSR number)
 *         and DS memory from the pebs_ds kernel module (kmod/);
 *   perf  perf_event_open(2) with precise_ip: the kernel owns the MSRs
 *         and the DS area, so this backend delivers decoded samples
 *         itself (PEBS_BK_SAMPLES) instead of DS records.
 *
 * The capture pipeline uses only the functions below; which backend it
 * drives shows only in pebs_backend_ds() returning NULL for perf.
 */
#ifndef PEBS_BACKEND_H
#define PEBS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_ds.h"
#include "pebs_plan.h"
#include "pebs_sim.h"
#include "pebs_workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pebs_backend_wait() results. */
#define PEBS_BK_TIMEOUT		0	/* nothing signalled */
#define PEBS_BK_PMI		1	/* some CPU signalled: drain */
#define PEBS_BK_END		2	/* the source ended: drain, stop */

/* Capabilities. */
#define PEBS_BK_DS		0x1u	/* DS records through MSRs */
#define PEBS_BK_SAMPLES		0x2u	/* decoded samples (perf) */

/* Most MSR writes remembered for restoring, per backend. */
#define PEBS_BK_MAX_SAVED	4096u

/* An access source for the sim: fills up to @max accesses, returns the
 * count, 0 at the end, or a negative error; -PEBS_E_AGAIN (a signal
 * interrupted the wait for more) ends the wait (PEBS_BK_TIMEOUT), and
 * the next wait asks again. */
typedef long (*pebs_access_fn)(void *ctx, struct pebs_access *a,
			       size_t max);

struct pebs_backend;

struct pebs_backend_sim_opts {
	struct pebs_sim *sim;	/* required; owned by the caller */
	pebs_access_fn next;	/* required */
	void *ctx;
	/* Simulated cycles one wait() advances at most (0 = 1 ms worth). */
	uint64_t quantum;
	/* Stop feeding at this cycle (0 = never): -d for the sim. */
	uint64_t stop_cycle;
};

/* Opens the sim backend over @o->sim for its CPUs 0..ncpus-1.
 * Returns 0 and *@b, or -PEBS_E_INVAL / -PEBS_E_NOMEM. */
int pebs_backend_open_sim(struct pebs_backend **b,
			  const struct pebs_backend_sim_opts *o);

/*
 * Opens the msr backend for CPUs @cpus (@n of them) of profile @u.
 * @root prefixes every device path ("" or NULL = the real ones; tests
 * use a directory of regular files): ROOT/dev/cpu/N/msr for each CPU,
 * ROOT/dev/pebs_ds for DS memory (kmod/pebs_ds.c; a regular file there
 * stands in for it, with fake processor addresses).  Returns 0 and *@b,
 * or -PEBS_E_UNSUPPORTED (no msr device or no kernel module: message says
 * which and how to get it), -PEBS_E_IO, -PEBS_E_NOMEM; message in @err.
 */
int pebs_backend_open_msr(struct pebs_backend **b, const char *root,
			  const struct pebs_uarch *u, const int *cpus,
			  size_t n, char *err, size_t errlen);

/*
 * Opens the perf backend for CPUs @cpus (@n; NULL = every online CPU,
 * pebs_backend_online_cpus): every process on them, or, when @pid > 0,
 * that process (and the threads and children it creates later) while it
 * runs on them.  A process's events are enabled by the kernel at its
 * next exec (enable_on_exec), not by pebs_backend_program(): hold it
 * before its exec until that has returned.  Nothing is opened until
 * pebs_backend_program().  Returns 0 and
 * *@b, -PEBS_E_NOMEM, or pebs_backend_online_cpus()'s error (message in
 * @err).
 */
int pebs_backend_open_perf(struct pebs_backend **b,
			   const struct pebs_uarch *u, const int *cpus,
			   size_t n, int pid, char *err, size_t errlen);

/*
 * The online CPUs, in order, from ROOT/sys/devices/system/cpu/online
 * (@root as for pebs_backend_open_msr: NULL or "" = the real file), a
 * CPU list such as "0-1,3-7": online CPUs need not be 0..N-1 (a CPU
 * taken offline leaves a hole).  Where that file cannot be opened (no
 * sysfs), 0 .. sysconf(_SC_NPROCESSORS_ONLN)-1.  Returns 0 with *@cpus
 * (malloc'd, the caller frees it) and *@n >= 1; -PEBS_E_IO when the file
 * cannot be read or is not a CPU list ("PATH: WHY" in @err, @errlen
 * bytes); -PEBS_E_NOMEM.
 */
int pebs_backend_online_cpus(const char *root, int **cpus, size_t *n,
			     char *err, size_t errlen);

/* "sim", "msr" or "perf". */
const char *pebs_backend_name(const struct pebs_backend *b);
/* PEBS_BK_DS or PEBS_BK_SAMPLES. */
unsigned pebs_backend_caps(const struct pebs_backend *b);
/* Number of CPUs, and the i-th CPU number (-1 when @i is out of range). */
size_t pebs_backend_ncpus(const struct pebs_backend *b);
int pebs_backend_cpu(const struct pebs_backend *b, size_t i);

/* RDMSR / WRMSR on CPU @cpu (not perf: -PEBS_E_UNSUPPORTED).  Returns 0
 * or a negative error with the message in pebs_backend_errmsg(). */
int pebs_backend_rdmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		       uint64_t *v);
int pebs_backend_wrmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		       uint64_t v);

/*
 * Programs @p (which must stay valid until close): DS backends allocate
 * each CPU's DS area and PEBS buffer (@buf_size bytes, 0 = default),
 * initialize it (pebs_ds_init, reset slots from the plan) and perform the
 * plan's MSR writes in order, with the CPU's DS address in the
 * IA32_DS_AREA write; before the first write of each MSR its value is
 * read and kept.  perf opens one event per plan event and CPU (and a
 * plan's auxiliary event as the group leader of the event it serves).
 * The plan's final GLOBAL_CTRL write starts counting.  On error, what
 * was written is restored.  Returns 0 or a negative error (message).
 */
int pebs_backend_program(struct pebs_backend *b, const struct pebs_plan *p,
			 size_t buf_size);

/* The DS state of CPU index @i (NULL for perf or out of range). */
struct pebs_ds *pebs_backend_ds(struct pebs_backend *b, size_t i);

/*
 * Acknowledges the threshold interrupt on CPU index @i after a drain:
 * clears GLOBAL_STATUS bit 62 through IA32_PERF_GLOBAL_OVF_CTRL (DS
 * backends; nothing for perf).  Returns 0 or a negative error.
 */
int pebs_backend_ack(struct pebs_backend *b, size_t i);

/*
 * DS backends: takes the records CPU index @i's processor wrote since
 * the last take, in one short window: counting stops on that CPU (msr:
 * IA32_PERF_GLOBAL_CTRL = 0 there; the sim writes nothing outside
 * pebs_backend_wait(), so nothing is stopped), the PEBS index is read
 * and checked (pebs_ds_pending), the records are copied out, the index
 * is set back to the base, the threshold interrupt acknowledged
 * (pebs_backend_ack), and counting restarts with the plan's
 * IA32_PERF_GLOBAL_CTRL value.  After pebs_backend_restore() nothing is
 * stopped or restarted.  *@recs (@len bytes, *@full as pebs_ds_pending)
 * is the backend's copy, valid until the next take on any CPU: decode
 * it while the processor runs again.  Returns 0; -PEBS_E_CORRUPT when
 * the index had left the buffer (nothing returned, the index is reset
 * and counting restarted); -PEBS_E_INVAL for perf or a bad @i; or an
 * MSR error (message).
 */
int pebs_backend_take(struct pebs_backend *b, size_t i,
		      const uint8_t **recs, size_t *len, int *full);

/*
 * Waits up to @timeout_ms of wall time (sim: simulated time, one quantum)
 * for a threshold interrupt.  Returns PEBS_BK_PMI, PEBS_BK_TIMEOUT,
 * PEBS_BK_END (sim: the source ended or stop_cycle was reached), or a
 * negative error.
 */
int pebs_backend_wait(struct pebs_backend *b, int timeout_ms);

/* Samples lost on CPU index @i that the backend knows of (sim: the
 * simulator's count at the absolute maximum; perf: PERF_RECORD_LOST and
 * PERF_RECORD_LOST_SAMPLES; msr: 0, see pebs_ds_estimate_lost()). */
uint64_t pebs_backend_lost(const struct pebs_backend *b, size_t i);

/*
 * perf: how often the kernel throttled sampling on CPU index @i
 * (PERF_RECORD_THROTTLE: more samples a second than
 * kernel.perf_event_max_sample_rate), with the time spent throttled in
 * *@ns (THROTTLE to UNTHROTTLE, or to now while still throttled).  No
 * samples are taken then and none are reported lost: the kernel does not
 * count them.  Other backends: 0, *@ns = 0.
 */
uint64_t pebs_backend_throttled(const struct pebs_backend *b, size_t i,
				uint64_t *ns);

/*
 * perf only: moves the samples waiting in CPU index @i's ring buffer
 * into @out (event names from the plan), up to its capacity.  Returns
 * the number moved or a negative error.
 */
long pebs_backend_read(struct pebs_backend *b, size_t i,
		       struct pebs_batch *out);

/* Current time in the file's time unit (TSC ticks; sim: its cycles;
 * perf: CLOCK_MONOTONIC ns, the samples' clock). */
uint64_t pebs_backend_now(const struct pebs_backend *b);

/*
 * Stops counting (GLOBAL_CTRL = 0 on every CPU, perf: disable) and then
 * writes back every saved original value in reverse order.  Safe to call
 * twice.  Returns 0 or the first error.
 */
int pebs_backend_restore(struct pebs_backend *b);

/* Message of the last error ("" if none). */
const char *pebs_backend_errmsg(const struct pebs_backend *b);

/* pebs_backend_restore() unless done, then frees @b.  NULL is fine. */
void pebs_backend_close(struct pebs_backend *b);

#ifdef __cplusplus
}
#endif

#endif
