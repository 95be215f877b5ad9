/*
 * plan_rules.c - register plans: exact values and order, and every rule
 * of enum pebs_rule both allowed and refused, through pebs_plan_build()
 * and through the independent pebs_plan_check().
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_plan.h"

#define NSPECS(...) (sizeof((const char *[]){ __VA_ARGS__ }) / \
		     sizeof(const char *))

static struct pebs_plan *build(const char *uarch, uint64_t period,
			       const char *const *specs, size_t n)
{
	struct pebs_plan_opts o = { 0 };
	struct pebs_plan *p = NULL;
	enum pebs_rule rule;
	char err[512] = "";
	o.uarch = pebs_uarch_by_name(uarch);
	o.period = period;
	cr_assert_not_null(o.uarch, "profile %s", uarch);
	int r = pebs_plan_build(&p, &o, specs, n, &rule, err, sizeof(err));
	cr_assert_eq(r, 0, "%s: %s (%s)", uarch, specs[0], err);
	return p;
}

#define OK(uarch, ...) build(uarch, 0, (const char *[]){ __VA_ARGS__ }, \
			     NSPECS(__VA_ARGS__))

static void refused(const char *uarch, enum pebs_rule want,
		    const char *needle, const char *const *specs, size_t n)
{
	struct pebs_plan_opts o = { 0 };
	struct pebs_plan *p = NULL;
	enum pebs_rule rule = PEBS_RULE_NONE;
	char err[512] = "";
	o.uarch = pebs_uarch_by_name(uarch);
	int r = pebs_plan_build(&p, &o, specs, n, &rule, err, sizeof(err));
	cr_assert_eq(r, -PEBS_E_RULE, "%s %s: got %d (%s)", uarch, specs[0],
		     r, err);
	cr_assert_null(p);
	cr_assert_eq(rule, want, "%s %s: rule %d, want %d (%s)", uarch,
		     specs[0], rule, want, err);
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "rule %s: ",
		 pebs_rule_info(want)->name);
	cr_assert(strncmp(err, prefix, strlen(prefix)) == 0,
		  "message '%s' does not start '%s'", err, prefix);
	cr_assert(strstr(err, needle), "message '%s' lacks '%s'", err,
		  needle);
}

#define REFUSED(uarch, rule, needle, ...) \
	refused(uarch, rule, needle, (const char *[]){ __VA_ARGS__ }, \
		NSPECS(__VA_ARGS__))

static uint64_t value_of(const struct pebs_plan *p, uint32_t msr, int last)
{
	uint64_t v = 0;
	int found = 0;
	for (size_t i = 0; i < pebs_plan_nwrites(p); i++) {
		const struct pebs_msr_write *w = pebs_plan_write(p, i);
		if (w->msr == msr) {
			v = w->value;
			found = 1;
			if (!last)
				break;
		}
	}
	cr_assert(found, "no write to MSR 0x%x", msr);
	return v;
}

static int has_write(const struct pebs_plan *p, uint32_t msr)
{
	for (size_t i = 0; i < pebs_plan_nwrites(p); i++)
		if (pebs_plan_write(p, i)->msr == msr)
			return 1;
	return 0;
}

/* ------------------------------------------------------ exact plans */

Test(plan, snb_load_latency_exact)
{
	struct pebs_plan *p = OK("snb", "load-latency:ldlat=3");
	static const struct { uint32_t msr; const char *name; uint64_t v; }
	want[] = {
		{ 0x38f, "IA32_PERF_GLOBAL_CTRL", 0 },
		{ 0x600, "IA32_DS_AREA", 0 },
		{ 0x4c4, "IA32_A_PMC3", 0xfffffffe795dull },
		{ 0x189, "IA32_PERFEVTSEL3", 0x4301cd },
		{ 0x3f6, "MSR_PEBS_LD_LAT_THRESHOLD", 3 },
		{ 0x3f1, "IA32_PEBS_ENABLE", 0x800000008ull },
		/* stale overflow and threshold bits cleared before enabling */
		{ 0x390, "IA32_PERF_GLOBAL_OVF_CTRL", 0x4000000000000008ull },
		{ 0x38f, "IA32_PERF_GLOBAL_CTRL", 0x8 },
	};
	cr_assert_eq(pebs_plan_nwrites(p), 8);
	for (size_t i = 0; i < 8; i++) {
		const struct pebs_msr_write *w = pebs_plan_write(p, i);
		cr_assert_eq(w->msr, want[i].msr, "write %zu", i);
		cr_assert_str_eq(w->name, want[i].name);
		cr_assert_eq(w->value, want[i].v, "write %zu: 0x%llx", i,
			     (unsigned long long)w->value);
		cr_assert_eq(w->cpu, -1);
	}
	cr_assert_eq(pebs_plan_write(p, 1)->flags, PEBS_MW_DS_ADDR);
	cr_assert_null(pebs_plan_write(p, 8));
	cr_assert_eq(pebs_plan_nresets(p), 1);
	cr_assert_eq(pebs_plan_reset(p, 0)->counter, 3);
	cr_assert_eq(pebs_plan_reset(p, 0)->offset, 0x58);
	cr_assert_eq(pebs_plan_reset(p, 0)->value, 0xfffffffe795dull);
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 3);
	cr_assert_eq(pebs_plan_pebs_enable(p), 0x800000008ull);
	cr_assert_eq(pebs_plan_global_ctrl(p), 0x8);
	cr_assert_eq(pebs_plan_data_cfg(p), 0);
	pebs_plan_free(p);
}

Test(plan, nhm_sdm_example_pmc0)
{
	/* SDM 18.8.1.2: load latency on PMC0 = 00000001_00000001H */
	struct pebs_plan *p = OK("nhm", "load-latency:ldlat=30");
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x100000001ull);
	cr_assert_eq(value_of(p, 0x186, 0), 0x43100b);
	cr_assert_eq(value_of(p, 0x3f6, 0), 30);
	/* NHM: legacy IA32_PMC0 write */
	cr_assert_eq(value_of(p, 0xc1, 0), 0xfffffffe795dull);
	cr_assert(!has_write(p, 0x4c1));
	pebs_plan_free(p);
}

Test(plan, snb_precise_store_ps_en)
{
	struct pebs_plan *p = OK("snb", "precise-store");
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x8000000000000008ull);
	cr_assert_eq(value_of(p, 0x189, 0), 0x4302cd);
	cr_assert(!has_write(p, 0x3f6));
	pebs_plan_free(p);
	/* HSW stores: DataLA, no PS_EN, any counter */
	p = OK("hsw", "precise-store");
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x1);
	cr_assert_eq(value_of(p, 0x186, 0), 0x4382d0);
	pebs_plan_free(p);
}

Test(plan, icl_adaptive_no_ll_en)
{
	struct pebs_plan *p = OK("icl", "load-latency:ldlat=64",
				 "precise-store");
	/* version 5: bits 32+ are fixed counters, no LL_EN */
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x3);
	/* stores (PMC0-3) placed first, load latency (PMC0-7) next */
	cr_assert_eq(pebs_plan_event(p, 1)->counter, 0);
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 1);
	cr_assert_eq(value_of(p, 0x187, 0), 0x4004301cdull);
	cr_assert_eq(value_of(p, 0x186, 0), 0x4004382d0ull);
	cr_assert_eq(value_of(p, 0x3f2, 0), PEBS_DATACFG_MEMINFO);
	cr_assert_eq(value_of(p, 0x3f6, 0), 64);
	cr_assert_eq(pebs_plan_data_cfg(p), 1);
	pebs_plan_free(p);
}

Test(plan, frontend_value)
{
	struct pebs_plan *p = OK("skl",
				 "frontend:sub=idq_bubbles,latency=2,width=1");
	cr_assert_eq(value_of(p, 0x3f7, 0), 0x100206);
	pebs_plan_free(p);
	p = OK("skl", "frontend:sub=idq_bubbles,latency=4095,width=4");
	cr_assert_eq(value_of(p, 0x3f7, 0), 0x4fff06);
	pebs_plan_free(p);
	p = OK("skx", "frontend:sub=stlb_miss");
	cr_assert_eq(value_of(p, 0x3f7, 0), 0x15);
	pebs_plan_free(p);
	p = OK("spr", "frontend:sub=idq_bubbles,latency=256,width=6");
	cr_assert_eq(value_of(p, 0x3f7, 0), 0x610006);
	pebs_plan_free(p);
}

/*
 * The metadata of a front-end event carries its MSR_PEBS_FRONTEND value
 * as events.N.frontend, in hex as pebs-import -f perf writes it from
 * config1 (the perf export puts it back there); other events have none.
 */
Test(plan, frontend_meta)
{
	struct pebs_plan *p = OK("skl", "load-latency",
				 "frontend:sub=idq_bubbles,latency=2,width=1");
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_plan_to_meta(p, m), 0);
	cr_expect_null(pebs_meta_get(m, "events.0.frontend"));
	cr_expect_str_eq(pebs_meta_get(m, "events.1.evtsel"), "0x4301c6");
	cr_expect_str_eq(pebs_meta_get(m, "events.1.frontend"), "0x100206");
	cr_expect_null(pebs_meta_get(m, "events.1.ldlat"));
	pebs_meta_free(m);
	pebs_plan_free(p);
}

Test(plan, privilege_and_period)
{
	struct pebs_plan *p = build("skl", 1000,
				    (const char *[]){ "r1d1:u",
						      "r2d1:k",
						      "r4d1:period=7" }, 3);
	cr_assert_eq(pebs_plan_event(p, 0)->evtsel, 0x4101d1);
	cr_assert_eq(pebs_plan_event(p, 1)->evtsel, 0x4202d1);
	cr_assert_eq(pebs_plan_event(p, 2)->evtsel, 0x4304d1);
	cr_assert_eq(pebs_plan_event(p, 0)->period, 1000);
	cr_assert_eq(pebs_plan_event(p, 2)->period, 7);
	cr_assert_eq(pebs_plan_event(p, 2)->reset, 0xfffffffffff9ull);
	cr_assert_eq(pebs_plan_global_ctrl(p), 0x7);
	pebs_plan_free(p);
}

Test(plan, cpus_and_meta)
{
	struct pebs_plan_opts o = { 0 };
	struct pebs_plan *p;
	int *cpus;
	size_t n;
	char err[256];
	const char *spec = "load-latency";
	cr_assert_eq(pebs_plan_parse_cpus("2,0-1", &cpus, &n, err,
					  sizeof(err)), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(cpus[0], 0);
	cr_assert_eq(cpus[2], 2);
	o.uarch = pebs_uarch_by_name("hsw");
	o.cpus = cpus;
	o.ncpus = n;
	o.ds_area = 0xffffffffff000000ull;
	cr_assert_eq(pebs_plan_build(&p, &o, &spec, 1, NULL, err,
				     sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_plan_nwrites(p), 24);
	cr_assert_eq(pebs_plan_write(p, 0)->cpu, 0);
	cr_assert_eq(pebs_plan_write(p, 1)->value, 0xffffffffff000000ull);
	cr_assert_eq(pebs_plan_write(p, 8)->cpu, 1);
	cr_assert_eq(pebs_plan_write(p, 23)->cpu, 2);
	struct pebs_meta *m = pebs_meta_new();
	cr_assert_eq(pebs_plan_to_meta(p, m), 0);
	cr_assert_str_eq(pebs_meta_get(m, "uarch"), "hsw");
	cr_assert_str_eq(pebs_meta_get(m, "events.0.counter"), "PMC0");
	cr_assert_str_eq(pebs_meta_get(m, "events.0.ldlat"), "3");
	cr_assert_str_eq(pebs_meta_get(m, "plan.5.name"), "IA32_PEBS_ENABLE");
	cr_assert_str_eq(pebs_meta_get(m, "plan.5.value"), "0x100000001");
	cr_assert_str_eq(pebs_meta_get(m, "plan.6.name"),
			 "IA32_PERF_GLOBAL_OVF_CTRL");
	cr_assert_str_eq(pebs_meta_get(m, "plan.8.cpu"), "1");
	pebs_meta_free(m);
	pebs_plan_free(p);
	free(cpus);

	cr_assert_eq(pebs_plan_parse_cpus("all", &cpus, &n, err,
					  sizeof(err)), 0);
	cr_assert_null(cpus);
	cr_assert_eq(pebs_plan_parse_cpus("1,1", &cpus, &n, err,
					  sizeof(err)), -PEBS_E_PARSE);
	cr_assert_eq(pebs_plan_parse_cpus("3-1", &cpus, &n, err,
					  sizeof(err)), -PEBS_E_PARSE);
	cr_assert_eq(pebs_plan_parse_cpus("0,", &cpus, &n, err,
					  sizeof(err)), -PEBS_E_PARSE);
	cr_assert_eq(pebs_plan_parse_cpus("99999", &cpus, &n, err,
					  sizeof(err)), -PEBS_E_PARSE);
	cr_assert_eq(pebs_plan_parse_cpus("", &cpus, &n, err,
					  sizeof(err)), -PEBS_E_PARSE);
}

/* A memory event on every profile plans and passes its own check. */
Test(plan, every_profile)
{
	for (unsigned i = 0; i < pebs_uarch_count(); i++) {
		const struct pebs_uarch *u = pebs_uarch_get(i);
		const char *spec = "load-latency";
		if (!(u->features & PEBS_UF_LDLAT))
			spec = u->events[0].name;
		struct pebs_plan *p = build(u->name, 0, &spec, 1);
		cr_assert_geq(pebs_plan_nwrites(p), 6);
		cr_assert_eq(pebs_plan_check(u, pebs_plan_write(p, 0),
					     pebs_plan_nwrites(p), NULL, NULL,
					     0), 0);
		pebs_plan_free(p);
	}
}

/* -------------------------------------------------- rules via build */

/* SPR load latency runs beside the auxiliary event 0x8203 (Linux
 * PMU_FL_MEM_LOADS_AUX): a counting, non-PEBS counter of its own. */
Test(plan, spr_ldlat_aux)
{
	struct pebs_plan *p = OK("spr", "load-latency:ldlat=30,u");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 1);
	cr_assert_eq(pebs_plan_naux(p), 1);
	const struct pebs_plan_aux *a = pebs_plan_aux(p, 0);
	cr_assert_str_eq(a->name, "mem-loads-aux");
	cr_assert_eq(a->select, 0x8203);
	cr_assert_eq(a->counter, 0);
	cr_assert_eq(a->event, 0);
	cr_assert_eq(a->evtsel, 0x418203ull, "EN USR, no INT/ADAPTIVE");
	cr_assert_null(pebs_plan_aux(p, 1));
	cr_assert_eq(value_of(p, 0x4c1, 0), 0);		/* from 0 */
	cr_assert_eq(value_of(p, 0x186, 0), 0x418203ull);
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x2, "no PEBS on the aux");
	cr_assert_eq(pebs_plan_global_ctrl(p), 0x3);
	cr_assert_eq(value_of(p, 0x38f, 1), 0x3);
	cr_assert_eq(pebs_plan_nresets(p), 1, "no DS reset for the aux");
	pebs_plan_free(p);
	/* store latency takes PMC0, the aux (PMC0-3) the next free one
	 * before load latency (PMC1-7) chooses */
	p = OK("spr", "load-latency", "MEM_TRANS_RETIRED.STORE_SAMPLE");
	cr_assert_eq(pebs_plan_event(p, 1)->counter, 0);
	cr_assert_eq(pebs_plan_aux(p, 0)->counter, 1);
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 2);
	pebs_plan_free(p);
	/* not without load latency, not on other profiles */
	p = OK("spr", "MEM_INST_RETIRED.ALL_LOADS");
	cr_assert_eq(pebs_plan_naux(p), 0);
	pebs_plan_free(p);
	p = OK("icx", "load-latency");
	cr_assert_eq(pebs_plan_naux(p), 0);
	pebs_plan_free(p);
	/* every counter taken by PEBS events: refused */
	REFUSED("spr", PEBS_RULE_LDLAT_AUX, "needs the auxiliary event "
		"0x8203", "load-latency", "r3c", "r13c", "r23c", "r2c2",
		"r1c2", "r4c2", "r8c2");
}

/* Event codes below 0x90 count on PMC0-3 only on spr (Linux core.c
 * intel_spr_event_constraints, INTEL_EVENT_CONSTRAINT_RANGE(0x01, 0x8f,
 * 0xf)), the auxiliary event 0x03 too: it takes part in the matching, so
 * the 0xD0 events move aside for it rather than leave it PMC4. */
Test(plan, spr_ldlat_aux_low_counters)
{
	struct pebs_plan *p = OK("spr", "MEM_INST_RETIRED.ALL_STORES",
				 "MEM_INST_RETIRED.ALL_LOADS",
				 "MEM_INST_RETIRED.SPLIT_LOADS", "load-latency");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 0);
	cr_assert_eq(pebs_plan_event(p, 1)->counter, 1);
	cr_assert_eq(pebs_plan_event(p, 2)->counter, 2);
	cr_assert_eq(pebs_plan_aux(p, 0)->counter, 3);
	cr_assert_eq(pebs_plan_event(p, 3)->counter, 4);
	cr_assert_eq(value_of(p, 0x189, 0), 0x438203ull);
	pebs_plan_free(p);
	/* four events that need PMC0-3 leave the auxiliary event none */
	REFUSED("spr", PEBS_RULE_LDLAT_AUX, "PMC0-PMC3",
		"MEM_INST_RETIRED.ALL_STORES", "MEM_INST_RETIRED.ALL_LOADS",
		"MEM_INST_RETIRED.SPLIT_LOADS", "MEM_LOAD_RETIRED.L1_HIT",
		"load-latency");
	/* a raw event below 0x90 is held to PMC0-3 as well, 0x2E and 0x3C
	 * excepted */
	REFUSED("spr", PEBS_RULE_PEBS_COUNTER, "PMC0-PMC3", "r108:pmc=5");
	p = OK("spr", "r3c:pmc=5", "r4f2e:pmc=6");
	pebs_plan_free(p);
}

Test(rules, names_stable)
{
	cr_assert_str_eq(pebs_rule_info(PEBS_RULE_PEBS_COUNTER)->name,
			 "pebs-counter");
	cr_assert_str_eq(pebs_rule_info(PEBS_RULE_WRITE_ORDER)->name,
			 "write-order");
	cr_assert_null(pebs_rule_info(PEBS_RULE_NONE));
	cr_assert_null(pebs_rule_info(PEBS_RULE_COUNT));
	for (unsigned r = 1; r < PEBS_RULE_COUNT; r++) {
		const struct pebs_rule_info *ri = pebs_rule_info(r);
		cr_assert_not_null(ri, "rule %u", r);
		cr_assert_eq(ri->id, r);
		cr_assert_eq(pebs_rule_by_name(ri->name), r);
		cr_assert(ri->summary && ri->source);
	}
	cr_assert_eq(pebs_rule_by_name("nope"), PEBS_RULE_NONE);
}

Test(rules, pebs_counter)
{
	REFUSED("snb", PEBS_RULE_PEBS_COUNTER,
		"MEM_TRANS_RETIRED.LOAD_LATENCY can only use PMC3 on snb",
		"load-latency:pmc=0");
	pebs_plan_free(OK("snb", "load-latency:pmc=3"));
	REFUSED("skl", PEBS_RULE_PEBS_COUNTER, "can only use PMC1",
		"INST_RETIRED.PREC_DIST:pmc=2");
	pebs_plan_free(OK("skl", "INST_RETIRED.PREC_DIST:pmc=1"));
	REFUSED("skl", PEBS_RULE_PEBS_COUNTER, "no PMC4",
		"r1d1:pmc=4");	/* 4 GP counters with HT */
	REFUSED("hsw", PEBS_RULE_PEBS_COUNTER, "PMC1: INST_RETIRED.PREC_DIST",
		"INST_RETIRED.PREC_DIST", "INST_RETIRED.PREC_DIST");
	REFUSED("spr", PEBS_RULE_PEBS_COUNTER, "PMC1-PMC7",
		"load-latency:pmc=0");
	REFUSED("spr", PEBS_RULE_PEBS_COUNTER, "no PMC8",
		"load-latency:pmc=8");
	pebs_plan_free(OK("spr", "load-latency:pmc=7"));
	/* SPR INST_RETIRED.* (event 0xC0, any umask): PMC1-7 */
	struct pebs_plan *p = OK("spr", "INST_RETIRED.ANY_P");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 1);
	pebs_plan_free(p);
	REFUSED("spr", PEBS_RULE_PEBS_COUNTER,
		"INST_RETIRED.ANY_P can only use PMC1-PMC7 on spr",
		"INST_RETIRED.ANY_P:pmc=0");
	REFUSED("spr", PEBS_RULE_PEBS_COUNTER, "r2c0 can only use PMC1-PMC7",
		"r2c0:pmc=0");
	p = OK("spr", "rc0");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 1);
	pebs_plan_free(p);
	p = OK("icx", "rc0");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 0);
	pebs_plan_free(p);
	/* icl/icx: the old PREC_DIST encoding 0x01C0 is the kernel's fixed
	 * counter 0 only, as 0x0100 is; other umasks of 0xC0 are not. */
	static const char *const uas[] = { "icl", "icx" };
	for (size_t i = 0; i < 2; i++) {
		struct pebs_plan_opts o = {
			.uarch = pebs_uarch_by_name(uas[i]) };
		const char *spec = "r1c0";
		char err[256] = "";
		struct pebs_plan *q = NULL;
		cr_assert_eq(pebs_plan_build(&q, &o, &spec, 1, NULL, err,
					     sizeof(err)),
			     -PEBS_E_RULE, "%s", uas[i]);
		cr_assert_null(q);
		cr_assert(strstr(err, "rule pebs-counter: r1c0 samples only "
				 "on fixed counter 0"), "%s", err);
	}
	p = OK("icl", "r2c0");
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 0);
	pebs_plan_free(p);
	p = OK("skl", "r1c0");	/* skl: PREC_DIST on PMC1 */
	cr_assert_eq(pebs_plan_event(p, 0)->counter, 1);
	pebs_plan_free(p);
}

Test(rules, fields_zero)
{
	REFUSED("skl", PEBS_RULE_FIELDS_ZERO, "AnyThread",
		"MEM_LOAD_RETIRED.L1_HIT:any");
	REFUSED("skl", PEBS_RULE_FIELDS_ZERO, "Edge", "r1d1:edge");
	REFUSED("hsw", PEBS_RULE_FIELDS_ZERO, "Invert", "precise-store:inv");
	REFUSED("snb", PEBS_RULE_FIELDS_ZERO, "CMask", "r10000c0");
	REFUSED("skl", PEBS_RULE_FIELDS_ZERO, "CMask",
		"frontend:sub=dsb_miss,cmask=1");
	pebs_plan_free(OK("skl", "r1d1"));
}

Test(rules, ldlat_support_min_max)
{
	REFUSED("core2", PEBS_RULE_LDLAT_SUPPORT, "core2", "load-latency");
	REFUSED("glm", PEBS_RULE_LDLAT_SUPPORT, "glm has no load-latency "
		"facility: its PEBS record (format 3) has the data-source and "
		"latency fields, but Goldmont keeps them reserved",
		"load-latency");
	REFUSED("glp", PEBS_RULE_LDLAT_SUPPORT, "Goldmont keeps them reserved",
		"load-latency");
	REFUSED("core2", PEBS_RULE_LDLAT_SUPPORT, "needs the enhanced PEBS "
		"record of Nehalem", "load-latency");
	REFUSED("skl", PEBS_RULE_LDLAT_MIN, "ldlat=2 is below 3",
		"load-latency:ldlat=2");
	REFUSED("nhm", PEBS_RULE_LDLAT_MIN, "ldlat=0", "load-latency:ldlat=0");
	pebs_plan_free(OK("skl", "load-latency:ldlat=3"));
	REFUSED("skl", PEBS_RULE_LDLAT_MAX, "65535",
		"load-latency:ldlat=65536");
	struct pebs_plan *p = OK("skl", "load-latency:ldlat=65535");
	cr_assert_eq(value_of(p, 0x3f6, 0), 0xffff);
	pebs_plan_free(p);
	/* default threshold: the SDM minimum */
	p = OK("hsw", "load-latency");
	cr_assert_eq(value_of(p, 0x3f6, 0), 3);
	pebs_plan_free(p);
}

Test(rules, ldlat_cmask_inv)
{
	REFUSED("skl", PEBS_RULE_LDLAT_CMASK_INV, "CMASK and INV 0",
		"load-latency:cmask=1");
	REFUSED("nhm", PEBS_RULE_LDLAT_CMASK_INV, "CMASK and INV 0",
		"load-latency:inv");
	REFUSED("snb", PEBS_RULE_LDLAT_CMASK_INV, "r800001cd",
		"r800001cd");
}

Test(rules, ldlat_alone)
{
	REFUSED("snb", PEBS_RULE_LDLAT_ALONE, "beside load latency",
		"load-latency", "MEM_LOAD_UOPS_RETIRED.L1_HIT");
	REFUSED("ivb", PEBS_RULE_LDLAT_ALONE, "on ivb",
		"INST_RETIRED.PREC_DIST", "load-latency");
	REFUSED("snb", PEBS_RULE_LDLAT_ALONE, "PRECISE_STORE",
		"load-latency", "precise-store");
	/* only SNB/IVB: NHM and HSW take other PEBS events beside it */
	pebs_plan_free(OK("nhm", "load-latency", "MEM_INST_RETIRED.STORES"));
	pebs_plan_free(OK("hsw", "load-latency", "precise-store"));
}

Test(rules, ldlat_conflict)
{
	REFUSED("skl", PEBS_RULE_LDLAT_CONFLICT, "thresholds 10",
		"load-latency:ldlat=10", "load-latency:ldlat=20");
	REFUSED("skl", PEBS_RULE_LDLAT_CONFLICT, "thresholds 3",
		"load-latency", "r1cd:ldlat=4");
	struct pebs_plan *p = OK("skl", "load-latency:ldlat=10",
				 "MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=10");
	/* two LL counters: both PEBS_EN and LL_EN pairs */
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x300000003ull);
	pebs_plan_free(p);
}

Test(rules, pstore)
{
	REFUSED("nhm", PEBS_RULE_PSTORE_SUPPORT, "nhm", "precise-store");
	REFUSED("core2", PEBS_RULE_PSTORE_SUPPORT, "core2", "precise-store");
	REFUSED("snb", PEBS_RULE_PSTORE_PMC3, "can only use PMC3",
		"precise-store:pmc=2");
	REFUSED("ivb", PEBS_RULE_PSTORE_PMC3, "already taken",
		"precise-store", "precise-store");
	pebs_plan_free(OK("ivb", "precise-store", "INST_RETIRED.PREC_DIST"));
}

Test(rules, frontend)
{
	REFUSED("bdw", PEBS_RULE_FRONTEND_SUPPORT, "bdw",
		"frontend:sub=dsb_miss");
	REFUSED("skl", PEBS_RULE_FRONTEND_MSR, "width=5 is outside 1-4",
		"frontend:sub=idq_bubbles,latency=2,width=5");
	REFUSED("skl", PEBS_RULE_FRONTEND_MSR, "width=0",
		"frontend:sub=idq_bubbles,latency=2,width=0");
	REFUSED("skl", PEBS_RULE_FRONTEND_MSR, "latency=0 is outside 1-4095",
		"frontend:sub=idq_bubbles,latency=0,width=1");
	REFUSED("skl", PEBS_RULE_FRONTEND_MSR, "latency=4096",
		"frontend:sub=idq_bubbles,latency=4096,width=1");
	pebs_plan_free(OK("icl", "frontend:sub=idq_bubbles,latency=2,"
			  "width=5"));
	REFUSED("icl", PEBS_RULE_FRONTEND_MSR, "outside 1-5",
		"frontend:sub=idq_bubbles,latency=2,width=6");
	REFUSED("skl", PEBS_RULE_FRONTEND_CONFLICT, "different",
		"frontend:sub=dsb_miss", "frontend:sub=l1i_miss");
	pebs_plan_free(OK("skl", "frontend:sub=dsb_miss",
			  "frontend:sub=dsb_miss"));
}

/* FRONTEND_RETIRED.MS_FLOWS: MSR_PEBS_FRONTEND 0x8 (perf's sapphirerapids
 * frontend.json), in the kernel's mask on spr alone */
Test(rules, frontend_ms_flows)
{
	struct pebs_plan *p = OK("spr", "frontend:sub=ms_flows");
	cr_assert_eq(pebs_plan_event(p, 0)->frontend, 0x8);
	cr_assert_eq(value_of(p, 0x3f7, 0), 0x8);
	pebs_plan_free(p);
	pebs_plan_free(OK("spr", "cpu/event=0xc6,umask=0x1,frontend=0x8/P"));
	/* elsewhere: frontend-msr naming spr, also as perf's frontend=;
	 * before skl no front-end event at all */
	static const struct {
		const char *u, *spec, *needle;
		enum pebs_rule rule;
	} bad[] = {
		{ "skl", "frontend:sub=ms_flows", "on spr only",
		  PEBS_RULE_FRONTEND_MSR },
		{ "skx", "frontend:sub=ms_flows", "on spr only",
		  PEBS_RULE_FRONTEND_MSR },
		{ "icx", "frontend:sub=ms_flows", "not on icx",
		  PEBS_RULE_FRONTEND_MSR },
		{ "icl", "cpu/event=0xc6,umask=0x1,frontend=0x8/P",
		  "on spr only", PEBS_RULE_FRONTEND_MSR },
		{ "hsw", "frontend:sub=ms_flows", "hsw",
		  PEBS_RULE_FRONTEND_SUPPORT },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		REFUSED(bad[i].u, bad[i].rule, bad[i].needle, bad[i].spec);
	REFUSED("spr", PEBS_RULE_FRONTEND_CONFLICT, "different",
		"frontend:sub=ms_flows", "frontend:sub=dsb_miss");
}

Test(rules, too_many_and_glm)
{
	REFUSED("skl", PEBS_RULE_TOO_MANY, "5 events but skl has 4",
		"r1d1", "r2d1", "r4d1", "r8d1", "r10d1");
	pebs_plan_free(OK("skl", "r1d1", "r2d1", "r4d1", "r8d1"));
	REFUSED("core2", PEBS_RULE_TOO_MANY, "1 PEBS counters",
		"MEM_LOAD_RETIRED.L2_MISS", "INST_RETIRED.ANY_P");
	REFUSED("glm", PEBS_RULE_GLM_PMC0, "one event, not 2",
		"MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED.ALL_STORES");
	REFUSED("glm", PEBS_RULE_GLM_PMC0, "can only use PMC0",
		"MEM_UOPS_RETIRED.ALL_LOADS:pmc=1");
	struct pebs_plan *p = OK("glm", "MEM_UOPS_RETIRED.ALL_LOADS");
	cr_assert_eq(value_of(p, 0x3f1, 0), 0x1);
	cr_assert_eq(value_of(p, 0x4c1, 0), 0xfffffffe795dull);
	pebs_plan_free(p);
	/* Goldmont takes non-precise events on PMC0 (SDM 18.7.1) */
	pebs_plan_free(OK("glm", "ICACHE.HIT"));
}

Test(rules, pebs_event)
{
	REFUSED("skl", PEBS_RULE_PEBS_EVENT, "UOPS_ISSUED.ANY",
		"UOPS_ISSUED.ANY");
	REFUSED("hsw", PEBS_RULE_PEBS_EVENT, "not a PEBS",
		"INST_RETIRED.ANY_P");
	/* extended PEBS (ICL) takes any event */
	pebs_plan_free(OK("icl", "UOPS_ISSUED.ANY"));
}

Test(rules, period)
{
	REFUSED("core2", PEBS_RULE_PERIOD, "legacy 32-bit",
		"MEM_LOAD_RETIRED.L2_MISS:period=2147483648");
	struct pebs_plan *p = OK("core2",
				 "MEM_LOAD_RETIRED.L2_MISS:period=2147483647");
	/* 40-bit counter, legacy write */
	cr_assert_eq(value_of(p, 0xc1, 0), 0xff80000001ull);
	cr_assert_eq(pebs_plan_reset(p, 0)->offset, 0x40);
	pebs_plan_free(p);
	REFUSED("skl", PEBS_RULE_PERIOD, "period 0", "r1d1:period=0");
	REFUSED("skl", PEBS_RULE_PERIOD, "full-width",
		"r1d1:period=0x800000000000");
	pebs_plan_free(OK("skl", "r1d1:period=0x7fffffffffff"));
	/* errata minimums (Linux limit_period), refused, not rounded */
	REFUSED("nhm", PEBS_RULE_PERIOD, "period 1 of MEM_INST_RETIRED."
		"LATENCY_ABOVE_THRESHOLD is below 32, the smallest on nhm",
		"load-latency:period=1");
	REFUSED("wsm", PEBS_RULE_PERIOD, "below 32", "r10b:period=31");
	pebs_plan_free(OK("wsm", "load-latency:period=32"));
	REFUSED("hsw", PEBS_RULE_PERIOD, "below 32", "r81d0:period=31");
	REFUSED("hsw", PEBS_RULE_PERIOD, "period 127 of INST_RETIRED.PREC_DIST"
		" is below 128, the smallest on hsw (erratum HSW11",
		"INST_RETIRED.PREC_DIST:period=127");
	pebs_plan_free(OK("hsw", "INST_RETIRED.PREC_DIST:period=128"));
	REFUSED("bdw", PEBS_RULE_PERIOD, "below 128", "r1c0:period=64");
	REFUSED("bdw", PEBS_RULE_PERIOD, "not a multiple of 64 on bdw "
		"(errata BDM11/BDM55, Linux bdw_limit_period): use 99968 or "
		"100032", "INST_RETIRED.PREC_DIST:period=100003");
	/* the default, which nobody asked for, is rounded up instead */
	struct pebs_plan *d = OK("bdw", "INST_RETIRED.PREC_DIST");
	cr_assert_eq(pebs_plan_event(d, 0)->period, 100032);
	pebs_plan_free(d);
	d = OK("nhm", "load-latency");
	cr_assert_eq(pebs_plan_event(d, 0)->period, 100003);
	pebs_plan_free(d);
	struct pebs_plan *q = OK("bdw", "INST_RETIRED.PREC_DIST:period=192");
	cr_assert_eq(pebs_plan_event(q, 0)->period, 192);
	pebs_plan_free(q);
	pebs_plan_free(OK("bdw", "load-latency:period=1"));
	pebs_plan_free(OK("skl", "load-latency:period=1"));
}

/* ------------------------------------------------- rules via check */

static void check_refuses(const char *uarch, struct pebs_msr_write *w,
			  size_t n, enum pebs_rule want, const char *needle)
{
	enum pebs_rule rule = PEBS_RULE_NONE;
	char err[512] = "";
	int r = pebs_plan_check(pebs_uarch_by_name(uarch), w, n, &rule, err,
				sizeof(err));
	cr_assert_eq(r, -PEBS_E_RULE, "%s: %d (%s)", uarch, r, err);
	cr_assert_eq(rule, want, "rule %d want %d: %s", rule, want, err);
	cr_assert(strstr(err, needle), "'%s' lacks '%s'", err, needle);
}

/* A copy of the writes of a good plan, to break one value. */
static struct pebs_msr_write *copy_writes(const char *uarch, const char *s,
					  size_t *n)
{
	struct pebs_plan *p = build(uarch, 0, &s, 1);
	*n = pebs_plan_nwrites(p);
	struct pebs_msr_write *w = malloc(*n * sizeof(*w));
	for (size_t i = 0; i < *n; i++)
		w[i] = *pebs_plan_write(p, i);
	pebs_plan_free(p);
	return w;
}

static size_t idx_of(struct pebs_msr_write *w, size_t n, uint32_t msr)
{
	for (size_t i = 0; i < n; i++)
		if (w[i].msr == msr)
			return i;
	cr_assert_fail("no MSR 0x%x", msr);
	return 0;
}

Test(check, good_plan_passes)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("snb", "load-latency", &n);
	cr_assert_eq(pebs_plan_check(pebs_uarch_by_name("snb"), w, n, NULL,
				     NULL, 0), 0);
	free(w);
}

Test(check, ldlat_enable)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("snb", "load-latency", &n);
	size_t i = idx_of(w, n, 0x3f1);
	w[i].value = 0x8;	/* PEBS_EN_PMC3 without LL_EN_PMC3 */
	check_refuses("snb", w, n, PEBS_RULE_LDLAT_ENABLE, "LL_EN_PMC3");
	w[i].value = 0x800000000ull;	/* LL_EN without PEBS_EN */
	check_refuses("snb", w, n, PEBS_RULE_LDLAT_ENABLE,
		      "without PEBS_EN_PMC3");
	free(w);
}

Test(check, spr_inst_retired_not_pmc0)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("spr", "r4c0", &n);
	const struct pebs_uarch *u = pebs_uarch_by_name("spr");
	cr_assert_eq(pebs_plan_check(u, w, n, NULL, NULL, 0), 0);
	/* move it to PMC0 by hand: counter, select, enable bits */
	for (size_t i = 0; i < n; i++) {
		if (w[i].msr == 0x4c2)
			w[i].msr = 0x4c1;
		else if (w[i].msr == 0x187)
			w[i].msr = 0x186;
		else if (w[i].msr == 0x3f1 || (w[i].msr == 0x38f &&
					       w[i].value))
			w[i].value = 0x1;
	}
	check_refuses("spr", w, n, PEBS_RULE_PEBS_COUNTER, "not PMC0");
	free(w);
}

Test(check, ldlat_aux)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("spr", "load-latency", &n);
	const struct pebs_uarch *u = pebs_uarch_by_name("spr");
	cr_assert_eq(pebs_plan_check(u, w, n, NULL, NULL, 0), 0);
	size_t i = idx_of(w, n, 0x186);
	w[i].value &= ~PEBS_EVTSEL_EN;	/* the aux not enabled */
	check_refuses("spr", w, n, PEBS_RULE_LDLAT_AUX,
		      "without the auxiliary event 0x8203");
	w[i].value |= PEBS_EVTSEL_EN;
	i = idx_of(w, n, 0x3f1);
	w[i].value |= 0x1;	/* the aux made a PEBS counter */
	check_refuses("spr", w, n, PEBS_RULE_LDLAT_AUX, "auxiliary");
	free(w);
	/* the aux moved to PMC4, where event 0x03 cannot count on spr */
	w = copy_writes("spr", "load-latency", &n);
	for (size_t k = 0; k < n; k++) {
		if (w[k].msr == 0x4c1)
			w[k].msr = 0x4c5;
		else if (w[k].msr == 0x186)
			w[k].msr = 0x18a;
		else if (w[k].msr == 0x38f && w[k].value)
			w[k].value = 0x12;
		else if (w[k].msr == 0x390)
			w[k].value = 0x12 | PEBS_STATUS_DS_THRESH;
	}
	check_refuses("spr", w, n, PEBS_RULE_LDLAT_AUX, "PMC4");
	free(w);
}

Test(check, pstore_pmc3)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("snb", "precise-store", &n);
	size_t i = idx_of(w, n, 0x3f1);
	w[i].value = 0x8;	/* no PS_EN */
	check_refuses("snb", w, n, PEBS_RULE_PSTORE_PMC3, "PS_EN");
	free(w);
	w = copy_writes("snb", "MEM_LOAD_UOPS_RETIRED.L1_HIT", &n);
	i = idx_of(w, n, 0x3f1);
	w[i].value |= PEBS_PE_PS_EN;	/* PS_EN without the store event */
	check_refuses("snb", w, n, PEBS_RULE_PSTORE_PMC3,
		      "PS_EN is set without");
	free(w);
}

Test(check, reserved_bits)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("hsw", "load-latency", &n);
	size_t i = idx_of(w, n, 0x3f1);
	w[i].value |= PEBS_PE_PS_EN;	/* no precise store on HSW */
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED, "does not define");
	w[i].value = 0x100000001ull | 1ull << 4;	/* PMC4: no such */
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED, "0x10");
	free(w);
	w = copy_writes("hsw", "load-latency", &n);
	i = idx_of(w, n, 0x3f6);
	w[i].value = 0x10000;
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED,
		      "MSR_PEBS_LD_LAT_THRESHOLD");
	i = idx_of(w, n, 0x186);
	w[idx_of(w, n, 0x3f6)].value = 3;
	w[i].value |= PEBS_EVTSEL_ADAPTIVE;	/* not before ICL */
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED, "IA32_PERFEVTSEL0");
	w[i].value &= ~PEBS_EVTSEL_ADAPTIVE;
	w[idx_of(w, n, 0x4c1)].value = 1ull << 48;	/* 48-bit counter */
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED, "IA32_A_PMC0");
	w[idx_of(w, n, 0x4c1)].value = 1;
	w[1].value = 0x0000800000000000ull;	/* non-canonical DS_AREA */
	check_refuses("hsw", w, n, PEBS_RULE_RESERVED, "canonical");
	free(w);
	/* an MSR the profile lacks */
	w = copy_writes("nhm", "load-latency", &n);
	w[idx_of(w, n, 0xc1)].msr = 0x4c1;
	check_refuses("nhm", w, n, PEBS_RULE_RESERVED, "does not exist");
	free(w);
	w = copy_writes("skl", "load-latency", &n);
	w[idx_of(w, n, 0x3f6)].msr = PEBS_MSR_DATA_CFG;
	check_refuses("skl", w, n, PEBS_RULE_RESERVED, "MSR_PEBS_DATA_CFG");
	free(w);
	struct pebs_msr_write bad = { 0x10, "TSC", -1, 0, 0 };
	cr_assert_eq(pebs_plan_check(pebs_uarch_by_name("skl"), &bad, 1,
				     NULL, NULL, 0), -PEBS_E_INVAL);
}

Test(check, write_order)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("skl", "load-latency", &n);
	struct pebs_msr_write t = w[0];
	w[0] = w[1];
	w[1] = t;	/* DS_AREA before the disable */
	check_refuses("skl", w, n, PEBS_RULE_WRITE_ORDER, "first write");
	free(w);
	w = copy_writes("skl", "load-latency", &n);
	/* enable before PEBS_ENABLE: PEBS_ENABLE written while counting */
	t = w[n - 1];
	w[n - 1] = w[n - 2];
	w[n - 2] = t;
	check_refuses("skl", w, n, PEBS_RULE_WRITE_ORDER, "after the");
	/* never enabled */
	check_refuses("skl", w, n - 2, PEBS_RULE_WRITE_ORDER, "do not end");
	free(w);
}

Test(check, fields_counter_alone_glm)
{
	size_t n;
	struct pebs_msr_write *w = copy_writes("skl", "r1d1", &n);
	w[idx_of(w, n, 0x186)].value |= PEBS_EVTSEL_EDGE;
	check_refuses("skl", w, n, PEBS_RULE_FIELDS_ZERO, "IA32_PERFEVTSEL0");
	free(w);
	w = copy_writes("skl", "load-latency", &n);
	w[idx_of(w, n, 0x186)].value |= 1ull << 24;
	check_refuses("skl", w, n, PEBS_RULE_LDLAT_CMASK_INV, "CMASK/INV");
	free(w);
	/* PREC_DIST moved to PMC0 by hand */
	w = copy_writes("skl", "INST_RETIRED.PREC_DIST", &n);
	for (size_t i = 0; i < n; i++) {
		if (w[i].msr == 0x4c2)
			w[i].msr = 0x4c1;
		if (w[i].msr == 0x187)
			w[i].msr = 0x186;
		if (w[i].msr == 0x3f1 || (w[i].msr == 0x38f && w[i].value))
			w[i].value = 1;
	}
	check_refuses("skl", w, n, PEBS_RULE_PEBS_COUNTER, "only use PMC1");
	free(w);
	/* GLM PEBS_EN_PMC1 */
	w = copy_writes("glm", "MEM_UOPS_RETIRED.ALL_LOADS", &n);
	w[idx_of(w, n, 0x3f1)].value = 0x2;
	check_refuses("glm", w, n, PEBS_RULE_RESERVED, "does not define");
	free(w);
	/* frontend value broken after the plan */
	w = copy_writes("skl", "frontend:sub=dsb_miss", &n);
	w[idx_of(w, n, 0x3f7)].value = 0x16;
	check_refuses("skl", w, n, PEBS_RULE_FRONTEND_MSR, "Table 18-58");
	w[idx_of(w, n, 0x3f7)].value = 0x100011;
	check_refuses("skl", w, n, PEBS_RULE_FRONTEND_MSR, "only to IDQ");
	w[idx_of(w, n, 0x3f7)].value = 0x000006;
	check_refuses("skl", w, n, PEBS_RULE_FRONTEND_MSR, "latency 0");
	/* bit 3 (FRONTEND_RETIRED.MS_FLOWS, 0x08) is reserved before spr */
	w[idx_of(w, n, 0x3f7)].value = 0x8;
	check_refuses("skl", w, n, PEBS_RULE_RESERVED, "0x8");
	free(w);
	/* spr defines it: Linux core.c intel_spr_extra_regs mask 0x7fff1f
	 * ("perf/x86/intel: Update the FRONTEND MSR mask on Sapphire
	 * Rapids"), the sub-event ms_flows */
	cr_assert_eq(pebs_plan_fe_valid_mask(pebs_uarch_by_name("spr")),
		     0x7fff1f);
	cr_assert_eq(pebs_plan_fe_valid_mask(pebs_uarch_by_name("icx")),
		     0x7fff17);
	cr_assert_eq(pebs_plan_fe_valid_mask(pebs_uarch_by_name("hsw")), 0);
	w = copy_writes("spr", "frontend:sub=dsb_miss", &n);
	w[idx_of(w, n, 0x3f7)].value = 0x8;
	cr_assert_eq(pebs_plan_check(pebs_uarch_by_name("spr"), w, n, NULL,
				     NULL, 0), 0);
	w[idx_of(w, n, 0x3f7)].value = 0x108;
	check_refuses("spr", w, n, PEBS_RULE_FRONTEND_MSR, "only to IDQ");
	w[idx_of(w, n, 0x3f7)].value = 0x9;
	check_refuses("spr", w, n, PEBS_RULE_FRONTEND_MSR, "Table 18-58");
	w[idx_of(w, n, 0x3f7)].value = 0x20;
	check_refuses("spr", w, n, PEBS_RULE_RESERVED, "0x20");
	free(w);
	/* SNB: a second PEBS counter beside load latency */
	w = copy_writes("snb", "load-latency", &n);
	w[idx_of(w, n, 0x3f1)].value |= 1;
	check_refuses("snb", w, n, PEBS_RULE_PEBS_COUNTER, "PEBS_EN_PMC0");
	free(w);
	/* threshold below 3 written by hand */
	w = copy_writes("nhm", "load-latency", &n);
	w[idx_of(w, n, 0x3f6)].value = 2;
	check_refuses("nhm", w, n, PEBS_RULE_LDLAT_MIN, "below 3");
	free(w);
}

Test(check, ldlat_alone_by_values)
{
	/* LL on PMC3 plus a programmed PEBS event on PMC0 */
	struct pebs_msr_write w[] = {
		{ 0x38f, "IA32_PERF_GLOBAL_CTRL", -1, 0, 0 },
		{ 0x4c1, "IA32_A_PMC0", -1, 0xfffffffff000ull, 0 },
		{ 0x186, "IA32_PERFEVTSEL0", -1, 0x4301d1, 0 },
		{ 0x4c4, "IA32_A_PMC3", -1, 0xfffffffff000ull, 0 },
		{ 0x189, "IA32_PERFEVTSEL3", -1, 0x4301cd, 0 },
		{ 0x3f6, "MSR_PEBS_LD_LAT_THRESHOLD", -1, 3, 0 },
		{ 0x3f1, "IA32_PEBS_ENABLE", -1, 0x800000009ull, 0 },
		{ 0x38f, "IA32_PERF_GLOBAL_CTRL", -1, 0x9, 0 },
	};
	check_refuses("snb", w, 8, PEBS_RULE_LDLAT_ALONE, "beside load");
	/* the same on HSW is fine */
	cr_assert_eq(pebs_plan_check(pebs_uarch_by_name("hsw"), w, 8, NULL,
				     NULL, 0), 0);
}

Test(check, period_errata)
{
	size_t n;
	const char *s = "load-latency";
	struct pebs_plan *p = build("hsw", 32, &s, 1);
	n = pebs_plan_nwrites(p);
	struct pebs_msr_write *w = malloc(n * sizeof(*w));
	for (size_t i = 0; i < n; i++)
		w[i] = *pebs_plan_write(p, i);
	pebs_plan_free(p);
	cr_assert_eq(pebs_plan_check(pebs_uarch_by_name("hsw"), w, n, NULL,
				     NULL, 0), 0);
	for (size_t i = 0; i < n; i++)
		if (w[i].msr == 0x4c1)
			w[i].value = 0xffffffffffe1ull;	/* period 31 */
	check_refuses("hsw", w, n, PEBS_RULE_PERIOD, "below 32");
	free(w);
}
