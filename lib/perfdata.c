/*
 * perfdata.c - perf.data parser: file and pipe layouts, both byte orders,
 * any sample_type; see formats/perf-import.md for the mapping to samples
 * and metadata.  Every read is bounds-checked against the mapping: a
 * hostile or truncated file yields the records before the damage, then an
 * error, never a fault.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "bigmem.h"
#include "fileio.h"
#include "htab.h"
#include "pebs_perf.h"
#include "pebs_plan.h"
#include "pebs_uarch.h"
#include "errbuf.h"
#include "meta_int.h"

#define MAGIC_LE 0x32454c4946524550ull	/* "PERFILE2" read little-endian */
#define MAX_ATTRS 4096u
#define MAX_KEPT_MAPS 20000u

struct pattr {
	uint32_t type, size;
	uint64_t config, config1, period, sample_type, read_format, flags;
	uint64_t branch_type, regs_user, regs_intr;
	int wlat;	/* WEIGHT is a latency, else TSX cycles
			 * (pebs_perf_weight_is_lat()) */
	/* freq events: the PERIOD of their samples, summed (pass 1) */
	unsigned __int128 psum;
	uint64_t pcount;
	char *name;
	uint64_t *ids;
	size_t nids;
	struct flay {		/* fixed sample layout: offsets or -1 */
		int fixed;	/* no variable-size field: all offsets valid;
				 * ip, tid and time come before any variable
				 * field, so theirs are valid always */
		int16_t ip, tid, time, addr, cpu, weight, dsrc, tsx, phys;
		int16_t period;	/* valid always, as ip's: before READ */
		uint16_t size;	/* bytes of the fixed body */
	} lay;
};

/*
 * Where a record lies in the order pass 2 emits samples: the flush that
 * releases it (a FINISHED_ROUND's, or the last), then time, then file
 * offset (pend_cmp()).  A flush past the last round is the last one
 * (okey_cmp()).
 */
struct okey {
	uint64_t flush, time, off;
};

/*
 * A map of process @pid from its MMAP (@born) until the process's exec
 * (@died, when @dead): a segment has the maps alive in it (set_maps()).
 */
struct pmap {
	uint32_t pid;
	int dead;
	struct okey born, died;
	uint64_t start, len, pgoff;
	const char *path;	/* interned in the string pool */
	uint8_t bid[20];
	uint8_t bid_len;
	uint32_t next;		/* next map of the same pid, or UINT32_MAX */
	uint32_t src;		/* a FORK's copy: the map copied (index +
				 * 1), else 0 (map_valid()) */
};

struct pbid {
	char *path;
	uint8_t bid[20];
	uint8_t len;
};

struct pend {
	uint64_t time, off;
	uint32_t attr;
};


/* The first and last sample of thread @tid of process @pid (or of
 * process @pid's name: tid == pid). */
struct orange {
	struct okey lo, hi;
	uint32_t pid, tid;
};

/* The samples' span of thread @tid of process @pid (flushes clamped). */
struct tspan {
	struct okey lo, hi;
	uint32_t tid, pid;
};

/* A name given at @k: to thread @id of process @pid by COMM or FORK, or
 * to process @id (@proc; @pid is @id then). */
struct cev {
	struct okey k;
	uint32_t id, name;	/* name: string pool index */
	uint32_t proc, pid;
};

struct pebs_perf_reader {
	const uint8_t *b;	/* whole input */
	size_t len;
	uint8_t *heap;		/* the input, read (see load()) */
	uint8_t *expanded;	/* data with compressed records inflated */
	int swap, pipe;
	uint64_t data_off, data_end;
	struct pattr *attrs;
	size_t nattrs;
	struct htab ids;	/* sample id -> attr index */
	struct pebs_meta *meta;
	char **evname;		/* per attr: its events.N.name */
	/* pass 1 */
	struct pmap *maps;
	size_t nmaps, capmaps;
	struct htab pidmap;	/* pid -> first map index */
	struct htab sampled;	/* pids with samples */
	struct htab comm;	/* pid -> string pool index + 1 */
	/*
	 * Threads have their own names (perf script shows them).  A thread
	 * is its (pid, tid) pair, tkey(), as perf's are: a tid is reused,
	 * by a thread of another process or as a new process's pid.
	 */
	struct htab threads;	/* threads with samples, tid != pid -> pid
				 * << 32 | tid */
	struct htab tcomm;	/* thread -> string pool index + 1 */
	/*
	 * Names change (pthread_setname_np, exec): each sample is named as
	 * it was at its time, as perf script names it (it processes records
	 * in time order).  The names given, the samples' span per thread
	 * and per process name, and the renames inside such a span, where
	 * a new segment starts (pebs_perf_reader_next()).
	 */
	struct cev *cev;
	size_t ncev, capcev;
	struct orange *rng;
	size_t nrng, caprng;
	struct htab trng;	/* thread -> rng index + 1 */
	struct htab prng;	/* pid -> rng index + 1 (comm.PID's span) */
	struct okey *bounds;	/* keys of renames and map ends that start
				 * a segment */
	/*
	 * The ends of processes' maps: each exec, and each FORK of a new
	 * process (a pid reused: the process that had it is gone).  Kept
	 * per pid (a chain through @prev, index + 1, from r->endix), since
	 * the records of one time come in the file from several CPUs'
	 * buffers in any order; and for the segments they start.
	 */
	struct pend_maps {
		struct okey k;
		uint32_t pid, prev;
	} *ends;
	size_t nends, capends;
	struct htab endix;	/* pid -> its last ends index + 1 */
	/*
	 * The FORKs of new processes, a chain per parent as the ends: a map
	 * of the parent read after a FORK of a later time (another CPU's
	 * buffer) is the child's too (map_add()).  @round: the rounds read
	 * before the FORK.
	 */
	struct pfork {
		struct okey k;
		struct okey maxk;	/* the latest k of this one and those
					 * before it in the chain */
		uint32_t child, prev;
		uint64_t round;
	} *forks;
	size_t nforks, capforks;
	struct htab forkix;	/* parent pid -> its last forks index + 1 */
	struct htab plast;	/* pass 1: a group member id's last count */
	struct pmap *todo;	/* map_add()'s work list */
	size_t ntodo, captodo;
	size_t nbounds, capbounds, seg;	/* seg: bounds passed */
	/*
	 * A segment's metadata has the maps.* and comm.* keys of the
	 * processes and threads with samples in it, not of all (thousands
	 * of short processes would repeat theirs in every segment): the
	 * threads' spans by their first sample, the next to enter a
	 * segment, and those whose span meets the current one (indices).
	 */
	struct tspan *tsp;
	size_t ntsp, tnext;
	size_t *act, nact;
	size_t nbase;		/* metadata keys before maps.* and comm.* */
	uint64_t nrounds;	/* FINISHED_ROUNDs before the end */
	uint64_t cur_flush;	/* pass 2: the flush being emitted */
	uint64_t nflush;	/* pass 2: FINISHED_ROUNDs read */
	char **pool;
	size_t npool, cappool;
	struct pbid *bids;
	size_t nbids;
	uint32_t nr_cpus;
	uint64_t nsamples, nlost, unknown_id;
	uint64_t txn_lost;	/* samples with TRANSACTION bits not kept */
	uint64_t stop;		/* offset of the first bad record */
	int stop_err;
	char stop_msg[200];
	int all_maps;
	/* pass 2 */
	uint64_t pos;
	struct pend *pend, *ptmp;	/* pending samples, sort scratch */
	uint64_t last_id;		/* sample_attr()'s last id and attr */
	size_t last_ai;
	int id_cached;
	size_t npend, cappend, ready, emit, sorted, captmp;
	/*
	 * A sample that reads its group goes out once per member (gread()):
	 * the next member of pend[emit] to look at, and each member id's
	 * count at its last sample.
	 */
	uint64_t sub;
	struct htab rlast;
	uint64_t cur_max, prev_max;
	int done;
	char err[256];
};

/* ------------------------------------------------------------- helpers */

static void seterr(struct pebs_perf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void seterr(struct pebs_perf_reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lib_verrf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
}

/*
 * The key of thread @tid of process @pid in r->threads, r->tcomm and
 * r->trng.  +1 because ht_slot() cannot hold UINT64_MAX: (-1, -1), what
 * perf_event_pid() gives for a task outside the event's pid namespace,
 * fits; (-1, -2), which no kernel gives, shares (-1, -3)'s key.
 */
static uint64_t tkey(uint32_t pid, uint32_t tid)
{
	uint64_t k = ((uint64_t)pid << 32 | tid) + 1;
	return k == UINT64_MAX ? k - 1 : k;
}

static uint16_t rd16(const struct pebs_perf_reader *r, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return r->swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct pebs_perf_reader *r, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return r->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct pebs_perf_reader *r, const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return r->swap ? __builtin_bswap64(v) : v;
}

/*
 * The attr flag bitfield is laid out by the writer's compiler: on a
 * big-endian host flag i is bit 7 - i%8 of byte i/8 (perf's swap_bitfield
 * reverses the bits of each byte and swaps no bytes).
 */
static uint64_t rdflags(const struct pebs_perf_reader *r, const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++) {
		uint8_t c = p[i];
		if (r->swap) {
			uint8_t x = 0;
			for (int j = 0; j < 8; j++)
				if (c & (1u << j))
					x |= (uint8_t)(0x80u >> j);
			c = x;
		}
		v |= (uint64_t)c << (8 * i);
	}
	return v;
}

/*
 * Room for one more element in array *@pp (of @size bytes each, *@cap of
 * them, @n used), doubling from @first: 0, or -1 with the array as it
 * was (out of memory).
 */
static int room(void *pp, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? 2 * *cap : first;
	void *p;
	memcpy(&p, pp, sizeof(p));
	if (nc > SIZE_MAX / size || !(p = realloc(p, nc * size)))
		return -1;
	memcpy(pp, &p, sizeof(p));
	*cap = nc;
	return 0;
}

static const char *intern(struct pebs_perf_reader *r, const uint8_t *s,
			  size_t max)
{
	size_t n = strnlen((const char *)s, max);
	if (r->npool && strlen(r->pool[r->npool - 1]) == n &&
	    memcmp(r->pool[r->npool - 1], s, n) == 0)
		return r->pool[r->npool - 1];
	if (r->npool == r->cappool) {
		size_t nc = r->cappool ? r->cappool * 2 : 256;
		char **np = realloc(r->pool, nc * sizeof(*np));
		if (!np)
			return NULL;
		r->pool = np;
		r->cappool = nc;
	}
	char *c = strndup((const char *)s, n);
	if (!c)
		return NULL;
	r->pool[r->npool++] = c;
	return c;
}

/*
 * A perf header string: u32 length, then NUL-padded text.  0,
 * -PEBS_E_FORMAT when it does not fit in @n (it returned -1, which is
 * -PEBS_E_NOMEM: a HOSTNAME cut short said "out of memory", exit 3), or
 * -PEBS_E_NOMEM.
 */
static int rdstr(const struct pebs_perf_reader *r, const uint8_t *p,
		 size_t n, size_t *off, char **out)
{
	if (*off + 4 > n)
		return -PEBS_E_FORMAT;
	uint32_t l = rd32(r, p + *off);
	if (l > n - *off - 4)
		return -PEBS_E_FORMAT;
	*out = strndup((const char *)p + *off + 4, l);
	if (!*out)
		return -PEBS_E_NOMEM;
	*off += 4 + (size_t)l;
	return 0;
}

/* ------------------------------------------------------------ attrs */

static int parse_attr(struct pebs_perf_reader *r, const uint8_t *p, size_t n,
		      struct pattr *a)
{
	if (n < 64)
		return -1;
	memset(a, 0, sizeof(*a));
	a->type = rd32(r, p);
	a->size = rd32(r, p + 4);
	a->config = rd64(r, p + 8);
	a->period = rd64(r, p + 16);
	a->sample_type = rd64(r, p + 24);
	a->read_format = rd64(r, p + 32);
	a->flags = rdflags(r, p + 40);
	a->config1 = rd64(r, p + 56);
	if (n >= 80)
		a->branch_type = rd64(r, p + 72);
	if (n >= 88)
		a->regs_user = rd64(r, p + 80);
	if (n >= 104)
		a->regs_intr = rd64(r, p + 96);
	return 0;
}

/*
 * The field offsets of a sample body of attr @a when every field it has is
 * of fixed size (the usual memory-sampling layouts), so bulk import reads
 * fields directly; in the order of perf_event.h's PERF_SAMPLE_* layout.
 */
static struct flay fixed_layout(const struct pattr *a)
{
	const uint64_t var = PEBS_PERF_S_READ | PEBS_PERF_S_CALLCHAIN |
			     PEBS_PERF_S_RAW | PEBS_PERF_S_BRANCH_STACK |
			     PEBS_PERF_S_REGS_USER | PEBS_PERF_S_STACK_USER |
			     PEBS_PERF_S_REGS_INTR | PEBS_PERF_S_AUX;
	uint64_t st = a->sample_type;
	struct flay l = { .fixed = !(st & var), .ip = -1, .tid = -1,
			  .time = -1, .addr = -1, .cpu = -1, .weight = -1,
			  .dsrc = -1, .tsx = -1, .phys = -1, .period = -1 };
	int16_t o = 0;
#define AT(bit, f) do { if (st & (bit)) { f = o; o += 8; } } while (0)
#define SK(bit) do { if (st & (bit)) o += 8; } while (0)
	SK(PEBS_PERF_S_IDENTIFIER);
	AT(PEBS_PERF_S_IP, l.ip);
	AT(PEBS_PERF_S_TID, l.tid);
	AT(PEBS_PERF_S_TIME, l.time);
	AT(PEBS_PERF_S_ADDR, l.addr);
	SK(PEBS_PERF_S_ID);
	SK(PEBS_PERF_S_STREAM_ID);
	AT(PEBS_PERF_S_CPU, l.cpu);
	AT(PEBS_PERF_S_PERIOD, l.period);
	AT(PEBS_PERF_S_WEIGHT | PEBS_PERF_S_WEIGHT_STRUCT, l.weight);
	AT(PEBS_PERF_S_DATA_SRC, l.dsrc);
	AT(PEBS_PERF_S_TRANSACTION, l.tsx);
	AT(PEBS_PERF_S_PHYS_ADDR, l.phys);
	SK(PEBS_PERF_S_CGROUP);
	SK(PEBS_PERF_S_DATA_PAGE_SIZE);
	SK(PEBS_PERF_S_CODE_PAGE_SIZE);
#undef AT
#undef SK
	l.size = (uint16_t)o;
	return l;
}

static int add_attr(struct pebs_perf_reader *r, const struct pattr *a)
{
	if (r->nattrs >= MAX_ATTRS)
		return -1;
	struct pattr *na = realloc(r->attrs, (r->nattrs + 1) * sizeof(*na));
	if (!na)
		return -1;
	r->attrs = na;
	r->attrs[r->nattrs] = *a;
	r->attrs[r->nattrs].lay = fixed_layout(a);
	r->nattrs++;
	return 0;
}

static int add_ids(struct pebs_perf_reader *r, size_t ai, const uint8_t *p,
		   size_t nids)
{
	struct pattr *a = &r->attrs[ai];
	r->id_cached = 0;	/* an id may now name another attr */
	a->ids = calloc(nids ? nids : 1, 8);
	if (!a->ids)
		return -1;
	for (size_t i = 0; i < nids; i++) {
		a->ids[i] = rd64(r, p + 8 * i);
		uint64_t *v = ht_slot(&r->ids, a->ids[i], 1);
		if (!v)
			return -1;
		*v = ai;
	}
	a->nids = nids;
	return 0;
}

/* --------------------------------------------------------- features */

struct feat_ctx {
	char *cpuid, *cpudesc, *host, *osrel, *version, *arch;
	char *cmdline;
	char **node_cpus;
	uint32_t *node_id;
	uint32_t nnodes;
	uint32_t *socket;	/* per cpu */
	uint32_t nsocket;	/* entries in socket[] */
	int have_sockets;
};

/* 0, or -PEBS_E_NOMEM (a malformed entry ends the list quietly) */
static int bid_add(struct pebs_perf_reader *r, const uint8_t *p, size_t n)
{
	/* header(8) pid(4) build_id[24] (20 bytes + size byte) filename */
	while (n >= 8) {
		uint16_t misc = rd16(r, p + 4), sz = rd16(r, p + 6);
		if (sz < 36 || sz > n)
			return 0;
		struct pbid *nb = realloc(r->bids, (r->nbids + 1) *
					  sizeof(*nb));
		if (!nb)
			return -PEBS_E_NOMEM;
		r->bids = nb;
		struct pbid *b = &r->bids[r->nbids];
		memcpy(b->bid, p + 12, 20);
		b->len = (misc & (1u << 15)) && p[32] && p[32] <= 20 ?
			p[32] : 20;
		b->path = strndup((const char *)p + 36, sz - 36);
		if (!b->path)
			return -PEBS_E_NOMEM;
		r->nbids++;
		p += sz;
		n -= sz;
	}
	return 0;
}

/*
 * Takes feature section @id (@n bytes at @p) into @f.  A malformed section
 * is left out (what was read of it kept); 0, or -PEBS_E_NOMEM: an
 * allocation that failed must not pass for a missing feature.
 */
static int feature(struct pebs_perf_reader *r, struct feat_ctx *f,
		   unsigned id, const uint8_t *p, size_t n)
{
	size_t off = 0;
	switch (id) {
	case 2:		/* BUILD_ID */
		return bid_add(r, p, n);
	case 3:
		if (!f->host &&
		    rdstr(r, p, n, &off, &f->host) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 4:
		if (!f->osrel &&
		    rdstr(r, p, n, &off, &f->osrel) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 5:
		if (!f->version &&
		    rdstr(r, p, n, &off, &f->version) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 6:
		if (!f->arch &&
		    rdstr(r, p, n, &off, &f->arch) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 7:		/* NRCPUS: avail, online */
		if (n >= 8 && !r->nr_cpus && rd32(r, p) <= PEBS_PERF_MAX_CPUS)
			r->nr_cpus = rd32(r, p);
		break;
	case 8:
		if (!f->cpudesc &&
		    rdstr(r, p, n, &off, &f->cpudesc) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 9:
		if (!f->cpuid &&
		    rdstr(r, p, n, &off, &f->cpuid) == -PEBS_E_NOMEM)
			return -PEBS_E_NOMEM;
		break;
	case 11: {	/* CMDLINE: u32 nr, nr strings */
		if (n < 4 || f->cmdline)
			break;
		uint32_t nr = rd32(r, p);
		off = 4;
		size_t tot = 0;
		char *line = NULL;
		for (uint32_t i = 0; i < nr; i++) {
			char *s;
			int e = rdstr(r, p, n, &off, &s);
			if (e == -PEBS_E_NOMEM) {
				free(line);
				return e;
			}
			if (e < 0)
				break;
			size_t l = strlen(s);
			char *nl = realloc(line, tot + l + 2);
			if (!nl) {
				free(s);
				free(line);
				return -PEBS_E_NOMEM;
			}
			line = nl;
			if (tot)
				line[tot++] = ' ';
			memcpy(line + tot, s, l + 1);
			tot += l;
			free(s);
		}
		f->cmdline = line;
		break;
	}
	case 12: {	/* EVENT_DESC */
		if (n < 8)
			break;
		uint32_t nr = rd32(r, p), asz = rd32(r, p + 4);
		off = 8;
		for (uint32_t i = 0; i < nr && i < MAX_ATTRS; i++) {
			if (asz > n - off || asz < 64)
				return 0;
			off += asz;
			if (off + 4 > n)
				return 0;
			uint32_t nids = rd32(r, p + off);
			off += 4;
			char *name;
			int e = rdstr(r, p, n, &off, &name);
			if (e < 0)
				return e == -PEBS_E_NOMEM ? e : 0;
			if (nids > (n - off) / 8) {
				free(name);
				return 0;
			}
			/* Match by the first id; else by position. */
			size_t ai = i;
			if (nids) {
				uint64_t *v = ht_slot(&r->ids,
						      rd64(r, p + off), 0);
				if (v)
					ai = *v;
			}
			off += 8 * (size_t)nids;
			if (ai < r->nattrs && !r->attrs[ai].name)
				r->attrs[ai].name = name;
			else
				free(name);
		}
		break;
	}
	case 13: {	/* CPU_TOPOLOGY */
		if (n < 4)
			break;
		for (int part = 0; part < 2; part++) {
			if (off + 4 > n)
				return 0;
			uint32_t nr = rd32(r, p + off);
			off += 4;
			for (uint32_t i = 0; i < nr; i++) {
				char *s;
				int e = rdstr(r, p, n, &off, &s);
				if (e < 0)
					return e == -PEBS_E_NOMEM ? e : 0;
				free(s);
			}
		}
		if (!r->nr_cpus ||
		    (size_t)r->nr_cpus * 8 > n - off || f->socket)
			break;
		f->socket = calloc(r->nr_cpus, 4);
		f->nsocket = r->nr_cpus;
		if (!f->socket)
			return -PEBS_E_NOMEM;
		for (uint32_t c = 0; c < r->nr_cpus; c++)
			f->socket[c] = rd32(r, p + off + 8 * c + 4);
		f->have_sockets = 1;
		break;
	}
	case 14: {	/* NUMA_TOPOLOGY */
		if (n < 4 || f->node_cpus || f->node_id)
			break;
		uint32_t nr = rd32(r, p);
		off = 4;
		if (nr > 4096)
			break;
		f->node_cpus = calloc(nr ? nr : 1, sizeof(char *));
		f->node_id = calloc(nr ? nr : 1, 4);
		if (!f->node_cpus || !f->node_id)
			return -PEBS_E_NOMEM;
		for (uint32_t i = 0; i < nr; i++) {
			if (off + 20 > n)
				break;
			f->node_id[i] = rd32(r, p + off);
			off += 20;
			int e = rdstr(r, p, n, &off, &f->node_cpus[i]);
			if (e == -PEBS_E_NOMEM)
				return e;
			if (e < 0)
				break;
			f->nnodes = i + 1;
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

static void feat_free(struct feat_ctx *f)
{
	free(f->cpuid);
	free(f->cpudesc);
	free(f->host);
	free(f->osrel);
	free(f->version);
	free(f->arch);
	free(f->cmdline);
	for (uint32_t i = 0; i < f->nnodes; i++)
		free(f->node_cpus[i]);
	free(f->node_cpus);
	free(f->node_id);
	free(f->socket);
}

/* ---------------------------------------------------------- samples */

/* Finds the attr of the sample record body @p (@n bytes). */
static int sample_attr(struct pebs_perf_reader *r, const uint8_t *p,
		       size_t n, size_t *ai)
{
	if (r->nattrs == 1) {
		*ai = 0;
		return 0;
	}
	uint64_t st = r->attrs[0].sample_type;
	size_t pos;
	if (st & PEBS_PERF_S_IDENTIFIER) {
		pos = 0;
	} else if (st & PEBS_PERF_S_ID) {
		pos = !!(st & PEBS_PERF_S_IP) + !!(st & PEBS_PERF_S_TID) +
		      !!(st & PEBS_PERF_S_TIME) + !!(st & PEBS_PERF_S_ADDR);
	} else {
		*ai = 0;	/* perf needs ids to tell events apart */
		return 0;
	}
	if (8 * pos + 8 > n)
		return -1;
	uint64_t id = rd64(r, p + 8 * pos);
	/* consecutive samples mostly come from one event */
	if (r->id_cached && id == r->last_id) {
		*ai = r->last_ai;
		return 0;
	}
	uint64_t *v = ht_slot(&r->ids, id, 0);
	if (!v)
		return 1;
	*ai = *v;
	r->id_cached = 1;
	r->last_id = id;
	r->last_ai = *v;
	return 0;
}

static int read_size(const struct pattr *a, const struct pebs_perf_reader *r,
		     const uint8_t *p, size_t n, size_t *off)
{
	uint64_t rf = a->read_format;
	uint64_t per = 1 + !!(rf & 4) + !!(rf & 16);	/* value, id, lost */
	uint64_t sz;
	if (rf & 8) {		/* GROUP: nr, [enabled], [running], entries */
		if (*off + 8 > n)
			return -1;
		uint64_t nr = rd64(r, p + *off);
		if (nr > 65536)
			return -1;
		sz = 8 * (1 + !!(rf & 1) + !!(rf & 2) + nr * per);
	} else {
		sz = 8 * (per + !!(rf & 1) + !!(rf & 2));
	}
	if (sz > n - *off)
		return -1;
	*off += sz;
	return 0;
}

/*
 * Parses a sample record body with attr @a into @s, and its raw
 * TRANSACTION value into *@txn (when @txn is not NULL; left alone without
 * one).  Returns 0, or -1 when the body is shorter than its sample_type
 * says.
 */
static int parse_sample(const struct pebs_perf_reader *r, const uint8_t *p,
			size_t n, const struct pattr *a, struct pebs_sample *s,
			uint64_t *txn)
{
	uint64_t st = a->sample_type;
	size_t off = 0;
	uint64_t cyc = 0;	/* a TSX weight: tsx bits 31:0 */
#define NEED(k) do { if ((uint64_t)(k) > n - off) return -1; } while (0)
#define U64(dst) do { NEED(8); dst = rd64(r, p + off); off += 8; } while (0)
#define SKIP(k) do { NEED(k); off += (k); } while (0)
	uint64_t tmp;
	/* Only TRANSACTION sets a register (rax, below): leave the others
	 * to the caller. */
	memset(s, 0, offsetof(struct pebs_sample, regs));
	s->regs[PEBS_REG_RAX] = 0;
	if (st & PEBS_PERF_S_IDENTIFIER)
		SKIP(8);
	if (st & PEBS_PERF_S_IP)
		U64(s->ip);
	if (st & PEBS_PERF_S_TID) {
		NEED(8);
		s->pid = rd32(r, p + off);
		s->tid = rd32(r, p + off + 4);
		off += 8;
	}
	if (st & PEBS_PERF_S_TIME)
		U64(s->time);
	if (st & PEBS_PERF_S_ADDR)
		U64(s->addr);
	if (st & PEBS_PERF_S_ID)
		SKIP(8);
	if (st & PEBS_PERF_S_STREAM_ID)
		SKIP(8);
	if (st & PEBS_PERF_S_CPU) {
		NEED(8);
		s->cpu = rd32(r, p + off);
		off += 8;
	}
	if (st & PEBS_PERF_S_PERIOD)
		SKIP(8);
	if ((st & PEBS_PERF_S_READ) && read_size(a, r, p, n, &off) < 0)
		return -1;
	if (st & PEBS_PERF_S_CALLCHAIN) {
		U64(tmp);
		if (tmp > (n - off) / 8)
			return -1;
		off += 8 * tmp;
	}
	if (st & PEBS_PERF_S_RAW) {
		NEED(4);
		uint32_t sz = rd32(r, p + off);
		off += 4;
		SKIP(sz);
	}
	if (st & PEBS_PERF_S_BRANCH_STACK) {
		U64(tmp);
		if (a->branch_type & (1ull << 17))	/* HW_INDEX */
			SKIP(8);
		uint64_t per = 24 + ((a->branch_type & (1ull << 19)) ? 8 : 0);
		if (tmp > (n - off) / per)
			return -1;
		off += per * tmp;
	}
	if (st & PEBS_PERF_S_REGS_USER) {
		U64(tmp);
		if (tmp)
			SKIP(8 * (uint64_t)__builtin_popcountll(a->regs_user));
	}
	if (st & PEBS_PERF_S_STACK_USER) {
		U64(tmp);
		SKIP(tmp);
		if (tmp)
			SKIP(8);	/* dyn_size */
	}
	if (st & (PEBS_PERF_S_WEIGHT | PEBS_PERF_S_WEIGHT_STRUCT)) {
		U64(tmp);
		if (!a->wlat) {
			cyc = (uint32_t)tmp;
		} else if (st & PEBS_PERF_S_WEIGHT_STRUCT) {
			s->lat = (uint32_t)tmp;
			s->ins_lat = (uint16_t)(tmp >> 32);
		} else {
			s->lat = tmp > UINT32_MAX ? UINT32_MAX : (uint32_t)tmp;
		}
	}
	if (st & PEBS_PERF_S_DATA_SRC)
		U64(s->dsrc);
	if (st & PEBS_PERF_S_TRANSACTION) {
		/* the tuning field and AX the kernel derived it from */
		U64(tmp);
		pebs_perf_txn_to_tuning(tmp, &s->tsx, &s->regs[PEBS_REG_RAX]);
		if (txn)
			*txn = tmp;
	}
	s->tsx |= cyc;
	if (st & PEBS_PERF_S_REGS_INTR) {
		U64(tmp);
		if (tmp)
			SKIP(8 * (uint64_t)__builtin_popcountll(a->regs_intr));
	}
	if (st & PEBS_PERF_S_PHYS_ADDR) {
		U64(s->phys_addr);
		s->flags |= PEBS_SF_PHYS;
	}
	if (st & PEBS_PERF_S_CGROUP)
		SKIP(8);
	if (st & PEBS_PERF_S_DATA_PAGE_SIZE)
		SKIP(8);
	if (st & PEBS_PERF_S_CODE_PAGE_SIZE)
		SKIP(8);
	if (st & PEBS_PERF_S_AUX) {
		U64(tmp);
		SKIP(tmp);
	}
#undef NEED
#undef U64
#undef SKIP
	return 0;
}

/*
 * The attr whose sample_id trailer ends non-sample record body @p (@n
 * bytes), found as perf finds it (evlist__event2evsel): the id sits at
 * the same place from the end in every event's trailer (IDENTIFIER last;
 * else ID, before STREAM_ID and CPU), which the first attr tells.  Events
 * recorded together may differ in every other sample_type bit, so the
 * trailer must be read with its own event's layout.  NULL when the id
 * names no attr.
 */
static const struct pattr *trailer_attr(struct pebs_perf_reader *r,
					const uint8_t *p, size_t n)
{
	const struct pattr *a = &r->attrs[0];
	uint64_t st = a->sample_type;
	size_t pos;
	if (r->nattrs == 1)
		return a;
	if (st & PEBS_PERF_S_IDENTIFIER)
		pos = 1;
	else if (st & PEBS_PERF_S_ID)
		pos = 1 + !!(st & PEBS_PERF_S_STREAM_ID) +
		      !!(st & PEBS_PERF_S_CPU);
	else
		return a;	/* no ids: perf reads it as the first's */
	if (8 * pos > n)
		return NULL;
	uint64_t id = rd64(r, p + n - 8 * pos);
	if (!id)
		return a;	/* perf's own synthesized records */
	uint64_t *v = ht_slot(&r->ids, id, 0);
	return v ? &r->attrs[*v] : NULL;
}

/* Time and cpu from the sample_id trailer of a non-sample record. */
static void sample_id(struct pebs_perf_reader *r, const uint8_t *p,
		      size_t n, uint64_t *time, uint32_t *cpu)
{
	*time = 0;
	*cpu = 0;
	if (!r->nattrs || !(r->attrs[0].flags & (1ull << 18)))
		return;
	const struct pattr *a = trailer_attr(r, p, n);
	if (!a || !(a->flags & (1ull << 18)))
		return;
	uint64_t st = a->sample_type;
	uint64_t m = st & (PEBS_PERF_S_TID | PEBS_PERF_S_TIME | PEBS_PERF_S_ID |
			   PEBS_PERF_S_STREAM_ID | PEBS_PERF_S_CPU |
			   PEBS_PERF_S_IDENTIFIER);
	size_t sz = 8 * (size_t)__builtin_popcountll(m);
	if (sz > n)
		return;
	const uint8_t *q = p + n - sz;
	if (st & PEBS_PERF_S_TID)
		q += 8;
	if (st & PEBS_PERF_S_TIME) {
		*time = rd64(r, q);
		q += 8;
	}
	if (st & PEBS_PERF_S_ID)
		q += 8;
	if (st & PEBS_PERF_S_STREAM_ID)
		q += 8;
	if (st & PEBS_PERF_S_CPU)
		*cpu = rd32(r, q);
}

/* The sample_type bits laid out before READ, a u64 each. */
#define S_BEFORE_READ (PEBS_PERF_S_IDENTIFIER | PEBS_PERF_S_IP | \
		       PEBS_PERF_S_TID | PEBS_PERF_S_TIME | PEBS_PERF_S_ADDR | \
		       PEBS_PERF_S_ID | PEBS_PERF_S_STREAM_ID | \
		       PEBS_PERF_S_CPU | PEBS_PERF_S_PERIOD)

/*
 * Whether samples of @a read their group with the members' ids
 * (PERF_SAMPLE_READ, PERF_FORMAT_GROUP and ID: the leader sampling of
 * `perf record -e '{a,b}:S'`, or an older perf mem's mem-loads-aux
 * group).  perf delivers such a sample once per member, as the member's
 * event, with the growth of its count since its last such sample as the
 * period, and not for a member whose count did not grow or whose id no
 * event has (perf's deliver_sample_group()); so does this reader, but
 * for the period: a .pebs sample has none, and a member's event keeps
 * the mean (gread_periods()).
 */
static int gread(const struct pattr *a)
{
	return (a->sample_type & PEBS_PERF_S_READ) &&
	       (a->read_format & 8) && (a->read_format & 4);
}

/*
 * Pass 1: adds the growth of the count of each member of group read @q
 * (@n bytes, a sample of @a, gread(), its size checked) but @a's own to
 * that member's period sum, as perf gives it as their samples' period:
 * a .pebs sample has none, the event keeps the mean (build_meta()).  Per
 * id in file order: an id is one CPU's or thread's counter, written to
 * one buffer in time order.  0 or -PEBS_E_NOMEM.
 */
static int gread_periods(struct pebs_perf_reader *r, const struct pattr *a,
			 const uint8_t *q, size_t n)
{
	uint64_t rf = a->read_format;
	size_t off = 8 * (size_t)__builtin_popcountll(a->sample_type &
						       S_BEFORE_READ);
	size_t end = off;
	if (off > n || read_size(a, r, q, n, &end) < 0)
		return 0;
	uint64_t nr = rd64(r, q + off);
	size_t per = 8 * (2 + !!(rf & 16));
	off += 8 * (1 + !!(rf & 1) + !!(rf & 2));
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *v = q + off + per * i;
		uint64_t *x = ht_slot(&r->ids, rd64(r, v + 8), 0);
		if (!x || &r->attrs[*x] == a)
			continue;
		uint64_t *last = ht_slot(&r->plast, rd64(r, v + 8), 1);
		if (!last)
			return -PEBS_E_NOMEM;
		uint64_t grew = rd64(r, v) - *last;
		*last = rd64(r, v);
		if (grew) {
			r->attrs[*x].psum += grew;
			r->attrs[*x].pcount++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ pass 1 */

/* Orders record keys as pass 2 emits them. */
static int okey_cmp(const struct pebs_perf_reader *r, const struct okey *a,
		    const struct okey *b)
{
	/* records after the last round go out in the last flush */
	uint64_t fa = a->flush < r->nrounds ? a->flush : r->nrounds;
	uint64_t fb = b->flush < r->nrounds ? b->flush : r->nrounds;
	if (fa != fb)
		return fa < fb ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* Whether map @p was alive at @k: made before it, not ended before. */
static int map_alive_at(const struct pebs_perf_reader *r,
			const struct pmap *p, const struct okey *k)
{
	return okey_cmp(r, &p->born, k) < 0 &&
	       (!p->dead || okey_cmp(r, k, &p->died) < 0);
}

/*
 * Whether map @p is one: a FORK's copy is only when the map it copies
 * was alive at the FORK, up the chain of copies.  A copy is made from
 * the ends read so far; an exec of the parent of an earlier time read
 * after the FORK (another CPU's buffer) ends the parent's map before
 * the FORK, so the child never had it: known once pass 1 is done.
 */
static int map_valid(const struct pebs_perf_reader *r, const struct pmap *p)
{
	for (; p->src; p = &r->maps[p->src - 1])
		if (!map_alive_at(r, &r->maps[p->src - 1], &p->born))
			return 0;
	return 1;
}

/* Adds map @m of its pid, dead at the pid's ends read already: its
 * index, or -1 (out of memory). */
static long map_put(struct pebs_perf_reader *r, const struct pmap *m)
{
	if (room(&r->maps, &r->capmaps, r->nmaps, sizeof(*r->maps), 256))
		return -1;
	uint64_t *head = ht_slot(&r->pidmap, m->pid, 1);
	if (!head)
		return -1;
	struct pmap *d = &r->maps[r->nmaps];
	*d = *m;
	/* head stores index + 1 (0 = none); list is newest first */
	d->next = *head ? (uint32_t)(*head - 1) : UINT32_MAX;
	*head = ++r->nmaps;
	/* an end of its process's maps read already, of a later time */
	uint64_t *e = ht_slot(&r->endix, m->pid, 0);
	for (uint32_t i = e ? (uint32_t)*e : 0; i; i = r->ends[i - 1].prev) {
		const struct okey *k = &r->ends[i - 1].k;
		if (map_alive_at(r, d, k)) {
			d->dead = 1;
			d->died = *k;
		}
	}
	return (long)(r->nmaps - 1);
}

/*
 * Adds map @m of its pid (map_put()), and a copy to each child forked
 * from it at a later time whose FORK was read before (another CPU's
 * buffer came first), and so on to theirs: a work list, not recursion,
 * as a file may chain any number of FORKs.  Each FORK gives a map at
 * most one copy: it ends the maps its child had (maps_end()), so only
 * one copy is alive in a process at a time.  0 or -1 (out of memory).
 */
static int map_add(struct pebs_perf_reader *r, const struct pmap *m)
{
	if (!ht_slot(&r->forkix, m->pid, 0))
		return map_put(r, m) < 0 ? -1 : 0;
	r->ntodo = 0;
	struct pmap c = *m;
	for (;;) {
		long x = map_put(r, &c);
		if (x < 0)
			return -1;
		c = r->maps[x];
		/*
		 * Its pid's FORKs read before, newest first.  A record goes
		 * out in the flush of the round it is read in, or of the
		 * next (rec_key()): one read before the flush of this map's
		 * birth, less one, is earlier than it.
		 */
		uint64_t *f = ht_slot(&r->forkix, c.pid, 0);
		for (uint32_t i = f ? (uint32_t)*f : 0; i;
		     i = r->forks[i - 1].prev) {
			const struct pfork *fk = &r->forks[i - 1];
			/* none of the rest is later than the map (a
			 * map made after every FORK: at once) */
			if (fk->round + 1 < c.born.flush ||
			    okey_cmp(r, &fk->maxk, &c.born) <= 0)
				break;
			if (!map_alive_at(r, &c, &fk->k))
				continue;
			if (room(&r->todo, &r->captodo, r->ntodo,
				 sizeof(*r->todo), 16))
				return -1;
			struct pmap *cm = &r->todo[r->ntodo++];
			*cm = c;
			cm->pid = fk->child;
			cm->born = fk->k;
			cm->dead = 0;
			cm->src = (uint32_t)x + 1;
		}
		if (!r->ntodo)
			return 0;
		c = r->todo[--r->ntodo];
	}
}

/* Notes the FORK at @k of process @child from @parent; 0 or
 * -PEBS_E_NOMEM. */
static int fork_note(struct pebs_perf_reader *r, uint32_t child,
		     uint32_t parent, const struct okey *k)
{
	if (room(&r->forks, &r->capforks, r->nforks, sizeof(*r->forks), 64))
		return -PEBS_E_NOMEM;
	uint64_t *f = ht_slot(&r->forkix, parent, 1);
	if (!f)
		return -PEBS_E_NOMEM;
	struct okey mx = *k;
	if (*f && okey_cmp(r, &r->forks[*f - 1].maxk, k) > 0)
		mx = r->forks[*f - 1].maxk;
	r->forks[r->nforks++] = (struct pfork){ *k, mx, child, (uint32_t)*f,
						r->nrounds };
	*f = r->nforks;
	return 0;
}

/* The child's copy of its parent's maps; 0 or -PEBS_E_NOMEM. */
static int maps_fork(struct pebs_perf_reader *r, uint32_t child,
		     uint32_t parent, const struct okey *k)
{
	uint64_t *h = ht_slot(&r->pidmap, parent, 0);
	if (!h || !*h)
		return 0;
	/* Collect first: map_add() may move r->maps. */
	size_t n = 0;
	for (uint32_t i = (uint32_t)(*h - 1); i != UINT32_MAX;
	     i = r->maps[i].next)
		n++;
	uint32_t *idx = malloc(n * sizeof(*idx) + 1);
	if (!idx)
		return -PEBS_E_NOMEM;
	n = 0;
	for (uint32_t i = (uint32_t)(*h - 1); i != UINT32_MAX;
	     i = r->maps[i].next)
		if (map_alive_at(r, &r->maps[i], k))
			idx[n++] = i;
	/* oldest first so the child's list keeps the same order */
	while (n--) {
		struct pmap m = r->maps[idx[n]];
		m.pid = child;
		m.born = *k;
		/* the parent's later exec does not end the child's copy */
		m.dead = 0;
		m.src = idx[n] + 1;
		if (map_add(r, &m) < 0) {
			free(idx);
			return -PEBS_E_NOMEM;
		}
	}
	free(idx);
	return 0;
}

/*
 * Process @pid's maps made before @k end there (an exec, or a FORK that
 * gives the pid to a new process), those that ended before keeping their
 * end, and the end is noted: for maps of the pid read later (map_add()),
 * and one after a sample of the pid starts a segment (end_bounds()).
 * 0 or -PEBS_E_NOMEM.
 */
static int maps_end(struct pebs_perf_reader *r, uint32_t pid,
		    const struct okey *k)
{
	uint64_t *h = ht_slot(&r->pidmap, pid, 0);
	for (uint32_t i = h && *h ? (uint32_t)(*h - 1) : UINT32_MAX;
	     i != UINT32_MAX; i = r->maps[i].next)
		if (map_alive_at(r, &r->maps[i], k)) {
			r->maps[i].dead = 1;
			r->maps[i].died = *k;
		}
	if (room(&r->ends, &r->capends, r->nends, sizeof(*r->ends), 64))
		return -PEBS_E_NOMEM;
	uint64_t *e = ht_slot(&r->endix, pid, 1);
	if (!e)
		return -PEBS_E_NOMEM;
	r->ends[r->nends++] = (struct pend_maps){ *k, pid, (uint32_t)*e };
	*e = r->nends;
	return 0;
}

/* Notes that thread @id of process @pid, or process @id (@proc), is
 * called pool entry @name from @k on.  0 or -PEBS_E_NOMEM. */
static int cev_add(struct pebs_perf_reader *r, const struct okey *k,
		   uint32_t pid, uint32_t id, int proc, size_t name)
{
	if (room(&r->cev, &r->capcev, r->ncev, sizeof(*r->cev), 64))
		return -PEBS_E_NOMEM;
	r->cev[r->ncev++] = (struct cev){ *k, id, (uint32_t)name,
					   (uint32_t)proc, pid };
	return 0;
}

/*
 * Notes that thread @tid is called pool entry @name from @k on, and so is
 * process @pid (comm.PID) when @proc.  0 or -PEBS_E_NOMEM.
 */
static int name_task(struct pebs_perf_reader *r, const struct okey *k,
		     uint32_t pid, uint32_t tid, int proc, size_t name)
{
	uint64_t *t = ht_slot(&r->tcomm, tkey(pid, tid), 1);
	if (!t || cev_add(r, k, pid, tid, 0, name) < 0)
		return -PEBS_E_NOMEM;
	*t = (uint64_t)name + 1;
	if (!proc)
		return 0;
	uint64_t *v = ht_slot(&r->comm, pid, 1);
	if (!v || cev_add(r, k, pid, pid, 1, name) < 0)
		return -PEBS_E_NOMEM;
	*v = (uint64_t)name + 1;
	return 0;
}

/*
 * The key of a record at @pos of time @time, read after r->nrounds rounds
 * of which the one before had records up to @prev_max (pass 2's flushes).
 * perf queues no record of time 0 or ~0 (ordered_events__queue(): no
 * time, as of a record without sample_id_all): it delivers it as it
 * reads it, after the rounds before, before what the next one releases,
 * which time 0 in the round read gives.  Pass 2 sorts by untimed() too.
 */
static uint64_t untimed(uint64_t time)
{
	return time == UINT64_MAX ? 0 : time;
}

static struct okey rec_key(const struct pebs_perf_reader *r,
			   uint64_t prev_max, uint64_t time, uint64_t pos)
{
	time = untimed(time);
	return (struct okey){ r->nrounds + (time > prev_max), time, pos };
}

/* The span of @h's entry @id, thread @tid of process @pid, created empty
 * (lo after hi) when absent: its index, or -1 (out of memory). */
static long rng_get(struct pebs_perf_reader *r, struct htab *h, uint64_t id,
		    uint32_t pid, uint32_t tid)
{
	uint64_t *v = ht_slot(h, id, 1);
	if (!v)
		return -1;
	if (*v)
		return (long)(*v - 1);
	if (room(&r->rng, &r->caprng, r->nrng, sizeof(*r->rng), 64))
		return -1;
	r->rng[r->nrng].lo = (struct okey){ UINT64_MAX, UINT64_MAX,
					    UINT64_MAX };
	r->rng[r->nrng].hi = (struct okey){ 0, 0, 0 };
	r->rng[r->nrng].pid = pid;
	r->rng[r->nrng].tid = tid;
	*v = ++r->nrng;
	return (long)(*v - 1);
}

/* Widens span @i to hold @k. */
static void rng_add(struct pebs_perf_reader *r, size_t i, const struct okey *k)
{
	struct orange *g = &r->rng[i];
	if (okey_cmp(r, k, &g->lo) < 0)
		g->lo = *k;
	if (okey_cmp(r, k, &g->hi) > 0)
		g->hi = *k;
}

static void stop_at(struct pebs_perf_reader *r, uint64_t off, int err,
		    const char *what)
{
	/* the first damage in file order wins */
	if (r->stop_err && r->stop <= off)
		return;
	r->stop = off;
	r->stop_err = err;
	snprintf(r->stop_msg, sizeof(r->stop_msg), "offset 0x%llx: %s",
		 (unsigned long long)off, what);
}

/* perf's header feature names (HEADER_* in tools/perf/util/header.h). */
static const char *const feat_names[] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE",
	"VERSION", "ARCH", "NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM",
	"CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
	"BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT",
	"BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

/*
 * Header features cut off by the end of the file (file layout, data
 * section whole).  The damage lies after every record, so reading stops at
 * the data's end, not at @off: @off is where the first feature lost has
 * its table entry or section (@what), the message says which and how many
 * of the @nfeat features were lost.
 */
static void stop_feature(struct pebs_perf_reader *r, uint64_t off,
			 unsigned bit, const char *what, unsigned nlost,
			 unsigned nfeat)
{
	char name[32];
	if (r->stop_err)	/* damage in the data comes first */
		return;
	if (bit < sizeof(feat_names) / sizeof(feat_names[0]))
		snprintf(name, sizeof(name), "%s", feat_names[bit]);
	else
		snprintf(name, sizeof(name), "%u", bit);
	r->stop = r->data_end;
	r->stop_err = PEBS_E_TRUNCATED;
	snprintf(r->stop_msg, sizeof(r->stop_msg), "offset 0x%llx: feature "
		 "%s %s truncated (file ends at 0x%llx; %u of %u header "
		 "features lost)", (unsigned long long)off, what, name,
		 (unsigned long long)r->len, nlost, nfeat);
}

/*
 * Size of the data that follows record @p beyond its header.size (pipe
 * TRACING_DATA and AUXTRACE carry their payload after the record).
 */
static int extra_size(const struct pebs_perf_reader *r, uint32_t type,
		      const uint8_t *p, size_t sz, uint64_t *extra)
{
	*extra = 0;
	if (type == 66 && sz >= 12)
		*extra = ((uint64_t)rd32(r, p + 8) + 7) & ~7ull;
	else if (type == 71 && sz >= 16)
		*extra = rd64(r, p + 8);
	else if (type == 66 || type == 71)
		return -1;
	return 0;
}

/*
 * perf record -z: PERF_RECORD_COMPRESSED (81; 83 adds a u64 data size)
 * carry zstd output of one stream that runs across records, which
 * decompresses to ordinary records.  When the data has any, it is rebuilt
 * in memory with those records inflated in place, so the two passes read
 * plain records.  Damage ends the rebuilt data (all records before it are
 * kept) and is reported at its offset in the input.
 */
static int expand_compressed(struct pebs_perf_reader *r)
{
	uint64_t pos = r->data_off, end = r->data_end;
	int any = 0;
	while (!any && pos + 8 <= end) {
		uint32_t type = rd32(r, r->b + pos);
		uint16_t sz = rd16(r, r->b + pos + 6);
		uint64_t extra;
		if (sz < 8 || sz > end - pos ||
		    extra_size(r, type, r->b + pos, sz, &extra) < 0 ||
		    extra > end - pos - sz)
			break;
		any = type == 81 || type == 83;
		pos += sz + extra;
	}
	if (!any)
		return 0;
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	size_t cap = 1 << 20, n = 0;
	/* perf's ratio is ~10; far more means a hostile file */
	uint64_t limit = (uint64_t)r->len * 256 + (4u << 20);
	uint8_t *out = malloc(cap);
	if (!dc || !out) {
		ZSTD_freeDCtx(dc);
		free(out);
		return -PEBS_E_NOMEM;
	}
	pos = r->data_off;
	while (pos < end) {
		const uint8_t *p = r->b + pos;
		if (end - pos < 8) {
			stop_at(r, pos, PEBS_E_TRUNCATED,
				"input ends inside a record header");
			break;
		}
		uint32_t type = rd32(r, p);
		uint16_t sz = rd16(r, p + 6);
		uint64_t extra;
		if (sz < 8 || sz > end - pos ||
		    extra_size(r, type, p, sz, &extra) < 0 ||
		    extra > end - pos - sz) {
			stop_at(r, pos, sz < 8 ? PEBS_E_CORRUPT :
				PEBS_E_TRUNCATED, sz < 8 ? "record size < 8" :
				"input ends inside a record");
			break;
		}
		const uint8_t *src = p + 8;
		size_t srclen = sz - 8, add = (size_t)(sz + extra);
		if (type == 83) {
			uint64_t dlen = srclen >= 8 ? rd64(r, src) : ~0ull;
			if (dlen > srclen - 8) {
				stop_at(r, pos, PEBS_E_CORRUPT,
					"compressed record: bad data size");
				break;
			}
			src += 8;
			srclen = (size_t)dlen;
		}
		int bad = 0;
		if (type == 81 || type == 83) {
			ZSTD_inBuffer in = { src, srclen, 0 };
			while (in.pos < in.size && !bad) {
				if (cap - n < 65536 && cap * 2 > limit) {
					bad = 2;	/* a zstd bomb */
					break;
				}
				if (cap - n < 65536) {
					uint8_t *no = realloc(out, cap * 2);
					if (!no) {
						ZSTD_freeDCtx(dc);
						free(out);
						return -PEBS_E_NOMEM;
					}
					out = no;
					cap *= 2;
				}
				ZSTD_outBuffer ob = { out + n, cap - n, 0 };
				size_t before = in.pos;
				size_t k = ZSTD_decompressStream(dc, &ob,
								 &in);
				n += ob.pos;
				/* an error, or no progress despite room */
				bad = ZSTD_isError(k) ||
				      (in.pos == before && ob.pos == 0);
			}
			if (bad) {
				stop_at(r, pos, PEBS_E_CORRUPT, bad == 2 ?
					"compressed records inflate to over "
					"256 times the input" :
					"compressed record: bad zstd data");
				break;
			}
		} else {
			while (cap - n < add) {
				uint8_t *no = realloc(out, cap * 2);
				if (!no) {
					ZSTD_freeDCtx(dc);
					free(out);
					return -PEBS_E_NOMEM;
				}
				out = no;
				cap *= 2;
			}
			memcpy(out + n, p, add);
			n += add;
		}
		pos += sz + extra;
	}
	ZSTD_freeDCtx(dc);
	/*
	 * The rebuilt data replaces the input.  Damage met while rebuilding
	 * (its message gives the input offset) now lies at the rebuilt end.
	 */
	r->expanded = out;
	r->b = out;
	r->len = n;
	r->data_off = 0;
	r->data_end = n;
	if (r->stop_err)
		r->stop = n;
	return 0;
}

static int scan(struct pebs_perf_reader *r, struct feat_ctx *f)
{
	uint64_t pos = r->data_off, end = r->data_end;
	uint32_t last_pid = 0, last_tid = 0;
	/* pass 2's flushes, for the keys of records (struct okey) */
	uint64_t cur_max = 0, prev_max = 0, time;
	size_t cur_rng = 0;
	uint32_t cpu;
	struct okey key;
	/*
	 * perf's idle task, tid 0 of pid 0, is called "swapper" from the
	 * start (perf_session__register_idle_thread()) until a COMM.
	 */
	key = (struct okey){ 0, 0, 0 };
	if (!intern(r, (const uint8_t *)"swapper", 8) ||
	    name_task(r, &key, 0, 0, 1, r->npool - 1) < 0)
		return -PEBS_E_NOMEM;
	while (pos < end) {
		if (end - pos < 8) {
			stop_at(r, pos, PEBS_E_TRUNCATED,
				"input ends inside a record header");
			break;
		}
		const uint8_t *p = r->b + pos;
		uint32_t type = rd32(r, p);
		uint16_t misc = rd16(r, p + 4), sz = rd16(r, p + 6);
		if (sz < 8) {
			stop_at(r, pos, PEBS_E_CORRUPT, "record size < 8");
			break;
		}
		if (sz > end - pos) {
			stop_at(r, pos, PEBS_E_TRUNCATED,
				"input ends inside a record");
			break;
		}
		uint64_t extra;
		if (extra_size(r, type, p, sz, &extra) < 0 ||
		    extra > end - pos - sz) {
			stop_at(r, pos, PEBS_E_TRUNCATED,
				"input ends inside a record's payload");
			break;
		}
		const uint8_t *q = p + 8;
		size_t n = sz - 8;
		struct pmap m;
		switch (type) {
		case 9: {	/* SAMPLE */
			size_t ai;
			struct pebs_sample s;
			uint64_t txn = 0, tun, ax;
			int k = r->nattrs ? sample_attr(r, q, n, &ai) : -1;
			if (k == 1) {
				r->unknown_id++;
				break;
			}
			/* A fixed layout is validated by its size alone. */
			const struct flay *l = k == 0 ? &r->attrs[ai].lay : NULL;
			if (l && l->fixed && n >= l->size) {
				s.pid = l->tid >= 0 ? rd32(r, q + l->tid) : 0;
				s.tid = l->tid >= 0 ? rd32(r, q + l->tid + 4) :
						      0;
				s.time = l->time >= 0 ? rd64(r, q + l->time) :
						       0;
				txn = l->tsx >= 0 ? rd64(r, q + l->tsx) : 0;
			} else if (k < 0 || parse_sample(r, q, n,
							 &r->attrs[ai],
							 &s, &txn) < 0) {
				stop_at(r, pos, PEBS_E_CORRUPT, r->nattrs ?
					"sample shorter than its sample_type" :
					"sample before any event attribute");
				goto out;
			}
			/*
			 * The .pebs has no per-sample period: a freq event
			 * keeps the mean of its samples' (build_meta()).
			 */
			struct pattr *pa = k == 0 ? &r->attrs[ai] : NULL;
			if (pa && (pa->flags & (1ull << 10)) &&
			    l->period >= 0 && (size_t)l->period + 8 <= n) {
				pa->psum += rd64(r, q + l->period);
				pa->pcount++;
			}
			/* and a group's other members the mean growth of
			 * their counts (gread()) */
			if (pa && gread(pa) && gread_periods(r, pa, q, n) < 0)
				return -PEBS_E_NOMEM;
			/* runs of samples of one thread: hash once */
			if (!r->nsamples || s.pid != last_pid ||
			    s.tid != last_tid) {
				uint64_t *v = ht_slot(&r->sampled, s.pid, 1);
				uint64_t *t = s.tid != s.pid ?
					ht_slot(&r->threads,
						tkey(s.pid, s.tid), 1) : v;
				if (!v || !t)
					return -PEBS_E_NOMEM;
				if (t != v)
					*t = (uint64_t)s.pid << 32 | s.tid;
				long g = rng_get(r, &r->trng,
						 tkey(s.pid, s.tid), s.pid,
						 s.tid);
				if (g < 0)
					return -PEBS_E_NOMEM;
				cur_rng = (size_t)g;
				last_pid = s.pid;
				last_tid = s.tid;
			}
			/* released by this round's flush, or the next's
			 * (flush_until()); pass 2 reads the time so too */
			if (l->time < 0 || (size_t)l->time + 8 > n)
				s.time = 0;
			key = rec_key(r, prev_max, s.time, pos);
			rng_add(r, cur_rng, &key);
			if (key.time > cur_max)
				cur_max = key.time;
			/* bits no tuning field and AX give: counted, lost */
			if (!pebs_perf_txn_to_tuning(txn, &tun, &ax))
				r->txn_lost++;
			r->nsamples++;
			break;
		}
		case 1:		/* MMAP */
		case 10:	/* MMAP2 */
			if (n < (type == 1 ? 32u : 64u))
				break;
			memset(&m, 0, sizeof(m));
			m.pid = rd32(r, q);
			m.start = rd64(r, q + 8);
			m.len = rd64(r, q + 16);
			m.pgoff = rd64(r, q + 24);
			if (type == 10 && (misc & (1u << 14)) && q[32] &&
			    q[32] <= 20) {
				m.bid_len = q[32];
				memcpy(m.bid, q + 36, m.bid_len);
			}
			m.path = intern(r, q + (type == 1 ? 32 : 64),
					n - (type == 1 ? 32 : 64));
			sample_id(r, q, n, &time, &cpu);
			m.born = rec_key(r, prev_max, time, pos);
			if (!m.path || map_add(r, &m) < 0)
				return -PEBS_E_NOMEM;
			break;
		case 3:		/* COMM */
			if (n < 9)
				break;
			{
				uint32_t pid = rd32(r, q), tid = rd32(r, q + 4);
				sample_id(r, q, n, &time, &cpu);
				key = rec_key(r, prev_max, time, pos);
				if ((misc & (1u << 13)) &&	/* COMM_EXEC */
				    maps_end(r, pid, &key) < 0)
					return -PEBS_E_NOMEM;
				if (!intern(r, q + 8, n - 8))
					return -PEBS_E_NOMEM;
				/* a thread names its process until its main
				 * thread (or a FORK) does */
				if (name_task(r, &key, pid, tid, pid == tid ||
					      !ht_slot(&r->comm, pid, 0),
					      r->npool - 1) < 0)
					return -PEBS_E_NOMEM;
			}
			break;
		case 7:		/* FORK: pid, ppid, tid, ptid, time */
			if (n < 24)
				break;
			{
				uint32_t pid = rd32(r, q), ppid = rd32(r, q + 4);
				uint32_t tid = rd32(r, q + 8);
				sample_id(r, q, n, &time, &cpu);
				key = rec_key(r, prev_max, time, pos);
				if (pid != ppid &&
				    (maps_end(r, pid, &key) < 0 ||
				     maps_fork(r, pid, ppid, &key) < 0 ||
				     fork_note(r, pid, ppid, &key) < 0))
					return -PEBS_E_NOMEM;
				/*
				 * A new task has its parent thread's name
				 * until a COMM (perf's thread__fork()); that
				 * of a new process names the process too.
				 */
				uint64_t *pt = ht_slot(&r->tcomm,
						       tkey(ppid,
							    rd32(r, q + 12)),
						       0);
				/* a thread without a name of its own goes
				 * by its process's (as sym.c shows it) */
				if (!pt || !*pt)
					pt = ht_slot(&r->comm, ppid, 0);
				if (!pt || !*pt)
					break;
				/* copied: creating a slot may move it */
				size_t name = (size_t)(*pt - 1);
				if (name_task(r, &key, pid, tid, pid != ppid,
					      name) < 0)
					return -PEBS_E_NOMEM;
			}
			break;
		case 68:	/* FINISHED_ROUND: as advance() flushes */
			r->nrounds++;
			prev_max = cur_max;
			break;
		case 2:		/* LOST */
			if (n >= 16)
				r->nlost += rd64(r, q + 8);
			break;
		case 13:	/* LOST_SAMPLES */
			if (n >= 8)
				r->nlost += rd64(r, q);
			break;
		case 64: {	/* HEADER_ATTR (pipe) */
			struct pattr a;
			if (parse_attr(r, q, n, &a) < 0) {
				stop_at(r, pos, PEBS_E_CORRUPT,
					"short event attribute");
				goto out;
			}
			size_t asz = a.size >= 64 && a.size <= n ? a.size : 64;
			if (add_attr(r, &a) < 0 ||
			    add_ids(r, r->nattrs - 1, q + asz,
				    (n - asz) / 8) < 0)
				return -PEBS_E_NOMEM;
			break;
		}
		case 67:	/* HEADER_BUILD_ID */
			if (bid_add(r, p, sz) < 0)
				return -PEBS_E_NOMEM;
			break;
		case 78:	/* EVENT_UPDATE: u64 type, u64 id, payload */
			if (n > 16 && rd64(r, q) == 2) {
				uint64_t *v = ht_slot(&r->ids,
						      rd64(r, q + 8), 0);
				if (v && !r->attrs[*v].name &&
				    !(r->attrs[*v].name = strndup(
					      (const char *)q + 16, n - 16)))
					return -PEBS_E_NOMEM;
			}
			break;
		case 80:	/* HEADER_FEATURE: u64 id, payload */
			if (n >= 8 && rd64(r, q) < 256 &&
			    feature(r, f, (unsigned)rd64(r, q), q + 8,
				    n - 8) < 0)
				return -PEBS_E_NOMEM;
			break;
		case 81:	/* COMPRESSED: inflated before the scan */
		case 83:	/* COMPRESSED2 */
			stop_at(r, pos, PEBS_E_CORRUPT,
				"compressed records inside compressed data");
			goto out;
		default:
			break;
		}
		pos += sz + extra;
	}
out:
	return 0;
}

/* ------------------------------------------------------ metadata */

static void attr_name(const struct pattr *a, char *buf, size_t len)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};
	/*
	 * Our writer's event of samples without a name (perfwrite.c): a raw
	 * event of config 0, which counts nothing on any CPU, named "pebs".
	 * Named "" again so that the empty name round-trips.
	 */
	if (a->name && strcmp(a->name, PEBS_PERF_ANON_EVENT) == 0 &&
	    a->type == 4 &&
	    a->config == 0 && a->config1 == 0)
		buf[0] = 0;
	else if (a->name && *a->name)
		snprintf(buf, len, "%s", a->name);
	else if (a->type == 0 && a->config < 10)
		snprintf(buf, len, "%s", hw[a->config]);
	else if (a->type == 4)
		snprintf(buf, len, "r%llx", (unsigned long long)a->config);
	else
		snprintf(buf, len, "type%u/config=0x%llx/", a->type,
			 (unsigned long long)a->config);
}

#define SET(...) do { if (pebs_meta_setf(m, __VA_ARGS__) < 0) \
	return -PEBS_E_NOMEM; } while (0)

/*
 * perf's BUILD_ID feature names the kernel [kernel.kallsyms], its dso,
 * while the kernel's map is [kernel.kallsyms]_text (or another symbol
 * after the prefix): that build-id is the map's.
 */
static int kernel_bid(const char *bid_path, const struct pmap *p)
{
	static const char kdso[] = "[kernel.kallsyms]";
	return p->pid == UINT32_MAX && strcmp(bid_path, kdso) == 0 &&
	       strncmp(p->path, kdso, sizeof(kdso) - 1) == 0;
}

/* okey_cmp() of keys whose flushes are clamped already (for qsort). */
static int okey_raw_cmp(const struct okey *a, const struct okey *b)
{
	if (a->flush != b->flush)
		return a->flush < b->flush ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

static int okey_raw_qcmp(const void *a, const void *b)
{
	return okey_raw_cmp(a, b);
}

static int cev_cmp(const void *a, const void *b)
{
	const struct cev *x = a, *y = b;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* flushes clamped already (plan_segments()) */
	return okey_raw_cmp(&x->k, &y->k);
}

static int tspan_cmp(const void *a, const void *b)
{
	return okey_raw_cmp(&((const struct tspan *)a)->lo,
			    &((const struct tspan *)b)->lo);
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether name @c is of thread @id of process @pid, or of process @id
 * (@proc: @pid is @id). */
static int cev_is(const struct cev *c, uint32_t pid, uint32_t id,
		  uint32_t proc)
{
	return c->proc == proc && c->id == id && c->pid == pid;
}

/*
 * The name of thread @id of process @pid, or of process @id (@proc; @pid
 * is @id), at key @at (NULL: its last): the last one given at or before
 * it, else the first (a sample before any name); string pool index + 1,
 * or 0 when it has none.
 */
static size_t name_at(const struct pebs_perf_reader *r, uint32_t pid,
		      uint32_t id, uint32_t proc, const struct okey *at)
{
	size_t lo = 0, hi = r->ncev;
	while (lo < hi) {	/* the first event of the task, cev_cmp() */
		size_t mid = lo + (hi - lo) / 2;
		const struct cev *c = &r->cev[mid];
		if (c->proc != proc ? c->proc < proc :
		    c->id != id ? c->id < id : c->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == r->ncev || !cev_is(&r->cev[lo], pid, id, proc))
		return 0;
	size_t i = lo;
	while (i + 1 < r->ncev && cev_is(&r->cev[i + 1], pid, id, proc) &&
	       (!at || okey_cmp(r, &r->cev[i + 1].k, at) <= 0))
		i++;
	return (size_t)r->cev[i].name + 1;
}

/* Adds @k to the segment starts.  0 or -PEBS_E_NOMEM. */
static int bound_add(struct pebs_perf_reader *r, const struct okey *k)
{
	if (room(&r->bounds, &r->capbounds, r->nbounds, sizeof(*r->bounds), 64))
		return -PEBS_E_NOMEM;
	r->bounds[r->nbounds++] = *k;
	return 0;
}

/*
 * The ends of maps (an exec, a pid reused: maps_end()) after the first
 * sample of their pid (of any of its threads) start segments: the maps
 * before one and those after it may cover the same addresses, and each
 * segment has the maps alive at its end (set_maps()).  One after the
 * pid's last sample too: else the segment of that sample would run past
 * the end and take the new maps.  A segment starts only before a sample
 * (new_segment()), so one after the last sample of the file starts none.
 * 0 or -PEBS_E_NOMEM.
 */
static int end_bounds(struct pebs_perf_reader *r)
{
	struct htab ps = { 0 };		/* pid -> rng index + 1 */
	int e = 0;
	for (size_t i = 0; !e && r->nends && i < r->trng.cap; i++) {
		if (!r->trng.k[i])
			continue;
		size_t t = (size_t)(r->trng.v[i] - 1);
		uint32_t pid = r->rng[t].pid;
		long g = rng_get(r, &ps, pid, pid, pid);
		if (g < 0) {
			e = -PEBS_E_NOMEM;
			break;
		}
		rng_add(r, (size_t)g, &r->rng[t].lo);
		rng_add(r, (size_t)g, &r->rng[t].hi);
	}
	for (size_t i = 0; !e && i < r->nends; i++) {
		struct okey *k = &r->ends[i].k;
		if (k->flush > r->nrounds)
			k->flush = r->nrounds;
		uint64_t *g = ht_slot(&ps, r->ends[i].pid, 0);
		if (g && okey_cmp(r, &r->rng[*g - 1].lo, k) < 0)
			e = bound_add(r, k);
	}
	ht_free(&ps);
	return e;
}

/*
 * After pass 1: sorts the names given, finds the span of samples that
 * each process name (comm.PID) serves (its main thread's, and those of
 * its threads without a name of their own: sym.c falls back to it), and
 * the renames inside a span, and the execs (end_bounds()), where a
 * segment must start.  A rename before a thread's first sample or after
 * its last, or of a thread without samples, starts none.  0 or
 * -PEBS_E_NOMEM.
 */
static int plan_segments(struct pebs_perf_reader *r)
{
	if (!r->ncev && !r->nends)
		return 0;
	/* the sort below must order as okey_cmp() does */
	for (size_t i = 0; i < r->ncev; i++)
		if (r->cev[i].k.flush > r->nrounds)
			r->cev[i].k.flush = r->nrounds;
	for (size_t i = 0; i < r->nrng; i++) {
		if (r->rng[i].lo.flush > r->nrounds)
			r->rng[i].lo.flush = r->nrounds;
		if (r->rng[i].hi.flush > r->nrounds)
			r->rng[i].hi.flush = r->nrounds;
	}
	if (r->ncev)	/* r->cev may be NULL, which qsort() may not get */
		qsort(r->cev, r->ncev, sizeof(*r->cev), cev_cmp);
	for (size_t i = 0; i < r->trng.cap; i++) {
		if (!r->trng.k[i])
			continue;
		size_t t = (size_t)(r->trng.v[i] - 1);
		uint32_t tid = r->rng[t].tid, pid = r->rng[t].pid;
		if (pid != tid && ht_slot(&r->tcomm, tkey(pid, tid), 0))
			continue;	/* named apart: comm.PID.TID */
		long g = rng_get(r, &r->prng, pid, pid, pid);
		if (g < 0)
			return -PEBS_E_NOMEM;
		/* rng_get() may move r->rng: index both anew */
		rng_add(r, (size_t)g, &r->rng[t].lo);
		rng_add(r, (size_t)g, &r->rng[t].hi);
	}
	for (size_t i = 1; i < r->ncev; i++) {
		const struct cev *c = &r->cev[i], *b = &r->cev[i - 1];
		if (!cev_is(b, c->pid, c->id, c->proc) ||
		    strcmp(r->pool[b->name], r->pool[c->name]) == 0)
			continue;
		uint64_t *g = c->proc ? ht_slot(&r->prng, c->id, 0) :
			      ht_slot(&r->trng, tkey(c->pid, c->id), 0);
		if (!g || okey_cmp(r, &r->rng[*g - 1].lo, &c->k) >= 0 ||
		    okey_cmp(r, &c->k, &r->rng[*g - 1].hi) >= 0)
			continue;
		if (bound_add(r, &c->k) < 0)
			return -PEBS_E_NOMEM;
	}
	if (end_bounds(r) < 0)
		return -PEBS_E_NOMEM;
	/* in emission order (flushes clamped above), once each */
	if (r->nbounds)
		qsort(r->bounds, r->nbounds, sizeof(*r->bounds),
		      okey_raw_qcmp);
	size_t k = 0;
	for (size_t i = 0; i < r->nbounds; i++)
		if (!k || okey_cmp(r, &r->bounds[i], &r->bounds[k - 1]) != 0)
			r->bounds[k++] = r->bounds[i];
	r->nbounds = k;
	return 0;
}

/*
 * After plan_segments(): the samples' span of each sampled thread, in the
 * order of their first samples, for seg_keys().  0 or -PEBS_E_NOMEM.
 */
static int plan_spans(struct pebs_perf_reader *r)
{
	if (!r->trng.n)
		return 0;
	r->tsp = malloc(r->trng.n * sizeof(*r->tsp));
	r->act = malloc(r->trng.n * sizeof(*r->act));
	if (!r->tsp || !r->act)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < r->trng.cap; i++) {
		if (!r->trng.k[i])
			continue;
		const struct orange *g = &r->rng[r->trng.v[i] - 1];
		struct tspan *t = &r->tsp[r->ntsp++];
		t->lo = g->lo;
		t->hi = g->hi;
		if (t->lo.flush > r->nrounds)
			t->lo.flush = r->nrounds;
		if (t->hi.flush > r->nrounds)
			t->hi.flush = r->nrounds;
		t->tid = g->tid;
		t->pid = g->pid;
	}
	qsort(r->tsp, r->ntsp, sizeof(*r->tsp), tspan_cmp);
	return 0;
}

/*
 * The name of @id at the start @at of a segment (NULL: the first), for
 * its samples in it: span @g (index + 1; 0: none, its last name) clamps
 * @at, so that a thread without samples in the segment keeps the name of
 * its nearest samples.
 */
static size_t seg_name(const struct pebs_perf_reader *r, uint32_t pid,
		       uint32_t id, uint32_t proc, uint64_t g,
		       const struct okey *at)
{
	if (!g)
		return name_at(r, pid, id, proc, NULL);
	const struct orange *s = &r->rng[g - 1];
	if (!at || okey_cmp(r, at, &s->lo) < 0)
		at = &s->lo;
	else if (okey_cmp(r, at, &s->hi) > 0)
		at = &s->hi;
	return name_at(r, pid, id, proc, at);
}

/* Sorts indices @v (@n) and drops repeats; returns how many stay. */
static size_t sort_unique(size_t *v, size_t n)
{
	size_t k = 0;
	if (!n)		/* @v may be NULL then, which qsort() may not get */
		return 0;
	qsort(v, n, sizeof(*v), size_cmp);
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* Sets maps.N.* of map @p in @m.  0 or -PEBS_E_NOMEM. */
static int set_map(const struct pebs_perf_reader *r, struct pebs_meta *m,
		   size_t n, const struct pmap *p)
{
	char k[64];
#define MK(f) (snprintf(k, sizeof(k), "maps.%zu." f, n), k)
	SET(MK("pid"), "%d", (int32_t)p->pid);
	SET(MK("start"), "0x%llx", (unsigned long long)p->start);
	SET(MK("end"), "0x%llx", (unsigned long long)(p->start + p->len));
	SET(MK("pgoff"), "0x%llx", (unsigned long long)p->pgoff);
	SET(MK("path"), "%s", p->path);
	const uint8_t *bid = p->bid_len ? p->bid : NULL;
	size_t bl = p->bid_len;
	for (size_t j = 0; !bid && j < r->nbids; j++) {
		if (strcmp(r->bids[j].path, p->path) == 0 ||
		    kernel_bid(r->bids[j].path, p)) {
			bid = r->bids[j].bid;
			bl = r->bids[j].len;
		}
	}
	if (bid) {
		char hex[41];
		for (size_t j = 0; j < bl; j++)
			snprintf(hex + 2 * j, 3, "%02x", bid[j]);
		SET(MK("build_id"), "%s", hex);
	}
#undef MK
	return 0;
}

/*
 * Appends the maps of @pid (a list of r->pidmap) to *@ix (*@n of *@cap).
 * 0 or -PEBS_E_NOMEM.
 */
static int add_pid_maps(struct pebs_perf_reader *r, uint32_t pid,
			size_t **ix, size_t *n, size_t *cap)
{
	uint64_t *h = ht_slot(&r->pidmap, pid, 0);
	if (!h || !*h)
		return 0;
	for (uint32_t i = (uint32_t)(*h - 1); i != UINT32_MAX;
	     i = r->maps[i].next) {
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 256;
			size_t *nx = realloc(*ix, nc * sizeof(*nx));
			if (!nx)
				return -PEBS_E_NOMEM;
			*ix = nx;
			*cap = nc;
		}
		(*ix)[(*n)++] = i;
	}
	return 0;
}

/*
 * Whether map @p serves samples of the segment that ends at @hi (NULL:
 * the last): it was made before that end, and ends (an exec) at or after
 * it.  An exec after a sampled process's first sample starts a segment
 * (end_bounds()), so the maps of before and after the exec are never in
 * one segment; an exec before its first sample keeps only the new maps,
 * as when every exec dropped the maps before it.
 */
static int map_alive(const struct pebs_perf_reader *r, const struct pmap *p,
		     const struct okey *hi)
{
	if (!map_valid(r, p))
		return 0;
	if (!hi)
		return !p->dead;
	return okey_cmp(r, &p->born, hi) < 0 &&
	       (!p->dead || okey_cmp(r, hi, &p->died) <= 0);
}

/*
 * Sets the maps.* keys of processes @pids (@npids, in r->sampled's slot
 * order) in @m: theirs and the kernel's (pid -1), in the order perf gave
 * them, or every process's with all_maps, those alive in the segment that
 * ends at @hi (NULL: the last; map_alive()).  0 or -PEBS_E_NOMEM.
 */
static int set_maps(struct pebs_perf_reader *r, struct pebs_meta *m,
		    const size_t *pids, size_t npids, const struct okey *hi)
{
	size_t *ix = NULL, n = 0, cap = 0, kept = 0;
	int e = 0;
	if (r->all_maps) {
		ix = malloc((r->nmaps + 1) * sizeof(*ix));
		if (!ix)
			return -PEBS_E_NOMEM;
		for (n = 0; n < r->nmaps; n++)
			ix[n] = n;
	} else {
		e = add_pid_maps(r, UINT32_MAX, &ix, &n, &cap);
		for (size_t i = 0; !e && i < npids; i++)
			e = add_pid_maps(r, (uint32_t)(r->sampled.k[pids[i]] -
						      1), &ix, &n, &cap);
		/* once each: a sampled pid -1 is the kernel's too */
		if (!e)
			n = sort_unique(ix, n);
	}
	for (size_t i = 0; !e && i < n && kept < MAX_KEPT_MAPS; i++) {
		const struct pmap *p = &r->maps[ix[i]];
		if (!map_alive(r, p, hi) || !p->len ||
		    (!r->all_maps && meta_map_useless(p->path)))
			continue;
		e = set_map(r, m, kept++, p);
	}
	free(ix);
	if (!e && kept == MAX_KEPT_MAPS &&
	    pebs_meta_set(m, "perf.maps_truncated", "1") < 0)
		e = -PEBS_E_NOMEM;
	return e;
}

/*
 * Sets comm.PID of processes @pids (@npids, slots of r->sampled) and
 * comm.PID.TID of threads @tids (slots of r->threads) in @m to their names
 * in the segment that starts at @at (NULL: the first).  0 or
 * -PEBS_E_NOMEM.
 */
static int set_comms(struct pebs_perf_reader *r, struct pebs_meta *m,
		     const struct okey *at, const size_t *pids, size_t npids,
		     const size_t *tids, size_t ntids)
{
	for (size_t i = 0; i < npids; i++) {
		uint64_t pid = r->sampled.k[pids[i]] - 1;
		uint64_t *g = ht_slot(&r->prng, pid, 0);
		size_t c = seg_name(r, (uint32_t)pid, (uint32_t)pid, 1,
				    g ? *g : 0, at);
		if (c) {
			char k[48];
			snprintf(k, sizeof(k), "comm.%llu",
				 (unsigned long long)pid);
			SET(k, "%s", r->pool[c - 1]);
		}
	}
	for (size_t i = 0; i < ntids; i++) {
		uint32_t tid = (uint32_t)r->threads.v[tids[i]];
		uint32_t pid = (uint32_t)(r->threads.v[tids[i]] >> 32);
		uint64_t *g = ht_slot(&r->trng, tkey(pid, tid), 0);
		size_t c = seg_name(r, pid, tid, 0, g ? *g : 0, at);
		if (c) {
			char k[48];
			snprintf(k, sizeof(k), "comm.%llu.%llu",
				 (unsigned long long)pid,
				 (unsigned long long)tid);
			SET(k, "%s", r->pool[c - 1]);
		}
	}
	return 0;
}

/*
 * Replaces the maps.* and comm.* keys of r->meta (those after its first
 * r->nbase) by those of segment @s (0: the first; segment s > 0 starts at
 * r->bounds[s - 1]): the maps and names of the processes and threads
 * whose samples' span meets the segment, and the kernel's maps
 * (formats/perf-import.md, section 1.2).  Segments come in order: the
 * threads enter and leave r->act as a sweep over r->tsp, so that a
 * segment costs what it holds, not every thread of the file.  Keys in
 * r->sampled and r->threads slot order: a single segment has them as
 * before, when it held every sampled process.  0 or -PEBS_E_NOMEM.
 */
static int seg_keys(struct pebs_perf_reader *r, size_t s)
{
	const struct okey *lo = s ? &r->bounds[s - 1] : NULL;
	const struct okey *hi = s < r->nbounds ? &r->bounds[s] : NULL;
	while (r->tnext < r->ntsp &&
	       (!hi || okey_cmp(r, &r->tsp[r->tnext].lo, hi) < 0))
		r->act[r->nact++] = r->tnext++;
	size_t k = 0;
	for (size_t i = 0; i < r->nact; i++)
		if (!lo || okey_cmp(r, &r->tsp[r->act[i]].hi, lo) > 0)
			r->act[k++] = r->act[i];
	r->nact = k;
	meta_truncate(r->meta, r->nbase);
	size_t *pids = malloc((r->nact + 1) * sizeof(*pids));
	size_t *tids = malloc((r->nact + 1) * sizeof(*tids));
	size_t np = 0, nt = 0;
	int e = pids && tids ? 0 : -PEBS_E_NOMEM;
	for (size_t i = 0; !e && i < r->nact; i++) {
		const struct tspan *t = &r->tsp[r->act[i]];
		/* both exist: the scan made them for each sample */
		uint64_t *p = ht_slot(&r->sampled, t->pid, 0);
		if (p)
			pids[np++] = (size_t)(p - r->sampled.v);
		uint64_t *q = t->tid != t->pid ?
			ht_slot(&r->threads, tkey(t->pid, t->tid), 0) : NULL;
		if (q)
			tids[nt++] = (size_t)(q - r->threads.v);
	}
	if (!e) {
		np = sort_unique(pids, np);
		nt = sort_unique(tids, nt);
		e = set_maps(r, r->meta, pids, np, hi);
	}
	if (!e)
		e = set_comms(r, r->meta, lo, pids, np, tids, nt);
	free(pids);
	free(tids);
	return e;
}

static int build_meta(struct pebs_perf_reader *r, struct feat_ctx *f)
{
	struct pebs_meta *m = r->meta;
	r->evname = calloc(r->nattrs + 1, sizeof(char *));
	if (!r->evname)
		return -PEBS_E_NOMEM;
	SET("source", "%s", "import-perf");
	if (f->host)
		SET("host", "%s", f->host);
	if (f->osrel)
		SET("os.release", "%s", f->osrel);
	if (f->cmdline)
		SET("cmdline", "%s", f->cmdline);
	if (f->version)
		SET("perf.version", "%s", f->version);
	if (f->arch)
		SET("perf.arch", "%s", f->arch);
	SET("perf.byte_order", "%s", r->swap ? "swapped" : "native");
	SET("perf.pipe", "%d", r->pipe);
	if (f->cpuid) {
		/* x86: "GenuineIntel,6,85,4" */
		char vendor[64];
		unsigned fam, model, step;
		int k = sscanf(f->cpuid, "%63[^,],%u,%u,%u", vendor, &fam,
			       &model, &step);
		SET("perf.cpuid", "%s", f->cpuid);
		if (k >= 3) {
			SET("cpu.vendor", "%s", vendor);
			SET("cpu.family", "%u", fam);
			SET("cpu.model", "%u", model);
			if (k == 4)
				SET("cpu.stepping", "%u", step);
			const struct pebs_uarch *u =
				pebs_uarch_by_model(fam, model);
			if (u && strcmp(vendor, "GenuineIntel") == 0)
				SET("uarch", "%s", u->name);
		}
	}
	if (f->cpudesc)
		SET("cpu.name", "%s", f->cpudesc);
	SET("time.unit", "%s", "ns");
	if (r->nr_cpus)
		SET("topology.nr_cpus", "%u", r->nr_cpus);
	for (uint32_t i = 0; i < f->nnodes; i++) {
		char k[48];
		snprintf(k, sizeof(k), "topology.node.%u.cpus", f->node_id[i]);
		SET(k, "%s", f->node_cpus[i] ? f->node_cpus[i] : "");
	}
	if (f->have_sockets) {
		uint32_t maxs = 0;
		/* NRCPUS may come again later in a hostile pipe */
		for (uint32_t c = 0; c < f->nsocket; c++) {
			char k[48];
			snprintf(k, sizeof(k), "topology.cpu.%u.socket", c);
			SET(k, "%u", f->socket[c]);
			if (f->socket[c] + 1 > maxs && f->socket[c] < 65536)
				maxs = f->socket[c] + 1;
		}
		SET("topology.sockets", "%u", maxs);
	}
	for (size_t i = 0; i < r->nattrs; i++) {
		const struct pattr *a = &r->attrs[i];
		char k[64], name[256];
		attr_name(a, name, sizeof(name));
#define EK(f) (snprintf(k, sizeof(k), "events.%zu." f, i), k)
		SET(EK("name"), "%s", name);
		r->evname[i] = strdup(name);
		if (!r->evname[i])
			return -PEBS_E_NOMEM;
		if (!(a->flags & (1ull << 10)))		/* not freq */
			SET(EK("period"), "%llu",
			    (unsigned long long)a->period);
		else
			SET(EK("freq"), "%llu", (unsigned long long)a->period);
		if (a->pcount) {
			/* rounded: exact when every period was the same */
			unsigned __int128 mean = (a->psum + a->pcount / 2) /
						 a->pcount;
			SET(EK("perf.mean_period"), "%llu", (unsigned long long)
			    (mean > UINT64_MAX ? UINT64_MAX : mean));
		}
		SET(EK("perf.type"), "%u", a->type);
		SET(EK("perf.config"), "0x%llx",
		    (unsigned long long)a->config);
		SET(EK("perf.config1"), "0x%llx",
		    (unsigned long long)a->config1);
		SET(EK("perf.sample_type"), "0x%llx",
		    (unsigned long long)a->sample_type);
		SET(EK("perf.precise_ip"), "%u",
		    (unsigned)(a->flags >> 15 & 3));
		if (a->type == 4 && (a->config & 0xffff) == 0x1cd)
			SET(EK("ldlat"), "%llu",
			    (unsigned long long)a->config1);
		/* FRONTEND_RETIRED in either encoding a file can come
		 * from (0x01C6 to Golden Cove, 0x03C6 from Redwood Cove:
		 * pebs_plan.h): config1 is its MSR_PEBS_FRONTEND value */
		if (a->type == 4 && pebs_fe_evtsel_any(a->config))
			SET(EK("frontend"), "0x%llx",
			    (unsigned long long)a->config1);
		if (a->nids) {
			size_t cap = a->nids * 21 + 1, o = 0;
			char *s = malloc(cap);
			if (!s)
				return -PEBS_E_NOMEM;
			s[0] = 0;
			for (size_t j = 0; j < a->nids; j++)
				o += (size_t)snprintf(s + o, cap - o, "%s%llu",
					j ? "," : "",
					(unsigned long long)a->ids[j]);
			int e = pebs_meta_set(m, EK("id"), s);
			free(s);
			if (e < 0)
				return e;
		}
#undef EK
	}
	if (r->nattrs == 1 && !(r->attrs[0].flags & (1ull << 10)))
		SET("period", "%llu", (unsigned long long)r->attrs[0].period);
	if (r->unknown_id)
		SET("perf.unknown_id_samples", "%llu",
		    (unsigned long long)r->unknown_id);
	if (r->txn_lost)
		SET("perf.txn_lost_samples", "%llu",
		    (unsigned long long)r->txn_lost);
	r->nbase = pebs_meta_count(m);
	return seg_keys(r, 0);
}
#undef SET

/* ------------------------------------------------------------ open */

int pebs_perf_probe(const void *buf, size_t len)
{
	uint64_t v;
	if (len < 8)
		return 0;
	memcpy(&v, buf, 8);
	return v == MAGIC_LE || v == __builtin_bswap64(MAGIC_LE);
}

/*
 * Reads all of @fp into r->heap.  A regular file is read from its current
 * offset with pread(), not mapped: a mapped file that shrinks while it is
 * read (rotated, or still being written) kills the process with SIGBUS,
 * where a short read is only a truncated input.  A pipe is read to its
 * end into a growing buffer.
 */
static int load(struct pebs_perf_reader *r, FILE *fp)
{
	int fd = fileno(fp);
	struct stat st;
	size_t len = 0, cap = 0;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t start = lseek(fd, 0, SEEK_CUR);
		if (start < 0 || start > st.st_size)
			start = 0;
		cap = (size_t)(st.st_size - start);
		r->heap = lib_big_realloc(NULL, cap ? cap : 1);
		if (!r->heap) {
			seterr(r, "out of memory (%zu bytes of input)", cap);
			return -PEBS_E_NOMEM;
		}
		/* short when it shrank: what is there */
		ssize_t k = lib_pread_full(fd, r->heap, cap, (uint64_t)start);
		if (k < 0) {
			seterr(r, "read error: %s", strerror(errno));
			return -PEBS_E_IO;
		}
		len = (size_t)k;
		/* consumed, as a pipe's bytes are: the next reader of the
		 * descriptor (a second "-") starts after them */
		lseek(fd, start + (off_t)len, SEEK_SET);
	} else {
		for (;;) {
			if (len == cap) {
				size_t nc = cap ? 2 * cap : (size_t)1 << 20;
				uint8_t *p = lib_big_realloc(r->heap, nc);
				if (!p) {
					seterr(r, "out of memory (%zu bytes of "
					       "input)", nc);
					return -PEBS_E_NOMEM;
				}
				r->heap = p;
				cap = nc;
			}
			size_t k = fread(r->heap + len, 1, cap - len, fp);
			len += k;
			if (k == 0)
				break;
		}
		if (ferror(fp)) {
			seterr(r, "read error: %s", strerror(errno));
			return -PEBS_E_IO;
		}
	}
	r->b = len ? r->heap : (const uint8_t *)"";
	r->len = len;
	return 0;
}

static int open_file_layout(struct pebs_perf_reader *r, struct feat_ctx *f)
{
	const uint8_t *b = r->b;
	if (r->len < 104) {
		seterr(r, "perf.data header truncated");
		return -PEBS_E_TRUNCATED;
	}
	uint64_t hsz = rd64(r, b + 8), asz = rd64(r, b + 16);
	uint64_t aoff = rd64(r, b + 24), alen = rd64(r, b + 32);
	uint64_t doff = rd64(r, b + 40), dlen = rd64(r, b + 48);
	if (hsz < 104 || asz < 64 + 16 || asz > 4096) {
		seterr(r, "bad perf.data header (size %llu, attr size %llu)",
		       (unsigned long long)hsz, (unsigned long long)asz);
		return -PEBS_E_FORMAT;
	}
	if (aoff > r->len || alen > r->len - aoff || alen / asz > MAX_ATTRS) {
		seterr(r, "attribute section outside the file");
		return -PEBS_E_TRUNCATED;
	}
	for (uint64_t i = 0; i < alen / asz; i++) {
		const uint8_t *p = b + aoff + i * asz;
		struct pattr a;
		parse_attr(r, p, asz - 16, &a);
		uint64_t ioff = rd64(r, p + asz - 16);
		uint64_t ilen = rd64(r, p + asz - 8);
		if (ioff > r->len || ilen > r->len - ioff) {
			seterr(r, "id section of event %llu outside the file",
			       (unsigned long long)i);
			return -PEBS_E_TRUNCATED;
		}
		if (add_attr(r, &a) < 0 ||
		    add_ids(r, r->nattrs - 1, b + ioff, ilen / 8) < 0)
			return -PEBS_E_NOMEM;
	}
	r->data_off = doff > r->len ? r->len : doff;
	/* A file cut short (or never finished): read what is there. */
	if (dlen > r->len - r->data_off || (dlen == 0 && doff < r->len)) {
		r->data_end = r->len;
		if (dlen)
			stop_at(r, r->len, PEBS_E_TRUNCATED,
				"data section extends past the end of file");
	} else {
		r->data_end = r->data_off + dlen;
	}
	/*
	 * Feature sections: one {offset,size} per set bit, after data.  Where
	 * the data section is whole, its end is known and so is the table's
	 * place: a copy cut short there loses host, cpu and topology
	 * metadata, which is damage as a cut data section is.  It is
	 * reported after every sample (they all precede it), naming the
	 * first feature lost.  A data size of 0 (perf never finished the
	 * file) leaves the table's place unknown: what is there is read, and
	 * nothing missing can be told.
	 */
	uint64_t ft = doff + dlen;
	int whole = dlen && ft == r->data_end;
	unsigned k = 0, nlost = 0, first = 0;
	uint64_t first_off = 0;
	const char *first_what = NULL;
	for (unsigned bit = 0; bit < 256; bit++) {
		uint64_t word = rd64(r, b + 72 + 8 * (bit / 64));
		if (!(word >> (bit % 64) & 1))
			continue;
		uint64_t so = ft + 16ull * k++;
		const char *what = NULL;
		uint64_t at = so, fo = 0, fl = 0;
		if (ft > r->len || so > r->len - 16) {
			what = "table entry";
		} else {
			fo = rd64(r, b + so);
			fl = rd64(r, b + so + 8);
			at = fo;
			if (fo > r->len || fl > r->len - fo)
				what = "section";
		}
		if (!what) {
			if (feature(r, f, bit, b + fo, fl) < 0)
				return -PEBS_E_NOMEM;
			continue;
		}
		if (!nlost++) {
			first = bit;
			first_off = at;
			first_what = what;
		}
	}
	if (nlost && whole)
		stop_feature(r, first_off, first, first_what, nlost, k);
	return 0;
}

/* Parses the input in r->b (header, attributes, features, pass 1). */
static int start(struct pebs_perf_reader *r)
{
	int e = 0;
	if (r->len < 16 || !pebs_perf_probe(r->b, r->len)) {
		seterr(r, r->len < 8 ? "input too short for a perf.data "
		       "file" : "not a perf.data file (no PERFILE2 magic)");
		return -PEBS_E_FORMAT;
	}
	uint64_t mg;
	memcpy(&mg, r->b, 8);
	r->swap = mg != MAGIC_LE;
	struct feat_ctx f;
	memset(&f, 0, sizeof(f));
	if (rd64(r, r->b + 8) == 16) {
		r->pipe = 1;
		r->data_off = 16;
		r->data_end = r->len;
	} else {
		/* its errors get the message below too (one was empty) */
		e = open_file_layout(r, &f);
	}
	if (e == 0)
		e = expand_compressed(r);
	if (e == 0)
		e = scan(r, &f);
	if (e == 0 && r->stop_err == PEBS_E_UNSUPPORTED && !r->nsamples) {
		seterr(r, "%s", r->stop_msg);
		e = -PEBS_E_UNSUPPORTED;
	}
	/* Pass 2 only: the vendor may come in band, before any sample. */
	for (size_t i = 0; e == 0 && i < r->nattrs; i++)
		r->attrs[i].wlat = pebs_perf_weight_is_lat(r->attrs[i].type,
				r->attrs[i].config, r->attrs[i].flags >> 15 & 3,
				f.cpuid);
	if (e == 0)
		e = plan_segments(r);
	if (e == 0)
		e = plan_spans(r);
	if (e == 0)
		e = build_meta(r, &f);
	feat_free(&f);
	if (e < 0 && !r->err[0])
		seterr(r, "%s", pebs_strerror(e));
	r->pos = r->data_off;
	return e;
}

void pebs_perf_reader_progress(const struct pebs_perf_reader *r,
			       uint64_t *done, uint64_t *total)
{
	/* pos starts at data_off once the scan is over */
	*total = r->data_end - r->data_off;
	*done = r->pos < r->data_off ? 0 : r->pos > r->data_end ? *total :
		r->pos - r->data_off;
}

static struct pebs_perf_reader *new_reader(
	const struct pebs_perf_reader_opts *opts)
{
	struct pebs_perf_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->meta = pebs_meta_new();
	if (!r->meta) {
		free(r);
		return NULL;
	}
	r->all_maps = opts && opts->all_maps;
	return r;
}

int pebs_perf_reader_open(struct pebs_perf_reader **rp, FILE *fp,
			  const char *name,
			  const struct pebs_perf_reader_opts *opts)
{
	(void)name;
	struct pebs_perf_reader *r = new_reader(opts);
	*rp = r;
	if (!r)
		return -PEBS_E_NOMEM;
	int e = load(r, fp);
	return e < 0 ? e : start(r);
}

int pebs_perf_reader_open_mem(struct pebs_perf_reader **rp, const void *buf,
			      size_t len,
			      const struct pebs_perf_reader_opts *opts)
{
	struct pebs_perf_reader *r = new_reader(opts);
	*rp = r;
	if (!r)
		return -PEBS_E_NOMEM;
	r->b = len ? buf : (const uint8_t *)"";
	r->len = len;
	return start(r);
}

/* ------------------------------------------------------------ pass 2 */

static int pend_cmp(const void *a, const void *b)
{
	const struct pend *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int pend_lt(const struct pend *x, const struct pend *y)
{
	return x->time != y->time ? x->time < y->time : x->off < y->off;
}

/* Merges the sorted runs a[0..na) and b[0..nb) into out. */
static void merge_runs(const struct pend *a, size_t na, const struct pend *b,
		       size_t nb, struct pend *out)
{
	size_t i = 0, j = 0, k = 0;
	while (i < na && j < nb)
		out[k++] = pend_lt(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(out + k, a + i, (na - i) * sizeof(*out));
	memcpy(out + k + na - i, b + j, (nb - j) * sizeof(*out));
}

/*
 * Sorts @a (@n entries) by time, then file offset.  A natural merge sort:
 * perf writes each CPU's ring buffer out in one piece, so a round is a few
 * long sorted runs, which this merges in O(n log runs) (O(n) when the round
 * is already in order) instead of comparing through qsort's callback.
 * @tmp holds @n entries.
 */
static void sort_pend(struct pend *a, size_t n, struct pend *tmp)
{
	size_t *runs = NULL, nruns = 0, cap = 0;
	size_t i = 0;
	while (i < n) {
		size_t j = i + 1;
		while (j < n && !pend_lt(&a[j], &a[j - 1]))
			j++;
		if (nruns == cap) {
			size_t nc = cap ? cap * 2 : 64;
			size_t *nr = realloc(runs, (nc + 1) * sizeof(*nr));
			if (!nr)
				break;
			runs = nr;
			cap = nc;
		}
		runs[nruns++] = i;
		i = j;
	}
	if (i < n || !runs) {
		/* out of memory for the run list, or nothing to do */
		free(runs);
		if (i < n)
			qsort(a, n, sizeof(*a), pend_cmp);
		return;
	}
	runs[nruns] = n;
	struct pend *src = a, *dst = tmp;
	while (nruns > 1) {
		size_t k = 0;
		for (size_t r = 0; r < nruns; r += 2) {
			size_t lo = runs[r], mid = runs[r + 1];
			size_t hi = r + 2 <= nruns ? runs[r + 2] : mid;
			if (r + 1 >= nruns) {
				memcpy(dst + lo, src + lo,
				       (n - lo) * sizeof(*dst));
			} else {
				merge_runs(src + lo, mid - lo, src + mid,
					   hi - mid, dst + lo);
			}
			runs[k++] = lo;
		}
		runs[k] = n;
		nruns = k;
		struct pend *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(runs);
}

/*
 * Sorts the pending samples and marks those up to @limit ready.  Only the
 * samples added since the last round are sorted, then merged with the
 * sorted rest: a file of many tiny rounds stays linear per round.
 */
static int flush_until(struct pebs_perf_reader *r, uint64_t limit, int all)
{
	/* drop what was emitted */
	if (r->emit) {
		memmove(r->pend, r->pend + r->emit,
			(r->npend - r->emit) * sizeof(*r->pend));
		r->npend -= r->emit;
		r->sorted -= r->emit < r->sorted ? r->emit : r->sorted;
		r->emit = 0;
	}
	if (r->npend > r->sorted) {
		if (r->captmp < r->npend) {
			free(r->ptmp);
			r->ptmp = malloc(r->cappend * sizeof(*r->ptmp));
			r->captmp = r->ptmp ? r->cappend : 0;
			if (!r->ptmp) {
				seterr(r, "out of memory");
				return -PEBS_E_NOMEM;
			}
		}
		/* The first @old entries are one sorted run already. */
		sort_pend(r->pend, r->npend, r->ptmp);
		r->sorted = r->npend;
	}
	size_t k = 0;
	if (all)
		k = r->npend;
	else
		while (k < r->npend && r->pend[k].time <= limit)
			k++;
	r->ready = k;
	return 0;
}

/*
 * PERF_RECORD_MISC_EXACT_IP: the kernel's word that the ip is the
 * instruction that caused the event (a PEBS EventingIP, or one fixed up),
 * which is what PEBS_SF_EVENTING_IP says; the export writes it back.
 */
static uint32_t exact_flag(const struct pebs_perf_reader *r,
			   const uint8_t *rec)
{
	return rd16(r, rec + 4) & (1u << 14) ? PEBS_SF_EVENTING_IP : 0;
}

/*
 * Whether the next sample to emit, @e, lies past the next rename that
 * starts a segment: then the segments it passes are passed, the metadata
 * is the new segment's, and 1 is returned (0: not; or -PEBS_E_NOMEM).
 */
static int new_segment(struct pebs_perf_reader *r, const struct pend *e)
{
	struct okey k = { r->cur_flush, e->time, e->off };
	size_t s = r->seg;
	while (s < r->nbounds && okey_cmp(r, &k, &r->bounds[s]) > 0)
		s++;
	if (s == r->seg)
		return 0;
	r->seg = s;
	if (seg_keys(r, s) < 0) {
		seterr(r, "out of memory");
		return -PEBS_E_NOMEM;
	}
	return 1;
}

/*
 * The next member of sample @e's group (gread()) to deliver it as: 1 with
 * its event (attr index) in *@ai, 0 when none is left (r->sub back to
 * 0), -PEBS_E_NOMEM.  Pass 1 checked the group's size (read_size()).
 */
static int gread_next(struct pebs_perf_reader *r, const struct pend *e,
		      unsigned *ai)
{
	const uint8_t *q = r->b + e->off + 8;
	size_t n = rd16(r, q - 2) - 8u;
	const struct pattr *a = &r->attrs[e->attr];
	uint64_t rf = a->read_format;
	size_t off = 8 * (size_t)__builtin_popcountll(a->sample_type &
						       S_BEFORE_READ);
	/*
	 * Checked again: pass 1 checked the record against the attr it
	 * knew then, and an attr read later (HEADER_ATTR) may take its id.
	 * A group that does not fit its record gives nothing.
	 */
	size_t end = off;
	if (off > n || read_size(a, r, q, n, &end) < 0) {
		r->sub = 0;
		return 0;
	}
	uint64_t nr = rd64(r, q + off);
	size_t per = 8 * (2 + !!(rf & 16));	/* value, id, [lost] */
	off += 8 * (1 + !!(rf & 1) + !!(rf & 2));
	while (r->sub < nr) {
		const uint8_t *v = q + off + per * r->sub++;
		uint64_t *x = ht_slot(&r->ids, rd64(r, v + 8), 0);
		if (!x)
			continue;
		uint64_t *last = ht_slot(&r->rlast, rd64(r, v + 8), 1);
		if (!last) {
			seterr(r, "out of memory");
			return -PEBS_E_NOMEM;
		}
		uint64_t grew = rd64(r, v) - *last;
		*last = rd64(r, v);
		if (grew) {
			*ai = (unsigned)*x;
			return 1;
		}
	}
	r->sub = 0;
	return 0;
}

/*
 * Whether a new segment starts before pend[emit] (new_segment()): 1 with
 * @it the PEBS_PERF_SEGMENT item, 0, or -PEBS_E_NOMEM.  Both reader APIs
 * ask before each sample.
 */
static int segment_item(struct pebs_perf_reader *r,
			struct pebs_perf_item *it)
{
	if (r->seg >= r->nbounds)
		return 0;
	int k = new_segment(r, &r->pend[r->emit]);
	if (k > 0) {
		memset(it, 0, sizeof(*it));
		it->kind = PEBS_PERF_SEGMENT;
	}
	return k;
}

/*
 * The event (attr index) of the next sample of pend[emit] into *@ai: 1,
 * emit moved past the entry when it has no more (always, but for a group
 * read); 0 when it had none left (emit moved on); -PEBS_E_NOMEM.
 */
static int next_event(struct pebs_perf_reader *r, unsigned *ai)
{
	const struct pend *e = &r->pend[r->emit];
	*ai = e->attr;
	if (!gread(&r->attrs[e->attr])) {
		r->emit++;
		return 1;
	}
	int g = gread_next(r, e, ai);
	r->emit += !g;
	return g;
}

/*
 * The next sample of pend[emit] into @it: 1, or 0 when that entry has
 * none left (a group read, gread_next()) and the next is due; or
 * -PEBS_E_NOMEM.
 */
static int emit(struct pebs_perf_reader *r, struct pebs_perf_item *it)
{
	const struct pend *e = &r->pend[r->emit];
	unsigned ai;
	int g = next_event(r, &ai);
	if (g <= 0)
		return g;
	const uint8_t *p = r->b + e->off;
	uint16_t sz = rd16(r, p + 6);
	memset(it, 0, sizeof(*it));
	it->kind = PEBS_PERF_SAMPLE;
	parse_sample(r, p + 8, sz - 8, &r->attrs[e->attr], &it->s, NULL);
	it->s.event = ai;
	it->s.flags |= exact_flag(r, p);
	it->event = pebs_perf_reader_event(r, ai);
	return 1;
}

/*
 * Reads records until samples are ready to emit (returns 0), a lost record
 * was read into @it (returns 1), the input ended (returns 2) or an error
 * (negative).
 */
static int advance(struct pebs_perf_reader *r, struct pebs_perf_item *it)
{
	while (r->emit >= r->ready) {
		if (r->done) {
			if (r->stop_err) {
				seterr(r, "%s", r->stop_msg);
				return -r->stop_err;
			}
			return 2;
		}
		uint64_t end = r->stop_err ? r->stop : r->data_end;
		if (r->pos >= end) {
			r->done = 1;
			r->cur_flush = r->nflush;
			if (flush_until(r, 0, 1) < 0)
				return -PEBS_E_NOMEM;
			continue;
		}
		/* scan() validated every record before r->stop */
		const uint8_t *p = r->b + r->pos;
		uint32_t type = rd32(r, p);
		uint16_t sz = rd16(r, p + 6);
		uint64_t extra = 0;
		extra_size(r, type, p, sz, &extra);
		if (sz < 8 || extra > end - r->pos - sz) {
			/* cannot happen after scan(); never loop on it */
			r->pos = end;
			continue;
		}
		uint64_t off = r->pos;
		r->pos += sz + extra;
		if (type == 9) {
			size_t ai;
			if (sample_attr(r, p + 8, sz - 8, &ai) != 0)
				continue;	/* unknown id: counted */
			/* Only the time is needed to sort: parse the rest
			 * when the sample is emitted. */
			long to = r->attrs[ai].lay.time;
			uint64_t time = untimed(to >= 0 &&
					(size_t)to + 8 <= sz - 8u ?
					rd64(r, p + 8 + to) : 0);
			if (room(&r->pend, &r->cappend, r->npend,
				 sizeof(*r->pend), 4096)) {
				seterr(r, "out of memory");
				return -PEBS_E_NOMEM;
			}
			r->pend[r->npend++] = (struct pend){ time, off,
							     (uint32_t)ai };
			if (time > r->cur_max)
				r->cur_max = time;
		} else if (type == 68) {	/* FINISHED_ROUND */
			r->cur_flush = r->nflush++;
			if (flush_until(r, r->prev_max, 0) < 0)
				return -PEBS_E_NOMEM;
			r->prev_max = r->cur_max;
		} else if (type == 2 || type == 13) {
			size_t n = sz - 8;
			if (n < (type == 2 ? 16u : 8u))
				continue;
			memset(it, 0, sizeof(*it));
			it->kind = PEBS_PERF_LOST;
			it->lost = rd64(r, p + 8 + (type == 2 ? 8 : 0));
			sample_id(r, p + 8, n, &it->time, &it->cpu);
			return 1;
		}
	}
	return 0;
}

int pebs_perf_reader_next(struct pebs_perf_reader *r,
			  struct pebs_perf_item *it)
{
	for (;;) {
		int e = advance(r, it);
		if (e)
			return e == 2 ? 0 : e;
		if ((e = segment_item(r, it)))
			return e;
		/* 0: a group read that gave no more samples */
		e = emit(r, it);
		if (e)
			return e;
	}
}

/*
 * Sample @i of @b from body @q of attr @a with a fixed layout (its size
 * checked): the same values parse_sample() gives, read at known offsets.
 */
static void fast_sample(const struct pebs_perf_reader *r, const uint8_t *q,
			const struct pattr *a, struct pebs_batch *b, size_t i)
{
	const struct flay *l = &a->lay;
	b->c64[PEBS_COL_IP][i] = l->ip >= 0 ? rd64(r, q + l->ip) : 0;
	b->c32[PEBS_COL_PID][i] = l->tid >= 0 ? rd32(r, q + l->tid) : 0;
	b->c32[PEBS_COL_TID][i] = l->tid >= 0 ? rd32(r, q + l->tid + 4) : 0;
	b->c64[PEBS_COL_TIME][i] = l->time >= 0 ? rd64(r, q + l->time) : 0;
	b->c64[PEBS_COL_ADDR][i] = l->addr >= 0 ? rd64(r, q + l->addr) : 0;
	b->c32[PEBS_COL_CPU][i] = l->cpu >= 0 ? rd32(r, q + l->cpu) : 0;
	uint64_t w = l->weight >= 0 ? rd64(r, q + l->weight) : 0;
	if (!a->wlat) {
		b->c32[PEBS_COL_LAT][i] = 0;
		b->c32[PEBS_COL_INS_LAT][i] = 0;
	} else if (a->sample_type & PEBS_PERF_S_WEIGHT_STRUCT) {
		b->c32[PEBS_COL_LAT][i] = (uint32_t)w;
		b->c32[PEBS_COL_INS_LAT][i] = (uint16_t)(w >> 32);
	} else {
		b->c32[PEBS_COL_LAT][i] = w > UINT32_MAX ? UINT32_MAX :
					  (uint32_t)w;
		b->c32[PEBS_COL_INS_LAT][i] = 0;
	}
	b->c64[PEBS_COL_DSRC][i] = l->dsrc >= 0 ? rd64(r, q + l->dsrc) : 0;
	pebs_perf_txn_to_tuning(l->tsx >= 0 ? rd64(r, q + l->tsx) : 0,
				&b->c64[PEBS_COL_TSX][i],
				&b->c64[PEBS_COL_REG0 + PEBS_REG_RAX][i]);
	if (!a->wlat)
		b->c64[PEBS_COL_TSX][i] |= (uint32_t)w;
	b->c64[PEBS_COL_PHYS_ADDR][i] = l->phys >= 0 ?
					rd64(r, q + l->phys) : 0;
	b->c32[PEBS_COL_FLAGS][i] = l->phys >= 0 ? PEBS_SF_PHYS : 0;
}

/* The columns that samples of attr @a may set. */
static uint64_t attr_cols(const struct pattr *a)
{
	uint64_t st = a->sample_type;
	uint64_t m = 1ull << PEBS_COL_EVENT;
	m |= (st & PEBS_PERF_S_IP) ? 1ull << PEBS_COL_IP : 0;
	m |= (st & PEBS_PERF_S_TID) ?
	     1ull << PEBS_COL_PID | 1ull << PEBS_COL_TID : 0;
	m |= (st & PEBS_PERF_S_TIME) ? 1ull << PEBS_COL_TIME : 0;
	m |= (st & PEBS_PERF_S_ADDR) ? 1ull << PEBS_COL_ADDR : 0;
	m |= (st & PEBS_PERF_S_CPU) ? 1ull << PEBS_COL_CPU : 0;
	if (!a->wlat)
		m |= (st & (PEBS_PERF_S_WEIGHT | PEBS_PERF_S_WEIGHT_STRUCT)) ?
		     1ull << PEBS_COL_TSX : 0;
	else
		m |= (st & PEBS_PERF_S_WEIGHT_STRUCT) ?
		     1ull << PEBS_COL_LAT | 1ull << PEBS_COL_INS_LAT :
		     (st & PEBS_PERF_S_WEIGHT) ? 1ull << PEBS_COL_LAT : 0;
	m |= (st & PEBS_PERF_S_DATA_SRC) ? 1ull << PEBS_COL_DSRC : 0;
	m |= (st & PEBS_PERF_S_TRANSACTION) ? 1ull << PEBS_COL_TSX |
	     1ull << (PEBS_COL_REG0 + PEBS_REG_RAX) : 0;
	m |= (st & PEBS_PERF_S_PHYS_ADDR) ? 1ull << PEBS_COL_PHYS_ADDR : 0;
	m |= 1ull << PEBS_COL_FLAGS;	/* PEBS_SF_EVENTING_IP from misc */
	return m;
}

int pebs_perf_reader_read(struct pebs_perf_reader *r, struct pebs_batch *b,
			  struct pebs_perf_item *it)
{
	it->kind = 0;
	uint32_t map[MAX_ATTRS];
	uint64_t cols = 0;
	for (unsigned i = 0; i < r->nattrs; i++) {
		int id = pebs_batch_intern(b, pebs_perf_reader_event(r, i));
		if (id < 0)
			return id;
		map[i] = (uint32_t)id;
		cols |= attr_cols(&r->attrs[i]);
	}
	/* Only these columns are written; the caller's batch has zeros in
	 * the others (see pebs_perf.h), so encoders may skip them. */
	if (b->n == 0)
		b->dirty = cols;
	else
		b->dirty |= cols;
	struct pebs_sample s;
	while (b->n < b->cap) {
		int e = advance(r, it);
		if (e == 1)
			break;
		if (e == 2)
			return (int)b->n;
		if (e < 0)
			return e;
		while (b->n < b->cap && r->emit < r->ready) {
			int g = segment_item(r, it);
			if (g)
				return g < 0 ? g : (int)b->n;
			const struct pend *pe = &r->pend[r->emit];
			const struct pattr *a = &r->attrs[pe->attr];
			unsigned ai;
			g = next_event(r, &ai);
			if (g < 0)
				return g;
			if (!g)
				continue;
			const uint8_t *p = r->b + pe->off;
			uint16_t sz = rd16(r, p + 6);
			size_t i = b->n++;
			b->c32[PEBS_COL_EVENT][i] = map[ai];
			if (a->lay.fixed && sz - 8u >= a->lay.size) {
				fast_sample(r, p + 8, a, b, i);
				b->c32[PEBS_COL_FLAGS][i] |= exact_flag(r, p);
				continue;
			}
			parse_sample(r, p + 8, sz - 8, a, &s, NULL);
			b->c64[PEBS_COL_TIME][i] = s.time;
			b->c32[PEBS_COL_CPU][i] = s.cpu;
			b->c32[PEBS_COL_PID][i] = s.pid;
			b->c32[PEBS_COL_TID][i] = s.tid;
			b->c64[PEBS_COL_IP][i] = s.ip;
			b->c64[PEBS_COL_ADDR][i] = s.addr;
			b->c32[PEBS_COL_LAT][i] = s.lat;
			b->c32[PEBS_COL_INS_LAT][i] = s.ins_lat;
			b->c64[PEBS_COL_DSRC][i] = s.dsrc;
			b->c64[PEBS_COL_TSX][i] = s.tsx;
			b->c64[PEBS_COL_REG0 + PEBS_REG_RAX][i] =
				s.regs[PEBS_REG_RAX];
			b->c64[PEBS_COL_PHYS_ADDR][i] = s.phys_addr;
			b->c32[PEBS_COL_FLAGS][i] = s.flags |
						      exact_flag(r, p);
		}
	}
	return (int)b->n;
}

/* ---------------------------------------------------------- accessors */

const struct pebs_meta *pebs_perf_reader_meta(const struct pebs_perf_reader *r)
{
	return r->meta;
}

unsigned pebs_perf_reader_nevents(const struct pebs_perf_reader *r)
{
	return (unsigned)r->nattrs;
}

const char *pebs_perf_reader_event(const struct pebs_perf_reader *r,
				   unsigned i)
{
	if (i >= r->nattrs || !r->evname || !r->evname[i])
		return NULL;
	return r->evname[i];
}

const char *pebs_perf_reader_errmsg(const struct pebs_perf_reader *r)
{
	return r->err;
}

void pebs_perf_reader_close(struct pebs_perf_reader *r)
{
	if (!r)
		return;
	lib_big_free(r->heap);
	free(r->expanded);
	for (size_t i = 0; i < r->nattrs; i++) {
		if (r->evname)
			free(r->evname[i]);
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	free(r->evname);
	free(r->attrs);
	ht_free(&r->ids);
	ht_free(&r->rlast);
	ht_free(&r->plast);
	ht_free(&r->pidmap);
	ht_free(&r->sampled);
	ht_free(&r->threads);
	ht_free(&r->tcomm);
	ht_free(&r->comm);
	ht_free(&r->trng);
	ht_free(&r->prng);
	free(r->cev);
	free(r->rng);
	free(r->bounds);
	free(r->ends);
	ht_free(&r->endix);
	free(r->forks);
	ht_free(&r->forkix);
	free(r->todo);
	free(r->tsp);
	free(r->act);
	free(r->maps);
	for (size_t i = 0; i < r->npool; i++)
		free(r->pool[i]);
	free(r->pool);
	for (size_t i = 0; i < r->nbids; i++)
		free(r->bids[i].path);
	free(r->bids);
	free(r->pend);
	free(r->ptmp);
	pebs_meta_free(r->meta);
	free(r);
}
