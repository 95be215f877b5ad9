/*
 * cache_model.c - a small, deterministic cache/coherence model of a
 * Skylake-SP-like server (see cache_model.h).
 *
 * Machine: S sockets x C cores (cpu = socket * C + core), 64-byte lines,
 * 4 KiB pages.  Per core: L1D 32 KiB 8-way, L2 1 MiB 16-way (the model
 * keeps L2 inclusive of L1D: an L2 eviction drops the L1D copy), DTLB 64
 * entries 4-way, STLB 1536 entries 12-way (shared by data and code), ITLB
 * 128 entries 8-way, L1I 32 KiB 8-way, a decoded-uop cache (DSB) of 256
 * 32-byte windows 8-way, and 10 fill buffers.  Per socket: an L3 of 2 MiB
 * per core, 16-way, with hashed set index (slices).  The L3 is
 * NON-inclusive, as on Skylake-SP: every miss fills it, dirty L2 victims
 * are written back into it, and an L3 eviction leaves core copies alone.
 * Replacement is LRU everywhere.
 *
 * Coherence: a directory (the snoop filter) keeps, for every line held by
 * any core's L1D/L2, the set of cores holding it and the core holding it
 * modified (MESI: M = owner, E = sole clean holder, S = several holders,
 * I = not a holder).  A load that misses the core's L2 is satisfied, in
 * this order, by:
 *   another core with the line modified      L3_HITM (same socket) or
 *                                            REMOTE_HITM (other socket);
 *                                            the owner drops to S
 *   another core of the socket, clean        L3_SNOOP_HIT
 *   the socket's L3                          L3
 *   another socket's core or L3, clean       REMOTE_FWD
 *   memory                                   LOCAL_DRAM if the page's home
 *                                            is this socket, else
 *                                            REMOTE_DRAM
 * Memory is homed per 4 KiB page by first touch (the Linux default): the
 * socket of the first CPU that touches a page is its home.
 *
 * Stores read for ownership: a store to a line the core holds alone hits
 * (src L1, or L2); otherwise src is found as for a load, every other copy
 * (cores and other sockets' L3) is invalidated and the core becomes the
 * owner.  Stores report lat 0 (they do not stall the core) and the
 * latency of owning the line in st_lat (SPR's store latency).  A locked load (PEBS_ACC_LOCKED) also reads
 * for ownership, so the store of its atomic operation hits L1.
 *
 * Fill buffers: a load that misses L1D reserves a fill buffer until cycle
 * + latency (+ the page walk); a later load of that line by the same core
 * before then is an LFB hit whose latency is the L1 latency plus the time
 * left.  Stores do not: later loads get their data by store forwarding.
 * Prefetch: an L2 streamer per core tracks 4 ascending streams; an L1D miss
 * on the line after a stream's last one brings the next 2 lines of the
 * same page into L2 (only lines no other core holds), as if instantly.
 *
 * Latencies (core cycles, typical Skylake-SP at 2.5 GHz; each jittered by
 * -1/16..+1/16 from a hash of the seed and the access count):
 *   L1 5, L2 14, L3 68, L3 snoop hit 76, L3 HITM 110, remote forward 280,
 *   remote HITM 320, local DRAM 220, remote DRAM 360; DTLB miss that hits
 *   the STLB +7, page walk (STLB miss) +30.
 * Front end (ifetch): DSB miss: 2-cycle bubble 1-3 slots wide; L1I miss
 * (L2 hit): 14-cycle bubble 4 wide; L2 miss: the L3 or DRAM latency; ITLB
 * miss +8, STLB miss +30.
 */
#include <stdlib.h>
#include <string.h>

#include "cache_model.h"

#define LINE_SHIFT 6
#define PAGE_SHIFT 12
#define LFB_N 10
#define PF_STREAMS 4
#define PF_DEGREE 2

#define LAT_STLB_HIT 7
#define LAT_WALK 30

static const uint32_t lat_tab[PEBS_SRC_COUNT] = {
	[PEBS_SRC_L1] = 5,
	[PEBS_SRC_L2] = 14,
	[PEBS_SRC_L3] = 68,
	[PEBS_SRC_L3_SNOOP_HIT] = 76,
	[PEBS_SRC_L3_HITM] = 110,
	[PEBS_SRC_REMOTE_FWD] = 280,
	[PEBS_SRC_REMOTE_HITM] = 320,
	[PEBS_SRC_LOCAL_DRAM] = 220,
	[PEBS_SRC_REMOTE_DRAM] = 360,
	[PEBS_SRC_IO] = 400,
	[PEBS_SRC_UNCACHED] = 400,
};

static const char *const src_names[PEBS_SRC_COUNT] = {
	"NONE", "L1", "LFB", "L2", "L3", "L3_SNOOP_HIT", "L3_HITM",
	"REMOTE_FWD", "REMOTE_HITM", "LOCAL_DRAM", "REMOTE_DRAM", "IO",
	"UNCACHED",
};

/* ------------------------------------------------ set-associative array */

struct sa {
	uint32_t sets, ways;
	int hashed;		/* L3: hashed slice/set index */
	uint64_t *tag;		/* key + 1; 0 = empty */
	uint64_t *stamp;	/* LRU: larger = more recent */
	uint64_t clock;
};

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int sa_init(struct sa *c, uint32_t sets, uint32_t ways, int hashed)
{
	c->sets = sets;
	c->ways = ways;
	c->hashed = hashed;
	c->clock = 0;
	c->tag = calloc((size_t)sets * ways, sizeof(*c->tag));
	c->stamp = calloc((size_t)sets * ways, sizeof(*c->stamp));
	return c->tag && c->stamp ? 0 : -PEBS_E_NOMEM;
}

static void sa_fini(struct sa *c)
{
	free(c->tag);
	free(c->stamp);
}

static size_t sa_base(const struct sa *c, uint64_t key)
{
	uint64_t h = c->hashed ? mix(key) : key;
	return (size_t)(h % c->sets) * c->ways;
}

/* Is @key present?  A hit with @touch makes it most recently used. */
static int sa_find(struct sa *c, uint64_t key, int touch)
{
	size_t b = sa_base(c, key);
	for (uint32_t w = 0; w < c->ways; w++) {
		if (c->tag[b + w] == key + 1) {
			if (touch)
				c->stamp[b + w] = ++c->clock;
			return 1;
		}
	}
	return 0;
}

/*
 * Inserts @key as most recently used (or touches it).  Returns 1 and
 * *@victim when a valid line was evicted for it.
 */
static int sa_insert(struct sa *c, uint64_t key, uint64_t *victim)
{
	size_t b = sa_base(c, key), lru = b;
	for (uint32_t w = 0; w < c->ways; w++) {
		size_t i = b + w;
		if (c->tag[i] == key + 1) {
			c->stamp[i] = ++c->clock;
			return 0;
		}
		if (c->tag[lru] && (!c->tag[i] || c->stamp[i] < c->stamp[lru]))
			lru = i;
	}
	int ev = c->tag[lru] != 0;
	if (ev)
		*victim = c->tag[lru] - 1;
	c->tag[lru] = key + 1;
	c->stamp[lru] = ++c->clock;
	return ev;
}

static void sa_remove(struct sa *c, uint64_t key)
{
	size_t b = sa_base(c, key);
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->tag[b + w] == key + 1)
			c->tag[b + w] = 0;
}

/* ---------------------------------------------- hash map (line -> state) */

struct dent {
	uint64_t key;		/* key + 1; 0 = empty */
	uint64_t sharers;	/* directory: cores holding the line */
	int32_t owner;		/* directory: core with it modified, or -1 */
};

struct hmap {
	struct dent *e;
	size_t cap, n;		/* cap is a power of two */
};

static size_t hm_slot(const struct hmap *h, uint64_t key)
{
	return (size_t)mix(key) & (h->cap - 1);
}

static struct dent *hm_get(const struct hmap *h, uint64_t key)
{
	for (size_t i = hm_slot(h, key);; i = (i + 1) & (h->cap - 1)) {
		if (h->e[i].key == key + 1)
			return &h->e[i];
		if (!h->e[i].key)
			return NULL;
	}
}

static int hm_grow(struct hmap *h)
{
	struct hmap n = { calloc(h->cap * 2, sizeof(struct dent)),
			  h->cap * 2, h->n };
	if (!n.e)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		if (!h->e[i].key)
			continue;
		size_t j = hm_slot(&n, h->e[i].key - 1);
		while (n.e[j].key)
			j = (j + 1) & (n.cap - 1);
		n.e[j] = h->e[i];
	}
	free(h->e);
	*h = n;
	return 0;
}

/*
 * Returns the entry of @key, adding an empty one (no sharers, no owner)
 * if needed; NULL when out of memory.  May move every entry.
 */
static struct dent *hm_add(struct hmap *h, uint64_t key)
{
	struct dent *d = hm_get(h, key);
	if (d)
		return d;
	if ((h->n + 1) * 2 > h->cap && hm_grow(h) < 0)
		return NULL;
	size_t i = hm_slot(h, key);
	while (h->e[i].key)
		i = (i + 1) & (h->cap - 1);
	h->e[i] = (struct dent){ key + 1, 0, -1 };
	h->n++;
	return &h->e[i];
}

/* Deletes @key (linear probing: shift the following run back). */
static void hm_del(struct hmap *h, uint64_t key)
{
	struct dent *d = hm_get(h, key);
	if (!d)
		return;
	size_t mask = h->cap - 1, i = (size_t)(d - h->e), j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (!h->e[j].key)
			break;
		size_t k = hm_slot(h, h->e[j].key - 1);
		/* Move e[j] into the hole at i unless its home is in (i, j]. */
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && k <= i && k > j)) {
			h->e[i] = h->e[j];
			i = j;
		}
	}
	h->e[i].key = 0;
	h->n--;
}

/* ----------------------------------------------------------- the model */

struct core {
	struct sa l1, l2, dtlb, stlb, itlb, l1i, dsb;
	struct {
		uint64_t line, ready;
	} lfb[LFB_N];
	unsigned lfb_next;
	uint64_t pf[PF_STREAMS];	/* last line of a stream + 1; 0 free */
	unsigned pf_next;
};

struct cache_model {
	unsigned sockets, cores, ncpu;
	uint64_t seed, n;
	int nomem;		/* a directory insert failed: model degraded */
	struct core *c;
	struct sa *l3;
	struct hmap dir;	/* line -> sharers, owner */
	struct hmap home;	/* page -> home socket (in .sharers) */
};

unsigned cache_model_socket(const struct cache_model *cm, unsigned cpu)
{
	return cpu / cm->cores;
}

uint32_t cache_model_nominal_lat(unsigned src)
{
	return src < PEBS_SRC_COUNT ? lat_tab[src] : 0;
}

const char *cache_model_src_name(unsigned src)
{
	return src < PEBS_SRC_COUNT ? src_names[src] : "?";
}

void cache_model_free(struct cache_model *cm)
{
	if (!cm)
		return;
	for (unsigned i = 0; cm->c && i < cm->ncpu; i++) {
		struct core *k = &cm->c[i];
		sa_fini(&k->l1);
		sa_fini(&k->l2);
		sa_fini(&k->dtlb);
		sa_fini(&k->stlb);
		sa_fini(&k->itlb);
		sa_fini(&k->l1i);
		sa_fini(&k->dsb);
	}
	for (unsigned i = 0; cm->l3 && i < cm->sockets; i++)
		sa_fini(&cm->l3[i]);
	free(cm->c);
	free(cm->l3);
	free(cm->dir.e);
	free(cm->home.e);
	free(cm);
}

int cache_model_new(struct cache_model **out, unsigned sockets,
		    unsigned cores, uint64_t seed)
{
	*out = NULL;
	if (!sockets || !cores || sockets > CACHE_MAX_SOCKETS ||
	    sockets * cores > CACHE_MAX_CPUS)
		return -PEBS_E_INVAL;
	struct cache_model *cm = calloc(1, sizeof(*cm));
	if (!cm)
		return -PEBS_E_NOMEM;
	cm->sockets = sockets;
	cm->cores = cores;
	cm->ncpu = sockets * cores;
	cm->seed = seed;
	cm->c = calloc(cm->ncpu, sizeof(*cm->c));
	cm->l3 = calloc(sockets, sizeof(*cm->l3));
	cm->dir.cap = cm->home.cap = 4096;
	cm->dir.e = calloc(cm->dir.cap, sizeof(struct dent));
	cm->home.e = calloc(cm->home.cap, sizeof(struct dent));
	int r = cm->c && cm->l3 && cm->dir.e && cm->home.e ? 0 :
		-PEBS_E_NOMEM;
	for (unsigned i = 0; !r && i < cm->ncpu; i++) {
		struct core *k = &cm->c[i];
		if (sa_init(&k->l1, 64, 8, 0) || sa_init(&k->l2, 1024, 16, 0) ||
		    sa_init(&k->dtlb, 16, 4, 0) ||
		    sa_init(&k->stlb, 128, 12, 0) ||
		    sa_init(&k->itlb, 16, 8, 0) || sa_init(&k->l1i, 64, 8, 0) ||
		    sa_init(&k->dsb, 32, 8, 0))
			r = -PEBS_E_NOMEM;
	}
	/* 2 MiB per core, 16 ways: cores * 2048 sets. */
	for (unsigned i = 0; !r && i < sockets; i++)
		r = sa_init(&cm->l3[i], cores * 2048, 16, 1);
	if (r) {
		cache_model_free(cm);
		return r;
	}
	*out = cm;
	return 0;
}

/* Nominal latency @base with the deterministic +-1/16 jitter. */
static uint32_t jitter(struct cache_model *cm, uint32_t base)
{
	uint64_t h = mix(cm->seed ^ (cm->n * 0x9E3779B97F4A7C15ull) ^
			 ((uint64_t)base << 40));
	uint32_t span = base / 8 + 1;
	return base - base / 16 + (uint32_t)(h % span);
}

static unsigned home_of(struct cache_model *cm, uint64_t page, unsigned s)
{
	struct dent *h = hm_get(&cm->home, page);
	if (h)
		return (unsigned)h->sharers;
	h = hm_add(&cm->home, page);
	if (!h) {
		cm->nomem = 1;
		return s;
	}
	h->sharers = s;
	return s;
}

int cache_model_failed(const struct cache_model *cm)
{
	return cm->nomem;
}

int cache_model_home(struct cache_model *cm, uint64_t addr, unsigned socket)
{
	home_of(cm, addr >> PAGE_SHIFT, socket % cm->sockets);
	return cm->nomem ? -PEBS_E_NOMEM : 0;
}

static uint64_t socket_mask(const struct cache_model *cm, unsigned s)
{
	uint64_t m = cm->cores >= 64 ? ~0ull : (1ull << cm->cores) - 1;
	return m << (s * cm->cores);
}

static void lfb_drop(struct core *k, uint64_t line)
{
	for (unsigned i = 0; i < LFB_N; i++)
		if (k->lfb[i].line == line + 1)
			k->lfb[i].line = 0;
}

static void lfb_add(struct core *k, uint64_t line, uint64_t ready)
{
	lfb_drop(k, line);
	k->lfb[k->lfb_next].line = line + 1;
	k->lfb[k->lfb_next].ready = ready;
	k->lfb_next = (k->lfb_next + 1) % LFB_N;
}

/* Cycle at which @line's fill completes, or 0 when none is in flight. */
static uint64_t lfb_pending(const struct core *k, uint64_t line,
			    uint64_t now)
{
	for (unsigned i = 0; i < LFB_N; i++)
		if (k->lfb[i].line == line + 1 && k->lfb[i].ready > now)
			return k->lfb[i].ready;
	return 0;
}

/* @cpu's L2 dropped @line: back-invalidate L1, update the directory. */
static void l2_evicted(struct cache_model *cm, unsigned cpu, uint64_t line)
{
	struct core *k = &cm->c[cpu];
	sa_remove(&k->l1, line);
	lfb_drop(k, line);
	struct dent *d = hm_get(&cm->dir, line);
	if (!d)
		return;
	d->sharers &= ~(1ull << cpu);
	if (d->owner == (int32_t)cpu) {
		uint64_t v;
		d->owner = -1;	/* dirty victim: written back into L3 */
		sa_insert(&cm->l3[cache_model_socket(cm, cpu)], line, &v);
	}
	if (!d->sharers && d->owner < 0)
		hm_del(&cm->dir, line);
}

/* Puts @line in @cpu's L2 (and L1 unless @l2_only) and the directory. */
static void fill_private(struct cache_model *cm, unsigned cpu, uint64_t line,
			 int l2_only)
{
	struct core *k = &cm->c[cpu];
	uint64_t v;
	if (sa_insert(&k->l2, line, &v))
		l2_evicted(cm, cpu, v);
	if (!l2_only)
		sa_insert(&k->l1, line, &v);	/* L2 still holds L1 victims */
	struct dent *d = hm_add(&cm->dir, line);
	if (d)
		d->sharers |= 1ull << cpu;
	else
		cm->nomem = 1;
}

/* Removes @line from every core in @mask. */
static void invalidate(struct cache_model *cm, uint64_t line, uint64_t mask)
{
	for (unsigned o = 0; mask && o < cm->ncpu; o++) {
		if (!(mask & (1ull << o)))
			continue;
		mask &= ~(1ull << o);
		sa_remove(&cm->c[o].l1, line);
		sa_remove(&cm->c[o].l2, line);
		lfb_drop(&cm->c[o], line);
	}
}

/* Where a miss of @cpu (socket @s) on @line is satisfied. */
static unsigned miss_src(struct cache_model *cm, unsigned cpu, unsigned s,
			 uint64_t line, uint64_t page)
{
	struct dent *d = hm_get(&cm->dir, line);
	uint64_t others = d ? d->sharers & ~(1ull << cpu) : 0;
	if (d && d->owner >= 0 && d->owner != (int32_t)cpu)
		return cache_model_socket(cm, (unsigned)d->owner) == s ?
		       PEBS_SRC_L3_HITM : PEBS_SRC_REMOTE_HITM;
	if (others & socket_mask(cm, s))
		return PEBS_SRC_L3_SNOOP_HIT;
	if (sa_find(&cm->l3[s], line, 1))
		return PEBS_SRC_L3;
	if (others)
		return PEBS_SRC_REMOTE_FWD;
	for (unsigned o = 0; o < cm->sockets; o++)
		if (o != s && sa_find(&cm->l3[o], line, 0))
			return PEBS_SRC_REMOTE_FWD;
	return home_of(cm, page, s) == s ? PEBS_SRC_LOCAL_DRAM :
	       PEBS_SRC_REMOTE_DRAM;
}

/* L2 streamer: called on every L1D miss of @cpu. */
static void prefetch(struct cache_model *cm, unsigned cpu, uint64_t line)
{
	struct core *k = &cm->c[cpu];
	unsigned s = cache_model_socket(cm, cpu);
	int hit = 0;
	for (unsigned i = 0; i < PF_STREAMS; i++) {
		if (k->pf[i] == line) {		/* stored as last + 1 */
			k->pf[i] = line + 1;
			hit = 1;
		}
	}
	if (!hit) {
		k->pf[k->pf_next] = line + 1;
		k->pf_next = (k->pf_next + 1) % PF_STREAMS;
		return;
	}
	for (uint64_t p = line + 1; p <= line + PF_DEGREE; p++) {
		if ((p << LINE_SHIFT) >> PAGE_SHIFT !=
		    (line << LINE_SHIFT) >> PAGE_SHIFT)
			break;		/* prefetchers stop at page ends */
		if (sa_find(&k->l2, p, 0))
			continue;
		struct dent *d = hm_get(&cm->dir, p);
		if (d && (d->sharers & ~(1ull << cpu)))
			continue;
		uint64_t v;
		sa_insert(&cm->l3[s], p, &v);
		fill_private(cm, cpu, p, 1);
	}
}

/*
 * One line of a load or store; returns src and sets *@lat.  @rfo: the
 * access needs ownership (a store, or a locked load, which on x86 reads
 * for ownership so that its store hits).  Stores do not hold a fill
 * buffer for later loads: those are served by store forwarding.
 */
static unsigned data_line(struct cache_model *cm, unsigned cpu, uint64_t now,
			  uint64_t line, uint64_t page, int rfo, int store,
			  uint32_t *lat)
{
	struct core *k = &cm->c[cpu];
	unsigned s = cache_model_socket(cm, cpu);
	int in1 = sa_find(&k->l1, line, 1);
	int in2 = !in1 && sa_find(&k->l2, line, 1);
	struct dent *d = hm_get(&cm->dir, line);
	int alone = d && !(d->sharers & ~(1ull << cpu)) &&
		    (d->owner < 0 || d->owner == (int32_t)cpu);
	unsigned src;

	home_of(cm, page, s);
	if ((in1 || in2) && (!rfo || alone)) {
		uint64_t ready = in1 && !store ? lfb_pending(k, line, now) : 0;
		if (ready) {
			src = PEBS_SRC_LFB;
			*lat = jitter(cm, lat_tab[PEBS_SRC_L1]) +
			       (uint32_t)(ready - now);
		} else {
			src = in1 ? PEBS_SRC_L1 : PEBS_SRC_L2;
			*lat = jitter(cm, lat_tab[src]);
		}
		if (in2) {
			uint64_t v;
			sa_insert(&k->l1, line, &v);
			if (!store)
				lfb_add(k, line, now + *lat);
			prefetch(cm, cpu, line);
		}
		if (rfo) {
			d = hm_get(&cm->dir, line);	/* prefetch moved it */
			if (d)
				d->owner = (int32_t)cpu;	/* E -> M */
		}
		return src;
	}

	src = miss_src(cm, cpu, s, line, page);
	*lat = jitter(cm, lat_tab[src]);
	uint64_t v;
	d = hm_get(&cm->dir, line);
	if (rfo) {
		uint64_t others = d ? d->sharers & ~(1ull << cpu) : 0;
		invalidate(cm, line, others);
		for (unsigned o = 0; o < cm->sockets; o++)
			if (o != s)
				sa_remove(&cm->l3[o], line);
		if (d) {
			d->sharers &= 1ull << cpu;
			d->owner = -1;
		}
	} else if (d && d->owner >= 0) {
		/* HITM: the owner keeps a shared copy, memory is updated. */
		sa_insert(&cm->l3[cache_model_socket(cm, (unsigned)d->owner)],
			  line, &v);
		d->owner = -1;
	}
	sa_insert(&cm->l3[s], line, &v);
	if (!in1 && !in2)
		prefetch(cm, cpu, line);
	fill_private(cm, cpu, line, 0);
	if (rfo) {
		d = hm_get(&cm->dir, line);
		if (d)
			d->owner = (int32_t)cpu;
	}
	if (!store)
		lfb_add(k, line, now + *lat);
	return src;
}

/* DTLB, then STLB; returns the extra cycles and sets *@miss on a walk. */
static uint32_t dtlb(struct cache_model *cm, struct core *k, uint64_t page,
		     int *miss)
{
	uint64_t v;
	*miss = 0;
	if (sa_find(&k->dtlb, page, 1))
		return 0;
	sa_insert(&k->dtlb, page, &v);
	if (sa_find(&k->stlb, page, 1))
		return LAT_STLB_HIT;
	sa_insert(&k->stlb, page, &v);
	*miss = 1;
	return jitter(cm, LAT_WALK);
}

static void ifetch(struct cache_model *cm, struct pebs_access *a)
{
	struct core *k = &cm->c[a->cpu];
	unsigned s = cache_model_socket(cm, a->cpu);
	uint64_t page = a->ip >> PAGE_SHIFT, line = a->ip >> LINE_SHIFT, v;
	uint32_t fe = 0, bub = 0, width = 4;

	if (!sa_find(&k->itlb, page, 1)) {
		fe |= PEBS_ACC_FE_ITLB_MISS;
		bub += 8;
		sa_insert(&k->itlb, page, &v);
		if (!sa_find(&k->stlb, page, 1)) {
			fe |= PEBS_ACC_FE_STLB_MISS;
			bub += jitter(cm, LAT_WALK);
			sa_insert(&k->stlb, page, &v);
		}
	}
	if (!sa_find(&k->dsb, a->ip >> 5, 1)) {
		fe |= PEBS_ACC_FE_DSB_MISS;
		sa_insert(&k->dsb, a->ip >> 5, &v);
	}
	if (!sa_find(&k->l1i, line, 1)) {
		fe |= PEBS_ACC_FE_L1I_MISS;
		sa_insert(&k->l1i, line, &v);
		if (!sa_find(&k->l2, line, 1)) {
			fe |= PEBS_ACC_FE_L2_MISS;
			int l3 = sa_find(&cm->l3[s], line, 1);
			bub += jitter(cm, l3 ? lat_tab[PEBS_SRC_L3] :
					       lat_tab[PEBS_SRC_LOCAL_DRAM]);
			sa_insert(&cm->l3[s], line, &v);
			if (sa_insert(&k->l2, line, &v))
				l2_evicted(cm, a->cpu, v);
		} else {
			bub += jitter(cm, lat_tab[PEBS_SRC_L2]);
		}
	} else if (fe & PEBS_ACC_FE_DSB_MISS) {
		/* Switch to the legacy decoders: a short, narrow bubble. */
		bub += 2;
		width = 1 + (uint32_t)(mix(cm->seed + cm->n) % 3);
	}
	a->src = PEBS_SRC_NONE;
	a->lat = a->st_lat = 0;
	a->fe = fe;
	a->fe_bubbles = fe ? bub : 0;
	a->fe_width = fe ? width : 0;
}

void cache_model_access(struct cache_model *cm, struct pebs_access *a)
{
	cm->n++;
	if (a->cpu >= cm->ncpu)
		a->cpu %= cm->ncpu;
	if (a->kind == PEBS_ACC_IFETCH) {
		ifetch(cm, a);
		return;
	}
	a->fe = a->fe_bubbles = a->fe_width = 0;
	if (a->size == 0)
		a->size = 1;
	a->flags &= PEBS_ACC_LOCKED;
	int store = a->kind == PEBS_ACC_STORE, miss;
	int rfo = store || (a->flags & PEBS_ACC_LOCKED);
	uint64_t page = a->addr >> PAGE_SHIFT, line = a->addr >> LINE_SHIFT;
	uint32_t tlb = dtlb(cm, &cm->c[a->cpu], page, &miss);
	if (miss)
		a->flags |= PEBS_ACC_STLB_MISS;
	uint32_t lat;
	/* The fill starts once the translation is known. */
	unsigned src = data_line(cm, a->cpu, a->cycle + tlb, line, page, rfo,
				 store, &lat);
	uint64_t last = (a->addr + a->size - 1) >> LINE_SHIFT;
	if (last != line) {
		/* A split access waits for the slower of its two lines. */
		uint32_t lat2;
		uint64_t page2 = (a->addr + a->size - 1) >> PAGE_SHIFT;
		if (page2 != page) {
			tlb += dtlb(cm, &cm->c[a->cpu], page2, &miss);
			if (miss)
				a->flags |= PEBS_ACC_STLB_MISS;
		}
		unsigned src2 = data_line(cm, a->cpu, a->cycle + tlb, last,
					  page2, rfo, store, &lat2);
		a->flags |= PEBS_ACC_SPLIT;
		if (lat2 > lat) {
			lat = lat2;
			src = src2;
		}
	}
	a->src = (uint8_t)src;
	/* A store does not stall the core (lat 0), but SPR's store-latency
	 * event reports how long its line took to be owned. */
	a->lat = store ? 0 : lat + tlb;
	a->st_lat = store ? lat + tlb : 0;
}
