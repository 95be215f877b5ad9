/*
 * util_sym.h - symbol plumbing shared by pebs-decode, pebs-filter and
 * pebs-hist: the --symfs option, one symbolizer per set of process maps
 * (reopened when an input segment brings other maps), and the notes about
 * objects that cannot be used, printed once each as warnings.
 */
#ifndef PEBS_CMD_UTIL_SYM_H
#define PEBS_CMD_UTIL_SYM_H

#include <stddef.h>

#include "pebs.h"
#include "pebs_sym.h"

/* --symfs DIR: look the binaries up under DIR (NULL: where they were). */
extern const char *util_symfs;

/*
 * Checks --symfs once its options are read, so that a typo is reported
 * before any input is, not only when a symbol field happens to be used:
 * exits 3 naming util_symfs when it is not a directory.  Nothing to do
 * without one (or with "", which means none).
 */
void util_symfs_check(void);

/* The usage line of --symfs, for the tools' help texts. */
#define UTIL_SYMFS_HELP \
	"  --symfs DIR     look binaries up under DIR for sym, dso, srcline, " \
	"data_sym\n"

/* Non-zero when one of the field ids @ids[0..@n) is a symbol field. */
int util_sym_fields(const int *ids, size_t n);

/*
 * pebs_sym_open() or die: a --symfs that does not exist (exit 3, the
 * reason), out of memory.
 */
struct pebs_sym *util_sym_open(const struct pebs_meta *meta,
			       const struct pebs_sym_opts *opts);

/*
 * The symbolizer for a batch of input @file whose segment has metadata
 * @meta: the current one while the maps are the same, else a new one (the
 * old one is closed after the new one is open, so the two never share an
 * address).  Prints the notes gathered since the last call, each object
 * once per run.  Exits 3 when memory is short.
 */
struct pebs_sym *util_sym_get(const struct pebs_meta *meta,
			      const char *file);

/* Prints the notes left and closes the symbolizer.  Safe to call twice. */
void util_sym_close(void);

#endif
