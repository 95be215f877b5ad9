/*
 * backend_sim.c - the sim backend: the simulated PMU fed from an access
 * source.  wait() retires accesses until a CPU raises its threshold PMI,
 * one quantum of simulated time has passed, or the source ends.  A
 * simulated processor with nothing to retire for longer than a quantum
 * (a gap in a trace: the program slept) skips the idle time: simulated
 * time has no wall clock to wait for.
 */
#include <stdlib.h>
#include <string.h>

#include "backend_int.h"

#define SIM_CHUNK 4096

struct bk_sim {
	struct pebs_backend_sim_opts o;
	struct pebs_access buf[SIM_CHUNK];
	size_t pos, len;
	int ended;
};

static int s_rdmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		   uint64_t *v)
{
	struct bk_sim *p = b->priv;
	int r = pebs_sim_rdmsr(p->o.sim, (unsigned)cpu, msr, v);
	if (r < 0)
		bk_err(b, "CPU %d: %s", cpu, pebs_sim_errmsg(p->o.sim));
	return r;
}

static int s_wrmsr(struct pebs_backend *b, int cpu, uint32_t msr,
		   uint64_t v)
{
	struct bk_sim *p = b->priv;
	int r = pebs_sim_wrmsr(p->o.sim, (unsigned)cpu, msr, v);
	if (r < 0)
		bk_err(b, "CPU %d: %s", cpu, pebs_sim_errmsg(p->o.sim));
	return r;
}

static int s_ds_alloc(struct pebs_backend *b, size_t i, size_t size,
		      struct pebs_ds_mem *m)
{
	struct bk_sim *p = b->priv;
	int r;

	(void)i;
	r = pebs_sim_alloc(p->o.sim, PEBS_DS_AREA_SIZE, &m->area,
			   &m->area_addr);
	if (r == 0)
		r = pebs_sim_alloc(p->o.sim, size, &m->buf, &m->buf_addr);
	if (r < 0) {
		bk_err(b, "simulated memory: out of memory");
		return r;
	}
	m->buf_size = size;
	return 0;
}

static int s_wait(struct pebs_backend *b, int timeout_ms)
{
	struct bk_sim *p = b->priv;
	struct pebs_sim *sim = p->o.sim;
	uint64_t quantum = p->o.quantum ? p->o.quantum : PEBS_SIM_TSC_HZ / 1000;
	uint64_t until = pebs_sim_cycle(sim) + quantum;
	int pmi = 0, moved = 0;

	(void)timeout_ms;
	while (!p->ended) {
		size_t n = 0;
		if (p->pos == p->len) {
			long got = p->o.next(p->o.ctx, p->buf, SIM_CHUNK);
			/* a signal: the caller looks at its stop flag */
			if (got == -PEBS_E_AGAIN)
				break;
			if (got < 0) {
				bk_err(b, "access source failed");
				return (int)got;
			}
			if (got == 0) {
				p->ended = 1;
				break;
			}
			p->pos = 0;
			p->len = (size_t)got;
		}
		/*
		 * Idle up to the next access: the deadline is a quantum
		 * after it (else the cycle, and the deadline with it, would
		 * never move).  A stop cycle inside the gap still ends the
		 * capture, below.
		 */
		if (!moved && !pmi && p->buf[p->pos].cycle > until) {
			uint64_t next = p->buf[p->pos].cycle;
			until = next > UINT64_MAX - quantum ? UINT64_MAX :
				next + quantum;
		}
		moved = 1;
		/* Retire up to the first access past the deadline or the
		 * stop cycle, in slices so a PMI is seen promptly. */
		while (p->pos + n < p->len && n < 64) {
			uint64_t cy = p->buf[p->pos + n].cycle;
			if (p->o.stop_cycle && cy >= p->o.stop_cycle) {
				p->ended = 1;
				break;
			}
			if (cy > until)
				break;
			n++;
		}
		int e = pebs_sim_retire(sim, p->buf + p->pos, n);
		if (e < 0) {
			bk_err(b, "simulator: out of memory");
			return e;
		}
		p->pos += n;
		/* Stopped: the capture covered the time up to the stop
		 * cycle, not only up to the last access before it (in a
		 * gap, the program slept). */
		if (p->ended)
			pebs_sim_idle(sim, p->o.stop_cycle);
		if (!pmi && pebs_sim_pmi_count(sim)) {
			/* The interrupt is taken PEBS_SIM_PMI_LATENCY cycles
			 * later: the processor goes on retiring (and writing
			 * records into the reserve) meanwhile. */
			pmi = 1;
			until = pebs_sim_cycle(sim) + PEBS_SIM_PMI_LATENCY;
		}
		if (p->pos < p->len && p->buf[p->pos].cycle > until)
			break;
	}
	if (pebs_sim_pmi_count(sim)) {
		for (size_t i = 0; i < b->ncpus; i++)
			pebs_sim_pmi(sim, (unsigned)b->cpus[i]);
		return PEBS_BK_PMI;
	}
	return p->ended ? PEBS_BK_END : PEBS_BK_TIMEOUT;
}

static uint64_t s_lost(const struct pebs_backend *b, size_t i)
{
	const struct bk_sim *p = b->priv;
	struct pebs_sim_stats st;
	pebs_sim_cpu_stats(p->o.sim, (unsigned)b->cpus[i], &st);
	return st.lost_samples;
}

static uint64_t s_now(const struct pebs_backend *b)
{
	const struct bk_sim *p = b->priv;
	return pebs_sim_cycle(p->o.sim);
}

static void s_free(struct pebs_backend *b)
{
	free(b->priv);
}

static const struct bk_ops sim_ops = {
	.name = "sim",
	.caps = PEBS_BK_DS,
	.rdmsr = s_rdmsr,
	.wrmsr = s_wrmsr,
	.ds_alloc = s_ds_alloc,
	.wait = s_wait,
	.lost = s_lost,
	.now = s_now,
	.free = s_free,
};

int pebs_backend_open_sim(struct pebs_backend **out,
			  const struct pebs_backend_sim_opts *o)
{
	struct pebs_backend *b;
	struct bk_sim *p;
	unsigned n;
	int *cpus;

	*out = NULL;
	if (!o || !o->sim || !o->next)
		return -PEBS_E_INVAL;
	n = pebs_sim_ncpus(o->sim);
	cpus = malloc(n * sizeof(int));
	p = calloc(1, sizeof(*p));
	if (!cpus || !p) {
		free(cpus);
		free(p);
		return -PEBS_E_NOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		cpus[i] = (int)i;
	b = bk_new(&sim_ops, pebs_sim_uarch(o->sim), cpus, n);
	free(cpus);
	if (!b) {
		free(p);
		return -PEBS_E_NOMEM;
	}
	p->o = *o;
	b->priv = p;
	*out = b;
	return 0;
}
