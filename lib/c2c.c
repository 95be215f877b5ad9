/*
 * c2c.c - cache-to-cache analysis: perf c2c's sample classification, exact
 * aggregate cells, per-line statistics and the sharing verdict.
 *
 * The verdict algorithm is specified in man/pebs-c2c.1 (VERDICT); keep the
 * two in step.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c_int.h"
#include "output_fmt.h"
#include "pebs_dsrc.h"

int c2c_fail(struct pebs_c2c *c, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	/* topology lists, names: from the input */
	pebs_outfmt_msg_fix(c->err);
	return -code;
}

/* ------------------------------------------------------ classification */

unsigned pebs_c2c_classify(struct pebs_c2c_stats *st, uint64_t dsrc,
			   uint64_t addr, uint64_t n, int perf_compat)
{
	unsigned op = PEBS_DS_OP(dsrc), lvl = PEBS_DS_LVL(dsrc);
	unsigned snoop = PEBS_DS_SNOOP(dsrc), snoopx = PEBS_DS_SNOOPX(dsrc);
	unsigned blk = PEBS_DS_BLK(dsrc);
	/*
	 * perf: the remote bit without hops means "remote, level unknown"
	 * (Skylake reports it so; Power uses hops for same-node remotes).
	 */
	int mrem = PEBS_DS_REMOTE(dsrc) && !PEBS_DS_HOPS(dsrc);
	unsigned cls = 0;

	st->nr_entries += n;
	if (PEBS_DS_LOCK(dsrc) & PEBS_DS_LOCK_LOCKED) {
		st->locks += n;
		cls |= PEBS_C2C_LOCKBLK;
	}
	if (blk & PEBS_DS_BLK_DATA)
		st->blk_data += n;
	if (blk & PEBS_DS_BLK_ADDR)
		st->blk_addr += n;
	if (blk & (PEBS_DS_BLK_DATA | PEBS_DS_BLK_ADDR))
		cls |= PEBS_C2C_LOCKBLK;

	if (op & PEBS_DS_OP_LOAD) {
		st->load += n;
		if (!addr) {
			st->ld_noadrs += n;
			return cls | PEBS_C2C_NOADDR;
		}
		cls |= PEBS_C2C_LOAD;
		unsigned rram_lvl = lvl & (PEBS_DS_LVL_REM_RAM1 |
					   PEBS_DS_LVL_REM_RAM2);
		unsigned rcce_lvl = lvl & (PEBS_DS_LVL_REM_CCE1 |
					   PEBS_DS_LVL_REM_CCE2);
		/*
		 * SNOOPX FWD: another cache forwarded the line clean (the
		 * SKX encoding C, "other socket's cache, forwarded clean").
		 * perf 6.1 never looks at FWD: with the remote bit it
		 * counts such a load as remote DRAM, which it is not; so
		 * only outside --perf-compat is it a cache snoop (rmt_hit).
		 */
		int fwd = !perf_compat && (snoopx & PEBS_DS_SNOOPX_FWD);
		int cache_snoop = (snoop & (PEBS_DS_SNOOP_HIT |
					    PEBS_DS_SNOOP_HITM)) ||
				  (snoopx & PEBS_DS_SNOOPX_PEER) || fwd;
		/*
		 * perf counts remote DRAM (below, under HIT) and a remote
		 * cache (after it) independently, both for "remote without
		 * hops": one sample can count twice.  Deviation (documented
		 * in pebs-c2c(1)): the SDM reports the one source that
		 * satisfied the load, so every sample counts once.  A level
		 * that names remote DRAM (and no remote cache) is DRAM
		 * whatever the snoop, which there says whether another cache
		 * shares the line: the SDM's "remote DRAM (shared)" (SNB row
		 * 0xB), which perf itself counts as ld_shared and
		 * pebs_dsrc_mem() calls REMOTE_RAM.  A remote cache level,
		 * or the remote bit without a remote DRAM hit (a DRAM level
		 * that missed did not supply the line), is a remote cache
		 * when the snoop says a cache supplied the line.
		 *
		 * A local level (LFB, L1, L2, L3, local DRAM) with the remote
		 * bit and no hops, which no decoder of ours writes (an
		 * import may): perf counts both the local source and the
		 * remote one; here the remote bit makes it remote, once.
		 */
		int local = perf_compat || !mrem;
		int rcache, rram;
		if (perf_compat) {
			rcache = rcce_lvl || mrem;
			rram = rram_lvl || mrem;
		} else {
			int rram_hit = rram_lvl && (lvl & PEBS_DS_LVL_HIT);
			rcache = rcce_lvl || (mrem && !rram_hit);
			rram = (rram_lvl || mrem) && !(rcache && cache_snoop);
		}
		if (lvl & PEBS_DS_LVL_HIT) {
			if (lvl & PEBS_DS_LVL_UNC)
				st->ld_uncache += n;
			if (lvl & PEBS_DS_LVL_IO)
				st->ld_io += n;
			if (local && (lvl & PEBS_DS_LVL_LFB))
				st->ld_fbhit += n;
			if (local && (lvl & PEBS_DS_LVL_L1))
				st->ld_l1hit += n;
			if (local && (lvl & PEBS_DS_LVL_L2)) {
				st->ld_l2hit += n;
				if (snoopx & PEBS_DS_SNOOPX_PEER) {
					st->lcl_peer += n;
					st->tot_peer += n;
					cls |= PEBS_C2C_PEER;
				}
			}
			if (local && (lvl & PEBS_DS_LVL_L3)) {
				if (snoop & PEBS_DS_SNOOP_HITM) {
					st->lcl_hitm += n;
					st->tot_hitm += n;
					cls |= PEBS_C2C_LCL_HITM;
				} else {
					st->ld_llchit += n;
				}
				if (snoopx & PEBS_DS_SNOOPX_PEER) {
					st->lcl_peer += n;
					st->tot_peer += n;
					cls |= PEBS_C2C_PEER;
				}
			}
			if (local && (lvl & PEBS_DS_LVL_LOC_RAM)) {
				st->lcl_dram += n;
				if (snoop & PEBS_DS_SNOOP_HIT)
					st->ld_shared += n;
				else
					st->ld_excl += n;
			}
			if (rram) {
				st->rmt_dram += n;
				if (snoop & PEBS_DS_SNOOP_HIT)
					st->ld_shared += n;
				else
					st->ld_excl += n;
			}
		}
		if (rcache) {
			if (snoop & PEBS_DS_SNOOP_HIT) {
				st->rmt_hit += n;
			} else if (snoop & PEBS_DS_SNOOP_HITM) {
				st->rmt_hitm += n;
				st->tot_hitm += n;
				cls |= PEBS_C2C_RMT_HITM;
			} else if (snoopx & PEBS_DS_SNOOPX_PEER) {
				st->rmt_hit += n;
				st->rmt_peer += n;
				st->tot_peer += n;
				cls |= PEBS_C2C_PEER;
			} else if (fwd) {
				st->rmt_hit += n;
			}
		}
		if (lvl & PEBS_DS_LVL_MISS)
			st->ld_miss += n;
		return cls;
	}
	if (op & PEBS_DS_OP_STORE) {
		st->store += n;
		if (!addr) {
			st->st_noadrs += n;
			return cls | PEBS_C2C_NOADDR;
		}
		if (lvl & PEBS_DS_LVL_HIT) {
			if (lvl & PEBS_DS_LVL_UNC)
				st->st_uncache += n;
			if (lvl & PEBS_DS_LVL_L1)
				st->st_l1hit += n;
		}
		if ((lvl & PEBS_DS_LVL_MISS) && (lvl & PEBS_DS_LVL_L1))
			st->st_l1miss += n;
		if (lvl & PEBS_DS_LVL_NA)
			st->st_na += n;
		return cls | PEBS_C2C_STORE;
	}
	st->noparse += n;
	return cls | PEBS_C2C_NOPARSE;
}

uint64_t pebs_c2c_llc_misses(const struct pebs_c2c_stats *st)
{
	return st->lcl_dram + st->rmt_dram + st->rmt_hitm + st->rmt_hit;
}

uint64_t pebs_c2c_tot_loads(const struct pebs_c2c_stats *st)
{
	return pebs_c2c_llc_misses(st) + st->ld_fbhit + st->ld_l1hit +
	       st->ld_l2hit + st->ld_llchit + st->lcl_hitm;
}

uint64_t pebs_c2c_tot_recs(const struct pebs_c2c_stats *st)
{
	return pebs_c2c_tot_loads(st) + st->st_l1hit + st->st_l1miss +
	       st->st_na;
}

const char *pebs_c2c_verdict_name(enum pebs_c2c_verdict v)
{
	switch (v) {
	case PEBS_C2C_V_FALSE: return "false-sharing";
	case PEBS_C2C_V_TRUE: return "true-sharing";
	case PEBS_C2C_V_MIXED: return "mixed";
	default: return "unknown";
	}
}

const char *c2c_fmt_lat(char *buf, size_t len, double mean, uint32_t p50,
			uint32_t p99, uint64_t n)
{
	if (!n)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "mean %.1f p50 %" PRIu32 " p99 %" PRIu32,
			 mean, p50, p99);
	return buf;
}

const char *c2c_fmt_mean(char *buf, size_t len, double v, uint64_t n,
			 int prec)
{
	if (!n)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* ------------------------------------------------------------- set-up */

int pebs_c2c_new(struct pebs_c2c **out, const struct pebs_c2c_opts *o,
		 char *err, size_t errlen)
{
	struct pebs_c2c_opts d;
	memset(&d, 0, sizeof(d));
	if (o)
		d = *o;
	if (!d.line_size)
		d.line_size = 64;
	if (!d.coalesce)
		d.coalesce = PEBS_C2C_BY_IADDR;
	if (!d.min_samples)
		d.min_samples = 10;
	if (!d.verdict_pct)
		d.verdict_pct = 80;
	if (!d.min_hitm)
		d.min_hitm = 1;
	/* the reason starts with the pebs-c2c option that sets the field,
	 * as the tool's own checks of a value do */
	char bad[128] = "";
	if (d.line_size < 16 || d.line_size > C2C_MAX_LINE ||
	    (d.line_size & (d.line_size - 1)))
		snprintf(bad, sizeof(bad), "--line-size: %u is not a power "
			 "of two from 16 to %u", d.line_size, C2C_MAX_LINE);
	else if (d.access_size > d.line_size)
		snprintf(bad, sizeof(bad), "--access-size: %u is more than "
			 "the line size (%u)", d.access_size, d.line_size);
	else if (d.display < PEBS_C2C_D_TOT || d.display > PEBS_C2C_D_RMT)
		snprintf(bad, sizeof(bad), "-d: display %d is not tot, lcl "
			 "or rmt", d.display);
	else if (d.verdict_pct <= 50 || d.verdict_pct > 100)
		snprintf(bad, sizeof(bad), "--verdict-share: %u is not from "
			 "51 to 100 percent", d.verdict_pct);
	else if (d.coalesce & ~0x1fu)
		snprintf(bad, sizeof(bad), "--coalesce: unknown key bits "
			 "0x%x", d.coalesce & ~0x1fu);
	if (bad[0]) {
		if (err && errlen)
			snprintf(err, errlen, "%s", bad);
		return -PEBS_E_INVAL;
	}
	struct pebs_c2c *c = calloc(1, sizeof(*c));
	if (!c)
		return -PEBS_E_NOMEM;
	c->o = d;
	while ((1u << c->line_shift) < d.line_size)
		c->line_shift++;
	*out = c;
	return 0;
}

void c2c_free_results(struct pebs_c2c *c)
{
	for (size_t i = 0; i < c->nlines; i++) {
		free(c->lines[i].why);
		free(c->lines[i].evidence);
		free(c->lines[i].fix);
	}
	lib_big_free(c->lines);
	free(c->texts);
	c->texts = NULL;
	c->ntexts = c->textcap = 0;
	lib_big_free(c->recs);
	c->lines = NULL;
	c->recs = NULL;
	c->nlines = c->nlisted = c->nrecs = c->nsampled = 0;
	c->nshared = 0;
	memset(&c->shared, 0, sizeof(c->shared));
	c->finished = 0;
}

void pebs_c2c_free(struct pebs_c2c *c)
{
	if (!c)
		return;
	c2c_free_results(c);
	lib_big_free(c->ls);
	free(c->zero);
	lib_big_free(c->cnt);
	free(c->chunks);
	free(c->bk);
	free(c->kcls);
	free(c->other);
	free(c->lkn);
	free(c->xs);
	c2c_dict_free(&c->kinds);
	c2c_dict_free(&c->threads);
	pebs_meta_free(c->maps);
	pebs_meta_free(c->mapset);
	free(c->topo.node);
	for (size_t i = 0; i < c->topo.nnodes; i++)
		free(c->topo.cpulist[i]);
	free(c->topo.cpulist);
	free(c);
}

const char *pebs_c2c_errmsg(const struct pebs_c2c *c)
{
	return c ? c->err : "";
}

/* ---------------------------------------------------------- topology */

struct topo_ctx {
	struct pebs_c2c *c;
	int node;
	int apply;		/* 0: only check, 1: record */
	int conflict;
};

static int topo_cb(void *v, unsigned cpu)
{
	struct topo_ctx *t = v;
	struct c2c_topo *tp = &t->c->topo;
	if (!t->apply) {
		if (cpu < tp->ncpu && tp->node[cpu] >= 0 &&
		    tp->node[cpu] != t->node) {
			t->conflict = 1;
			return -1;
		}
		return 0;
	}
	if (cpu >= tp->ncpu) {
		size_t n = cpu + 1 > tp->ncpu * 2 ? cpu + 1 : tp->ncpu * 2;
		int *nn = realloc(tp->node, n * sizeof(*nn));
		if (!nn)
			return -1;
		for (size_t i = tp->ncpu; i < n; i++)
			nn[i] = -1;
		tp->node = nn;
		tp->ncpu = n;
	}
	tp->node[cpu] = t->node;
	return 0;
}

/*
 * Records node @node's cpu list @list (first definition wins).  A list
 * that does not parse, or names a cpu of another node, changes nothing:
 * it is checked whole before any cpu is recorded.
 */
static int topo_add(struct pebs_c2c *c, unsigned node, const char *list)
{
	struct c2c_topo *tp = &c->topo;
	if (node > META_MAX_NODE)
		return c2c_fail(c, PEBS_E_PARSE, "node %u: number too large",
				node);
	if (node < tp->nnodes && tp->cpulist[node])
		return 0;
	struct topo_ctx t = { c, (int)node, 0, 0 };
	if (meta_parse_cpulist(list, topo_cb, &t))
		return c2c_fail(c, PEBS_E_PARSE, t.conflict ?
				"node %u: cpu list \"%s\" names a cpu of "
				"another node" :
				"node %u: bad cpu list \"%s\"", node, list);
	char *copy = strdup(list);
	if (!copy)
		return -PEBS_E_NOMEM;
	if (node >= tp->nnodes) {
		char **nl = realloc(tp->cpulist, (node + 1) * sizeof(*nl));
		if (!nl) {
			free(copy);
			return -PEBS_E_NOMEM;
		}
		for (size_t i = tp->nnodes; i <= node; i++)
			nl[i] = NULL;
		tp->cpulist = nl;
		tp->nnodes = node + 1;
	}
	t.apply = 1;
	if (meta_parse_cpulist(list, topo_cb, &t)) {
		free(copy);
		return -PEBS_E_NOMEM;
	}
	tp->cpulist[node] = copy;
	return 0;
}

int c2c_topo_add(struct pebs_c2c *c, unsigned node, const char *list)
{
	return topo_add(c, node, list);
}

int pebs_c2c_set_topology(struct pebs_c2c *c, const struct pebs_meta *m)
{
	static const char pre[] = "topology.node.";
	size_t n = m ? pebs_meta_count(m) : 0;
	for (size_t i = 0; i < n; i++) {
		const char *k, *v;
		pebs_meta_entry(m, i, &k, &v);
		if (strncmp(k, pre, sizeof(pre) - 1))
			continue;
		char *e;
		unsigned long node = strtoul(k + sizeof(pre) - 1, &e, 10);
		if (e == k + sizeof(pre) - 1 || strcmp(e, ".cpus"))
			continue;
		int r = topo_add(c, (unsigned)node, v);
		if (r)
			return r;
	}
	return 0;
}

int c2c_node_of(const struct pebs_c2c *c, uint32_t cpu)
{
	if (cpu >= c->topo.ncpu)
		return -1;
	return c->topo.node[cpu];
}

/* -------------------------------------------------------- dictionaries */

/* Slot of @key in a table of @nslot (a power of two): Fibonacci hashing. */
static inline size_t dict_slot(uint64_t key, size_t nslot)
{
	return (size_t)(((key ^ (key >> 29)) * 0x9e3779b97f4a7c15ull) >> 40) &
	       (nslot - 1);
}

static int dict_grow(struct c2c_dict *d)
{
	size_t ns = d->nslot ? d->nslot * 2 : 64;
	uint32_t *sl = calloc(ns, sizeof(*sl));
	if (!sl)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < d->n; i++) {
		size_t j = dict_slot(d->keys[i], ns);
		while (sl[j])
			j = (j + 1) & (ns - 1);
		sl[j] = (uint32_t)i + 1;
	}
	free(d->slot);
	d->slot = sl;
	d->nslot = ns;
	return 0;
}

long c2c_dict_get(struct c2c_dict *d, uint64_t key)
{
	if (d->have_last && d->last_key == key)
		return d->last_idx;
	if ((d->n + 1) * 2 > d->nslot) {
		if (d->n >= 0x7fffffffu || dict_grow(d))
			return -PEBS_E_NOMEM;
	}
	size_t j = dict_slot(key, d->nslot);
	while (d->slot[j]) {
		uint32_t i = d->slot[j] - 1;
		if (d->keys[i] == key) {
			d->last_key = key;
			d->last_idx = i;
			d->have_last = 1;
			return i;
		}
		j = (j + 1) & (d->nslot - 1);
	}
	if (d->n == d->cap) {
		size_t n = d->cap ? d->cap * 2 : 16;
		uint64_t *k = realloc(d->keys, n * sizeof(*k));
		if (!k)
			return -PEBS_E_NOMEM;
		d->keys = k;
		d->cap = n;
	}
	d->keys[d->n] = key;
	d->slot[j] = (uint32_t)(d->n + 1);
	d->last_key = key;
	d->last_idx = (uint32_t)d->n;
	d->have_last = 1;
	return (long)d->n++;
}

void c2c_dict_free(struct c2c_dict *d)
{
	free(d->keys);
	free(d->slot);
	memset(d, 0, sizeof(*d));
}

/* --------------------------------------------------------------- cells */

/*
 * The line samples are kept one cell each (or one per aggregate merged),
 * without aggregating equal keys: every result is a sum or a distinct
 * count over them, so duplicates change nothing.  Each goes, as it comes,
 * to the bucket of its line, a list of chunks of c->ls that double from
 * 8 to 256 cells: finish() then reads each bucket's cells in order, where
 * it used to scatter every sample to its bucket first (16 bytes a sample
 * more, and a pass over them all).  A small input touches only the first
 * chunks of the buckets it uses.
 */
#define CHUNK_FIRST 8u
#define CHUNK_MAX 256u

long c2c_kind_get(struct pebs_c2c *c, uint64_t dsrc)
{
	long x = c2c_dict_get(&c->kinds, dsrc);
	if (x < 0 || (size_t)x < c->nkinds)
		return x;
	/* new: its class and counters (those of any key left without
	 * them by a failed allocation too) */
	if ((size_t)x >= c->capk) {
		size_t nc = c->capk ? 2 * c->capk : 16;
		while (nc <= (size_t)x)
			nc *= 2;
		unsigned *kc = realloc(c->kcls, nc * sizeof(*kc));
		if (kc)
			c->kcls = kc;
		uint64_t *o = realloc(c->other, 2 * nc * sizeof(*o));
		if (o)
			c->other = o;
		uint64_t *l = realloc(c->lkn, nc * sizeof(*l));
		if (l)
			c->lkn = l;
		if (!kc || !o || !l)
			return -PEBS_E_NOMEM;
		c->capk = nc;
	}
	for (size_t k = c->nkinds; k <= (size_t)x; k++) {
		struct pebs_c2c_stats tmp;
		memset(&tmp, 0, sizeof(tmp));
		c->kcls[k] = pebs_c2c_classify(&tmp, c->kinds.keys[k], 1, 1,
					       c->o.perf_compat);
		c->other[2 * k] = c->other[2 * k + 1] = c->lkn[k] = 0;
	}
	c->nkinds = (size_t)x + 1;
	return x;
}

/* Turns the implicit all-ones count column into a real one. */
static int need_counts(struct pebs_c2c *c)
{
	if (c->cnt)
		return 0;
	c->cnt = lib_big_realloc(NULL, (c->capls ? c->capls : 1) *
				 sizeof(*c->cnt));
	if (!c->cnt)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	for (size_t i = 0; i < c->nls; i++)
		c->cnt[i] = 1;
	return 0;
}

/* Gives bucket @bk a new last chunk, twice the size of the one before.
 * 0 or <0. */
static int new_chunk(struct pebs_c2c *c, struct c2c_bucket *bk)
{
	uint32_t cap = bk->last ? 2 * c->chunks[bk->last - 1].cap :
				  CHUNK_FIRST;
	if (cap > CHUNK_MAX)
		cap = CHUNK_MAX;
	if (c->nls + cap > 0xffffffffu)
		return c2c_fail(c, PEBS_E_NOMEM, "too many samples (more "
				"than 2^32)");
	if (c->nls + cap > c->capls) {
		size_t n = c->capls ? 2 * c->capls : 4096;
		while (n < c->nls + cap)
			n *= 2;
		struct c2c_ls *ls = lib_big_realloc(c->ls, n * sizeof(*ls));
		if (!ls)
			return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
		c->ls = ls;
		if (c->cnt) {
			uint64_t *cn = lib_big_realloc(c->cnt,
						       n * sizeof(*cn));
			if (!cn)
				return c2c_fail(c, PEBS_E_NOMEM,
						"out of memory");
			c->cnt = cn;
		}
		c->capls = n;
	}
	if (c->nchunks == c->capchunks) {
		size_t n = c->capchunks ? 2 * c->capchunks : 1024;
		struct c2c_chunk *ch = realloc(c->chunks, n * sizeof(*ch));
		if (!ch)
			return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
		c->chunks = ch;
		c->capchunks = n;
	}
	c->chunks[c->nchunks] = (struct c2c_chunk){ (uint32_t)c->nls, cap,
						    0 };
	uint32_t id = (uint32_t)++c->nchunks;
	if (bk->last)
		c->chunks[bk->last - 1].next = id;
	else
		bk->first = id;
	bk->last = id;
	bk->pos = (uint32_t)c->nls;
	bk->end = (uint32_t)(c->nls + cap);
	c->nls += cap;
	return 0;
}

static inline size_t bucket_of(uint64_t line)
{
	return (size_t)((line * 0x9e3779b97f4a7c15ull) >>
			(64 - C2C_BUCKET_BITS));
}

/*
 * Keeps line sample @x (with @count) in the bucket of its line: its cell
 * and the count of its kind.  0 or <0.
 */
static inline int put_line(struct pebs_c2c *c, const struct c2c_ls *x,
			   uint64_t count)
{
	struct c2c_bucket *bk = &c->bk[bucket_of(x->addr >> c->line_shift)];
	if (bk->pos == bk->end) {
		int r = new_chunk(c, bk);
		if (r)
			return r;
	}
	size_t q = bk->pos++;
	bk->n++;
	c->ncells++;
	c->lkn[x->kind] += count;
	c->ls[q] = *x;
	if (c->cnt)
		c->cnt[q] = count;
	return 0;
}

static int need_buckets(struct pebs_c2c *c)
{
	if (!c->bk && !(c->bk = calloc((size_t)1 << C2C_BUCKET_BITS,
				       sizeof(*c->bk))))
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	return 0;
}

static int latsum_full(struct pebs_c2c *c)
{
	return c2c_fail(c, PEBS_E_RANGE, "latencies times counts add up to "
			"more than 64 bits");
}

/*
 * Adds @n samples, and @lat cycles times @n, to the bounded sums (see
 * C2C_MAX_SAMPLES).  0, or -PEBS_E_RANGE with nothing added.
 */
static int add_sums(struct pebs_c2c *c, uint64_t n, uint64_t lat)
{
	if (n > C2C_MAX_SAMPLES - c->nsum)
		return c2c_fail(c, PEBS_E_RANGE, "sample counts add up to "
				"more than 2^60 (sums of the report must fit "
				"in 64 bits)");
	if (lat && n > (UINT64_MAX - c->latsum) / lat)
		return latsum_full(c);
	c->nsum += n;
	c->latsum += lat * n;
	return 0;
}

int c2c_add_xs(struct pebs_c2c *c, uint64_t addr, uint32_t kind,
	       uint64_t count)
{
	if (c->nxs == c->capxs) {
		size_t n = c->capxs ? 2 * c->capxs : 64;
		struct c2c_xs *x = realloc(c->xs, n * sizeof(*x));
		if (!x)
			return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
		c->xs = x;
		c->capxs = n;
	}
	c->xs[c->nxs++] = (struct c2c_xs){ addr, count, kind };
	return 0;
}

/*
 * Counts @count samples of data source index @kind outside lines, at
 * @addr (0: none); the locked or blocked ones with an address are kept
 * for perf's shared-line table (struct c2c_xs).  0 or -PEBS_E_NOMEM.
 */
static inline int put_other(struct pebs_c2c *c, uint32_t kind, uint64_t addr,
			    uint64_t count)
{
	c->other[2 * kind + (addr != 0)] += count;
	if (addr && (c->kcls[kind] & PEBS_C2C_LOCKBLK))
		return c2c_add_xs(c, addr, kind, count);
	return 0;
}

int c2c_add_other(struct pebs_c2c *c, uint32_t kind, int has_addr,
		  uint64_t count)
{
	int r = add_sums(c, count, 0);
	if (r)
		return r;
	c->finished = 0;
	c->other[2 * kind + (has_addr != 0)] += count;
	return 0;
}

int c2c_append_cell(struct pebs_c2c *c, uint64_t addr, uint64_t ip,
		    uint32_t kind, uint32_t thr, uint32_t cpu, uint32_t lat,
		    uint64_t count)
{
	int line = c2c_is_line(addr, c->kcls[kind]);
	int r = add_sums(c, count, line ? lat : 0);
	if (r)
		return r;
	c->finished = 0;
	if (!line)
		return put_other(c, kind, addr, count);
	r = need_buckets(c);
	if (!r && count != 1)
		r = need_counts(c);
	if (r)
		return r;
	struct c2c_ls x = { addr, ip, thr, cpu, lat, kind };
	return put_line(c, &x, count);
}

int c2c_add_cell(struct pebs_c2c *c, const struct c2c_cell *k,
		 uint64_t count)
{
	if (!count)
		return 0;
	long kd = c2c_kind_get(c, k->dsrc);
	long th = c2c_dict_get(&c->threads, (uint64_t)k->pid << 32 | k->tid);
	if (kd < 0 || th < 0)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	return c2c_append_cell(c, k->addr, k->ip, (uint32_t)kd, (uint32_t)th,
			       k->cpu, k->lat, count);
}

int pebs_c2c_add_sample(struct pebs_c2c *c, const struct pebs_sample *s)
{
	struct c2c_cell k = { s->addr, s->ip, s->dsrc, s->pid, s->tid,
			      s->cpu, s->lat, 0 };
	return c2c_add_cell(c, &k, 1);
}

/*
 * A small direct-mapped cache in front of a dictionary: a capture has a
 * few dozen data sources and threads, interleaved.  v[] all UINT32_MAX
 * when empty.
 */
struct dcache {
	uint64_t k[64];
	uint32_t v[64];
};

/* The index of data source (@kind) or thread @key through @dc; <0 when
 * out of memory. */
static inline long dcache_get(struct dcache *dc, struct pebs_c2c *c,
			      uint64_t key, int kind)
{
	unsigned h = (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 58);
	if (dc->v[h] == UINT32_MAX || dc->k[h] != key) {
		long x = kind ? c2c_kind_get(c, key) :
				c2c_dict_get(&c->threads, key);
		if (x < 0)
			return x;
		dc->k[h] = key;
		dc->v[h] = (uint32_t)x;
	}
	return dc->v[h];
}

/*
 * Columns @b lacks (a block omits a column that is zero throughout) as
 * zeros, from c->zero, so that the loop below tests no pointer: @p when
 * set, else the zeros.  NULL when out of memory.
 */
static const void *col_or_zero(struct pebs_c2c *c, const void *p, size_t n)
{
	if (p)
		return p;
	if (c->nzero < n) {
		free(c->zero);
		c->nzero = 0;
		if (!(c->zero = calloc(n, sizeof(*c->zero))))
			return NULL;
		c->nzero = n;
	}
	return c->zero;
}

int pebs_c2c_add_batch(struct pebs_c2c *c, const struct pebs_batch *b)
{
	size_t n = b->n;
	if (!n)
		return 0;
	const uint64_t *dsrc = col_or_zero(c, b->c64[PEBS_COL_DSRC], n);
	const uint64_t *addr = col_or_zero(c, b->c64[PEBS_COL_ADDR], n);
	const uint64_t *ip = col_or_zero(c, b->c64[PEBS_COL_IP], n);
	const uint32_t *pid = col_or_zero(c, b->c32[PEBS_COL_PID], n);
	const uint32_t *tid = col_or_zero(c, b->c32[PEBS_COL_TID], n);
	const uint32_t *cpu = col_or_zero(c, b->c32[PEBS_COL_CPU], n);
	const uint32_t *lat = col_or_zero(c, b->c32[PEBS_COL_LAT], n);
	if (!dsrc || !addr || !ip || !pid || !tid || !cpu || !lat)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	/* the bounds of add_sums(): a batch can pass them only after
	 * merged counts; its latencies are summed below */
	int r = need_buckets(c);
	if (!r)
		r = add_sums(c, n, 0);
	if (r)
		return r;
	c->finished = 0;
	uint64_t lsum = 0;
	struct dcache ck, ct;
	memset(ck.v, 0xff, sizeof(ck.v));
	memset(ct.v, 0xff, sizeof(ct.v));
	/*
	 * The state the loop reads, in locals: through c, every store to a
	 * cell could alias it, and it was reloaded for each sample.  kcls
	 * and lkn move when a new data source grows them: reloaded after
	 * each dcache_get() of a data source, which may add one.  c->ls
	 * and c->cnt move when a bucket takes a new chunk: reloaded then.
	 */
	const unsigned shift = c->line_shift;
	struct c2c_bucket *const bkt = c->bk;
	const unsigned *kcls = c->kcls;
	uint64_t *lkn = c->lkn;
	struct c2c_ls *ls = c->ls;
	uint64_t *cnt = c->cnt;
	size_t ncells = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = addr[i];
		long kd = dcache_get(&ck, c, dsrc[i], 1);
		if (kd < 0) {
			r = c2c_fail(c, PEBS_E_NOMEM, "out of memory");
			break;
		}
		kcls = c->kcls;
		lkn = c->lkn;
		if (!c2c_is_line(a, kcls[kd])) {
			if ((r = put_other(c, (uint32_t)kd, a, 1)))
				break;
			continue;
		}
		/* threads of line samples only: nothing reads the others */
		long th = dcache_get(&ct, c, (uint64_t)pid[i] << 32 | tid[i],
				     0);
		if (th < 0) {
			r = c2c_fail(c, PEBS_E_NOMEM, "out of memory");
			break;
		}
		struct c2c_bucket *bk = &bkt[bucket_of(a >> shift)];
		if (bk->pos == bk->end) {
			c->ncells += ncells;
			ncells = 0;
			if ((r = new_chunk(c, bk)))
				break;
			ls = c->ls;
			cnt = c->cnt;
		}
		size_t q = bk->pos++;
		bk->n++;
		ncells++;
		lkn[kd]++;
		ls[q] = (struct c2c_ls){ a, ip[i], (uint32_t)th, cpu[i], lat[i],
					 (uint32_t)kd };
		if (cnt)
			cnt[q] = 1;
		lsum += lat[i];
	}
	/* the cells kept, a failed batch's too: the YAML writer sizes its
	 * arrays by c->ncells and then walks the buckets */
	c->ncells += ncells;
	if (r)
		return r;
	/* fewer than 2^32 line samples: lsum did not wrap */
	if (lsum > UINT64_MAX - c->latsum)
		return latsum_full(c);
	c->latsum += lsum;
	return 0;
}
