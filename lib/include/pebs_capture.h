/*
 * pebs_capture.h - the capture pipeline behind pebs-capture: event plan
 * (pebs_plan.h) -> backend register writes in plan order (pebs_backend.h)
 * -> run -> per-CPU drain of the DS buffer (pebs_ds.h) -> raw records
 * decoded (pebs_ds_decode) -> blocks encoded on worker threads -> the
 * streaming .pebs writer (flushed at least once a second), until the
 * duration ends, the command exits, the source ends or
 * the caller's stop flag is set; then every register written is restored
 * and the file finished.  formats/capture.md describes the behaviour.
 *
 * The library never prints: progress and the summary come back through
 * a callback and struct pebs_capture_stats.
 */
#ifndef PEBS_CAPTURE_H
#define PEBS_CAPTURE_H

#include <signal.h>
#include <stdio.h>

#include "pebs.h"
#include "pebs_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The sim's default period (no -c, no period= modifier).  Hardware's
 * (PEBS_PLAN_DEFAULT_PERIOD, 100003) suits billions of events a second;
 * the built-in workloads and a short traced program retire a few hundred
 * thousand to a few million accesses, which it samples a few times or
 * never.  199 (prime, so no loop stride aliases with it) gives hundreds
 * to a few thousand samples for each, without losses.
 */
#define PEBS_CAPTURE_SIM_PERIOD 199ull
/*
 * Hardware -- COMMAND: how long (ms) the capture waits for the command
 * to exit after a stop request passed on to it, the file finished; then
 * it is left running (st->cmd_left_running).
 */
#define PEBS_CAPTURE_CMD_WAIT_MS 2000

struct pebs_capture_stats {
	uint64_t samples;	/* written */
	uint64_t records;	/* raw records drained */
	uint64_t lost;		/* samples known lost (in band in file) */
	uint64_t dropped;	/* records the decoder could not attribute */
	uint64_t bytes;		/* bytes written */
	uint64_t blocks;
	uint64_t drains;	/* drain rounds */
	uint64_t full;		/* drains that found a DS buffer full: on
				 * hardware, samples may have been lost
				 * uncounted (the sim counts them) */
	uint64_t lost_est;	/* samples lost at full buffers, estimated
				 * from the records' times (TSC formats;
				 * pebs_ds_estimate_lost_tail()); on
				 * hardware (msr) also in @lost */
	uint64_t throttled;	/* perf: times the kernel throttled
				 * sampling (pebs_backend_throttled); the
				 * samples not taken then are not in @lost */
	double throttled_s;	/* perf: seconds spent throttled, summed
				 * over CPUs */
	double wall_s;		/* wall-clock seconds */
	double sim_s;		/* sim: simulated seconds covered */
	int lost_exceeded;	/* lost > max_lost (exit 4) */
	int cmd_status;		/* -- COMMAND: wait status, else -1 */
	int cmd_pid;		/* -- COMMAND: its pid, else 0 */
	int cmd_left_running;	/* hardware -- COMMAND: still running
				 * PEBS_CAPTURE_CMD_WAIT_MS after a stop
				 * request was passed on to it (or at a
				 * further request): left running, detached
				 * from ptrace and not waited for (the
				 * caller may reap cmd_pid); cmd_status -1 */
	int write_errno;	/* errno of a failed output write, else 0 */
	int input_bad;		/* the error is bad input data: the
				 * --trace (or the trace the -- COMMAND
				 * wrote) is not a valid trace */
	int trace_incomplete;	/* sim -- COMMAND: its trace was cut short
				 * (it was killed while writing it): what
				 * it holds was replayed, the capture ended
				 * there and returned 0 with the note
				 * "trace of CMD: line N: incomplete: ..."
				 * in its message buffer */
};

/* The stages of pebs_capture_opts.stage. */
enum pebs_capture_stage {
	/* the sim's --trace is about to be read: the backend, uarch,
	 * events, period and the CPU list's syntax were accepted (a CPU
	 * beyond the trace's machine is refused later, the trace read) */
	PEBS_CAPTURE_READ_TRACE = 1,
	/* the capture has started and its output is open (@out, or
	 * open_out's), nothing written yet: after every refusal of the
	 * options, workload, trace or backend */
	PEBS_CAPTURE_STARTED = 2,
};

typedef void (*pebs_capture_progress_fn)(void *ctx,
					 const struct pebs_capture_stats *st);

struct pebs_capture_opts {
	const char *backend;	/* "sim" (NULL = sim), "msr", "perf" */
	const char *const *events;	/* specs; none = the default event */
	size_t nevents;
	uint64_t period;	/* -c; 0 = PEBS_CAPTURE_SIM_PERIOD on the
				 * sim, PEBS_PLAN_DEFAULT_PERIOD on
				 * hardware */
	const char *cpus;	/* -C list, NULL = all */
	double duration;	/* -d seconds (sim: simulated); 0 = no limit */
	const char *uarch;	/* sim: profile, NULL = skx; hw: override */
	/*
	 * msr: program even where the probe (pebs_probe_analyze, over
	 * devroot) gives reasons against the msr backend (PTI, PEBS
	 * unavailable, counters in use, the NMI watchdog, no root, ...);
	 * without it such a capture is refused (-PEBS_E_UNSUPPORTED, the
	 * reasons in the message).  Errata that break PEBS and a record
	 * format that contradicts the detected profile stay refused.
	 * msr and perf: use a uarch other than the profile of the CPU the
	 * probe identifies; without it that is refused (-PEBS_E_INVAL,
	 * both names in the message).
	 */
	int force;
	const char *workload;	/* sim: scenario name */
	const char *trace;	/* sim: trace file to replay ("-" = stdin) */
	uint64_t seed;		/* sim: workload and tagging seed */
	uint64_t accesses;	/* sim: scenario length, 0 = its default */
	char *const *command;	/* -- COMMAND (NULL-terminated) or NULL */
	/*
	 * -- COMMAND: called in the command's process between fork and
	 * exec, async-signal-safe calls only: undoes what the caller
	 * changed in its own process that an exec would keep (an ignored
	 * SIGPIPE, a blocked signal), so that the command runs as it would
	 * outside the capture.  NULL: nothing to undo.
	 */
	void (*pre_exec)(void *ctx);
	void *pre_exec_ctx;
	uint64_t max_lost;	/* with max_lost_set: exit-4 threshold */
	int max_lost_set;
	/*
	 * 1: keep each record's register snapshot (adaptive profiles: ask
	 * for the GPR group); 0 drops it, as perf mem does: 18 columns
	 * less to store, encode and write.  The perf backend refuses 1.
	 */
	int regs;
	/*
	 * The .pebs stream (this or open_out).  Nothing is written to it
	 * before the first byte is due (below).
	 */
	FILE *out;
	/*
	 * Without @out: opens the stream when the first byte is due, once
	 * the capture has started: at its first block or lost record, its
	 * first flush (a second of wall time on hardware, a millisecond of
	 * simulated time on the sim), or the end of a capture that ended
	 * without an error.  So a capture refused for its options,
	 * workload, trace or backend (also one whose backend refuses the
	 * programming, or whose trace is bad from the start) never opens
	 * it, and an existing output file is left as it was.  NULL (with
	 * errno set) when it cannot.
	 */
	FILE *(*open_out)(void *ctx);
	void *open_ctx;
	/*
	 * Called once at each stage that @stage reaches (enum
	 * pebs_capture_stage), so that a note about the capture comes only
	 * after the options, events and uarch were accepted, not before a
	 * usage error.  NULL: none.
	 */
	void (*stage)(void *ctx, int stage);
	void *stage_ctx;
	const char *cmdline;	/* metadata "cmdline" */
	/*
	 * Set (made nonzero, or changed) asynchronously to stop.  With the
	 * sim and a command, a request made while the command runs ends
	 * its run only: the trace it wrote is then replayed in full unless
	 * the value changes again (and without a trace the capture ends
	 * empty, as interrupted).  With a command, each request seen while
	 * it runs is passed on to it (@stop_signal); on hardware the file
	 * is then finished before the capture waits for the command, at
	 * most PEBS_CAPTURE_CMD_WAIT_MS.
	 */
	volatile sig_atomic_t *stop;
	/*
	 * The signal a stop request is passed on to the -- COMMAND with
	 * (kill(2)), read when the request is seen: the one that made it;
	 * 0 passes nothing on (for a signal the caller knows reached the
	 * command already, such as one the terminal sent to the whole
	 * foreground process group).  NULL: SIGTERM.
	 */
	volatile sig_atomic_t *stop_signal;
	pebs_capture_progress_fn progress;	/* about once a second */
	void *progress_ctx;
	/* Tests and benchmarks. */
	const char *devroot;	/* msr: device root, see backend_msr; also
				 * the probe's root (msr, perf) and
				 * the sysfs root of the online CPUs
				 * (pebs_backend_online_cpus) without -C */
	size_t buf_size;	/* DS buffer bytes, 0 = default */
	unsigned tag_rate;	/* sim: 1-in-N load tagging, 0 = default */
	pebs_access_fn source;	/* sim: replaces the workload */
	void *source_ctx;
	unsigned source_ncpus;	/* CPUs of that source */
	int level;		/* zstd level, 0 = writer default */
	int threads;		/* block encoders: 0 = auto, < 0 = inline */
};

/*
 * Runs one capture.  Returns 0 (also when the stop flag ended it, and
 * when the loss exceeded max_lost: see st->lost_exceeded) with the totals
 * in @st, or a negative error with a message in @err (@errlen bytes):
 *   with st->input_bad: the trace's data is bad (-PEBS_E_PARSE,
 *          -PEBS_E_RANGE, -PEBS_E_FORMAT, -PEBS_E_VERSION; the message is
 *          "FILE: line N: WHY"; bad input, exit 1);
 *   -PEBS_E_INVAL / -PEBS_E_PARSE / -PEBS_E_RULE  bad options, events or
 *          a configuration the SDM forbids, a hardware capture's uarch
 *          that is not the probed CPU's without force (usage errors,
 *          exit 2);
 *   -PEBS_E_UNSUPPORTED  the backend cannot run here (no PMU, no msr
 *          device, no kernel module, unknown CPU, the probe's reasons
 *          against msr without force: exit 3);
 *   -PEBS_E_IO, -PEBS_E_NOMEM, others: system errors (exit 3), such as
 *          a trace that cannot be opened ("FILE: cannot open: WHY"), read
 *          ("FILE: read error: WHY") or that its program could not write
 *          ("FILE: line N: incomplete: its program could not write it:
 *          WHY").
 * Whatever was captured before an error is in the file, finished; an
 * error before the capture started leaves the output untouched
 * (open_out).
 */
int pebs_capture_run(const struct pebs_capture_opts *o,
		     struct pebs_capture_stats *st, char *err, size_t errlen);

/*
 * Writes the one-line summary of @st into @buf (@len bytes): "N samples,
 * N lost, N bytes, S s, N samples/s" (plus the simulated seconds for the
 * sim; DS buffers found full; perf: ", throttled N times for S s (samples
 * not taken, not counted as lost)" when the kernel throttled sampling), and
 * after a -- COMMAND ended "; command exit status N" or "; command killed
 * by SIGNAME".  The caller prints it.
 */
void pebs_capture_summary(const struct pebs_capture_stats *st, int is_sim,
			  char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
