/*
 * hist_int.h - internals shared by hist.c (counting) and hist_out.c
 * (writers).  Not installed.
 */
#ifndef PEBS_HIST_INT_H
#define PEBS_HIST_INT_H

#include "pebs_hist.h"

#define DENSE 4096		/* values below this are counted in an array */
#define PROMOTE_AT 1024		/* small samples before a group goes dense */

/*
 * An open-addressing table of u64 keys with used flags and values of any
 * size (grown by hist.c's table_grow): the symbol-string cache.
 */
struct table {
	uint64_t *k;
	void *v;
	uint8_t *u;
	size_t cap;
};

/* BY_STR: a symbol field, grouped by its text (names in ev[]) */
enum { BY_NONE, BY_DSRC, BY_EVENT, BY_NUM, BY_STR };

/*
 * A group's counts.  Values below DENSE go to a dense array once the group
 * has PROMOTE_AT of them (the first groups get one at once); every other
 * count is appended to the histogram's one log of (group, value, count),
 * so a group of a few samples costs no allocation of its own (grouping by
 * line or ip makes hundreds of thousands of them) and a sample no random
 * access but its group's.
 */
struct counter {
	uint64_t small;		/* samples < DENSE seen without dense[] */
	uint32_t ds;		/* h->dense[ds - 1] are its DENSE counts;
				 * 0: none (the groups are in a private
				 * mapping, where LeakSanitizer does not look
				 * for pointers: the arrays are found from
				 * h->dense, which is malloc'd) */
};

struct group {
	uint64_t key;		/* enum value, event id, or field value */
	const char *name;	/* static or h->ev[key]; NULL for BY_NUM (the
				 * view prints the key) */
	struct counter c;
};

/*
 * A group as the writers read it, in output order (hist_sort() builds
 * them all at once): reading groups made in sample order by key would
 * miss the cache on every one of millions.
 */
struct gview {
	const char *name;	/* the group's, or num[] */
	uint64_t n;		/* samples in the histogram (sv, sc) */
	uint64_t unmeasured;	/* samples of value 0 left out (h->skip0) */
	const uint64_t *sv, *sc;	/* sorted (value, count), slices of
					 * h->sv, h->sc */
	size_t sn;
	char num[24];		/* a numeric key printed (BY_NUM) */
};

/* A sparse count: value @v of group @g seen @n times. */
struct spent {
	uint64_t v, n;
	uint32_t g;
};

/* Group index slot: group @g1 - 1 has key @key; g1 0: empty. */
struct gslot {
	uint64_t key;
	uint32_t g1;
};

struct pebs_hist {
	int field, by, bykind;
	char *where;		/* pebs_hist_set_where(); NULL: every sample */
	int unm;		/* the field's 0 means "not measured" */
	int skip0;		/* unm and not pebs_hist_set_zeros(): value 0
				 * is counted (dense[0], the log) like any,
				 * and hist_sort() moves it out of the view */
	int fcol, bycol;
	uint64_t fmask, bymask;
	uint64_t gen, sgen;	/* counts changed / sorted lists built */
	/* every count added, unmeasured ones too: the entry points that add
	 * large counts (merges, pebs_hist_add_value()) refuse what would take
	 * it past 2^64-1, so that no count (value, bin, group, total) wraps */
	uint64_t added;
	size_t top;		/* pebs_hist_set_top(); 0: every group */
	int ascii;		/* pebs_hist_set_ascii(): text bars in ASCII */
	struct group *g;
	size_t ng, gcap;
	/* group key -> index */
	struct gslot *gs;
	size_t gscap;
	uint64_t last_key;
	uint32_t last_idx;
	int have_last;
	/* the sparse counts of every group: sp[0, spsorted) is one run per
	 * group (in group order, or in output order after hist_sort()),
	 * sorted by value with no value twice; then the appended ones */
	struct spent *sp;
	size_t spn, spcap, spsorted;
	/* valid while sgen == gen (hist_sort()): the groups in output order
	 * and their sorted lists, group after group */
	struct gview *view;
	size_t viewcap;		/* bytes */
	uint64_t *sv, *sc;
	size_t svcap, sccap;	/* bytes */
	/* sp_compact()'s scratch, kept: fresh pages cost more than the work */
	void *scratch;
	size_t scratchcap;	/* bytes */
	size_t *off;		/* run b (see sp) is sp[off[b], off[b + 1]) */
	size_t offcap;		/* bytes */
	/* event names (BY_EVENT keys index them), or symbol texts (BY_STR) */
	char **ev;
	size_t nev, evcap;
	uint32_t *evmap;
	/* BY_STR: text -> ev index (hash of ev ids, UINT32_MAX empty) */
	uint32_t *sh;
	size_t shcap;
	/* BY_STR: symbol string address -> group index (uint32_t) */
	struct pebs_sym *sym;
	int symf;		/* enum pebs_sym_field */
	struct table pc;
	size_t pn;
	/* output order: order[i] is the group at position i, pos[g] the
	 * position of group g, okey[i] the key at i (not for texts) */
	uint32_t *order, *pos;
	uint64_t *okey;
	int order_valid;
	/* the dense arrays and their groups (dg) */
	uint64_t **dense;
	uint32_t *dg;
	size_t ndl, dlcap;
	/* per-batch scratch */
	uint32_t *gidx;
	/* direct-mapped cache: data source value (BY_DSRC) or key (BY_NUM)
	 * -> group */
	struct {
		uint64_t key;
		uint32_t g1;	/* group + 1; 0: empty slot */
	} dmap[1024];		/* one cache line per lookup */
};

static inline uint64_t hist_hash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/*
 * Brings the views of the groups (h->view) up to date with the counts.
 * 0 or -PEBS_E_NOMEM.
 */
int hist_sort(struct pebs_hist *h);
/* Group @i in output order, or NULL when memory is short. */
const struct gview *hist_group(struct pebs_hist *h, size_t i);

#endif
