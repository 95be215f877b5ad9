/*
 * util.c - CLI plumbing shared by the pebs-* tools.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pebs_format.h"
#include "pebs_perf.h"
#include "util.h"
#include "util_progress.h"

const char *util_prog = "pebs";

/* What the tool inherited, for the commands it runs (util_restore_signals). */
static struct sigaction sigpipe0, sigxfsz0;
static sigset_t mask0;
static struct rlimit nofile0;
static int nofile_raised;

/* Most descriptors the tools ask for (below: the soft limit up to it). */
#define NOFILE_WANT 65536

void util_init(const char *prog)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	const char *s = strrchr(prog, '/');

	util_prog = s ? s + 1 : prog;
	/*
	 * A descriptor 0, 1 or 2 the caller closed (2>&-) would be the next
	 * file opened, the -o output say, and messages would go into it.
	 * Each gets /dev/null, opened the other way round for 0 and 1, so
	 * that reading standard input or writing standard output still fails
	 * (EBADF, as closed) and only messages vanish, as the caller meant.
	 */
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free descriptor: @fd, those below being open */
		int k = open("/dev/null", fd == 1 ? O_RDONLY : O_WRONLY);
		if (k >= 0 && k != fd)
			close(k);
	}
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &sigpipe0);
	/* A file size limit (ulimit -f) is a write error (EFBIG), said and
	 * exit 3, not a silent death that leaves -o's temporary behind. */
	sigaction(SIGXFSZ, &ign, &sigxfsz0);
	sigprocmask(SIG_SETMASK, NULL, &mask0);
	/*
	 * The symbolizer holds a descriptor per module with a separate
	 * debug file (libdwfl takes it as an fd), so thousands of processes
	 * can pass a soft limit of 1024: raised toward the hard limit, as
	 * far as NOFILE_WANT.  Nothing else needs it: failing is harmless.
	 */
	if (getrlimit(RLIMIT_NOFILE, &nofile0) == 0 &&
	    nofile0.rlim_cur != RLIM_INFINITY &&
	    nofile0.rlim_cur < NOFILE_WANT) {
		struct rlimit r = nofile0;
		r.rlim_cur = r.rlim_max == RLIM_INFINITY ||
			     r.rlim_max > NOFILE_WANT ? NOFILE_WANT :
			     r.rlim_max;
		nofile_raised = r.rlim_cur > nofile0.rlim_cur &&
				setrlimit(RLIMIT_NOFILE, &r) == 0;
	}
}

void util_restore_signals(void)
{
	sigaction(SIGPIPE, &sigpipe0, NULL);
	sigaction(SIGXFSZ, &sigxfsz0, NULL);
	sigprocmask(SIG_SETMASK, &mask0, NULL);
	if (nofile_raised)
		setrlimit(RLIMIT_NOFILE, &nofile0);
}

int util_progress_shown;

/*
 * Writes NUL-terminated @s (changed in place) to stderr as the text
 * formats show names, pebs_text_sanitize(): names and values from input
 * files can hold what a terminal acts on (ESC sequences that set its
 * title or clear it, a CR that overwrites the line).  With @lines its
 * '\n's stay, for a message whose format has line ends of its own;
 * without, the message is one line and a '\n' of a value in it (a file
 * name from `find`, an option's argument) becomes '?' as well, so that
 * it cannot start a line that passes for another message.
 */
static void put_msg(char *s, int lines)
{
	for (;;) {
		size_t n = lines ? strcspn(s, "\n") : strlen(s);
		fwrite(s, 1, pebs_text_sanitize(s, s, n), stderr);
		if (!s[n])
			return;
		fputc('\n', stderr);
		s += n + 1;
	}
}

/* The format attribute: clang's -Wformat-nonliteral refused vfprintf()
 * of a format it could not check (make CC=clang failed here). */
__attribute__((format(printf, 1, 0)))
static void vwarn(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t n = strlen(fmt);
	char small[1024], *msg = small;
	va_list aq;
	va_copy(aq, ap);
	int len = vsnprintf(small, sizeof(small), fmt, ap);
	/* a longer one whole if it can be, else cut */
	if (len >= (int)sizeof(small) && (msg = malloc((size_t)len + 1)))
		vsnprintf(msg, (size_t)len + 1, fmt, aq);
	else
		msg = small;
	if (len < 0)
		small[0] = '\0';
	va_end(aq);
	if (util_progress_shown) {
		/* A message replaces the progress line, which comes back
		 * at its next update. */
		fputs("\r\033[K", stderr);
		util_progress_shown = 0;
	}
	char prog[256];
	snprintf(prog, sizeof(prog), "%s: ", util_prog);
	put_msg(prog, 0);
	put_msg(msg, strchr(fmt, '\n') != NULL);
	if (msg != small)
		free(msg);
	if (n && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

const char *util_safe(char *buf, size_t cap, const char *s)
{
	size_t n = strnlen(s, cap - 1);
	buf[pebs_text_sanitize(buf, s, n)] = '\0';
	return buf;
}

void util_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void util_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(code);
}

/* What the terminal was refused, by util_open_out()'s @binary. */
static const char *binary_name(int binary)
{
	return binary == UTIL_OUT_PERF ? "perf.data" : ".pebs data";
}

/* The @binary of the last util_create_out(), for util_out_failed(). */
static int last_binary;

FILE *util_open_out(const char *path, int binary)
{
	if (!path || strcmp(path, "-") == 0) {
		if (binary && isatty(STDOUT_FILENO))
			util_die(EXIT_USAGE, "refusing to write binary %s "
				 "to a terminal: use -o FILE or a pipe",
				 binary_name(binary));
		return stdout;
	}
	/* a regular FILE is written beside it, then renamed (util_out.c) */
	FILE *fp = util_out_tmp(path);
	if (!fp)
		fp = util_create_out(path, binary);
	if (!fp)
		util_out_failed(path);
	return fp;
}

FILE *util_create_out(const char *path, int binary)
{
	last_binary = binary;
	FILE *fp = fopen(path, "wb");
	/* -o /dev/tty is a terminal too */
	if (fp && binary && isatty(fileno(fp))) {
		fclose(fp);
		errno = ENOTTY;
		return NULL;
	}
	return fp;
}

void util_out_failed(const char *path)
{
	if (errno == ENOTTY)
		util_die(EXIT_USAGE, "%s: refusing to write binary %s "
			 "to a terminal: use a file or a pipe", path,
			 binary_name(last_binary));
	/* -o "": fopen() said ENOENT; the empty name alone reads as none */
	util_die(EXIT_SYS, "%s: cannot create:", *path ? path : "-o \"\"");
}

void util_check_out(const char *out, const char *const *paths, size_t n)
{
	struct stat so, si;
	/* Identity, not names: "./x" and "x", links and hard links all
	 * name the same file.  A missing output cannot be an input. */
	if (!out || strcmp(out, "-") == 0 || stat(out, &so) != 0)
		return;
	/* no input named: standard input (pebs-c2c read it so, unchecked) */
	static const char *const stdin_only[] = { "-" };
	if (!n) {
		paths = stdin_only;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		/* "-" too: `tool -o x < x` would empty x just as well */
		if (strcmp(paths[i], "-") == 0 ? fstat(STDIN_FILENO, &si) != 0 :
		    stat(paths[i], &si) != 0)
			continue;
		if (si.st_dev == so.st_dev && si.st_ino == so.st_ino)
			util_die(EXIT_USAGE, "-o %s: is also an input (write "
				 "elsewhere, then rename)", out);
	}
}

void util_write_failed(const char *path)
{
	/* an output cut short does not replace -o's FILE */
	util_out_bad();
	if (errno == EPIPE) {
		/* quiet, but not with the progress line left on the
		 * terminal (every other exit path erases it) */
		util_progress_clear();
		exit(EXIT_OK);
	}
	util_die(EXIT_SYS, "%s: write error:",
		 path && strcmp(path, "-") ? path : "standard output");
}

struct nohdr {
	FILE *to;
	int past;		/* the first line end was seen */
};

static ssize_t nohdr_write(void *cookie, const char *buf, size_t n)
{
	struct nohdr *h = cookie;
	size_t at = 0;
	if (!h->past) {
		const char *nl = memchr(buf, '\n', n);
		if (!nl)
			return (ssize_t)n;
		h->past = 1;
		at = (size_t)(nl + 1 - buf);
	}
	if (at < n && fwrite(buf + at, 1, n - at, h->to) != n - at)
		return -1;
	return (ssize_t)n;
}

static int nohdr_close(void *cookie)
{
	free(cookie);
	return 0;
}

FILE *util_open_nohdr(FILE *fp)
{
	struct nohdr *h = calloc(1, sizeof(*h));
	cookie_io_functions_t io = { .write = nohdr_write,
				     .close = nohdr_close };
	FILE *w = h ? fopencookie(h, "w", io) : NULL;
	if (!w)
		util_die(EXIT_SYS, "out of memory");
	h->to = fp;
	return w;
}

void util_close_nohdr(FILE *w, const char *path)
{
	if (fclose(w) == EOF) {
		if (!errno)
			errno = EIO;
		util_write_failed(path);
	}
}

/* Hands what @fp holds to the system; exits on a write error. */
static void flush_out(FILE *fp, const char *path)
{
	if (ferror(fp) || fflush(fp) == EOF) {
		if (!errno)
			errno = EIO;
		util_write_failed(path);
	}
}

void util_close_out(FILE *fp, const char *path)
{
	flush_out(fp, path);
	if (util_out_close(fp, path))
		return;
	if (fp != stdout) {
		if (fclose(fp) == EOF)
			util_write_failed(path);
	} else if (fflush(stdout) == EOF) {
		util_write_failed(path);
	}
}

void util_idle_out(FILE *fp, const char *path)
{
	struct pollfd pfd = { fileno(fp), POLLOUT, 0 };
	flush_out(fp, path);
	/* POLLERR: a pipe (or socket) that nobody reads any more */
	if (poll(&pfd, 1, 0) == 1 && pfd.revents & POLLERR) {
		errno = EPIPE;
		util_write_failed(path);
	}
}

void util_writer_check(struct pebs_writer *w, int r, const char *path)
{
	if (r == -PEBS_E_IO)
		util_write_failed(path);
	if (r < 0)
		util_die(EXIT_SYS, "%s", w && *pebs_writer_errmsg(w) ?
			 pebs_writer_errmsg(w) : pebs_strerror(r));
}

void util_version(void)
{
	printf("%s %s\n", util_prog, PEBS_VERSION_STRING);
	/* a version that could not be written is a write error too */
	util_close_out(stdout, NULL);
	exit(EXIT_OK);
}

/*
 * The long option given as @arg ("--NAME[=VALUE]") that getopt_long()
 * refused: the message glibc's would print, said through util_warn(),
 * which makes what the command line held safe to print (getopt's own
 * printed a terminal's escape sequences as they were).
 */
static void bad_long(const char *arg, int val,
		     const struct option *longopts)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), nmatch = 0;
	const struct option *o, *hit = NULL;
	for (o = longopts; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len) {
			hit = o;	/* exact: never ambiguous */
			nmatch = 1;
			break;
		}
		if (!hit || hit->has_arg != o->has_arg ||
		    hit->flag != o->flag || hit->val != o->val)
			nmatch++;
		if (!hit)
			hit = o;
	}
	if (nmatch > 1) {
		char list[512];
		size_t k = 0;
		list[0] = '\0';
		for (o = longopts; o->name && k < sizeof(list); o++)
			if (!strncmp(o->name, name, len))
				k += (size_t)snprintf(list + k, sizeof(list) - k,
						      " '--%s'", o->name);
		util_warn("option '%s' is ambiguous; possibilities:%s", arg,
			  list);
	} else if (!hit || (val && hit->val != val)) {
		util_warn("unrecognized option '%s'", arg);
	} else if (hit->has_arg == no_argument) {
		util_warn("option '--%s' doesn't allow an argument", hit->name);
	} else {
		util_warn("option '--%s' requires an argument", hit->name);
	}
}

int util_getopt_long(int argc, char **argv, const char *shortopts,
		     const struct option *longopts, int *longind)
{
	char *argv0 = argv[0];
	argv[0] = (char *)util_prog;
	/* its messages are said here (bad_long()), made safe to print */
	opterr = 0;
	int before = optind;
	int c = getopt_long(argc, argv, shortopts, longopts, longind);
	argv[0] = argv0;
	if (c != '?')
		return c;
	/* the element refused: where getopt stood, or the one before */
	const char *arg = optind > before && optind - 1 < argc ?
			  argv[optind - 1] : NULL;
	/* a leading '+' or '-' sets getopt's ordering, ':' its reports */
	const char *so = shortopts + (*shortopts == '+' || *shortopts == '-');
	so += *so == ':';
	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2])
		bad_long(arg, optopt, longopts);
	else if (optopt && optopt != ':' && strchr(so, optopt))
		util_warn("option requires an argument -- '%c'", optopt);
	else if (optopt)
		util_warn("invalid option -- '%c'", optopt);
	else
		util_warn("unrecognized option '%s'", arg ? arg : "?");
	return c;
}

/* Whether the codeset of locale name @n ("ll_CC.CODESET@mod") is UTF-8. */
static int name_utf8(const char *n)
{
	const char *d = strchr(n, '.');
	char cs[16];
	size_t k = 0;
	if (!d)
		return 0;
	for (d++; *d && *d != '@' && k < sizeof(cs) - 1; d++)
		if (*d != '-' && *d != '_')
			cs[k++] = (char)(*d | 0x20);	/* ASCII lower case */
	cs[k] = '\0';
	return strcmp(cs, "utf8") == 0;
}

int util_locale_utf8(void)
{
	/* a locale object of its own: the process's stays "C" */
	locale_t l = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	if (l) {
		int r = strcmp(nl_langinfo_l(CODESET, l), "UTF-8") == 0;
		freelocale(l);
		return r;
	}
	/* Not installed (a minimal container's LANG=en_US.UTF-8): its
	 * name says what the terminal was set up for. */
	static const char *const var[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	for (size_t i = 0; i < sizeof(var) / sizeof(var[0]); i++) {
		const char *v = getenv(var[i]);
		if (v && *v)
			return name_utf8(v);
	}
	return 0;
}

const char *util_name(const char *path)
{
	return !path || strcmp(path, "-") == 0 ? "standard input" : path;
}

void util_check_in(const char *const *paths, size_t n, const char *what)
{
	int uses_stdin = n == 0;
	for (size_t i = 0; i < n; i++)
		uses_stdin |= !paths[i] || strcmp(paths[i], "-") == 0;
	if (uses_stdin && isatty(STDIN_FILENO))
		util_die(EXIT_USAGE, "standard input: refusing to read binary "
			 "%s from a terminal: name a FILE or use a pipe (%s "
			 "--help: usage)", what, util_prog);
}

void util_note_tty(const char *path, const char *what)
{
	if ((!path || strcmp(path, "-") == 0) && isatty(STDIN_FILENO))
		util_warn("standard input: reading %s from the terminal (end "
			  "with Ctrl-D)", what);
}

/*
 * Refuses, before the YAML parser names its first byte, an input of
 * --merge that is a record file: the user meant the tool without it.
 */
static void check_not_binary(const char *path, const char *buf, size_t n)
{
	if (n >= 8 && memcmp(buf, "\x89PEBS\r\n\x1a", 8) == 0)
		util_die(EXIT_USAGE, "%s: a .pebs file, not a YAML result: "
			 "read it without --merge", util_name(path));
	if (pebs_perf_probe(buf, n))
		util_die(EXIT_USAGE, "%s: a perf.data file, not a YAML result: "
			 "convert it with pebs-import, then read that without "
			 "--merge", util_name(path));
}

/* read(2) of up to @size bytes, again when a signal interrupts it. */
static ssize_t read_some(int fd, void *buf, size_t size)
{
	ssize_t r;
	do
		r = read(fd, buf, size);
	while (r < 0 && errno == EINTR);
	return r;
}

int util_yaml_open(struct util_yaml_in *in, const char *path)
{
	static int stdin_named;
	int is_stdin = !path || strcmp(path, "-") == 0;
	memset(in, 0, sizeof(*in));
	in->path = path;
	/*
	 * Standard input named again is empty, as when inputs were read
	 * whole: the first "-" may have stopped at a refused document, whose
	 * rest is not read (the man pages), not by the next "-" either.
	 */
	if (is_stdin && stdin_named++) {
		in->fd = -1;
		return 0;
	}
	in->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		util_warn("%s: cannot open:", path);
		return -1;
	}
	if (is_stdin)
		util_note_tty(path, "YAML");
	/* a pipe may give them in pieces */
	while (in->nhead < sizeof(in->head)) {
		ssize_t r = read_some(in->fd, in->head + in->nhead,
				      sizeof(in->head) - in->nhead);
		if (r < 0) {
			in->err = errno;
			util_yaml_close(in, -PEBS_E_IO);
			return -1;
		}
		if (!r)
			break;
		in->nhead += (size_t)r;
	}
	check_not_binary(path, (const char *)in->head, in->nhead);
	return 0;
}

int util_yaml_read(void *ctx, void *buf, size_t size, size_t *n)
{
	struct util_yaml_in *in = ctx;
	if (in->at < in->nhead) {
		*n = in->nhead - in->at < size ? in->nhead - in->at : size;
		memcpy(buf, in->head + in->at, *n);
		in->at += *n;
		return 0;
	}
	ssize_t r = in->fd < 0 ? 0 : read_some(in->fd, buf, size);
	if (r < 0) {
		in->err = errno;
		return -1;
	}
	*n = (size_t)r;
	return 0;
}

void util_yaml_close(struct util_yaml_in *in, int r)
{
	if (r == -PEBS_E_IO) {
		errno = in->err;
		util_warn("%s: read error:", util_name(in->path));
	}
	if (in->fd >= 0 && in->fd != STDIN_FILENO)
		close(in->fd);
	in->fd = -1;
}

unsigned util_threads_arg(const char *s)
{
	unsigned long long v;
	if (util_parse_u64(s, &v) || v > 1024)
		util_die(EXIT_USAGE, "-j: \"%s\" is not a number of threads "
			 "from 0 (one per CPU) to 1024", s);
	return (unsigned)v;
}

int util_level_arg(const char *s)
{
	/* zstd's fast levels are written as it writes them: -1 to -7 */
	unsigned long long v;
	int neg = s[0] == '-';
	if (util_parse_u64(s + neg, &v) || v < 1 ||
	    v > (unsigned long long)(neg ? -PEBS_LEVEL_MIN : PEBS_LEVEL_MAX))
		util_die(EXIT_USAGE, "--level: \"%s\" is not a zstd level "
			 "from 1 to %d, or a fast level from -1 to %d", s,
			 PEBS_LEVEL_MAX, PEBS_LEVEL_MIN);
	return neg ? -(int)v : (int)v;
}

int util_parse_u64(const char *s, unsigned long long *out)
{
	/* the library's parser: the same numbers as pebs-hist --bins and the
	 * filter language ("010" is ten, no sign or spaces) */
	uint64_t v;
	int r = pebs_num_parse(s, strlen(s), &v);
	if (r)
		return r == -PEBS_E_RANGE ? -2 : -1;
	*out = v;
	return 0;
}

unsigned long long util_u64_arg(const char *opt, const char *s)
{
	unsigned long long v;
	int r = util_parse_u64(s, &v);
	if (r == -1)
		util_die(EXIT_USAGE, "%s: not a number: \"%s\"", opt, s);
	if (r)
		util_die(EXIT_USAGE, "%s: \"%s\" is out of range (at most "
			 "%llu)", opt, s, ULLONG_MAX);
	return v;
}
