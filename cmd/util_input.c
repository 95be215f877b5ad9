/*
 * util_input.c - batches from .pebs files or raw PEBS dumps (util_input.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util_input.h"

void util_input_open(struct util_input *in, const struct util_input_opts *o,
		     const char *const *paths, size_t n, uint64_t cols)
{
	struct pebs_reader_opts ro = {
		.threads = o->threads, .salvage = o->salvage, .cols = cols,
		.verify_all = o->verify_all, .lost_batches = o->lost_batches,
		.idle = o->idle, .idle_ctx = o->idle_ctx,
	};
	memset(in, 0, sizeof(*in));
	in->paths = paths;
	in->npaths = n;
	/* before the reader's threads start reading */
	util_check_in(paths, n, o->raw ? "PEBS buffer dumps" : ".pebs data");
	if (o->raw) {
		struct pebs_raw_config cfg;
		char err[256];
		if (pebs_raw_config_default(&cfg, pebs_uarch_by_name(o->uarch),
					    o->raw_event, err, sizeof(err)))
			util_die(EXIT_USAGE, "--raw-event: %s", err);
		if (pebs_raw_reader_open(&in->raw, paths, n, &cfg))
			util_die(EXIT_SYS, "out of memory");
		pebs_raw_reader_set_idle(in->raw, o->idle, o->idle_ctx);
		return;
	}
	int r = pebs_reader_open(&in->r, paths, n, &ro);
	if (r < 0)
		util_die(EXIT_SYS, "cannot start reading: %s",
			 pebs_strerror(r));
	util_progress_start(&in->pg, paths, n, o->out);
}

int util_input_next(struct util_input *in, struct pebs_batch **b)
{
	for (;;) {
		int r = in->raw ? pebs_raw_reader_next(in->raw, b) :
			pebs_reader_next(in->r, b);
		if (r > 0 && in->r)
			util_progress_tick(&in->pg, in->r);
		if (r == 0)
			util_progress_end(&in->pg);
		if (r >= 0)
			return r;
		if (r == -PEBS_E_NOMEM)
			util_die(EXIT_SYS, "out of memory");
		int st = r == -PEBS_E_IO ? EXIT_SYS : EXIT_DATA;
		/* a .pebs or perf.data file given to --raw: not read */
		in->refused |= in->raw && r == -PEBS_E_FORMAT;
		in->failed += in->raw && (r == -PEBS_E_FORMAT ||
					  r == -PEBS_E_IO);
		if (st > in->status)
			in->status = st;
		if (in->shown++ < UTIL_INPUT_MAX_SHOWN)
			util_warn("%s: %s", in->raw ?
				  pebs_raw_reader_errfile(in->raw) :
				  pebs_reader_errfile(in->r), in->raw ?
				  pebs_raw_reader_errmsg(in->raw) :
				  pebs_reader_errmsg(in->r));
		else if (in->shown == UTIL_INPUT_MAX_SHOWN + 1)
			util_warn("more errors not shown");
	}
}

const struct pebs_meta *util_input_meta(const struct util_input *in)
{
	return in->raw ? pebs_raw_reader_meta(in->raw) :
	       pebs_reader_meta(in->r);
}

const char *util_input_file(const struct util_input *in,
			    const struct pebs_batch *b)
{
	return b->source < in->npaths && in->paths[b->source] ?
	       in->paths[b->source] : "-";
}

uint64_t util_input_lost(const struct util_input *in, uint32_t *cpu,
			 uint64_t *time)
{
	*cpu = 0;
	*time = 0;
	return in->r ? pebs_reader_lost(in->r, cpu, time) : 0;
}

void util_input_stats(const struct util_input *in,
		      struct pebs_read_stats *st)
{
	if (in->raw) {	/* collisions are the lost samples of a dump */
		struct pebs_raw_stats rs;
		pebs_raw_reader_stats(in->raw, &rs);
		memset(st, 0, sizeof(*st));
		st->samples = rs.samples;
		st->lost = rs.lost;
		st->bytes = rs.offset;
		st->raw = 1;
		st->unattributed = rs.unattributed;
		return;
	}
	pebs_reader_stats(in->r, st);
}

int util_input_readable(const struct util_input *in)
{
	struct pebs_read_stats st;
	if (!in->raw)
		return util_reader_readable(in->r);
	util_input_stats(in, &st);
	/* an empty dump is a valid one of no records, also beside an
	 * input that cannot be read; a refused input (a .pebs or
	 * perf.data file) is none */
	return st.bytes > 0 || in->failed < in->npaths;
}

int util_reader_readable(const struct pebs_reader *r)
{
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	return st.segments > 0;
}

char *util_input_names(const char *const *paths, size_t n, int message)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(message ? util_name(paths[i]) :
			      paths[i] ? paths[i] : "-") + 2;
	char *name = malloc(len), *p = name;
	if (!name)
		util_die(EXIT_SYS, "out of memory");
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? ", " : "", message ?
			     util_name(paths[i]) : paths[i] ? paths[i] : "-");
	return name;
}

int util_input_close(struct util_input *in)
{
	struct pebs_raw_stats rs;
	util_progress_end(&in->pg);
	/* Dropped as the kernel drops them (raw-records.md section 3), not
	 * damage; but a dump where nothing matches usually means the wrong
	 * --raw-event, so it is said once. */
	pebs_raw_reader_stats(in->raw, &rs);
	if (in->raw && rs.unattributed) {
		/* of the dump all the inputs make together */
		char *name = util_input_names(in->paths, in->npaths, 1);
		util_warn("%s: %llu record%s matched no configured counter "
			  "(applicable bits 0x%llx)", name,
			  (unsigned long long)rs.unattributed,
			  rs.unattributed == 1 ? "" : "s",
			  (unsigned long long)rs.unattributed_bits);
		free(name);
	}
	pebs_reader_close(in->r);
	pebs_raw_reader_close(in->raw);
	in->r = NULL;
	in->raw = NULL;

	return in->status;
}
