/*
 * pebs-import - CSV (the inverse of pebs-decode -f csv) or perf.data to the
 * .pebs record format.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pebs_csvin.h"
#include "pebs_format.h"
#include "pebs_perf.h"
#include "util.h"

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s [-f csv|perf] [-o FILE] [--level N] "
		"[--meta KEY=VALUE]... [FILE...]\n"
		"  -f FORMAT   input format: csv or perf (default: perf when the\n"
		"              first input, a pipe too, is perf.data, else csv)\n"
		"  -o FILE     write to FILE instead of standard output\n"
		"  --level N   zstd level: 1-22 (default 1), or -1 to -7 for\n"
		"              larger files that read faster\n"
		"  --meta K=V  add metadata key K with value V (csv; "
		"repeatable),\n"
		"              e.g. topology.node.0.cpus=0-27\n"
		"  -h, --help  this help; --version: the version\n",
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
 * The first input, opened before the import to look at its first bytes:
 * a pipe cannot be read twice, so the bytes looked at are handed back
 * first by a stdio cookie, and the importers read it like any input.
 */
static FILE *first_in;

struct peek {
	FILE *in;
	unsigned char head[8];
	size_t n, at;
};

static ssize_t peek_read(void *cookie, char *buf, size_t size)
{
	struct peek *pk = cookie;
	size_t k = pk->n - pk->at < size ? pk->n - pk->at : size;
	memcpy(buf, pk->head + pk->at, k);
	pk->at += k;
	if (k < size)
		k += fread(buf + k, 1, size - k, pk->in);
	return k == 0 && ferror(pk->in) ? -1 : (ssize_t)k;
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
	if (i == 0 && first_in)
		return first_in;
	return strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
}

static void close_in(FILE *fp)
{
	if (fp != stdin)
		fclose(fp);
}

/*
 * Opens the first input @path into first_in and says whether it starts
 * as a perf.data file does (`perf record -o - | pebs-import` included):
 * a regular file is looked at in place, anything else (a pipe, a FIFO)
 * through a struct peek.  A terminal is not looked at: perf.data is not
 * typed, and CSV is read from it as it comes.  0 when it cannot be
 * opened: the import reports that.
 */
static int first_is_perf(const char *path)
{
	int is_stdin = strcmp(path, "-") == 0;
	unsigned char head[8];
	struct stat st;
	FILE *fp = is_stdin ? stdin : fopen(path, "rb");
	if (!fp)
		return 0;
	int fd = fileno(fp);
	if (isatty(fd)) {
		first_in = fp;
		return 0;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = lseek(fd, 0, SEEK_CUR);
		ssize_t k = pread(fd, head, sizeof(head), at < 0 ? 0 : at);
		first_in = fp;
		return k > 0 && pebs_perf_probe(head, (size_t)k);
	}
	struct peek *pk = calloc(1, sizeof(*pk));
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	if (!pk)
		util_die(EXIT_SYS, "out of memory");
	pk->in = fp;
	pk->n = fread(pk->head, 1, sizeof(pk->head), fp);
	first_in = fopencookie(pk, "rb", io);
	if (!first_in)
		util_die(EXIT_SYS, "out of memory");
	return pebs_perf_probe(pk->head, pk->n);
}

/* The sink: a writer error is told apart from bad input by werr. */
static int werr;

static int sink_event(void *w, const char *name)
{
	int r = pebs_writer_event(w, name);
	/* A name over the format's limits is bad input, reported by csvin
	 * with file and line; the writer stays usable. */
	if (r < 0 && r != -PEBS_E_RANGE)
		werr = r;
	return r;
}

static int sink_sample(void *w, const struct pebs_sample *s)
{
	int r = pebs_writer_add(w, s);
	if (r < 0)
		werr = r;
	return r;
}

/*
 * Imports each CSV input (each with its own header) into writer @w.  A bad
 * input is reported and its rows before the error are kept; returns the
 * exit status.
 */
static int import_csv(struct pebs_writer *w, char **paths, size_t n,
		      const char *out)
{
	struct pebs_csvin *c;
	struct pebs_csvin_sink sink = { sink_event, sink_sample, w };
	int status = EXIT_OK;
	if (pebs_csvin_open(&c, &sink) < 0)
		util_die(EXIT_SYS, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *name = paths[i];
		FILE *fp = open_in(i, name);
		if (!fp) {
			util_warn("%s: cannot open:", name);
			status = EXIT_SYS;
			continue;
		}
		int r = pebs_csvin_read(c, fp);
		if (werr)
			util_writer_check(w, werr, out);
		if (r < 0) {
			util_warn("%s: %s", util_name(name),
				  pebs_csvin_errmsg(c));
			int st = r == -PEBS_E_IO ? EXIT_SYS :
				 r == -PEBS_E_NOMEM ? EXIT_SYS : EXIT_DATA;
			if (st > status)
				status = st;
		}
		close_in(fp);
	}
	pebs_csvin_close(c);
	return status;
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
	for (size_t i = 0; i < n; i++) {
		FILE *in = open_in(i, paths[i]);
		if (!in) {
			util_warn("%s: cannot open:", paths[i]);
			status = EXIT_SYS;
			continue;
		}
		int r = pebs_perf_import(in, paths[i], fp, wo, extra, err,
					 sizeof(err), &wfail);
		close_in(in);
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
	int perf = fmt ? strcmp(fmt, "perf") == 0 : first_is_perf(paths[0]);
	if (perf)
		util_check_in((const char *const *)paths, n, "perf.data");
	for (size_t i = 0; !perf && i < n; i++)
		if (strcmp(paths[i], "-") == 0) {
			util_note_tty(paths[i], "CSV");
			break;
		}
	if (perf && pebs_meta_count(user))
		util_die(EXIT_USAGE, "--meta: only with -f csv (perf.data "
			 "carries its own metadata)");
	FILE *fp = util_open_out(out, 1);
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
	struct pebs_writer *w;
	util_writer_check(NULL, pebs_writer_open(&w, fp, meta, &wo), out);
	pebs_meta_free(meta);
	int status = import_csv(w, paths, n, out);
	util_writer_check(NULL, pebs_writer_close(w), out);
	util_close_out(fp, out);
	return status;
}
