/*
 * pebs-capture - PEBS memory-sample capture on the simulated PMU, raw
 * MSRs + DS area, or perf_event_open (lib/capture.c does the work), plus
 * --plan (the exact MSR programming for events on a microarchitecture,
 * every SDM rule enforced) and --probe (what this machine offers, and why
 * not).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_capture.h"
#include "pebs_plan.h"
#include "pebs_probe.h"
#include "pebs_uarch.h"
#include "util.h"
#include "util_yaml.h"

static void usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: pebs-capture [-b sim|msr|perf] [-e EVENT]... "
		"[-c PERIOD] [-C CPUS] [-d SECONDS]\n"
		"                    [-o FILE] [--uarch NAME] [--workload NAME | "
		"--trace FILE]\n"
		"                    [--seed N] [--max-lost N] [--accesses N] "
		"[--regs] [-- COMMAND ARGS...]\n"
		"       pebs-capture --plan --uarch NAME -e EVENT... "
		"[-c PERIOD] [-C CPUS] [--regs] [-o FILE]\n"
		"       pebs-capture --probe [-o FILE]\n"
		"EVENT: load-latency[:ldlat=N], precise-store, "
		"frontend:sub=NAME[,latency=N,width=N],\n"
		"SDM names (MEM_LOAD_RETIRED.L3_MISS), rHEX; modifiers "
		"after ':' (period=N,u,k,pmc=N).\n"
		"See pebs-capture(1).\n");
	exit(code);
}

/* ---------------------------------------------------------------- plan */

static void print_plan(const struct pebs_plan *p, const char *path)
{
	const struct pebs_uarch *u = pebs_plan_uarch(p);
	struct yout o;
	yo_doc_start(&o, path);
	yo_kv(&o, "uarch", u->name);
	yo_kvu(&o, "pebs_format", u->pebs_fmt);
	yo_scalar(&o, "events");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nevents(p); i++) {
		const struct pebs_plan_event *e = pebs_plan_event(p, i);
		yo_map_start(&o);
		yo_kv(&o, "spec", e->ev.spec.text);
		yo_kv(&o, "name", e->ev.name);
		yo_kv(&o, "kind", pebs_uarch_kind_name(e->ev.kind));
		yo_scalar(&o, "counter");
		yo_scalarf(&o, "PMC%u", e->counter);
		yo_kvhex(&o, "evtsel", e->evtsel);
		yo_kvu(&o, "period", e->period);
		if (e->ev.kind == PEBS_EVK_LOAD_LATENCY)
			yo_kvu(&o, "ldlat", e->ldlat);
		if (e->ev.kind == PEBS_EVK_FRONTEND)
			yo_kvhex(&o, "frontend", e->frontend);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	yo_scalar(&o, "msr_writes");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nwrites(p); i++) {
		const struct pebs_msr_write *w = pebs_plan_write(p, i);
		yo_map_start(&o);
		yo_kvhex(&o, "msr", w->msr);
		yo_kv(&o, "name", w->name);
		yo_scalar(&o, "cpu");
		if (w->cpu < 0)
			yo_scalar(&o, "all");
		else
			yo_scalarf(&o, "%d", w->cpu);
		yo_kvhex(&o, "value", w->value);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	yo_scalar(&o, "ds_reset");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nresets(p); i++) {
		const struct pebs_ds_reset *r = pebs_plan_reset(p, i);
		yo_map_start(&o);
		yo_scalar(&o, "counter");
		yo_scalarf(&o, "PMC%u", r->counter);
		yo_kvhex(&o, "offset", r->offset);
		yo_kvhex(&o, "value", r->value);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	yo_kv(&o, "ds_area", "per-CPU DS save area address, allocated at "
	   "capture; written as 0x0 in this plan");
	yo_doc_end(&o);
}

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
		char names[256] = "";
		for (unsigned i = 0; i < pebs_uarch_count(); i++) {
			strncat(names, i ? " " : "",
				sizeof(names) - strlen(names) - 1);
			strncat(names, pebs_uarch_get(i)->name,
				sizeof(names) - strlen(names) - 1);
		}
		util_die(EXIT_USAGE, "--uarch: unknown microarchitecture "
			 "\"%s\" (one of: %s)", uarch, names);
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
	print_plan(p, out);
	pebs_plan_free(p);
	return EXIT_OK;
}

/* --------------------------------------------------------------- probe */

static int do_probe(const char *out)
{
	struct pebs_probe_facts f;
	struct pebs_probe_result r;
	struct yout o;
	const char *root = getenv("PEBS_PROBE_ROOT");

	if (pebs_probe_gather(&f, root) < 0)
		util_die(EXIT_SYS, "PEBS_PROBE_ROOT: %s: not a directory",
			 root);
	pebs_probe_analyze(&f, &r);
	yo_doc_start(&o, out);
	yo_scalar(&o, "cpu");
	yo_map_start(&o);
	yo_kv(&o, "source", r.cpu_source);
	yo_kv(&o, "vendor", r.vendor[0] ? r.vendor : "unknown");
	yo_kvu(&o, "family", r.family);
	yo_kvu(&o, "model", r.model);
	yo_kvhex(&o, "model_hex", r.model);
	yo_kvu(&o, "stepping", r.stepping);
	yo_kv(&o, "name", f.name[0] ? f.name : "unknown");
	yo_kvu(&o, "logical_cpus", f.ncpus);
	yo_kv(&o, "hypervisor", r.hypervisor ? "true" : "false");
	yo_map_end(&o);
	yo_scalar(&o, "uarch");
	yo_map_start(&o);
	yo_kv(&o, "name", r.uarch ? r.uarch->name : "none");
	if (r.uarch)
		yo_kv(&o, "desc", r.uarch->desc);
	if (r.uarch_why[0])
		yo_kv(&o, "note", r.uarch_why);
	yo_kv(&o, "perf_pmu_name", f.pmu_name[0] ? f.pmu_name : "unknown");
	yo_map_end(&o);
	yo_scalar(&o, "pebs");
	yo_map_start(&o);
	yo_scalar(&o, "format");
	if (r.pebs_fmt >= 0)
		yo_scalarf(&o, "%d", r.pebs_fmt);
	else
		yo_scalar(&o, "unknown");
	yo_kv(&o, "format_source", r.pebs_fmt_source);
	if (f.perf_cap_ok)
		yo_kvhex(&o, "perf_capabilities", f.perf_cap);
	yo_kv(&o, "ds", r.ds < 0 ? "unknown" : r.ds ? "true" : "false");
	yo_kv(&o, "dtes64", r.dtes64 < 0 ? "unknown" :
	   r.dtes64 ? "true" : "false");
	yo_kv(&o, "pdcm", r.pdcm < 0 ? "unknown" : r.pdcm ? "true" : "false");
	yo_map_end(&o);
	yo_scalar(&o, "counters");
	yo_map_start(&o);
	if (r.counters_ok) {
		yo_kv(&o, "source", "CPUID.0AH");
		yo_kvu(&o, "version", r.pmu_version);
		yo_kvu(&o, "gp", r.n_gp);
		yo_kvu(&o, "gp_width", r.gp_width);
		yo_kvu(&o, "fixed", r.n_fixed);
		yo_kvu(&o, "fixed_width", r.fixed_width);
	} else {
		yo_kv(&o, "source", f.cpuid_ok ? "unknown (no CPUID leaf 0AH)" :
		   "unknown (no CPUID facts)");
	}
	yo_map_end(&o);
	yo_scalar(&o, "backends");
	yo_map_start(&o);
	for (int i = 0; i < 3; i++) {
		const struct pebs_probe_backend *b = &r.backend[i];
		yo_scalar(&o, b->name);
		yo_map_start(&o);
		yo_kv(&o, "available", b->available ? "true" : "false");
		if (i == 2) {
			yo_scalar(&o, "perf_event_paranoid");
			if (f.paranoid_ok)
				yo_scalarf(&o, "%d", f.paranoid);
			else
				yo_scalar(&o, "unknown");
		}
		yo_scalar(&o, b->available ? "notes" : "why_not");
		yo_seq_start(&o);
		for (unsigned k = 0; k < b->nreasons; k++)
			yo_scalar(&o, b->reasons[k]);
		yo_seq_end(&o);
		yo_map_end(&o);
	}
	yo_map_end(&o);
	yo_doc_end(&o);
	return EXIT_OK;
}

/* ------------------------------------------------------------- capture */

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void progress(void *ctx, const struct pebs_capture_stats *st)
{
	char line[256];
	pebs_capture_summary(st, *(int *)ctx, line, sizeof(line));
	fprintf(stderr, "\r%s: %s ", util_prog, line);
}

/* All logic is in lib/capture.c; this wires options, signals and the
 * summary on stderr. */
static int do_capture(struct pebs_capture_opts *co, const char *out,
		      int argc, char **argv)
{
	struct pebs_capture_stats st;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[1024], line[256], cmdline[2048] = "";
	int is_sim = !co->backend || !strcmp(co->backend, "sim"), r;

	for (int i = 0; i < argc; i++) {
		strncat(cmdline, i ? " " : "",
			sizeof(cmdline) - strlen(cmdline) - 1);
		strncat(cmdline, argv[i],
			sizeof(cmdline) - strlen(cmdline) - 1);
	}
	co->cmdline = cmdline;
	co->out = util_open_out(out, 1);
	co->stop = &stop_flag;
	co->progress_ctx = &is_sim;
	if (isatty(2))
		co->progress = progress;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	r = pebs_capture_run(co, &st, err, sizeof(err));
	if (co->progress)
		fputc('\n', stderr);
	if (r < 0 && st.write_errno) {
		errno = st.write_errno;	/* EPIPE: quiet exit 0 */
		util_write_failed(out);
	}
	if (r < 0) {
		if (r == -PEBS_E_INVAL || r == -PEBS_E_PARSE ||
		    r == -PEBS_E_RULE)
			util_die(EXIT_USAGE, "%s", err);
		util_die(EXIT_SYS, "%s", err);
	}
	util_close_out(co->out, out);
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
       OPT_MAXLOST, OPT_VERSION, OPT_ACCESSES, OPT_TRACE, OPT_REGS };

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
	struct pebs_capture_opts co = { 0 };

	util_init(argv[0]);
	if (!ev)
		util_die(EXIT_SYS, "out of memory");
	while ((c = getopt_long(argc, argv, "+b:e:c:C:d:o:h", lo, NULL)) !=
	       -1) {
		switch (c) {
		case 'b': backend = optarg; break;
		case 'e': ev[nev++] = optarg; break;
		case 'c':
			if (util_parse_u64(optarg, &period) || period == 0)
				util_die(EXIT_USAGE, "-c: not a positive "
					 "number: \"%s\"", optarg);
			break;
		case 'C': cpus = optarg; break;
		case 'd': {
			/* Seconds, fractions allowed: simulated workloads
			 * last milliseconds. */
			char *end;
			co.duration = strtod(optarg, &end);
			if (end == optarg || *end || !(co.duration >= 0))
				util_die(EXIT_USAGE, "-d: not a number of "
					 "seconds: \"%s\"", optarg);
			break;
		}
		case OPT_SEED:
		case OPT_MAXLOST:
		case OPT_ACCESSES:
			if (util_parse_u64(optarg, &num))
				util_die(EXIT_USAGE, "%s: not a number: "
					 "\"%s\"", c == OPT_SEED ? "--seed" :
					 c == OPT_MAXLOST ? "--max-lost" :
					 "--accesses", optarg);
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
	if ((plan || probe) && optind < argc)
		util_die(EXIT_USAGE, "%s takes no command",
			 plan ? "--plan" : "--probe");
	if (plan || probe) {
		int r = plan ? do_plan(uarch, ev, nev, period, cpus, co.regs,
				       out) :
			       do_probe(out);
		free(ev);
		return r;
	}
	co.backend = backend;
	co.events = ev;
	co.nevents = nev;
	co.period = period;
	co.cpus = cpus;
	co.uarch = uarch;
	if (optind < argc)
		co.command = argv + optind;
	c = do_capture(&co, out, argc, argv);
	free(ev);
	return c;
}
