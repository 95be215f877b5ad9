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
 * size (grown by hist.c's table_grow): the counters' sparse part, the
 * group index and the symbol-string cache.
 */
struct table {
	uint64_t *k;
	void *v;
	uint8_t *u;
	size_t cap;
};

/* BY_STR: a symbol field, grouped by its text (names in ev[]) */
enum { BY_NONE, BY_DSRC, BY_EVENT, BY_NUM, BY_STR };

struct counter {
	uint64_t n;		/* samples, valid while sgen == hist gen:
				 * the batch loops only bump the arrays
				 * (a shared counter would serialize them) */
	uint64_t small;		/* samples < DENSE seen while hash-only */
	uint64_t *dense;	/* DENSE counts, or NULL */
	uint64_t *hk, *hv;	/* hash: value -> count */
	uint8_t *hu;		/* slot used */
	size_t hcap, hn;
	/* sorted (value, count) list, valid while sgen == hist gen */
	uint64_t *sv, *sc;
	size_t sn;
	uint64_t sgen;
};

struct group {
	uint64_t key;		/* enum value, event id, or field value */
	char *name;
	struct counter c;
};

struct pebs_hist {
	int field, by, bykind;
	int fcol, bycol;
	uint64_t fmask, bymask;
	uint64_t gen;
	struct group *g;
	size_t ng, gcap;
	/* group key -> index */
	uint64_t *gk;
	uint32_t *gi;
	uint8_t *gu;
	size_t gcapH;
	uint64_t last_key;
	uint32_t last_idx;
	int have_last;
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
	/* output order */
	size_t *order;
	int order_valid;
	/* per-batch scratch */
	uint32_t *gidx;
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

int hist_counter_add(struct counter *c, uint64_t v, uint64_t n);
int hist_counter_sorted(struct pebs_hist *h, struct counter *c);
/* Group @i in output order, or NULL when memory is short. */
struct group *hist_group(struct pebs_hist *h, size_t i);

#endif
