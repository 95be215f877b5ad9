/*
 * sim_rec.c - PEBS records of the simulated PMU, in each profile's exact
 * byte layout (formats/raw-records.md section 1, the inverse of lib/raw.c),
 * and the data-source encoding (the inverse of pebs_udsrc_decode()).
 */
#include <string.h>

#include "pebs_ds.h"
#include "pebs_plan.h"
#include "sim_int.h"

uint64_t pebs_sim_encode_dsrc(enum pebs_udsrc_variant v, unsigned src,
			      unsigned flags)
{
	/* The kernel's "skl" patch re-uses 0xA-0xD (formats/data-source.md
	 * 3.3): remote forward/HITM become C/D, so local and remote DRAM
	 * move to A (local, shared) and B (remote, snoop none). */
	int skl = v == PEBS_UDSRC_SKL || v == PEBS_UDSRC_SKX ||
		  v == PEBS_UDSRC_GLC;
	uint64_t e;

	switch (src) {
	case PEBS_SRC_L1: e = 0x1; break;
	case PEBS_SRC_LFB: e = 0x2; break;
	case PEBS_SRC_L2: e = 0x3; break;
	case PEBS_SRC_L3: e = 0x4; break;
	case PEBS_SRC_L3_SNOOP_HIT: e = 0x5; break;
	case PEBS_SRC_L3_HITM: e = 0x6; break;
	case PEBS_SRC_REMOTE_FWD: e = skl ? 0xc : 0x8; break;
	case PEBS_SRC_REMOTE_HITM: e = skl ? 0xd : 0x9; break;
	case PEBS_SRC_LOCAL_DRAM: e = skl ? 0xa : 0xc; break;
	case PEBS_SRC_REMOTE_DRAM: e = skl ? 0xb : 0xd; break;
	/* NHM's 0xE is reserved: the nearest it can say is 0, "unknown
	 * L3 miss". */
	case PEBS_SRC_IO: e = v == PEBS_UDSRC_NHM ? 0x0 : 0xe; break;
	case PEBS_SRC_UNCACHED: e = 0xf; break;
	default: e = 0x0; break;
	}
	if (v == PEBS_UDSRC_NONE)
		return 0;
	/* NHM/WSM's field is the 4-bit source alone: the STLB-miss and
	 * lock bits came with Sandy Bridge (SDM 18.9.4; formats/
	 * data-source.md: reported NA). */
	if (v == PEBS_UDSRC_NHM)
		return e;
	if (flags & PEBS_ACC_STLB_MISS)
		e |= 0x10;
	if (flags & PEBS_ACC_LOCKED)
		e |= 0x20;
	return e;
}

/* MSR_PEBS_DATA_CFG groups of a record for counters @bits: the kernel
 * sets PERFEVTSEL.ADAPTIVE on every PEBS event; a counter without it gets
 * the basic group only. */
static uint64_t rec_groups(const struct pebs_sim *s, const struct sim_cpu *c,
			   uint64_t bits)
{
	for (unsigned x = 0; x < s->u->n_gp; x++)
		if ((bits >> x) & 1 &&
		    (c->evtsel[x] & PEBS_EVTSEL_ADAPTIVE))
			return c->data_cfg;
	return 0;
}

size_t sim_rec_size(const struct pebs_sim *s, const struct sim_cpu *c,
		    uint64_t bits)
{
	if (!(s->u->features & PEBS_UF_ADAPTIVE))
		return s->u->rec_size;
	return pebs_ds_record_size(s->u, rec_groups(s, c, bits));
}

/* Memory fields (address, data source / store status, latency) of the
 * record, from the highest-priority counter's event. */
static void mem_fields(const struct pebs_sim *s, const struct sim_cpu *c,
		       const struct sim_ctr *k, const struct pebs_access *a,
		       uint64_t *addr, uint64_t *dse, uint64_t *lat)
{
	int mem = a->kind == PEBS_ACC_LOAD || a->kind == PEBS_ACC_STORE;
	enum pebs_udsrc_variant v = s->u->dsrc;

	*addr = *dse = *lat = 0;
	switch (k->kind) {
	case PEBS_EVK_LOAD_LATENCY:
		if (c->tl_valid) {
			*addr = c->tl_addr;
			*dse = pebs_sim_encode_dsrc(v, c->tl_src,
						    c->tl_flags);
			*lat = c->tl_lat;
		}
		break;
	case PEBS_EVK_PRECISE_STORE:
		/* SDM 000/002: only PMC3 with PS_EN captures stores. */
		if (k->idx == 3 && (c->pebs_en & PEBS_PE_PS_EN) &&
		    a->kind == PEBS_ACC_STORE) {
			*addr = a->addr;
			*dse = (a->src == PEBS_SRC_L1) |
			       (a->flags & PEBS_ACC_STLB_MISS ? 0x10 : 0) |
			       (a->flags & PEBS_ACC_LOCKED ? 0x20 : 0);
		}
		break;
	case PEBS_EVK_DATALA_STORE:
		if (a->kind == PEBS_ACC_STORE) {
			*addr = a->addr;
			/* Table 18-57: bit 0 DCU hit, other bits zero;
			 * Goldmont's field is reserved (0). */
			if (v != PEBS_UDSRC_NONE)
				*dse = a->src == PEBS_SRC_L1;
		}
		break;
	case PEBS_EVK_STORE_LATENCY:
		if (a->kind == PEBS_ACC_STORE) {
			*addr = a->addr;
			*dse = pebs_sim_encode_dsrc(v, a->src, a->flags);
			*lat = a->st_lat;
		}
		break;
	case PEBS_EVK_LOAD:
		if (mem && (s->u->features & PEBS_UF_DATALA ||
			    s->u->pebs_fmt <= PEBS_FMT_NHM))
			*addr = a->addr;
		break;
	default:
		break;
	}
}

/* Register snapshot, legacy order (enum pebs_reg).  Synthetic but
 * deterministic: RAX holds the data address, RSP a per-thread stack.
 * Every register is set (the record needs no clearing first). */
static void regs(const struct pebs_sim *s, unsigned cpu,
		 const struct pebs_access *a, uint64_t r[PEBS_REG_COUNT])
{
	uint64_t stack = 0x7ffc00000000ull - (uint64_t)a->tid * 0x100000;

	r[PEBS_REG_RFLAGS] = 0x202;
	/* Trap-like PEBS: RIP is the next instruction; the simulated
	 * instructions are 4 bytes long. */
	r[PEBS_REG_RIP] = a->ip + (s->u->features & PEBS_UF_TRAP ? 4 : 0);
	r[PEBS_REG_RAX] = a->addr;
	r[PEBS_REG_RBX] = 0;
	r[PEBS_REG_RCX] = a->size;
	r[PEBS_REG_RDX] = 0;
	r[PEBS_REG_RSI] = a->addr & ~63ull;
	r[PEBS_REG_RDI] = 0;
	r[PEBS_REG_RBP] = stack;
	r[PEBS_REG_RSP] = stack - 0x40;
	r[PEBS_REG_R8] = cpu;
	r[PEBS_REG_R9] = a->tid;
	r[PEBS_REG_R10] = a->pid;
	r[PEBS_REG_R11] = a->cycle;
	r[PEBS_REG_R12] = r[PEBS_REG_R13] = 0;
	r[PEBS_REG_R14] = r[PEBS_REG_R15] = 0;
}

static void put(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

void sim_rec_write(const struct pebs_sim *s, const struct sim_cpu *c,
		   unsigned cpu, uint8_t *p, size_t sz, uint64_t bits,
		   uint64_t status, const struct sim_ctr *first,
		   const struct pebs_access *a)
{
	const struct pebs_uarch *u = s->u;
	uint64_t r[PEBS_REG_COUNT], addr, dse, lat;

	mem_fields(s, c, first, a, &addr, &dse, &lat);
	if (u->features & PEBS_UF_ADAPTIVE) {
		uint64_t g = rec_groups(s, c, bits), fs;
		size_t off = PEBS_ADAPT_BASIC_SIZE;
		memset(p, 0, sz);
		fs = (g & 0xf) | ((uint64_t)sz << 48);
		if (g & PEBS_DATACFG_LBR)
			fs |= ((g >> PEBS_DATACFG_LBR_SHIFT) & 0xff) << 24;
		put(p, 0x00, fs);
		put(p, 0x08, a->ip);	/* EventingIP */
		put(p, 0x10, bits);	/* applicable counters */
		put(p, 0x18, a->cycle);	/* TSC */
		if (g & PEBS_DATACFG_MEMINFO) {
			uint64_t l = lat & 0xffffffffu;
			if (u->features & PEBS_UF_INS_LAT)
				/* 15:0 instruction, 47:32 cache latency */
				l = (lat > 0xffff ? 0xffff : lat) |
				    ((lat > 0xffff ? 0xffff : lat) << 32);
			put(p, off + 0x00, addr);
			put(p, off + 0x08, dse);
			put(p, off + 0x10, l);
			put(p, off + 0x18, 0);
			off += PEBS_ADAPT_MEMINFO_SIZE;
		}
		if (g & PEBS_DATACFG_GPR) {
			regs(s, cpu, a, r);
			/* Adaptive order: RFLAGS RIP RAX RCX RDX RBX RSP RBP
			 * RSI RDI R8-R15. */
			static const uint8_t ord[PEBS_REG_COUNT] = {
				PEBS_REG_RFLAGS, PEBS_REG_RIP, PEBS_REG_RAX,
				PEBS_REG_RCX, PEBS_REG_RDX, PEBS_REG_RBX,
				PEBS_REG_RSP, PEBS_REG_RBP, PEBS_REG_RSI,
				PEBS_REG_RDI, PEBS_REG_R8, PEBS_REG_R9,
				PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12,
				PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15 };
			for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
				put(p, off + 8 * i, r[ord[i]]);
			off += PEBS_ADAPT_GPR_SIZE;
		}
		if (g & PEBS_DATACFG_XMM)
			off += PEBS_ADAPT_XMM_SIZE;	/* zero XMM state */
		if (g & PEBS_DATACFG_LBR) {
			unsigned n = ((g >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1;
			/* One taken branch into this instruction, repeated:
			 * the sim has no branch history. */
			for (unsigned i = 0; i < n && off + 24 <= sz; i++) {
				put(p, off, a->ip - 0x10);
				put(p, off + 8, a->ip);
				off += PEBS_ADAPT_LBR_ENTRY;
			}
		}
		return;
	}
	/* Legacy layouts: every byte of the record is written below. */
	regs(s, cpu, a, r);
	memcpy(p, r, sizeof(r));
	if (u->pebs_fmt == PEBS_FMT_CORE2)
		return;
	/* fmt 1/2: GLOBAL_STATUS as the assist saw it; fmt 3: exactly the
	 * counters this record is for. */
	put(p, 0x90, u->pebs_fmt >= PEBS_FMT_SKL ? bits : status);
	put(p, 0x98, addr);
	put(p, 0xa0, dse);
	put(p, 0xa8, lat);
	if (u->pebs_fmt == PEBS_FMT_NHM)
		return;
	put(p, 0xb0, a->ip);	/* EventingIP */
	put(p, 0xb8, 0);	/* TSX tuning: no transactions simulated */
	if (u->pebs_fmt == PEBS_FMT_HSW)
		return;
	put(p, 0xc0, a->cycle);	/* TSC */
}
