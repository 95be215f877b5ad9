/*
 * capture.c - the capture pipeline (pebs_capture.h; formats/capture.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cloc.h"
#include "capture_int.h"
#include "pebs_capture.h"
#include "pebs_format.h"
#include "pebs_probe.h"
#include "pebs_uarch.h"
#include "workload_int.h"

#define WAIT_MS		100
/* Samples per block (the writer's default). */
#define CAP_BLOCK	65536u
/* sim: flush every 1 ms of simulated time. */
#define SIM_FLUSH_CYCLES (PEBS_SIM_TSC_HZ / 1000)
#define DEFAULT_SIM_UARCH "skx"

struct cap {
	const struct pebs_capture_opts *o;
	struct pebs_capture_stats *st;
	char *err;
	size_t errlen;
	int is_sim;
	int stage;		/* the last o->stage called */
	const struct pebs_uarch *u;
	struct pebs_plan *plan;
	struct pebs_workload *wl;
	struct pebs_sim *sim;
	struct pebs_backend *bk;
	struct pebs_writer *w;
	struct pebs_meta *meta;
	struct pebs_batch *batch;	/* being filled: one block */
	/* Filled during the current drain, held back until it is put in
	 * time order (drain_all): its samples start at drain_from of the
	 * first of them (or of batch). */
	struct pebs_batch **held;
	size_t nheld, capheld, drain_from;
	struct cap_enc *enc;
	struct pebs_raw_config *cfg;	/* per CPU index */
	struct pebs_raw_stats *rst;	/* per CPU index */
	uint64_t *lost_seen;		/* per CPU index: counted */
	uint64_t *lost_written;		/* per CPU index: in the file */
	uint64_t *lost_est;		/* per CPU index: estimated */
	char tracepath[4096];
	pid_t child;
	pid_t cmd_pid;			/* -- COMMAND: its pid, even reaped */
	/* hardware -- COMMAND forked, not yet released (hold_child): the
	 * write end of the socket it waits on before its exec, and the read
	 * end of the pipe that says whether it is traced, then its exec's
	 * errno (await_exec); -1 otherwise */
	int hold, gate;
	/* sim -- COMMAND: the stop flag when the command ended (a request
	 * made while it ran ended its run, not the replay), and whether
	 * the command was interrupted before it wrote any trace. */
	sig_atomic_t stop0;
	int interrupted;
	/* hardware -- COMMAND: it runs under ptrace; a stop request was
	 * passed on to it (the writer is finished before it is waited
	 * for) */
	int traced, passed;
	struct cmaps maps;		/* hardware -- COMMAND: its maps */
	size_t maps_in_head;		/* of them, in the current HEAD */
	struct pebs_writer_opts wo;
	uint64_t bytes0, blocks0;	/* of the segments finished */
	double t0, last_flush, last_progress;
	uint64_t flush_epoch;		/* sim: SIM_FLUSH_CYCLES periods */
};

static void cerr(struct cap *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cerr(struct cap *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
}

/* A failed write of the output: keep errno for the caller (a closed
 * pipe downstream is not an error of the capture). */
static void write_err(struct cap *c)
{
	int e = errno;
	cerr(c, "write: %s", pebs_writer_errmsg(c->w));
	c->st->write_errno = e;
}

/* Encoder threads: as asked, else one per spare CPU, at most 4. */
static unsigned enc_threads(const struct pebs_capture_opts *o)
{
	long n;

	if (o->threads)
		return o->threads < 0 ? 0 : (unsigned)o->threads;
	n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	return n < 1 ? 1 : n > 4 ? 4 : (unsigned)n;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *source_name(const struct cap *c, char *buf, size_t len);

/*
 * The sim's source.  A -- COMMAND's trace cut short (PEBS_E_TRUNCATED: the
 * command was killed while writing it) ends the replay where it ends, as
 * an interrupted capture: what it holds is replayed, and the capture says
 * that it is incomplete (st->trace_incomplete, the note in its message).
 */
static long wl_next(void *ctx, struct pebs_access *a, size_t max)
{
	struct cap *c = ctx;
	long n = pebs_workload_next(c->wl, a, max);
	char name[512];

	if (n != -PEBS_E_TRUNCATED || !c->o->command)
		return n;
	c->st->trace_incomplete = 1;
	cerr(c, "%s: %s; what it holds was replayed (an interrupted "
	     "capture)",
	     source_name(c, name, sizeof(name)),
	     pebs_workload_errmsg(c->wl));
	return 0;
}

/* ------------------------------------------------------------- setup */

/* In the command's process: when the capture writes to standard output,
 * the command's output goes to standard error instead of into the file. */
static void keep_stdout(const struct cap *c)
{
	if (c->o->out && fileno(c->o->out) == STDOUT_FILENO)
		dup2(STDERR_FILENO, STDOUT_FILENO);
}

/* In the command's process, just before its exec. */
static void child_pre_exec(const struct cap *c)
{
	keep_stdout(c);
	if (c->o->pre_exec)
		c->o->pre_exec(c->o->pre_exec_ctx);
}

/* The name of signal @sig for messages: "SIGABRT" (or "signal N"). */
static const char *sig_name(int sig, char *buf, size_t len)
{
	const char *n = sigabbrev_np(sig);
	if (n)
		snprintf(buf, len, "SIG%s", n);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

/*
 * In the command's process: execs it; when that fails, sends errno
 * through @fd (close-on-exec: the caller reads nothing once the exec has
 * succeeded) and exits 127.  It prints nothing: the library never does,
 * and the caller says it once (the command's own exit 127 is then not
 * taken for a failed exec).
 */
static void exec_command(const struct cap *c, int fd)
{
	int e;
	ssize_t n;

	execvp(c->o->command[0], c->o->command);
	e = errno;
	n = write(fd, &e, sizeof(e));
	(void)n;	/* nothing better to do: the caller sees exit 127 */
	_exit(127);
}

/* In the capture: the errno of a failed exec_command(), or 0 when the
 * exec succeeded.  Closes @fd. */
static int exec_errno(int fd)
{
	int e = 0;
	ssize_t n;

	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(fd);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/*
 * A stop request not yet passed on to the -- COMMAND @pid (@seen: the
 * flag's value last passed on): sent to it with the request's signal
 * (pebs_capture_opts.stop_signal), so that a request made to the capture
 * alone ends the command too.  Returns 1 when there was a request.
 */
static int pass_stop(struct cap *c, pid_t pid, sig_atomic_t *seen)
{
	const struct pebs_capture_opts *o = c->o;
	int sig;

	if (!o->stop || *o->stop == *seen)
		return 0;
	*seen = *o->stop;
	sig = o->stop_signal ? *o->stop_signal : SIGTERM;
	if (sig > 0 && pid > 0)
		kill(pid, sig);
	return 1;
}

/*
 * sim: waits for the -- COMMAND @pid (started when the stop flag was
 * @seen), passing the stop requests made meanwhile on to it.  The wait
 * wakes when it exits (a pidfd, where the kernel has them), at a signal,
 * or after WAIT_MS at most (10 ms without a pidfd): a request made just
 * before the wait began is not missed.
 */
static int wait_traced(struct cap *c, pid_t pid, sig_atomic_t seen,
		       int *status)
{
	int pfd = -1;
	pid_t p;

#ifdef SYS_pidfd_open
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	while ((p = waitpid(pid, status, WNOHANG)) != pid) {
		if (p < 0 && errno != EINTR) {
			cerr(c, "waitpid: %s", strerror(errno));
			if (pfd >= 0)
				close(pfd);
			return -PEBS_E_IO;
		}
		pass_stop(c, pid, &seen);
		if (pfd >= 0) {
			struct pollfd pf = { .fd = pfd, .events = POLLIN };
			poll(&pf, 1, WAIT_MS);
		} else {
			poll(NULL, 0, 10);
		}
	}
	if (pfd >= 0)
		close(pfd);
	return 0;
}

/*
 * sim with -- COMMAND: run it to the end with the trace runtime's
 * PEBS_TRACE_OUT pointing at a temporary file, then replay the trace.  A
 * stop request while it runs (a signal to the process group, or to
 * pebs-capture alone, passed on to it) ends its run only: the trace,
 * written at its exit, is what it traced; without one, the capture is
 * interrupted (empty).
 */
static int run_traced(struct cap *c)
{
	const char *tmp = getenv("TMPDIR"), *cmd = c->o->command[0];
	int fd, status, gate[2], e, r;
	sig_atomic_t seen = c->o->stop ? *c->o->stop : 0;
	struct stat sb;
	char sig[32];
	int env = tmp && *tmp;
	size_t n;
	pid_t pid;

	n = (size_t)snprintf(c->tracepath, sizeof(c->tracepath),
			     "%s/pebs-trace-XXXXXX", env ? tmp : "/tmp");

	/* The file's random name is no name the user typed: say what
	 * failed, and where the directory came from. */
	errno = ENAMETOOLONG;
	fd = n < sizeof(c->tracepath) ? mkstemp(c->tracepath) : -1;
	if (fd < 0) {
		cerr(c, "cannot create the trace file in %s%s%s: %s",
		     env ? "$TMPDIR (" : "", env ? tmp : "/tmp",
		     env ? ")" : "", strerror(errno));
		c->tracepath[0] = 0;
		return -PEBS_E_IO;
	}
	close(fd);
	if (pipe2(gate, O_CLOEXEC) < 0) {
		cerr(c, "pipe: %s", strerror(errno));
		return -PEBS_E_IO;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cerr(c, "fork: %s", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -PEBS_E_IO;
	}
	if (pid == 0) {
		child_pre_exec(c);
		setenv("PEBS_TRACE_OUT", c->tracepath, 1);
		exec_command(c, gate[1]);
	}
	c->cmd_pid = pid;
	c->st->cmd_pid = pid;
	close(gate[1]);
	e = exec_errno(gate[0]);
	r = wait_traced(c, pid, seen, &status);
	if (r < 0)
		return r;
	c->st->cmd_status = status;
	if (e) {
		cerr(c, "%s: cannot run: %s", cmd, strerror(e));
		return -PEBS_E_INVAL;
	}
	if (c->o->stop)
		c->stop0 = *c->o->stop;
	if (stat(c->tracepath, &sb) < 0 || sb.st_size > 0)
		return 0;	/* replayed (a vanished file: its message) */
	if (c->stop0) {
		c->interrupted = 1;
		return 0;
	}
	if (WIFSIGNALED(status))
		cerr(c, "%s: killed by %s before writing its trace "
		     "(libpebs-trace writes it at exit)", cmd,
		     sig_name(WTERMSIG(status), sig, sizeof(sig)));
	else
		cerr(c, "%s: wrote no trace: build it with -fsanitize=thread "
		     "and link libpebs-trace (formats/trace-format.md)", cmd);
	return -PEBS_E_INVAL;
}

/*
 * The name of the sim's access source in messages: the --trace file
 * ("standard input" for "-"), the -- COMMAND's trace, or the workload.
 */
static const char *source_name(const struct cap *c, char *buf, size_t len)
{
	const struct pebs_capture_opts *o = c->o;

	if (o->command)
		snprintf(buf, len, "trace of %s", o->command[0]);
	else if (o->trace)
		snprintf(buf, len, "%s", strcmp(o->trace, "-") ? o->trace :
			 "standard input");
	else
		snprintf(buf, len, "workload %s", o->workload ? o->workload :
			 "");
	return buf;
}

/*
 * The access source failed with @r: its message names the line, this
 * names the source.  Bad trace data is bad input (st->input_bad), a read
 * error or a lack of memory is not (nor a trace whose program could not
 * write it: its "error" line).
 */
static void source_failed(struct cap *c, int r)
{
	char name[512];

	c->st->input_bad = r != -PEBS_E_IO && r != -PEBS_E_NOMEM;
	cerr(c, "%s: %s", source_name(c, name, sizeof(name)),
	     pebs_workload_errmsg(c->wl));
}

/* o->stage(@stage), once. */
static void tell_stage(struct cap *c, int stage)
{
	if (c->o->stage && c->stage < stage) {
		c->stage = stage;
		c->o->stage(c->o->stage_ctx, stage);
	}
}

static int setup_sim(struct cap *c, unsigned *ncpus)
{
	const struct pebs_capture_opts *o = c->o;
	struct pebs_workload_opts wo = { .seed = o->seed,
					 .accesses = o->accesses };
	const char *nr;
	int r;

	if (o->source) {
		*ncpus = o->source_ncpus ? o->source_ncpus : 1;
		return 0;
	}
	if (!!o->command + !!o->workload + !!o->trace > 1) {
		cerr(c, "--workload, --trace and -- COMMAND exclude each "
		     "other");
		return -PEBS_E_INVAL;
	}
	if (o->command) {
		static const char none[] = "pebs-trace 1\n";
		FILE *fp;
		r = run_traced(c);
		if (r < 0)
			return r;
		/* Interrupted before it traced anything: an empty trace
		 * stands for it, so the file has the machine's metadata. */
		if (!c->interrupted)
			r = pebs_workload_open_trace(&c->wl, c->tracepath,
						     &wo);
		else if (!(fp = fmemopen((void *)none, sizeof(none) - 1,
					 "r")))
			r = -PEBS_E_NOMEM;
		else
			r = workload_open_trace_fp(&c->wl, fp, 1,
						   c->tracepath, &wo);
	} else if (o->trace) {
		tell_stage(c, PEBS_CAPTURE_READ_TRACE);
		r = pebs_workload_open_trace(&c->wl, o->trace, &wo);
	} else if (!o->workload) {
		cerr(c, "-b sim needs --workload NAME, --trace FILE or -- "
		     "COMMAND");
		return -PEBS_E_INVAL;
	} else {
		r = pebs_workload_open(&c->wl, o->workload, &wo);
	}
	if (r < 0) {
		if (r == -PEBS_E_INVAL && o->workload) {
			char names[256] = "";
			const char *const *n = pebs_workload_names();
			for (; n && *n; n++) {
				strncat(names, names[0] ? " " : "",
					sizeof(names) - strlen(names) - 1);
				strncat(names, *n,
					sizeof(names) - strlen(names) - 1);
			}
			cerr(c, "--workload: unknown workload \"%s\" (one "
			     "of: %s)", o->workload, names);
		} else {
			int e = errno;	/* open_trace keeps it on -PEBS_E_IO */
			char name[512];
			source_name(c, name, sizeof(name));
			if (r == -PEBS_E_IO)
				cerr(c, "%s: cannot open: %s", name,
				     strerror(e ? e : EIO));
			else
				cerr(c, "%s: %s", name, pebs_strerror(r));
		}
		return r;
	}
	r = pebs_workload_meta(c->wl, c->meta);
	/* The trace names no process (formats/trace-format.md): the name the
	 * kernel gave the command's exec, for its pid (libpebs-trace's). */
	if (!r && o->command && c->cmd_pid > 0)
		r = cmaps_comm(c->meta, NULL, c->cmd_pid, 0, o->command[0]);
	if (r < 0)
		return r;
	nr = pebs_meta_get(c->meta, "topology.nr_cpus");
	*ncpus = nr ? (unsigned)strtoul(nr, NULL, 10) : 0;
	if (*ncpus == 0)
		*ncpus = 8;
	return 0;
}

/*
 * May the msr backend program this machine (probe verdict @pr)?  Never
 * where errata break PEBS, nor (with the probe's own profile) where the
 * processor's record format contradicts the profile: the drain would
 * decode garbage.  Else not while the probe has any reason against msr
 * (PTI, PEBS unavailable, counters someone else enabled, the NMI
 * watchdog sharing the PMI, ...), --uarch or not, unless o->force: each
 * of these breaks the capture or another user of the PMU.
 */
static int msr_allowed(struct cap *c, const struct pebs_probe_result *pr)
{
	const struct pebs_probe_backend *m = &pr->backend[1];
	const char *never = pr->pebs_broken[0] ? pr->pebs_broken :
			    c->o->uarch ? "" : pr->uarch_why;
	size_t n;

	if (never[0]) {
		cerr(c, "msr backend: %s (see pebs-capture --probe)", never);
		return -PEBS_E_UNSUPPORTED;
	}
	if (!m->nreasons || c->o->force)
		return 0;
	cerr(c, "msr backend refused (pebs-capture --probe; --force "
	     "programs it anyway):");
	n = strlen(c->err);
	for (unsigned i = 0; i < m->nreasons && n < c->errlen; i++) {
		int w = snprintf(c->err + n, c->errlen - n, "%s %s",
				 i ? ";" : "", m->reasons[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return -PEBS_E_UNSUPPORTED;
}

/*
 * A --uarch profile @u other than the one of the CPU the probe @pr
 * identified: the events would be opened with @u's encodings and their
 * records (msr) or data sources (perf) decoded by @u's tables, silently
 * wrong.  A usage error unless o->force; so is any --uarch (every profile
 * is Intel's) on a CPU of another vendor, whose PMU would be programmed
 * with Intel event encodings.  An Intel CPU without a profile (a model
 * this build does not know, hybrid parts) is what --uarch is for, and so
 * is one the probe could not identify at all.
 */
static int uarch_matches(struct cap *c, const struct pebs_probe_result *pr)
{
	if (c->o->force)
		return 0;
	if (pr->vendor[0] && strcmp(pr->vendor, "GenuineIntel") != 0) {
		cerr(c, "--uarch %s: this CPU (%s family %u model 0x%02x) is "
		     "not Intel; -b %s would use %s's event encodings and "
		     "data-source decoding on it (--force to use %s anyway)",
		     c->u->name, pr->vendor, pr->family, pr->model,
		     c->o->backend, c->u->name, c->u->name);
		return -PEBS_E_INVAL;
	}
	if (!pr->uarch || pr->uarch == c->u)
		return 0;
	cerr(c, "--uarch %s: this CPU (family %u model 0x%02x) is %s; -b %s "
	     "would use %s's event encodings and data-source decoding on "
	     "it (--force to use %s anyway)", c->u->name, pr->family,
	     pr->model, pr->uarch->name, c->o->backend, c->u->name,
	     c->u->name);
	return -PEBS_E_INVAL;
}

static int pick_uarch(struct cap *c)
{
	const struct pebs_capture_opts *o = c->o;
	int msr = o->backend && !strcmp(o->backend, "msr");
	struct pebs_probe_facts f;
	struct pebs_probe_result pr;
	int r;

	if (o->uarch || c->is_sim) {
		const char *name = o->uarch ? o->uarch : DEFAULT_SIM_UARCH;
		c->u = pebs_uarch_by_name(name);
		if (!c->u) {
			/* the names, as --plan and --workload list theirs */
			char names[256];
			cerr(c, "--uarch: unknown microarchitecture \"%s\" "
			     "(one of: %s)", name,
			     pebs_uarch_names(names, sizeof(names)));
			return -PEBS_E_INVAL;
		}
		/* hardware: the profile is given, the machine (and for msr
		 * its hazards) still the probe's to find */
		if (c->is_sim)
			return 0;
	}
	/* The msr backend's device root stands in for the machine's
	 * files here too (tests). */
	if (pebs_probe_gather(&f, o->devroot) < 0) {
		cerr(c, "cannot identify this CPU");
		return -PEBS_E_UNSUPPORTED;
	}
	pebs_probe_analyze(&f, &pr);
	if (!c->u && !pr.uarch) {
		cerr(c, "no PEBS profile for this CPU: %s (see pebs-capture "
		     "--probe; -b sim runs anywhere)", pr.uarch_why);
		return -PEBS_E_UNSUPPORTED;
	}
	if (c->u) {
		r = uarch_matches(c, &pr);
		if (r < 0)
			return r;
	}
	if (msr) {
		r = msr_allowed(c, &pr);
		if (r < 0)
			return r;
	}
	if (!c->u)
		c->u = pr.uarch;
	return 0;
}

static int build_plan(struct cap *c, int **cl, size_t *ncl)
{
	const struct pebs_capture_opts *o = c->o;
	/* period= modifiers still override the default, on either. */
	struct pebs_plan_opts po = { .uarch = c->u, .period = o->period ?
				     o->period : c->is_sim ?
				     PEBS_CAPTURE_SIM_PERIOD : 0,
				     .regs = o->regs,
				     .period_default = !o->period };
	const char *defev[1];
	const char *const *ev = o->events;
	size_t nev = o->nevents;
	enum pebs_rule rule;
	int r;

	if (o->cpus) {
		char why[256];
		r = pebs_plan_parse_cpus(o->cpus, cl, ncl, why, sizeof(why));
		if (r < 0) {
			cerr(c, "-C: %s", why);
			return r;
		}
		po.cpus = *cl;
		po.ncpus = *ncl;
	}
	if (nev == 0) {
		/* Default: load latency where the hardware has it, else
		 * the portable store event. */
		if (!c->u->ldlat_counters &&
		    !pebs_uarch_event_by_kind(c->u, PEBS_EVK_PRECISE_STORE) &&
		    !pebs_uarch_event_by_kind(c->u, PEBS_EVK_DATALA_STORE)) {
			cerr(c, "plan: no default event on %s (it has neither "
			     "load latency nor store sampling): name a PEBS "
			     "event with -e", c->u->name);
			return -PEBS_E_INVAL;
		}
		defev[0] = c->u->ldlat_counters ? "load-latency" :
			   "precise-store";
		ev = defev;
		nev = 1;
	}
	r = pebs_plan_build(&c->plan, &po, ev, nev, &rule, c->err,
			    c->errlen);
	if (r < 0) {
		/* "plan: rule NAME: WHY", as pebs-capture --plan says it */
		char why[512];
		snprintf(why, sizeof(why), "%s", c->err);
		cerr(c, "plan: %s", why);
	}
	return r;
}

/*
 * perf: the kernel assigns the counters, so an event's pmc= cannot be
 * honoured; refused rather than ignored (the plan, and a file's
 * metadata, would name a counter the kernel did not use).  Specs that do
 * not parse are left to the plan, which says why.
 */
static int refuse_pmc(struct cap *c)
{
	const struct pebs_capture_opts *o = c->o;
	struct pebs_event_spec sp;

	if (!o->backend || strcmp(o->backend, "perf"))
		return 0;
	for (size_t e = 0; e < o->nevents; e++)
		if (pebs_event_parse(o->events[e], &sp, NULL, 0) == 0 &&
		    (sp.mods & PEBS_MOD_PMC)) {
			cerr(c, "-e %s: pmc= does not apply to -b perf: the "
			     "kernel assigns the counters (-b msr and -b sim "
			     "take it)", o->events[e]);
			return -PEBS_E_INVAL;
		}
	return 0;
}

/*
 * The plan's metadata (pebs_plan_to_meta) into @m; perf without the keys
 * that say what the plan would program, events.N.counter and plan.N.*:
 * the kernel chose the counters and wrote the MSRs, not the plan.
 */
static int plan_meta(struct cap *c, struct pebs_meta *m)
{
	struct pebs_meta *pm;
	int r;

	if (!(pebs_backend_caps(c->bk) & PEBS_BK_SAMPLES))
		return pebs_plan_to_meta(c->plan, m);
	pm = pebs_meta_new();
	if (!pm)
		return -PEBS_E_NOMEM;
	r = pebs_plan_to_meta(c->plan, pm);
	for (size_t i = 0; r == 0 && i < pebs_meta_count(pm); i++) {
		const char *k, *v;
		size_t n;
		pebs_meta_entry(pm, i, &k, &v);
		n = strlen(k);
		if (!strncmp(k, "plan.", 5) || (!strncmp(k, "events.", 7) &&
		    n > 8 && !strcmp(k + n - 8, ".counter")))
			continue;
		if (pebs_meta_set(m, k, v) < 0)
			r = -PEBS_E_NOMEM;
	}
	pebs_meta_free(pm);
	return r;
}

static int add_meta(struct cap *c)
{
	const struct pebs_capture_opts *o = c->o;
	struct pebs_meta *m = c->meta;
	char host[256] = "unknown", tbuf[64];
	time_t t = c->is_sim ? 0 : time(NULL);
	struct tm tm;
	int r = 0;

	gethostname(host, sizeof(host) - 1);
	/* sim: start_time is the simulated clock's origin (TSC 0), so the
	 * same seed gives the same file. */
	gmtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	r |= pebs_meta_set(m, "source", pebs_backend_name(c->bk));
	r |= pebs_meta_set(m, "host", host);
	if (o->cmdline)
		r |= pebs_meta_set(m, "cmdline", o->cmdline);
	r |= pebs_meta_set(m, "start_time", tbuf);
	if (c->is_sim) {
		r |= pebs_meta_set(m, "cpu.vendor", "GenuineIntel");
		r |= pebs_meta_setf(m, "cpu.family", "%u", c->u->family);
		if (c->u->nmodels)
			r |= pebs_meta_setf(m, "cpu.model", "%u",
					    c->u->models[0]);
		r |= pebs_meta_setf(m, "cpu.name", "simulated %s",
				    c->u->desc);
		if (o->workload) {
			r |= pebs_meta_set(m, "sim.workload", o->workload);
			/* Said rather than invented: symbols for a built-in
			 * workload's ips are workload.ips.N.*. */
			r |= pebs_meta_set(m, "sim.maps", "none: a built-in "
					   "workload has no real process "
					   "(its ips: workload.ips.N)");
		}
		r |= pebs_meta_setf(m, "sim.seed", "%llu",
				    (unsigned long long)o->seed);
	}
	r |= pebs_meta_setf(m, "pebs.format", "%u", c->u->pebs_fmt);
	if (pebs_backend_caps(c->bk) & PEBS_BK_SAMPLES) {
		r |= pebs_meta_set(m, "time.unit", "ns");
	} else {
		r |= pebs_meta_set(m, "time.unit", "tsc");
		if (c->is_sim)
			r |= pebs_meta_setf(m, "tsc.hz", "%llu",
					    PEBS_SIM_TSC_HZ);
	}
	if (r)
		return -PEBS_E_NOMEM;
	return plan_meta(c, m);
}

static int setup_cfg(struct cap *c)
{
	size_t n = pebs_backend_ncpus(c->bk);

	c->cfg = calloc(n, sizeof(*c->cfg));
	c->rst = calloc(n, sizeof(*c->rst));
	c->lost_seen = calloc(n, sizeof(*c->lost_seen));
	c->lost_written = calloc(n, sizeof(*c->lost_written));
	c->lost_est = calloc(n, sizeof(*c->lost_est));
	if (!c->cfg || !c->rst || !c->lost_seen || !c->lost_written ||
	    !c->lost_est)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		struct pebs_raw_config *cf = &c->cfg[i];
		cf->uarch = c->u;
		cf->data_cfg = pebs_plan_data_cfg(c->plan);
		cf->data_cfg_known = (c->u->features & PEBS_UF_ADAPTIVE) != 0;
		cf->drop_regs = !c->o->regs;
		cf->cpu = (uint32_t)pebs_backend_cpu(c->bk, i);
		for (size_t e = 0; e < pebs_plan_nevents(c->plan); e++) {
			const struct pebs_plan_event *pe =
				pebs_plan_event(c->plan, e);
			cf->pebs_enabled |= 1ull << pe->counter;
			cf->ev[pe->counter].name = pe->ev.name;
			cf->ev[pe->counter].kind = (uint8_t)pe->ev.kind;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- drain */

/* ------------------------------------------------------------ output */

/*
 * Opens the writer (a new segment) with the metadata and the maps known
 * now.  Only once the capture has really started: at its first block,
 * lost record or flush (a second of wall time on hardware, a millisecond
 * of simulated time on the sim), or at the end of a capture that ended
 * without an error.  A capture refused late (a backend that refuses the
 * programming, a trace that is bad from the start) has then written
 * nothing: an existing output file is left as it was and nothing goes
 * down a pipe.  A hardware capture of a -- COMMAND so also has the maps
 * of the running (or just exited) program in its first header.
 */
static int open_writer(struct cap *c)
{
	int r;

	if (c->w)
		return 0;
	if (c->child > 0)
		cmaps_read_proc(&c->maps, NULL, c->child);
	/* its name and its threads' (or, reaped, the name of its exec) */
	if (!c->is_sim && c->cmd_pid > 0) {
		r = cmaps_comm(c->meta, NULL, c->cmd_pid, c->child > 0,
			       c->o->command[0]);
		if (r < 0)
			return r;
	}
	if (c->maps.n) {
		r = cmaps_meta(&c->maps, c->meta);
		if (r < 0)
			return r;
		c->maps_in_head = c->maps.n;
	}
	FILE *fp = c->o->out;
	if (!fp && !(fp = c->o->open_out(c->o->open_ctx))) {
		cerr(c, "cannot open the output: %s", strerror(errno));
		return -PEBS_E_IO;
	}
	tell_stage(c, PEBS_CAPTURE_STARTED);
	r = pebs_writer_open(&c->w, fp, c->meta, &c->wo);
	if (r < 0)
		cerr(c, "cannot start the output: %s", pebs_strerror(r));
	return r;
}

static int sync_out(struct cap *c);
static int emit_lost(struct cap *c);
static int child_poll(struct cap *c, int flags);

/*
 * The command mapped new files since the current segment began: finish
 * it and start another whose header has every map seen so far (a reader
 * takes each segment's metadata for that segment's samples).
 */
static int new_segment(struct cap *c)
{
	struct pebs_write_stats ws;
	int r;

	if (!c->w || c->maps.n == c->maps_in_head)
		return 0;
	r = emit_lost(c);
	if (r == 0)
		r = sync_out(c);
	if (r < 0)
		return r;
	r = pebs_writer_finish(c->w);
	if (r < 0) {
		write_err(c);
		return r;
	}
	pebs_writer_stats(c->w, &ws);
	c->bytes0 += ws.bytes;
	c->blocks0 += ws.blocks;
	pebs_writer_close(c->w);
	c->w = NULL;
	return open_writer(c);
}

/* Hands batch @b (ownership passes) to the encoders, opening the
 * output first if need be. */
static int submit(struct cap *c, struct pebs_batch *b)
{
	int r, werr = 0;
	size_t n = b->n;

	if (!c->w && (r = open_writer(c)) < 0) {
		pebs_batch_free(b);
		return r;
	}
	r = cenc_submit(c->enc, b, c->w, &werr);
	if (r < 0) {
		if (werr)
			write_err(c);
		else
			cerr(c, "encoding: %s", pebs_strerror(r));
		return r;
	}
	c->st->samples += n;
	return 0;
}

/* Hands the current batch (a block's worth at most), if it holds
 * samples, to the encoders and starts a new one. */
static int flush_batch(struct cap *c)
{
	struct pebs_batch *b = c->batch;
	int r;

	if (b->n == 0)
		return 0;
	c->batch = cenc_batch(c->enc);
	r = submit(c, b);
	if (r == 0 && !c->batch) {
		cerr(c, "encoding: %s", pebs_strerror(-PEBS_E_NOMEM));
		r = -PEBS_E_NOMEM;
	}
	return r;
}

/* The current batch is full in the middle of a drain: held back (the
 * drain is not in time order yet), a new one started. */
static int hold_batch(struct cap *c)
{
	struct pebs_batch *nb;

	if (c->nheld == c->capheld) {
		size_t cap = c->capheld ? 2 * c->capheld : 4;
		struct pebs_batch **h = realloc(c->held, cap * sizeof(*h));
		if (!h)
			goto nomem;
		c->held = h;
		c->capheld = cap;
	}
	nb = cenc_batch(c->enc);
	if (!nb)
		goto nomem;
	c->held[c->nheld++] = c->batch;
	c->batch = nb;
	return 0;
nomem:
	cerr(c, "encoding: %s", pebs_strerror(-PEBS_E_NOMEM));
	return -PEBS_E_NOMEM;
}

/*
 * The end of a drain: its samples (from drain_from of the first batch
 * held, or of the current one, to the end of the current one) put in
 * time order across CPUs, then the full batches handed on.  The held
 * batches go out even when the order cannot be made (no memory).
 */
static int order_drain(struct cap *c)
{
	int r = 0, r2;

	if (c->nheld && c->nheld == c->capheld) {
		struct pebs_batch **h = realloc(c->held, (c->capheld + 1) *
						sizeof(*h));
		if (h) {
			c->held = h;
			c->capheld++;
		} else {
			r = -PEBS_E_NOMEM;
		}
	}
	if (r == 0 && c->nheld) {
		/* the current batch last, behind the held ones */
		c->held[c->nheld] = c->batch;
		r = cenc_order(c->enc, c->held, c->nheld + 1, c->drain_from);
	} else if (r == 0) {
		r = cenc_order(c->enc, &c->batch, 1, c->drain_from);
	}
	if (r < 0)
		cerr(c, "ordering the drain: %s", pebs_strerror(r));
	for (size_t k = 0; k < c->nheld; k++) {
		r2 = submit(c, c->held[k]);
		if (r2 < 0) {
			/* the writer or the encoders failed: no more */
			for (size_t j = k + 1; j < c->nheld; j++)
				pebs_batch_free(c->held[j]);
			r = r < 0 ? r : r2;
			break;
		}
	}
	c->nheld = 0;
	return r;
}

/*
 * At a flush: opens the output if need be (the capture has run a flush
 * interval without an error: its header is due) and hands the current
 * batch to the encoders without waiting for them: block boundaries stay
 * where the flushes fall, so a sim capture's file depends only on its
 * seed.
 */
static int flush_out(struct cap *c)
{
	int r = open_writer(c);

	return r < 0 ? r : flush_batch(c);
}

/* Writes the blocks and lost records already encoded, in order; with
 * @wait, every one submitted so far. */
static int retire_out(struct cap *c, int wait)
{
	int werr = 0;
	int r = wait ? cenc_sync(c->enc, c->w, &werr) :
		cenc_poll(c->enc, c->w, &werr);

	if (r < 0 && werr)
		write_err(c);
	else if (r < 0)
		cerr(c, "encoding: %s", pebs_strerror(r));
	return r;
}

/* Everything so far encoded and written, in order. */
static int sync_out(struct cap *c)
{
	int r = flush_batch(c);

	return r < 0 ? r : retire_out(c, 1);
}

/* Fills what records do not carry: the drain time where the format has
 * no TSC. */
static void fixup(struct cap *c, size_t from, uint64_t t)
{
	struct pebs_batch *b = c->batch;
	int any = 0;
	for (size_t k = from; k < b->n; k++)
		if (!(b->c32[PEBS_COL_FLAGS][k] & PEBS_SF_TSC)) {
			b->c64[PEBS_COL_TIME][k] = t;
			any = 1;
		}
	if (any)
		b->dirty |= 1ull << PEBS_COL_TIME;
}

/* Time span of the samples of one drain (with a TSC). */
struct span {
	uint64_t tmin, tmax, n;
};

static void span_add(const struct pebs_batch *b, size_t from,
		     struct span *sp)
{
	for (size_t k = from; k < b->n; k++) {
		uint64_t t = b->c64[PEBS_COL_TIME][k];
		if (!(b->c32[PEBS_COL_FLAGS][k] & PEBS_SF_TSC))
			continue;
		if (!sp->n++ || t < sp->tmin)
			sp->tmin = t;
		if (t > sp->tmax)
			sp->tmax = t;
	}
}

/*
 * Decodes the records @recs (@len bytes, at processor address @addr) of
 * CPU index @i into batches.  On the sim, pid and tid come from what it
 * knows ran (pebs_sim_owner: the OS's view; adaptive records without
 * GPRs carry neither), run by run of records of one thread.  With @sp
 * (a full buffer), the samples' time span is gathered for the loss
 * estimate.
 */
static int decode_recs(struct cap *c, size_t i, const uint8_t *recs,
		       size_t len, uint64_t addr, uint64_t t,
		       struct span *sp)
{
	size_t off = 0;
	int r;

	while (off < len) {
		size_t used = 0, from = c->batch->n, chunk = len - off;
		char derr[256];
		if (c->sim) {
			uint32_t pid, tid;
			size_t run = pebs_sim_owner(c->sim, addr + off, chunk,
						    &pid, &tid);
			if (run)
				chunk = run;
			c->cfg[i].pid = pid;
			c->cfg[i].tid = tid;
		}
		r = pebs_ds_decode(&c->cfg[i], recs + off, chunk, c->batch,
				    &used, &c->rst[i], derr, sizeof(derr));
		fixup(c, from, t);
		if (sp)
			span_add(c->batch, from, sp);
		off += used;
		if (r == -PEBS_E_NOMEM) {
			/* not a bad record: the samples would be missing */
			cerr(c, "decoding records: out of memory");
			return r;
		}
		if (r < 0 || (used == 0 && from == 0)) {
			/* A record that cannot be framed: what follows
			 * cannot be found either. */
			c->st->dropped++;
			break;
		}
		/* Stopped short of the chunk: the batch is full. */
		if (used < chunk && (r = hold_batch(c)) < 0)
			return r;
	}
	return 0;
}

static int drain_cpu(struct cap *c, size_t i)
{
	struct pebs_ds *ds = pebs_backend_ds(c->bk, i);
	uint64_t t = pebs_backend_now(c->bk), lost;
	const uint8_t *recs;
	size_t len;
	int full, r;

	if (!ds) {
		long n;
		do {
			if (c->batch->n == c->batch->cap &&
			    (r = hold_batch(c)) < 0)
				return r;
			n = pebs_backend_read(c->bk, i, c->batch);
			if (n < 0) {
				cerr(c, "%s", pebs_backend_errmsg(c->bk));
				return (int)n;
			}
		} while (c->batch->n == c->batch->cap);
	} else {
		uint64_t rec0 = c->rst[i].records;
		/* The backend stops the CPU's counting only for the copy:
		 * decoding runs on the copy while it counts again. */
		r = pebs_backend_take(c->bk, i, &recs, &len, &full);
		if (r == -PEBS_E_CORRUPT) {
			/* The index left the buffer: nothing there can be
			 * trusted; the backend started over. */
			c->st->dropped++;
			return 0;
		}
		if (r < 0) {
			cerr(c, "%s", pebs_backend_errmsg(c->bk));
			return r;
		}
		struct span sp = { 0, 0, 0 };
		uint64_t smp0 = c->rst[i].samples, nrec;
		r = decode_recs(c, i, recs, len, ds->lay.base, t,
				full ? &sp : NULL);
		if (r < 0)
			return r;
		nrec = c->rst[i].records - rec0;
		c->st->records += nrec;
		c->st->full += (uint64_t)full;
		if (full && nrec) {
			/* The processor stopped at the maximum, silently:
			 * estimate what it dropped from the records'
			 * times (pebs_ds_estimate_lost_tail). */
			uint64_t est = pebs_ds_estimate_lost_tail(nrec,
						sp.tmin, sp.tmax, t);
			est = (est * (c->rst[i].samples - smp0) + nrec / 2) /
			      nrec;
			c->st->lost_est += est;
			c->lost_est[i] += est;
		}
	}
	/* Hardware counts nothing at the maximum: the estimate stands in
	 * (the sim's exact count is pebs_backend_lost()). */
	lost = pebs_backend_lost(c->bk, i) + c->rst[i].lost +
	       (c->is_sim ? 0 : c->lost_est[i]);
	if (lost > c->lost_seen[i]) {
		c->st->lost += lost - c->lost_seen[i];
		c->lost_seen[i] = lost;
	}
	return 0;
}

/* Writes the losses not yet in the file, one in-band record per CPU.
 * Only at flushes: a lost record ends the writer's current block, and
 * small blocks cost space and time. */
static int emit_lost(struct cap *c)
{
	uint64_t t = pebs_backend_now(c->bk);
	int r;

	for (size_t i = 0; i < pebs_backend_ncpus(c->bk); i++) {
		int werr = 0;
		if (c->lost_seen[i] == c->lost_written[i])
			continue;
		/* After the samples before it: the current batch goes to
		 * the encoders first, the record queues behind it. */
		r = open_writer(c);
		if (r == 0)
			r = flush_batch(c);
		if (r < 0)
			return r;	/* said by open_writer/flush_batch */
		r = cenc_lost(c->enc, c->w, (uint32_t)
			      pebs_backend_cpu(c->bk, i), t,
			      c->lost_seen[i] - c->lost_written[i], &werr);
		if (r < 0) {
			if (werr)
				write_err(c);
			else
				cerr(c, "encoding: %s", pebs_strerror(r));
			return r;
		}
		c->lost_written[i] = c->lost_seen[i];
	}
	return 0;
}

/*
 * Drains every CPU, one after the other: the samples of one drain are
 * then put in time order across CPUs (order_drain) before any of them
 * goes out, so the file is in time order (formats/capture.md section 4,
 * "Order").  Samples drained before an error still go out.
 */
static int drain_all(struct cap *c)
{
	int r = 0, r2;

	c->st->drains++;
	c->drain_from = c->batch->n;
	for (size_t i = 0; r == 0 && i < pebs_backend_ncpus(c->bk); i++)
		r = drain_cpu(c, i);
	r2 = order_drain(c);
	if (r < 0)
		return r;
	if (r2 < 0)
		return r2;
	/* Partial batches wait for more samples: blocks stay full. */
	return c->batch->n == c->batch->cap ? flush_batch(c) : 0;
}

static void totals(struct cap *c)
{
	struct pebs_write_stats ws;
	c->st->bytes = c->bytes0;
	c->st->blocks = c->blocks0;
	if (c->w) {
		pebs_writer_stats(c->w, &ws);
		c->st->bytes += ws.bytes;
		c->st->blocks += ws.blocks;
	}
	c->st->wall_s = now_s() - c->t0;
	if (c->is_sim && c->sim)
		c->st->sim_s = (double)pebs_sim_cycle(c->sim) /
			       (double)PEBS_SIM_TSC_HZ;
	c->st->lost_exceeded = c->o->max_lost_set &&
			       c->st->lost > c->o->max_lost;
	c->st->throttled = 0;
	c->st->throttled_s = 0;
	for (size_t i = 0; c->bk && i < pebs_backend_ncpus(c->bk); i++) {
		uint64_t ns;
		c->st->throttled += pebs_backend_throttled(c->bk, i, &ns);
		c->st->throttled_s += (double)ns / 1e9;
	}
}

/*
 * Whether to flush now.  Hardware: once a second of wall time.  Sim:
 * at every SIM_FLUSH_CYCLES boundary of simulated time, so that block
 * boundaries, and so the file, depend only on the seed (the simulator
 * retires about 1-2 M accesses a second, a few cycles apart: about a
 * second of wall time or less).
 */
static int flush_due(struct cap *c)
{
	if (c->is_sim) {
		uint64_t k = pebs_sim_cycle(c->sim) / SIM_FLUSH_CYCLES;
		if (k == c->flush_epoch)
			return 0;
		c->flush_epoch = k;
		return 1;
	}
	if (now_s() - c->last_flush < 1.0)
		return 0;
	c->last_flush = now_s();
	return 1;
}

static int loop(struct cap *c)
{
	const struct pebs_capture_opts *o = c->o;
	int r;

	for (;;) {
		int end = 0;
		if (o->stop && *o->stop != c->stop0)
			break;
		r = pebs_backend_wait(c->bk, WAIT_MS);
		if (r < 0) {
			/* The sim fails when its source does, or memory is
			 * short (the source's message then is empty). */
			if (c->wl && *pebs_workload_errmsg(c->wl))
				source_failed(c, r);
			else
				cerr(c, "%s", pebs_backend_errmsg(c->bk));
			return r;
		}
		end = r == PEBS_BK_END;
		r = drain_all(c);
		if (r < 0)
			return r;
		if (!c->is_sim && o->duration > 0 &&
		    now_s() - c->t0 >= o->duration)
			end = 1;
		if (c->child > 0)
			child_poll(c, WNOHANG);
		/* The command has ended (also when its exec failed). */
		if (!c->is_sim && o->command && c->child == 0)
			end = 1;
		if (flush_due(c)) {
			if (c->child > 0)
				cmaps_read_proc(&c->maps, NULL, c->child);
			/*
			 * A killed capture loses at most about a second:
			 * hardware flushes once a second of wall time and
			 * waits for the encoders; the sim flushes every
			 * simulated millisecond, far more often, and does not
			 * wait (waiting made the capture thread and the
			 * encoders take turns).  Each step says what failed.
			 */
			r = new_segment(c);
			if (r == 0)
				r = flush_out(c);
			if (r == 0)
				r = emit_lost(c);
			if (r == 0)
				r = retire_out(c, !c->is_sim);
			if (r < 0)
				return r;
			r = pebs_writer_flush(c->w);
			if (r < 0) {
				write_err(c);
				return r;
			}
		}
		if (o->progress && now_s() - c->last_progress >= 1.0) {
			c->last_progress = now_s();
			totals(c);
			o->progress(o->progress_ctx, c->st);
		}
		if (end)
			break;
	}
	return 0;
}

/*
 * The -- COMMAND's ptrace stop @status: at its exit or an exec, its maps
 * are read.  Returns the signal it is to be resumed with: the one that
 * stopped it, 0 for those events and a group stop.
 */
static int child_stopped(struct cap *c, int status)
{
	int sig = WSTOPSIG(status), ev = status >> 16;
	siginfo_t si;

	if (sig == SIGTRAP && (ev == PTRACE_EVENT_EXIT ||
			       ev == PTRACE_EVENT_EXEC)) {
		cmaps_read_proc(&c->maps, NULL, c->child);
		return 0;
	}
	/* A group stop (SIGSTOP...) has no siginfo. */
	return ptrace(PTRACE_GETSIGINFO, c->child, 0, &si) < 0 ? 0 : sig;
}

/* Resumes the -- COMMAND from its ptrace stop @status (child_stopped). */
static void child_resume(struct cap *c, int status)
{
	ptrace(PTRACE_CONT, c->child, 0,
	       (void *)(long)child_stopped(c, status));
}

/*
 * Waits for the -- COMMAND (@flags: WNOHANG or 0).  Under ptrace its
 * stops are answered here: at its exit (PTRACE_EVENT_EXIT, the address
 * space still there) and at an exec its maps are read; any signal is
 * passed on as it came.  Returns 1 when it has ended (status kept).
 */
static int child_poll(struct cap *c, int flags)
{
	int status;
	pid_t p;

	while (c->child > 0 &&
	       ((p = waitpid(c->child, &status, flags)) == c->child ||
		(p < 0 && errno == EINTR))) {
		if (p < 0)
			continue;
		if (!WIFSTOPPED(status)) {
			c->st->cmd_status = status;
			c->child = 0;
			return 1;
		}
		child_resume(c, status);
	}
	return 0;
}

/*
 * Leaves the running -- COMMAND running, not waited for: under ptrace it
 * is stopped (SIGSTOP) and detached at that stop, the SIGSTOP dropped;
 * its other stops meanwhile are answered as child_poll() does.  Should it
 * not stop within a second, the SIGSTOP is withdrawn (SIGCONT) and the
 * kernel detaches it at the capture's exit.
 */
static void leave_child(struct cap *c)
{
	double until = now_s() + 1.0;
	int status, sig;
	pid_t p;

	while (c->traced && now_s() < until) {
		if (c->traced == 1) {
			if (kill(c->child, SIGSTOP) < 0)
				break;
			c->traced = 2;	/* the SIGSTOP is on its way */
		}
		p = waitpid(c->child, &status, WNOHANG);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			break;
		if (p == 0) {
			poll(NULL, 0, 5);
			continue;
		}
		if (!WIFSTOPPED(status)) {
			c->st->cmd_status = status;
			c->child = 0;
			return;
		}
		sig = child_stopped(c, status);
		if (sig == SIGSTOP) {
			ptrace(PTRACE_DETACH, c->child, 0, 0);
			c->traced = 0;
			break;
		}
		ptrace(PTRACE_CONT, c->child, 0, (void *)(long)sig);
	}
	if (c->traced == 2) {
		/* Not stopped in time (a vfork parent, a wait in the
		 * kernel): its SIGSTOP, still pending, would stop it for
		 * good once it can; SIGCONT discards it.  One taken just
		 * now is at its stop: detached there, dropped. */
		kill(c->child, SIGCONT);
		if (waitpid(c->child, &status, WNOHANG) == c->child) {
			if (!WIFSTOPPED(status)) {
				c->st->cmd_status = status;
				c->child = 0;
				return;
			}
			sig = child_stopped(c, status);
			ptrace(PTRACE_DETACH, c->child, 0,
			       (void *)(long)(sig == SIGSTOP ? 0 : sig));
		}
	}
	c->st->cmd_left_running = 1;
	c->child = 0;
}

/*
 * Hardware -- COMMAND after a stop request passed on to it, the file
 * finished: waits PEBS_CAPTURE_CMD_WAIT_MS at most for it to exit (its
 * ptrace stops answered), less when a further request comes; a command
 * still running then (it ignores or handles the signal) is left running.
 */
static void end_child(struct cap *c)
{
	double until = now_s() + PEBS_CAPTURE_CMD_WAIT_MS / 1e3;
	/* Also reached without a stop flag, when waiting for the command
	 * failed (waitpid: ECHILD where the caller ignores SIGCHLD). */
	volatile sig_atomic_t none = 0;
	volatile sig_atomic_t *stop = c->o->stop ? c->o->stop : &none;
	sig_atomic_t seen = *stop;

	while (c->child > 0 && now_s() < until && *stop == seen &&
	       !child_poll(c, WNOHANG))
		poll(NULL, 0, 10);
	if (c->child > 0)
		leave_child(c);
}

/*
 * Hardware backends: forks the command, which gets ready (pre_exec) and
 * then waits before its exec until start_child() releases it, so that
 * the perf backend can open its events on the process first
 * (enable_on_exec: they start at the exec).  Released, it asks for
 * PTRACE_TRACEME where allowed (only its exit and exec stop it, for its
 * maps; the capture's loop answers within WAIT_MS) and execs.  When the
 * capture fails before, closing c->hold makes it exit 127 without its
 * exec.
 */
static int hold_child(struct cap *c)
{
	int gate[2], hold[2];

	fflush(NULL);
	if (pipe2(gate, O_CLOEXEC) < 0) {
		cerr(c, "pipe: %s", strerror(errno));
		return -PEBS_E_IO;
	}
	/* A socket, not a pipe: the release is sent with MSG_NOSIGNAL, no
	 * SIGPIPE when the command has died meanwhile. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, hold) < 0) {
		cerr(c, "socketpair: %s", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -PEBS_E_IO;
	}
	c->child = fork();
	if (c->child < 0) {
		cerr(c, "fork: %s", strerror(errno));
		c->child = 0;
		close(gate[0]);
		close(gate[1]);
		close(hold[0]);
		close(hold[1]);
		return -PEBS_E_IO;
	}
	if (c->child == 0) {
		char ok, go;
		ssize_t n;
		close(hold[1]);
		close(gate[0]);
		child_pre_exec(c);
		while ((n = read(hold[0], &go, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(127);	/* the capture gave up */
		/* Traced only now: a signal while it was held (Ctrl-C,
		 * SIGWINCH, which a tracee does not discard) stopped it
		 * for a tracer not yet waiting for it. */
		ok = ptrace(PTRACE_TRACEME, 0, 0, 0) == 0;
		if (write(gate[1], &ok, 1) != 1)
			_exit(127);
		exec_command(c, gate[1]);
	}
	c->cmd_pid = c->child;
	c->st->cmd_pid = c->child;
	close(gate[1]);
	close(hold[0]);
	c->gate = gate[0];
	c->hold = hold[1];
	return 0;
}

/* Closes what hold_child() left open: a child not yet released exits. */
static void unhold_child(struct cap *c)
{
	if (c->hold >= 0)
		close(c->hold);
	if (c->gate >= 0)
		close(c->gate);
	c->hold = c->gate = -1;
}

/* Reads what the gate @fd has now into @buf (@len, *@got read so far;
 * more is dropped).  Returns 1 at its EOF. */
static int gate_read(int fd, unsigned char *buf, size_t len, size_t *got)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	unsigned char x;
	ssize_t n;

	while (poll(&pf, 1, 0) > 0) {
		n = *got < len ? read(fd, buf + *got, len - *got) :
				 read(fd, &x, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 1;
		if (*got < len)
			*got += (size_t)n;
	}
	return 0;
}

/*
 * Hardware -- COMMAND released: reads the gate (close-on-exec) to its
 * EOF, the command's exec or exit: first whether it is traced (@ok),
 * then the errno of a failed exec (@e, else 0).  It does not block on
 * the gate alone: a traced command stopped at a signal before its exec
 * would never get there, so its stops meanwhile are answered, the
 * signal passed on (none for a group stop), and its exit is kept.
 * Returns 1 with @status when a stop came with the EOF: the exec's (the
 * exec closes the gate before it stops).
 */
static int await_exec(struct cap *c, char *ok, int *e, int *status)
{
	unsigned char buf[1 + sizeof(int)] = { 0 };
	size_t got = 0;
	int stopped = 0;
	pid_t p;

	while (!gate_read(c->gate, buf, sizeof(buf), &got)) {
		p = c->child > 0 ? waitpid(c->child, status,
					   WNOHANG | __WALL) : 0;
		if (p == c->child && !WIFSTOPPED(*status)) {
			c->st->cmd_status = *status;
			c->child = 0;		/* its EOF follows */
		} else if (p == c->child) {
			if (gate_read(c->gate, buf, sizeof(buf), &got)) {
				stopped = 1;
				break;
			}
			/* Before the exec: a signal, passed on. */
			child_resume(c, *status);
		} else {
			struct pollfd pf = { .fd = c->gate, .events = POLLIN };
			poll(&pf, 1, 10);
		}
	}
	close(c->gate);
	c->gate = -1;
	*ok = (char)buf[0];
	*e = 0;
	if (got == sizeof(buf))
		memcpy(e, buf + 1, sizeof(*e));
	return stopped;
}

/*
 * Hardware backends: lets the command that hold_child() forked (forking
 * it now when it was not) go on to its exec, under ptrace where it was
 * allowed, else plainly; its maps are also read about once a second
 * while it runs.
 */
static int start_child(struct cap *c)
{
	int status, e, r, stopped;
	char ok, go = 1;

	if (c->hold < 0 && (r = hold_child(c)) < 0)
		return r;
	/* None sent: it is gone, and the gate reaches its EOF. */
	(void)send(c->hold, &go, 1, MSG_NOSIGNAL);
	close(c->hold);
	c->hold = -1;
	stopped = await_exec(c, &ok, &e, &status);
	if (e) {
		if (stopped)
			ptrace(PTRACE_CONT, c->child, 0, 0);
		child_poll(c, 0);
		cerr(c, "%s: cannot run: %s", c->o->command[0], strerror(e));
		return -PEBS_E_INVAL;
	}
	if (!ok || c->child <= 0)
		return 0;
	/*
	 * The exec's SIGTRAP stop (or its exit).  A signal that came
	 * before it may stop it first (lower signals are delivered
	 * first): passed on, not taken for the exec's.
	 */
	for (;;) {
		if (!stopped) {
			while (waitpid(c->child, &status, __WALL) < 0)
				if (errno != EINTR)
					return 0;
		}
		stopped = 0;
		if (!WIFSTOPPED(status)) {
			c->st->cmd_status = status;
			c->child = 0;
			return 0;
		}
		if (WSTOPSIG(status) == SIGTRAP)
			break;
		child_resume(c, status);
	}
	/* Without these options (an old kernel) it still runs, traced:
	 * only the reads at flushes then see its maps. */
	ptrace(PTRACE_SETOPTIONS, c->child, 0,
	       (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC));
	c->traced = 1;
	cmaps_read_proc(&c->maps, NULL, c->child);
	ptrace(PTRACE_CONT, c->child, 0, 0);
	return 0;
}

/* The ascending CPUs @cpus (@n) as a CPU list, "0-3,8", in @buf. */
static const char *cpu_list(const int *cpus, size_t n, char *buf,
			    size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && at < len; ) {
		size_t j = i;
		int w;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		w = j == i ? snprintf(buf + at, len - at, "%s%d",
				      i ? "," : "", cpus[i]) :
			     snprintf(buf + at, len - at, "%s%d-%d",
				      i ? "," : "", cpus[i], cpus[j]);
		if (w < 0)
			break;
		at += (size_t)w;
		i = j + 1;
	}
	return buf;
}

static int open_backend(struct cap *c, unsigned ncpus, const int *cl,
			size_t ncl)
{
	const struct pebs_capture_opts *o = c->o;
	int r;

	if (c->is_sim) {
		struct pebs_sim_opts so = { .uarch = c->u, .ncpus = ncpus,
					    .seed = o->seed,
					    .tag_rate = o->tag_rate };
		struct pebs_backend_sim_opts bo = { 0 };
		r = pebs_sim_new(&c->sim, &so);
		if (r < 0) {
			cerr(c, "simulator: %s", pebs_strerror(r));
			return r;
		}
		bo.sim = c->sim;
		bo.next = o->source ? o->source : wl_next;
		bo.ctx = o->source ? o->source_ctx : (void *)c;
		if (o->duration > 0) {
			/* at least a cycle: 0 is "no limit" to the sim */
			double cyc = o->duration * (double)PEBS_SIM_TSC_HZ;
			bo.stop_cycle = cyc < 1 ? 1 : cyc >= 0x1p63 ?
					(uint64_t)1 << 63 : (uint64_t)cyc;
		}
		r = pebs_backend_open_sim(&c->bk, &bo);
		if (r < 0)
			cerr(c, "sim backend: %s", pebs_strerror(r));
		return r;
	}
	/* No -C: the CPUs online, which need not be 0..N-1 (the device
	 * root stands in for sysfs too, in tests).  A -C CPU that is not
	 * online is the user's mistake, said as such before anything is
	 * programmed (the kernel would say EINVAL, the msr device ENXIO). */
	int *all = NULL;
	size_t nall;
	r = pebs_backend_online_cpus(o->devroot, &all, &nall, c->err,
				     c->errlen);
	if (r < 0)
		return r;
	for (size_t i = 0; cl && i < ncl; i++) {
		size_t k = 0;
		while (k < nall && all[k] != cl[i])
			k++;
		if (k == nall) {
			char list[256];
			cerr(c, "-C: CPU %d is not online (online: %s)", cl[i],
			     cpu_list(all, nall, list, sizeof(list)));
			free(all);
			return -PEBS_E_INVAL;
		}
	}
	if (!cl) {
		cl = all;
		ncl = nall;
	}
	if (!strcmp(o->backend, "msr"))
		r = pebs_backend_open_msr(&c->bk, o->devroot, c->u, cl, ncl,
					  c->err, c->errlen);
	else
		r = pebs_backend_open_perf(&c->bk, c->u, cl, ncl, c->child,
					   c->err, c->errlen);
	free(all);
	return r;
}

int pebs_capture_run(const struct pebs_capture_opts *o,
		     struct pebs_capture_stats *st, char *err, size_t errlen)
{
	struct cap c = { .o = o, .st = st, .err = err, .errlen = errlen,
			 .wo = { .level = o->level }, .hold = -1,
			 .gate = -1 };
	int *cl = NULL;
	size_t ncl = 0;
	unsigned ncpus = 0;
	int r, r2;

	memset(st, 0, sizeof(*st));
	st->cmd_status = -1;
	err[0] = 0;
	c.t0 = c.last_flush = c.last_progress = now_s();
	if (!o->out && !o->open_out) {
		cerr(&c, "no output");
		return -PEBS_E_INVAL;
	}
	if (o->backend && strcmp(o->backend, "sim") &&
	    strcmp(o->backend, "msr") && strcmp(o->backend, "perf")) {
		cerr(&c, "-b: unknown backend \"%s\" (sim, msr, perf)",
		     o->backend);
		return -PEBS_E_INVAL;
	}
	c.is_sim = !o->backend || !strcmp(o->backend, "sim");
	if (!c.is_sim && (o->workload || o->trace)) {
		cerr(&c, "%s needs -b sim", o->workload ? "--workload" :
		     "--trace");
		return -PEBS_E_INVAL;
	}
	if (o->regs && o->backend && !strcmp(o->backend, "perf")) {
		/* Refused, not ignored: the kernel's samples would need
		 * PERF_SAMPLE_REGS_INTR, which this backend does not ask
		 * for. */
		cerr(&c, "--regs: the perf backend records no registers "
		     "(-b sim or -b msr keep them)");
		return -PEBS_E_INVAL;
	}
	r = refuse_pmc(&c);
	if (r < 0)
		return r;
	c.meta = pebs_meta_new();
	r = cenc_open(&c.enc, enc_threads(o), o->level, CAP_BLOCK);
	if (r == 0)
		c.batch = cenc_batch(c.enc);
	if (!c.meta || !c.batch) {
		r = -PEBS_E_NOMEM;
		goto out;
	}
	r = pick_uarch(&c);
	if (r == 0)
		r = build_plan(&c, &cl, &ncl);
	if (r == 0 && c.is_sim)
		r = setup_sim(&c, &ncpus);
	if (r == 0 && c.is_sim && cl && cl[ncl - 1] >= (int)ncpus) {
		cerr(&c, "-C: CPU %d beyond the simulated machine's %u "
		     "CPUs", cl[ncl - 1], ncpus);
		r = -PEBS_E_INVAL;
	}
	/* perf samples the command alone: its events are opened on its
	 * process, held before its exec meanwhile (hold_child). */
	if (r == 0 && !c.is_sim && o->command && !strcmp(o->backend, "perf"))
		r = hold_child(&c);
	if (r == 0)
		r = open_backend(&c, ncpus, cl, ncl);
	if (r == 0)
		r = add_meta(&c);
	if (r == 0)
		r = setup_cfg(&c);
	if (r < 0)
		goto out;
	/* The output opens once the capture has started (open_writer). */
	r = pebs_backend_program(c.bk, c.plan, o->buf_size);
	if (r < 0) {
		cerr(&c, "%s", pebs_backend_errmsg(c.bk));
		goto out;
	}
	if (!c.is_sim && o->command)
		r = start_child(&c);
	if (r == 0)
		r = loop(&c);
	/* A stop request ended it while the command runs: passed on to the
	 * command, which is waited for once the file is finished (end_child):
	 * one that ignores the signal cannot hold the file back. */
	if (!c.is_sim && c.child > 0)
		c.passed = pass_stop(&c, c.child, &c.stop0);
	/* Stop and restore every register, then take what is left. */
	r2 = pebs_backend_restore(c.bk);
	if (r2 < 0 && r == 0) {
		cerr(&c, "restoring registers: %s",
		     pebs_backend_errmsg(c.bk));
		r = r2;
	}
	r2 = drain_all(&c);
	if (r2 == 0)
		r2 = emit_lost(&c);
	if (r2 == 0)
		r2 = sync_out(&c);
	/* Maps first seen at the command's end (an exec, its exit): one
	 * more segment, empty, whose header has them all, for readers that
	 * take the last metadata. */
	if (r2 == 0)
		r2 = new_segment(&c);
	if (r2 < 0 && r == 0)
		r = r2;
out:
	unhold_child(&c);
	if (!c.passed)
		child_poll(&c, 0);
	if (r == 0 && !c.w) {
		/* A capture that ended before its first flush, without an
		 * error: still a valid (empty) file.  After an error, nothing
		 * is written. */
		r = open_writer(&c);
	}
	if (c.w) {
		r2 = pebs_writer_finish(c.w);
		if (r2 < 0 && r == 0) {
			write_err(&c);
			r = r2;
		}
	}
	if (c.child > 0)
		end_child(&c);
	totals(&c);
	if (c.w)
		pebs_writer_close(c.w);
	pebs_backend_close(c.bk);
	pebs_sim_free(c.sim);
	pebs_workload_close(c.wl);
	pebs_plan_free(c.plan);
	pebs_meta_free(c.meta);
	pebs_batch_free(c.batch);
	for (size_t k = 0; k < c.nheld; k++)
		pebs_batch_free(c.held[k]);
	free(c.held);
	cenc_close(c.enc);
	free(c.cfg);
	free(c.rst);
	free(c.lost_seen);
	free(c.lost_written);
	free(c.lost_est);
	cmaps_free(&c.maps);
	free(cl);
	if (c.tracepath[0])
		unlink(c.tracepath);
	if (r < 0 && !err[0])
		cerr(&c, "%s", pebs_strerror(r));
	return r;
}

static void capture_summary(const struct pebs_capture_stats *st,
			    int is_sim, char *buf, size_t len);

/* In the C locale: seconds and rates are "%f" (cloc.h). */
void pebs_capture_summary(const struct pebs_capture_stats *st, int is_sim,
			  char *buf, size_t len)
{
	locale_t old = lib_locale_enter();
	capture_summary(st, is_sim, buf, len);
	lib_locale_leave(old);
}

static void capture_summary(const struct pebs_capture_stats *st,
			    int is_sim, char *buf, size_t len)
{
	double rate = st->wall_s > 0 ? (double)st->samples / st->wall_s : 0;
	int n = snprintf(buf, len, "%llu sample%s, %llu lost, %llu bytes, "
			 "%.2f s, %.0f samples/s",
			 (unsigned long long)st->samples,
			 st->samples == 1 ? "" : "s",
			 (unsigned long long)st->lost,
			 (unsigned long long)st->bytes, st->wall_s, rate);
	if (is_sim && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      " (%.6f simulated s)", st->sim_s);
	/* Hardware does not count what it drops at the maximum: say that
	 * the buffer was full, and how much the records' times suggest was
	 * lost (included in "lost"). */
	if (!is_sim && st->full && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", DS buffer full at "
			      "%llu drains (%llu lost estimated from record "
			      "times; without a TSC in the records, "
			      "uncounted)", (unsigned long long)st->full,
			      (unsigned long long)st->lost_est);
	/* perf: the kernel took no samples while throttled and counts
	 * none lost; the gap in the samples is said, not estimated. */
	if (st->throttled && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", throttled %llu times "
			 "for %.3f s (samples not taken, not counted as "
			 "lost)", (unsigned long long)st->throttled,
			 st->throttled_s);
	/* The command's own status, which the tool's exit status is not
	 * (it says whether the capture worked). */
	if (st->cmd_status >= 0 && n > 0 && (size_t)n < len) {
		char sig[32];
		if (WIFSIGNALED(st->cmd_status))
			snprintf(buf + n, len - (size_t)n, "; command killed "
				 "by %s", sig_name(WTERMSIG(st->cmd_status),
						   sig, sizeof(sig)));
		else if (WIFEXITED(st->cmd_status))
			snprintf(buf + n, len - (size_t)n, "; command exit "
				 "status %d", WEXITSTATUS(st->cmd_status));
	} else if (st->cmd_left_running && n > 0 && (size_t)n < len) {
		snprintf(buf + n, len - (size_t)n, "; command (pid %d) still "
			 "running after the stop request passed on to it: "
			 "left running", st->cmd_pid);
	}
}
