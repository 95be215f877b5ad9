/*
 * util.h - CLI plumbing shared by the pebs-* tools (not part of libpebs):
 * exit codes of the contract, messages as "TOOL: [FILE: ]WHAT: WHY",
 * output opening, checked close of stdout, quiet exit on a closed pipe.
 */
#ifndef PEBS_CMD_UTIL_H
#define PEBS_CMD_UTIL_H

#include <getopt.h>
#include <stdio.h>

/* Exit codes (cli-contract.md). */
enum {
	EXIT_OK = 0,
	EXIT_DATA = 1,		/* bad or damaged input, after writing all */
	EXIT_USAGE = 2,
	EXIT_SYS = 3,		/* I/O or system error, missing capability */
	EXIT_LOST = 4,		/* capture lost more than --max-lost */
};

/* Set once by util_init(); used as the prefix of every message. */
extern const char *util_prog;
/* A progress line (util_progress.h) is on stderr: messages clear it. */
extern int util_progress_shown;

/*
 * Sets the program name and ignores SIGPIPE (EPIPE is then handled as a
 * quiet exit 0 by util_write_failed/util_close_out), and raises the soft
 * limit of open files toward the hard one (at most 65536: symbols of many
 * processes).  PEBS_SCALAR=1 is applied by libpebs itself before main().
 */
void util_init(const char *prog);

/*
 * Gives back the SIGPIPE disposition, the signal mask and the limit of
 * open files the tool inherited (util_init), for a command it runs: an
 * ignored signal stays ignored across exec.  Async-signal-safe: for a child between fork and
 * exec.
 */
void util_restore_signals(void);

/*
 * "PROG: MSG\n" to stderr.  A trailing ':' appends strerror(errno).  What
 * a terminal would act on (controls, invalid UTF-8) becomes '?', as in
 * text tables (pebs_text_sanitize()); so does a '\n' of a value (a file
 * name), unless @fmt has line ends of its own.
 */
void util_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* util_warn() then exit(@code). */
void util_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * Name or value @s from an input, for a message that quotes it: a copy in
 * @buf (@cap >= 1 bytes, cut to cap - 1) with controls, '\n' included, and
 * invalid UTF-8 as '?', so that it cannot end the message's line and
 * start one that passes for another message.  Returns @buf.
 */
const char *util_safe(char *buf, size_t cap, const char *s);

/* util_open_out()'s @binary: what is written (the refusal names it). */
enum { UTIL_OUT_TEXT = 0, UTIL_OUT_PEBS = 1, UTIL_OUT_PERF = 2 };

/*
 * Opens the output: @path (NULL or "-" = stdout); a regular or missing
 * FILE as a temporary beside it (util_out_tmp() below).  When @binary (not
 * UTIL_OUT_TEXT), refuses a terminal with exit 2 and a hint.  Exits 3
 * when the file cannot be created (as "", which names none).
 */
FILE *util_open_out(const char *path, int binary);

/*
 * -o FILE (util_out.c).  util_open_out() writes a regular or missing FILE
 * as a temporary in its directory (new: mode 0666 less the umask; else
 * FILE's mode), renamed over it by util_close_out() when it holds output,
 * or at exit: an output that is empty replaces FILE only when the exit
 * status is 0, one that holds bytes (partial output before damage, a late
 * util_die()) always, one cut short by a write error never.  A fatal
 * signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT at their default) removes it;
 * SIGXFSZ is ignored (util_init), so a file size limit is a write error.
 * So a run that read nothing leaves FILE as it was, and creates none.
 * Anything else (a device, a FIFO, a file with other links, another
 * owner, an ACL, one we cannot write, or in an unwritable directory) is
 * written in place, as a stream; a FILE that rename() cannot replace
 * (EBUSY, EXDEV: a bind mount) is copied into.
 */

/* The temporary's stream for FILE @path, or NULL: open @path itself. */
FILE *util_out_tmp(const char *path);

/*
 * For util_close_out(), after @fp was flushed without error: 0 when @fp
 * is not the temporary; else closes it, renames it over FILE when it holds
 * output, and returns 1.  Exits 3 when that fails.
 */
int util_out_close(FILE *fp, const char *path);

/*
 * The output holds a result even when it is empty (a CSV without header
 * of no rows): it then replaces FILE whatever the exit status.  Call it
 * where the tool decides to write its output.
 */
void util_out_keep(void);

/* A write failed: the temporary is removed at exit, FILE kept. */
void util_out_bad(void);

/*
 * util_open_out() of a file @path, without exiting: the stream, or NULL
 * with errno (ENOTTY: @binary and @path is a terminal, closed again), for
 * util_out_failed().  For pebs-capture, whose library opens the output
 * late, when exiting would skip its cleanup.
 */
FILE *util_create_out(const char *path, int binary);

/* Exits as util_open_out() does when util_create_out(@path) failed. */
void util_out_failed(const char *path) __attribute__((noreturn));

/*
 * Exits 2 when the output @out (NULL or "-" = stdout) is the same existing
 * file as one of the inputs @paths[0..@n) ("-", or @n == 0: standard
 * input, compared as the file standard input is, if it is one): opening
 * it for writing would truncate the input before it is read.  Call before
 * util_open_out().
 */
void util_check_out(const char *out, const char *const *paths, size_t n);

/*
 * Closes @fp (stdout or a file opened by util_open_out) and checks every
 * write succeeded: a closed pipe exits 0 quietly, any other error exits 3.
 */
void util_close_out(FILE *fp, const char *path);

/* Call when a write to @fp failed: quiet exit 0 on EPIPE, else exit 3. */
void util_write_failed(const char *path) __attribute__((noreturn));

/*
 * While the input stalls (pebs_reader_opts.idle): hands what @fp holds
 * to the output now, as util_close_out() checks it (a write error exits
 * 3, a closed pipe 0), and ends the tool quietly (0) when the output is
 * a pipe whose reader is gone, which only a write would tell otherwise:
 * a stalled input may be a capture that runs on for hours.
 */
void util_idle_out(FILE *fp, const char *path);

struct pebs_writer;
/*
 * Exits when @r, the result of a pebs_writer_* call on @w (NULL before
 * pebs_writer_open() gave one), is an error: as util_write_failed(@path)
 * for -PEBS_E_IO, else 3 with the writer's message (pebs_strerror()
 * without a writer).
 */
void util_writer_check(struct pebs_writer *w, int r, const char *path);

/* Prints "PROG VERSION" and exits 0. */
void util_version(void) __attribute__((noreturn));

/*
 * Parses a --fields LIST of field names (pebs_field.h, symbol fields
 * included) into @ids (capacity @cap) and returns the count; with @all,
 * the name "all" gives every field of pebs_field_at() in its place, and
 * other names may stand beside it ("all,sym").  Exits 2 on a bad list,
 * with the closest name as a hint.
 */
size_t util_parse_fields(const char *list, int *ids, size_t cap, int all);

/*
 * Exits 2 with "OPT: unknown field "NAME"" and a hint: the field for a
 * perf name (weight: lat), else the closest name, if any.
 */
void util_unknown_field(const char *opt, const char *name)
	__attribute__((noreturn));

/*
 * Exits 2 when the parsed --fields list @ids[0..@n) repeats a field and
 * output format @fmt (enum pebs_output_format; any other value passes)
 * is yaml or jsonl, whose keys must be unique; call it once both -f and
 * --fields are known.
 */
void util_check_fields(int fmt, const int *ids, size_t n);

/*
 * getopt_long() whose messages ("unrecognized option") start with the
 * tool's name, as every other message does, not with the path it was run
 * by; argv[0] is given back unchanged (command lines are recorded).
 */
int util_getopt_long(int argc, char **argv, const char *shortopts,
		     const struct option *longopts, int *longind);

/*
 * --no-header for the CSV writers of the library, which always start with
 * their header line (field names: never a line end in it): a stream that
 * writes to @fp all but its first line.  End it with util_close_nohdr()
 * before util_close_out(@fp).
 */
FILE *util_open_nohdr(FILE *fp);

/* Flushes and frees @w of util_open_nohdr(); a write error exits as
 * util_write_failed(@path) does. */
void util_close_nohdr(FILE *w, const char *path);

/*
 * Whether the user's locale (LC_ALL, else LC_CTYPE, else LANG, as
 * setlocale() reads them) has the character set UTF-8, for text outputs
 * that draw with non-ASCII characters.  The tools never call setlocale():
 * numbers and names in every output stay those of the C locale.  A
 * locale that is not installed is judged by its name's codeset part
 * ("en_US.UTF-8", "de_DE.utf8"); C, POSIX and unset are ASCII.
 */
int util_locale_utf8(void);

/* @path as messages name an input: "standard input" for NULL or "-". */
const char *util_name(const char *path);

/*
 * Exits 2 with a usage hint when one of the inputs @paths[0..@n) (n == 0
 * or "-": standard input) is standard input and that is a terminal: the
 * binary @what (".pebs data") cannot be typed, and waiting silently for
 * it looks like a hang.  The mirror of util_open_out()'s refusal.
 */
void util_check_in(const char *const *paths, size_t n, const char *what);

/*
 * When @path (NULL or "-": standard input) is a terminal, says on stderr
 * that the @what (text: "CSV") is read from it until Ctrl-D: text can be
 * pasted, so it is not refused, but a silent wait looks like a hang.
 */
void util_note_tty(const char *path, const char *what);

/*
 * A YAML result of a --merge, read as the merge parses it
 * (util_yaml_read(), a pebs_read_fn): a merge of any length holds its
 * results, not its text.
 */
struct util_yaml_in {
	int fd;
	const char *path;
	unsigned char head[8];	/* the first bytes, for util_yaml_open() */
	size_t nhead, at;	/* their number; those given out */
	int err;		/* errno of the read that failed */
};

/*
 * Opens the YAML result @path of a --merge ("-": standard input, from its
 * offset; named again, empty) into @in.  0, or -1 after a message naming it when it cannot be
 * opened or read; exits with a usage error (2) when the input is a .pebs
 * or perf.data file, which is read without --merge.
 */
int util_yaml_open(struct util_yaml_in *in, const char *path);

/* pebs_read_fn of a struct util_yaml_in @ctx. */
int util_yaml_read(void *ctx, void *buf, size_t size, size_t *n);

/*
 * Closes @in after its merge returned @r: with -PEBS_E_IO, first warns
 * "read error" naming it, with the error of the read.
 */
void util_yaml_close(struct util_yaml_in *in, int r);

/*
 * The value of -j/--threads: 0 (one per CPU, at most 8) to 1024 decode
 * threads; exits with a usage error naming the range otherwise.
 */
unsigned util_threads_arg(const char *s);

/* The value of --level: a zstd level from 1 to 22, or a fast level from
 * -1 to -7 (PEBS_LEVEL_MIN/MAX); a usage error otherwise. */
int util_level_arg(const char *s);

/* pebs_num_parse() of string @s (decimal or 0x hex, optional k/M/G
 * suffix); 0, -1 when it is not a number, -2 when it is one past 64 bits
 * (a message can then say so). */
int util_parse_u64(const char *s, unsigned long long *out);

/*
 * util_parse_u64() of option @opt's value @s, or a usage error that says
 * which: '@opt: not a number: "@s"', or '@opt: "@s" is out of range (at
 * most 18446744073709551615)'.
 */
unsigned long long util_u64_arg(const char *opt, const char *s);

#endif
