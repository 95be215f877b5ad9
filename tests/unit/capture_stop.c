/*
 * capture_stop.c - a stop request (pebs_capture_opts.stop, SIGINT/SIGTERM/
 * SIGHUP in pebs-capture) with a hardware -- COMMAND, on the fake msr
 * root: the request is passed on to the command (stop_signal, SIGTERM by
 * default) and the file is finished before the command is waited for,
 * PEBS_CAPTURE_CMD_WAIT_MS at most; a command that ignores the signal is
 * left running, detached, instead of holding the capture (it used to
 * wait for the command's own end, the file unfinished until then).
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pebs_capture.h"
#include "pebs_format.h"
#include "testutil.h"

static volatile sig_atomic_t stop;

static void *stop_later(void *arg)
{
	usleep((useconds_t)(long)arg);
	stop = 1;
	return NULL;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Runs an msr capture of @script (sh -c) on a new fake root, the stop
 * flag set @after_us into it; the file read back to its end.  Returns the
 * seconds the capture took.
 */
static double stopped_capture(const char *script, long after_us,
			      struct pebs_capture_stats *st)
{
	char root[64], out[128], err[512];
	char *const cmd[] = { (char *)"/bin/sh", (char *)"-c",
			      (char *)script, NULL };
	struct pebs_capture_opts o;
	struct pebs_reader *rd;
	struct pebs_batch *b;
	const char *path = out;
	pthread_t t;
	int r;

	if (access("/bin/sh", X_OK) != 0)
		cr_skip_test("no sh(1)");
	tu_fake_root(root, sizeof(root));
	snprintf(out, sizeof(out), "%s/out.pebs", root);
	FILE *fp = fopen(out, "w");
	cr_assert_not_null(fp);
	tu_msr_opts(&o, root);
	o.command = cmd;
	o.out = fp;
	o.stop = &stop;
	stop = 0;
	double t0 = mono_s();
	cr_assert_eq(pthread_create(&t, NULL, stop_later, (void *)after_us),
		     0);
	r = pebs_capture_run(&o, st, err, sizeof(err));
	double took = mono_s() - t0;
	pthread_join(t, NULL);
	cr_assert_eq(fclose(fp), 0);
	cr_assert_eq(r, 0, "%s", err);
	/* complete: read to its end without an error */
	cr_assert_eq(pebs_reader_open(&rd, &path, 1, NULL), 0);
	while ((r = pebs_reader_next(rd, &b)) == 1)
		;
	cr_assert_eq(r, 0, "reading the file: %d", r);
	pebs_reader_close(rd);
	cr_assert_eq(tu_sh("rm -rf %s", root), 0);
	return took;
}

/* The command dies of the SIGTERM passed on: the capture ends with it. */
Test(capture_stop, msr_command_gets_the_signal)
{
	struct pebs_capture_stats st;

	tu_deadline(60);
	double took = stopped_capture("exec sleep 20", 500000, &st);
	cr_assert_lt(took, 0.5 + PEBS_CAPTURE_CMD_WAIT_MS / 1e3,
		     "took %.1f s", took);
	cr_assert(WIFSIGNALED(st.cmd_status) &&
		  WTERMSIG(st.cmd_status) == SIGTERM, "status 0x%x",
		  st.cmd_status);
	cr_assert_eq(st.cmd_left_running, 0);
}

/* A command that ignores it: the file is finished, the command waited
 * for PEBS_CAPTURE_CMD_WAIT_MS, then left running (detached: it runs on,
 * not stopped) and said so in the summary. */
Test(capture_stop, msr_command_ignoring_it_is_left_running)
{
	struct pebs_capture_stats st;
	char line[512];
	int status;

	tu_deadline(60);
	double took = stopped_capture("trap '' TERM; sleep 6", 500000, &st);
	cr_assert_lt(took, 0.5 + PEBS_CAPTURE_CMD_WAIT_MS / 1e3 + 2,
		     "took %.1f s", took);
	cr_assert_eq(st.cmd_left_running, 1);
	cr_assert_eq(st.cmd_status, -1);
	cr_assert_gt(st.cmd_pid, 0);
	/* still running, and not stopped */
	cr_assert_eq(waitpid(st.cmd_pid, &status, WNOHANG | WUNTRACED), 0);
	pebs_capture_summary(&st, 0, line, sizeof(line));
	char want[128];
	snprintf(want, sizeof(want), "; command (pid %d) still running after "
		 "the stop request passed on to it: left running", st.cmd_pid);
	cr_assert_not_null(strstr(line, want), "%s", line);
	kill(st.cmd_pid, SIGKILL);
	cr_assert_eq(waitpid(st.cmd_pid, &status, 0), st.cmd_pid);
}

/* The scheduling state of process @pid ('R', 'S', 't'...), '?' if gone. */
static char proc_state(pid_t pid)
{
	char p[64], buf[512], *e;
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	e = strrchr(buf, ')');
	return e && e[1] == ' ' ? e[2] : '?';
}

/*
 * A command that cannot stop within leave_child()'s second (a vfork
 * parent waits for its child killably only) is left running without the
 * SIGSTOP still pending: before, that SIGSTOP stopped it once its child
 * was done, for good (under pebs-capture, which has exited by then:
 * the signal its tracer's exit delivers).
 */
Test(capture_stop, msr_command_not_stopping_is_not_left_stopped)
{
	static const char src[] =
		"#define _GNU_SOURCE\n#include <signal.h>\n"
		"#include <time.h>\n#include <unistd.h>\n"
		"int main(void) {\n"
		"	struct timespec t = { 5, 0 };\n"
		"	signal(SIGTERM, SIG_IGN);\n"
		"	if (vfork() == 0) {\n"
		"		nanosleep(&t, 0);\n"
		"		_exit(0);\n"
		"	}\n"
		"	for (int i = 0; i < 60; i++)\n"
		"		sleep(1);\n"
		"	return 0;\n"
		"}\n";
	char dir[] = "/tmp/pebs-vfork-XXXXXX", script[128];
	struct pebs_capture_stats st;
	int status;
	FILE *f;

	tu_deadline(60);
	if (access("/bin/sh", X_OK) != 0 || tu_sh("command -v cc >/dev/null"))
		cr_skip_test("no sh(1) or cc(1)");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(script, sizeof(script), "%s/vf.c", dir);
	f = fopen(script, "w");
	cr_assert_not_null(f);
	fputs(src, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(tu_sh("cc -o %s/vf %s/vf.c", dir, dir), 0);
	snprintf(script, sizeof(script), "exec %s/vf", dir);
	double t0 = mono_s();
	stopped_capture(script, 500000, &st);
	cr_assert_eq(st.cmd_left_running, 1);
	cr_assert_gt(st.cmd_pid, 0);
	/* its vfork child done (5 s from the start), it runs on */
	usleep((useconds_t)((6.0 - (mono_s() - t0)) * 1e6));
	char s = proc_state(st.cmd_pid);
	int sig = 0;
	if (s == 't') {
		/* Still traced by this thread, as pebs-capture's command is
		 * until pebs-capture exits: stopped at a signal, which its
		 * exit would deliver: what it does now. */
		siginfo_t si;
		cr_assert_eq(ptrace(PTRACE_GETSIGINFO, st.cmd_pid, 0, &si), 0);
		sig = si.si_signo;
		ptrace(PTRACE_DETACH, st.cmd_pid, 0, (void *)(long)sig);
		usleep(200000);
		s = proc_state(st.cmd_pid);
	}
	kill(st.cmd_pid, SIGKILL);
	cr_assert_eq(waitpid(st.cmd_pid, &status, 0), st.cmd_pid);
	cr_assert(s == 'S' || s == 'R', "state %c (at signal %d)", s, sig);
	cr_assert_eq(tu_sh("rm -rf %s", dir), 0);
}
