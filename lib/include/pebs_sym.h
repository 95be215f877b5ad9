/*
 * pebs_sym.h - symbols for samples (elfutils libdwfl): ip -> function+offset,
 * dso and (with debug info) source file:line; data address -> the global or
 * static variable it falls in.  Works from the process maps and build-ids
 * kept in a capture's metadata (maps.N.pid/start/end/pgoff/path/build_id,
 * see formats/perf-import.md), so a file can be analysed on another machine
 * with the binaries copied under a --symfs directory.
 *
 * Derived field names (for --fields, --by, filters): sym, dso, srcline,
 * data_sym.  Strings returned are owned by the symbolizer and stay valid
 * until pebs_sym_close().
 */
#ifndef PEBS_SYM_H
#define PEBS_SYM_H

#include <stddef.h>
#include <stdint.h>
#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pebs_sym;

/* The derived fields. */
enum pebs_sym_field {
	PEBS_SYM_SYM = 0,	/* ip: "function+0x1a" */
	PEBS_SYM_DSO,		/* ip: path of the object ("[unknown]") */
	PEBS_SYM_SRCLINE,	/* ip: "file.c:42" ("??:0" if no debug info) */
	PEBS_SYM_DATA_SYM,	/* addr: "variable+0x8" */
	PEBS_SYM_COUNT
};

/* What unresolved sym/dso/data_sym read as. */
#define PEBS_SYM_UNKNOWN "[unknown]"

struct pebs_sym_opts {
	const char *symfs;	/* look binaries up under this directory */
	int no_build_id_check;	/* use a binary whose build-id differs */
};

/*
 * Creates a symbolizer for the capture described by @meta (its maps.*
 * keys; the metadata is copied).  Binaries are opened lazily, per process,
 * on first use.  @opts may be NULL.  Returns 0 and *@s, or a negative
 * error (PEBS_E_NOMEM).
 */
int pebs_sym_open(struct pebs_sym **s, const struct pebs_meta *meta,
		  const struct pebs_sym_opts *opts);

/* Frees @s and every string it returned.  NULL is fine. */
void pebs_sym_close(struct pebs_sym *s);

/*
 * Field name -> enum pebs_sym_field ("sym", "dso", "srcline", "data_sym"),
 * or -1 when @name is none of them.
 */
int pebs_sym_field_lookup(const char *name);

/* The name of field @f, or NULL. */
const char *pebs_sym_field_name(int f);

/*
 * Resolved details of an address.  @name is the symbol (NULL if none),
 * @off the offset into it, @dso the object path (NULL if no map covers the
 * address), @file/@line the source position (NULL/0 without debug info).
 */
struct pebs_sym_info {
	const char *name;
	uint64_t off;
	const char *dso;
	const char *file;
	int line;
};

/*
 * Resolves @addr in process @pid: as code (@data == 0: functions and source
 * lines) or as data (@data != 0: the object symbol containing it).
 * Pid 0 stands for the one user process of the maps when there is exactly
 * one: raw PEBS records (the msr backend) carry no pid, and the maps are
 * those of the captured command.  Returns 1 when a symbol was found, 0
 * when not (dso may still be set), or a negative error.
 */
int pebs_sym_lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr,
		    int data, struct pebs_sym_info *out);

/*
 * The derived field @f (enum pebs_sym_field) of sample @i of batch @b, as
 * text: uses its pid and ip (or addr for data_sym).  Never NULL: unknown
 * values are PEBS_SYM_UNKNOWN (srcline "??:0").  Results are cached.
 */
const char *pebs_sym_str(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f);

/*
 * The value of field @f of sample @i of @b by which samples are grouped and
 * filtered: for sym and data_sym the symbol name alone ("function", no
 * "+0x1a"), for dso and srcline the same text as pebs_sym_str().  Never
 * NULL; cached; owned by @s.
 */
const char *pebs_sym_key(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f);

/*
 * The object (map path) that covers @addr in process @pid, or NULL: the
 * dso of pebs_sym_lookup() without resolving a symbol.  Owned by @s.
 */
const char *pebs_sym_dso(struct pebs_sym *s, uint32_t pid, uint64_t addr);

/* Number of process maps (with an address range) @s was built from. */
size_t pebs_sym_nmaps(const struct pebs_sym *s);

/*
 * 1 when the maps.* entries of @m are exactly those @s was built from (so
 * @s can go on serving a new input segment), else 0.  @m may be NULL.
 */
int pebs_sym_same_maps(const struct pebs_sym *s, const struct pebs_meta *m);

/*
 * Notes about objects that could not be used, one per object, e.g.
 * "/usr/lib/libc.so.6: not found under --symfs /x" or
 * "/bin/app: build-id differs (file 12ab..., capture 34cd...): not used".
 * Returns the number of notes; *@note is set to note @i when @i is less.
 */
size_t pebs_sym_notes(const struct pebs_sym *s, size_t i, const char **note);

#ifdef __cplusplus
}
#endif

#endif
