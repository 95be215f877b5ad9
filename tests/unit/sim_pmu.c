/*
 * The simulated PMU against the SDM rules: #GP on unknown MSRs, reserved
 * bits and read-only MSRs; counter width and legacy sign-extended writes;
 * overflow status bits; PEBS records byte by byte per format, decoded
 * back by the raw decoder; reload from the DS reset slot; threshold
 * interrupt (GLOBAL_STATUS bit 62); silent stop at the absolute maximum
 * with loss counting; PMC0 priority; load-latency tagging and threshold
 * filtering; precise store only on PMC3 with PS_EN; DataLA store status;
 * front-end events; Goldmont PMC0-only PEBS and non-precise events.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_ds.h"
#include "pebs_dsrc.h"
#include "pebs_plan.h"
#include "pebs_sim.h"
#include "pebs_uarch.h"

#define EN (PEBS_EVTSEL_EN | PEBS_EVTSEL_USR | PEBS_EVTSEL_OS)

static struct pebs_sim *mk(const char *name, unsigned tag)
{
	struct pebs_sim_opts o = { .uarch = pebs_uarch_by_name(name),
				   .ncpus = 2, .seed = 1, .tag_rate = tag };
	struct pebs_sim *s;
	cr_assert_not_null(o.uarch, "%s", name);
	cr_assert_eq(pebs_sim_new(&s, &o), 0);
	return s;
}

static void wr(struct pebs_sim *s, uint32_t msr, uint64_t v)
{
	int r = pebs_sim_wrmsr(s, 0, msr, v);
	cr_assert_eq(r, 0, "WRMSR 0x%x 0x%llx: %s", msr,
		     (unsigned long long)v, pebs_sim_errmsg(s));
}

static uint64_t rd(struct pebs_sim *s, uint32_t msr)
{
	uint64_t v;
	cr_assert_eq(pebs_sim_rdmsr(s, 0, msr, &v), 0, "%s",
		     pebs_sim_errmsg(s));
	return v;
}

/* DS area with a buffer of @nrec records of @rec bytes, on CPU 0. */
static void mkds(struct pebs_sim *s, struct pebs_ds *ds, size_t nrec,
		 size_t rec)
{
	struct pebs_ds_mem m;
	cr_assert_eq(pebs_sim_alloc(s, PEBS_DS_AREA_SIZE, &m.area,
				    &m.area_addr), 0);
	cr_assert_eq(pebs_sim_alloc(s, nrec * rec, &m.buf, &m.buf_addr), 0);
	m.buf_size = nrec * rec;
	cr_assert_eq(pebs_ds_init(ds, &m, pebs_sim_uarch(s), rec), 0);
	wr(s, PEBS_MSR_DS_AREA, m.area_addr);
}

/* Counter @x counts @evtsel from -@period (full-width or legacy write),
 * DS reset -@period, PEBS enabled by @pe. */
static void ctr(struct pebs_sim *s, struct pebs_ds *ds, unsigned x,
		uint64_t evtsel, uint64_t period, uint64_t pe)
{
	const struct pebs_uarch *u = pebs_sim_uarch(s);
	uint64_t mask = (1ull << u->gp_width) - 1;
	uint64_t v = (0 - period) & mask;
	wr(s, PEBS_MSR_GLOBAL_CTRL, 0);
	wr(s, u->features & PEBS_UF_FULL_WIDTH ? PEBS_MSR_A_PMC(x) :
	   PEBS_MSR_PMC(x), v);
	wr(s, PEBS_MSR_PERFEVTSEL(x), evtsel | EN);
	if (ds)
		cr_assert_eq(pebs_ds_set_reset(ds, x, v), 0);
	wr(s, PEBS_MSR_PEBS_ENABLE, rd(s, PEBS_MSR_PEBS_ENABLE) | pe);
}

static struct pebs_access acc(uint64_t cyc, int kind, uint64_t addr,
			      unsigned src, uint32_t lat)
{
	struct pebs_access a;
	memset(&a, 0, sizeof(a));
	a.cycle = cyc;
	a.cpu = 0;
	a.pid = 100;
	a.tid = 101;
	a.ip = 0x400100;
	a.addr = addr;
	a.size = 8;
	a.kind = (uint8_t)kind;
	a.src = (uint8_t)src;
	a.lat = lat;
	return a;
}

static uint64_t u64at(const struct pebs_ds *ds, size_t off)
{
	uint64_t v;
	memcpy(&v, (const uint8_t *)ds->mem.buf + off, 8);
	return v;
}

static size_t nrec(const struct pebs_ds *ds)
{
	return (size_t)((pebs_ds_get(ds, PEBS_DS_PEBS_INDEX) - ds->lay.base) /
			ds->rec_size);
}

Test(sim_pmu, gp_on_unknown_reserved_readonly)
{
	struct pebs_sim *s = mk("skx", 1);
	uint64_t v;

	cr_assert_eq(pebs_sim_wrmsr(s, 0, 0x1234, 0), -PEBS_E_INVAL);
	cr_assert(strstr(pebs_sim_errmsg(s), "#GP"));
	cr_assert_eq(pebs_sim_rdmsr(s, 0, 0x1234, &v), -PEBS_E_INVAL);
	/* PERFEVTSEL bit 34 (ADAPTIVE) is reserved before ICL. */
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PERFEVTSEL(0),
				    1ull << 34), -PEBS_E_INVAL);
	cr_assert(strstr(pebs_sim_errmsg(s), "reserved"));
	/* PEBS_ENABLE: PMC4+ and PS_EN do not exist on SKX. */
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PEBS_ENABLE, 1ull << 4),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PEBS_ENABLE,
				    PEBS_PE_PS_EN), -PEBS_E_INVAL);
	/* LL_EN_PMC0 | PEBS_EN_PMC0 is fine. */
	wr(s, PEBS_MSR_PEBS_ENABLE, 0x100000001ull);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_DATA_CFG, 1),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_GLOBAL_STATUS, 0),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_LD_LAT, 0x10000),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_DS_AREA,
				    0x0000900000000000ull), -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PMC(4), 0),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 2, PEBS_MSR_PMC(0), 0),
		     -PEBS_E_INVAL);
	/* The PEBS record format is readable in PERF_CAPABILITIES. */
	cr_assert_eq((rd(s, PEBS_MSR_PERF_CAP) >> 8) & 0xf, 3);
	pebs_sim_free(s);

	s = mk("nhm", 1);
	/* No full-width writes, no front-end MSR before SKL. */
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_A_PMC(0), 0),
		     -PEBS_E_INVAL);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_FRONTEND, 0x11),
		     -PEBS_E_INVAL);
	pebs_sim_free(s);

	s = mk("icl", 1);
	wr(s, PEBS_MSR_DATA_CFG, 0x3);
	wr(s, PEBS_MSR_PERFEVTSEL(0), PEBS_EVTSEL_ADAPTIVE | 0xcd);
	/* On ICL bits 32+ of PEBS_ENABLE are fixed counters, not LL_EN. */
	wr(s, PEBS_MSR_PEBS_ENABLE, PEBS_UARCH_FIXED(0) | 1);
	pebs_sim_free(s);
}

Test(sim_pmu, width_and_legacy_sign_extension)
{
	struct pebs_sim *s = mk("skx", 1);
	struct pebs_access a[3];

	wr(s, PEBS_MSR_PMC(0), 0xfffffff0ull);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0xfffffffffff0ull);
	wr(s, PEBS_MSR_PMC(1), 0x7ffffff0ull);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(1)), 0x7ffffff0ull);
	/* Full width: all 48 bits, bit 48 reserved. */
	wr(s, PEBS_MSR_A_PMC(0), 0x123456789abcull);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0x123456789abcull);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_A_PMC(0), 1ull << 48),
		     -PEBS_E_INVAL);
	/* Counting wraps at 2^48 and sets the overflow bit. */
	wr(s, PEBS_MSR_A_PMC(0), 0xfffffffffffeull);
	wr(s, PEBS_MSR_PERFEVTSEL(0), 0xc0 | EN);
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	for (int i = 0; i < 3; i++)
		a[i] = acc(10 + i, PEBS_ACC_LOAD, 0x1000, PEBS_SRC_L1, 4);
	pebs_sim_retire(s, a, 1);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0xffffffffffffull);
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS), 0);
	pebs_sim_retire(s, a + 1, 2);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 1);
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS), 1);
	/* OVF_CTRL clears it (write 1 to clear). */
	wr(s, PEBS_MSR_GLOBAL_OVF, 1);
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS), 0);
	/* Disabled in GLOBAL_CTRL: no counting. */
	wr(s, PEBS_MSR_GLOBAL_CTRL, 0);
	pebs_sim_retire(s, a, 3);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 1);
	pebs_sim_free(s);

	/* Core 2: 40-bit counters. */
	s = mk("core2", 1);
	wr(s, PEBS_MSR_PMC(0), 0xffffffffull);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0xffffffffffull);
	pebs_sim_free(s);
}

/* Decodes record 0 of @ds with counter @bit named @name of @kind. */
static void dec(const struct pebs_ds *ds, const struct pebs_uarch *u,
		unsigned bit, unsigned kind, uint64_t data_cfg,
		struct pebs_sample *smp)
{
	struct pebs_raw_config cfg;
	unsigned n = 0;
	size_t sz = 0;
	char err[256];

	memset(&cfg, 0, sizeof(cfg));
	cfg.uarch = u;
	cfg.pebs_enabled = 1ull << bit;
	cfg.ev[bit].name = "E";
	cfg.ev[bit].kind = (uint8_t)kind;
	cfg.data_cfg = data_cfg;
	cfg.data_cfg_known = (u->features & PEBS_UF_ADAPTIVE) != 0;
	cr_assert_eq(pebs_raw_decode_record(&cfg, ds->mem.buf, ds->rec_size,
					    smp, 1, &n, &sz, NULL, err,
					    sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_eq(sz, ds->rec_size);
}

Test(sim_pmu, record_fmt3_skx_bytes)
{
	struct pebs_sim *s = mk("skx", 1);
	const struct pebs_uarch *u = pebs_sim_uarch(s);
	struct pebs_ds ds;
	struct pebs_access a = acc(1000, PEBS_ACC_LOAD, 0x7000,
				   PEBS_SRC_L3_HITM, 77);
	struct pebs_sample smp;

	mkds(s, &ds, 16, PEBS_REC_SIZE_FMT3);
	wr(s, PEBS_MSR_LD_LAT, 3);
	ctr(s, &ds, 0, 0x01cd, 1, PEBS_PE_PEBS_EN(0) | PEBS_PE_LL_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	pebs_sim_retire(s, &a, 1);
	cr_assert_eq(nrec(&ds), 1);
	cr_assert_eq(u64at(&ds, 0x00), 0x202);
	cr_assert_eq(u64at(&ds, 0x08), 0x400104);	/* trap-like RIP */
	cr_assert_eq(u64at(&ds, 0x10), 0x7000);		/* RAX */
	cr_assert_eq(u64at(&ds, 0x90), 1);		/* applicable */
	cr_assert_eq(u64at(&ds, 0x98), 0x7000);
	cr_assert_eq(u64at(&ds, 0xa0), 6);		/* L3 HITM */
	cr_assert_eq(u64at(&ds, 0xa8), 77);
	cr_assert_eq(u64at(&ds, 0xb0), 0x400100);	/* EventingIP */
	cr_assert_eq(u64at(&ds, 0xb8), 0);
	cr_assert_eq(u64at(&ds, 0xc0), 1000);		/* TSC */
	dec(&ds, u, 0, PEBS_EVK_LOAD_LATENCY, 0, &smp);
	cr_assert_eq(smp.ip, 0x400100);
	cr_assert_eq(smp.addr, 0x7000);
	cr_assert_eq(smp.lat, 77);
	cr_assert_eq(smp.time, 1000);
	cr_assert_eq(pebs_dsrc_mem(smp.dsrc), PEBS_MEM_L3);
	cr_assert_eq(pebs_dsrc_snoop(smp.dsrc), PEBS_SNOOP_HITM);
	/* Reloaded from the DS reset slot (period 1: the mask). */
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0xffffffffffffull);
	/* The assist cleared the PEBS counter's status bit. */
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS) & 1, 0);
	pebs_sim_free(s);
}

Test(sim_pmu, record_fmt1_fmt2_fmt0_bytes)
{
	static const char *const names[] = { "nhm", "hsw", "core2" };
	for (int k = 0; k < 3; k++) {
		struct pebs_sim *s = mk(names[k], 1);
		const struct pebs_uarch *u = pebs_sim_uarch(s);
		struct pebs_ds ds;
		struct pebs_access a = acc(500, PEBS_ACC_LOAD, 0x8000,
					   PEBS_SRC_L2, 20);
		struct pebs_sample smp;
		uint64_t sel = k == 0 ? 0x100b : k == 1 ? 0x01cd : 0x01cb;
		uint64_t pe = k == 2 ? 1 : PEBS_PE_PEBS_EN(0) |
			      PEBS_PE_LL_EN(0);

		mkds(s, &ds, 8, u->rec_size);
		if (k < 2)
			wr(s, PEBS_MSR_LD_LAT, 3);
		ctr(s, &ds, 0, sel, 1, pe);
		wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
		pebs_sim_retire(s, &a, 1);
		cr_assert_eq(nrec(&ds), 1, "%s", names[k]);
		cr_assert_eq(u64at(&ds, 0x08), 0x400104);
		cr_assert_eq(u64at(&ds, 0x10), 0x8000);
		if (k == 2) {
			cr_assert_eq(u->rec_size, 144);
			dec(&ds, u, 0, PEBS_EVK_LOAD, 0, &smp);
			cr_assert_eq(smp.ip, 0x400104);
			pebs_sim_free(s);
			continue;
		}
		/* fmt 1/2: 0x90 is the GLOBAL_STATUS the assist saw. */
		cr_assert_eq(u64at(&ds, 0x90), 1);
		cr_assert_eq(u64at(&ds, 0x98), 0x8000);
		cr_assert_eq(u64at(&ds, 0xa0), 3);	/* L2 hit */
		cr_assert_eq(u64at(&ds, 0xa8), 20);
		dec(&ds, u, 0, PEBS_EVK_LOAD_LATENCY, 0, &smp);
		cr_assert_eq(pebs_dsrc_mem(smp.dsrc), PEBS_MEM_L2);
		cr_assert_eq(smp.lat, 20);
		if (k == 0) {
			cr_assert_eq(u->rec_size, 176);
			cr_assert_eq(smp.ip, 0x400104);
		} else {
			cr_assert_eq(u->rec_size, 192);
			cr_assert_eq(u64at(&ds, 0xb0), 0x400100);
			cr_assert_eq(smp.ip, 0x400100);
		}
		pebs_sim_free(s);
	}
}

Test(sim_pmu, record_adaptive_icl_spr)
{
	static const char *const names[] = { "icl", "spr" };
	for (int k = 0; k < 2; k++) {
		struct pebs_sim *s = mk(names[k], 1);
		const struct pebs_uarch *u = pebs_sim_uarch(s);
		uint64_t cfg = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GPR;
		size_t rec = pebs_ds_record_size(u, cfg);
		unsigned x = k ? 1 : 0;	/* SPR load latency: PMC1-7 */
		struct pebs_ds ds;
		struct pebs_access a = acc(42, PEBS_ACC_LOAD, 0x9000,
					   PEBS_SRC_REMOTE_DRAM, 300);
		struct pebs_sample smp;

		cr_assert_eq(rec, 32 + 32 + 144);
		mkds(s, &ds, 8, rec);
		wr(s, PEBS_MSR_LD_LAT, 3);
		wr(s, PEBS_MSR_DATA_CFG, cfg);
		ctr(s, &ds, x, 0x01cd | PEBS_EVTSEL_ADAPTIVE, 1,
		    PEBS_PE_PEBS_EN(x));
		wr(s, PEBS_MSR_GLOBAL_CTRL, 1ull << x);
		pebs_sim_retire(s, &a, 1);
		cr_assert_eq(nrec(&ds), 1);
		cr_assert_eq(u64at(&ds, 0), 3 | (rec << 48));
		cr_assert_eq(u64at(&ds, 0x08), 0x400100);
		cr_assert_eq(u64at(&ds, 0x10), 1ull << x);
		cr_assert_eq(u64at(&ds, 0x18), 42);
		cr_assert_eq(u64at(&ds, 0x20), 0x9000);
		cr_assert_eq(u64at(&ds, 0x28), 0xb);	/* remote RAM */
		/* GPR group, adaptive order: RFLAGS RIP RAX RCX ... */
		cr_assert_eq(u64at(&ds, 0x40), 0x202);
		cr_assert_eq(u64at(&ds, 0x48), 0x400104);
		cr_assert_eq(u64at(&ds, 0x50), 0x9000);
		cr_assert_eq(u64at(&ds, 0x58), 8);	/* RCX = size */
		dec(&ds, u, x, PEBS_EVK_LOAD_LATENCY, cfg, &smp);
		cr_assert_eq(smp.addr, 0x9000);
		cr_assert_eq(smp.lat, 300);
		cr_assert_eq(smp.regs[PEBS_REG_RCX], 8);
		cr_assert_eq(pebs_dsrc_mem(smp.dsrc), PEBS_MEM_REMOTE_RAM);
		if (k == 1) {
			cr_assert_eq(u64at(&ds, 0x30), 300 | (300ull << 32));
			cr_assert_eq(smp.ins_lat, 300);
		}
		pebs_sim_free(s);
	}
}

Test(sim_pmu, reload_threshold_and_silent_stop)
{
	struct pebs_sim *s = mk("skl", 1);
	struct pebs_ds ds;
	struct pebs_access a[40];
	struct pebs_sim_stats st;

	/* 10 records: threshold at 10 - 4 = 6 records (minimum reserve). */
	mkds(s, &ds, 10, PEBS_REC_SIZE_FMT3);
	cr_assert_eq(ds.lay.thresh, ds.lay.base + 6 * PEBS_REC_SIZE_FMT3);
	/* ALL_STORES (DataLA), period 2. */
	ctr(s, &ds, 2, 0x82d0, 2, PEBS_PE_PEBS_EN(2));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 4);
	for (int i = 0; i < 40; i++)
		a[i] = acc((uint64_t)i + 1, PEBS_ACC_STORE,
			   0x1000 + 64 * (uint64_t)i,
			   i % 3 ? PEBS_SRC_L1 : PEBS_SRC_L2, 0);
	pebs_sim_retire(s, a, 11);	/* 5 records */
	cr_assert_eq(nrec(&ds), 5);
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS) & PEBS_STATUS_DS_THRESH,
		     0);
	cr_assert_eq(pebs_sim_pmi(s, 0), 0);
	/* Record k is for the store 2k+1: every 2nd store (reload). */
	cr_assert_eq(u64at(&ds, 0x98), 0x1000 + 64);
	cr_assert_eq(u64at(&ds, 200 + 0x98), 0x1000 + 3 * 64);
	/* DataLA store status: bit 0 = L1 hit. */
	cr_assert_eq(u64at(&ds, 0xa0), 1);	/* store 1: L1 */
	cr_assert_eq(u64at(&ds, 200 + 0xa0), 0);	/* store 3: L2 */
	cr_assert_eq(u64at(&ds, 0xa8), 0);
	pebs_sim_retire(s, a + 11, 2);	/* 6th record: threshold */
	cr_assert_eq(nrec(&ds), 6);
	cr_assert(rd(s, PEBS_MSR_GLOBAL_STATUS) & PEBS_STATUS_DS_THRESH);
	cr_assert_eq(pebs_sim_pmi(s, 0), 1);
	cr_assert_eq(pebs_sim_pmi(s, 0), 0);	/* cleared by reading */
	/* 20 more stores: 10 assists, 4 fit, 6 lost silently. */
	pebs_sim_retire(s, a + 13, 20);
	cr_assert_eq(nrec(&ds), 10);
	cr_assert_eq(pebs_ds_get(&ds, PEBS_DS_PEBS_INDEX), ds.lay.max);
	pebs_sim_cpu_stats(s, 0, &st);
	cr_assert_eq(st.records, 10);
	cr_assert_eq(st.lost_records, 6);
	cr_assert_eq(st.lost_samples, 6);
	cr_assert_eq(st.pmis, 1);	/* no second edge while bit 62 set */
	/* Counting and reloading go on while full. */
	cr_assert_eq(rd(s, PEBS_MSR_PMC(2)), 0xfffffffffffeull + 1);
	pebs_sim_free(s);
}

Test(sim_pmu, pmc0_priority_on_simultaneous_overflow)
{
	struct pebs_sim *s = mk("skx", 1);
	struct pebs_ds ds;
	struct pebs_access a = acc(7, PEBS_ACC_LOAD, 0xa000,
				   PEBS_SRC_LOCAL_DRAM, 200);
	struct pebs_sample smp;

	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT3);
	wr(s, PEBS_MSR_LD_LAT, 3);
	/* PMC0: ALL_LOADS (DataLA load: address only); PMC1: load
	 * latency.  Both overflow on the same load. */
	ctr(s, &ds, 0, 0x81d0, 1, PEBS_PE_PEBS_EN(0));
	ctr(s, &ds, 1, 0x01cd, 1, PEBS_PE_PEBS_EN(1) | PEBS_PE_LL_EN(1));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 3);
	pebs_sim_retire(s, &a, 1);
	/* One record for both, its content from PMC0's event. */
	cr_assert_eq(nrec(&ds), 1);
	cr_assert_eq(u64at(&ds, 0x90), 3);
	cr_assert_eq(u64at(&ds, 0x98), 0xa000);
	cr_assert_eq(u64at(&ds, 0xa8), 0);
	cr_assert_eq(rd(s, PEBS_MSR_GLOBAL_STATUS) & 3, 0);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(0)), 0xffffffffffffull);
	cr_assert_eq(rd(s, PEBS_MSR_PMC(1)), 0xffffffffffffull);
	pebs_sim_free(s);

	/* Swapped: load latency on PMC0 wins, the record has latency. */
	s = mk("skx", 1);
	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT3);
	wr(s, PEBS_MSR_LD_LAT, 3);
	ctr(s, &ds, 0, 0x01cd, 1, PEBS_PE_PEBS_EN(0) | PEBS_PE_LL_EN(0));
	ctr(s, &ds, 1, 0x81d0, 1, PEBS_PE_PEBS_EN(1));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 3);
	pebs_sim_retire(s, &a, 1);
	cr_assert_eq(u64at(&ds, 0xa8), 200);
	dec(&ds, pebs_sim_uarch(s), 0, PEBS_EVK_LOAD_LATENCY, 0, &smp);
	cr_assert_eq(pebs_dsrc_mem(smp.dsrc), PEBS_MEM_LOCAL_RAM);
	pebs_sim_free(s);
}

Test(sim_pmu, load_latency_threshold_and_tagging)
{
	struct pebs_sim *s = mk("hsw", 1);
	struct pebs_ds ds;
	struct pebs_access a[6];
	struct pebs_sim_stats st;

	mkds(s, &ds, 16, PEBS_REC_SIZE_FMT2);
	wr(s, PEBS_MSR_LD_LAT, 30);
	ctr(s, &ds, 0, 0x01cd, 1, PEBS_PE_PEBS_EN(0) | PEBS_PE_LL_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	a[0] = acc(1, PEBS_ACC_LOAD, 0x100, PEBS_SRC_L1, 4);
	a[1] = acc(2, PEBS_ACC_LOAD, 0x200, PEBS_SRC_L2, 30); /* = thr */
	a[2] = acc(3, PEBS_ACC_LOAD, 0x300, PEBS_SRC_L3, 31);
	a[3] = acc(4, PEBS_ACC_STORE, 0x400, PEBS_SRC_L1, 0);
	a[4] = acc(5, PEBS_ACC_LOAD, 0x500, PEBS_SRC_LOCAL_DRAM, 250);
	pebs_sim_retire(s, a, 5);
	/* Only loads with latency above the threshold count. */
	cr_assert_eq(nrec(&ds), 2);
	cr_assert_eq(u64at(&ds, 0x98), 0x300);
	cr_assert_eq(u64at(&ds, 0xa8), 31);
	cr_assert_eq(u64at(&ds, 192 + 0x98), 0x500);
	cr_assert_eq(u64at(&ds, 192 + 0xa0), 0xc);	/* snb: local DRAM */
	pebs_sim_free(s);

	/* Without LL_EN the event does not count (PEBS_UF_LL_EN). */
	s = mk("hsw", 1);
	mkds(s, &ds, 16, PEBS_REC_SIZE_FMT2);
	wr(s, PEBS_MSR_LD_LAT, 3);
	ctr(s, &ds, 0, 0x01cd, 1, PEBS_PE_PEBS_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	pebs_sim_retire(s, a + 4, 1);
	cr_assert_eq(nrec(&ds), 0);
	pebs_sim_free(s);

	/* Random tagging: about 1 in 4 loads, the same for one seed. */
	s = mk("hsw", 4);
	mkds(s, &ds, 4096, PEBS_REC_SIZE_FMT2);
	wr(s, PEBS_MSR_LD_LAT, 3);
	ctr(s, &ds, 0, 0x01cd, 1, PEBS_PE_PEBS_EN(0) | PEBS_PE_LL_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	for (int i = 0; i < 4000; i++) {
		struct pebs_access x = acc((uint64_t)i, PEBS_ACC_LOAD,
					   0x1000, PEBS_SRC_L2, 12);
		pebs_sim_retire(s, &x, 1);
	}
	pebs_sim_cpu_stats(s, 0, &st);
	cr_assert(st.tagged > 800 && st.tagged < 1200, "%llu",
		  (unsigned long long)st.tagged);
	cr_assert_eq(st.records, st.tagged);
	pebs_sim_free(s);
}

Test(sim_pmu, precise_store_pmc3_only)
{
	struct pebs_sim *s = mk("snb", 1);
	struct pebs_ds ds;
	struct pebs_access a = acc(9, PEBS_ACC_STORE, 0xb000, PEBS_SRC_L1,
				   0);
	struct pebs_sample smp;

	a.flags = PEBS_ACC_STLB_MISS;
	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT1);
	ctr(s, &ds, 3, 0x02cd, 1, PEBS_PE_PEBS_EN(3) | PEBS_PE_PS_EN);
	wr(s, PEBS_MSR_GLOBAL_CTRL, 8);
	pebs_sim_retire(s, &a, 1);
	cr_assert_eq(nrec(&ds), 1);
	cr_assert_eq(u64at(&ds, 0x90), 8);
	cr_assert_eq(u64at(&ds, 0x98), 0xb000);
	cr_assert_eq(u64at(&ds, 0xa0), 0x11);	/* L1 hit, STLB miss */
	cr_assert_eq(u64at(&ds, 0xa8), 0);
	dec(&ds, pebs_sim_uarch(s), 3, PEBS_EVK_PRECISE_STORE, 0, &smp);
	cr_assert_eq(pebs_dsrc_op(smp.dsrc), PEBS_OP_STORE);
	cr_assert_eq(pebs_dsrc_mem(smp.dsrc), PEBS_MEM_L1);
	pebs_sim_free(s);

	/* The same event on PMC0 (or without PS_EN) captures no store. */
	s = mk("snb", 1);
	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT1);
	ctr(s, &ds, 0, 0x02cd, 1, PEBS_PE_PEBS_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	pebs_sim_retire(s, &a, 1);
	cr_assert_eq(nrec(&ds), 1);
	cr_assert_eq(u64at(&ds, 0x98), 0);
	cr_assert_eq(u64at(&ds, 0xa0), 0);
	pebs_sim_free(s);
	/* PS_EN does not exist after IVB. */
	s = mk("hsw", 1);
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PEBS_ENABLE,
				    PEBS_PE_PS_EN | 8), -PEBS_E_INVAL);
	pebs_sim_free(s);
}

Test(sim_pmu, goldmont_pmc0_only_and_non_precise)
{
	struct pebs_sim *s = mk("glm", 1);
	struct pebs_ds ds;
	struct pebs_access a[3];

	/* PEBS_EN_PMC1 is reserved on Goldmont. */
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_PEBS_ENABLE, 2),
		     -PEBS_E_INVAL);
	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT3);
	/* Non-precise CPU_CLK_UNHALTED.THREAD_P with PEBS on PMC0: the
	 * record comes at the next retired access. */
	ctr(s, &ds, 0, 0x003c, 100, 1);
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	a[0] = acc(50, PEBS_ACC_LOAD, 0x100, PEBS_SRC_L1, 4);
	a[1] = acc(99, PEBS_ACC_LOAD, 0x200, PEBS_SRC_L1, 4);
	a[2] = acc(160, PEBS_ACC_STORE, 0x300, PEBS_SRC_L1, 0);
	pebs_sim_retire(s, a, 2);
	cr_assert_eq(nrec(&ds), 0);
	pebs_sim_retire(s, a + 2, 1);
	cr_assert_eq(nrec(&ds), 1);
	cr_assert_eq(u64at(&ds, 0xc0), 160);
	cr_assert_eq(u64at(&ds, 0xa0), 0);	/* reserved on GLM */
	pebs_sim_free(s);
}

Test(sim_pmu, frontend_msr_selects)
{
	struct pebs_sim *s = mk("skl", 1);
	struct pebs_ds ds;
	struct pebs_access a[3];

	mkds(s, &ds, 8, PEBS_REC_SIZE_FMT3);
	wr(s, PEBS_MSR_FRONTEND, 0x12);	/* L1I_MISS */
	ctr(s, &ds, 0, 0x01c6, 1, 1);
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	for (int i = 0; i < 3; i++)
		a[i] = acc((uint64_t)i, PEBS_ACC_IFETCH, 0, PEBS_SRC_NONE, 0);
	a[0].fe = PEBS_ACC_FE_DSB_MISS;
	a[1].fe = PEBS_ACC_FE_L1I_MISS;
	a[2].fe = PEBS_ACC_FE_L1I_MISS | PEBS_ACC_FE_ITLB_MISS;
	pebs_sim_retire(s, a, 3);
	cr_assert_eq(nrec(&ds), 2);
	/* Reserved bits of MSR_PEBS_FRONTEND #GP. */
	cr_assert_eq(pebs_sim_wrmsr(s, 0, PEBS_MSR_FRONTEND, 1ull << 23),
		     -PEBS_E_INVAL);
	pebs_sim_free(s);
}

/* Every source the cache model gives decodes back to its own level on
 * every data-source variant (the encoder inverts pebs_udsrc_decode). */
Test(sim_pmu, dsrc_encoding_round_trip)
{
	static const struct { unsigned src; int mem; int snoop; } t[] = {
		{ PEBS_SRC_L1, PEBS_MEM_L1, PEBS_SNOOP_NONE },
		{ PEBS_SRC_LFB, PEBS_MEM_LFB, PEBS_SNOOP_NONE },
		{ PEBS_SRC_L2, PEBS_MEM_L2, PEBS_SNOOP_NONE },
		{ PEBS_SRC_L3, PEBS_MEM_L3, PEBS_SNOOP_NONE },
		{ PEBS_SRC_L3_SNOOP_HIT, PEBS_MEM_L3, PEBS_SNOOP_HIT },
		{ PEBS_SRC_L3_HITM, PEBS_MEM_L3, PEBS_SNOOP_HITM },
		{ PEBS_SRC_REMOTE_HITM, PEBS_MEM_REMOTE_CACHE,
		  PEBS_SNOOP_HITM },
		{ PEBS_SRC_LOCAL_DRAM, PEBS_MEM_LOCAL_RAM, -1 },
		{ PEBS_SRC_REMOTE_DRAM, PEBS_MEM_REMOTE_RAM, -1 },
		{ PEBS_SRC_UNCACHED, PEBS_MEM_UNCACHED, PEBS_SNOOP_NONE },
	};
	static const enum pebs_udsrc_variant v[] = {
		PEBS_UDSRC_NHM, PEBS_UDSRC_SNB, PEBS_UDSRC_SKL, PEBS_UDSRC_SKX,
		PEBS_UDSRC_GLC };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
			uint64_t raw = pebs_sim_encode_dsrc(v[i], t[k].src, 0);
			uint64_t d = pebs_udsrc_decode(v[i],
						       PEBS_EVK_LOAD_LATENCY,
						       raw);
			cr_assert_eq((int)pebs_dsrc_mem(d), t[k].mem,
				     "variant %zu src %u", i, t[k].src);
			if (t[k].snoop >= 0)
				cr_assert_eq((int)pebs_dsrc_snoop(d),
					     t[k].snoop,
					     "variant %zu src %u", i,
					     t[k].src);
		}
	/* Remote forward: REMOTE_CACHE, forwarded (skl) / hit (snb). */
	cr_assert_eq(pebs_dsrc_snoop(pebs_udsrc_decode(PEBS_UDSRC_SKX,
		PEBS_EVK_LOAD_LATENCY, pebs_sim_encode_dsrc(PEBS_UDSRC_SKX,
		PEBS_SRC_REMOTE_FWD, 0))), PEBS_SNOOP_FWD);
	cr_assert_eq(pebs_sim_encode_dsrc(PEBS_UDSRC_SNB, PEBS_SRC_L1,
					  PEBS_ACC_STLB_MISS |
					  PEBS_ACC_LOCKED), 0x31);
	cr_assert_eq(pebs_sim_encode_dsrc(PEBS_UDSRC_NONE, PEBS_SRC_L1, 0),
		     0);
	/* NHM/WSM's field has no STLB-miss or lock bit (SNB added them) */
	cr_assert_eq(pebs_sim_encode_dsrc(PEBS_UDSRC_NHM, PEBS_SRC_L1,
					  PEBS_ACC_STLB_MISS |
					  PEBS_ACC_LOCKED), 0x1);
}

/* SPR store latency (0x02CD on PMC0): a store's address, data source
 * and the latency of owning its line, which the cache model reports in
 * st_lat (a store's lat, the core's stall, is 0). */
Test(sim_pmu, store_latency_spr)
{
	struct pebs_sim *s = mk("spr", 1);
	const struct pebs_uarch *u = pebs_sim_uarch(s);
	uint64_t cfg = PEBS_DATACFG_MEMINFO;
	struct pebs_ds ds;
	struct pebs_access a = acc(7, PEBS_ACC_STORE, 0xc040,
				   PEBS_SRC_L3_HITM, 0);
	struct pebs_sample smp;

	a.st_lat = 91;
	mkds(s, &ds, 8, pebs_ds_record_size(u, cfg));
	wr(s, PEBS_MSR_DATA_CFG, cfg);
	ctr(s, &ds, 0, 0x02cd | PEBS_EVTSEL_ADAPTIVE, 1, PEBS_PE_PEBS_EN(0));
	wr(s, PEBS_MSR_GLOBAL_CTRL, 1);
	pebs_sim_retire(s, &a, 1);
	cr_assert_eq(nrec(&ds), 1);
	dec(&ds, u, 0, PEBS_EVK_STORE_LATENCY, cfg, &smp);
	cr_assert_eq(smp.addr, 0xc040);
	cr_assert_eq(smp.lat, 91);
	cr_assert_eq(pebs_dsrc_op(smp.dsrc), PEBS_OP_STORE);
	cr_assert_eq(pebs_dsrc_snoop(smp.dsrc), PEBS_SNOOP_HITM);
	pebs_sim_free(s);
}
