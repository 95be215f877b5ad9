/*
 * pebs-capture - PEBS memory-sample capture on the simulated PMU, raw
 * MSRs + DS area, or perf_event_open (lib/capture.c does the work), plus
 * --plan (the exact MSR programming for events on a microarchitecture,
 * every SDM rule enforced) and --probe (what this machine offers, and why
 * not).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_capture.h"
#include "pebs_plan.h"
#include "pebs_uarch.h"
#include "util.h"
#include "util_plan.h"
#include "util_progress.h"

/* Prints @names (NULL-terminated), comma-separated, wrapped within 79
 * columns and indented as the option texts, from column @col. */
static void print_names(FILE *fp, const char *const *names, size_t col)
{
	for (size_t i = 0; names[i]; i++) {
		size_t w = strlen(names[i]) + 1;
		if (i && col + 1 + w > 79) {
			fputs("\n                  ", fp);
			col = 18;
		} else if (i) {
			fputc(' ', fp);
			col++;
		}
		fprintf(fp, "%s%s", names[i], names[i + 1] ? "," : "");
		col += w;
	}
	fputc('\n', fp);
}

/* Option @c of @lo as messages name it: -b for short ones, --workload. */
static const char *opt_name(const struct option *lo, int c, char *buf,
			    size_t len)
{
	for (; lo->name; lo++) {
		if (lo->val != c)
			continue;
		if (c < 128 && isalpha(c))
			snprintf(buf, len, "-%c", c);
		else
			snprintf(buf, len, "--%s", lo->name);
		return buf;
	}
	return "?";
}

static void usage(int code)
{
	FILE *fp = code ? stderr : stdout;
	fprintf(fp,
		"usage: pebs-capture [-b sim|msr|perf] [-e EVENT]... "
		"[-c PERIOD] [-C CPUS]\n"
		"                    [-d SECONDS] [-o FILE] [--uarch NAME]\n"
		"                    [--workload NAME | --trace FILE | "
		"-- COMMAND ARGS...]\n"
		"                    [--seed N] [--max-lost N] [--accesses N] "
		"[--regs]\n"
		"                    [--level N] [--force]\n"
		"       pebs-capture --plan --uarch NAME -e EVENT... "
		"[-c PERIOD] [-C CPUS]\n"
		"                    [--regs] [-o FILE]\n"
		"       pebs-capture --probe [-o FILE]\n"
		"  -b, --backend BACKEND\n"
		"                  sim (the simulated PMU; the default), msr "
		"(MSRs and the\n"
		"                  kmod/ DS area) or perf (perf_event_open)\n"
		"  -e, --event EVENT\n"
		"                  an event to sample, repeated for several "
		"(default:\n"
		"                  load-latency, or precise-store where the "
		"profile has no\n"
		"                  load latency); see EVENT\n"
		"  -c, --period PERIOD\n"
		"                  a sample every PERIOD events (default: "
		"%llu with -b sim,\n"
		"                  %llu with -b msr or perf and in --plan); "
		"period=N per event\n"
		"  -C, --cpus CPUS CPUs to program or sample, e.g. 0-3,8 "
		"(default: all)\n"
		"  -d, --duration SECONDS\n"
		"                  stop after SECONDS (simulated seconds with "
		"sim; default:\n"
		"                  when the workload or COMMAND ends, or "
		"Ctrl-C)\n"
		"  -o, --output FILE\n"
		"                  write the .pebs file there (default: "
		"standard output,\n"
		"                  not a terminal)\n"
		"  --uarch NAME    the PMU profile (sim: default skx; --plan "
		"needs it):\n"
		"                  ", PEBS_CAPTURE_SIM_PERIOD,
		PEBS_PLAN_DEFAULT_PERIOD);
	const char *ua[64];
	size_t nu = 0;
	for (unsigned i = 0; i < pebs_uarch_count() && nu < 63; i++)
		ua[nu++] = pebs_uarch_get(i)->name;
	ua[nu] = NULL;
	print_names(fp, ua, 18);
	fputs("  --workload NAME sim: a built-in workload (without it, "
	      "--trace or COMMAND:\n                  mixed): ", fp);
	print_names(fp, pebs_workload_names(), 26);
	fprintf(fp,
		"  --trace FILE    sim: replay a memory-access trace "
		"(- for standard input)\n"
		"  -- COMMAND      run COMMAND: sim traces its accesses "
		"(libpebs-trace), perf\n"
		"                  samples it and its children, msr every "
		"process (system-wide)\n"
		"                  while it runs; its maps and build-ids are "
		"recorded\n"
		"  --seed N        sim: seed of the workload, cache model and "
		"tagging (default 0)\n"
		"  --accesses N    sim: stop after N accesses (loads, stores, "
		"front-end events;\n"
		"                  k/M/G allowed); default: the workload's "
		"length (0.6M-2M)\n"
		"                  or the whole trace\n"
		"  --max-lost N    exit 4 when more than N samples were "
		"lost\n"
		"  --regs          keep the general-purpose register snapshot "
		"of each sample\n"
		"  --force         msr: program the PMU even where --probe "
		"gives reasons\n"
		"                  against msr (PTI, PEBS unavailable, "
		"counters in use, NMI\n"
		"                  watchdog, ...); without it such a capture "
		"is refused (exit 3)\n"
		"                  msr, perf: take a --uarch other than this "
		"CPU's, or any\n"
		"                  --uarch on a CPU that is not Intel (else "
		"exit 2)\n"
		"  --level N       zstd level 1-22 (default 1), or -1 to -7 "
		"for larger files\n"
		"                  that read faster\n"
		"  --plan          print the MSR programming for --uarch "
		"and -e, capture nothing\n"
		"  --probe         say which backends can run on this machine, "
		"and why not\n"
		"  -h, --help      this help; --version: the version\n"
		"EVENT: load-latency[:ldlat=N], precise-store, "
		"frontend:sub=NAME[,latency=N,\n"
		"width=N], SDM names (MEM_LOAD_RETIRED.L3_MISS), rHEX; "
		"modifiers after ':'\n"
		"(period=N,u,k,pmc=N; not pmc= with -b perf, whose kernel "
		"assigns counters).\n"
		"ldlat is 3 by default (the SDM minimum); perf mem uses 30.\n"
		"perf's names: mem-loads, mem-stores, "
		"cpu/mem-loads,ldlat=N/P, cpu/mem-stores/P;\n"
		"perf's raw terms: cpu/event=0xcd,umask=0x1,ldlat=N/P, "
		"cpu/config=0x82d0/P.\n"
		"See pebs-capture(1).\n");
	if (!code)
		util_close_out(stdout, NULL);
	exit(code);
}

/* ---------------------------------------------------------------- plan */

static int do_plan(const char *uarch, const char **ev, size_t nev,
		   unsigned long long period, const char *cpus, int regs,
		   const char *out)
{
	struct pebs_plan_opts po = { .regs = regs };
	struct pebs_plan *p;
	enum pebs_rule rule;
	char err[512];
	int *cl = NULL;
	size_t ncl = 0;
	int r;

	if (!uarch)
		util_die(EXIT_USAGE, "--plan: needs --uarch NAME");
	po.uarch = pebs_uarch_by_name(uarch);
	if (!po.uarch) {
		char names[256];
		util_die(EXIT_USAGE, "--uarch: unknown microarchitecture "
			 "\"%s\" (one of: %s)", uarch,
			 pebs_uarch_names(names, sizeof(names)));
	}
	if (nev == 0)
		util_die(EXIT_USAGE, "--plan: needs at least one -e EVENT");
	if (cpus) {
		r = pebs_plan_parse_cpus(cpus, &cl, &ncl, err, sizeof(err));
		if (r == -PEBS_E_NOMEM)
			util_die(EXIT_SYS, "out of memory");
		if (r < 0)
			util_die(EXIT_USAGE, "-C: %s", err);
	}
	po.period = period;
	po.cpus = cl;
	po.ncpus = ncl;
	r = pebs_plan_build(&p, &po, ev, nev, &rule, err, sizeof(err));
	free(cl);
	if (r == -PEBS_E_NOMEM)
		util_die(EXIT_SYS, "plan: out of memory");
	if (r < 0)
		util_die(EXIT_USAGE, "plan: %s", err);
	util_plan_print(p, out);
	pebs_plan_free(p);
	return EXIT_OK;
}

/* ------------------------------------------------------------- capture */

static volatile sig_atomic_t stop_flag, stop_sig;
/* SIGINT, SIGTERM and SIGHUP as inherited, for the -- COMMAND. */
static struct sigaction int0, term0, hup0;

/*
 * Each request changes the flag: with -b sim -- COMMAND the first ends
 * the command's run, a later one the replay (pebs_capture.h).  The
 * library passes it on to the -- COMMAND with its signal, unless the
 * kernel sent it (SI_KERNEL: Ctrl-C, a hangup), to the whole foreground
 * process group, the command included.  A kill(2) to our whole process
 * group (SI_USER, like one to our pid alone: siginfo does not tell them
 * apart) reaches the command twice; the man page says so.
 */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_sig = si && si->si_code == SI_KERNEL ? 0 : sig;
	stop_flag = stop_flag < SIG_ATOMIC_MAX ? stop_flag + 1 : 1;
}

/*
 * In the -- COMMAND's process before its exec: the signals as this tool
 * found them.  Its SIGPIPE is ignored (util_init), which an exec keeps: a
 * command writing into a closed pipe would get EPIPE instead of dying of
 * the signal, and run differently than outside the capture.
 */
static void pre_exec(void *ctx)
{
	(void)ctx;
	sigaction(SIGINT, &int0, NULL);
	sigaction(SIGTERM, &term0, NULL);
	sigaction(SIGHUP, &hup0, NULL);
	util_restore_signals();
}

/* The running totals, as the readers' progress line (util_progress.h):
 * rewritten in place, erased before any message and at the end. */
static void progress(void *ctx, const struct pebs_capture_stats *st)
{
	char sum[256], line[300];
	pebs_capture_summary(st, *(int *)ctx, sum, sizeof(sum));
	snprintf(line, sizeof(line), "%s: %s", util_prog, sum);
	util_progress_print(line);
}

/* --workload mixed was not given but taken: said (on_stage). */
static int default_workload;

/* The -o file, opened by the capture when its first byte is due. */
static FILE *out_fp;
static int out_errno;		/* why it could not be opened, 0 */

static FILE *open_out(void *path)
{
	out_fp = util_create_out(path, 1);
	out_errno = out_fp ? 0 : errno;
	return out_fp;
}

/*
 * The notes on standard error, each once the options that could refuse
 * the capture were accepted (a note followed by a usage error misled):
 * the sim's default workload when it starts, a --trace read from a
 * terminal before it is read.
 */
static void on_stage(void *ctx, int stage)
{
	const struct pebs_capture_opts *co = ctx;
	if (stage == PEBS_CAPTURE_READ_TRACE)
		util_note_tty(co->trace, "the trace");
	/* said once, so that nobody takes its samples for this machine's */
	if (stage == PEBS_CAPTURE_STARTED && default_workload)
		util_warn("simulating the built-in workload \"mixed\" (name "
			  "another with --workload, or --trace FILE, or -- "
			  "COMMAND)");
}

/* All logic is in lib/capture.c; this wires options, signals and the
 * summary on stderr. */
static int do_capture(struct pebs_capture_opts *co, const char *out,
		      int argc, char **argv)
{
	struct pebs_capture_stats st;
	struct sigaction sa = { .sa_sigaction = on_signal,
				.sa_flags = SA_SIGINFO };
	char err[4096], line[256], cmdline[2048] = "";
	int is_sim = !co->backend || !strcmp(co->backend, "sim"), r;

	for (int i = 0; i < argc; i++) {
		strncat(cmdline, i ? " " : "",
			sizeof(cmdline) - strlen(cmdline) - 1);
		strncat(cmdline, argv[i],
			sizeof(cmdline) - strlen(cmdline) - 1);
	}
	co->cmdline = cmdline;
	/*
	 * A file is created only when its first byte is due (the
	 * library's open_out): a refused capture leaves an existing file
	 * as it was.  Standard output is written as late.
	 */
	if (out && strcmp(out, "-")) {
		co->open_out = open_out;
		co->open_ctx = (void *)out;
	} else {
		co->out = util_open_out(out, 1);
	}
	co->stop = &stop_flag;
	co->stop_signal = &stop_sig;
	co->progress_ctx = &is_sim;
	if (util_progress_wanted(NULL))
		co->progress = progress;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &int0);
	sigaction(SIGTERM, &sa, &term0);
	/* A hangup (the terminal closed) ends the capture as SIGTERM does,
	 * the file complete, unless it was ignored (nohup). */
	sigaction(SIGHUP, NULL, &hup0);
	if (hup0.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	co->pre_exec = pre_exec;
	co->stage = on_stage;
	co->stage_ctx = co;
	r = pebs_capture_run(co, &st, err, sizeof(err));
	util_progress_clear();
	if (r < 0 && st.write_errno) {
		errno = st.write_errno;	/* EPIPE: quiet exit 0 */
		util_write_failed(out);
	}
	if (r < 0 && !st.input_bad) {
		if (r == -PEBS_E_INVAL || r == -PEBS_E_PARSE ||
		    r == -PEBS_E_RULE)
			util_die(EXIT_USAGE, "%s", err);
		if (out_errno) {
			/* the library's cleanup may have changed errno */
			errno = out_errno;
			util_out_failed(out);
		}
		util_die(EXIT_SYS, "%s", err);
	}
	/* A bad trace: what was read before the bad line is in the output
	 * (when the capture had started), written and checked, then exit
	 * 1, as the readers do for damaged input. */
	if (co->out || out_fp)
		util_close_out(co->out ? co->out : out_fp, out);
	if (r < 0)
		util_die(EXIT_DATA, "%s", err);
	/* The command was killed while writing its trace: an interrupted
	 * capture (exit 0), what the trace holds replayed. */
	if (st.trace_incomplete)
		util_warn("%s", err);
	pebs_capture_summary(&st, is_sim, line, sizeof(line));
	util_warn("%s", line);
	if (st.lost_exceeded) {
		util_warn("lost %llu samples, more than --max-lost %llu",
			  (unsigned long long)st.lost,
			  (unsigned long long)co->max_lost);
		return EXIT_LOST;
	}
	return EXIT_OK;
}

/* ---------------------------------------------------------------- main */

enum { OPT_PLAN = 256, OPT_PROBE, OPT_UARCH, OPT_WORKLOAD, OPT_SEED,
       OPT_MAXLOST, OPT_VERSION, OPT_ACCESSES, OPT_TRACE, OPT_REGS,
       OPT_LEVEL, OPT_FORCE };

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "event", required_argument, NULL, 'e' },
		{ "period", required_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "probe", no_argument, NULL, OPT_PROBE },
		{ "uarch", required_argument, NULL, OPT_UARCH },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "max-lost", required_argument, NULL, OPT_MAXLOST },
		{ "accesses", required_argument, NULL, OPT_ACCESSES },
		{ "regs", no_argument, NULL, OPT_REGS },
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ 0 }
	};
	/* Static: usage errors exit with it held (LeakSanitizer). */
	static const char **ev;
	ev = calloc((size_t)argc + 1, sizeof(*ev));
	size_t nev = 0;
	const char *out = NULL, *cpus = NULL, *uarch = NULL, *backend = NULL;
	unsigned long long period = 0, num;
	int plan = 0, probe = 0, c;
	/* --seed and --accesses drive the simulator's workload: the first
	 * of them given, refused with a hardware backend */
	int sim_opt = 0;
	struct pebs_capture_opts co = { 0 };
	/* the first option given that only a capture (cap_opt) or a
	 * capture and --plan (plan_opt) take: --probe takes neither */
	int cap_opt = 0, plan_opt = 0;
	char cap_name[32], plan_name[32];

	util_init(argv[0]);
	if (!ev)
		util_die(EXIT_SYS, "out of memory");
	while ((c = util_getopt_long(argc, argv, "+b:e:c:C:d:o:h", lo, NULL)) !=
	       -1) {
		switch (c) {
		case 'b': case 'd': case OPT_SEED: case OPT_MAXLOST:
		case OPT_ACCESSES: case OPT_WORKLOAD: case OPT_TRACE:
		case OPT_FORCE:
			if (!cap_opt)
				cap_opt = c;
			break;
		case 'e': case 'c': case 'C': case OPT_UARCH: case OPT_REGS:
			if (!plan_opt)
				plan_opt = c;
			break;
		}
		switch (c) {
		case 'b': backend = optarg; break;
		case 'e': ev[nev++] = optarg; break;
		case 'c': {
			int pr = util_parse_u64(optarg, &period);
			/* a number past 64 bits: out of range, as --seed
			 * says (util_u64_arg() exits) */
			if (pr == -2)
				util_u64_arg("-c", optarg);
			if (pr || period == 0)
				util_die(EXIT_USAGE, "-c: not a positive "
					 "number (decimal or 0x hex, with k, M "
					 "or G): \"%s\"", optarg);
			break;
		}
		case 'C': cpus = optarg; break;
		case 'd': {
			/* Seconds, fractions allowed: simulated workloads
			 * last milliseconds. */
			char *end;
			errno = 0;
			co.duration = strtod(optarg, &end);
			/* strtod() skips leading blanks, which the other
			 * numbers (-c, --seed) refuse, and reads -0 and
			 * -1e-400 as 0 (no limit): no sign */
			if (end == optarg || *end || !(co.duration >= 0) ||
			    !isfinite(co.duration) ||
			    isspace((unsigned char)*optarg) || *optarg == '-')
				util_die(EXIT_USAGE, "-d: not a number of "
					 "seconds: \"%s\"", optarg);
			/* 1e-400 reads as 0, which means no limit; a
			 * positive one is at least a cycle */
			if (errno == ERANGE && co.duration == 0)
				util_die(EXIT_USAGE, "-d: out of range: \"%s\"",
					 optarg);
			break;
		}
		case OPT_SEED:
		case OPT_MAXLOST:
		case OPT_ACCESSES:
			num = util_u64_arg(c == OPT_SEED ? "--seed" :
					   c == OPT_MAXLOST ? "--max-lost" :
					   "--accesses", optarg);
			if (c != OPT_MAXLOST && !sim_opt)
				sim_opt = c;
			if (c == OPT_SEED)
				co.seed = num;
			else if (c == OPT_ACCESSES)
				co.accesses = num;
			else
				co.max_lost = num, co.max_lost_set = 1;
			break;
		case 'o': out = optarg; break;
		case OPT_PLAN: plan = 1; break;
		case OPT_PROBE: probe = 1; break;
		case OPT_UARCH: uarch = optarg; break;
		case OPT_WORKLOAD: co.workload = optarg; break;
		case OPT_TRACE: co.trace = optarg; break;
		case OPT_REGS: co.regs = 1; break;
		case OPT_FORCE: co.force = 1; break;
		case OPT_LEVEL: co.level = util_level_arg(optarg); break;
		case 'h': usage(EXIT_OK); break;
		case OPT_VERSION: util_version(); break;
		default: usage(EXIT_USAGE);
		}
	}
	if (backend && strcmp(backend, "sim") && strcmp(backend, "msr") &&
	    strcmp(backend, "perf"))
		util_die(EXIT_USAGE, "-b: unknown backend \"%s\" (sim, msr, "
			 "perf)", backend);
	if (plan && probe)
		util_die(EXIT_USAGE, "--plan and --probe exclude each other");
	if (co.force && !plan && !probe &&
	    (!backend || (strcmp(backend, "msr") && strcmp(backend, "perf"))))
		util_die(EXIT_USAGE, "--force applies to -b msr and -b perf "
			 "only");
	if ((plan || probe) && cap_opt)
		util_die(EXIT_USAGE, "%s applies to a capture, not to %s",
			 opt_name(lo, cap_opt, cap_name, sizeof(cap_name)),
			 plan ? "--plan" : "--probe");
	if (probe && plan_opt)
		util_die(EXIT_USAGE, "%s does not apply to --probe",
			 opt_name(lo, plan_opt, plan_name, sizeof(plan_name)));
	if ((plan || probe) && co.level)
		util_die(EXIT_USAGE, "--level applies to a capture, not to "
			 "%s", plan ? "--plan" : "--probe");
	if ((plan || probe) && optind < argc)
		util_die(EXIT_USAGE, "%s takes no command",
			 plan ? "--plan" : "--probe");
	if (plan || probe) {
		int r = EXIT_OK;
		if (plan)
			r = do_plan(uarch, ev, nev, period, cpus, co.regs, out);
		else
			util_probe_print(out);
		free(ev);
		return r;
	}
	/* Ignored there, they would leave a capture that was meant to stop
	 * after N accesses running until Ctrl-C: refused, as --workload
	 * and --trace are. */
	if (sim_opt && backend && strcmp(backend, "sim"))
		util_die(EXIT_USAGE, "%s needs -b sim",
			 sim_opt == OPT_SEED ? "--seed" : "--accesses");
	co.backend = backend;
	co.events = ev;
	co.nevents = nev;
	co.period = period;
	co.cpus = cpus;
	co.uarch = uarch;
	if (optind < argc)
		co.command = argv + optind;
	/* -o of the trace itself would empty it before it is read; -o of
	 * the command's program would replace the program it runs (and
	 * whose symbols the file refers to). */
	if (co.trace)
		util_check_out(out, &co.trace, 1);
	/*
	 * The simulated PMU with nothing to run simulates a busy machine,
	 * so that `pebs-capture -d 10 | pebs-hist` shows something; said
	 * when the capture starts (on_stage).
	 */
	if ((!backend || !strcmp(backend, "sim")) && !co.workload &&
	    !co.trace && !co.command) {
		co.workload = "mixed";
		default_workload = 1;
	}
	if (co.command && strchr(co.command[0], '/'))
		util_check_out(out, (const char *const *)co.command, 1);
	c = do_capture(&co, out, argc, argv);
	free(ev);
	return c;
}
