/*
 * pebs-decode - .pebs record files to csv, yaml, jsonl, text or .pebs again;
 * --info summarizes each input as YAML.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_output.h"
#include "pebs_perf.h"
#include "pebs_uarch.h"
#include "util.h"
#include "util_input.h"
#include "util_segout.h"
#include "util_sym.h"

#define FMT_PEBS 0
#define FMT_PERF 100	/* perf.data (pebs_perf.h) */
#define MAX_FIELDS 256

struct opts {
	int fmt;		/* enum pebs_output_format, FMT_*, -1 unset */
	int fields[MAX_FIELDS];
	size_t nfields;
	int fields_set;
	unsigned flags;
	int info;
	int level;		/* -f pebs: zstd level, 0 = default */
	struct util_input_opts in;	/* --raw --uarch NAME, -j, --salvage */
	const char *out;
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f csv|yaml|jsonl|text|pebs|perf] "
		"[--fields LIST]\n"
		"       [--no-header] [--symfs DIR] [--salvage] [--level N] "
		"[-o FILE]\n"
		"       [-j THREADS] [FILE...]\n"
		"       %s --info [--salvage] [-o FILE] [FILE...]\n"
		"       %s --raw --uarch NAME [--raw-event EVENT] [-f FORMAT] "
		"[FILE...]\n"
		"  -f, --format FORMAT  output format (default: text on a "
		"terminal, else csv)\n"
		"  --fields LIST   comma-separated fields, or \"all\"; "
		"\"help\": the fields and\n"
		"                  what they mean; default:\n"
		"                  %s\n"
		"  --no-header     csv/text: no header line\n"
		UTIL_SYMFS_HELP
		"  --info          metadata and a summary of each input (format "
		"version,\n"
		"                  bytes per column), as YAML\n"
		"  --salvage       skip damaged blocks and go on\n"
		"  --level N       -f pebs: zstd level 1-22 (default 1), or -1 "
		"to -7 for\n"
		"                  larger files that read faster\n"
		"  --raw           inputs are raw PEBS buffer dumps "
		"(formats/raw-records.md)\n"
		"  --uarch NAME    their microarchitecture: core2 nhm wsm snb "
		"ivb hsw bdw skl\n"
		"                  skx glm glp icl icx spr\n"
		"  --raw-event EV  their PEBS events, "
		"EVENT[@PMCx|@FIXEDj][;...] (default:\n"
		"                  load latency, else the first precise "
		"event)\n"
		"  -o, --output FILE  write to FILE instead of standard "
		"output\n"
		"  -j, --threads N  decode threads (default: CPUs, at most 8)\n"
		"  -h, --help      this help; --version: the version\n",
		util_prog, util_prog, util_prog, pebs_field_default_list);
}

/* ----------------------------------------------------------- outputs */

static uint64_t field_cols(const struct opts *o)
{
	uint64_t cols = 0;
	for (size_t i = 0; i < o->nfields; i++)
		cols |= pebs_field_by_id(o->fields[i])->deps;
	return cols;
}

/* The csv, yaml, jsonl or text output of @o to @fp. */
static struct pebs_output *text_open(const struct opts *o, FILE *fp)
{
	struct pebs_output *out = pebs_output_open(o->fmt, o->fields,
						   o->nfields, o->flags, fp);
	if (!out)
		util_die(EXIT_SYS, "out of memory");
	/* a result even without a byte (no header, no sample) */
	util_out_keep();
	return out;
}

/* The output of the text formats while the input stalls. */
static FILE *idle_fp;
static const char *idle_path;

static void text_idle(void *ctx)
{
	(void)ctx;
	/* pebs_output_batch() gave its rows to the stream already */
	util_idle_out(idle_fp, idle_path);
}

/* The -f pebs output while the input stalls. */
static void pebs_idle(void *ctx)
{
	util_segout_idle(ctx);
}

static int run_text(const struct opts *o, const char *const *paths,
		    size_t n, FILE *fp)
{
	struct util_input in;
	struct util_input_opts io = o->in;
	struct pebs_batch *b;
	/*
	 * Static: opened inside the loop, which can exit (a closed pipe,
	 * damage without salvage); held from file scope, the output is
	 * then not a leak to LeakSanitizer, as it was not while it lived
	 * in a local opened before the loop.
	 */
	static struct pebs_output *out;
	out = NULL;
	idle_fp = fp;
	idle_path = o->out;
	io.idle = text_idle;
	util_input_open(&in, &io, paths, n, field_cols(o));
	int sym = util_sym_fields(o->fields, o->nfields);
	while (util_input_next(&in, &b) > 0) {
		if (!out)
			out = text_open(o, fp);
		if (sym)
			pebs_output_set_sym(out, util_sym_get(
				util_input_meta(&in), util_input_file(&in, b)));
		int r = pebs_output_batch(out, b);
		if (r == -PEBS_E_IO)
			util_write_failed(o->out);
		if (r < 0)
			util_die(EXIT_SYS, "%s", pebs_strerror(r));
	}
	/* No batch: the header (yaml: the empty sequence) only when some
	 * input was read, so that one that could not be is not taken for a
	 * capture of no samples (its message says what happened). */
	if (!out && util_input_readable(&in))
		out = text_open(o, fp);
	int r = pebs_output_close(out);
	util_sym_close();
	if (r == -PEBS_E_IO)
		util_write_failed(o->out);
	if (r < 0)
		util_die(EXIT_SYS, "%s", pebs_strerror(r));
	return util_input_close(&in);
}

/*
 * Options of the -f pebs and -f perf conversions: lost-sample records
 * come in order (util_input_lost()), each in its own segment, so where
 * they go does not depend on how far the decode threads read ahead.
 */
static struct util_input_opts lost_in_order(const struct opts *o)
{
	struct util_input_opts io = o->in;
	io.lost_batches = 1;
	return io;
}

/*
 * Re-encodes: one output segment per input segment, with its metadata,
 * and its start as time.origin, since the blocks are cut anew
 * (util_segout.h).  Lost-sample records are copied as they are (CPU,
 * time, count), in order, into their own segment's output: a segment of
 * lost records and no samples is written too.  Raw dumps, which have
 * none, carry their collisions over as totals per batch.
 */
static int run_pebs(const struct opts *o, const char *const *paths,
		    size_t n, FILE *fp)
{
	struct util_input in;
	struct util_input_opts io = lost_in_order(o);
	struct pebs_batch *b;
	/* static: held from file scope when the loop exits (run_text) */
	static struct util_segout so;
	struct pebs_read_stats st;
	uint64_t lost = 0, lt, lc;
	uint32_t lcpu;
	struct pebs_writer_opts wo = { .level = o->level };
	util_segout_init(&so, fp, o->out, &wo);
	io.idle = pebs_idle;
	io.idle_ctx = &so;
	util_input_open(&in, &io, paths, n, 0);
	while (util_input_next(&in, &b) > 0) {
		util_segout_next(&so, in.r, util_input_meta(&in), b);
		if ((lc = util_input_lost(&in, &lcpu, &lt))) {
			util_segout_lost(&so, lcpu, lt, lc);
			continue;
		}
		struct pebs_writer *w = util_segout_writer(&so);
		util_writer_check(w, pebs_writer_add_batch(w, b), o->out);
		util_input_stats(&in, &st);
		if (in.raw && st.lost > lost && b->n)
			util_segout_lost(&so, 0,
					 b->c64[PEBS_COL_TIME][b->n - 1],
					 st.lost - lost);
		lost = st.lost;
	}
	/* No samples at all: a valid, empty file, but only from an input
	 * that was read (util_input_readable()) */
	if (util_input_readable(&in))
		util_segout_empty(&so, util_input_meta(&in));
	util_input_stats(&in, &st);
	if (so.started && in.raw && st.lost > lost)
		util_segout_lost(&so, 0, 0, st.lost - lost);
	util_segout_close(&so);
	return util_input_close(&in);
}

/* The -f perf output while the input stalls: its writer, once open. */
static struct pebs_perf_writer *idle_perf;

static void perf_idle(void *ctx)
{
	(void)ctx;
	/* an error stays the writer's: the next call returns it */
	if (idle_perf)
		pebs_perf_writer_flush(idle_perf);
	text_idle(ctx);
}

/*
 * perf.data for Linux perf tools: all inputs into one file (pebs_perf.h),
 * each segment with its own metadata (clock, processes, maps).  A segment
 * that cannot share the file with those before it (another clock, other
 * attributes for an event name) is refused: exit 2.
 */
static int run_perf(const struct opts *o, const char *const *paths,
		    size_t n, FILE *fp)
{
	struct util_input in;
	struct util_input_opts io = lost_in_order(o);
	struct pebs_batch *b;
	struct pebs_perf_writer *w = NULL;
	struct pebs_read_stats st;
	uint64_t lost = 0, lt, lc;
	uint32_t src = 0, seg = 0, lcpu;
	const char *refused = NULL;	/* the input of a refused segment */
	char err[512] = "";
	int r = 0;
	idle_perf = NULL;
	idle_fp = fp;
	idle_path = o->out;
	io.idle = perf_idle;
	util_input_open(&in, &io, paths, n, 0);
	while (r >= 0 && util_input_next(&in, &b) > 0) {
		if (!w) {
			r = pebs_perf_writer_open(&w, fp, util_input_meta(&in),
						  NULL);
			idle_perf = w;
		} else if (b->source != src || b->segment != seg) {
			r = pebs_perf_writer_segment(w, util_input_meta(&in));
		}
		src = b->source;
		seg = b->segment;
		if (r >= 0 && (lc = util_input_lost(&in, &lcpu, &lt))) {
			r = pebs_perf_writer_lost(w, lcpu, lt, lc);
			continue;
		}
		if (r >= 0)
			r = pebs_perf_writer_add_batch(w, b);
		util_input_stats(&in, &st);
		if (r >= 0 && in.raw && st.lost > lost && b->n)
			r = pebs_perf_writer_lost(w, 0, b->c64[PEBS_COL_TIME]
						  [b->n - 1], st.lost - lost);
		lost = st.lost;
		/* a segment, or a sample, the file cannot hold */
		if (r == -PEBS_E_UNSUPPORTED)
			refused = util_input_file(&in, b);
	}
	/* no samples: still a valid perf.data, from an input that was read */
	if (!w && r >= 0 && util_input_readable(&in))
		r = pebs_perf_writer_open(&w, fp, util_input_meta(&in), NULL);
	/* collisions after the last batch of samples (a dump of nothing
	 * else, the tail of a pipe), as run_pebs() writes them */
	util_input_stats(&in, &st);
	if (w && r >= 0 && in.raw && st.lost > lost)
		r = pebs_perf_writer_lost(w, 0, 0, st.lost - lost);
	/* a refused writer still finishes the file before what it refused */
	idle_perf = NULL;
	if (w)
		r = pebs_perf_writer_close(w, err, sizeof(err));
	if (r == -PEBS_E_UNSUPPORTED)	/* segments counted from 1 */
		util_die(EXIT_USAGE, "%s: segment %" PRIu32 ": %s (the "
			 "output stops before it: incomplete)",
			 !refused ? "perf.data" : strcmp(refused, "-") ?
			 refused : "standard input", seg + 1, err);
	if (r == -PEBS_E_IO)
		util_write_failed(o->out);
	if (r < 0)
		util_die(EXIT_SYS, "perf.data: %s", *err ? err :
			 pebs_strerror(r));
	return util_input_close(&in);
}

/*
 * One YAML document for the inputs @paths[0..@n) read as one (a raw dump
 * cut into several files), named @name.  Returns the exit status.
 */
static int info_one(const struct opts *o, const char *const *paths,
		    size_t n, const char *name, FILE *fp)
{
	struct util_input in;
	struct pebs_batch *b;
	struct pebs_read_stats st;
	struct pebs_summary *s = pebs_summary_new();
	struct pebs_meta *meta = pebs_meta_new();
	int got = 0, status;
	if (!s || !meta)
		util_die(EXIT_SYS, "out of memory");
	/* every column decoded, not only the summary's: a block whose
	 * checksums match can still be malformed (a writer's bug), and
	 * --info vouches that decoding will succeed */
	util_input_open(&in, &o->in, paths, n, 0);
	while (util_input_next(&in, &b) > 0) {
		if (!got++ && pebs_meta_copy(meta, util_input_meta(&in)))
			util_die(EXIT_SYS, "out of memory");
		if (pebs_summary_clock(s, util_input_meta(&in)) < 0 ||
		    pebs_summary_add(s, b) < 0)
			util_die(EXIT_SYS, "out of memory");
	}
	/* No block at all: the metadata of the last segment seen. */
	if (!got && pebs_meta_copy(meta, util_input_meta(&in)))
		util_die(EXIT_SYS, "out of memory");
	util_input_stats(&in, &st);
	/* An input that could not be opened or read at all has no summary:
	 * its message said so, and a YAML consumer would take "samples: 0"
	 * for an empty capture. */
	if (!got && in.status == EXIT_SYS &&
	    (in.raw ? !util_input_readable(&in) : !st.bytes)) {
		pebs_summary_free(s);
		pebs_meta_free(meta);
		util_input_close(&in);
		return EXIT_SYS;
	}
	/* The whole files count, magic and footer index included (a dump
	 * from standard input: the bytes of its records). */
	uint64_t total = 0;
	size_t nreg = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (paths[i] && strcmp(paths[i], "-") &&
		    stat(paths[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
			total += (uint64_t)sb.st_size;
			nreg++;
		}
	}
	/* An input refused as no dump (a .pebs or perf.data file given to
	 * --raw) is left out of the dump: its size is not the dump's. */
	if (nreg == n && !in.refused)
		st.bytes = total;
	int r = pebs_output_info(fp, name, meta, s, &st);
	if (r == -PEBS_E_IO)
		util_write_failed(o->out);
	if (r < 0)
		util_die(EXIT_SYS, "%s", pebs_strerror(r));
	status = util_input_close(&in);
	pebs_summary_free(s);
	pebs_meta_free(meta);
	return status;
}

/*
 * One YAML document per input file; raw dumps, which several files make
 * together (raw-records.md section 5), give one document for all, named
 * by their names joined with ", ".
 */
static int run_info(const struct opts *o, const char *const *paths,
		    size_t n, FILE *fp)
{
	int status = 0;
	if (o->in.raw) {
		char *name = util_input_names(paths, n, 0);
		status = info_one(o, paths, n, name, fp);
		free(name);
		return status;
	}
	for (size_t i = 0; i < n; i++) {
		int r = info_one(o, &paths[i], 1, paths[i] ? paths[i] : "-",
				 fp);
		if (r > status)
			status = r;
	}
	return status;
}

/* -------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	enum { O_FIELDS = 256, O_NOHDR, O_INFO, O_SALVAGE, O_VERSION, O_RAW,
	       O_UARCH, O_RAWEV, O_SYMFS, O_LEVEL };
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "fields", required_argument, NULL, O_FIELDS },
		{ "no-header", no_argument, NULL, O_NOHDR },
		{ "info", no_argument, NULL, O_INFO },
		{ "salvage", no_argument, NULL, O_SALVAGE },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ "raw", no_argument, NULL, O_RAW },
		{ "uarch", required_argument, NULL, O_UARCH },
		{ "raw-event", required_argument, NULL, O_RAWEV },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "level", required_argument, NULL, O_LEVEL },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .fmt = -1 };
	int c;
	util_init(argv[0]);
	o.nfields = util_parse_fields(pebs_field_default_list, o.fields,
				      MAX_FIELDS, 0);
	while ((c = util_getopt_long(argc, argv, "f:o:j:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.fmt = strcmp(optarg, "pebs") == 0 ? FMT_PEBS :
				strcmp(optarg, "perf") == 0 ? FMT_PERF :
				pebs_output_format_parse(optarg);
			if (o.fmt < 0)
				util_die(EXIT_USAGE, "-f: unknown format "
					 "\"%s\" (csv, yaml, jsonl, text, "
					 "pebs, perf)", optarg);
			break;
		case O_FIELDS:
			o.nfields = util_parse_fields(optarg, o.fields,
						      MAX_FIELDS, 1);
			o.fields_set = 1;
			break;
		case O_NOHDR: o.flags |= PEBS_OUT_NO_HEADER; break;
		case O_INFO: o.info = 1; break;
		case O_SALVAGE: o.in.salvage = 1; break;
		case O_RAW: o.in.raw = 1; break;
		case O_UARCH: o.in.uarch = optarg; break;
		case O_RAWEV: o.in.raw_event = optarg; break;
		case O_SYMFS: util_symfs = optarg; break;
		case O_LEVEL: o.level = util_level_arg(optarg); break;
		case 'o': o.out = optarg; break;
		case 'j':
			o.in.threads = util_threads_arg(optarg);
			break;
		case 'h': usage(stdout); util_close_out(stdout, NULL);
			return EXIT_OK;
		case O_VERSION: util_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if ((o.in.uarch || o.in.raw_event) && !o.in.raw)
		util_die(EXIT_USAGE, "--uarch and --raw-event need --raw");
	if (o.in.raw && !o.in.uarch)
		util_die(EXIT_USAGE, "--raw needs --uarch NAME");
	if (o.in.raw && !pebs_uarch_by_name(o.in.uarch)) {
		char names[256];
		util_die(EXIT_USAGE, "--uarch: unknown microarchitecture "
			 "\"%s\" (one of: %s)", o.in.uarch,
			 pebs_uarch_names(names, sizeof(names)));
	}
	if (o.in.raw && o.in.salvage)
		util_die(EXIT_USAGE, "--salvage does not apply to --raw (a raw "
			 "dump has no blocks to skip)");
	if (o.level && (o.fmt != FMT_PEBS || o.info))
		util_die(EXIT_USAGE, "--level applies to -f pebs only");
	/* options that would change nothing are refused, not ignored, as
	 * pebs-filter does; --info documents that it ignores them */
	if ((o.fmt == FMT_PEBS || o.fmt == FMT_PERF) && !o.info &&
	    (o.fields_set || o.flags))
		util_die(EXIT_USAGE, "--fields and --no-header do not apply "
			 "to -f %s (they are for csv, yaml, jsonl and text)",
			 o.fmt == FMT_PEBS ? "pebs" : "perf");
	if (!o.info)
		util_check_fields(o.fmt, o.fields, o.nfields);
	const char *stdin_only[] = { "-" };
	const char *const *paths = (const char *const *)argv + optind;
	size_t n = (size_t)(argc - optind);
	if (!n) {
		paths = stdin_only;
		n = 1;
	}
	util_symfs_check();
	util_check_out(o.out, paths, n);
	FILE *fp = util_open_out(o.out, o.info ? UTIL_OUT_TEXT :
				 o.fmt == FMT_PEBS ? UTIL_OUT_PEBS :
				 o.fmt == FMT_PERF ? UTIL_OUT_PERF :
				 UTIL_OUT_TEXT);
	if (o.fmt < 0)
		o.fmt = isatty(fileno(fp)) ? PEBS_OUT_TEXT : PEBS_OUT_CSV;
	o.in.out = fp;
	/* --info is how an archive is checked: every column's checksum */
	o.in.verify_all = o.info;
	int status = o.info ? run_info(&o, paths, n, fp) :
		     o.fmt == FMT_PEBS ? run_pebs(&o, paths, n, fp) :
		     o.fmt == FMT_PERF ? run_perf(&o, paths, n, fp) :
		     run_text(&o, paths, n, fp);
	util_close_out(fp, o.out);
	return status;
}
