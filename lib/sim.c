/*
 * sim.c - the simulated PMU: register file, counting, PEBS assists
 * (pebs_sim.h; formats/capture.md).  The record layouts are in sim_rec.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_ds.h"
#include "pebs_plan.h"
#include "pebs_sim.h"
#include "sim_int.h"

static void fail(struct pebs_sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct pebs_sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

int pebs_sim_new(struct pebs_sim **out, const struct pebs_sim_opts *o)
{
	struct pebs_sim *s;

	*out = NULL;
	if (!o || !o->uarch || o->ncpus == 0 ||
	    o->ncpus > PEBS_PLAN_MAX_CPUS ||
	    o->uarch->n_gp > PEBS_SIM_MAX_GP || o->uarch->n_fixed > 16)
		return -PEBS_E_INVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -PEBS_E_NOMEM;
	s->cpu = calloc(o->ncpus, sizeof(*s->cpu));
	if (!s->cpu) {
		free(s);
		return -PEBS_E_NOMEM;
	}
	s->u = o->uarch;
	s->ncpus = o->ncpus;
	s->tag_rate = o->tag_rate ? o->tag_rate : PEBS_SIM_TAG_RATE;
	s->gp_mask = o->uarch->gp_width >= 64 ? ~0ull :
		     (1ull << o->uarch->gp_width) - 1;
	s->fx_mask = o->uarch->fixed_width >= 64 ? ~0ull :
		     (1ull << o->uarch->fixed_width) - 1;
	for (unsigned i = 0; i < o->ncpus; i++) {
		/* xorshift needs a non-zero state; splitmix the seed. */
		uint64_t z = o->seed + 0x9e3779b97f4a7c15ull * (i + 1);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		s->cpu[i].rng = (z ^ (z >> 31)) | 1;
	}
	*out = s;
	return 0;
}

void pebs_sim_free(struct pebs_sim *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nmem; i++) {
		free(s->mem[i].ptr);
		free(s->mem[i].own);
	}
	free(s->cpu);
	free(s);
}

const char *pebs_sim_errmsg(const struct pebs_sim *s)
{
	return s->err;
}

const struct pebs_uarch *pebs_sim_uarch(const struct pebs_sim *s)
{
	return s->u;
}

unsigned pebs_sim_ncpus(const struct pebs_sim *s)
{
	return s->ncpus;
}

int pebs_sim_alloc(struct pebs_sim *s, size_t size, void **ptr,
		   uint64_t *addr)
{
	size_t al = (size + 4095) & ~(size_t)4095;
	void *p;

	if (s->nmem == SIM_MAX_MEM || size == 0)
		return -PEBS_E_NOMEM;
	p = aligned_alloc(4096, al);
	if (!p)
		return -PEBS_E_NOMEM;
	memset(p, 0, al);
	s->mem[s->nmem].ptr = p;
	s->mem[s->nmem].addr = PEBS_SIM_MEM_BASE + s->mem_next;
	s->mem[s->nmem].size = al;
	/* A guard page between regions: an address one past a region never
	 * lands in the next one. */
	s->mem_next += al + 4096;
	*ptr = p;
	*addr = s->mem[s->nmem].addr;
	s->nmem++;
	return 0;
}

struct sim_mem *sim_region(const struct pebs_sim *s, uint64_t addr)
{
	for (unsigned i = 0; i < s->nmem; i++)
		if (addr >= s->mem[i].addr &&
		    addr - s->mem[i].addr < s->mem[i].size)
			return (struct sim_mem *)&s->mem[i];
	return NULL;
}

size_t pebs_sim_owner(const struct pebs_sim *s, uint64_t addr, size_t len,
		      uint32_t *pid, uint32_t *tid)
{
	const struct sim_mem *m = sim_region(s, addr);
	const struct sim_owner *o;
	size_t off, run = 0;

	*pid = *tid = 0;
	if (!m || !m->own || addr % 8)
		return 0;
	off = addr - m->addr;
	o = &m->own[off / 8];
	if (!o->size)
		return 0;
	*pid = o->pid;
	*tid = o->tid;
	while (run < len && off + run < m->size) {
		const struct sim_owner *x = &m->own[(off + run) / 8];
		if (!x->size || x->pid != o->pid || x->tid != o->tid ||
		    x->size > len - run)
			break;
		run += x->size;
	}
	return run;
}

uint8_t *sim_translate(const struct pebs_sim *s, uint64_t addr, size_t len)
{
	for (unsigned i = 0; i < s->nmem; i++) {
		const struct sim_mem *m = &s->mem[i];
		if (addr >= m->addr && addr - m->addr <= m->size &&
		    len <= m->size - (addr - m->addr))
			return (uint8_t *)m->ptr + (addr - m->addr);
	}
	return NULL;
}

/* ----------------------------------------------------------- registers */

/* Valid bits of @msr on this profile; -1 when the MSR does not exist. */
static int msr_valid(const struct pebs_sim *s, uint32_t msr, uint64_t *valid,
		     int *ro)
{
	const struct pebs_uarch *u = s->u;
	uint64_t gp = (1ull << u->n_gp) - 1;
	uint64_t fx = (u->n_fixed ? ((1ull << u->n_fixed) - 1) : 0) << 32;

	*ro = 0;
	if (msr >= PEBS_MSR_PMC(0) && msr < PEBS_MSR_PMC(u->n_gp)) {
		*valid = ~0ull;	/* legacy: sign-extended from 31:0 */
		return 0;
	}
	if (msr >= PEBS_MSR_A_PMC(0) && msr < PEBS_MSR_A_PMC(u->n_gp) &&
	    (u->features & PEBS_UF_FULL_WIDTH)) {
		*valid = s->gp_mask;
		return 0;
	}
	if (msr >= PEBS_MSR_PERFEVTSEL(0) &&
	    msr < PEBS_MSR_PERFEVTSEL(u->n_gp)) {
		*valid = 0xffffffffull;
		if (u->features & PEBS_UF_TSX)
			*valid |= PEBS_EVTSEL_IN_TX | PEBS_EVTSEL_IN_TXCP;
		if (u->features & PEBS_UF_ADAPTIVE)
			*valid |= PEBS_EVTSEL_ADAPTIVE;
		return 0;
	}
	if (msr >= PEBS_MSR_FIXED_CTR(0) &&
	    msr < PEBS_MSR_FIXED_CTR(u->n_fixed)) {
		*valid = s->fx_mask;
		return 0;
	}
	switch (msr) {
	case PEBS_MSR_FIXED_CTRL:
		*valid = u->n_fixed ? (1ull << (4 * u->n_fixed)) - 1 : 0;
		if (u->features & PEBS_UF_ADAPTIVE)
			for (unsigned j = 0; j < u->n_fixed; j++)
				*valid |= 1ull << (32 + 4 * j);
		return 0;
	case PEBS_MSR_GLOBAL_STATUS:
		*ro = 1;
		*valid = ~0ull;
		return 0;
	case PEBS_MSR_GLOBAL_CTRL:
		*valid = gp | fx;
		return 0;
	case PEBS_MSR_GLOBAL_OVF:
		*valid = gp | fx | PEBS_STATUS_DS_THRESH | (1ull << 63);
		return 0;
	case PEBS_MSR_GLOBAL_SET:
		if (u->pmu_version < 4)
			return -1;
		*valid = gp | fx | PEBS_STATUS_DS_THRESH;
		return 0;
	case PEBS_MSR_PEBS_ENABLE:
		*valid = u->pebs_counters & gp;
		if (u->features & PEBS_UF_LL_EN)
			*valid |= (u->ldlat_counters & gp) << 32;
		else if (u->features & PEBS_UF_PEBS_ALL)
			*valid |= u->pebs_counters & PEBS_UARCH_FIXED_MASK;
		if (u->features & PEBS_UF_PSTORE)
			*valid |= PEBS_PE_PS_EN;
		return 0;
	case PEBS_MSR_DATA_CFG:
		if (!(u->features & PEBS_UF_ADAPTIVE))
			return -1;
		*valid = 0xfull | (0xffull << PEBS_DATACFG_LBR_SHIFT);
		return 0;
	case PEBS_MSR_LD_LAT:
		if (!(u->features & PEBS_UF_LDLAT))
			return -1;
		*valid = 0xffff;
		return 0;
	case PEBS_MSR_FRONTEND:
		if (!(u->features & PEBS_UF_FRONTEND))
			return -1;
		*valid = pebs_plan_fe_valid_mask(u);
		return 0;
	case PEBS_MSR_DS_AREA:
		*valid = ~0ull;
		return 0;
	case PEBS_MSR_PERF_CAP:
	case PEBS_MSR_MISC_ENABLE:
		*ro = 1;
		*valid = ~0ull;
		return 0;
	case PEBS_MSR_DEBUGCTL:
		*valid = 0x1ffc3;	/* LBR, BTF, TR..FREEZE_WHILE_SMM */
		return 0;
	}
	return -1;
}

static uint64_t perf_cap(const struct pebs_uarch *u)
{
	uint64_t v = (uint64_t)u->pebs_fmt << 8;
	if (u->features & PEBS_UF_TRAP)
		v |= 1ull << 6;
	v |= 1ull << 7;		/* PEBS_ARCH_REG */
	if (u->features & PEBS_UF_FULL_WIDTH)
		v |= 1ull << 13;
	if (u->features & PEBS_UF_ADAPTIVE)
		v |= 1ull << 14;
	return v;
}

int pebs_sim_rdmsr(struct pebs_sim *s, unsigned cpu, uint32_t msr,
		   uint64_t *v)
{
	struct sim_cpu *c;
	uint64_t valid;
	int ro;

	if (cpu >= s->ncpus) {
		fail(s, "CPU %u out of range (%u CPUs)", cpu, s->ncpus);
		return -PEBS_E_INVAL;
	}
	if (msr_valid(s, msr, &valid, &ro) < 0) {
		fail(s, "#GP: RDMSR 0x%x: no such MSR on %s", msr,
		     s->u->name);
		return -PEBS_E_INVAL;
	}
	c = &s->cpu[cpu];
	if (msr >= PEBS_MSR_PMC(0) && msr < PEBS_MSR_PMC(PEBS_SIM_MAX_GP))
		*v = c->pmc[msr - PEBS_MSR_PMC(0)];
	else if (msr >= PEBS_MSR_A_PMC(0) &&
		 msr < PEBS_MSR_A_PMC(PEBS_SIM_MAX_GP))
		*v = c->pmc[msr - PEBS_MSR_A_PMC(0)];
	else if (msr >= PEBS_MSR_PERFEVTSEL(0) &&
		 msr < PEBS_MSR_PERFEVTSEL(PEBS_SIM_MAX_GP))
		*v = c->evtsel[msr - PEBS_MSR_PERFEVTSEL(0)];
	else if (msr >= PEBS_MSR_FIXED_CTR(0) && msr < PEBS_MSR_FIXED_CTR(16))
		*v = c->fixed[msr - PEBS_MSR_FIXED_CTR(0)];
	else switch (msr) {
	case PEBS_MSR_FIXED_CTRL: *v = c->fixed_ctrl; break;
	case PEBS_MSR_GLOBAL_STATUS: *v = c->status; break;
	case PEBS_MSR_GLOBAL_CTRL: *v = c->ctrl; break;
	case PEBS_MSR_PEBS_ENABLE: *v = c->pebs_en; break;
	case PEBS_MSR_DATA_CFG: *v = c->data_cfg; break;
	case PEBS_MSR_LD_LAT: *v = c->ld_lat; break;
	case PEBS_MSR_FRONTEND: *v = c->fe; break;
	case PEBS_MSR_DS_AREA: *v = c->ds_area; break;
	case PEBS_MSR_PERF_CAP: *v = perf_cap(s->u); break;
	/* EMON available (7), BTS unavailable (11: never simulated). */
	case PEBS_MSR_MISC_ENABLE: *v = (1ull << 7) | (1ull << 11); break;
	case PEBS_MSR_DEBUGCTL: *v = c->debugctl; break;
	default: *v = 0; break;	/* write-only: OVF_CTRL, STATUS_SET */
	}
	return 0;
}

int pebs_sim_wrmsr(struct pebs_sim *s, unsigned cpu, uint32_t msr,
		   uint64_t v)
{
	struct sim_cpu *c;
	uint64_t valid;
	int ro;

	if (cpu >= s->ncpus) {
		fail(s, "CPU %u out of range (%u CPUs)", cpu, s->ncpus);
		return -PEBS_E_INVAL;
	}
	if (msr_valid(s, msr, &valid, &ro) < 0) {
		fail(s, "#GP: WRMSR 0x%x: no such MSR on %s", msr,
		     s->u->name);
		return -PEBS_E_INVAL;
	}
	if (ro) {
		fail(s, "#GP: WRMSR 0x%x: read-only", msr);
		return -PEBS_E_INVAL;
	}
	if (v & ~valid) {
		fail(s, "#GP: WRMSR 0x%x value 0x%llx: reserved bits 0x%llx",
		     msr, (unsigned long long)v,
		     (unsigned long long)(v & ~valid));
		return -PEBS_E_INVAL;
	}
	if (msr == PEBS_MSR_DS_AREA) {
		/* Non-canonical linear addresses #GP (48-bit). */
		uint64_t hi = v >> 47;
		if (hi != 0 && hi != 0x1ffff) {
			fail(s, "#GP: WRMSR IA32_DS_AREA 0x%llx: not "
			     "canonical", (unsigned long long)v);
			return -PEBS_E_INVAL;
		}
	}
	c = &s->cpu[cpu];
	/* Status writes change no counting configuration. */
	if (msr != PEBS_MSR_GLOBAL_OVF && msr != PEBS_MSR_GLOBAL_SET)
		c->dirty = 1;
	if (msr >= PEBS_MSR_PMC(0) && msr < PEBS_MSR_PMC(PEBS_SIM_MAX_GP)) {
		/* SDM 18.2.6: legacy writes take bits 31:0, sign-extended. */
		uint64_t x = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		c->pmc[msr - PEBS_MSR_PMC(0)] = x & s->gp_mask;
	} else if (msr >= PEBS_MSR_A_PMC(0) &&
		   msr < PEBS_MSR_A_PMC(PEBS_SIM_MAX_GP)) {
		c->pmc[msr - PEBS_MSR_A_PMC(0)] = v;
	} else if (msr >= PEBS_MSR_PERFEVTSEL(0) &&
		   msr < PEBS_MSR_PERFEVTSEL(PEBS_SIM_MAX_GP)) {
		c->evtsel[msr - PEBS_MSR_PERFEVTSEL(0)] = v;
	} else if (msr >= PEBS_MSR_FIXED_CTR(0) &&
		   msr < PEBS_MSR_FIXED_CTR(16)) {
		c->fixed[msr - PEBS_MSR_FIXED_CTR(0)] = v;
	} else switch (msr) {
	case PEBS_MSR_FIXED_CTRL: c->fixed_ctrl = v; break;
	case PEBS_MSR_GLOBAL_CTRL: c->ctrl = v; break;
	case PEBS_MSR_GLOBAL_OVF: c->status &= ~v; break;
	case PEBS_MSR_GLOBAL_SET: c->status |= v; break;
	case PEBS_MSR_PEBS_ENABLE: c->pebs_en = v; break;
	case PEBS_MSR_DATA_CFG: c->data_cfg = v; break;
	case PEBS_MSR_LD_LAT: c->ld_lat = v; break;
	case PEBS_MSR_FRONTEND: c->fe = v; break;
	case PEBS_MSR_DS_AREA: c->ds_area = v; break;
	case PEBS_MSR_DEBUGCTL: c->debugctl = v; break;
	}
	return 0;
}

/* ------------------------------------------------------------ counting */

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

static uint64_t ev_count(const struct pebs_sim *s, const struct sim_cpu *c,
			 const struct sim_ctr *k, const struct pebs_access *a,
			 int tagged);

/* Whether event @ev/@um counts from the access's kind and source alone
 * (see ev_count(): no flags, tagging, latency, front-end or cycles). */
static int ev_fast(unsigned ev, unsigned um)
{
	switch (ev) {
	case 0xc0: case 0xc2: case 0xd1: case 0xd2: case 0xd3:
		return 1;
	case 0x0b: case 0xcb:
		return um != 0x10;
	case 0xcd:
		return um != 0x01;
	case 0xd0:
		return (um & 0xf0) == 0x80;
	}
	return 0;
}

/* The table of a fast event, from ev_count() itself: the same answers. */
static uint64_t ev_table(const struct pebs_sim *s, const struct sim_cpu *c,
			 const struct sim_ctr *k)
{
	struct pebs_access a;
	uint64_t t = 0;

	memset(&a, 0, sizeof(a));
	for (unsigned kind = 0; kind < 4; kind++)
		for (unsigned src = 0; src < 16; src++) {
			a.kind = (uint8_t)kind;
			a.src = (uint8_t)src;
			if (ev_count(s, c, k, &a, 0))
				t |= 1ull << (kind * 16 + src);
		}
	return t;
}

/* Recomputes the list of counters that count from the registers. */
static void sim_config(struct pebs_sim *s, struct sim_cpu *c)
{
	c->nact = 0;
	for (unsigned x = 0; x < s->u->n_gp; x++) {
		uint64_t es = c->evtsel[x];
		struct sim_ctr *k;
		const struct pebs_uarch_event *ev;
		if (!(es & PEBS_EVTSEL_EN) || !(c->ctrl & (1ull << x)) ||
		    !(es & PEBS_EVTSEL_USR))
			continue;
		k = &c->act[c->nact++];
		k->idx = (uint8_t)x;
		k->event = (uint8_t)(es & 0xff);
		k->umask = (uint8_t)((es >> 8) & 0xff);
		ev = pebs_uarch_event_by_code(s->u, k->event, k->umask);
		k->kind = ev ? ev->kind : PEBS_EVK_OTHER;
		k->pebs = (c->pebs_en >> x) & 1 &&
			  (s->u->pebs_counters >> x) & 1;
		k->ll_ok = !(s->u->features & PEBS_UF_LL_EN) ||
			   ((c->pebs_en >> (32 + x)) & 1);
		k->fast = (uint8_t)ev_fast(k->event, k->umask);
		k->tab = k->fast ? ev_table(s, c, k) : 0;
	}
	c->dirty = 0;
}

static int is_l3(unsigned src)
{
	return src == PEBS_SRC_L3 || src == PEBS_SRC_L3_SNOOP_HIT ||
	       src == PEBS_SRC_L3_HITM;
}

static int beyond_l3(unsigned src)
{
	return src >= PEBS_SRC_REMOTE_FWD && src <= PEBS_SRC_UNCACHED;
}

/* How many events access @a is for counter @k (0 or 1; cycles more). */
static uint64_t ev_count(const struct pebs_sim *s, const struct sim_cpu *c,
			 const struct sim_ctr *k, const struct pebs_access *a,
			 int tagged)
{
	int ld = a->kind == PEBS_ACC_LOAD, st = a->kind == PEBS_ACC_STORE;
	unsigned um = k->umask, src = a->src;
	int glm = s->u->dsrc == PEBS_UDSRC_NONE &&
		  s->u->pebs_fmt == PEBS_FMT_SKL;

	switch (k->event) {
	case 0x3c:	/* CPU_CLK_UNHALTED.THREAD_P: non-precise */
		return a->cycle > c->last_cycle ? a->cycle - c->last_cycle : 0;
	case 0xc0:	/* INST_RETIRED.ANY_P / PREC_DIST */
	case 0xc2:	/* UOPS_RETIRED.ALL: one instruction per access */
		return 1;
	case 0x0b:	/* NHM MEM_INST_RETIRED */
		if (um == 0x10)
			return ld && tagged && k->ll_ok &&
			       a->lat > c->ld_lat;
		return (um & 1 && ld) || (um & 2 && st);
	case 0x0c:	/* NHM MEM_STORE_RETIRED.DTLB_MISS */
		return st && (a->flags & PEBS_ACC_STLB_MISS);
	case 0xcd:	/* MEM_TRANS_RETIRED */
		if (um == 0x01)
			return ld && tagged && k->ll_ok &&
			       a->lat > c->ld_lat;
		if (um == 0x02)	/* PRECISE_STORE / STORE_SAMPLE */
			return st;
		return 0;
	case 0xcb:	/* Core 2 MEM_LOAD_RETIRED */
		if (!ld)
			return 0;
		switch (um) {
		case 0x01: return src != PEBS_SRC_L1;
		case 0x02: return src != PEBS_SRC_L1 && src != PEBS_SRC_LFB;
		case 0x04: case 0x08:
			return src != PEBS_SRC_L1 && src != PEBS_SRC_LFB &&
			       src != PEBS_SRC_L2;
		case 0x10: return (a->flags & PEBS_ACC_STLB_MISS) != 0;
		}
		return 0;
	case 0xd0: {	/* MEM_UOPS_RETIRED / MEM_INST_RETIRED */
		int op = (um & 1 && ld) || (um & 2 && st);
		if (!op)
			return 0;
		switch (um & 0xf0) {
		case 0x80: return 1;
		case 0x10: return (a->flags & PEBS_ACC_STLB_MISS) != 0;
		case 0x20: return (a->flags & PEBS_ACC_LOCKED) != 0;
		case 0x40: return (a->flags & PEBS_ACC_SPLIT) != 0;
		}
		return 0;
	}
	case 0xd1:	/* MEM_LOAD_(UOPS_)RETIRED */
		if (!ld)
			return 0;
		switch (um) {
		case 0x01: return src == PEBS_SRC_L1;
		case 0x02: return src == PEBS_SRC_L2;
		case 0x04: return is_l3(src);
		case 0x08: return src != PEBS_SRC_L1;
		case 0x10: return src != PEBS_SRC_L1 && src != PEBS_SRC_LFB &&
				  src != PEBS_SRC_L2;
		case 0x20:
			if (glm)	/* GLM: HITM */
				return src == PEBS_SRC_L3_HITM ||
				       src == PEBS_SRC_REMOTE_HITM;
			return beyond_l3(src);
		case 0x40: return src == PEBS_SRC_LFB;
		case 0x80: return glm && (src == PEBS_SRC_LOCAL_DRAM ||
					  src == PEBS_SRC_REMOTE_DRAM);
		}
		return 0;
	case 0xd2:	/* MEM_LOAD_L3_HIT_RETIRED */
		if (!ld)
			return 0;
		return (um == 0x02 && src == PEBS_SRC_L3_SNOOP_HIT) ||
		       (um == 0x04 && src == PEBS_SRC_L3_HITM) ||
		       (um == 0x08 && src == PEBS_SRC_L3);
	case 0xd3:	/* MEM_LOAD_L3_MISS_RETIRED */
		if (!ld)
			return 0;
		return (um == 0x01 && src == PEBS_SRC_LOCAL_DRAM) ||
		       (um == 0x02 && src == PEBS_SRC_REMOTE_DRAM) ||
		       (um == 0x04 && src == PEBS_SRC_REMOTE_HITM) ||
		       (um == 0x08 && src == PEBS_SRC_REMOTE_FWD);
	case 0xc6:	/* FRONTEND_RETIRED with MSR_PEBS_FRONTEND */
		if (a->kind != PEBS_ACC_IFETCH)
			return 0;
		switch (c->fe & 0xff) {
		case 0x01: case 0x11:
			return (a->fe & PEBS_ACC_FE_DSB_MISS) != 0;
		case 0x12: return (a->fe & PEBS_ACC_FE_L1I_MISS) != 0;
		case 0x13: return (a->fe & PEBS_ACC_FE_L2_MISS) != 0;
		case 0x14: return (a->fe & PEBS_ACC_FE_ITLB_MISS) != 0;
		case 0x15: return (a->fe & PEBS_ACC_FE_STLB_MISS) != 0;
		case 0x06:
			return a->fe_bubbles >=
			       ((c->fe >> PEBS_FE_LATENCY_SHIFT) & 0xfff) &&
			       a->fe_width >=
			       ((c->fe >> PEBS_FE_WIDTH_SHIFT) & 7);
		}
		return 0;
	}
	return 0;
}

static void set_thresh(struct pebs_sim *s, struct sim_cpu *c, uint8_t *ds)
{
	uint64_t idx, th;

	(void)s;
	memcpy(&idx, ds + PEBS_DS_PEBS_INDEX, 8);
	memcpy(&th, ds + PEBS_DS_PEBS_THRESH, 8);
	if (idx >= th && !(c->status & PEBS_STATUS_DS_THRESH)) {
		/* An edge: one PMI until software clears bit 62. */
		c->status |= PEBS_STATUS_DS_THRESH;
		c->pmi = 1;
		c->st.pmis++;
	}
}

/* The PEBS assist for counters @bits (all overflowed together). */
static int assist(struct pebs_sim *s, struct sim_cpu *c, unsigned cpu,
		  uint64_t bits, const struct sim_ctr *first,
		   const struct pebs_access *a)
{
	uint8_t *ds;
	uint64_t idx, max, status_snap = c->status;
	size_t sz;
	unsigned n = 0;

	for (uint64_t m = bits; m; m &= m - 1)
		n++;	/* no popcnt instruction at -O2 without -mpopcnt */

	c->st.assists++;
	if (c->ds_for != c->ds_area || !c->ds_p) {
		c->ds_p = c->ds_area ? sim_translate(s, c->ds_area,
						     PEBS_DS_AREA_SIZE) : NULL;
		c->ds_for = c->ds_area;
	}
	ds = c->ds_p;
	if (!ds) {
		/* Real hardware would fault; the sim counts and goes on. */
		c->st.faults++;
		c->st.lost_samples += n;
		c->status &= ~bits;
		return 0;
	}
	memcpy(&idx, ds + PEBS_DS_PEBS_INDEX, 8);
	memcpy(&max, ds + PEBS_DS_PEBS_MAX, 8);
	sz = sim_rec_size(s, c, bits);
	if (idx > max || max - idx < sz) {
		/* SDM: at the absolute maximum the processor stops writing,
		 * without a signal.  Only the simulator can count this. */
		c->st.lost_records++;
		c->st.lost_samples += n;
	} else {
		struct sim_mem *m = c->rec_reg;
		uint8_t *p;
		if (m && idx >= m->addr && idx - m->addr <= m->size &&
		    sz <= m->size - (idx - m->addr)) {
			p = (uint8_t *)m->ptr + (idx - m->addr);
		} else {
			p = sim_translate(s, idx, sz);
			m = c->rec_reg = p ? sim_region(s, idx) : NULL;
			if (m && !m->own &&
			    !(m->own = calloc(m->size / 8, sizeof(*m->own))))
				/* without it, records lose their owner: the
				 * samples would name no thread */
				return -PEBS_E_NOMEM;
		}
		if (!p) {
			c->st.faults++;
			c->st.lost_samples += n;
		} else {
			sim_rec_write(s, c, cpu, p, sz, bits, status_snap,
				      first, a);
			if (m->own && (idx - m->addr) % 8 == 0)
				m->own[(idx - m->addr) / 8] = (struct sim_owner)
					{ a->pid, a->tid, (uint32_t)sz };
			idx += sz;
			memcpy(ds + PEBS_DS_PEBS_INDEX, &idx, 8);
			c->st.records++;
			set_thresh(s, c, ds);
		}
	}
	/* SDM 002: the assist clears the status bits of the counters that
	 * overflowed with PEBS enabled, then reloads each from its DS reset
	 * slot, in counter order (PMC0 first). */
	c->status &= ~bits;
	for (uint64_t m = bits; m; m &= m - 1) {
		unsigned x = (unsigned)__builtin_ctzll(m);
		uint64_t r;
		if (x >= s->u->n_gp)
			break;
		memcpy(&r, ds + PEBS_DS_GP_RESET(x), 8);
		c->pmc[x] = r & s->gp_mask;
	}
	return 0;
}

static int retire_one(struct pebs_sim *s, struct sim_cpu *c, unsigned cpu,
		      const struct pebs_access *a)
{
	int tagged = 0;
	uint64_t ovf = 0, pebs = 0;
	const struct sim_ctr *first = NULL;

	if (c->dirty)
		sim_config(s, c);
	c->st.retired++;
	if (a->kind == PEBS_ACC_LOAD && (s->u->features & PEBS_UF_LDLAT) &&
	    rng_next(&c->rng) % s->tag_rate == 0) {
		/* SDM 000: a tagged load updates the latency and data
		 * source the next load-latency record carries. */
		tagged = 1;
		c->st.tagged++;
		c->tl_addr = a->addr;
		c->tl_lat = a->lat;
		c->tl_src = a->src;
		c->tl_flags = a->flags;
		c->tl_valid = 1;
	}
	for (unsigned i = 0; i < c->nact; i++) {
		const struct sim_ctr *k = &c->act[i];
		uint64_t inc, v;
		if (k->fast && a->kind < 4 && a->src < 16)
			inc = (k->tab >> (a->kind * 16 + a->src)) & 1;
		else
			inc = ev_count(s, c, k, a, tagged);
		if (!inc)
			continue;
		v = c->pmc[k->idx] + inc;
		if (v > s->gp_mask) {
			ovf |= 1ull << k->idx;
			if (k->pebs) {
				pebs |= 1ull << k->idx;
				if (!first || k->idx < first->idx)
					first = k;
			} else if (c->evtsel[k->idx] & PEBS_EVTSEL_INT) {
				c->pmi = 1;
				c->st.pmis++;
			}
		}
		c->pmc[k->idx] = v & s->gp_mask;
	}
	c->last_cycle = a->cycle;
	if (!ovf)
		return 0;
	c->status |= ovf;
	return pebs ? assist(s, c, cpu, pebs, first, a) : 0;
}

int pebs_sim_retire(struct pebs_sim *s, const struct pebs_access *a,
		    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i].cpu < s->ncpus) {
			int e = retire_one(s, &s->cpu[a[i].cpu], a[i].cpu,
					   &a[i]);
			if (e < 0)
				return e;
		}
		s->cycle = a[i].cycle;
	}
	return 0;
}

int pebs_sim_pmi(struct pebs_sim *s, unsigned cpu)
{
	int p;
	if (cpu >= s->ncpus)
		return 0;
	p = s->cpu[cpu].pmi;
	s->cpu[cpu].pmi = 0;
	return p;
}

unsigned pebs_sim_pmi_count(const struct pebs_sim *s)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->ncpus; i++)
		n += s->cpu[i].pmi != 0;
	return n;
}

void pebs_sim_cpu_stats(const struct pebs_sim *s, unsigned cpu,
			struct pebs_sim_stats *st)
{
	if (cpu >= s->ncpus)
		memset(st, 0, sizeof(*st));
	else
		*st = s->cpu[cpu].st;
}

void pebs_sim_idle(struct pebs_sim *s, uint64_t cycle)
{
	if (cycle > s->cycle)
		s->cycle = cycle;
}

uint64_t pebs_sim_cycle(const struct pebs_sim *s)
{
	return s->cycle;
}
