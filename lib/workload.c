/*
 * workload.c - the access stream of pebs_workload.h: opens scenarios and
 * traces, interleaves threads in cycle order, runs every access through
 * the cache model (cache_model.c), adds metadata.
 *
 * Threads are pinned round-robin across sockets: thread i runs on socket
 * i % S, core (i / S) % C, i.e. cpu (i % S) * C + (i / S) % C.  A scenario
 * thread issues an access every `issue` cycles (plus 0-1 cycle of seeded
 * jitter), and a load stalls it for lat >> mlp_shift more cycles (how
 * much of the latency the out-of-order core cannot hide); an ifetch
 * stalls it for its front-end bubble.  The next access always comes from
 * the thread whose clock is lowest, so cycles never decrease.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture_int.h"
#include "workload_int.h"

#define MAX_THREADS 1024u

static const char *const names[] = {
	"false-sharing", "true-sharing", "streaming", "pointer-chase",
	"remote-numa", "store-heavy", "frontend", "mixed", NULL
};

uint64_t workload_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

const char *const *pebs_workload_names(void)
{
	return names;
}

static const struct workload_scen *find(const char *name)
{
	for (size_t i = 0; name && workload_scens[i]; i++)
		if (strcmp(workload_scens[i]->name, name) == 0)
			return workload_scens[i];
	return NULL;
}

const char *pebs_workload_describe(const char *name)
{
	const struct workload_scen *sc = find(name);
	return sc ? sc->desc : NULL;
}

static unsigned thread_cpu(const struct pebs_workload *w, size_t i)
{
	return (unsigned)(i % w->sockets) * w->cores +
	       (unsigned)(i / w->sockets % w->cores);
}

void pebs_workload_close(struct pebs_workload *w)
{
	if (!w)
		return;
	cache_model_free(w->cm);
	wtrace_close(w->tr);
	free(w->t);
	free(w->tids);
	free(w->path);
	free(w);
}

static int setup(struct pebs_workload **out,
		 const struct pebs_workload_opts *o)
{
	static const struct pebs_workload_opts zero;
	*out = NULL;
	if (!o)
		o = &zero;
	struct pebs_workload *w = calloc(1, sizeof(*w));
	if (!w)
		return -PEBS_E_NOMEM;
	w->sockets = o->sockets ? o->sockets : 2;
	w->cores = o->cores ? o->cores : 4;
	w->seed = o->seed;
	w->limit = o->accesses;
	w->nthreads = o->threads;
	int r = cache_model_new(&w->cm, w->sockets, w->cores, w->seed);
	if (r < 0) {
		free(w);
		return r;
	}
	*out = w;
	return 0;
}

int pebs_workload_open(struct pebs_workload **out, const char *name,
		       const struct pebs_workload_opts *opts)
{
	*out = NULL;
	const struct workload_scen *sc = find(name);
	if (!sc || (opts && opts->threads > MAX_THREADS))
		return -PEBS_E_INVAL;
	struct pebs_workload *w;
	int r = setup(&w, opts);
	if (r < 0)
		return r;
	w->sc = sc;
	if (!w->nthreads)
		w->nthreads = sc->threads;
	/*
	 * A mixed workload runs each part on two threads at most: a part's
	 * data are keyed on the thread number, and false-sharing's ninth
	 * thread would count on true-sharing's line.
	 */
	if (sc->parts && w->nthreads > sc->threads) {
		pebs_workload_close(w);
		return -PEBS_E_INVAL;
	}
	if (!w->limit)
		w->limit = sc->accesses;
	/* A plausible, seed-dependent process id; threads follow it. */
	w->pid = 2000 + (uint32_t)(w->seed % 30000);
	w->t = calloc(w->nthreads, sizeof(*w->t));
	if (!w->t) {
		pebs_workload_close(w);
		return -PEBS_E_NOMEM;
	}
	for (unsigned i = 0; i < w->nthreads; i++) {
		struct wthread *t = &w->t[i];
		t->idx = i;
		t->tid = w->pid + i;
		t->cpu = thread_cpu(w, i);
		t->rng = w->seed ^ (0xD1B54A32D192ED03ull * (i + 1));
		t->cycle = i;	/* threads start a cycle apart */
		t->sc = sc;
		if (sc->parts) {
			size_t np = 0;
			while (sc->parts[np])
				np++;
			t->sc = sc->parts[i / 2 % np];
		}
	}
	if (sc->init && (r = sc->init(w)) < 0) {
		pebs_workload_close(w);
		return r;
	}
	*out = w;
	return 0;
}

int workload_open_trace_fp(struct pebs_workload **out, FILE *fp, int own,
			   const char *name,
			   const struct pebs_workload_opts *opts)
{
	struct pebs_workload *w;
	*out = NULL;
	int r = setup(&w, opts);
	if (r >= 0 && !(w->path = strdup(name ? name : "-")))
		r = -PEBS_E_NOMEM;
	if (r < 0) {
		if (own)
			fclose(fp);
		pebs_workload_close(w);
		return r;
	}
	/*
	 * A malformed header is not an open failure: the caller could not
	 * read the message.  It comes back from the first
	 * pebs_workload_next(), with its line number.
	 */
	r = wtrace_open(&w->tr, fp, own, w->msg, sizeof(w->msg));
	if (r < 0)
		w->err = r;
	*out = w;
	return 0;
}

int pebs_workload_open_trace(struct pebs_workload **out, const char *path,
			     const struct pebs_workload_opts *opts)
{
	*out = NULL;
	if (!path)
		return -PEBS_E_INVAL;
	if (strcmp(path, "-") == 0)
		return workload_open_trace_fp(out, stdin, 0, path, opts);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -PEBS_E_IO;	/* errno says why */
	return workload_open_trace_fp(out, fp, 1, path, opts);
}

/* The next scenario access: the thread with the lowest clock issues. */
static void scen_one(struct pebs_workload *w, struct pebs_access *a)
{
	struct wthread *t = &w->t[0];
	for (unsigned i = 1; i < w->nthreads; i++)
		if (w->t[i].cycle < t->cycle)
			t = &w->t[i];
	memset(a, 0, sizeof(*a));
	t->sc->step(w, t, a);
	a->cycle = t->cycle;
	a->cpu = t->cpu;
	a->pid = w->pid;
	a->tid = t->tid;
	cache_model_access(w->cm, a);
	uint64_t cost = t->sc->issue + (workload_rand(&t->rng) & 1);
	if (a->kind == PEBS_ACC_LOAD)
		cost += a->lat >> t->sc->mlp_shift;
	else if (a->kind == PEBS_ACC_IFETCH)
		cost += a->fe_bubbles;
	t->cycle += cost;
}

/* Simulated cpu of trace thread @tid: round-robin by first appearance. */
static int tid_cpu(struct pebs_workload *w, uint32_t tid, unsigned *cpu)
{
	for (size_t i = 0; i < w->ntids; i++) {
		if (w->tids[i] == tid) {
			*cpu = thread_cpu(w, i);
			return 0;
		}
	}
	if (w->ntids == w->tids_cap) {
		size_t nc = w->tids_cap ? w->tids_cap * 2 : 16;
		uint32_t *n = realloc(w->tids, nc * sizeof(*n));
		if (!n)
			return -PEBS_E_NOMEM;
		w->tids = n;
		w->tids_cap = nc;
	}
	*cpu = thread_cpu(w, w->ntids);
	w->tids[w->ntids++] = tid;
	return 0;
}

static int trace_one(struct pebs_workload *w, struct pebs_access *a)
{
	if (w->have_pend) {
		*a = w->pend;
		w->have_pend = 0;
		cache_model_access(w->cm, a);
		return 1;
	}
	struct wtrace_rec r;
	int e = wtrace_next(w->tr, &r, w->msg, sizeof(w->msg));
	if (e <= 0)
		return e;
	unsigned cpu, ncpu = w->sockets * w->cores;
	if (r.cpu >= 0) {
		if ((unsigned)r.cpu >= ncpu) {
			snprintf(w->msg, sizeof(w->msg),
				 "line %llu: cpu %d is outside the simulated "
				 "machine (%u cpus)",
				 (unsigned long long)r.line, r.cpu, ncpu);
			return -PEBS_E_RANGE;
		}
		cpu = (unsigned)r.cpu;
	} else if ((e = tid_cpu(w, r.tid, &cpu)) < 0) {
		snprintf(w->msg, sizeof(w->msg), "out of memory");
		return e;
	}
	if (!w->have_t0) {
		w->t0 = r.time;
		w->have_t0 = 1;
	}
	uint64_t d = r.time - w->t0;
	memset(a, 0, sizeof(*a));
	a->cycle = wtrace_cycles(w->tr) ? d : cache_ns_to_cycles(d);
	a->cpu = cpu;
	a->pid = r.pid;
	a->tid = r.tid;
	a->ip = r.ip;
	a->addr = r.addr;
	a->size = r.size;
	a->kind = r.op == 'W' ? PEBS_ACC_STORE : PEBS_ACC_LOAD;
	if (r.op == 'U') {
		/* Atomic read-modify-write: a locked load, then its store. */
		a->flags = PEBS_ACC_LOCKED;
		w->pend = *a;
		w->pend.kind = PEBS_ACC_STORE;
		w->have_pend = 1;
	}
	cache_model_access(w->cm, a);
	return 1;
}

long pebs_workload_next(struct pebs_workload *w, struct pebs_access *a,
			size_t max)
{
	if (!w || (!a && max))
		return -PEBS_E_INVAL;
	if (w->again) {
		w->again = 0;
		return -PEBS_E_AGAIN;
	}
	size_t n = 0;
	while (n < max && !w->err) {
		if (w->limit && w->emitted >= w->limit)
			break;
		if (w->sc) {
			scen_one(w, &a[n]);
		} else {
			int r = trace_one(w, &a[n]);
			/* interrupted: not the trace's error, nothing lost;
			 * said after the accesses read before it */
			if (r == -PEBS_E_AGAIN && n) {
				w->again = 1;
				break;
			}
			if (r == -PEBS_E_AGAIN)
				return r;
			if (r < 0) {
				w->err = r;
				break;
			}
			if (r == 0)
				break;
		}
		n++;
		w->emitted++;
		if (cache_model_failed(w->cm)) {
			snprintf(w->msg, sizeof(w->msg),
				 "out of memory in the cache model");
			w->err = -PEBS_E_NOMEM;
		}
	}
	/* An error is reported after the accesses read before it. */
	if (n)
		return (long)n;
	return w->err;
}

const char *pebs_workload_errmsg(const struct pebs_workload *w)
{
	return w ? w->msg : "";
}

static int cpu_range(char *buf, size_t cap, unsigned lo, unsigned hi)
{
	if (lo == hi)
		return snprintf(buf, cap, "%u", lo);
	return snprintf(buf, cap, "%u-%u", lo, hi);
}

int pebs_workload_meta(const struct pebs_workload *w, struct pebs_meta *m)
{
	if (!w || !m)
		return -PEBS_E_INVAL;
	char k[64], v[32];
	unsigned ncpu = w->sockets * w->cores;
	int r = pebs_meta_setf(m, "topology.nr_cpus", "%u", ncpu);
	if (!r)
		r = pebs_meta_setf(m, "topology.sockets", "%u", w->sockets);
	for (unsigned s = 0; !r && s < w->sockets; s++) {
		snprintf(k, sizeof(k), "topology.node.%u.cpus", s);
		cpu_range(v, sizeof(v), s * w->cores, (s + 1) * w->cores - 1);
		r = pebs_meta_set(m, k, v);
	}
	for (unsigned c = 0; !r && c < ncpu; c++) {
		snprintf(k, sizeof(k), "topology.cpu.%u.socket", c);
		r = pebs_meta_setf(m, k, "%u", cache_model_socket(w->cm, c));
	}
	if (!r)
		r = pebs_meta_set(m, "workload.name", w->sc ? w->sc->name :
				  "trace");
	if (!r)
		r = pebs_meta_set(m, "workload.description", w->sc ?
				  w->sc->desc :
				  "recorded accesses of a program");
	if (!r)
		r = pebs_meta_setf(m, "workload.seed", "%llu",
				   (unsigned long long)w->seed);
	if (!r)
		r = pebs_meta_setf(m, "workload.machine",
				   "%u sockets x %u cores, L1D 32K/8w, "
				   "L2 1M/16w, L3 %uM/16w per socket "
				   "(non-inclusive), first-touch 4K pages",
				   w->sockets, w->cores, 2 * w->cores);
	if (w->sc) {
		if (!r)
			r = pebs_meta_setf(m, "workload.threads", "%u",
					   w->nthreads);
		if (!r)
			r = pebs_meta_setf(m, "workload.pid", "%u", w->pid);
		/* a mixed workload lists its parts' instructions */
		const struct workload_scen *one[] = { w->sc, NULL };
		const struct workload_scen *const *ps = w->sc->parts ?
							w->sc->parts : one;
		size_t n = 0;
		for (; !r && *ps; ps++)
			for (size_t i = 0; !r && (*ps)->ips[i].ip; i++, n++) {
				const struct workload_ip *ip = &(*ps)->ips[i];
				snprintf(k, sizeof(k), "workload.ips.%zu.ip",
					 n);
				r = pebs_meta_setf(m, k, "0x%llx",
						   (unsigned long long)ip->ip);
				snprintf(k, sizeof(k), "workload.ips.%zu.name",
					 n);
				if (!r)
					r = pebs_meta_set(m, k, ip->name);
			}
		return r;
	}
	if (!r)
		r = pebs_meta_set(m, "workload.path", w->path);
	if (!r && w->tr && *wtrace_command(w->tr))
		r = pebs_meta_set(m, "workload.command",
				  wtrace_command(w->tr));
	if (!r && w->tr) {
		/* pebs-import's keys and exclusions, build-ids from the
		 * trace's build-id lines or else from the files. */
		struct cmaps cm = { 0 };
		for (size_t i = 0; !r && i < wtrace_nmaps(w->tr); i++) {
			const struct wtrace_map *mp = wtrace_map(w->tr, i);
			r = cmaps_add(&cm, (int32_t)mp->pid, mp->start,
				      mp->end, mp->pgoff, mp->path, mp->bid);
			r = r < 0 ? r : 0;
		}
		if (!r)
			r = cmaps_meta(&cm, m);
		cmaps_free(&cm);
	}
	return r;
}
