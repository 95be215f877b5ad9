/*
 * pebs-hist - exact histograms and percentiles of a sample field, grouped
 * by any field; --merge combines YAML outputs of several runs exactly.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_hist.h"
#include "util.h"
#include "util_evcheck.h"
#include "util_input.h"
#include "util_progress.h"
#include "util_sym.h"

#define MAX_PCT 64
#define MAX_SHOWN 20

struct opts {
	int fmt;
	int field, by;
	int field_set, by_set;
	struct pebs_hist_bins bins;
	struct pebs_hist_pct pct[MAX_PCT];
	size_t npct;
	int merge, salvage;
	int zeros;		/* --zeros: a latency's 0 is a value */
	int no_header;		/* --no-header: csv without its header line */
	size_t top;		/* 0: every group */
	unsigned threads;
	const char *out;
	const char *where;
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f text|csv|yaml|svg] [--field NAME] "
		"[--by KEY] [--bins SPEC]\n"
		"       [--percentiles LIST] [--where EXPR] [--top N] "
		"[--symfs DIR]\n"
		"       [--zeros] [--no-header] [-o FILE] [--salvage] "
		"[-j THREADS] [FILE...]\n"
		"       %s --merge [-f ...] [--bins SPEC] [--percentiles LIST]\n"
		"                 [--top N] [--zeros] [--no-header] YAML...\n"
		"  -f, --format FORMAT  output format (default: text on a "
		"terminal, else csv)\n"
		"  --field NAME       numeric field to count (default: lat)\n"
		"  --by KEY           one histogram per value of KEY (mem, "
		"snoop, event, cpu,\n"
		"                     sym, dso, srcline, data_sym, ...)\n"
		"  --bins SPEC        log2 (default), linear:WIDTH, or "
		"ascending edges E0,E1,...\n"
		"                     (also edges:E0,E1,...)\n"
		"  --percentiles LIST e.g. 50,90,99,99.9 (csv: percentiles "
		"instead of bins)\n"
		"  --where EXPR       count only samples matching EXPR (see "
		"pebs-filter(1))\n"
		"  --top N            text, csv, svg: the N groups with the "
		"most samples, most\n"
		"                     first\n"
		"  --symfs DIR        look binaries up under DIR (symbol "
		"groups)\n"
		"  --zeros            lat, ins_lat: count 0 as a value (by "
		"default 0 means not\n"
		"                     measured, as for stores: left out, "
		"counted apart)\n"
		"  --no-header        csv: no header line\n"
		"  --merge            inputs are yaml outputs of pebs-hist: "
		"combine them\n"
		"  --salvage          skip damaged blocks and go on\n"
		"  -o, --output FILE  write to FILE instead of standard "
		"output\n"
		"  -j, --threads N    decode threads (default: CPUs, at most "
		"8)\n"
		"  -h, --help         this help; --version: the version\n",
		util_prog, util_prog);
}

/* The items of comma-separated list @s, for a message. */
static size_t list_len(const char *s)
{
	size_t n = 1;
	for (; *s; s++)
		n += *s == ',';
	return n;
}

static int field_arg(const char *opt, const char *name, int numeric)
{
	const struct pebs_field *f = pebs_field_find(name);
	if (!f)
		util_unknown_field(opt, name);
	if (numeric && f->kind == PEBS_FK_STR)
		util_die(EXIT_USAGE, "%s: field \"%s\" is not numeric", opt,
			 name);
	return f->id;
}

static void check(int r, const char *out)
{
	if (r == -PEBS_E_IO)
		util_write_failed(out);
	if (r < 0)
		util_die(EXIT_SYS, "%s", pebs_strerror(r));
}

/*
 * Merges YAML results into *@hp.  Returns the exit status; *@readable is 1
 * when a result merged without error or some counts of one are in (as
 * pebs-c2c: a document refused before any count leaves nothing to write).
 */
static int run_merge(struct opts *o, const char *const *paths, size_t n,
		     struct pebs_hist **hp, int *readable)
{
	char err[256];
	int status = EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		struct util_yaml_in in;
		if (util_yaml_open(&in, paths[i]) < 0) {
			status = EXIT_SYS;
			continue;
		}
		/* the first result makes the histogram: its field, by and
		 * --where (then checked against the options) */
		int first = !*hp;
		int r = pebs_hist_merge_yaml_read(hp, util_yaml_read, &in, err,
						  sizeof(err));
		util_yaml_close(&in, r);
		if (r == -PEBS_E_IO)
			status = EXIT_SYS;
		if (first && !*hp && r != -PEBS_E_IO)
			util_die(r == -PEBS_E_NOMEM ? EXIT_SYS : EXIT_DATA,
				 "%s: %s", util_name(paths[i]), err);
		if (first && *hp) {
			int f = pebs_hist_field(*hp), b = pebs_hist_by(*hp);
			/* --field and --by can only say what the inputs
			 * are: a result cannot be regrouped */
			if ((o->field_set && o->field != f) ||
			    (o->by_set && o->by != b))
				util_die(EXIT_USAGE, "%s: a histogram of %s by "
					 "%s: --field and --by with --merge "
					 "must name the inputs' (or be left "
					 "out)", util_name(paths[i]),
					 pebs_field_by_id(f)->name, b < 0 ?
					 "none" : pebs_field_by_id(b)->name);
		}
		if (r == -PEBS_E_NOMEM)
			util_die(EXIT_SYS, "out of memory");
		/* counts of other samples: the inputs do not go together */
		if (r == -PEBS_E_INVAL)
			util_die(EXIT_USAGE, "%s: %s", util_name(paths[i]),
				 err);
		if (r < 0 && r != -PEBS_E_IO) {
			util_warn("%s: %s", util_name(paths[i]), err);
			if (status < EXIT_DATA)
				status = EXIT_DATA;
		} else if (!r) {
			*readable = 1;
		}
	}
	/* what was read before an error stays merged (pebs_hist.h) */
	if (*hp && (pebs_hist_total(*hp) || pebs_hist_unmeasured_total(*hp)))
		*readable = 1;
	if (!*hp && pebs_hist_new(hp, o->field, o->by) < 0)
		util_die(EXIT_SYS, "out of memory");
	return status;
}

/* --where: blocks that cannot match are skipped undecoded, with `t` on
 * the clock of the block's own segment. */
static int where_cb(void *ctx, const struct pebs_block_info *bi)
{
	return pebs_expr_block_segment(ctx, bi) != PEBS_MATCH_NONE;
}

/*
 * Without --where or symbols, each decode thread counts into its own
 * histogram (pebs_reader_opts.consume), merged at the end: counting then
 * scales with the threads instead of waiting for the one that reads.
 */
struct workers {
	struct pebs_hist *h[PEBS_READER_MAX_THREADS];
	int field, by;
};

static int count_cb(void *ctx, unsigned worker, const struct pebs_batch *b)
{
	struct workers *w = ctx;
	if (!w->h[worker]) {
		int r = pebs_hist_new(&w->h[worker], w->field, w->by);
		if (r < 0)
			return r;
	}
	return pebs_hist_add(w->h[worker], b);
}

/* pebs_hist_add() or _merge() failed with @r: out of memory, or more
 * samples than a count holds. */
static void count_failed(int r)
{
	if (r == -PEBS_E_RANGE)
		util_die(EXIT_DATA, "more than 2^64-1 samples: a count would "
			 "wrap");
	util_die(EXIT_SYS, "out of memory");
}

/*
 * Counts the samples of the inputs into *@hp.  Returns the exit status;
 * *@readable is 1 when an input was a .pebs stream (a segment began).
 */
static int run_read(struct opts *o, const char *const *paths, size_t n,
		    struct pebs_hist **hp, int *readable)
{
	struct pebs_expr *e = NULL;
	struct pebs_expr_error xe;
	if (o->where) {
		int r = pebs_expr_parse(o->where, &e, &xe);
		if (r == -PEBS_E_NOMEM)
			util_die(EXIT_SYS, "out of memory");
		if (r < 0)
			util_die(EXIT_USAGE, "--where: col %zu: %s", xe.col,
				 xe.msg);
	}
	if (pebs_hist_new(hp, o->field, o->by) < 0)
		util_die(EXIT_SYS, "out of memory");
	struct pebs_reader_opts ro = {
		.threads = o->threads, .salvage = o->salvage,
		.cols = pebs_hist_cols(*hp) | (e ? pebs_expr_cols(e) : 0),
		.filter = e ? where_cb : NULL, .filter_ctx = e,
	};
	int hsym = pebs_field_is_sym(o->by), esym = e && pebs_expr_uses_sym(e);
	struct workers wk = { .field = o->field, .by = o->by };
	if (!e && !hsym) {
		ro.consume = count_cb;
		ro.consume_ctx = &wk;
	}
	struct pebs_reader *r;
	int rc = pebs_reader_open(&r, paths, n, &ro);
	if (rc < 0)
		util_die(EXIT_SYS, "cannot start reading: %s",
			 pebs_strerror(rc));
	struct pebs_batch *b;
	/*
	 * Static: the loop can die on a bad --where clock; scratch held from
	 * file scope is not a leak to LeakSanitizer then.
	 */
	static struct pebs_batch *sub;
	static uint32_t *sel;
	sub = NULL;
	sel = NULL;
	if (e && !(sel = malloc(PEBS_BATCH_MAX * sizeof(*sel))))
		util_die(EXIT_SYS, "out of memory");
	int status = EXIT_OK;
	unsigned shown = 0;
	struct util_progress pg;
	util_progress_start(&pg, paths, n, NULL);
	struct util_evcheck ec;
	util_evcheck_start(&ec, e, "--where");
	while ((rc = pebs_reader_next(r, &b)) != 0) {
		util_progress_tick(&pg, r);
		if (rc < 0) {
			if (rc == -PEBS_E_NOMEM)
				util_die(EXIT_SYS, "out of memory");
			int st = rc == -PEBS_E_IO ? EXIT_SYS : EXIT_DATA;
			status = st > status ? st : status;
			if (shown++ < MAX_SHOWN)
				util_warn("%s: %s", pebs_reader_errfile(r),
					  pebs_reader_errmsg(r));
			continue;
		}
		util_evcheck_batch(&ec, r, b);
		if (e)
			util_expr_segment(e, r, b, "--where");
		if (hsym || esym) {
			struct pebs_sym *s = util_sym_get(pebs_reader_meta(r),
				b->source < n ? paths[b->source] : "-");
			pebs_hist_set_sym(*hp, s);
			if (e)
				pebs_expr_set_sym(e, s);
		}
		if (e) {
			size_t k = pebs_expr_eval(e, b, sel);
			if (k == (size_t)-1)
				util_die(EXIT_SYS, "out of memory");
			if (pebs_batch_fit(&sub, k, 0) < 0 ||
			    pebs_expr_select(sub, b, sel, k, ro.cols) < 0)
				util_die(EXIT_SYS, "out of memory");
			b = sub;
		}
		if (!ro.consume && (rc = pebs_hist_add(*hp, b)) < 0)
			count_failed(rc);
	}
	util_progress_end(&pg);
	util_evcheck_end(&ec, r, 1);
	util_sym_close();
	*readable = util_reader_readable(r);
	pebs_reader_close(r);
	for (unsigned i = 0; i < PEBS_READER_MAX_THREADS; i++) {
		if (!wk.h[i])
			continue;
		/* the first worker's histogram becomes the result: merging it
		 * into an empty one would redo all its counting */
		if (!pebs_hist_ngroups(*hp)) {
			pebs_hist_free(*hp);
			*hp = wk.h[i];
			continue;
		}
		if ((rc = pebs_hist_merge(*hp, wk.h[i])) < 0)
			count_failed(rc);
		pebs_hist_free(wk.h[i]);
	}
	pebs_batch_free(sub);
	free(sel);
	/* recorded in the YAML result, for --merge to compare */
	if (o->where && pebs_hist_set_where(*hp, o->where) < 0)
		util_die(EXIT_SYS, "out of memory");
	pebs_expr_free(e);
	return status;
}

int main(int argc, char **argv)
{
	enum { O_FIELD = 256, O_BY, O_BINS, O_PCT, O_MERGE, O_WHERE,
	       O_SALVAGE, O_VERSION, O_SYMFS, O_TOP, O_ZEROS,
	       O_NOHDR };
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "field", required_argument, NULL, O_FIELD },
		{ "by", required_argument, NULL, O_BY },
		{ "bins", required_argument, NULL, O_BINS },
		{ "percentiles", required_argument, NULL, O_PCT },
		{ "where", required_argument, NULL, O_WHERE },
		{ "merge", no_argument, NULL, O_MERGE },
		{ "salvage", no_argument, NULL, O_SALVAGE },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "top", required_argument, NULL, O_TOP },
		{ "zeros", no_argument, NULL, O_ZEROS },
		{ "no-header", no_argument, NULL, O_NOHDR },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .fmt = -1, .field = PEBS_COL_LAT, .by = -1 };
	int c, r;
	util_init(argv[0]);
	o.bins.kind = PEBS_BINS_LOG2;
	while ((c = util_getopt_long(argc, argv, "f:o:j:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.fmt = pebs_hist_format_parse(optarg);
			if (o.fmt < 0)
				util_die(EXIT_USAGE, "-f: unknown format "
					 "\"%s\" (text, csv, yaml, svg)",
					 optarg);
			break;
		case O_FIELD:
			o.field = field_arg("--field", optarg, 1);
			o.field_set = 1;
			break;
		case O_BY:
			/* perf's --sort takes a list; a histogram has one
			 * key (the others: --where, or a run per key) */
			if (strchr(optarg, ','))
				util_die(EXIT_USAGE, "--by: one field, not a "
					 "list (\"%s\"): group by one and "
					 "narrow with --where", optarg);
			o.by = strcmp(optarg, "none") ?
			       field_arg("--by", optarg, 0) : -1;
			o.by_set = 1;
			break;
		case O_BINS:
			r = pebs_hist_bins_parse(optarg, &o.bins);
			if (r == -PEBS_E_RANGE)
				util_die(EXIT_USAGE, "--bins: \"%s\": number "
					 "too large (more than 64 bits)",
					 optarg);
			if (r == -PEBS_E_UNSUPPORTED)
				util_die(EXIT_USAGE, "--bins: %zu edges, more "
					 "than the %d allowed", list_len(optarg),
					 PEBS_HIST_MAX_EDGES);
			if (r == -PEBS_E_INVAL && o.bins.kind ==
			    PEBS_BINS_LINEAR)
				util_die(EXIT_USAGE, "--bins: \"%s\": the "
					 "width must be at least 1", optarg);
			if (r == -PEBS_E_INVAL)
				util_die(EXIT_USAGE, "--bins: \"%s\": edges "
					 "must be strictly ascending: %llu "
					 "after %llu", optarg,
					 (unsigned long long)
					 o.bins.edges[o.bins.nedges],
					 (unsigned long long)
					 o.bins.edges[o.bins.nedges - 1]);
			if (r < 0)
				util_die(EXIT_USAGE, "--bins: bad spec \"%s\" "
					 "(log2, linear:WIDTH, or ascending "
					 "edges E0,E1,... or edges:E0,E1,...)",
					 optarg);
			break;
		case O_PCT:
			r = pebs_hist_pct_parse(optarg, o.pct, MAX_PCT);
			if (r == -PEBS_E_INVAL)
				util_die(EXIT_USAGE, "--percentiles: \"%s\" "
					 "names a percentile twice (keys must "
					 "be unique; 50 and 50.0 are the "
					 "same)", optarg);
			if (r == -PEBS_E_RANGE)
				util_die(EXIT_USAGE, "--percentiles: %zu "
					 "percentiles, more than the %d allowed",
					 list_len(optarg), MAX_PCT);
			if (r < 0)
				util_die(EXIT_USAGE, "--percentiles: bad list "
					 "\"%s\" (numbers in 0..100 of at most "
					 "19 digits, e.g. 50,90,99.9)", optarg);
			o.npct = (size_t)r;
			break;
		case O_WHERE: o.where = optarg; break;
		case O_TOP: {
			unsigned long long v;
			if (util_parse_u64(optarg, &v) || v < 1 ||
			    v > SIZE_MAX)
				util_die(EXIT_USAGE, "--top: \"%s\" is not a "
					 "number of groups (1 or more)",
					 optarg);
			o.top = (size_t)v;
			break;
		}
		case O_SYMFS: util_symfs = optarg; break;
		case O_MERGE: o.merge = 1; break;
		case O_ZEROS: o.zeros = 1; break;
		case O_NOHDR: o.no_header = 1; break;
		case O_SALVAGE: o.salvage = 1; break;
		case 'o': o.out = optarg; break;
		case 'j':
			o.threads = util_threads_arg(optarg);
			break;
		case 'h': usage(stdout); util_close_out(stdout, NULL);
			return EXIT_OK;
		case O_VERSION: util_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (o.merge && o.where)
		util_die(EXIT_USAGE, "--where does not apply to --merge");
	if (o.top && o.fmt == PEBS_HIST_YAML)
		util_die(EXIT_USAGE, "--top does not apply to yaml, which "
			 "keeps every group for --merge");
	/* as --top with yaml: an option the format cannot honour is an
	 * error, not a plot that silently differs from what was asked */
	if (o.fmt == PEBS_HIST_SVG && o.bins.kind != PEBS_BINS_LOG2)
		util_die(EXIT_USAGE, "--bins does not apply to svg, which "
			 "always plots log2 bins");
	if (o.fmt == PEBS_HIST_SVG && o.npct)
		util_die(EXIT_USAGE, "--percentiles does not apply to svg, "
			 "which plots no percentiles");
	const char *stdin_only[] = { "-" };
	const char *const *paths = (const char *const *)argv + optind;
	size_t n = (size_t)(argc - optind);
	if (!n) {
		paths = stdin_only;
		n = 1;
	}
	if (!o.merge)	/* accepted and unused there (pebs-hist(1)) */
		util_symfs_check();
	util_check_out(o.out, paths, n);
	struct pebs_hist *h = NULL;
	int readable = 0;
	int status = o.merge ? run_merge(&o, paths, n, &h, &readable) :
		     run_read(&o, paths, n, &h, &readable);
	/*
	 * No input could be read (a CSV, a missing file, a .pebs given to
	 * --merge): an empty histogram would pass for inputs without
	 * samples, and its YAML would merge as such, so none is written
	 * (nor is -o's file touched), as pebs-c2c does.
	 */
	if (status && !readable) {
		pebs_hist_free(h);
		return status;
	}
	FILE *fp = util_open_out(o.out, 0);
	util_out_keep();	/* some input was read: a result */
	if (o.fmt < 0)
		o.fmt = isatty(fileno(fp)) ? PEBS_HIST_TEXT : PEBS_HIST_CSV;
	pebs_hist_set_top(h, o.top);
	/* the bars in Unicode only where the locale says UTF-8 */
	pebs_hist_set_ascii(h, !util_locale_utf8());
	pebs_hist_set_zeros(h, o.zeros);
	/* like pebs-decode's, ignored by the formats without a header */
	FILE *w = o.no_header && o.fmt == PEBS_HIST_CSV ?
		  util_open_nohdr(fp) : fp;
	check(pebs_hist_write(h, w, o.fmt, &o.bins, o.pct, o.npct), o.out);
	if (w != fp)
		util_close_nohdr(w, o.out);
	util_close_out(fp, o.out);
	pebs_hist_free(h);
	return status;
}
