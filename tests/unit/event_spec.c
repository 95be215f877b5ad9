/*
 * event_spec.c - event specification parsing and resolution per profile.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_plan.h"

static struct pebs_event_spec parse_ok(const char *t)
{
	struct pebs_event_spec s;
	char err[256] = "";
	int r = pebs_event_parse(t, &s, err, sizeof(err));
	cr_assert_eq(r, 0, "'%s' should parse: %s", t, err);
	return s;
}

static void parse_bad(const char *t, const char *needle)
{
	struct pebs_event_spec s;
	char err[256] = "";
	int r = pebs_event_parse(t, &s, err, sizeof(err));
	cr_assert_eq(r, -PEBS_E_PARSE, "'%s' should not parse", t);
	cr_assert(strstr(err, needle), "'%s': message '%s' lacks '%s'", t,
		  err, needle);
}

Test(event_parse, portable_names)
{
	struct pebs_event_spec s = parse_ok("load-latency:ldlat=30");
	cr_assert_eq(s.type, PEBS_SPEC_LOAD_LATENCY);
	cr_assert_eq(s.mods, PEBS_MOD_LDLAT);
	cr_assert_eq(s.ldlat, 30);
	cr_assert_str_eq(s.name, "load-latency");
	cr_assert_str_eq(s.text, "load-latency:ldlat=30");

	s = parse_ok("precise-store");
	cr_assert_eq(s.type, PEBS_SPEC_PRECISE_STORE);
	cr_assert_eq(s.mods, 0);

	s = parse_ok("frontend:sub=idq_bubbles,latency=2,width=1");
	cr_assert_eq(s.type, PEBS_SPEC_FRONTEND);
	cr_assert_eq(s.sub, PEBS_FE_IDQ_BUBBLES);
	cr_assert_eq(s.latency, 2);
	cr_assert_eq(s.width, 1);

	s = parse_ok("frontend:sub=idq_bubbles, latency=3 ,width=2");
	cr_assert_eq(s.latency, 3);
	cr_assert_eq(s.width, 2);

	s = parse_ok("frontend:sub=DSB_MISS");
	cr_assert_eq(s.sub, 0x11);
}

Test(event_parse, raw_and_names)
{
	struct pebs_event_spec s = parse_ok("r1cd");
	cr_assert_eq(s.type, PEBS_SPEC_RAW);
	cr_assert_eq(s.raw, 0x1cd);
	s = parse_ok("rFFFFFFFF:u");
	cr_assert_eq(s.raw, 0xffffffffull);
	cr_assert_eq(s.mods, PEBS_MOD_U);
	s = parse_ok("r0123456789abcdef");
	cr_assert_eq(s.raw, 0x0123456789abcdefull);
	/* not hex after r: a name */
	s = parse_ok("rxyz");
	cr_assert_eq(s.type, PEBS_SPEC_NAME);
	s = parse_ok("MEM_LOAD_RETIRED.L3_MISS:period=0x1000,u,k,pmc=2");
	cr_assert_eq(s.type, PEBS_SPEC_NAME);
	cr_assert_str_eq(s.name, "MEM_LOAD_RETIRED.L3_MISS");
	cr_assert_eq(s.period, 0x1000);
	cr_assert_eq(s.pmc, 2);
	cr_assert_eq(s.mods, PEBS_MOD_PERIOD | PEBS_MOD_U | PEBS_MOD_K |
			     PEBS_MOD_PMC);
	/* numbers as every option takes them: k/M/G, "010" is ten */
	s = parse_ok("load-latency:period=20k,ldlat=010");
	cr_assert_eq(s.period, 20000);
	cr_assert_eq(s.ldlat, 10);
	s = parse_ok("r1d1:edge,inv,any,cmask=255");
	cr_assert_eq(s.cmask, 255);
	cr_assert_eq(s.mods, PEBS_MOD_EDGE | PEBS_MOD_INV | PEBS_MOD_ANY |
			     PEBS_MOD_CMASK);
}

/* A modifier far from every key suggests none. */
Test(event_parse, modifier_no_suggestion)
{
	struct pebs_event_spec s;
	char err[256] = "";
	cr_assert_eq(pebs_event_parse("load-latency:bogus", &s, err,
				      sizeof(err)), -PEBS_E_PARSE);
	cr_assert_str_eq(err, "'load-latency:bogus': unknown modifier 'bogus'");
}

Test(event_parse, errors)
{
	parse_bad("", "empty");
	parse_bad(":ldlat=3", "no event name");
	parse_bad("load-latency:", "no modifier");
	parse_bad("load-latency:bogus", "unknown modifier 'bogus'");
	/* keys are case-sensitive, as perf's, and the near one is named */
	parse_bad("load-latency:LDLAT=30", "unknown modifier 'LDLAT' (did you "
		  "mean 'ldlat'?)");
	parse_bad("load-latency:K", "unknown modifier 'K' (did you mean 'k'?)");
	parse_bad("load-latency:ldlta=4", "(did you mean 'ldlat'?)");
	parse_bad("frontend:SUB=dsb_miss", "(did you mean 'sub'?)");
	parse_bad("load-latency:ldlat", "needs a value");
	parse_bad("load-latency:u=1", "takes no value");
	parse_bad("load-latency:ldlat=3,ldlat=4", "given twice");
	parse_bad("load-latency:ldlat=,u", "not a number");
	parse_bad("load-latency:ldlat=99999999999999999999", "not a number");
	parse_bad("load-latency:ldlat=-3", "not a number");
	parse_bad("load-latency:ldlat=0x", "not a number");
	parse_bad("load-latency:period=1m", "not a number");
	parse_bad("load-latency:period=20000000000000000k", "not a number");
	parse_bad("load-latency:u,,k", "empty modifier");
	parse_bad("load-latency:sub=dsb_miss", "only to the 'frontend'");
	parse_bad("precise-store:ldlat=3", "only to a load-latency");
	parse_bad("frontend", "needs sub=");
	parse_bad("frontend:sub=bogus", "unknown front-end sub-event");
	parse_bad("frontend:sub=idq_bubbles,latency=2", "needs latency=N "
		  "and width=N");
	parse_bad("frontend:sub=dsb_miss,width=1", "only to sub=idq_bubbles");
	parse_bad("r1cd:cmask=256", "8-bit CMASK");
	parse_bad("r1cd:pmc=32", "no such general-purpose counter");
	parse_bad("MEM LOAD", "character ' '");
	parse_bad("pmu::EVENT", "unknown modifier");
	parse_bad("EV=1", "character '='");
	parse_bad("\x01\x02", "byte 0x01");
	parse_bad(".EVENT", "malformed");
	parse_bad("EVENT.", "malformed");
	parse_bad("A..B", "malformed");
	char big[400];
	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	parse_bad(big, "longer than");
	big[200] = '\0';
	parse_bad(big, "event name longer");
}

Test(event_parse, fe_sub_names)
{
	cr_assert_str_eq(pebs_event_fe_sub_name(0x11), "dsb_miss");
	cr_assert_str_eq(pebs_event_fe_sub_name(0x06), "idq_bubbles");
	cr_assert_str_eq(pebs_event_fe_sub_name(0x15), "stlb_miss");
	cr_assert_str_eq(pebs_event_fe_sub_name(0x08), "ms_flows");
	cr_assert_str_eq(pebs_event_fe_sub_name(0x99), "?");
}

/* ------------------------------------------------------------ resolve */

static struct pebs_event resolve_ok(const char *uarch, const char *t)
{
	const struct pebs_uarch *u = pebs_uarch_by_name(uarch);
	struct pebs_event_spec s = parse_ok(t);
	struct pebs_event e;
	char err[256] = "";
	cr_assert_not_null(u, "profile %s", uarch);
	int r = pebs_event_resolve(u, &s, &e, NULL, err, sizeof(err));
	cr_assert_eq(r, 0, "%s on %s: %s", t, uarch, err);
	return e;
}

static void resolve_bad(const char *uarch, const char *t, int code,
			enum pebs_rule rule, const char *needle)
{
	const struct pebs_uarch *u = pebs_uarch_by_name(uarch);
	struct pebs_event_spec s = parse_ok(t);
	struct pebs_event e;
	enum pebs_rule got;
	char err[256] = "";
	int r = pebs_event_resolve(u, &s, &e, &got, err, sizeof(err));
	cr_assert_eq(r, code, "%s on %s: %d (%s)", t, uarch, r, err);
	cr_assert_eq(got, rule, "%s on %s: rule %d", t, uarch, got);
	cr_assert(strstr(err, needle), "message '%s' lacks '%s'", err,
		  needle);
}

Test(event_resolve, load_latency_per_uarch)
{
	struct pebs_event e = resolve_ok("nhm", "load-latency");
	cr_assert_str_eq(e.name, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD");
	cr_assert_eq(e.select, 0x100b);
	cr_assert_eq(e.kind, PEBS_EVK_LOAD_LATENCY);
	e = resolve_ok("wsm", "load-latency");
	cr_assert_eq(e.select, 0x100b);
	const char *snbplus[] = { "snb", "ivb", "hsw", "bdw", "skl", "skx",
				  "icl", "icx", "spr" };
	for (size_t i = 0; i < sizeof(snbplus) / sizeof(snbplus[0]); i++) {
		e = resolve_ok(snbplus[i], "load-latency");
		cr_assert_str_eq(e.name, "MEM_TRANS_RETIRED.LOAD_LATENCY");
		cr_assert_eq(e.select, 0x1cd, "%s", snbplus[i]);
	}
	e = resolve_ok("snb", "load-latency");
	cr_assert_eq(e.counters, 0x8);
	e = resolve_ok("spr", "load-latency");
	cr_assert_eq(e.counters, 0xfe);
	resolve_bad("core2", "load-latency", -PEBS_E_RULE,
		    PEBS_RULE_LDLAT_SUPPORT, "rule ldlat-support: core2");
	resolve_bad("glm", "load-latency", -PEBS_E_RULE,
		    PEBS_RULE_LDLAT_SUPPORT, "rule ldlat-support: glm");
	resolve_bad("glp", "load-latency", -PEBS_E_RULE,
		    PEBS_RULE_LDLAT_SUPPORT, "rule ldlat-support: glp");
}

Test(event_resolve, precise_store_per_uarch)
{
	struct pebs_event e = resolve_ok("snb", "precise-store");
	cr_assert_str_eq(e.name, "MEM_TRANS_RETIRED.PRECISE_STORE");
	cr_assert_eq(e.select, 0x2cd);
	cr_assert_eq(e.counter_rule, PEBS_RULE_PSTORE_PMC3);
	e = resolve_ok("ivb", "precise-store");
	cr_assert_eq(e.kind, PEBS_EVK_PRECISE_STORE);
	e = resolve_ok("hsw", "precise-store");
	cr_assert_str_eq(e.name, "MEM_UOPS_RETIRED.ALL_STORES");
	cr_assert_eq(e.select, 0x82d0);
	e = resolve_ok("bdw", "precise-store");
	cr_assert_str_eq(e.name, "MEM_UOPS_RETIRED.ALL_STORES");
	const char *inst[] = { "skl", "skx", "icl", "icx", "spr" };
	for (size_t i = 0; i < sizeof(inst) / sizeof(inst[0]); i++) {
		e = resolve_ok(inst[i], "precise-store");
		cr_assert_str_eq(e.name, "MEM_INST_RETIRED.ALL_STORES");
		cr_assert_eq(e.kind, PEBS_EVK_DATALA_STORE);
	}
	e = resolve_ok("glm", "precise-store");
	cr_assert_str_eq(e.name, "MEM_UOPS_RETIRED.ALL_STORES");
	cr_assert_eq(e.counter_rule, PEBS_RULE_GLM_PMC0);
	resolve_bad("core2", "precise-store", -PEBS_E_RULE,
		    PEBS_RULE_PSTORE_SUPPORT, "rule pstore-support");
	resolve_bad("nhm", "precise-store", -PEBS_E_RULE,
		    PEBS_RULE_PSTORE_SUPPORT, "rule pstore-support: nhm");
}

/*
 * perf's mem-stores is the kernel's alias per core (core.c): 0x02CD on
 * snb/ivb (mem_st_snb) and on Golden Cove (mem_st_spr, glc_events_attrs:
 * store latency), 0x82D0 on hsw to icl (mem_st_hsw).  precise-store keeps
 * its meaning (precise store, else the DataLA store event).
 */
Test(event_resolve, mem_stores_follows_perf)
{
	const char *spellings[] = { "mem-stores", "MEM-STORES",
				    "cpu/mem-stores/P" };
	for (size_t i = 0; i < 3; i++) {
		struct pebs_event e = resolve_ok("spr", spellings[i]);
		cr_assert_str_eq(e.name, "MEM_TRANS_RETIRED.STORE_SAMPLE",
				 "%s", spellings[i]);
		cr_assert_eq(e.select, 0x2cd);
		cr_assert_eq(e.kind, PEBS_EVK_STORE_LATENCY);
		cr_assert_eq(e.counters, 0x1);
		e = resolve_ok("snb", spellings[i]);
		cr_assert_str_eq(e.name, "MEM_TRANS_RETIRED.PRECISE_STORE");
	}
	const char *dla[] = { "hsw", "bdw", "skl", "skx", "icl", "icx",
			      "glm", "glp" };
	for (size_t i = 0; i < sizeof(dla) / sizeof(dla[0]); i++) {
		struct pebs_event e = resolve_ok(dla[i], "mem-stores");
		cr_assert_eq(e.select, 0x82d0, "%s", dla[i]);
		cr_assert_eq(e.kind, PEBS_EVK_DATALA_STORE, "%s", dla[i]);
	}
	struct pebs_event e = resolve_ok("spr", "precise-store");
	cr_assert_str_eq(e.name, "MEM_INST_RETIRED.ALL_STORES");
	resolve_bad("nhm", "mem-stores", -PEBS_E_RULE,
		    PEBS_RULE_PSTORE_SUPPORT, "rule pstore-support: nhm");
}

Test(event_resolve, frontend)
{
	struct pebs_event e = resolve_ok("skl", "frontend:sub=dsb_miss");
	cr_assert_eq(e.select, 0x1c6);
	cr_assert_eq(e.kind, PEBS_EVK_FRONTEND);
	resolve_bad("hsw", "frontend:sub=dsb_miss", -PEBS_E_RULE,
		    PEBS_RULE_FRONTEND_SUPPORT, "rule frontend-support: hsw");
	resolve_bad("glm", "frontend:sub=l1i_miss", -PEBS_E_RULE,
		    PEBS_RULE_FRONTEND_SUPPORT, "frontend-support");
	/* FRONTEND_RETIRED by name has no way to say the sub-event */
	resolve_bad("skl", "FRONTEND_RETIRED", -PEBS_E_INVAL,
		    PEBS_RULE_NONE, "use frontend:sub=NAME");
	/* each front-end profile's own encoding, umask 0x01 (perf's
	 * skylake, icelake, sapphirerapids frontend.json: UMask 0x1) */
	const char *fe[] = { "skl", "skx", "icl", "icx", "spr" };
	for (size_t i = 0; i < sizeof(fe) / sizeof(fe[0]); i++) {
		e = resolve_ok(fe[i], "frontend:sub=l2_miss");
		cr_assert_eq(e.select, PEBS_FE_EVTSEL, "%s", fe[i]);
		cr_assert_eq(e.kind, PEBS_EVK_FRONTEND, "%s", fe[i]);
		e = resolve_ok(fe[i], "cpu/event=0xc6,umask=0x1,"
			       "frontend=0x13/P");
		cr_assert_eq(e.select, 0x1c6, "%s", fe[i]);
		/* 0x03C6, Redwood Cove's, is no raw event here */
		resolve_bad(fe[i], "r3c6", -PEBS_E_INVAL, PEBS_RULE_NONE,
			    "0x03C6 is FRONTEND_RETIRED on Redwood Cove and "
			    "later");
	}
	resolve_bad("spr", "r3c6", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "on spr it is 0x01C6 and needs MSR_PEBS_FRONTEND");
	/* where there is no FRONTEND_RETIRED, 0x03C6 stays a raw event */
	e = resolve_ok("hsw", "r3c6");
	cr_assert_eq(e.select, 0x3c6);
	cr_assert_eq(e.kind, PEBS_EVK_OTHER);
}

Test(event_resolve, names_raw_libpfm)
{
	struct pebs_event e = resolve_ok("snb",
					 "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_eq(e.kind, PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(e.src, PEBS_EVSRC_BUILTIN);
	/* case-insensitive SDM names */
	e = resolve_ok("skl", "mem_load_retired.l3_miss");
	cr_assert_eq(e.select, 0x20d1);
	/* raw with a code the table knows: classified and named */
	e = resolve_ok("snb", "r1cd:ldlat=10");
	cr_assert_eq(e.kind, PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(e.counters, 0x8);
	cr_assert_str_eq(e.name, "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_eq(e.src, PEBS_EVSRC_RAW);
	/* unknown raw: every PEBS counter, precision unknown */
	e = resolve_ok("skl", "r10c0");
	cr_assert_eq(e.precise, -1);
	cr_assert_eq(e.counters, 0xf);
	cr_assert_str_eq(e.name, "r10c0");
	/* modifiers land in the selection */
	e = resolve_ok("skl", "r1d1:edge,inv,any,cmask=2");
	cr_assert_eq(e.select, 0x02a401d1ull);
	/* libpfm4 names (not in the table), forced to the profile's PMU */
	e = resolve_ok("skl", "BR_INST_RETIRED.NEAR_TAKEN");
	cr_assert_eq(e.src, PEBS_EVSRC_LIBPFM);
	cr_assert_eq(e.select, 0x20c4);
	cr_assert_eq(e.precise, 1);
	cr_assert_str_eq(e.name, "BR_INST_RETIRED.NEAR_TAKEN");
	e = resolve_ok("snb", "MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_HITM");
	cr_assert_eq(e.select, 0x04d2);
	cr_assert_eq(e.precise, 1);
	e = resolve_ok("skl", "UOPS_ISSUED.ANY");
	cr_assert_eq(e.precise, 0);
	e = resolve_ok("nhm", "MEM_LOAD_RETIRED.L3_MISS");
	cr_assert_eq(e.select, 0x10cb);
	/* the same name does not exist for another PMU */
	resolve_bad("nhm", "MEM_LOAD_RETIRED.L1_HIT", -PEBS_E_INVAL,
		    PEBS_RULE_NONE, "unknown event");
	resolve_bad("skl", "NO_SUCH_EVENT", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "unknown event 'NO_SUCH_EVENT' on skl");
	resolve_bad("glp", "INST_RETIRED.ANY", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "libpfm4 has no glp table");
	/* offcore response needs an extra MSR */
	resolve_bad("skl", "OFFCORE_RESPONSE_0.ANY_REQUEST.ANY_RESPONSE",
		    -PEBS_E_INVAL, PEBS_RULE_NONE, "extra MSR");
}

Test(event_resolve, refusals)
{
	resolve_bad("skl", "r4101cd", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "not event selection bits");
	resolve_bad("skl", "r100000000", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "not event selection bits");
	resolve_bad("skl", "MEM_LOAD_RETIRED.L1_HIT:ldlat=3", -PEBS_E_INVAL,
		    PEBS_RULE_NONE, "ldlat= applies only");
	resolve_bad("icl", "INST_RETIRED.PREC_DIST", -PEBS_E_RULE,
		    PEBS_RULE_PEBS_COUNTER, "only on fixed counter 0 on icl");
	/* TOPDOWN.SLOTS: the kernel's fixed counter 3 only */
	resolve_bad("icl", "r400", -PEBS_E_RULE, PEBS_RULE_PEBS_COUNTER,
		    "only on fixed counter 3 on icl");
	resolve_bad("spr", "r400", -PEBS_E_RULE, PEBS_RULE_PEBS_COUNTER,
		    "only on fixed counter 3 on spr");
	/* Event code 0x00 counts nothing on a general-purpose counter,
	 * wherever it comes from (a raw code, or libpfm4's Goldmont
	 * CPU_CLK_UNHALTED.CORE_P) */
	resolve_bad("skl", "r400", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "r400 has event code 0x00 (umask 0x04), which no");
	resolve_bad("glm", "r0", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "event code 0x00 (umask 0x00)");
	cr_assert_str_eq(pebs_event_pfm_pmu(pebs_uarch_by_name("core2")),
			 "core");
	cr_assert_null(pebs_event_pfm_pmu(pebs_uarch_by_name("glp")));
}

/* perf's names and spelling of the portable events (perf mem record's). */
Test(event_parse, perf_spellings)
{
	struct pebs_event_spec s = parse_ok("mem-loads");
	cr_assert_eq(s.type, PEBS_SPEC_LOAD_LATENCY);
	s = parse_ok("MEM-STORES");
	cr_assert_eq(s.type, PEBS_SPEC_PRECISE_STORE);
	s = parse_ok("cpu/mem-loads,ldlat=30/P");
	cr_assert_eq(s.type, PEBS_SPEC_LOAD_LATENCY);
	cr_assert_eq(s.mods, PEBS_MOD_LDLAT);
	cr_assert_eq(s.ldlat, 30);
	cr_assert_str_eq(s.text, "cpu/mem-loads,ldlat=30/P");
	s = parse_ok("cpu/mem-stores/P");
	cr_assert_eq(s.type, PEBS_SPEC_PRECISE_STORE);
	cr_assert_eq(s.mods, 0);
	s = parse_ok("cpu/mem-loads,ldlat=50,period=1000/ppu");
	cr_assert_eq(s.ldlat, 50);
	cr_assert_eq(s.period, 1000);
	cr_assert_eq(s.mods, PEBS_MOD_LDLAT | PEBS_MOD_PERIOD | PEBS_MOD_U);
	s = parse_ok("cpu/MEM_LOAD_RETIRED.L3_MISS/k");
	cr_assert_eq(s.type, PEBS_SPEC_NAME);
	cr_assert_str_eq(s.name, "MEM_LOAD_RETIRED.L3_MISS");
	cr_assert_eq(s.mods, PEBS_MOD_K);
	/* perf's precision modifiers change nothing: PEBS is precise */
	s = parse_ok("mem-loads:pp,ldlat=30");
	cr_assert_eq(s.mods, PEBS_MOD_LDLAT);
	s = parse_ok("load-latency:P");
	cr_assert_eq(s.mods, 0);
	parse_bad("cpu/mem-loads,foo=1/P", "unknown perf term 'foo'");
	parse_bad("cpu/mem-loads/H", "perf modifier 'H'");
	parse_bad("cpu/mem-loads/pppp", "more than three p modifiers");
	parse_bad("cpu/mem-loads/ppPpp", "more than three p modifiers");
	parse_bad("cpu_core/mem-loads/", "PMU 'cpu_core'");
	parse_bad("cpu//P", "no event name");
	parse_bad("cpu/mem-loads", "not perf's spelling");
	parse_bad("cpu/mem-stores,ldlat=3/", "only to a load-latency");
	parse_bad("mem-loads:pppp", "unknown modifier 'pppp'");
}

/*
 * perf's raw terms (perf list -v, perf mem record -v) give the spec our
 * own spelling would: same type, raw value and modifiers.
 */
Test(event_parse, perf_raw_terms)
{
	static const struct {
		const char *perf, *ours;
	} same[] = {
		{ "cpu/event=0xcd,umask=0x1,ldlat=30/P", "r1cd:ldlat=30" },
		{ "cpu/umask=0x1,ldlat=30,event=0xcd/P", "r1cd:ldlat=30" },
		{ "cpu/event=0xd0,umask=0x82/pp", "r82d0" },
		{ "cpu/config=0x1cd,ldlat=30/", "r1cd:ldlat=30" },
		{ "cpu/config=0x82d0,period=1000/u", "r82d0:period=1000,u" },
		{ "cpu/event=0xd1,umask=0x1,cmask=2,inv,edge=1,any/k",
		  "r2a401d1:k" },
		{ "cpu/event=0xd1,umask=0x1,edge=0,inv=0,cmask=0/",
		  "r1d1" },
		{ "cpu/event=0xcd,umask=1,period=1k/", "r1cd:period=1000" },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x11/P",
		  "frontend:sub=dsb_miss" },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x15,period=50/",
		  "frontend:sub=stlb_miss,period=50" },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x400806/P",
		  "frontend:sub=idq_bubbles,latency=8,width=4" },
		{ "cpu/config=0x1c6,frontend=0x12/", "frontend:sub=l1i_miss" },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x13,cmask=1/",
		  "frontend:sub=l2_miss,cmask=1" },
		{ "cpu/mem-loads,cmask=1,inv/", "mem-loads:inv,cmask=1" },
		{ "cpu/MEM_LOAD_RETIRED.L3_MISS,edge/",
		  "MEM_LOAD_RETIRED.L3_MISS:edge" },
	};
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		struct pebs_event_spec a = parse_ok(same[i].perf);
		struct pebs_event_spec b = parse_ok(same[i].ours);
		cr_expect_str_eq(a.text, same[i].perf);
		cr_expect_str_eq(a.name, b.name, "%s", same[i].perf);
		cr_expect_eq(a.type, b.type, "%s", same[i].perf);
		cr_expect_eq(a.raw, b.raw, "%s: 0x%llx", same[i].perf,
			     (unsigned long long)a.raw);
		cr_expect_eq(a.mods, b.mods, "%s: 0x%x", same[i].perf, a.mods);
		cr_expect_eq(a.ldlat, b.ldlat, "%s", same[i].perf);
		cr_expect_eq(a.period, b.period, "%s", same[i].perf);
		cr_expect_eq(a.sub, b.sub, "%s", same[i].perf);
		cr_expect_eq(a.latency, b.latency, "%s", same[i].perf);
		cr_expect_eq(a.width, b.width, "%s", same[i].perf);
		cr_expect_eq(a.cmask, b.cmask, "%s", same[i].perf);
	}

	/* what perf takes and our spelling cannot say, or perf refuses */
	parse_bad("cpu/event=0xcd,umask=0x1,event=0xcd/", "perf term 'event' "
		  "given twice");
	parse_bad("cpu/event=0xd1,edge,edge=1/", "perf term 'edge' given "
		  "twice");
	parse_bad("cpu/mem-loads,ldlat=30,ldlat=50/", "perf term 'ldlat' "
		  "given twice");
	parse_bad("cpu/umask=0x1,ldlat=30/P", "no event name, event= or "
		  "config= term");
	parse_bad("cpu/ldlat=30/", "no event name, event= or config=");
	parse_bad("cpu/event=0xcd,umask=0x100/", "perf term 'umask=0x100': "
		  "0x100 does not fit the 8-bit umask field");
	parse_bad("cpu/event=0x1cd/", "0x1cd does not fit the 8-bit event "
		  "field");
	parse_bad("cpu/event=0xd1,cmask=256/", "perf term 'cmask=256': 0x100 "
		  "does not fit the 8-bit cmask field");
	parse_bad("cpu/event=0xd1,inv=2/", "perf term 'inv=2': inv is one "
		  "bit");
	parse_bad("cpu/event=0xcd,umask=1,bogus=3/", "unknown perf term "
		  "'bogus'");
	parse_bad("cpu/event=0xcd,umask=1,ldlat/", "perf term 'ldlat' needs "
		  "a value");
	parse_bad("cpu/event=0xcd,umask=zz/", "perf term 'umask=zz': 'zz' is "
		  "not a number");
	parse_bad("cpu/event=0xcd,,umask=1/", "empty perf term");
	parse_bad("cpu/event=0xd1,pc/", "perf term 'pc' (pin control");
	parse_bad("cpu/event=0xd1,in_tx=1/", "perf term 'in_tx=1'");
	parse_bad("cpu/event=0xb7,umask=1,offcore_rsp=0x10001/",
		  "perf term 'offcore_rsp=0x10001'");
	parse_bad("cpu/event=0xcd,umask=1,config1=30/", "give ldlat= or "
		  "frontend= instead");
	parse_bad("cpu/event=0xd1,umask=1,freq=1000/", "perf term 'freq=1000'");
	parse_bad("cpu/mem-loads,umask=0x1/", "perf term 'umask' cannot go "
		  "with the event name 'mem-loads'");
	parse_bad("cpu/mem-loads,event=0xcd/", "cannot go with the event "
		  "name");
	parse_bad("cpu/mem-loads,mem-stores/", "two event names");
	/* config= beside field terms: perf ORs the fields into config=
	 * whatever the order (config=0x1cd,umask=0x2 is 0x3cd there);
	 * refused in both orders, naming both terms */
	parse_bad("cpu/config=0x1cd,umask=0x1/", "perf term 'umask' cannot "
		  "go with 'config=0x1cd'");
	parse_bad("cpu/config=0x1cd,umask=0x2/P", "perf term 'umask' cannot "
		  "go with 'config=0x1cd', which gives all the selection bits "
		  "(perf would OR umask into it, in either order)");
	parse_bad("cpu/umask=0x2,config=0x1cd/P", "perf term 'umask' cannot "
		  "go with 'config=0x1cd'");
	parse_bad("cpu/event=0xd0,config=0x82d0/", "perf term 'event' cannot "
		  "go with 'config=0x82d0'");
	parse_bad("cpu/config=0x82d0,edge/", "perf term 'edge' cannot go "
		  "with 'config=0x82d0'");
	parse_bad("cpu/config=0x1cd,config=0x2cd/", "perf term 'config' "
		  "given twice");
	parse_bad("cpu/event=0xd0,umask=0x82,event=0xd1/", "perf term "
		  "'event' given twice");
	parse_bad("cpu/config=0x301cd/", "bits 0x30000 are not event "
		  "selection bits");
	parse_bad("cpu/config=0x1001cd/", "bits 0x100000");
	/* Redwood Cove's encoding (perf's meteorlake JSON): named, not
	 * taken for 0x01C6 */
	parse_bad("cpu/event=0xc6,umask=0x3,frontend=0x11/", "event=0xc6,"
		  "umask=0x3 is FRONTEND_RETIRED on Redwood Cove and later");
	parse_bad("cpu/config=0x3c6,frontend=0x11/", "on every uarch "
		  "pebs-capture has (skl to spr) it is event=0xc6,umask=0x1");
	parse_bad("cpu/event=0xc6,umask=0x2,frontend=0x9/", "goes with "
		  "FRONTEND_RETIRED (event=0xc6,umask=0x1) only");
	parse_bad("cpu/event=0xc6,umask=0x1,frontend=0x1/", "sub-event 0x01 "
		  "(bits 7:0) is none");
	parse_bad("cpu/event=0xc6,umask=0x1,frontend=0x1011/", "apply only "
		  "to sub-event 0x06");
	parse_bad("cpu/event=0xc6,umask=0x1,frontend=0x800006/", "above "
		  "MSR_PEBS_FRONTEND's 22:0");
	parse_bad("cpu/event=0xd0,umask=0x82,ldlat=3/W", "perf modifier 'W'");
	/* our own rules still apply to the rewritten spec */
	parse_bad("cpu/event=0xc6,umask=0x1,frontend=0x11,ldlat=3/",
		  "ldlat= applies only to a load-latency event");
}

/* What a recorded event name stands for (pebs-filter's `event`). */
Test(event_parse, stands_for)
{
	static const struct {
		const char *name;
		enum pebs_evspec_type t;
	} cases[] = {
		{ "load-latency", PEBS_SPEC_LOAD_LATENCY },
		{ "mem-loads", PEBS_SPEC_LOAD_LATENCY },
		{ "cpu/mem-loads,ldlat=30/P", PEBS_SPEC_LOAD_LATENCY },
		{ "load-latency:ldlat=3", PEBS_SPEC_LOAD_LATENCY },
		{ "MEM_TRANS_RETIRED.LOAD_LATENCY", PEBS_SPEC_LOAD_LATENCY },
		{ "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD",
		  PEBS_SPEC_LOAD_LATENCY },
		{ "r1cd", PEBS_SPEC_LOAD_LATENCY },
		{ "r100b", PEBS_SPEC_LOAD_LATENCY },
		{ "precise-store", PEBS_SPEC_PRECISE_STORE },
		{ "cpu/mem-stores/P", PEBS_SPEC_PRECISE_STORE },
		{ "MEM_TRANS_RETIRED.PRECISE_STORE", PEBS_SPEC_PRECISE_STORE },
		{ "MEM_UOPS_RETIRED.ALL_STORES", PEBS_SPEC_PRECISE_STORE },
		{ "mem_inst_retired.all_stores", PEBS_SPEC_PRECISE_STORE },
		{ "r82d0", PEBS_SPEC_PRECISE_STORE },
		{ "r2cd", PEBS_SPEC_PRECISE_STORE },
		/* spr's mem-stores */
		{ "MEM_TRANS_RETIRED.STORE_SAMPLE", PEBS_SPEC_PRECISE_STORE },
		{ "mem_trans_retired.store_sample:P", PEBS_SPEC_PRECISE_STORE },
		{ "frontend", PEBS_SPEC_NAME },
		{ "r41cd", PEBS_SPEC_NAME },
		{ "cpu/mem-loads-aux/", PEBS_SPEC_NAME },
		{ "cpu/mem-loads,foo=1/", PEBS_SPEC_LOAD_LATENCY },
		{ "cpu/event=0xcd,umask=0x1,ldlat=30/P",
		  PEBS_SPEC_LOAD_LATENCY },
		{ "cpu_core/umask=0x1,event=0xcd/", PEBS_SPEC_LOAD_LATENCY },
		{ "cpu/config=0x1cd,ldlat=3/", PEBS_SPEC_LOAD_LATENCY },
		{ "cpu/event=0x0b,umask=0x10,ldlat=3/", PEBS_SPEC_LOAD_LATENCY },
		{ "cpu/event=0xd0,umask=0x82/pp", PEBS_SPEC_PRECISE_STORE },
		{ "cpu/event=0xcd,umask=0x2/P", PEBS_SPEC_PRECISE_STORE },
		{ "cpu/event=0xcd,umask=0x1,cmask=1/", PEBS_SPEC_NAME },
		{ "cpu/event=0xcd,umask=0x1,inv/", PEBS_SPEC_NAME },
		{ "cpu/event=0xd1,umask=0x1/", PEBS_SPEC_NAME },
		{ "cpu/event=0xc6,umask=0x1,frontend=0x11/", PEBS_SPEC_NAME },
		{ "cpu/event=0xcd,umask=0x100/", PEBS_SPEC_NAME },
		{ "MEM_LOAD_RETIRED.L1_HIT", PEBS_SPEC_NAME },
		{ "", PEBS_SPEC_NAME },
		{ "cycles", PEBS_SPEC_NAME },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(pebs_event_stands_for(cases[i].name), cases[i].t,
			     "%s", cases[i].name);
	cr_expect_eq(pebs_event_portable("Mem-Loads"), PEBS_SPEC_LOAD_LATENCY);
	cr_expect_eq(pebs_event_portable("MEM_TRANS_RETIRED.LOAD_LATENCY"),
		     PEBS_SPEC_NAME);
	cr_expect_eq(pebs_event_portable("frontend"), PEBS_SPEC_NAME);
}

/* An unknown name: the message lists what needs no table. */
Test(event_resolve, unknown_lists_portable)
{
	resolve_bad("skl", "mem-load", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "portable names: load-latency, precise-store");
	resolve_bad("glp", "NOPE", -PEBS_E_INVAL, PEBS_RULE_NONE,
		    "perf's mem-loads, mem-stores");
}
