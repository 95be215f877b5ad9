/*
 * pebs-c2c - cache-line contention (false/true sharing) report from memory
 * samples: perf c2c's counts, plus a verdict and a concrete fix per line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_c2c.h"
#include "pebs_format.h"
#include "pebs_sym.h"
#include "util.h"
#include "util_input.h"
#include "util_progress.h"
#include "util_sym.h"

#define MAX_SHOWN 20		/* damage messages printed before hushing */

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f text|csv|yaml|html|svg] [--line-size N] "
		"[-d lcl|rmt|tot]\n"
		"       [-c LIST] [--min-hitm N] [--top N] [--show-all] "
		"[--stats]\n"
		"       [--min-samples N] [--access-size N] "
		"[--verdict-share PCT]\n"
		"       [--perf-compat] [--symfs DIR] [--no-sym] [--salvage] "
		"[--no-header]\n"
		"       [-j THREADS] [-o FILE] [FILE...]\n"
		"       %s --merge [options] RESULT.yaml...\n"
		"  -f, --format F     text (default), csv, yaml (complete, "
		"mergeable), html,\n"
		"                     svg (heat maps of offsets x threads)\n"
		"  --line-size N      cache line size in bytes (default 64; "
		"128 for adjacent-line\n"
		"                     prefetch pairs)\n"
		"  -d, --display M    which HITMs order and filter lines: tot "
		"(default), lcl, rmt\n"
		"  -c, --coalesce L   per-offset row keys from "
		"pid,tid,iaddr,cpu,dso\n"
		"                     (default iaddr)\n"
		"  --min-hitm N       list lines with at least N >= 1 HITMs "
		"(default 1)\n"
		"  --top N            list at most N >= 1 lines (default all)\n"
		"  --show-all         list every line, without HITM too "
		"(--min-hitm is ignored)\n"
		"  --stats            only the global statistics tables (text "
		"or csv)\n"
		"  --min-samples N    samples (>= 1) a line needs for a verdict "
		"(default 10)\n"
		"  --access-size N    bytes assumed per sampled access, or "
		"auto: per line, the\n"
		"                     alignment of its offsets, at most 8 "
		"(default auto)\n"
		"  --verdict-share P  share of samples deciding false/true "
		"sharing (default 80)\n"
		"  --perf-compat      count remote accesses exactly as perf "
		"does (pebs-c2c(1))\n"
		"  --symfs DIR        look the binaries of the maps up under "
		"DIR\n"
		"  --no-sym           no symbols (instructions, data) in the "
		"report\n"
		"  --salvage          skip damaged blocks and go on\n"
		"  --no-header        csv: no header line\n"
		"  --merge            inputs are YAML results of pebs-c2c -f "
		"yaml: merge them\n"
		"  -o, --output FILE  write to FILE instead of standard "
		"output\n"
		"  -j, --threads N    decode threads (default: CPUs, at most "
		"8)\n"
		"  -h, --help         this help; --version: the version\n",
		util_prog, util_prog);
}

static unsigned long long num(const char *opt, const char *s,
			      unsigned long long lo, unsigned long long hi)
{
	unsigned long long v;
	if (util_parse_u64(s, &v) || v < lo || v > hi)
		util_die(EXIT_USAGE, "%s: \"%s\" is not a number from %llu to "
			 "%llu", opt, s, lo, hi);
	return v;
}

static unsigned parse_coalesce(const char *list)
{
	/* bit i: names[i] (PEBS_C2C_BY_*) */
	static const char *const names[] = { "pid", "tid", "iaddr", "cpu",
					     "dso" };
	unsigned by = 0;
	const char *p = list;
	for (;;) {
		size_t len = strcspn(p, ",");
		unsigned i;
		for (i = 0; i < 5; i++)
			if (strlen(names[i]) == len &&
			    !strncmp(p, names[i], len))
				break;
		if (i == 5)
			util_die(EXIT_USAGE, "--coalesce: unknown key \"%.*s\" "
				 "(known: pid, tid, iaddr, cpu, dso)", (int)len,
				 p);
		by |= 1u << i;
		if (!p[len])
			return by;
		p += len + 1;
	}
}

/*
 * Reads .pebs inputs into @c.  Returns the exit status of the damage;
 * *@readable is 1 when an input was a .pebs stream (a segment began).
 */
static int read_samples(struct pebs_c2c *c, char **paths, size_t n,
			unsigned threads, int salvage, int *readable)
{
	struct pebs_reader_opts ro = {
		.threads = threads, .salvage = salvage,
		.cols = 1ull << PEBS_COL_ADDR | 1ull << PEBS_COL_IP |
			1ull << PEBS_COL_DSRC | 1ull << PEBS_COL_PID |
			1ull << PEBS_COL_TID | 1ull << PEBS_COL_CPU |
			1ull << PEBS_COL_LAT,
	};
	struct pebs_reader *r;
	struct pebs_batch *b;
	int status = 0, rc;
	unsigned shown = 0;
	int64_t src = -1, seg = -1;
	rc = pebs_reader_open(&r, (const char *const *)paths, n, &ro);
	if (rc < 0)
		util_die(EXIT_SYS, "cannot start reading: %s",
			 pebs_strerror(rc));
	struct util_progress pg;
	util_progress_start(&pg, (const char *const *)paths, n, NULL);
	for (;;) {
		rc = pebs_reader_next(r, &b);
		if (rc == 0)
			break;
		util_progress_tick(&pg, r);
		if (rc < 0) {
			if (rc == -PEBS_E_NOMEM)
				util_die(EXIT_SYS, "out of memory");
			int st = rc == -PEBS_E_IO ? EXIT_SYS : EXIT_DATA;
			if (st > status)
				status = st;
			if (shown++ < MAX_SHOWN)
				util_warn("%s: %s", pebs_reader_errfile(r),
					  pebs_reader_errmsg(r));
			else if (shown == MAX_SHOWN + 1)
				util_warn("more errors not shown");
			continue;
		}
		if (b->source != src || b->segment != seg) {
			src = b->source;
			seg = b->segment;
			if (pebs_c2c_set_topology(c, pebs_reader_meta(r)) < 0) {
				util_warn("%s: topology: %s",
					  pebs_reader_name(r, b->source),
					  pebs_c2c_errmsg(c));
				status = EXIT_DATA;
			}
			if (pebs_c2c_add_maps(c, pebs_reader_meta(r)) < 0)
				util_die(EXIT_SYS, "out of memory");
		}
		if (pebs_c2c_add_batch(c, b) < 0)
			util_die(EXIT_SYS, "out of memory");
	}
	util_progress_end(&pg);
	*readable = util_reader_readable(r);
	pebs_reader_close(r);
	return status;
}

/*
 * Merges YAML results.  Returns the exit status; *@readable is 1 when a
 * result merged without error.
 */
static int read_results(struct pebs_c2c *c, char **paths, size_t n,
			int *readable)
{
	static char *dash[] = { (char *)"-" };
	int status = 0;
	if (!n) {
		paths = dash;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct util_yaml_in in;
		if (util_yaml_open(&in, paths[i]) < 0) {
			status = EXIT_SYS;
			continue;
		}
		int r = pebs_c2c_merge_yaml_read(c, util_yaml_read, &in);
		util_yaml_close(&in, r);
		if (r == -PEBS_E_IO) {
			status = EXIT_SYS;
		} else if (r < 0) {
			util_warn("%s: %s", util_name(paths[i]),
				  pebs_c2c_errmsg(c));
			if (status < EXIT_DATA)
				status = EXIT_DATA;
		} else {
			*readable = 1;
		}
	}
	return status;
}

int main(int argc, char **argv)
{
	enum { O_LINE = 256, O_MINHITM, O_TOP, O_SHOWALL, O_STATS, O_MINS,
	       O_ACC, O_SHARE, O_COMPAT, O_MERGE, O_SYMFS, O_NOSYM,
	       O_SALVAGE, O_VERSION, O_NOHDR };
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "display", required_argument, NULL, 'd' },
		{ "coalesce", required_argument, NULL, 'c' },
		{ "line-size", required_argument, NULL, O_LINE },
		{ "min-hitm", required_argument, NULL, O_MINHITM },
		{ "top", required_argument, NULL, O_TOP },
		{ "show-all", no_argument, NULL, O_SHOWALL },
		{ "stats", no_argument, NULL, O_STATS },
		{ "min-samples", required_argument, NULL, O_MINS },
		{ "access-size", required_argument, NULL, O_ACC },
		{ "verdict-share", required_argument, NULL, O_SHARE },
		{ "perf-compat", no_argument, NULL, O_COMPAT },
		{ "merge", no_argument, NULL, O_MERGE },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "no-sym", no_argument, NULL, O_NOSYM },
		{ "salvage", no_argument, NULL, O_SALVAGE },
		{ "no-header", no_argument, NULL, O_NOHDR },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pebs_c2c_opts o;
	unsigned threads = 0;
	const char *out = NULL;
	struct pebs_sym_opts so = { 0 };
	int fmt = PEBS_C2C_F_TEXT, stats = 0, merge = 0, nosym = 0, ch;
	int salvage = 0, nohdr = 0;
	memset(&o, 0, sizeof(o));
	util_init(argv[0]);
	while ((ch = util_getopt_long(argc, argv, "f:o:d:c:j:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = PEBS_C2C_F_TEXT;
			else if (!strcmp(optarg, "csv"))
				fmt = PEBS_C2C_F_CSV;
			else if (!strcmp(optarg, "yaml"))
				fmt = PEBS_C2C_F_YAML;
			else if (!strcmp(optarg, "html"))
				fmt = PEBS_C2C_F_HTML;
			else if (!strcmp(optarg, "svg"))
				fmt = PEBS_C2C_F_SVG;
			else
				util_die(EXIT_USAGE, "-f: unknown format "
					 "\"%s\" (text, csv, yaml, html, svg)",
					 optarg);
			break;
		case 'o': out = optarg; break;
		case 'j':
			threads = util_threads_arg(optarg);
			break;
		case 'd':
			if (!strcmp(optarg, "tot"))
				o.display = PEBS_C2C_D_TOT;
			else if (!strcmp(optarg, "lcl"))
				o.display = PEBS_C2C_D_LCL;
			else if (!strcmp(optarg, "rmt"))
				o.display = PEBS_C2C_D_RMT;
			else
				util_die(EXIT_USAGE, "-d: unknown display "
					 "\"%s\" (lcl, rmt, tot)", optarg);
			break;
		case 'c': o.coalesce = parse_coalesce(optarg); break;
		case O_LINE:
			o.line_size = (unsigned)num("--line-size", optarg, 16,
						    256);
			break;
		case O_MINHITM:
			o.min_hitm = num("--min-hitm", optarg, 1, UINT64_MAX);
			break;
		case O_TOP:
			o.top = (size_t)num("--top", optarg, 1, SIZE_MAX);
			break;
		case O_SHOWALL: o.show_all = 1; break;
		case O_STATS: stats = 1; break;
		case O_MINS:
			o.min_samples = (unsigned)num("--min-samples", optarg,
						      1, UINT32_MAX);
			break;
		case O_ACC:
			if (!strcmp(optarg, "auto")) {
				o.access_size = 0;
				break;
			}
			unsigned long long v;
			if (util_parse_u64(optarg, &v) || v < 1 || v > 256)
				util_die(EXIT_USAGE, "--access-size: \"%s\" is "
					 "not auto or a number from 1 to 256",
					 optarg);
			o.access_size = (unsigned)v;
			break;
		case O_SHARE:
			o.verdict_pct = (unsigned)num("--verdict-share",
						      optarg, 51, 100);
			break;
		case O_COMPAT: o.perf_compat = 1; break;
		case O_MERGE: merge = 1; break;
		case O_SYMFS: util_symfs = optarg; break;
		case O_NOSYM: nosym = 1; break;
		case O_SALVAGE: salvage = 1; break;
		case O_NOHDR: nohdr = 1; break;
		case 'h': usage(stdout); util_close_out(stdout, NULL);
			return EXIT_OK;
		case O_VERSION: util_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (stats) {
		if (fmt == PEBS_C2C_F_TEXT)
			fmt = PEBS_C2C_F_STATS_TEXT;
		else if (fmt == PEBS_C2C_F_CSV)
			fmt = PEBS_C2C_F_STATS_CSV;
		else
			util_die(EXIT_USAGE, "--stats: only with -f text or "
				 "csv (yaml always holds the totals)");
	}
	struct pebs_c2c *c;
	char err[256];
	int r = pebs_c2c_new(&c, &o, err, sizeof(err));
	if (r == -PEBS_E_INVAL)
		util_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		util_die(EXIT_SYS, "out of memory");
	char **paths = argv + optind;
	size_t n = (size_t)(argc - optind);
	/* with --merge too: results keep the maps, symbolized from DIR */
	util_symfs_check();
	so.symfs = util_symfs;
	util_check_out(out, (const char *const *)paths, n);
	int readable = 0;
	int status = merge ? read_results(c, paths, n, &readable) :
			     read_samples(c, paths, n, threads, salvage,
					  &readable);
	if (pebs_c2c_finish(c) < 0)
		util_die(EXIT_SYS, "%s", pebs_c2c_errmsg(c));
	/*
	 * No input could be read (a CSV, a YAML result without --merge, a
	 * missing file): an empty report would pass for a run without
	 * contention, so none is written (nor is -o's file touched).  Samples
	 * read before an error (a cut result) still make a report.
	 */
	if (status && !readable && !pebs_c2c_totals(c)->nr_entries) {
		pebs_c2c_free(c);
		return status;
	}
	/* symbols only where the inputs carry maps: no cost otherwise */
	struct pebs_sym *sym = NULL;
	if (!nosym && pebs_c2c_maps(c)) {
		sym = util_sym_open(pebs_c2c_maps(c), &so);
		pebs_c2c_set_sym(c, sym);
	}
	FILE *fp = util_open_out(out, 0);
	util_out_keep();	/* some input was read: a result */
	/* like pebs-decode's, ignored by the formats without a header */
	FILE *w = nohdr && (fmt == PEBS_C2C_F_CSV ||
			    fmt == PEBS_C2C_F_STATS_CSV) ?
		  util_open_nohdr(fp) : fp;
	r = pebs_c2c_write(c, w, (enum pebs_c2c_format)fmt);
	if (r == -PEBS_E_IO)
		util_write_failed(out);
	if (r < 0)
		util_die(EXIT_SYS, "%s", pebs_c2c_errmsg(c));
	if (w != fp)
		util_close_nohdr(w, out);
	util_close_out(fp, out);
	const char *note;
	for (size_t i = 0; sym && i < pebs_sym_notes(sym, i, &note); i++)
		util_warn("symbols: %s", note);
	pebs_sym_close(sym);
	pebs_c2c_free(c);
	return status;
}
