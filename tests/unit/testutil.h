/*
 * testutil.h - helpers shared by the unit tests (one Criterion binary):
 * shell commands, a fake device root for the msr backend, programs built
 * with -fsanitize=thread against libpebs-trace, and process maps turned
 * into a capture's maps.N.* metadata.  They fail the calling test with
 * Criterion's asserts, or skip it where said.
 */
#ifndef PEBS_TESTUTIL_H
#define PEBS_TESTUTIL_H

#include <stddef.h>
#include <stdio.h>

#include "pebs.h"
#include "pebs_capture.h"

/*
 * Ends the calling test's worker process with SIGALRM, after writing
 * "test ran past its @seconds s deadline" to stderr, if the test is still
 * running @seconds seconds from now; Criterion then reports the test as
 * crashed.  Call it first in a test that could hang.  Criterion's own
 * .timeout is not used: its watchdog thread in the runner frees a
 * finished test's entry only when it next wakes, so a run that ends
 * before that reports the entry as a 48-byte leak under ASan.
 */
void tu_deadline(unsigned seconds);

/* Runs the shell command printf(@fmt, ...): its exit status, or -1. */
int tu_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A new directory ROOT with ROOT/dev/cpu/0/msr (8 bytes per MSR at
 * 8 * MSR, IA32_PERF_GLOBAL_CTRL preset to someone else's value, so a
 * capture must restore it; IA32_PERF_CAPABILITIES format 2) and
 * ROOT/dev/pebs_ds as regular files, and the probe's ROOT/fake/cpuid and
 * uid of a bare-metal Haswell run as root: the msr backend runs on it,
 * the probe finds nothing against it, and no records come.  @root gets
 * the path.
 */
void tu_fake_root(char *root, size_t len);

/*
 * Options of an msr capture on fake root @root (tu_fake_root): Haswell,
 * CPU 0, load-latency; the caller adds how it ends and where it writes.
 */
void tu_msr_opts(struct pebs_capture_opts *o, const char *root);

/*
 * Builds examples/@name.c with @cc and @defs under -fsanitize=thread and
 * links it, without -fsanitize, to trace/pebs-trace.c: the program is
 * @dir/fs.  Skips the test (removing @dir) when @cc has no
 * -fsanitize=thread.  Run from the repository root.
 */
void tu_build_traced(const char *cc, const char *name, const char *defs,
		     const char *dir);

/*
 * Reads /proc/PID/maps lines from @in and sets, for each map of the file
 * @prog, maps.N.pid (@pid), start, end, pgoff and path in @m, N from 0.
 * Returns the number of maps set.
 */
size_t tu_maps_meta(FILE *in, const char *prog, unsigned pid,
		    struct pebs_meta *m);

struct pebs_sym;
/*
 * The rows of @b that filter expression @text (which must use a symbol
 * field) selects, resolved through @s (NULL: none), as "0,2," in @out.
 */
void tu_expr_rows(const char *text, struct pebs_sym *s,
		  const struct pebs_batch *b, char *out, size_t len);

/*
 * Batch @b rendered with field list @list in output format @fmt (enum
 * pebs_out_format), without a header, through symbolizer @s (NULL:
 * none): malloc'd text.
 */
char *tu_render(int fmt, const char *list, struct pebs_sym *s,
		const struct pebs_batch *b);

/*
 * Makes the @n-th allocation (malloc, calloc, realloc; 1 the next) of the
 * calling thread fail, once.  Returns 0, or -1 where the binary cannot
 * (a sanitizer build): skip the test then.  tu_alloc_failed() disarms and
 * says whether the failure was injected (the code made @n allocations).
 */
int tu_alloc_fail(long n);
int tu_alloc_failed(void);

/*
 * The code address the failed allocation returned to (the caller of
 * malloc, calloc or realloc), or NULL when none failed since
 * tu_alloc_fail().  For a test to tell a library's own failures (libdw's)
 * from the code under test's.
 */
const void *tu_alloc_failed_at(void);

#endif
