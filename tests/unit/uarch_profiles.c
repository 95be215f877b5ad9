/*
 * Microarchitecture profiles: internal consistency of every profile, the
 * facts the SDM and the kernel state for each (pebs-facts.md sections 1,
 * 3, 5), lookups and CPUID detection.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_plan.h"
#include "pebs_uarch.h"

static const char *const contract_names[] = {
	"core2", "nhm", "wsm", "snb", "ivb", "hsw", "bdw", "skl", "skx",
	"glm", "glp", "icl", "spr",
};

static const struct pebs_uarch *U(const char *name)
{
	const struct pebs_uarch *u = pebs_uarch_by_name(name);

	cr_assert_not_null(u, "profile %s", name);
	return u;
}

Test(uarch, contract_names_exist)
{
	for (size_t i = 0; i < sizeof(contract_names) / sizeof(*contract_names);
	     i++) {
		const struct pebs_uarch *u = U(contract_names[i]);
		cr_assert_str_eq(u->name, contract_names[i]);
	}
	cr_assert_eq(pebs_uarch_by_name("SKL"), U("skl"));
	cr_assert_null(pebs_uarch_by_name("k8"));
	cr_assert_null(pebs_uarch_by_name(NULL));
	cr_assert_null(pebs_uarch_get(pebs_uarch_count()));
}

/* The list of names in messages: every profile once, in order, and a
 * short buffer gets whole names only. */
Test(uarch, names_list)
{
	char buf[256], want[256] = "", small[12];
	for (unsigned i = 0; i < pebs_uarch_count(); i++) {
		if (i)
			strcat(want, " ");
		strcat(want, pebs_uarch_get(i)->name);
	}
	cr_assert_str_eq(pebs_uarch_names(buf, sizeof(buf)), want);
	cr_assert_str_eq(pebs_uarch_names(small, sizeof(small)), "core2 nhm");
	cr_assert_str_eq(pebs_uarch_names(small, 1), "");
	cr_assert_eq(pebs_uarch_names(small, 0), small);
}

Test(uarch, every_profile_consistent)
{
	for (unsigned i = 0; i < pebs_uarch_count(); i++) {
		const struct pebs_uarch *u = pebs_uarch_get(i);
		uint64_t all = ((1ull << u->n_gp) - 1) |
			       (((1ull << u->n_fixed) - 1) << 32);
		int adaptive = u->pebs_fmt >= PEBS_FMT_ICL;
		const struct pebs_uarch_event *ll =
			pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY);

		cr_assert_not_null(u->desc);
		cr_assert_not_null(u->notes);
		cr_assert_eq(u->family, 6u);
		cr_assert_gt(u->nmodels, 0u, "%s", u->name);
		/* names unique */
		for (unsigned j = 0; j < i; j++)
			cr_assert_str_neq(u->name, pebs_uarch_get(j)->name);
		/* record size follows the format (SDM table sizes) */
		static const unsigned sizes[] = { 144, 176, 192, 200, 0, 0 };
		cr_assert_leq(u->pebs_fmt, 5u);
		cr_assert_eq(u->rec_size, sizes[u->pebs_fmt], "%s", u->name);
		cr_assert_eq(!!(u->features & PEBS_UF_ADAPTIVE), adaptive);
		cr_assert_eq(!!(u->features & PEBS_UF_EVENTING_IP),
			     u->pebs_fmt >= 2, "%s", u->name);
		cr_assert_eq(!!(u->features & PEBS_UF_TSC),
			     u->pebs_fmt >= 3, "%s", u->name);
		cr_assert(u->features & PEBS_UF_TRAP);
		/* PEBS counters exist on this PMU */
		cr_assert_eq(u->pebs_counters & ~all, 0ull, "%s", u->name);
		cr_assert_eq(u->ldlat_counters & ~u->pebs_counters, 0ull);
		cr_assert_eq(u->store_counters & ~u->pebs_counters, 0ull);
		/* load latency: feature, event and counters agree */
		cr_assert_eq(!!(u->features & PEBS_UF_LDLAT), ll != NULL,
			     "%s", u->name);
		if (ll) {
			cr_assert_eq(ll->counters, u->ldlat_counters);
			cr_assert_eq(u->ldlat_min, 3u);
		} else {
			cr_assert_eq(u->ldlat_counters, 0ull);
		}
		/* LL_EN bits exist only with load latency before v5 */
		cr_assert_eq(!!(u->features & PEBS_UF_LL_EN),
			     ll != NULL && u->pmu_version < 5, "%s", u->name);
		cr_assert_eq(!!(u->features & PEBS_UF_FRONTEND),
			     pebs_uarch_event_by_kind(u, PEBS_EVK_FRONTEND) !=
			     NULL, "%s", u->name);
		cr_assert_eq(!!(u->features & PEBS_UF_PSTORE),
			     pebs_uarch_event_by_kind(u,
				PEBS_EVK_PRECISE_STORE) != NULL);
		cr_assert_eq(!!(u->features & PEBS_UF_STLAT),
			     pebs_uarch_event_by_kind(u,
				PEBS_EVK_STORE_LATENCY) != NULL);
		/* events: counters allowed, names unique, codes unique */
		for (unsigned e = 0; e < u->nevents; e++) {
			const struct pebs_uarch_event *ev = &u->events[e];
			cr_assert_neq(ev->counters, 0ull, "%s", ev->name);
			cr_assert_eq(ev->counters & ~u->pebs_counters, 0ull,
				     "%s %s", u->name, ev->name);
			cr_assert_lt(ev->kind, PEBS_EVK_COUNT);
			cr_assert_eq(pebs_uarch_event_by_name(u, ev->name),
				     ev);
			cr_assert_eq(pebs_uarch_event_by_code(u, ev->event,
					ev->umask), ev, "%s", ev->name);
		}
		/* every model maps back to this profile */
		for (unsigned m = 0; m < u->nmodels; m++)
			cr_assert_eq(pebs_uarch_by_model(6, u->models[m]), u,
				     "model 0x%x", u->models[m]);
	}
}

/* pebs-facts.md section 5 constraint masks and section 3 formats. */
Test(uarch, facts_per_profile)
{
	const struct pebs_uarch *u;

	u = U("core2");
	cr_assert_eq(u->pebs_fmt, 0u);
	cr_assert_eq(u->pebs_counters, 0x1ull);
	u = U("nhm");
	cr_assert_eq(u->pebs_fmt, 1u);
	cr_assert_eq(u->ldlat_counters, 0xfull);
	cr_assert_eq(u->dsrc, PEBS_UDSRC_NHM);
	cr_assert_eq(pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY)->event,
		     0x0b);
	cr_assert_eq(pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY)->umask,
		     0x10);
	cr_assert_eq(U("wsm")->dsrc, PEBS_UDSRC_NHM);

	for (int i = 0; i < 2; i++) {
		u = U(i ? "ivb" : "snb");
		cr_assert_eq(u->pebs_fmt, 1u);
		cr_assert_eq(u->ldlat_counters, 0x8ull, "PMC3 only");
		cr_assert_eq(u->store_counters, 0x8ull, "PMC3 only");
		cr_assert(u->features & PEBS_UF_PSTORE);
		const struct pebs_uarch_event *e =
			pebs_uarch_event_by_name(u,
				"MEM_TRANS_RETIRED.PRECISE_STORE");
		cr_assert_not_null(e);
		cr_assert_eq(e->event, 0xcd);
		cr_assert_eq(e->umask, 0x02);
		cr_assert_eq(e->kind, PEBS_EVK_PRECISE_STORE);
		e = pebs_uarch_event_by_name(u, "INST_RETIRED.PREC_DIST");
		cr_assert_eq(e->counters, 0x2ull);
		cr_assert_eq(u->dsrc, PEBS_UDSRC_SNB);
	}
	for (int i = 0; i < 2; i++) {
		u = U(i ? "bdw" : "hsw");
		cr_assert_eq(u->pebs_fmt, 2u);
		cr_assert_eq(u->ldlat_counters, 0xfull);
		cr_assert(u->features & PEBS_UF_DATALA);
		cr_assert(u->features & PEBS_UF_TSX);
		const struct pebs_uarch_event *e =
			pebs_uarch_event_by_kind(u, PEBS_EVK_DATALA_STORE);
		cr_assert_str_eq(e->name, "MEM_UOPS_RETIRED.ALL_STORES");
		cr_assert_eq(e->event, 0xd0);
		cr_assert_eq(e->umask, 0x82);
		cr_assert_null(pebs_uarch_event_by_kind(u,
			PEBS_EVK_PRECISE_STORE));
	}
	u = U("skl");
	cr_assert_eq(u->pebs_fmt, 3u);
	cr_assert(u->features & PEBS_UF_FRONTEND);
	cr_assert(u->features & PEBS_UF_LL_EN);
	cr_assert_str_eq(pebs_uarch_event_by_kind(u,
		PEBS_EVK_DATALA_STORE)->name, "MEM_INST_RETIRED.ALL_STORES");
	cr_assert_eq(pebs_uarch_event_by_kind(u, PEBS_EVK_FRONTEND)->event,
		     0xc6);
	/* FRONTEND_RETIRED is umask 0x01 on every profile with it (perf's
	 * skylake, icelake, sapphirerapids frontend.json; the kernel's
	 * intel_spr_extra_regs 0x01c6); 0x03 is Redwood Cove's */
	const char *fe[] = { "skl", "skx", "icl", "icx", "spr" };
	for (size_t i = 0; i < sizeof(fe) / sizeof(fe[0]); i++) {
		const struct pebs_uarch_event *f =
			pebs_uarch_event_by_kind(U(fe[i]), PEBS_EVK_FRONTEND);
		cr_assert_not_null(f, "%s", fe[i]);
		cr_assert_eq((unsigned)(f->umask << 8 | f->event),
			     PEBS_FE_EVTSEL, "%s", fe[i]);
		cr_assert_null(pebs_uarch_event_by_code(U(fe[i]), 0xc6, 0x03),
			       "%s", fe[i]);
	}
	cr_assert_eq(u->dsrc, PEBS_UDSRC_SKL);
	cr_assert_eq(U("skx")->dsrc, PEBS_UDSRC_SKX);
	cr_assert_eq(U("skx")->models[0], 0x55);

	u = U("glm");
	cr_assert_eq(u->pebs_fmt, 3u);
	cr_assert_eq(u->pebs_counters, 0x1ull, "GLM: PMC0 only (SDM 18.7.1)");
	cr_assert_eq(u->dsrc, PEBS_UDSRC_NONE);
	cr_assert_eq(u->ldlat_counters, 0ull);
	u = U("glp");
	cr_assert_eq(u->pebs_counters & 0xf, 0xfull);

	u = U("icl");
	cr_assert_eq(u->pebs_fmt, 4u);
	cr_assert(u->features & PEBS_UF_ADAPTIVE);
	cr_assert(u->features & PEBS_UF_PEBS_ALL);
	cr_assert_eq(u->features & PEBS_UF_LL_EN, 0u, "v5: no LL_EN");
	cr_assert_eq(u->pebs_counters, 0xf000000ffull);
	cr_assert_eq(u->ldlat_counters, 0xffull);
	cr_assert_eq(pebs_uarch_event_by_name(u,
		"INST_RETIRED.PREC_DIST")->counters, PEBS_UARCH_FIXED(0));

	u = U("spr");
	/* "PEBS fmt4+-baseline" in SPR/EMR boot logs */
	cr_assert_eq(u->pebs_fmt, 4u);
	cr_assert_eq(u->ldlat_counters, 0xfeull);
	cr_assert_eq(pebs_uarch_event_by_kind(u,
		PEBS_EVK_STORE_LATENCY)->counters, 0x1ull);
	cr_assert(u->features & PEBS_UF_BLOCK);
	cr_assert(u->features & PEBS_UF_INS_LAT);
	cr_assert_eq(u->dsrc, PEBS_UDSRC_GLC);
}

/* intel-family.h model numbers of pebs-facts.md section 5. */
Test(uarch, models)
{
	static const struct { unsigned model; const char *name; } m[] = {
		{ 0x1e, "nhm" }, { 0x1f, "nhm" }, { 0x1a, "nhm" },
		{ 0x2e, "nhm" }, { 0x25, "wsm" }, { 0x2c, "wsm" },
		{ 0x2f, "wsm" }, { 0x2a, "snb" }, { 0x2d, "snb" },
		{ 0x3a, "ivb" }, { 0x3e, "ivb" }, { 0x3c, "hsw" },
		{ 0x3f, "hsw" }, { 0x45, "hsw" }, { 0x46, "hsw" },
		{ 0x3d, "bdw" }, { 0x47, "bdw" }, { 0x4f, "bdw" },
		{ 0x56, "bdw" }, { 0x4e, "skl" }, { 0x5e, "skl" },
		{ 0x55, "skx" }, { 0x8e, "skl" }, { 0x9e, "skl" },
		{ 0xa5, "skl" }, { 0xa6, "skl" }, { 0x7d, "icl" },
		{ 0x7e, "icl" }, { 0x6a, "icx" }, { 0x6c, "icx" },
		{ 0x8c, "icl" }, { 0x8d, "icl" }, { 0xa7, "icl" },
		{ 0x8f, "spr" }, { 0xcf, "spr" }, { 0x5c, "glm" },
		{ 0x5f, "glm" }, { 0x7a, "glp" }, { 0x17, "core2" },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(*m); i++) {
		const struct pebs_uarch *u = pebs_uarch_by_model(6, m[i].model);
		cr_assert_not_null(u, "model 0x%x", m[i].model);
		cr_assert_str_eq(u->name, m[i].name, "model 0x%x",
				 m[i].model);
	}
	cr_assert_null(pebs_uarch_by_model(6, 0x97), "ADL is hybrid");
	cr_assert_null(pebs_uarch_by_model(15, 0x55));
}

Test(uarch, cpuid_fms)
{
	unsigned f, m, s;

	pebs_uarch_cpuid_fms(0x00050654, &f, &m, &s);	/* SKX */
	cr_assert_eq(f, 6u);
	cr_assert_eq(m, 0x55u);
	cr_assert_eq(s, 4u);
	pebs_uarch_cpuid_fms(0x000906ea, &f, &m, &s);	/* CFL */
	cr_assert_eq(m, 0x9eu);
	cr_assert_eq(s, 0xau);
	pebs_uarch_cpuid_fms(0x00000f41, &f, &m, &s);	/* P4 */
	cr_assert_eq(f, 15u);
	cr_assert_eq(m, 4u);
	pebs_uarch_cpuid_fms(0x00a20f12, &f, &m, &s);	/* AMD fam 19h */
	cr_assert_eq(f, 0x19u);
	cr_assert_eq(m, 0x21u);
	pebs_uarch_cpuid_fms(0x000106a5, &f, NULL, NULL);
	cr_assert_eq(f, 6u);
}

Test(uarch, detect)
{
	const struct pebs_uarch *u;
	char why[200];

	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x55, 0, 0, &u,
				       why, sizeof(why)), 0);
	cr_assert_str_eq(u->name, "skx");
	/* PERF_CAPABILITIES 0x33c3 (fmt 3, trap, full width) on SKX */
	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x55, 0x33c3, 1,
				       &u, why, sizeof(why)), 0);
	/* ICL: fmt 4 with baseline bit 14 */
	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x7e, 0x74c3, 1,
				       &u, why, sizeof(why)), 0);
	cr_assert_str_eq(u->name, "icl");
	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x7e, 0x34c3, 1,
				       &u, why, sizeof(why)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(why, "[14]"), "%s", why);
	cr_assert_eq(u, U("icl"), "profile still reported");
	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x55, 0x32c3, 1,
				       &u, why, sizeof(why)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert(strstr(why, "says format 2"), "%s", why);
	cr_assert_eq(pebs_uarch_detect("AuthenticAMD", 0x19, 0x21, 0, 0, &u,
				       why, sizeof(why)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert_null(u);
	cr_assert(strstr(why, "AuthenticAMD"));
	cr_assert_eq(pebs_uarch_detect("GenuineIntel", 6, 0x97, 0, 0, &u,
				       why, sizeof(why)),
		     -PEBS_E_UNSUPPORTED);
	cr_assert_str_eq(why, "no PEBS profile for family 6 model 0x97");
	cr_assert_eq(pebs_uarch_detect(NULL, 6, 0x55, 0, 0, NULL, NULL, 0),
		     -PEBS_E_UNSUPPORTED);
}

Test(uarch, names_and_counters)
{
	char buf[16];

	cr_assert_str_eq(pebs_uarch_kind_name(PEBS_EVK_LOAD_LATENCY),
			 "load-latency");
	cr_assert_str_eq(pebs_uarch_kind_name(PEBS_EVK_COUNT), "?");
	for (int k = 0; k < PEBS_EVK_COUNT; k++)
		cr_assert_eq(pebs_uarch_kind_parse(
			pebs_uarch_kind_name((enum pebs_uarch_kind)k)), k);
	cr_assert_eq(pebs_uarch_kind_parse("nope"), -1);
	cr_assert_str_eq(pebs_udsrc_variant_name(PEBS_UDSRC_GLC), "glc");
	cr_assert_str_eq(pebs_udsrc_variant_name(PEBS_UDSRC_COUNT), "?");
	cr_assert_str_eq(pebs_uarch_counter_name(3, buf, sizeof(buf)),
			 "PMC3");
	cr_assert_str_eq(pebs_uarch_counter_name(33, buf, sizeof(buf)),
			 "FIXED1");
	cr_assert_eq(pebs_uarch_counter_parse("pmc3"), 3);
	cr_assert_eq(pebs_uarch_counter_parse("FIXED0"), 32);
	cr_assert_eq(pebs_uarch_counter_parse("FIXED_CTR2"), 34);
	cr_assert_eq(pebs_uarch_counter_parse("PMC"), -1);
	cr_assert_eq(pebs_uarch_counter_parse("PMC32"), -1);
	cr_assert_eq(pebs_uarch_counter_parse("PMC1x"), -1);
	cr_assert_eq(pebs_uarch_counter_parse("r1"), -1);
}

/* pebs_uarch_event_code_counters(u, event, umask) */
#define CC(name, ev, um)	pebs_uarch_event_code_counters(U(name), ev, um)

/*
 * Linux core.c's main constraint tables on the PMU_FL_PEBS_ALL profiles
 * (intel_icl_event_constraints for icl and icx, intel_spr_event_...),
 * range ends included, first match winning; ds.c's PEBS entries before
 * them.  The others' ds.c tables end in a catch-all, so core.c's table
 * adds nothing there.
 */
Test(uarch, kernel_main_constraints)
{
	static const char *const icl_like[] = { "icl", "icx" };

	for (unsigned i = 0; i < 2; i++) {
		const char *n = icl_like[i];
		static const unsigned low[] = {
			0x03, 0x0a, 0x1f, 0x28, 0x32, 0x48, 0x54, 0x60, 0x8b,
			0xa8, 0xb0, 0xb7, 0xbd, 0xd0, 0xe6, 0xef, 0xf0, 0xf4,
		};
		static const unsigned free_[] = {
			0x02, 0x0b, 0x1e, 0x29, 0x31, 0x33, 0x47, 0x55, 0x5f,
			0x8c, 0xa7, 0xb1, 0xb6, 0xbe, 0xc4, 0xcd, 0xe7, 0xee,
			0xf5,
		};
		for (unsigned j = 0; j < sizeof(low) / sizeof(low[0]); j++)
			cr_assert_eq(CC(n, low[j], 0x01), 0xf, "%s 0x%02x", n,
				     low[j]);
		for (unsigned j = 0; j < sizeof(free_) / sizeof(free_[0]); j++)
			cr_assert_eq(CC(n, free_[j], 0x01), ~0ull,
				     "%s 0x%02x", n, free_[j]);
		/* CYCLE_ACTIVITY: three umasks on every counter, the
		 * rest of 0xA3 on PMC0-3 */
		cr_assert_eq(CC(n, 0xa3, 0x04), 0xff);
		cr_assert_eq(CC(n, 0xa3, 0x10), 0xff);
		cr_assert_eq(CC(n, 0xa3, 0x14), 0xff);
		cr_assert_eq(CC(n, 0xa3, 0x0c), 0xf);
		/* ds.c's entries still come first */
		cr_assert_eq(CC(n, 0xc0, 0x01), PEBS_UARCH_FIXED(0));
		cr_assert_eq(CC(n, 0x00, 0x04), PEBS_UARCH_FIXED(3));
	}
	static const struct { unsigned ev, um; uint64_t want; } spr[] = {
		{ 0x01, 0x00, 0xf }, { 0x8f, 0x00, 0xf },
		{ 0x2e, 0x41, 0xff }, { 0x3c, 0x00, 0xff },
		{ 0x90, 0x01, ~0ull }, { 0xa3, 0x01, 0xf },
		{ 0xa3, 0x02, 0xf }, { 0xa3, 0x08, 0xf },
		{ 0xa3, 0x04, ~0ull }, { 0xa4, 0x04, 0x1 },
		{ 0xa4, 0x08, 0x1 }, { 0xa4, 0x02, ~0ull },
		{ 0xcd, 0x02, 0x1 }, { 0xcd, 0x04, ~0ull },
		{ 0xce, 0x10, 0x1 }, { 0xd5, 0x01, 0xf },
		{ 0xdf, 0x01, 0xf }, { 0xe0, 0x01, ~0ull },
		{ 0xc0, 0x02, 0xfe },
	};
	for (unsigned j = 0; j < sizeof(spr) / sizeof(spr[0]); j++)
		cr_assert_eq(CC("spr", spr[j].ev, spr[j].um), spr[j].want,
			     "spr 0x%02x%02x", spr[j].um, spr[j].ev);
	/* before PMU_FL_PEBS_ALL a PEBS event never reaches core.c's
	 * table (hsw would put 0xCD on PMC3 and 0x48 on PMC2 there) */
	static const char *const old[] = {
		"core2", "nhm", "wsm", "snb", "ivb", "hsw", "bdw", "skl",
		"skx", "glm", "glp",
	};
	for (unsigned i = 0; i < sizeof(old) / sizeof(old[0]); i++)
		for (unsigned ev = 0; ev < 0x100; ev++)
			cr_assert_eq(CC(old[i], ev, 0x01), ~0ull, "%s 0x%02x",
				     old[i], ev);
}
