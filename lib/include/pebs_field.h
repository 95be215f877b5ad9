/*
 * pebs_field.h - named fields: stored columns plus values derived from them
 * (op, mem, snoop, tlb, lock, line, page) and from the metadata (sym, dso,
 * srcline, data_sym, comm).  Used by every tool that takes
 * field names: pebs-decode --fields, pebs-filter, pebs-hist --by.
 */
#ifndef PEBS_FIELD_H
#define PEBS_FIELD_H

#include "pebs.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Field ids: 0..PEBS_COL_COUNT-1 are the stored columns (enum pebs_col);
 * derived fields follow.
 */
enum pebs_field_id {
	PEBS_F_OP = 64,		/* str: load/store/na... from dsrc */
	PEBS_F_MEM,		/* str: L1, LFB, L2, L3, LOCAL_RAM, ... */
	PEBS_F_SNOOP,		/* str: none/hit/miss/hitm/fwd/na */
	PEBS_F_TLB,		/* str: hit/miss/na */
	PEBS_F_LOCK,		/* str: locked/no/na */
	PEBS_F_LINE,		/* u64 hex: addr & ~63 */
	PEBS_F_PAGE,		/* u64 hex: addr & ~4095 */
	PEBS_F_END
};

/*
 * Symbol fields (pebs_sym.h): strings resolved from pid and ip (addr for
 * data_sym) through the process maps of the capture's metadata (or, for a
 * built-in workload, its workload.ips.N.* names), and comm, the name of
 * the sample's thread from the metadata's comm.PID.TID / comm.PID.  Same
 * order as enum pebs_sym_field.  They need a symbolizer, so they are not
 * CSV input columns: pebs_field_lookup() and pebs_field_at() leave them
 * out; pebs_field_find(), pebs_field_by_id() and pebs_field_parse_list()
 * include them.
 */
enum pebs_field_sym_id {
	PEBS_F_SYM = 80,	/* str: function+0xoff */
	PEBS_F_DSO,		/* str: object path */
	PEBS_F_SRCLINE,		/* str: file.c:42 */
	PEBS_F_DATA_SYM,	/* str: variable+0xoff (from addr) */
	PEBS_F_COMM,		/* str: thread's command name (pid, tid) */
	PEBS_F_SYM_END
};

/* Non-zero when @id is a symbol field (PEBS_F_SYM..PEBS_F_COMM). */
static inline int pebs_field_is_sym(int id)
{
	return id >= PEBS_F_SYM && id < PEBS_F_SYM_END;
}

enum pebs_field_kind { PEBS_FK_NUM = 1, PEBS_FK_HEX, PEBS_FK_STR };

struct pebs_field {
	int id;			/* column id or PEBS_F_* */
	int kind;		/* enum pebs_field_kind */
	const char *name;
	uint64_t deps;		/* mask of columns needed to compute it */
};

/*
 * Looks up field @name (case-sensitive contract names): stored columns and
 * the derived fields computed from them, not the symbol fields.  NULL if
 * unknown.
 */
const struct pebs_field *pebs_field_lookup(const char *name);
/* pebs_field_lookup() that also finds the symbol fields.  NULL if unknown. */
const struct pebs_field *pebs_field_find(const char *name);
/* The field with id @id, or NULL. */
const struct pebs_field *pebs_field_by_id(int id);
/*
 * Iterates all fields: returns the @i-th field (stored columns first, then
 * derived), or NULL past the end.
 */
const struct pebs_field *pebs_field_at(size_t i);

/* The default field list of pebs-decode (the contract's columns). */
extern const char *const pebs_field_default_list;

/*
 * Parses a comma-separated field list (symbol fields included) into @ids
 * (capacity @cap).  Returns the count, -PEBS_E_PARSE for a name that is
 * empty or no field, or -PEBS_E_RANGE for more than @cap names; on error
 * *@bad (@bad may be NULL) points at the offending name inside @list (not
 * NUL-terminated at the comma).
 */
int pebs_field_parse_list(const char *list, int *ids, size_t cap,
			  const char **bad);

/* Numeric value of field @id (numeric/hex kinds) for sample @i of @b. */
uint64_t pebs_field_num(const struct pebs_batch *b, size_t i, int id);
/*
 * String value of field @id (string kinds) for sample @i of @b.  Symbol
 * fields read "" here: they need a symbolizer (pebs_sym_str()).
 */
const char *pebs_field_str(const struct pebs_batch *b, size_t i, int id);

/*
 * Closest field name to @name (at most 2 edits, and fewer than @name has
 * letters; symbol fields included), or NULL.
 */
const char *pebs_field_suggest(const char *name);

/*
 * For a name perf uses (a perf script -F field or a perf report, mem or
 * c2c sort key) that is not a field here, a hint naming the field to use,
 * as in: perf's weight is "lat" (no quotes around, no parentheses).  Case
 * is ignored.  NULL for any other name.  The perf names are not accepted
 * as field names; this only words the unknown-field message.
 */
const char *pebs_field_perf_hint(const char *name);

/*
 * Edits between two names, for "did you mean" suggestions: insertions,
 * deletions, substitutions and swaps of neighbours ("mme" -> "mem" is
 * one), ignoring case ("LAT" -> "lat" is none).  99 for names over 32
 * characters.
 */
int pebs_name_distance(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
