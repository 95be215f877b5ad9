/*
 * pebs-filter - keeps the samples matching an expression (pebs_expr.h).
 *
 * Speed comes from three levels: blocks whose directory min/max rule out
 * every match are skipped undecoded (and with --count, blocks that match
 * entirely are counted from their directory); blocks where every sample
 * matches are copied as raw chunks (no re-encode) when the output is
 * .pebs; the expression runs column-wise over the rest.  Text outputs
 * decode only the columns of the expression and of --fields.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_output.h"
#include "util.h"
#include "util_evcheck.h"
#include "util_input.h"
#include "util_progress.h"
#include "util_segout.h"
#include "util_sym.h"

#define FMT_PEBS 0
#define MAX_FIELDS 256
#define MAX_SHOWN 20

struct opts {
	int fmt;
	int fields[MAX_FIELDS];
	size_t nfields;
	unsigned flags;
	unsigned threads;
	uint64_t head;		/* 0 = no limit */
	uint64_t sample;	/* keep 1 in sample; 0/1 = all */
	int invert, count, explain, salvage;
	int level;		/* .pebs output's zstd level; 0 = default */
	const char *out;
	const char *text;
};

/* Shared with the block callback, which runs in reader threads. */
struct ctx {
	struct pebs_expr *e;
	int fast_count;		/* --count may count whole blocks unread */
	uint64_t counted;	/* atomic: samples of blocks counted unread */
	/* --count on the decode threads: each its own copy of the program */
	const struct opts *o;
	struct worker {
		struct pebs_expr *e;
		uint32_t *sel;
		uint64_t n;
	} w[PEBS_READER_MAX_THREADS];
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f pebs|csv|yaml|jsonl|text] [--fields LIST] "
		"[--no-header]\n"
		"       [--head N] [--sample 1/N] [-v] [--count] [-o FILE] "
		"[-j THREADS]\n"
		"       [--symfs DIR] [--salvage] [--level N] [--explain] EXPR "
		"[FILE...]\n"
		"  EXPR            e.g. 'lat > 200 and mem in (L3, "
		"LOCAL_RAM)'; "
		"pebs-filter(1)\n"
		"  -f, --format FORMAT  output format (default: pebs, never to "
		"a terminal)\n"
		"  --fields LIST   csv/yaml/jsonl/text fields, or \"all\"; "
		"\"help\": the fields\n"
		"                  and what they mean; default:\n"
		"                  %s\n"
		"  --no-header     csv/text: no header line\n"
		UTIL_SYMFS_HELP
		"  --head N        stop after N matching samples\n"
		"  --sample 1/N    keep one matching sample in N "
		"(deterministic)\n"
		"  -v, --invert    keep the samples that do not match\n"
		"  -c, --count     print the number of matching samples only\n"
		"  --explain       print the compiled program and exit\n"
		"  --level N       .pebs output: zstd level 1-22 (default 1), "
		"or -1 to -7 for\n"
		"                  larger files that read faster\n"
		"  --salvage       skip damaged blocks and go on\n"
		"  -o, --output FILE  write to FILE instead of standard "
		"output\n"
		"  -j, --threads N  decode threads (default: CPUs, at most 8)\n"
		"  -h, --help      this help; --version: the version\n",
		util_prog, pebs_field_default_list);
}

static int block_cb(void *vctx, const struct pebs_block_info *bi)
{
	struct ctx *c = vctx;
	/* `t` on the clock of the block's own segment, from its start */
	enum pebs_expr_match m = pebs_expr_block_segment(c->e, bi);
	if (m == PEBS_MATCH_NONE)
		return 0;
	if (m == PEBS_MATCH_ALL && c->fast_count) {
		__atomic_add_fetch(&c->counted, bi->nsamples,
				   __ATOMIC_RELAXED);
		return 0;
	}
	return 1;
}

/*
 * --count without `t` (whose clock comes from each segment's metadata, in
 * input order), symbols, --head or --sample: the decode thread
 * evaluates and counts (pebs_reader_opts.consume), with its own parse of
 * the expression, since evaluation keeps scratch in the program.
 */
static int count_cb(void *vctx, unsigned worker, const struct pebs_batch *b)
{
	struct ctx *c = vctx;
	struct worker *w = &c->w[worker];
	if (!w->e) {
		struct pebs_expr_error err;
		int r = pebs_expr_parse(c->o->text, &w->e, &err);
		if (r < 0)
			return r == -PEBS_E_NOMEM ? r : -PEBS_E_INVAL;
		if (c->o->invert && (r = pebs_expr_invert(w->e)) < 0)
			return r == -PEBS_E_NOMEM ? r : -PEBS_E_INVAL;
		if (!(w->sel = malloc(PEBS_BATCH_MAX * sizeof(*w->sel))))
			return -PEBS_E_NOMEM;
	}
	size_t n = pebs_expr_eval(w->e, b, w->sel);
	if (n == (size_t)-1)
		return -PEBS_E_NOMEM;
	w->n += n;
	return 0;
}

struct sink {
	const struct opts *o;
	FILE *fp;
	struct util_segout *so;	/* .pebs */
	struct pebs_output *out;	/* the others */
};

static void sink_check(struct sink *s, int r)
{
	if (r == -PEBS_E_IO)
		util_write_failed(s->o->out);
	if (r < 0)
		util_die(EXIT_SYS, "%s", s->so->w ?
			 pebs_writer_errmsg(s->so->w) : pebs_strerror(r));
}

/* Records what was kept, composing with an earlier filter. */
static int add_filter(void *ctx, struct pebs_meta *m)
{
	const struct opts *o = ctx;
	const char *old = pebs_meta_get(m, "filter");
	const char *inv = o->invert ? "not " : "";
	return old ? pebs_meta_setf(m, "filter", "(%s) and %s(%s)", old, inv,
				    o->text) :
	       pebs_meta_setf(m, "filter", "%s(%s)", inv, o->text);
}

/* The csv, yaml, jsonl or text output, opened once. */
static void sink_text(struct sink *s)
{
	if (s->out)
		return;
	/* a result even without a byte (no header, no match) */
	util_out_keep();
	s->out = pebs_output_open(s->o->fmt, s->o->fields, s->o->nfields,
				  s->o->flags, s->fp);
	if (!s->out)
		util_die(EXIT_SYS, "out of memory");
}

static void sink_close(struct sink *s, const struct pebs_meta *meta)
{
	if (s->o->fmt != FMT_PEBS) {
		sink_text(s);
		sink_check(s, pebs_output_close(s->out));
		return;
	}
	util_out_keep();
	util_segout_empty(s->so, meta);
	util_segout_close(s->so);
}

/*
 * Each input segment's output goes under its own metadata (clock,
 * topology, maps), as pebs-decode -f pebs keeps them, and its start:
 * `t` of a sample kept is what it was in the input (util_segout.h).
 */
static void sink_segment(struct sink *s, struct pebs_reader *r,
			 const struct pebs_batch *b)
{
	if (s->o->fmt != FMT_PEBS) {
		sink_text(s);
		return;
	}
	util_out_keep();
	util_segout_next(s->so, r, pebs_reader_meta(r), b);
}

/*
 * A lost-sample record of the input (@b, an empty batch: lost_batches)
 * goes to the .pebs output as it is, in order and in its own segment's
 * output, as pebs-decode -f pebs keeps them: a filtered capture still
 * says that the capture lost samples.  Returns 1 when @b was one.
 */
static int keep_lost(struct sink *s, struct pebs_reader *r,
		     const struct pebs_batch *b)
{
	uint32_t cpu;
	uint64_t t, c = pebs_reader_lost(r, &cpu, &t);
	if (!c)
		return 0;
	sink_segment(s, r, b);
	util_segout_lost(s->so, cpu, t, c);
	return 1;
}

/*
 * The input stalls (pebs_reader_opts.idle): what was kept goes out now,
 * the .pebs output's pending samples as a block, not when more input
 * comes (a filter in the middle of a live pipeline).
 */
static void sink_idle(void *ctx)
{
	struct sink *s = ctx;
	if (s->o->fmt == FMT_PEBS)
		util_segout_idle(s->so);
	else
		util_idle_out(s->fp, s->o->out);
}

/* Columns the text output's fields need. */
static uint64_t text_cols(const struct opts *o)
{
	uint64_t c = 0;
	for (size_t i = 0; i < o->nfields; i++)
		c |= pebs_field_by_id(o->fields[i])->deps;
	return c;
}

static int run(const struct opts *o, struct ctx *c, const char *const *paths,
	       size_t npaths, FILE *fp)
{
	int text = o->fmt != FMT_PEBS;
	int need_out = !o->count;
	uint64_t ecols = pebs_expr_cols(c->e);
	if (o->sample > 1)
		ecols |= 1ull << PEBS_COL_TIME | 1ull << PEBS_COL_CPU;
	c->fast_count = o->count && !o->head && o->sample <= 1;
	/*
	 * Columns: --count needs only the expression's (0 would mean all, so
	 * an expression without columns asks for one cheap column).  When
	 * samples are written, every column is decoded at once in the reader
	 * threads: nearly every block that survives the min/max test has some
	 * match, and one full decode there was measured faster than decoding
	 * the expression's columns, then the whole block again on this thread
	 * (bench/RESULTS-filter-hist.md).
	 */
	/* static, as sub and sel below; before the reader (sink_idle) */
	static struct util_segout so;
	struct pebs_writer_opts wo = { .level = o->level };
	util_segout_init(&so, fp, o->out, &wo);
	so.decorate = add_filter;
	so.ctx = (void *)o;
	static struct sink s;
	s = (struct sink){ o, fp, &so, NULL };
	struct pebs_reader_opts ro = {
		.threads = o->threads, .salvage = o->salvage,
		.cols = !need_out ? (ecols ? ecols : 1ull << PEBS_COL_CPU) :
			text ? ecols | text_cols(o) : 0,
		.filter = block_cb, .filter_ctx = c,
		/* blocks that match whole are copied as they are, unless
		 * the output asks for a level of its own */
		.raw_chunks = !text && !o->level,
		.lost_batches = need_out && !text,
		.idle = need_out ? sink_idle : NULL, .idle_ctx = &s,
	};
	c->o = o;
	if (c->fast_count && !pebs_expr_uses_t(c->e) &&
	    !pebs_expr_uses_sym(c->e)) {
		ro.consume = count_cb;
		ro.consume_ctx = c;
	}
	struct pebs_reader *r;
	int rc = pebs_reader_open(&r, paths, npaths, &ro);
	if (rc < 0)
		util_die(EXIT_SYS, "cannot start reading: %s",
			 pebs_strerror(rc));
	int esym = pebs_expr_uses_sym(c->e);
	int osym = text && need_out && util_sym_fields(o->fields, o->nfields);
	struct pebs_sym *sym = NULL;
	/*
	 * Static: the loop can die on a bad expression clock
	 * (util_expr_segment);
	 * scratch held from file scope is not a leak to LeakSanitizer then.
	 */
	static struct pebs_batch *sub;
	static uint32_t *sel;
	sub = NULL;
	sel = malloc(PEBS_BATCH_MAX * sizeof(*sel));
	if (!sel)
		util_die(EXIT_SYS, "out of memory");
	uint64_t done = 0;
	int status = EXIT_OK;
	unsigned shown = 0;
	struct pebs_batch *b;
	struct util_progress pg;
	util_progress_start(&pg, paths, npaths, need_out ? fp : NULL);
	struct util_evcheck ec;
	util_evcheck_start(&ec, c->e, "expression");
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
		if (ro.lost_batches && keep_lost(&s, r, b))
			continue;
		util_evcheck_batch(&ec, r, b);
		if (ro.consume)
			continue;	/* counted on the decode thread */
		util_expr_segment(c->e, r, b, "expression");
		if (esym || osym) {
			sym = util_sym_get(pebs_reader_meta(r), b->source <
					   npaths ? paths[b->source] : "-");
			pebs_expr_set_sym(c->e, sym);
		}
		size_t n = pebs_expr_eval(c->e, b, sel);
		if (n == (size_t)-1)
			util_die(EXIT_SYS, "out of memory");
		if (o->sample > 1) {
			size_t k = 0;
			const uint64_t *t = b->c64[PEBS_COL_TIME];
			const uint32_t *cpu = b->c32[PEBS_COL_CPU];
			for (size_t i = 0; i < n; i++) {
				sel[k] = sel[i];
				k += pebs_expr_sample_keep(t[sel[i]],
							   cpu[sel[i]],
							   o->sample);
			}
			n = k;
		}
		if (o->head && n > o->head - done)
			n = (size_t)(o->head - done);
		done += n;
		if (n && need_out) {
			size_t len;
			const void *raw = pebs_reader_raw(r, &len);
			sink_segment(&s, r, b);
			struct pebs_writer *w = text ? NULL :
						util_segout_writer(&so);
			if (osym)
				pebs_output_set_sym(s.out, sym);
			int copy = n == b->n && !text && raw ?
				   pebs_writer_copy_block(w, raw, len) : 1;
			if (copy == -PEBS_E_CHECKSUM) {
				/*
				 * Damage outside the columns decoded (those
				 * were verified): the samples are sound, but
				 * the block is not copied as it is.
				 */
				status = status > EXIT_DATA ? status :
					 EXIT_DATA;
				if (shown++ < MAX_SHOWN)
					util_warn("%s: block %llu at offset "
						  "0x%llx: checksum mismatch "
						  "outside the columns read; "
						  "its samples are written "
						  "without the rest",
						  pebs_reader_name(r,
								   b->source),
						  (unsigned long long)
						  b->block_index,
						  (unsigned long long)b->offset);
			} else if (copy < 0) {
				sink_check(&s, copy);
			}
			if (copy) {
				if (pebs_batch_fit(&sub, n, 0) < 0 ||
				    pebs_expr_select(sub, b, sel, n, 0) < 0)
					util_die(EXIT_SYS, "out of memory");
				sink_check(&s, text ?
					   pebs_output_batch(s.out, sub) :
					   pebs_writer_add_batch(w, sub));
			}
		}
		if (o->head && done >= o->head)
			break;
	}
	util_progress_end(&pg);
	/* an input cut short by --head may have its events further on */
	util_evcheck_end(&ec, r, !o->head || done < o->head);
	/*
	 * With no match, a count of 0 or an empty output (a .pebs segment of
	 * the metadata, a csv header, yaml's empty sequence), but only when
	 * some input was read: inputs none of which could be (missing, not
	 * .pebs) must not pass for a capture with no match, as pebs-decode.
	 */
	int readable = util_reader_readable(r);
	if (o->count) {
		done += __atomic_load_n(&c->counted, __ATOMIC_RELAXED);
		for (unsigned i = 0; i < PEBS_READER_MAX_THREADS; i++)
			done += c->w[i].n;
		if (readable &&
		    fprintf(fp, "%llu\n", (unsigned long long)done) < 0)
			util_write_failed(o->out);
	} else if (readable) {
		sink_close(&s, pebs_reader_meta(r));
	}
	util_sym_close();
	pebs_reader_close(r);
	for (unsigned i = 0; i < PEBS_READER_MAX_THREADS; i++) {
		pebs_expr_free(c->w[i].e);
		free(c->w[i].sel);
	}
	pebs_batch_free(sub);
	free(sel);
	return status;
}

int main(int argc, char **argv)
{
	enum { O_FIELDS = 256, O_NOHDR, O_HEAD, O_SAMPLE, O_EXPLAIN,
	       O_SALVAGE, O_VERSION, O_SYMFS, O_LEVEL };
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "fields", required_argument, NULL, O_FIELDS },
		{ "no-header", no_argument, NULL, O_NOHDR },
		{ "head", required_argument, NULL, O_HEAD },
		{ "sample", required_argument, NULL, O_SAMPLE },
		{ "invert", no_argument, NULL, 'v' },
		{ "count", no_argument, NULL, 'c' },
		{ "explain", no_argument, NULL, O_EXPLAIN },
		{ "salvage", no_argument, NULL, O_SALVAGE },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "level", required_argument, NULL, O_LEVEL },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .fmt = FMT_PEBS };
	int fmt_set = 0, fields_set = 0, threads_set = 0;
	int c;
	util_init(argv[0]);
	o.nfields = util_parse_fields(pebs_field_default_list, o.fields,
				      MAX_FIELDS, 0);
	while ((c = util_getopt_long(argc, argv, "f:o:j:vch", lopts, NULL))
	       != -1) {
		switch (c) {
		case 'f':
			fmt_set = 1;
			o.fmt = strcmp(optarg, "pebs") == 0 ? FMT_PEBS :
				pebs_output_format_parse(optarg);
			if (o.fmt < 0)
				util_die(EXIT_USAGE, "-f: unknown format "
					 "\"%s\" (pebs, csv, yaml, jsonl, "
					 "text)", optarg);
			break;
		case O_FIELDS:
			fields_set = 1;
			o.nfields = util_parse_fields(optarg, o.fields,
						      MAX_FIELDS, 1);
			break;
		case O_SYMFS: util_symfs = optarg; break;
		case O_NOHDR: o.flags |= PEBS_OUT_NO_HEADER; break;
		case O_HEAD:
			o.head = util_u64_arg("--head", optarg);
			if (!o.head)
				util_die(EXIT_USAGE, "--head: must be > 0");
			break;
		case O_SAMPLE:
			o.sample = util_u64_arg("--sample",
						strncmp(optarg, "1/", 2) ?
						optarg : optarg + 2);
			if (!o.sample)
				util_die(EXIT_USAGE, "--sample: N must be > 0");
			break;
		case 'v': o.invert = 1; break;
		case 'c': o.count = 1; break;
		case O_EXPLAIN: o.explain = 1; break;
		case O_SALVAGE: o.salvage = 1; break;
		case O_LEVEL: o.level = util_level_arg(optarg); break;
		case 'o': o.out = optarg; break;
		case 'j':
			o.threads = util_threads_arg(optarg);
			threads_set = 1;
			break;
		case 'h': usage(stdout); util_close_out(stdout, NULL);
			return EXIT_OK;
		case O_VERSION: util_version();
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	/* options that would change nothing are refused, not ignored */
	if (o.count && (fmt_set || fields_set || o.flags))
		util_die(EXIT_USAGE, "--count prints a number: -f, --fields "
			 "and --no-header do not apply");
	if (o.explain && (fmt_set || fields_set || o.flags || o.level))
		util_die(EXIT_USAGE, "--explain prints the program: -f, "
			 "--fields, --no-header and --level do not apply");
	/* nor do those that choose or read samples: no input is read */
	if (o.explain && (o.count || o.head || o.sample || o.salvage ||
			  threads_set || (util_symfs && *util_symfs)))
		util_die(EXIT_USAGE, "--explain prints the program and reads "
			 "no input: -c, --head, --sample, --salvage, --symfs "
			 "and -j do not apply");
	if (o.level && (o.count || o.fmt != FMT_PEBS))
		util_die(EXIT_USAGE, "--level applies to .pebs output only "
			 "(the default, without --count)");
	if (o.fmt == FMT_PEBS && !o.count && (fields_set || o.flags))
		util_die(EXIT_USAGE, "--fields and --no-header do not apply to "
			 ".pebs output (the default): add -f csv, yaml, jsonl "
			 "or text");
	if (!o.count)
		util_check_fields(o.fmt, o.fields, o.nfields);
	if (optind >= argc) {
		util_warn("missing expression");
		usage(stderr);
		return EXIT_USAGE;
	}
	o.text = argv[optind++];
	struct ctx ctx = { 0 };
	struct pebs_expr_error err;
	int r = pebs_expr_parse(o.text, &ctx.e, &err);
	if (r == -PEBS_E_NOMEM)
		util_die(EXIT_SYS, "out of memory");
	/* `pebs-filter --head 3 x.pebs`: the expression was forgotten, and
	 * the file taken for it; its parse error would only confuse */
	struct stat st;
	if (r < 0 && optind == argc && stat(o.text, &st) == 0 &&
	    !S_ISDIR(st.st_mode))
		util_die(EXIT_USAGE, "expression: \"%s\" is a file: the "
			 "expression comes first: %s EXPR [FILE...]", o.text,
			 util_prog);
	if (r < 0)
		util_die(EXIT_USAGE, "expression: col %zu: %s", err.col,
			 err.msg);
	r = o.invert ? pebs_expr_invert(ctx.e) : 0;
	if (r == -PEBS_E_NOMEM)
		util_die(EXIT_SYS, "out of memory");
	if (r < 0)
		util_die(EXIT_USAGE, "expression: too large to invert");
	util_symfs_check();
	if (o.explain) {
		/* the length it needs, then the whole program: a long
		 * expression must not come out cut */
		size_t len = pebs_expr_dump(ctx.e, NULL, 0) + 1;
		char *buf = malloc(len);
		if (!buf)
			util_die(EXIT_SYS, "out of memory");
		pebs_expr_dump(ctx.e, buf, len);
		FILE *fp = util_open_out(o.out, 0);
		fprintf(fp, "%s\n", buf);
		free(buf);
		pebs_expr_free(ctx.e);
		util_close_out(fp, o.out);
		return EXIT_OK;
	}
	const char *stdin_only[] = { "-" };
	const char *const *paths = (const char *const *)argv + optind;
	size_t n = (size_t)(argc - optind);
	if (!n) {
		paths = stdin_only;
		n = 1;
	}
	util_check_out(o.out, paths, n);
	util_check_in(paths, n, ".pebs data");
	FILE *fp = util_open_out(o.out, !o.count && o.fmt == FMT_PEBS);
	int status = run(&o, &ctx, paths, n, fp);
	util_close_out(fp, o.out);
	pebs_expr_free(ctx.e);
	return status;
}
