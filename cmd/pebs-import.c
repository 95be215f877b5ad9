/*
 * pebs-import - CSV (the inverse of pebs-decode -f csv) or perf.data to the
 * .pebs record format.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pebs_csvin.h"
#include "pebs_format.h"
#include "pebs_perf.h"
#include "util.h"
#include "util_progress.h"

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f csv|perf] [-o FILE] [--level N] "
		"[--meta KEY=VALUE]...\n"
		"       [FILE...]\n"
		"  -f, --format F     input format: csv or perf (default: perf "
		"when the first\n"
		"                     input, a pipe too, is perf.data, else "
		"csv)\n"
		"  -o, --output FILE  write to FILE instead of standard "
		"output\n"
		"  --level N          zstd level: 1-22 (default 1), or -1 to "
		"-7 "
		"for larger\n"
		"                     files that read faster\n"
		"  --meta K=V         add metadata key K with value V (csv; "
		"repeatable),\n"
		"                     e.g. topology.node.0.cpus=0-27\n"
		"  -h, --help         this help; --version: the version\n",
		util_prog);
}

/* The command line, for the metadata key "cmdline". */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (i)
			*p++ = ' ';
		memcpy(p, argv[i], n);
		p += n;
	}
	*p = 0;
	return s;
}

static struct pebs_meta *make_meta(int argc, char **argv, const char *src)
{
	struct pebs_meta *m = pebs_meta_new();
	char host[256] = "", when[32];
	time_t now = time(NULL);
	struct tm tm;
	char *cmd = join_args(argc, argv);
	if (!m || !cmd)
		util_die(EXIT_SYS, "out of memory");
	gethostname(host, sizeof(host) - 1);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&now, &tm));
	if (pebs_meta_set(m, "source", src) ||
	    pebs_meta_set(m, "cmdline", cmd) ||
	    pebs_meta_set(m, "start_time", when) ||
	    (host[0] && pebs_meta_set(m, "host", host)))
		util_die(EXIT_SYS, "out of memory");
	free(cmd);
	return m;
}

/*
 * The first input that opens, number first_at, opened before the import
 * to look at its first bytes: a pipe cannot be read twice, so the bytes
 * looked at are handed back first by a stdio cookie, and the importers
 * read it like any input.
 */
static FILE *first_in;
static size_t first_at;

/*
 * A stream read through a struct peek is read with read(2), not stdio:
 * what has come is handed on at once (a pipe's writer may be a capture
 * that runs on), and no read-ahead hides in @in's stdio buffer.
 */
struct peek {
	FILE *in;
	unsigned char head[8];
	size_t n, at;
};
static struct peek *first_pk;	/* first_in's, when it is one */

/*
 * Up to @size bytes of @pk as they come: the count, 0 at the end, or -1
 * with errno.  With @stall, called each time nothing came for 200 ms.
 */
static ssize_t peek_get(struct peek *pk, char *buf, size_t size,
			void (*stall)(void *ctx), void *ctx)
{
	if (pk->at < pk->n) {
		size_t k = pk->n - pk->at < size ? pk->n - pk->at : size;
		memcpy(buf, pk->head + pk->at, k);
		pk->at += k;
		return (ssize_t)k;
	}
	for (;;) {
		struct pollfd pfd = { fileno(pk->in), POLLIN, 0 };
		int pr = stall ? poll(&pfd, 1, 200) : 1;
		if (pr == 0)
			stall(ctx);
		if (pr < 0 && errno != EINTR)
			return -1;
		if (pr <= 0)
			continue;
		ssize_t k = read(fileno(pk->in), buf, size);
		if (k >= 0 || errno != EINTR)
			return k;
	}
}

static ssize_t peek_read(void *cookie, char *buf, size_t size)
{
	return peek_get(cookie, buf, size, NULL, NULL);
}

static int peek_close(void *cookie)
{
	struct peek *pk = cookie;
	int r = pk->in == stdin ? 0 : fclose(pk->in);
	free(pk);
	return r;
}

/* Opens input @i, @path ("-": standard input); NULL with errno. */
static FILE *open_in(size_t i, const char *path)
{
	if (i == first_at && first_in)
		return first_in;
	return strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
}

static void close_in(FILE *fp)
{
	if (fp != stdin)
		fclose(fp);
}

/*
 * Whether the @n bytes of @p read so far can start a perf.data magic
 * ("PERFILE2" in either byte order): once they cannot, the probe has its
 * answer.  A live CSV source whose first rows were shorter than the magic
 * ("lat\n5\n") was waited on for more, its rows not imported.
 */
static int may_be_perf(const unsigned char *p, size_t n)
{
	return !memcmp(p, "PERFILE2", n) || !memcmp(p, "2ELIFREP", n);
}

/*
 * Opens input @path ("-": standard input) and says in *@perf whether it
 * starts as a perf.data file does (`perf record -o - | pebs-import`
 * included): a regular file is looked at in place, anything else (a pipe,
 * a FIFO) through a struct peek, whose bytes are read again.  A terminal
 * is not looked at: perf.data is not typed, and CSV is read from it as it
 * comes.  NULL with errno when it cannot be opened.
 */
static FILE *open_probe(const char *path, int *perf, struct peek **pkp)
{
	unsigned char head[8];
	struct stat st;
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	*perf = 0;
	*pkp = NULL;
	if (!fp || isatty(fileno(fp)))
		return fp;
	int fd = fileno(fp);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = lseek(fd, 0, SEEK_CUR);
		ssize_t k = pread(fd, head, sizeof(head), at < 0 ? 0 : at);
		*perf = k > 0 && pebs_perf_probe(head, (size_t)k);
		return fp;
	}
	struct peek *pk = calloc(1, sizeof(*pk));
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	if (!pk)
		util_die(EXIT_SYS, "out of memory");
	pk->in = fp;
	/* at == n while probing: peek_get() reads the input, not the bytes
	 * probed so far (a pipe's first read may be short) */
	for (ssize_t k = 1; k > 0 && pk->n < sizeof(pk->head) &&
	     may_be_perf(pk->head, pk->n);) {
		pk->at = pk->n;
		if ((k = peek_get(pk, (char *)pk->head + pk->n,
				  sizeof(pk->head) - pk->n, NULL, NULL)) > 0)
			pk->n += (size_t)k;
	}
	pk->at = 0;
	*perf = pebs_perf_probe(pk->head, pk->n);
	if (!(fp = fopencookie(pk, "rb", io)))
		util_die(EXIT_SYS, "out of memory");
	*pkp = pk;
	return fp;
}

/*
 * Opens the first of the @n inputs @paths that can be opened into
 * first_in (open_probe()) and says whether it is perf.data; 0 when none
 * can (a directory opens, but is skipped too).  One that cannot is
 * reported by the import.  A missing first input chose CSV: the
 * perf.data files after it were refused as "not CSV as the first input,
 * which chose the format".
 */
static int first_is_perf(char **paths, size_t n)
{
	int perf = 0;
	struct stat st;
	for (first_at = 0; first_at < n; first_at++) {
		/* a directory opens but has nothing to read: it does not
		 * choose either */
		if (stat(paths[first_at], &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		if ((first_in = open_probe(paths[first_at], &perf,
					   &first_pk)))
			break;
	}
	return perf;
}

/* Messages about the temporary file of a CSV import. */
#define SPOOL "temporary file"

/*
 * Where a CSV import's samples go.  The comm column's names become
 * metadata (comm.PID.TID), which precedes a segment's samples: an input
 * with that column has its samples wait in a temporary .pebs, whose
 * blocks are copied as they are behind the full metadata at the end.
 * Inputs without it stream to the output; when one with it follows them,
 * their segment ends there and the rest is spooled into a second one.
 */
struct imp {
	struct pebs_csvin *c;
	struct pebs_writer *w;		/* NULL before the first sample */
	FILE *out;
	const char *outname;
	const struct pebs_meta *meta;
	const struct pebs_writer_opts *wo;
	FILE *spool;			/* spooling: the temporary file */
	char **names;			/* event names in the order of their ids */
	size_t nnames, capnames;
	struct pebs_meta *comms;
	const char *input;		/* for messages */
	uint64_t comm_changes;
	int werr;	/* a writer error, told apart from bad input */
	int readable;	/* an input was CSV: its header, or empty */
	int fmt_csv;	/* -f csv was given, not taken from the first input */
	struct util_progress pg;
	FILE *in;		/* the input being read */
	uint64_t before;	/* bytes of the inputs before it */
	uint64_t nsamples;	/* samples read, all inputs */
};

/*
 * The bytes of the inputs read when @in, the one being read, is at @at
 * of its @size bytes (0: not a regular file): UINT64_MAX when not known,
 * as for a pipe.
 */
static uint64_t bytes_read(const struct util_progress *pg, uint64_t before,
			   uint64_t at, uint64_t size)
{
	if (!pg->total_known || !size)
		return UINT64_MAX;
	return before + (at < size ? at : size);
}

/* The size of regular file @fp, else 0. */
static uint64_t file_size(FILE *fp)
{
	struct stat st;
	return fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) ?
	       (uint64_t)st.st_size : 0;
}

/* $TMPDIR, or NULL when unset or empty (then /tmp). */
static const char *spool_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : NULL;
}

/* An unnamed temporary file in $TMPDIR (tmpfile() ignores it), or NULL. */
static FILE *spool_open(void)
{
	const char *dir = spool_dir();
	char *path;
	if (asprintf(&path, "%s/pebs-import.XXXXXX", dir ? dir : "/tmp") < 0)
		return NULL;
	int fd = mkostemp(path, O_CLOEXEC);
	FILE *f = NULL;
	if (fd >= 0) {
		unlink(path);
		if (!(f = fdopen(fd, "w+")))
			close(fd);
	}
	free(path);
	return f;
}

/*
 * The writer for the input being read: opened on its first event or
 * sample, after its header (so pebs_csvin_has_comm() is known).  A new
 * writer is given the event names handed out so far in the same order,
 * so that their ids (csvin keeps them across inputs) stay valid.
 */
static struct pebs_writer *target(struct imp *m)
{
	int comm = pebs_csvin_has_comm(m->c);
	if (m->w && (m->spool || !comm))
		return m->w;
	if (m->w) {
		util_writer_check(m->w, pebs_writer_close(m->w), m->outname);
		m->w = NULL;
	}
	if (comm) {
		/* as pebs-capture's trace file: where it came from too,
		 * a $TMPDIR of another machine or a removed one */
		if (!(m->spool = spool_open()))
			util_die(EXIT_SYS, "cannot create a temporary file in "
				 "%s%s%s:", spool_dir() ? "$TMPDIR (" : "",
				 spool_dir() ? spool_dir() : "/tmp",
				 spool_dir() ? ")" : "");
		util_writer_check(NULL, pebs_writer_open(&m->w, m->spool, NULL,
							 m->wo), SPOOL);
	} else {
		util_writer_check(NULL, pebs_writer_open(&m->w, m->out,
							 m->meta, m->wo),
				  m->outname);
	}
	for (size_t i = 0; i < m->nnames; i++)
		if (pebs_writer_event(m->w, m->names[i]) != (int)i)
			util_writer_check(m->w, -PEBS_E_NOMEM, m->spool ?
					  SPOOL : m->outname);
	return m->w;
}

static int sink_event(void *ctx, const char *name)
{
	struct imp *m = ctx;
	int r = pebs_writer_event(target(m), name);
	/* A name over the format's limits is bad input, reported by csvin
	 * with file and line; the writer stays usable. */
	if (r < 0 && r != -PEBS_E_RANGE)
		m->werr = r;
	if (r >= 0 && (size_t)r == m->nnames) {
		if (m->nnames == m->capnames) {
			size_t nc = m->capnames ? 2 * m->capnames : 64;
			char **nn = realloc(m->names, nc * sizeof(*nn));
			if (!nn)
				util_die(EXIT_SYS, "out of memory");
			m->names = nn;
			m->capnames = nc;
		}
		if (!(m->names[m->nnames++] = strdup(name)))
			util_die(EXIT_SYS, "out of memory");
	}
	return r;
}

static int sink_sample(void *ctx, const struct pebs_sample *s)
{
	struct imp *m = ctx;
	int r = pebs_writer_add(target(m), s);
	if (r < 0)
		m->werr = r;
	/* a clock read every 65536 samples, as the .pebs readers do */
	if (!(++m->nsamples & 0xffff) && m->pg.on) {
		off_t at = ftello(m->in);
		util_progress_at(&m->pg, m->nsamples,
				 at < 0 ? UINT64_MAX :
				 bytes_read(&m->pg, m->before, (uint64_t)at,
					    file_size(m->in)));
	}
	return r;
}

/*
 * The comm column's names, as the metadata keys comm.PID.TID that
 * pebs-decode looks them up by (the key with the tid also for a process's
 * main thread: a comm.PID would name the process's other threads too,
 * which printed [unknown]).  A thread has one name in .pebs; one that
 * changed (exec, prctl) keeps its last, as -f perf keeps a thread's last
 * COMM, and the first change is told, the count of all at the end.
 */
static int sink_comm(void *ctx, uint64_t line, const struct pebs_sample *s,
		     const char *name)
{
	struct imp *m = ctx;
	char k[48];
	snprintf(k, sizeof(k), "comm.%" PRIu32 ".%" PRIu32, s->pid, s->tid);
	/* named with --meta: the user's word stays, whatever the rows say
	 * (import_end()), so no row's name is kept nor a change told */
	if (pebs_meta_get(m->meta, k))
		return 0;
	const char *old = pebs_meta_get(m->comms, k);
	if (old && strcmp(old, name) == 0)
		return 0;
	char now[256], before[256];
	if (old && !m->comm_changes++)
		util_warn("%s: line %llu: pid %" PRIu32 " tid %" PRIu32 ": "
			  "comm \"%s\" after \"%s\": a thread has one name "
			  "in .pebs, the last one read is kept",
			  util_name(m->input), (unsigned long long)line,
			  s->pid, s->tid, util_safe(now, sizeof(now), name),
			  util_safe(before, sizeof(before), old));
	return pebs_meta_set(m->comms, k, name) ? -PEBS_E_NOMEM : 0;
}

/*
 * A CSV input that stalls (peek_get()): the samples imported so far go
 * out, those pending as a block, and the output is flushed, unless they
 * wait in the temporary file for their names; a reader downstream that
 * is gone ends the import (util_idle_out()).
 */
static void csv_stall(void *ctx)
{
	struct imp *m = ctx;
	if (m->w && !m->spool)
		util_writer_check(m->w, pebs_writer_flush(m->w), m->outname);
	util_idle_out(m->out, m->outname);
}

/*
 * pebs_csvin_read() of a stream input @pk, whose rows are imported as they
 * come, not once 64 KiB of them did (its fread()).  A read error is
 * -PEBS_E_IO with errno in *@err.
 */
static int read_stream(struct imp *m, struct peek *pk, int *err)
{
	char buf[1 << 16];
	ssize_t n;
	int r = 0;
	while ((n = peek_get(pk, buf, sizeof(buf), csv_stall, m)) > 0)
		if ((r = pebs_csvin_feed(m->c, buf, (size_t)n)) < 0)
			break;
	if (n < 0 && r == 0) {
		*err = errno;
		pebs_csvin_end(m->c);
		return -PEBS_E_IO;
	}
	return pebs_csvin_end(m->c);
}

/*
 * Imports each CSV input (each with its own header) as struct imp says.
 * A bad input is reported and its rows before the error are kept; returns
 * the exit status.
 */
static int import_csv(struct imp *m, char **paths, size_t n)
{
	struct pebs_csvin_sink sink = { sink_event, sink_sample, m };
	int status = EXIT_OK;
	if (pebs_csvin_open(&m->c, &sink) < 0)
		util_die(EXIT_SYS, "out of memory");
	pebs_csvin_set_comm(m->c, sink_comm);
	util_progress_init(&m->pg, (const char *const *)paths, n, m->out);
	for (size_t i = 0; i < n; i++) {
		const char *name = paths[i];
		int perf = 0, err = 0;
		struct peek *pk = first_pk;
		/* the first input without -f was looked at: CSV */
		FILE *fp = i == first_at && first_in ? first_in :
			   open_probe(name, &perf, &pk);
		m->input = name;
		if (!fp) {
			util_warn("%s: cannot open:", name);
			status = EXIT_SYS;
			continue;
		}
		/*
		 * Told here, not by csvin, which cannot say how the format
		 * was chosen: the hint named a -f csv never given.
		 */
		if (perf) {
			util_warn("%s: a perf.data file, not CSV %s",
				  util_name(name), m->fmt_csv ?
				  "as -f csv says (import it without -f csv, "
				  "in a run of its own)" :
				  "as the first input, which chose the format "
				  "(import a perf.data in a run of its own)");
			status = status > EXIT_DATA ? status : EXIT_DATA;
			close_in(fp);
			continue;
		}
		uint64_t headers = pebs_csvin_headers(m->c);
		m->in = fp;
		int r = pk ? read_stream(m, pk, &err) :
			pebs_csvin_read(m->c, fp);
		m->before += file_size(fp);
		/* read: its header, or all of it (an empty input is fine) */
		if (r == 0 || pebs_csvin_headers(m->c) > headers)
			m->readable = 1;
		if (m->werr)
			util_writer_check(m->w, m->werr, m->spool ? SPOOL :
					  m->outname);
		if (r < 0) {
			errno = err;
			if (err)
				util_warn("%s: read error:", util_name(name));
			else
				util_warn("%s: %s", util_name(name),
					  pebs_csvin_errmsg(m->c));
			int st = r == -PEBS_E_IO ? EXIT_SYS :
				 r == -PEBS_E_NOMEM ? EXIT_SYS : EXIT_DATA;
			if (st > status)
				status = st;
		}
		close_in(fp);
	}
	pebs_csvin_close(m->c);
	util_progress_end(&m->pg);
	return status;
}

/* Copies every block of the temporary .pebs @spool to writer @w. */
static void copy_spool(struct pebs_writer *w, FILE *spool, const char *out)
{
	char path[32];
	const char *paths[1] = { path };
	struct pebs_reader_opts ro = {
		.threads = 1,
		.cols = 1ull << PEBS_COL_TIME,	/* decode little: copied */
		.raw_chunks = 1,
	};
	struct pebs_reader *r;
	struct pebs_batch *b;
	int got;
	if (fflush(spool) == EOF || ferror(spool))
		util_write_failed(SPOOL);
	/* a name for the reader, though the file has none (tmpfile) */
	snprintf(path, sizeof(path), "/dev/fd/%d", fileno(spool));
	if (pebs_reader_open(&r, paths, 1, &ro) < 0)
		util_die(EXIT_SYS, "out of memory");
	while ((got = pebs_reader_next(r, &b)) > 0) {
		size_t len;
		const void *raw = pebs_reader_raw(r, &len);
		int c = raw ? pebs_writer_copy_block(w, raw, len) :
			-PEBS_E_NOMEM;
		/* the spool's chunk refused, no error of @w */
		if (c == -PEBS_E_CHECKSUM || c == -PEBS_E_INVAL)
			util_die(EXIT_SYS, "%s: %s", SPOOL,
				 pebs_writer_errmsg(w));
		util_writer_check(w, c, out);
	}
	if (got < 0)
		util_die(EXIT_SYS, "%s: %s", SPOOL, pebs_reader_errmsg(r));
	pebs_reader_close(r);
}

/*
 * Opens the writer of the spooled segment with @meta and the comm names
 * in it; when they make the metadata longer than the format allows, the
 * samples go without them (@bare), which is told: EXIT_DATA, else
 * EXIT_OK.
 */
static int open_named(struct imp *m, struct pebs_writer **w,
		      const struct pebs_meta *meta,
		      const struct pebs_meta *bare)
{
	*w = NULL;
	int r = pebs_writer_open(w, m->out, meta, m->wo);
	if (r != -PEBS_E_RANGE || !*w) {
		util_writer_check(*w, r, m->outname);
		return EXIT_OK;
	}
	util_warn("the names of the comm column are left out, the samples "
		  "kept: %s", pebs_writer_errmsg(*w));
	pebs_writer_close(*w);
	util_writer_check(NULL, pebs_writer_open(w, m->out, bare, m->wo),
			  m->outname);
	return EXIT_DATA;
}

/*
 * Ends a CSV import: the output's last segment, with the names read.
 * Returns the exit status of what it found (EXIT_OK or EXIT_DATA).
 */
static int import_end(struct imp *m, struct pebs_meta *meta)
{
	int status = EXIT_OK;
	if (m->comm_changes > 1)
		util_warn("%llu rows in all named a thread otherwise than an "
			  "earlier row", (unsigned long long)m->comm_changes);
	if (m->w && !m->spool) {
		util_writer_check(m->w, pebs_writer_close(m->w), m->outname);
	} else if (!m->w && m->readable) {
		/*
		 * No sample: the metadata alone, but only when an input was
		 * read, so that inputs none of which could be (missing, not
		 * CSV) do not pass for a capture of no samples (pebs-decode's
		 * rule): their messages are all.
		 */
		struct pebs_writer *w;
		util_writer_check(NULL, pebs_writer_open(&w, m->out, meta,
							 m->wo), m->outname);
		util_writer_check(w, pebs_writer_close(w), m->outname);
	} else if (m->w) {	/* spooled, for the comm names */
		struct pebs_meta *bare = pebs_meta_new();
		if (!bare || pebs_meta_copy(bare, meta))
			util_die(EXIT_SYS, "out of memory");
		util_writer_check(m->w, pebs_writer_close(m->w), SPOOL);
		/* a key given with --meta is the user's word and stays */
		for (size_t i = 0; i < pebs_meta_count(m->comms); i++) {
			const char *k, *v;
			pebs_meta_entry(m->comms, i, &k, &v);
			if (!pebs_meta_get(meta, k) &&
			    pebs_meta_set(meta, k, v))
				util_die(EXIT_SYS, "out of memory");
		}
		struct pebs_writer *w;
		status = open_named(m, &w, meta, bare);
		pebs_meta_free(bare);
		copy_spool(w, m->spool, m->outname);
		util_writer_check(w, pebs_writer_close(w), m->outname);
		fclose(m->spool);
	}
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
	pebs_meta_free(m->comms);
	return status;
}

/* The progress line of a perf.data import (pebs_perf_progress_fn). */
struct perf_progress {
	struct util_progress pg;
	uint64_t before, size;	/* bytes of the inputs before, this one's */
	uint64_t nsamples;	/* samples of the inputs before */
	uint64_t cur;		/* samples of this one so far */
};

static void perf_progress(void *ctx, uint64_t samples, uint64_t done,
			  uint64_t total)
{
	struct perf_progress *pp = ctx;
	pp->cur = samples;
	/* the records' share of the file: its size stands for them */
	uint64_t at = total ? (uint64_t)((double)pp->size * (double)done /
					 (double)total) : 0;
	util_progress_at(&pp->pg, pp->nsamples + samples,
			 bytes_read(&pp->pg, pp->before, at, pp->size));
}

/*
 * -f perf: each perf.data input becomes one .pebs segment with the
 * file's own metadata; this command line is kept as import.cmdline.
 */
static int import_perf(char **paths, size_t n, FILE *fp, const char *out,
		       const struct pebs_writer_opts *wo, int argc,
		       char **argv)
{
	struct pebs_meta *extra = pebs_meta_new();
	char *cmd = join_args(argc, argv), err[256];
	int status = EXIT_OK, wfail;
	if (!extra || !cmd || pebs_meta_set(extra, "import.cmdline", cmd))
		util_die(EXIT_SYS, "out of memory");
	free(cmd);
	struct perf_progress pp = { .nsamples = 0 };
	util_progress_init(&pp.pg, (const char *const *)paths, n, fp);
	for (size_t i = 0; i < n; i++) {
		FILE *in = open_in(i, paths[i]);
		if (!in) {
			util_warn("%s: cannot open:", paths[i]);
			status = EXIT_SYS;
			continue;
		}
		pp.size = file_size(in);
		int r = pebs_perf_import_cb(in, paths[i], fp, wo, extra,
					    pp.pg.on ? perf_progress : NULL,
					    &pp, err, sizeof(err), &wfail);
		close_in(in);
		pp.before += pp.size;
		pp.nsamples += pp.cur;
		pp.cur = 0;
		if (wfail && r == -PEBS_E_IO)
			util_write_failed(out);
		if (wfail)
			util_die(EXIT_SYS, "%s", err);
		if (r < 0) {
			util_warn("%s: %s", util_name(paths[i]), err);
			int st = r == -PEBS_E_IO || r == -PEBS_E_NOMEM ?
				 EXIT_SYS : EXIT_DATA;
			if (st > status)
				status = st;
		}
	}
	util_progress_end(&pp.pg);
	pebs_meta_free(extra);
	return status;
}

int main(int argc, char **argv)
{
	enum { O_LEVEL = 256, O_VERSION, O_META };
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "level", required_argument, NULL, O_LEVEL },
		{ "meta", required_argument, NULL, O_META },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt = NULL, *out = NULL;
	struct pebs_writer_opts wo = { 0 };
	int c;
	struct pebs_meta *user = pebs_meta_new();
	util_init(argv[0]);
	if (!user)
		util_die(EXIT_SYS, "out of memory");
	while ((c = util_getopt_long(argc, argv, "f:o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'f': fmt = optarg; break;
		case 'o': out = optarg; break;
		case O_LEVEL:
			wo.level = util_level_arg(optarg);
			break;
		case O_META: {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				util_die(EXIT_USAGE, "--meta: expected KEY=VALUE, "
					 "got \"%s\"", optarg);
			char *key = strndup(optarg, (size_t)(eq - optarg));
			const char *want;
			if (!key)
				util_die(EXIT_SYS, "out of memory");
			if (pebs_meta_check(key, eq + 1, &want) < 0)
				util_die(EXIT_USAGE, "--meta: %s: expected %s, "
					 "got \"%s\"", key, want, eq + 1);
			if (pebs_meta_set(user, key, eq + 1))
				util_die(EXIT_SYS, "out of memory");
			free(key);
			break;
		}
		case 'h':
			usage(stdout);
			pebs_meta_free(user);
			util_close_out(stdout, NULL);
			return EXIT_OK;
		case O_VERSION: util_version();
		default:
			usage(stderr);
			pebs_meta_free(user);
			return EXIT_USAGE;
		}
	}
	if (fmt && strcmp(fmt, "csv") != 0 && strcmp(fmt, "perf") != 0)
		util_die(EXIT_USAGE, "-f: unknown input format \"%s\" (csv, "
			 "perf)", fmt);
	char *stdin_only[] = { (char *)"-" };
	char **paths = argv + optind;
	size_t n = (size_t)(argc - optind);
	if (!n) {
		paths = stdin_only;
		n = 1;
	}
	util_check_out(out, (const char *const *)paths, n);
	int perf = fmt ? strcmp(fmt, "perf") == 0 : first_is_perf(paths, n);
	if (perf)
		util_check_in((const char *const *)paths, n, "perf.data");
	if (perf && pebs_meta_count(user))
		util_die(EXIT_USAGE, "--meta: only with -f csv (perf.data "
			 "carries its own metadata)");
	FILE *fp = util_open_out(out, 1);
	/* after every refusal: the note followed by one misled */
	for (size_t i = 0; !perf && i < n; i++)
		if (strcmp(paths[i], "-") == 0) {
			util_note_tty(paths[i], "CSV");
			break;
		}
	if (perf) {
		pebs_meta_free(user);
		int st = import_perf(paths, n, fp, out, &wo, argc, argv);
		util_close_out(fp, out);
		return st;
	}
	struct pebs_meta *meta = make_meta(argc, argv, "import-csv");
	if (pebs_meta_copy(meta, user))
		util_die(EXIT_SYS, "out of memory");
	pebs_meta_free(user);
	struct imp m = { .out = fp, .outname = out, .meta = meta, .wo = &wo,
			 .comms = pebs_meta_new(), .fmt_csv = fmt != NULL };
	if (!m.comms)
		util_die(EXIT_SYS, "out of memory");
	int status = import_csv(&m, paths, n);
	int st = import_end(&m, meta);
	if (st > status)
		status = st;
	pebs_meta_free(meta);
	util_close_out(fp, out);
	return status;
}
