/*
 * pebs_sym.h - symbols for samples (elfutils libdwfl): ip -> function+offset,
 * dso and (with debug info) source file:line; data address -> the global or
 * static variable it falls in.  Works from the process maps and build-ids
 * kept in a capture's metadata (maps.N.pid/start/end/pgoff/path/build_id,
 * see formats/perf-import.md), so a file can be analysed on another machine
 * with the binaries copied under a --symfs directory.
 *
 * A built-in workload of the simulator has no process maps; its metadata
 * names each instruction instead (workload.ips.N.ip, workload.ips.N.name
 * "fs_worker: load shared.count[id]"): an address no map covers that is
 * exactly one of those ips resolves to the function before ": " (sym
 * "fs_worker") and what the instruction does after it (srcline "load
 * shared.count[id]"); dso and data_sym stay unknown.
 *
 * Derived field names (for --fields, --by, filters): sym, dso, srcline,
 * data_sym, and comm: the command name of the sample's thread, from the
 * metadata's comm.PID.TID, else comm.PID (pebs-import -f perf and
 * pebs-capture -- COMMAND record them).  Strings returned are owned by the
 * symbolizer and stay valid until pebs_sym_close().
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
	PEBS_SYM_COMM,		/* pid, tid: "false_sharing" */
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
 * keys, read as pebs_sym_map_next() does, its workload.ips.* and comm.*
 * keys; the metadata is copied).
 * Binaries are opened lazily, per process, on first use.  One object
 * mapped at two load biases in one process (two inputs of the same pid)
 * is resolved at both.  Where the objects of one pid overlap (two inputs
 * that mapped different things at the same addresses), the one whose map
 * comes first in @meta is used there (in that order, an object is used
 * unless it overlaps one used before it); addresses in the maps of the
 * others stay unresolved, with a note naming the object used over the
 * map.  @opts may be NULL; its symfs is made absolute (realpath()).
 * Returns 0 and *@s, or a negative error: PEBS_E_NOMEM, PEBS_E_IO (errno
 * kept) when the symfs cannot be resolved (it does not exist).  *@s is
 * set either way: pebs_sym_close() it.
 */
int pebs_sym_open(struct pebs_sym **s, const struct pebs_meta *meta,
		  const struct pebs_sym_opts *opts);

/* Frees @s and every string it returned.  NULL is fine. */
void pebs_sym_close(struct pebs_sym *s);

/*
 * Field name -> enum pebs_sym_field ("sym", "dso", "srcline", "data_sym",
 * "comm"), or -1 when @name is none of them.
 */
int pebs_sym_field_lookup(const char *name);

/* The name of field @f, or NULL. */
const char *pebs_sym_field_name(int f);

/*
 * Resolved details of an address.  @name is the symbol (NULL if none),
 * @off the offset into it, @dso the object path (NULL if no map covers the
 * address), @file/@line the source position (NULL/0 without debug info).
 * An instruction of a built-in workload (workload.ips) has @name its
 * function, @off 0, @dso NULL and @file what it does ("load x", NULL if
 * its name says nothing more), @line 0.
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
 * when not (dso may still be set), or -PEBS_E_NOMEM when an allocation
 * failed on the way (ours, or one libelf/libdw reported), never "not
 * found" for it: loading an object, its symbols, lines or debug file, or
 * a note about it.  After that @s is spent: every later lookup, string
 * and dso fails too (pebs_sym_error()); close it.
 */
int pebs_sym_lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr,
		    int data, struct pebs_sym_info *out);

/*
 * The derived field @f (enum pebs_sym_field) of sample @i of batch @b, as
 * text: uses its pid and ip (addr for data_sym, tid for comm).  Unknown
 * values are PEBS_SYM_UNKNOWN (srcline "??:0"); NULL only when out of
 * memory (-PEBS_E_NOMEM, see pebs_sym_lookup()).  One pointer per
 * distinct text and key; results are cached.
 */
const char *pebs_sym_str(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f);

/*
 * The value of field @f of sample @i of @b by which samples are grouped and
 * filtered: for sym and data_sym the symbol name alone ("function", no
 * "+0x1a"), for dso, srcline and comm the same text as pebs_sym_str().
 * NULL only when out of memory, as there; cached; owned by @s.
 */
const char *pebs_sym_key(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f);

/*
 * The object (map path) that covers @addr in process @pid, or NULL: the
 * dso of pebs_sym_lookup() without resolving a symbol.  Owned by @s.
 * NULL also when out of memory: pebs_sym_error() tells which.
 */
const char *pebs_sym_dso(struct pebs_sym *s, uint32_t pid, uint64_t addr);

/*
 * -PEBS_E_NOMEM when an allocation of @s failed (a lookup, string or dso
 * call then failed too, and so will every later one), else 0.  @s may be
 * NULL.
 */
int pebs_sym_error(const struct pebs_sym *s);

/*
 * Number of process maps (with an address range) @s was built from.  With
 * none (and no workload.ips), the first lookup adds a note saying that
 * sym, dso, srcline and data_sym read PEBS_SYM_UNKNOWN.
 */
size_t pebs_sym_nmaps(const struct pebs_sym *s);

/*
 * 1 when the maps.*, workload.ips.* and comm.* entries of @m are exactly
 * those @s was built from (so @s can go on serving a new input segment),
 * else 0.  @m may be NULL.
 */
int pebs_sym_same_maps(const struct pebs_sym *s, const struct pebs_meta *m);

/* The fields of a process map in metadata: maps.N.<name>. */
enum pebs_sym_map_field {
	PEBS_SYM_MAP_PID = 0,	/* decimal; -1 for the kernel's maps */
	PEBS_SYM_MAP_START,	/* first address (hex) */
	PEBS_SYM_MAP_END,	/* address after the last (hex) */
	PEBS_SYM_MAP_PGOFF,	/* file offset of start (hex) */
	PEBS_SYM_MAP_PATH,	/* the mapped file */
	PEBS_SYM_MAP_BUILD_ID,	/* hex, optional */
	PEBS_SYM_MAP_FIELDS
};

/*
 * Parses the text @v of a map's start, end or pgoff: hex, with or without
 * 0x (as /proc/PID/maps prints it; a leading 0 is not octal), at most 64
 * bits, nothing else (no spaces or sign).  0 with *@out, or -PEBS_E_PARSE
 * (*@out unchanged).  pebs_sym_open() leaves out a map whose value does
 * not parse, or whose end is not above its start, with a note
 * (pebs_sym_notes()).
 */
int pebs_sym_map_num(const char *v, uint64_t *out);

/*
 * Parses the text @v of a map's pid: decimal digits (a leading 0 is not
 * octal, 0x is not hex) up to INT32_MAX, or -1 for the kernel's maps;
 * nothing else (no spaces, no other sign).  0 with *@out, or
 * -PEBS_E_PARSE (*@out unchanged).  pebs_sym_open() leaves out a map
 * whose pid does not parse, with a note, as for pebs_sym_map_num().
 */
int pebs_sym_map_pid(const char *v, int32_t *out);

/* The key suffix of map field @f ("pid", ... "build_id"), or NULL. */
const char *pebs_sym_map_field_name(int f);

/* Map field name -> enum pebs_sym_map_field, or -1. */
int pebs_sym_map_field_lookup(const char *name);

/*
 * The process maps of metadata @m, one per call: every N that has a
 * maps.N.path key, whatever the numbering (gaps, leading zeros, any
 * order), in the order of those keys.  Start with *@i = 0 (a cursor into
 * @m's entries).  Fills @v with the text of each field (NULL where the key
 * is absent; owned by @m) and returns 1, or returns 0 after the last.
 * This is the one reader of maps.N.* metadata: pebs_sym_open() and
 * pebs-c2c's gathering of maps both use it.  @m may be NULL.
 */
int pebs_sym_map_next(const struct pebs_meta *m, size_t *i,
		      const char *v[PEBS_SYM_MAP_FIELDS]);

/*
 * The instructions a built-in workload names in metadata @m, one per call:
 * every N with both workload.ips.N.ip and workload.ips.N.name, whatever
 * the numbering, in the order of the .ip keys.  Start with *@i = 0 (a
 * cursor into @m's entries).  Sets *@ip and *@name (owned by @m) and
 * returns 1, or returns 0 after the last.  The one reader of these keys:
 * pebs_sym_open() and pebs-c2c's gathering of names both use it.  @m may
 * be NULL.
 */
int pebs_sym_ip_next(const struct pebs_meta *m, size_t *i, const char **ip,
		     const char **name);

/*
 * Notes about objects that could not be used, one per object, e.g.
 * "/usr/lib/libc.so.6: not found under --symfs /x" or
 * "/bin/app: build-id differs (file 12ab..., capture 34cd...): not used",
 * "/bin/app: no symbol table (stripped) and no debug file found: ...".
 * Control characters and invalid UTF-8 in a note (the paths come from
 * the metadata) read '?', as in the text reports: a note can go to a
 * terminal as it is.
 * Returns the number of notes; *@note is set to note @i when @i is less.
 */
size_t pebs_sym_notes(const struct pebs_sym *s, size_t i, const char **note);

#ifdef __cplusplus
}
#endif

#endif
