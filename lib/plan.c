/*
 * plan.c - PEBS register plans: the ordered MSR writes for a set of events
 * on one microarchitecture, every SDM rule enforced (formats/plan.md), and
 * pebs_plan_check(), which re-derives the register state from a write list
 * and checks it without looking at how the plan was built.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "errbuf.h"
#include "pebs_plan.h"


/* ---------------------------------------------------------------- rules */

static const struct pebs_rule_info rules[PEBS_RULE_COUNT] = {
	[PEBS_RULE_PEBS_COUNTER] = { PEBS_RULE_PEBS_COUNTER, "pebs-counter",
		"a PEBS event may only use the counters that support PEBS, "
		"and its own event's counters",
		"SDM 18.9.4 (only IA32_PMC0-3 support PEBS); kernel "
		"ds.c PEBS constraints (SNB/IVB load latency PMC3, "
		"PREC_DIST PMC1, SPR load latency and INST_RETIRED PMC1-7)" },
	[PEBS_RULE_FIELDS_ZERO] = { PEBS_RULE_FIELDS_ZERO, "pebs-fields-zero",
		"AnyThread, Edge, Invert and CMask of IA32_PERFEVTSELx are 0 "
		"for a PEBS event",
		"SDM 18.9.4 NOTE: PEBS events are only valid when these "
		"fields are all zero" },
	[PEBS_RULE_LDLAT_SUPPORT] = { PEBS_RULE_LDLAT_SUPPORT,
		"ldlat-support",
		"load latency needs the load-latency facility (Nehalem and "
		"later big cores)",
		"SDM 18.8.1.2: the facility requires the enhanced PEBS "
		"record, which Core 2 lacks; SDM 18.7.1.1: Goldmont's "
		"record has the data-source and latency fields reserved" },
	[PEBS_RULE_LDLAT_MIN] = { PEBS_RULE_LDLAT_MIN, "ldlat-min",
		"MSR_PEBS_LD_LAT_THRESHOLD is at least 3",
		"SDM 18.8.1.2 / 18.9.4.2: the minimum value that may be "
		"programmed is 3" },
	[PEBS_RULE_LDLAT_MAX] = { PEBS_RULE_LDLAT_MAX, "ldlat-max",
		"MSR_PEBS_LD_LAT_THRESHOLD is at most 65535",
		"SDM Figure 18-23: THRESHOLD is bits 15:0, the rest "
		"reserved" },
	[PEBS_RULE_LDLAT_CMASK_INV] = { PEBS_RULE_LDLAT_CMASK_INV,
		"ldlat-cmask-inv",
		"CMASK and INV are 0 on the load-latency counter",
		"SDM 18.8.1.2 / 18.9.4.2: other values give undefined "
		"behavior" },
	[PEBS_RULE_LDLAT_ENABLE] = { PEBS_RULE_LDLAT_ENABLE, "ldlat-enable",
		"load latency sets both PEBS_EN_PMCx and LL_EN_PMCx of "
		"IA32_PEBS_ENABLE, and LL_EN_PMCx only with PEBS_EN_PMCx "
		"and the load-latency event",
		"SDM 18.8.1.2 / 18.9.4.2 (PMC0: 00000001_00000001H); "
		"Figure 18-35" },
	[PEBS_RULE_LDLAT_ALONE] = { PEBS_RULE_LDLAT_ALONE, "ldlat-alone",
		"on Sandy Bridge and Ivy Bridge no other PEBS event runs "
		"beside load latency",
		"SDM 18.9.4.2: when load latency is enabled, no other PEBS "
		"event can be configured with other counters" },
	[PEBS_RULE_LDLAT_CONFLICT] = { PEBS_RULE_LDLAT_CONFLICT,
		"ldlat-conflict",
		"all load-latency events of a plan share one threshold",
		"one MSR_PEBS_LD_LAT_THRESHOLD per logical processor" },
	[PEBS_RULE_PSTORE_SUPPORT] = { PEBS_RULE_PSTORE_SUPPORT,
		"pstore-support",
		"store sampling needs the precise-store facility (SNB/IVB) "
		"or DataLA store events (HSW and later, Goldmont)",
		"SDM 18.9.4.3, 18.11.x DataLA; Table 18-57" },
	[PEBS_RULE_PSTORE_PMC3] = { PEBS_RULE_PSTORE_PMC3, "pstore-pmc3",
		"precise store runs on IA32_PMC3 only, with PS_EN "
		"(IA32_PEBS_ENABLE bit 63) and PEBS_EN_PMC3",
		"SDM 18.9.4.3: only IA32_PMC3 can capture precise store "
		"information; 18.9.4 PS_ENABLE" },
	[PEBS_RULE_FRONTEND_SUPPORT] = { PEBS_RULE_FRONTEND_SUPPORT,
		"frontend-support",
		"front-end PEBS events exist from Skylake on",
		"SDM 18.13.1.4: PEBS facility for front end events, 6th "
		"generation Core" },
	[PEBS_RULE_FRONTEND_MSR] = { PEBS_RULE_FRONTEND_MSR, "frontend-msr",
		"MSR_PEBS_FRONTEND holds a Table 18-58 sub-event (or "
		"MS_FLOWS, 0x8, on SPR); IDQ bubbles need latency 1-4095 "
		"and width 1 to the allocation width (4 on SKL)",
		"SDM 18.13.1.4, Table 18-58; kernel valid mask 0x7FFF17 "
		"(0x7FFF1F on SPR)" },
	[PEBS_RULE_FRONTEND_CONFLICT] = { PEBS_RULE_FRONTEND_CONFLICT,
		"frontend-conflict",
		"all front-end events of a plan share one MSR_PEBS_FRONTEND "
		"value",
		"one MSR_PEBS_FRONTEND per logical processor" },
	[PEBS_RULE_RESERVED] = { PEBS_RULE_RESERVED, "reserved-bits",
		"no value sets a bit the profile does not define, and no MSR "
		"the profile lacks is written",
		"SDM: reserved bits must be written as zero (#GP otherwise)" },
	[PEBS_RULE_TOO_MANY] = { PEBS_RULE_TOO_MANY, "too-many-events",
		"one PEBS counter per event",
		"profile: PEBS-capable general-purpose counters" },
	[PEBS_RULE_GLM_PMC0] = { PEBS_RULE_GLM_PMC0, "glm-pmc0",
		"Goldmont does PEBS on IA32_PMC0 only",
		"SDM 18.7.1: PEBS is supported using IA32_PMC0 for all "
		"events" },
	[PEBS_RULE_PEBS_EVENT] = { PEBS_RULE_PEBS_EVENT, "pebs-event",
		"the event is a PEBS (precise) event on this "
		"microarchitecture (Goldmont and extended-PEBS parts also "
		"take non-precise events)",
		"SDM 18.9.4 Table 18-32 and per-uarch PEBS event lists; "
		"18.7.1 (Goldmont non-precise events)" },
	[PEBS_RULE_PERIOD] = { PEBS_RULE_PERIOD, "period-range",
		"the period is at least 1 and fits the counter write: below "
		"2^31 for legacy IA32_PMCx writes, below 2^(width-1) for "
		"full-width IA32_A_PMCx writes; and at least the errata "
		"minimums (NHM/WSM/HSW 32, HSW/BDW INST_RETIRED 0x01C0 128, "
		"BDW 0x01C0 a multiple of 64)",
		"SDM 18.2.6 (legacy writes sign-extend bit 31); kernel "
		"x86_pmu.max_period and the core.c limit_period hooks" },
	[PEBS_RULE_WRITE_ORDER] = { PEBS_RULE_WRITE_ORDER, "write-order",
		"counters are disabled (IA32_PERF_GLOBAL_CTRL = 0) before any "
		"PEBS programming changes and enabled last",
		"SDM 18.9.4 PDIR caution: change a PEBS-enabled counter's "
		"programming or value only while it is disabled" },
	[PEBS_RULE_LDLAT_AUX] = { PEBS_RULE_LDLAT_AUX, "ldlat-aux",
		"on Sapphire Rapids the load-latency event runs beside the "
		"auxiliary event 0x8203 (event 0x03 umask 0x82), counting on "
		"a general-purpose counter no PEBS event uses",
		"Linux core.c PMU_FL_MEM_LOADS_AUX: SPR's load-latency event "
		"0x01CD needs it co-scheduled" },
};

const struct pebs_rule_info *pebs_rule_info(enum pebs_rule r)
{
	if ((unsigned)r == PEBS_RULE_NONE || (unsigned)r >= PEBS_RULE_COUNT)
		return NULL;
	return &rules[r];
}

enum pebs_rule pebs_rule_by_name(const char *name)
{
	for (unsigned i = 1; i < PEBS_RULE_COUNT; i++)
		if (name && strcmp(rules[i].name, name) == 0)
			return (enum pebs_rule)i;
	return PEBS_RULE_NONE;
}

/* ------------------------------------------------ facts not in profiles */

/*
 * SNB/IVB: the "no other PEBS event beside load latency" sentence is in
 * the Sandy Bridge section, which Ivy Bridge's section inherits.
 */
static int ldlat_alone(const struct pebs_uarch *u)
{
	return lib_strcasecmp(u->name, "snb") == 0 ||
	       lib_strcasecmp(u->name, "ivb") == 0;
}

/* IDQ bubble width limit = allocation slots per cycle (SDM Table 18-58
 * says 4 for Skylake; ICL and GLC JSON use widths 5 and 6). */
static unsigned fe_width_max(const struct pebs_uarch *u)
{
	if (lib_strcasecmp(u->name, "icl") == 0 ||
	    lib_strcasecmp(u->name, "icx") == 0)
		return 5;
	if (lib_strcasecmp(u->name, "spr") == 0)
		return 6;
	return 4;
}

/* Goldmont takes non-precise events (SDM 18.7.1); so does every part
 * with extended PEBS (PEBS on all counters). */
static int nonprecise_ok(const struct pebs_uarch *u)
{
	return lib_strcasecmp(u->name, "glm") == 0 ||
	       (u->features & PEBS_UF_PEBS_ALL);
}

static int is_glm(const struct pebs_uarch *u)
{
	return lib_strcasecmp(u->name, "glm") == 0;
}

static uint64_t gp_mask(const struct pebs_uarch *u)
{
	return u->n_gp >= 32 ? 0xffffffffull : ((1ull << u->n_gp) - 1);
}

uint64_t pebs_plan_fe_valid_mask(const struct pebs_uarch *u)
{
	if (!u || !(u->features & PEBS_UF_FRONTEND))
		return 0;
	return lib_strcasecmp(u->name, "spr") == 0 ? PEBS_FE_VALID_MASK_SPR :
	       PEBS_FE_VALID_MASK;
}

static uint64_t width_mask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/*
 * Smallest period and its granularity (a power of two) the kernel's
 * limit_period hooks (core.c) allow for event selection @select on @u:
 * nhm_limit_period (NHM, WSM: 32), hsw_limit_period (HSW: 32, 128 for
 * INST_RETIRED.ALL 0x01C0, erratum HSW11), bdw_limit_period (BDW:
 * 0x01C0 at least 128 with bits 5:0 clear, BDM11/BDM55).  Below them the
 * kernel reports "interrupt took too long" storms and the errata hit.
 */
static uint64_t min_period(const struct pebs_uarch *u, uint64_t select,
			   uint64_t *gran, const char **why)
{
	int inst_all = (select & (PEBS_EVTSEL_EVENT | PEBS_EVTSEL_UMASK)) ==
		       0x01c0;
	*gran = 1;
	*why = NULL;
	if (!lib_strcasecmp(u->name, "nhm") || !lib_strcasecmp(u->name, "wsm")) {
		*why = "Linux nhm_limit_period";
		return 32;
	}
	if (!lib_strcasecmp(u->name, "hsw")) {
		*why = inst_all ? "erratum HSW11, Linux hsw_limit_period" :
			"Linux hsw_limit_period";
		return inst_all ? 128 : 32;
	}
	if (!lib_strcasecmp(u->name, "bdw") && inst_all) {
		*why = "errata BDM11/BDM55, Linux bdw_limit_period";
		*gran = 64;
		return 128;
	}
	return 1;
}

static uint64_t max_period(const struct pebs_uarch *u)
{
	if (u->features & PEBS_UF_FULL_WIDTH)
		return width_mask(u->gp_width) >> 1;
	return (1ull << 31) - 1;
}

/* "PMC3", "PMC0-PMC3", "PMC1, PMC3" */
static void fmt_counters(uint64_t m, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned x = 0; x < 32 && n < len; x++) {
		if (!(m >> x & 1))
			continue;
		unsigned y = x;
		while (y + 1 < 32 && (m >> (y + 1) & 1))
			y++;
		int w;
		if (y >= x + 2)
			w = snprintf(buf + n, len - n, "%sPMC%u-PMC%u",
				     n ? ", " : "", x, y);
		else if (y == x + 1)
			w = snprintf(buf + n, len - n, "%sPMC%u, PMC%u",
				     n ? ", " : "", x, y);
		else
			w = snprintf(buf + n, len - n, "%sPMC%u",
				     n ? ", " : "", x);
		if (w < 0)
			break;
		n += (size_t)w;
		x = y;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* Valid-bit mask of @msr on @u (0 and *@exists = 0 when absent). */
static uint64_t msr_valid(const struct pebs_uarch *u, uint32_t msr,
			  int *exists, const char **name)
{
	uint64_t gp = gp_mask(u);
	*exists = 1;
	if (msr >= PEBS_MSR_PMC(0) && msr < PEBS_MSR_PMC(32)) {
		*name = "IA32_PMCx";
		*exists = msr - PEBS_MSR_PMC(0) < u->n_gp;
		return width_mask(u->gp_width);
	}
	if (msr >= PEBS_MSR_A_PMC(0) && msr < PEBS_MSR_A_PMC(32)) {
		*name = "IA32_A_PMCx";
		*exists = (u->features & PEBS_UF_FULL_WIDTH) &&
			  msr - PEBS_MSR_A_PMC(0) < u->n_gp;
		return width_mask(u->gp_width);
	}
	if (msr >= PEBS_MSR_PERFEVTSEL(0) && msr < PEBS_MSR_PERFEVTSEL(32)) {
		uint64_t v = 0xffffffffull;
		*name = "IA32_PERFEVTSELx";
		*exists = msr - PEBS_MSR_PERFEVTSEL(0) < u->n_gp;
		if (u->features & PEBS_UF_TSX)
			v |= PEBS_EVTSEL_IN_TX | PEBS_EVTSEL_IN_TXCP;
		if (u->features & PEBS_UF_ADAPTIVE)
			v |= PEBS_EVTSEL_ADAPTIVE;
		return v;
	}
	switch (msr) {
	case PEBS_MSR_GLOBAL_CTRL: {
		uint64_t f = u->n_fixed >= 16 ? 0xffffull :
			     ((1ull << u->n_fixed) - 1);
		*name = "IA32_PERF_GLOBAL_CTRL";
		return gp | f << 32;
	}
	case PEBS_MSR_GLOBAL_OVF: {
		uint64_t f = u->n_fixed >= 16 ? 0xffffull :
			     ((1ull << u->n_fixed) - 1);
		*name = "IA32_PERF_GLOBAL_OVF_CTRL";
		return gp | f << 32 | PEBS_STATUS_DS_THRESH;
	}
	case PEBS_MSR_PEBS_ENABLE: {
		uint64_t v = u->pebs_counters & gp;
		*name = "IA32_PEBS_ENABLE";
		if (u->features & PEBS_UF_LL_EN)
			v |= (u->ldlat_counters & gp) << 32;
		else
			v |= u->pebs_counters & PEBS_UARCH_FIXED_MASK;
		if (u->features & PEBS_UF_PSTORE)
			v |= PEBS_PE_PS_EN;
		return v;
	}
	case PEBS_MSR_DATA_CFG:
		*name = "MSR_PEBS_DATA_CFG";
		*exists = !!(u->features & PEBS_UF_ADAPTIVE);
		return 0xfull | 0xffull << PEBS_DATACFG_LBR_SHIFT;
	case PEBS_MSR_LD_LAT:
		*name = "MSR_PEBS_LD_LAT_THRESHOLD";
		*exists = !!(u->features & PEBS_UF_LDLAT);
		return 0xffff;
	case PEBS_MSR_FRONTEND:
		*name = "MSR_PEBS_FRONTEND";
		*exists = !!(u->features & PEBS_UF_FRONTEND);
		return pebs_plan_fe_valid_mask(u);
	case PEBS_MSR_DS_AREA:
		*name = "IA32_DS_AREA";
		return ~0ull;
	}
	*exists = 0;
	*name = "?";
	return 0;
}

/* Checks an MSR_PEBS_FRONTEND value; 0 or a message. */
static int fe_value_ok(const struct pebs_uarch *u, uint64_t v, char *err,
		       size_t errlen)
{
	unsigned sub = (unsigned)(v & 0xff);
	unsigned lat = (unsigned)(v >> PEBS_FE_LATENCY_SHIFT & 0xfff);
	unsigned wid = (unsigned)(v >> PEBS_FE_WIDTH_SHIFT & 0x7);
	uint64_t valid = pebs_plan_fe_valid_mask(u);
	if (v & ~valid) {
		lib_errf(err, errlen, "rule frontend-msr: MSR_PEBS_FRONTEND "
		       "0x%llx sets bits outside 0x%llx",
		       (unsigned long long)v, (unsigned long long)valid);
		return -1;
	}
	if (sub == PEBS_FE_IDQ_BUBBLES) {
		if (lat < 1 || lat > 4095) {
			lib_errf(err, errlen, "rule frontend-msr: IDQ bubble "
			       "latency %u is outside 1-4095", lat);
			return -1;
		}
		if (wid < 1 || wid > fe_width_max(u)) {
			lib_errf(err, errlen, "rule frontend-msr: IDQ bubble "
			       "width %u is outside 1-%u on %s", wid,
			       fe_width_max(u), u->name);
			return -1;
		}
		return 0;
	}
	if (!strcmp(pebs_event_fe_sub_name(sub), "?")) {
		lib_errf(err, errlen, "rule frontend-msr: 0x%02x is not a "
		       "sub-event of Table 18-58", sub);
		return -1;
	}
	if (lat || wid) {
		lib_errf(err, errlen, "rule frontend-msr: latency and width "
		       "apply only to IDQ bubbles (sub-event 0x06)");
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- plan */

struct pebs_plan {
	const struct pebs_uarch *u;
	size_t nev;
	struct pebs_plan_event ev[PEBS_PLAN_MAX_EVENTS];
	size_t nw, wcap;
	struct pebs_msr_write *w;
	size_t nres;
	struct pebs_ds_reset res[32];
	size_t naux;
	struct pebs_plan_aux aux[1];
	uint64_t pebs_enable, global_ctrl, data_cfg, period;
};

const struct pebs_uarch *pebs_plan_uarch(const struct pebs_plan *p)
{
	return p->u;
}

size_t pebs_plan_nwrites(const struct pebs_plan *p)
{
	return p->nw;
}

const struct pebs_msr_write *pebs_plan_write(const struct pebs_plan *p,
					     size_t i)
{
	return i < p->nw ? &p->w[i] : NULL;
}

size_t pebs_plan_nevents(const struct pebs_plan *p)
{
	return p->nev;
}

const struct pebs_plan_event *pebs_plan_event(const struct pebs_plan *p,
					      size_t i)
{
	return i < p->nev ? &p->ev[i] : NULL;
}

size_t pebs_plan_naux(const struct pebs_plan *p)
{
	return p->naux;
}

const struct pebs_plan_aux *pebs_plan_aux(const struct pebs_plan *p,
					  size_t i)
{
	return i < p->naux ? &p->aux[i] : NULL;
}

size_t pebs_plan_nresets(const struct pebs_plan *p)
{
	return p->nres;
}

const struct pebs_ds_reset *pebs_plan_reset(const struct pebs_plan *p,
					    size_t i)
{
	return i < p->nres ? &p->res[i] : NULL;
}

uint64_t pebs_plan_pebs_enable(const struct pebs_plan *p)
{
	return p->pebs_enable;
}

uint64_t pebs_plan_global_ctrl(const struct pebs_plan *p)
{
	return p->global_ctrl;
}

uint64_t pebs_plan_data_cfg(const struct pebs_plan *p)
{
	return p->data_cfg;
}

void pebs_plan_free(struct pebs_plan *p)
{
	if (!p)
		return;
	free(p->w);
	free(p);
}

static int add_write(struct pebs_plan *p, uint32_t msr, const char *name,
		     int cpu, uint64_t value, unsigned flags)
{
	if (p->nw == p->wcap) {
		size_t nc = p->wcap ? p->wcap * 2 : 32;
		struct pebs_msr_write *n = realloc(p->w, nc * sizeof(*n));
		if (!n)
			return -PEBS_E_NOMEM;
		p->w = n;
		p->wcap = nc;
	}
	p->w[p->nw++] = (struct pebs_msr_write){ msr, name, cpu, value,
						 flags };
	return 0;
}

static const char *const pmc_names[] = {
	"IA32_PMC0", "IA32_PMC1", "IA32_PMC2", "IA32_PMC3",
	"IA32_PMC4", "IA32_PMC5", "IA32_PMC6", "IA32_PMC7",
};
static const char *const apmc_names[] = {
	"IA32_A_PMC0", "IA32_A_PMC1", "IA32_A_PMC2", "IA32_A_PMC3",
	"IA32_A_PMC4", "IA32_A_PMC5", "IA32_A_PMC6", "IA32_A_PMC7",
};
static const char *const sel_names[] = {
	"IA32_PERFEVTSEL0", "IA32_PERFEVTSEL1", "IA32_PERFEVTSEL2",
	"IA32_PERFEVTSEL3", "IA32_PERFEVTSEL4", "IA32_PERFEVTSEL5",
	"IA32_PERFEVTSEL6", "IA32_PERFEVTSEL7",
};

/*
 * Kuhn's augmenting path: a free counter first (lowest index), and only
 * when none is left move an earlier event to another of its counters.
 */
static int augment(const uint64_t *allow, size_t e, int *owner, int *seen)
{
	for (unsigned x = 0; x < 32; x++) {
		if ((allow[e] >> x & 1) && !seen[x] && owner[x] < 0) {
			seen[x] = 1;
			owner[x] = (int)e;
			return 1;
		}
	}
	for (unsigned x = 0; x < 32; x++) {
		if (!(allow[e] >> x & 1) || seen[x])
			continue;
		seen[x] = 1;
		if (augment(allow, (size_t)owner[x], owner, seen)) {
			owner[x] = (int)e;
			return 1;
		}
	}
	return 0;
}

static int rule_err(enum pebs_rule *rule, enum pebs_rule r)
{
	*rule = r;
	return -PEBS_E_RULE;
}

/* The errata minimum and granularity of min_period(); 0 or a message.
 * Refused, not rounded: the period stays the one asked for (a default
 * period was rounded up before, in check_event()). */
static int period_limits_ok(const struct pebs_uarch *u, uint64_t select,
			    uint64_t period, const char *name, char *err,
			    size_t errlen)
{
	uint64_t gran;
	const char *why;
	uint64_t min = min_period(u, select, &gran, &why);

	if (!why)
		why = "the counter";

	if (period < min) {
		lib_errf(err, errlen, "rule period-range: period %llu of %s is "
		       "below %llu, the smallest on %s (%s)",
		       (unsigned long long)period, name,
		       (unsigned long long)min, u->name, why);
		return -1;
	}
	if (period % gran) {
		uint64_t lo = period - period % gran;
		lib_errf(err, errlen, "rule period-range: period %llu of %s is "
		       "not a multiple of %llu on %s (%s): use %llu or %llu",
		       (unsigned long long)period, name,
		       (unsigned long long)gran, u->name, why,
		       (unsigned long long)(lo < min ? min : lo),
		       (unsigned long long)(lo + gran));
		return -1;
	}
	return 0;
}

static int check_event(struct pebs_plan *p, struct pebs_plan_event *pe,
		       const struct pebs_plan_opts *o, enum pebs_rule *rule,
		       char *err, size_t errlen)
{
	const struct pebs_uarch *u = p->u;
	const struct pebs_event *ev = &pe->ev;
	const struct pebs_event_spec *s = &ev->spec;
	char cl[96];

	if (ev->kind == PEBS_EVK_LOAD_LATENCY) {
		uint64_t min = u->ldlat_min ? u->ldlat_min : 3;
		uint64_t v = (s->mods & PEBS_MOD_LDLAT) ? s->ldlat :
			     PEBS_PLAN_DEFAULT_LDLAT;
		if (v < min) {
			lib_errf(err, errlen, "rule ldlat-min: ldlat=%llu is "
			       "below %llu, the smallest "
			       "MSR_PEBS_LD_LAT_THRESHOLD the SDM allows",
			       (unsigned long long)v,
			       (unsigned long long)min);
			return rule_err(rule, PEBS_RULE_LDLAT_MIN);
		}
		if (v > PEBS_LDLAT_MAX) {
			lib_errf(err, errlen, "rule ldlat-max: ldlat=%llu does "
			       "not fit MSR_PEBS_LD_LAT_THRESHOLD bits 15:0 "
			       "(at most %u)", (unsigned long long)v,
			       PEBS_LDLAT_MAX);
			return rule_err(rule, PEBS_RULE_LDLAT_MAX);
		}
		pe->ldlat = (uint32_t)v;
	}
	if (ev->kind == PEBS_EVK_FRONTEND) {
		if (s->sub == PEBS_FE_IDQ_BUBBLES) {
			if (s->latency < 1 || s->latency > 4095) {
				lib_errf(err, errlen, "rule frontend-msr: "
				       "latency=%llu is outside 1-4095 "
				       "(MSR_PEBS_FRONTEND bits 19:8)",
				       (unsigned long long)s->latency);
				return rule_err(rule, PEBS_RULE_FRONTEND_MSR);
			}
			if (s->width < 1 || s->width > fe_width_max(u)) {
				lib_errf(err, errlen, "rule frontend-msr: "
				       "width=%llu is outside 1-%u on %s "
				       "(allocation slots per cycle)",
				       (unsigned long long)s->width,
				       fe_width_max(u), u->name);
				return rule_err(rule, PEBS_RULE_FRONTEND_MSR);
			}
		}
		pe->frontend = s->sub |
			       s->latency << PEBS_FE_LATENCY_SHIFT |
			       s->width << PEBS_FE_WIDTH_SHIFT;
	}
	if (ev->kind == PEBS_EVK_LOAD_LATENCY &&
	    (ev->select & (PEBS_EVTSEL_CMASK | PEBS_EVTSEL_INV))) {
		lib_errf(err, errlen, "rule ldlat-cmask-inv: %s must have CMASK "
		       "and INV 0 on the load-latency counter", ev->name);
		return rule_err(rule, PEBS_RULE_LDLAT_CMASK_INV);
	}
	uint64_t f = ev->select & (PEBS_EVTSEL_ANY | PEBS_EVTSEL_EDGE |
				   PEBS_EVTSEL_INV | PEBS_EVTSEL_CMASK);
	if (f) {
		lib_errf(err, errlen, "rule pebs-fields-zero: %s sets%s%s%s%s; "
		       "PEBS events need AnyThread, Edge, Invert and CMask "
		       "all 0", ev->name,
		       (f & PEBS_EVTSEL_ANY) ? " AnyThread" : "",
		       (f & PEBS_EVTSEL_EDGE) ? " Edge" : "",
		       (f & PEBS_EVTSEL_INV) ? " Invert" : "",
		       (f & PEBS_EVTSEL_CMASK) ? " CMask" : "");
		return rule_err(rule, PEBS_RULE_FIELDS_ZERO);
	}
	if (ev->precise == 0 && !nonprecise_ok(u)) {
		lib_errf(err, errlen, "rule pebs-event: %s is not a PEBS "
		       "(precise) event on %s", ev->name, u->name);
		return rule_err(rule, PEBS_RULE_PEBS_EVENT);
	}
	pe->period = (s->mods & PEBS_MOD_PERIOD) ? s->period :
		     (o->period ? o->period : PEBS_PLAN_DEFAULT_PERIOD);
	if (!(s->mods & PEBS_MOD_PERIOD) && (!o->period || o->period_default)) {
		/* a default nobody asked for is made valid, as the kernel's
		 * limit_period does; a period the user gave is refused */
		uint64_t gran;
		const char *why;
		uint64_t min = min_period(u, ev->select, &gran, &why);
		if (pe->period < min)
			pe->period = min;
		if (gran > 1 && pe->period % gran)
			pe->period += gran - pe->period % gran;
	}
	if (pe->period == 0 || pe->period > max_period(u)) {
		lib_errf(err, errlen, "rule period-range: period %llu is "
		       "outside 1-%llu on %s (%s counter writes)",
		       (unsigned long long)pe->period,
		       (unsigned long long)max_period(u), u->name,
		       (u->features & PEBS_UF_FULL_WIDTH) ? "full-width" :
		       "legacy 32-bit");
		return rule_err(rule, PEBS_RULE_PERIOD);
	}
	if (period_limits_ok(u, ev->select, pe->period, ev->name, err,
			     errlen) < 0)
		return rule_err(rule, PEBS_RULE_PERIOD);
	if (s->mods & PEBS_MOD_PMC) {
		if (s->pmc >= u->n_gp) {
			lib_errf(err, errlen, "rule pebs-counter: %s has no "
			       "PMC%u (%u general-purpose counters)", u->name,
			       s->pmc, u->n_gp);
			return rule_err(rule, PEBS_RULE_PEBS_COUNTER);
		}
		if (!(ev->counters >> s->pmc & 1)) {
			const struct pebs_rule_info *ri =
				pebs_rule_info(ev->counter_rule);
			fmt_counters(ev->counters, cl, sizeof(cl));
			lib_errf(err, errlen, "rule %s: %s can only use %s on "
			       "%s (pmc=%u asked)", ri->name, ev->name, cl,
			       u->name, s->pmc);
			return rule_err(rule, ev->counter_rule);
		}
	}
	return 0;
}

/*
 * Matches events 0..@n-1 to counters, @allow holding each one's mask, into
 * @owner (counter -> event, -1 free): most constrained first (fewest
 * counters), ties in index order, so the result is deterministic.  -1
 * when every event got a counter, else the index of the one that could
 * not.
 */
static long match(const uint64_t *allow, size_t n, int *owner)
{
	size_t order[PEBS_PLAN_MAX_EVENTS + 1];

	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && popcount64(allow[order[j - 1]]) >
				popcount64(allow[i])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (unsigned x = 0; x < 32; x++)
		owner[x] = -1;
	for (size_t i = 0; i < n; i++) {
		int seen[32] = { 0 };
		if (!augment(allow, order[i], owner, seen))
			return (long)order[i];
	}
	return -1;
}

/* "PMC0: NAME, PMC1: NAME": who holds the counters of @m in @owner;
 * whole entries only, ", ..." for those that do not fit. */
static void fmt_owners(const struct pebs_plan *p, uint64_t m,
		       const int *owner, char *who, size_t len)
{
	size_t n = 0;

	who[0] = '\0';
	for (unsigned x = 0; x < 32; x++) {
		if (!(m >> x & 1) || owner[x] < 0)
			continue;
		int w = snprintf(who + n, len - n, "%sPMC%u: %s",
				 n ? ", " : "", x, p->ev[owner[x]].ev.name);
		if (w < 0 || (size_t)w >= len - n - 8) {
			snprintf(who + n, len - n, ", ...");
			break;
		}
		n += (size_t)w;
	}
}

/* The counters the auxiliary event 0x8203 may count on: the profile's
 * constraint on event 0x03 (PMC0-3 on spr, Linux core.c
 * intel_spr_event_constraints), pebs_uarch_event_code_counters(). */
static uint64_t aux_counters(const struct pebs_uarch *u)
{
	return gp_mask(u) & pebs_uarch_event_code_counters(u,
			(unsigned)(PEBS_LDLAT_AUX_SELECT & 0xff),
			(unsigned)(PEBS_LDLAT_AUX_SELECT >> 8 & 0xff));
}

/*
 * The counters of the events, and on PEBS_UF_LDLAT_AUX profiles (spr) of
 * the load-latency event's auxiliary event.  The auxiliary event is one
 * more participant of the matching, with its own mask, not a leftover
 * counter picked afterwards: on spr it may only use PMC0-3, and the
 * memory events that also need PMC0-3 must leave it one when they can.
 * The events are matched alone first, so that a set that does not fit
 * without it is blamed on the event's own rule, and one that fits only
 * without it on ldlat-aux.
 */
static int assign(struct pebs_plan *p, enum pebs_rule *rule, char *err,
		  size_t errlen)
{
	const struct pebs_uarch *u = p->u;
	uint64_t allow[PEBS_PLAN_MAX_EVENTS + 1];
	int owner[32], owner_aux[32];
	size_t ll = p->nev;
	char cl[96], who[160];
	long bad;

	for (size_t i = 0; i < p->nev; i++) {
		const struct pebs_plan_event *pe = &p->ev[i];
		allow[i] = (pe->ev.spec.mods & PEBS_MOD_PMC) ?
			   1ull << pe->ev.spec.pmc : pe->ev.counters;
		if (pe->ev.kind == PEBS_EVK_LOAD_LATENCY && ll == p->nev)
			ll = i;
	}
	bad = match(allow, p->nev, owner);
	if (bad >= 0) {
		const struct pebs_plan_event *pe = &p->ev[bad];
		const struct pebs_rule_info *ri =
			pebs_rule_info(pe->ev.counter_rule);
		fmt_owners(p, allow[bad], owner, who, sizeof(who));
		fmt_counters(allow[bad], cl, sizeof(cl));
		lib_errf(err, errlen, "rule %s: %s can only use %s on %s, "
		       "already taken (%s)", ri->name, pe->ev.name, cl,
		       u->name, who);
		return rule_err(rule, pe->ev.counter_rule);
	}
	if (ll < p->nev && (u->features & PEBS_UF_LDLAT_AUX)) {
		allow[p->nev] = aux_counters(u);
		if (match(allow, p->nev + 1, owner_aux) >= 0) {
			fmt_owners(p, allow[p->nev], owner, who, sizeof(who));
			fmt_counters(allow[p->nev], cl, sizeof(cl));
			lib_errf(err, errlen, "rule ldlat-aux: %s on %s needs "
			       "the auxiliary event 0x%llx (event 0x03 umask "
			       "0x82) counting beside it on one of %s, the "
			       "counters event 0x03 may use there, and the "
			       "other events need them all (%s)",
			       p->ev[ll].ev.name, u->name,
			       (unsigned long long)PEBS_LDLAT_AUX_SELECT, cl,
			       who);
			return rule_err(rule, PEBS_RULE_LDLAT_AUX);
		}
		memcpy(owner, owner_aux, sizeof(owner));
	}
	for (unsigned x = 0; x < 32; x++) {
		if (owner[x] < 0)
			continue;
		if ((size_t)owner[x] < p->nev) {
			p->ev[owner[x]].counter = x;
			continue;
		}
		p->aux[0] = (struct pebs_plan_aux){
			.name = "mem-loads-aux",
			.select = PEBS_LDLAT_AUX_SELECT,
			.counter = x,
			.event = ll,
		};
		p->naux = 1;
	}
	return 0;
}

static int set_checks(struct pebs_plan *p, enum pebs_rule *rule, char *err,
		      size_t errlen)
{
	const struct pebs_uarch *u = p->u;
	const struct pebs_plan_event *ll = NULL, *fe = NULL;
	char cl[96];

	for (size_t i = 0; i < p->nev; i++) {
		const struct pebs_plan_event *pe = &p->ev[i];
		if (pe->ev.kind == PEBS_EVK_LOAD_LATENCY) {
			if (ll && ll->ldlat != pe->ldlat) {
				lib_errf(err, errlen, "rule ldlat-conflict: "
				       "load-latency thresholds %u (%s) and "
				       "%u (%s) share one "
				       "MSR_PEBS_LD_LAT_THRESHOLD", ll->ldlat,
				       ll->ev.spec.text, pe->ldlat,
				       pe->ev.spec.text);
				return rule_err(rule,
						PEBS_RULE_LDLAT_CONFLICT);
			}
			ll = pe;
		}
		if (pe->ev.kind == PEBS_EVK_FRONTEND) {
			if (fe && fe->frontend != pe->frontend) {
				lib_errf(err, errlen, "rule frontend-conflict: "
				       "%s and %s need different "
				       "MSR_PEBS_FRONTEND values (0x%llx, "
				       "0x%llx)", fe->ev.spec.text,
				       pe->ev.spec.text,
				       (unsigned long long)fe->frontend,
				       (unsigned long long)pe->frontend);
				return rule_err(rule,
						PEBS_RULE_FRONTEND_CONFLICT);
			}
			fe = pe;
		}
	}
	if (ll && p->nev > 1 && ldlat_alone(u)) {
		const struct pebs_plan_event *other = &p->ev[0];
		if (other == ll)
			other = &p->ev[1];
		lib_errf(err, errlen, "rule ldlat-alone: on %s no other PEBS "
		       "event may run beside load latency (%s with %s)",
		       u->name, ll->ev.name, other->ev.name);
		return rule_err(rule, PEBS_RULE_LDLAT_ALONE);
	}
	uint64_t pc = u->pebs_counters & gp_mask(u);
	if (p->nev > popcount64(pc)) {
		fmt_counters(pc, cl, sizeof(cl));
		if (is_glm(u)) {
			lib_errf(err, errlen, "rule glm-pmc0: Goldmont does PEBS "
			       "on PMC0 only: one event, not %zu", p->nev);
			return rule_err(rule, PEBS_RULE_GLM_PMC0);
		}
		lib_errf(err, errlen, "rule too-many-events: %zu events but %s "
		       "has %u PEBS counters (%s)", p->nev, u->name,
		       popcount64(pc), cl);
		return rule_err(rule, PEBS_RULE_TOO_MANY);
	}
	return 0;
}

static int emit(struct pebs_plan *p, const struct pebs_plan_opts *o)
{
	const struct pebs_uarch *u = p->u;
	int full = !!(u->features & PEBS_UF_FULL_WIDTH);
	uint64_t ldlat = 0, fe = 0;
	int has_ll = 0, has_fe = 0;
	uint64_t used = 0;
	struct pebs_plan_event *byc[32] = { 0 };

	for (size_t i = 0; i < p->nev; i++) {
		struct pebs_plan_event *pe = &p->ev[i];
		const struct pebs_event_spec *s = &pe->ev.spec;
		unsigned x = pe->counter;
		int usr = o->user, os = o->kernel;
		if (s->mods & (PEBS_MOD_U | PEBS_MOD_K)) {
			usr = !!(s->mods & PEBS_MOD_U);
			os = !!(s->mods & PEBS_MOD_K);
		} else if (!usr && !os) {
			usr = os = 1;
		}
		/* INT stays 0: a PEBS counter's overflow goes to the DS
		 * buffer; the PMI comes from the DS threshold (the kernel
		 * clears INT in intel_pmu_pebs_enable()). */
		pe->evtsel = pe->ev.select | PEBS_EVTSEL_EN |
			     (usr ? PEBS_EVTSEL_USR : 0) |
			     (os ? PEBS_EVTSEL_OS : 0);
		if (u->features & PEBS_UF_ADAPTIVE)
			pe->evtsel |= PEBS_EVTSEL_ADAPTIVE;
		pe->reset = (0 - pe->period) & width_mask(u->gp_width);
		used |= 1ull << x;
		byc[x] = pe;
		p->pebs_enable |= PEBS_PE_PEBS_EN(x);
		if (pe->ev.kind == PEBS_EVK_LOAD_LATENCY) {
			has_ll = 1;
			ldlat = pe->ldlat;
			if (u->features & PEBS_UF_LL_EN)
				p->pebs_enable |= PEBS_PE_LL_EN(x);
		}
		if (pe->ev.kind == PEBS_EVK_PRECISE_STORE &&
		    (u->features & PEBS_UF_PSTORE))
			p->pebs_enable |= PEBS_PE_PS_EN;
		if (pe->ev.kind == PEBS_EVK_FRONTEND) {
			has_fe = 1;
			fe = pe->frontend;
		}
	}
	for (size_t a = 0; a < p->naux; a++) {
		struct pebs_plan_aux *ax = &p->aux[a];
		/* Counts where the event it serves counts; INT 0 (it
		 * starts at 0 and a 48-bit counter does not wrap); not
		 * PEBS, so no ADAPTIVE either. */
		ax->evtsel = ax->select | PEBS_EVTSEL_EN |
			     (p->ev[ax->event].evtsel &
			      (PEBS_EVTSEL_USR | PEBS_EVTSEL_OS));
		used |= 1ull << ax->counter;
	}
	p->global_ctrl = used;
	if (u->features & PEBS_UF_ADAPTIVE)
		p->data_cfg = PEBS_DATACFG_MEMINFO |
			      (o->regs ? PEBS_DATACFG_GPR : 0);
	p->nres = 0;
	for (unsigned x = 0; x < 32; x++) {
		if (!byc[x])
			continue;
		p->res[p->nres++] = (struct pebs_ds_reset){
			x, 0x40u + 8u * x, byc[x]->reset };
	}

	size_t ncpu = o->cpus ? o->ncpus : 1;
	for (size_t c = 0; c < ncpu; c++) {
		int cpu = o->cpus ? o->cpus[c] : -1;
		int r = add_write(p, PEBS_MSR_GLOBAL_CTRL,
				  "IA32_PERF_GLOBAL_CTRL", cpu, 0, 0);
		if (!r)
			r = add_write(p, PEBS_MSR_DS_AREA, "IA32_DS_AREA", cpu,
				      o->ds_area, PEBS_MW_DS_ADDR);
		for (unsigned x = 0; x < 32 && !r; x++) {
			const struct pebs_plan_aux *ax = NULL;
			for (size_t a = 0; a < p->naux; a++)
				if (p->aux[a].counter == x)
					ax = &p->aux[a];
			if (ax) {
				/* the auxiliary counter: from 0, no PEBS */
				r = add_write(p, full ? PEBS_MSR_A_PMC(x) :
					      PEBS_MSR_PMC(x), full ?
					      apmc_names[x & 7] :
					      pmc_names[x & 7], cpu, 0, 0);
				if (!r)
					r = add_write(p, PEBS_MSR_PERFEVTSEL(x),
						      sel_names[x & 7], cpu,
						      ax->evtsel, 0);
				continue;
			}
			if (!byc[x])
				continue;
			if (full)
				r = add_write(p, PEBS_MSR_A_PMC(x),
					      apmc_names[x & 7], cpu,
					      byc[x]->reset, 0);
			else
				r = add_write(p, PEBS_MSR_PMC(x),
					      pmc_names[x & 7], cpu,
					      byc[x]->reset, 0);
			if (!r)
				r = add_write(p, PEBS_MSR_PERFEVTSEL(x),
					      sel_names[x & 7], cpu,
					      byc[x]->evtsel, 0);
		}
		if (!r && has_ll)
			r = add_write(p, PEBS_MSR_LD_LAT,
				      "MSR_PEBS_LD_LAT_THRESHOLD", cpu, ldlat,
				      0);
		if (!r && has_fe)
			r = add_write(p, PEBS_MSR_FRONTEND, "MSR_PEBS_FRONTEND",
				      cpu, fe, 0);
		if (!r && (u->features & PEBS_UF_ADAPTIVE))
			r = add_write(p, PEBS_MSR_DATA_CFG, "MSR_PEBS_DATA_CFG",
				      cpu, p->data_cfg, 0);
		if (!r)
			r = add_write(p, PEBS_MSR_PEBS_ENABLE,
				      "IA32_PEBS_ENABLE", cpu, p->pebs_enable,
				      0);
		/*
		 * GLOBAL_STATUS bits left set by an earlier user of the
		 * counters would be read as this capture's: records of
		 * formats 0-2 snapshot GLOBAL_STATUS to say which counter
		 * overflowed (a stale bit of another PEBS counter makes that
		 * ambiguous, raw-records.md section 3), and a stale bit 62
		 * looks like a threshold with nothing to drain.
		 */
		if (!r)
			r = add_write(p, PEBS_MSR_GLOBAL_OVF,
				      "IA32_PERF_GLOBAL_OVF_CTRL", cpu,
				      p->global_ctrl | PEBS_STATUS_DS_THRESH,
				      0);
		if (!r)
			r = add_write(p, PEBS_MSR_GLOBAL_CTRL,
				      "IA32_PERF_GLOBAL_CTRL", cpu,
				      p->global_ctrl, 0);
		if (r)
			return r;
	}
	return 0;
}

int pebs_plan_build(struct pebs_plan **out, const struct pebs_plan_opts *o,
		    const char *const *specs, size_t n, enum pebs_rule *rule,
		    char *err, size_t errlen)
{
	enum pebs_rule dummy;
	struct pebs_plan *p;
	int r;

	if (!rule)
		rule = &dummy;
	*rule = PEBS_RULE_NONE;
	*out = NULL;
	if (!o || !o->uarch) {
		lib_errf(err, errlen, "no microarchitecture profile (--uarch)");
		return -PEBS_E_INVAL;
	}
	if (n == 0) {
		lib_errf(err, errlen, "no events (-e EVENT)");
		return -PEBS_E_INVAL;
	}
	if (n > PEBS_PLAN_MAX_EVENTS) {
		lib_errf(err, errlen, "%zu events: at most %u", n,
		       PEBS_PLAN_MAX_EVENTS);
		return -PEBS_E_INVAL;
	}
	if (o->cpus) {
		if (o->ncpus == 0 || o->ncpus > PEBS_PLAN_MAX_CPUS) {
			lib_errf(err, errlen, "bad CPU list length %zu",
			       o->ncpus);
			return -PEBS_E_INVAL;
		}
		for (size_t i = 0; i < o->ncpus; i++) {
			if (o->cpus[i] < 0 ||
			    o->cpus[i] >= (int)PEBS_PLAN_MAX_CPUS) {
				lib_errf(err, errlen, "bad CPU %d", o->cpus[i]);
				return -PEBS_E_INVAL;
			}
			for (size_t j = 0; j < i; j++) {
				if (o->cpus[j] == o->cpus[i]) {
					lib_errf(err, errlen, "CPU %d listed "
					       "twice", o->cpus[i]);
					return -PEBS_E_INVAL;
				}
			}
		}
	}
	if (o->ds_area && (o->ds_area >> 47 != 0 &&
			   o->ds_area >> 47 != 0x1ffff)) {
		lib_errf(err, errlen, "DS area 0x%llx is not a canonical "
		       "address", (unsigned long long)o->ds_area);
		return -PEBS_E_INVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		lib_errf(err, errlen, "out of memory");
		return -PEBS_E_NOMEM;
	}
	p->u = o->uarch;
	p->period = o->period ? o->period : PEBS_PLAN_DEFAULT_PERIOD;
	p->nev = n;
	for (size_t i = 0; i < n; i++) {
		struct pebs_event_spec s;
		struct pebs_plan_event *pe = &p->ev[i];
		r = pebs_event_parse(specs[i], &s, err, errlen);
		if (r == 0)
			r = pebs_event_resolve(p->u, &s, &pe->ev, rule, err,
					       errlen);
		if (r == 0)
			r = check_event(p, pe, o, rule, err, errlen);
		if (r < 0)
			goto fail;
	}
	r = set_checks(p, rule, err, errlen);
	if (r == 0)
		r = assign(p, rule, err, errlen);
	if (r == 0)
		r = emit(p, o);
	if (r == -PEBS_E_NOMEM)
		lib_errf(err, errlen, "out of memory");
	if (r == 0) {
		/* The plain path: re-derive the state from the writes and
		 * check every rule again; a failure here is our bug. */
		char cerr[256];
		r = pebs_plan_check(p->u, p->w, p->nw, rule, cerr,
				    sizeof(cerr));
		if (r < 0)
			lib_errf(err, errlen, "internal: plan fails its own "
			       "check: %s", cerr);
	}
	if (r < 0)
		goto fail;
	*out = p;
	return 0;
fail:
	pebs_plan_free(p);
	return r;
}

/* ------------------------------------------------------------- checker */

struct cstate {
	int cpu;
	int started, enabled, ended;
	uint64_t sel[32], pmc[32];
	uint32_t sel_w, pmc_w;
	uint64_t pebs_enable, ldlat, fe, data_cfg, global_ctrl;
	int ldlat_w, fe_w;
};

static int check_final(const struct pebs_uarch *u, const struct cstate *s,
		       enum pebs_rule *rule, char *err, size_t errlen)
{
	uint64_t gp = gp_mask(u);
	uint64_t pe = s->pebs_enable;
	uint64_t en = pe & gp;
	char cl[96];
	char where[16];
	int ll_counter = -1;

	if (s->cpu < 0)
		snprintf(where, sizeof(where), "all CPUs");
	else
		snprintf(where, sizeof(where), "CPU %d", s->cpu);
	if (!s->ended) {
		lib_errf(err, errlen, "rule write-order: %s: the writes do not "
		       "end by enabling IA32_PERF_GLOBAL_CTRL", where);
		return rule_err(rule, PEBS_RULE_WRITE_ORDER);
	}
	if (en & ~u->pebs_counters) {
		fmt_counters(u->pebs_counters & gp, cl, sizeof(cl));
		lib_errf(err, errlen, "rule %s: IA32_PEBS_ENABLE 0x%llx enables "
		       "PEBS outside %s on %s",
		       is_glm(u) ? "glm-pmc0" : "pebs-counter",
		       (unsigned long long)pe, cl, u->name);
		return rule_err(rule, is_glm(u) ? PEBS_RULE_GLM_PMC0 :
				PEBS_RULE_PEBS_COUNTER);
	}
	for (unsigned x = 0; x < 32; x++) {
		if (!(en >> x & 1))
			continue;
		uint64_t sel = s->sel[x];
		if (!(s->sel_w >> x & 1) || !(sel & PEBS_EVTSEL_EN)) {
			lib_errf(err, errlen, "rule pebs-counter: PEBS_EN_PMC%u "
			       "is set but IA32_PERFEVTSEL%u is not enabled",
			       x, x);
			return rule_err(rule, PEBS_RULE_PEBS_COUNTER);
		}
		const struct pebs_uarch_event *t = pebs_uarch_event_by_code(
			u, (unsigned)(sel & 0xff), (unsigned)(sel >> 8 & 0xff));
		int kind = t ? t->kind : PEBS_EVK_OTHER;
		if (kind == PEBS_EVK_LOAD_LATENCY &&
		    (sel & (PEBS_EVTSEL_CMASK | PEBS_EVTSEL_INV))) {
			lib_errf(err, errlen, "rule ldlat-cmask-inv: "
			       "IA32_PERFEVTSEL%u 0x%llx: CMASK/INV set on "
			       "the load-latency counter", x,
			       (unsigned long long)sel);
			return rule_err(rule, PEBS_RULE_LDLAT_CMASK_INV);
		}
		if (sel & (PEBS_EVTSEL_ANY | PEBS_EVTSEL_EDGE |
			   PEBS_EVTSEL_INV | PEBS_EVTSEL_CMASK)) {
			lib_errf(err, errlen, "rule pebs-fields-zero: "
			       "IA32_PERFEVTSEL%u 0x%llx sets AnyThread, Edge, "
			       "Invert or CMask on a PEBS counter", x,
			       (unsigned long long)sel);
			return rule_err(rule, PEBS_RULE_FIELDS_ZERO);
		}
		uint64_t allowed = (t ? t->counters : u->pebs_counters) &
			pebs_uarch_event_code_counters(u,
					(unsigned)(sel & 0xff),
					(unsigned)(sel >> 8 & 0xff));
		if (kind == PEBS_EVK_PRECISE_STORE &&
		    (u->features & PEBS_UF_PSTORE)) {
			if (x != 3 || !(pe & PEBS_PE_PS_EN)) {
				lib_errf(err, errlen, "rule pstore-pmc3: %s on "
				       "PMC%u needs PMC3 and PS_EN "
				       "(IA32_PEBS_ENABLE bit 63)", t->name,
				       x);
				return rule_err(rule, PEBS_RULE_PSTORE_PMC3);
			}
		}
		if (!(allowed >> x & 1)) {
			fmt_counters(allowed & gp, cl, sizeof(cl));
			lib_errf(err, errlen, "rule %s: %s can only use %s on "
			       "%s, not PMC%u",
			       is_glm(u) ? "glm-pmc0" : "pebs-counter",
			       t ? t->name : "event", cl, u->name, x);
			return rule_err(rule, is_glm(u) ? PEBS_RULE_GLM_PMC0 :
					PEBS_RULE_PEBS_COUNTER);
		}
		/* The period a PEBS counter starts with: -value (0: the
		 * whole counter width, far above any minimum). */
		uint64_t per = (0 - s->pmc[x]) & width_mask(u->gp_width);
		if ((s->pmc_w >> x & 1) && per &&
		    period_limits_ok(u, sel, per, t ? t->name : "the event",
				     err, errlen) < 0)
			return rule_err(rule, PEBS_RULE_PERIOD);
		if (kind == PEBS_EVK_LOAD_LATENCY) {
			ll_counter = (int)x;
			if ((u->features & PEBS_UF_LL_EN) &&
			    !(pe & PEBS_PE_LL_EN(x))) {
				lib_errf(err, errlen, "rule ldlat-enable: load "
				       "latency on PMC%u needs LL_EN_PMC%u "
				       "(bit %u) as well as PEBS_EN_PMC%u", x,
				       x, 32 + x, x);
				return rule_err(rule, PEBS_RULE_LDLAT_ENABLE);
			}
			if (!s->ldlat_w) {
				lib_errf(err, errlen, "rule ldlat-min: load "
				       "latency enabled without writing "
				       "MSR_PEBS_LD_LAT_THRESHOLD");
				return rule_err(rule, PEBS_RULE_LDLAT_MIN);
			}
		}
		if (kind == PEBS_EVK_FRONTEND) {
			if (!s->fe_w) {
				lib_errf(err, errlen, "rule frontend-msr: "
				       "FRONTEND_RETIRED enabled without "
				       "writing MSR_PEBS_FRONTEND");
				return rule_err(rule, PEBS_RULE_FRONTEND_MSR);
			}
		}
	}
	if (u->features & PEBS_UF_LL_EN) {
		/* LL_EN_PMCx: bits 32..32+n_gp-1 (bit 63 is PS_EN) */
		for (unsigned x = 0; x < u->n_gp && x < 31; x++) {
			if (!(pe >> (32 + x) & 1))
				continue;
			const struct pebs_uarch_event *t =
				pebs_uarch_event_by_code(u,
					(unsigned)(s->sel[x] & 0xff),
					(unsigned)(s->sel[x] >> 8 & 0xff));
			if (!(pe >> x & 1) || !t ||
			    t->kind != PEBS_EVK_LOAD_LATENCY) {
				lib_errf(err, errlen, "rule ldlat-enable: "
				       "LL_EN_PMC%u is set without "
				       "PEBS_EN_PMC%u and the load-latency "
				       "event on PMC%u", x, x, x);
				return rule_err(rule, PEBS_RULE_LDLAT_ENABLE);
			}
		}
	}
	if (pe & PEBS_PE_PS_EN) {
		const struct pebs_uarch_event *t = pebs_uarch_event_by_code(u,
			(unsigned)(s->sel[3] & 0xff),
			(unsigned)(s->sel[3] >> 8 & 0xff));
		if (!(pe & PEBS_PE_PEBS_EN(3)) || !t ||
		    t->kind != PEBS_EVK_PRECISE_STORE) {
			lib_errf(err, errlen, "rule pstore-pmc3: PS_EN is set "
			       "without PEBS_EN_PMC3 and the precise-store "
			       "event on PMC3");
			return rule_err(rule, PEBS_RULE_PSTORE_PMC3);
		}
	}
	if (ll_counter >= 0 && ldlat_alone(u) &&
	    (pe & ~(PEBS_PE_LL_EN(ll_counter) |
		    PEBS_PE_PEBS_EN(ll_counter)))) {
		lib_errf(err, errlen, "rule ldlat-alone: IA32_PEBS_ENABLE "
		       "0x%llx enables other PEBS events beside load latency "
		       "on %s", (unsigned long long)pe, u->name);
		return rule_err(rule, PEBS_RULE_LDLAT_ALONE);
	}
	if (ll_counter >= 0 && (u->features & PEBS_UF_LDLAT_AUX)) {
		uint64_t can = aux_counters(u);
		int aux = 0, elsewhere = -1;
		for (unsigned x = 0; x < u->n_gp && x < 32; x++) {
			if (!(s->sel_w >> x & 1) ||
			    !(s->sel[x] & PEBS_EVTSEL_EN) ||
			    (s->sel[x] & (PEBS_EVTSEL_EVENT |
					  PEBS_EVTSEL_UMASK)) !=
			    PEBS_LDLAT_AUX_SELECT ||
			    !(s->global_ctrl >> x & 1) || (pe >> x & 1))
				continue;
			if (can >> x & 1)
				aux = 1;
			else
				elsewhere = (int)x;
		}
		if (!aux && elsewhere >= 0) {
			/* counting where event 0x03 cannot: it counts
			 * nothing, and load latency is as without it */
			fmt_counters(can, cl, sizeof(cl));
			lib_errf(err, errlen, "rule ldlat-aux: the auxiliary "
			       "event 0x%llx of load latency on PMC%d is on "
			       "PMC%d, and event 0x03 can only use %s on %s",
			       (unsigned long long)PEBS_LDLAT_AUX_SELECT,
			       ll_counter, elsewhere, cl, u->name);
			return rule_err(rule, PEBS_RULE_LDLAT_AUX);
		}
		if (!aux) {
			lib_errf(err, errlen, "rule ldlat-aux: load latency on "
			       "PMC%d without the auxiliary event 0x%llx "
			       "counting on another counter (%s)", ll_counter,
			       (unsigned long long)PEBS_LDLAT_AUX_SELECT,
			       u->name);
			return rule_err(rule, PEBS_RULE_LDLAT_AUX);
		}
	}
	if (ll_counter >= 0) {
		uint64_t min = u->ldlat_min ? u->ldlat_min : 3;
		if (s->ldlat < min) {
			lib_errf(err, errlen, "rule ldlat-min: "
			       "MSR_PEBS_LD_LAT_THRESHOLD %llu is below %llu",
			       (unsigned long long)s->ldlat,
			       (unsigned long long)min);
			return rule_err(rule, PEBS_RULE_LDLAT_MIN);
		}
	}
	if (s->fe_w && fe_value_ok(u, s->fe, err, errlen) < 0)
		return rule_err(rule, PEBS_RULE_FRONTEND_MSR);
	return 0;
}

int pebs_plan_check(const struct pebs_uarch *u,
		    const struct pebs_msr_write *w, size_t n,
		    enum pebs_rule *rule, char *err, size_t errlen)
{
	enum pebs_rule dummy;
	struct cstate *st = NULL;
	size_t nst = 0;
	int r = 0;

	if (!rule)
		rule = &dummy;
	*rule = PEBS_RULE_NONE;
	if (!u || (!w && n)) {
		lib_errf(err, errlen, "no profile or no writes");
		return -PEBS_E_INVAL;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pebs_msr_write *x = &w[i];
		struct cstate *s = NULL;
		int exists;
		const char *mname;
		for (size_t k = 0; k < nst; k++)
			if (st[k].cpu == x->cpu)
				s = &st[k];
		if (!s) {
			struct cstate *ns = realloc(st, (nst + 1) *
						    sizeof(*ns));
			if (!ns) {
				lib_errf(err, errlen, "out of memory");
				r = -PEBS_E_NOMEM;
				goto out;
			}
			st = ns;
			s = &st[nst++];
			memset(s, 0, sizeof(*s));
			s->cpu = x->cpu;
		}
		uint64_t valid = msr_valid(u, x->msr, &exists, &mname);
		if (!strcmp(mname, "?")) {
			lib_errf(err, errlen, "write %zu: MSR 0x%x is not part "
			       "of a PEBS plan", i, x->msr);
			r = -PEBS_E_INVAL;
			goto out;
		}
		if (!exists) {
			lib_errf(err, errlen, "rule reserved-bits: write %zu: %s "
			       "(0x%x) does not exist on %s", i, mname,
			       x->msr, u->name);
			r = rule_err(rule, PEBS_RULE_RESERVED);
			goto out;
		}
		if (x->value & ~valid) {
			lib_errf(err, errlen, "rule reserved-bits: write %zu: "
			       "%s (0x%x) = 0x%llx sets bits 0x%llx that %s "
			       "does not define", i, x->name ? x->name : mname,
			       x->msr, (unsigned long long)x->value,
			       (unsigned long long)(x->value & ~valid),
			       u->name);
			r = rule_err(rule, PEBS_RULE_RESERVED);
			goto out;
		}
		if (x->msr == PEBS_MSR_DS_AREA && x->value >> 47 != 0 &&
		    x->value >> 47 != 0x1ffff) {
			lib_errf(err, errlen, "rule reserved-bits: write %zu: "
			       "IA32_DS_AREA 0x%llx is not canonical", i,
			       (unsigned long long)x->value);
			r = rule_err(rule, PEBS_RULE_RESERVED);
			goto out;
		}
		if (!s->started) {
			if (x->msr != PEBS_MSR_GLOBAL_CTRL || x->value) {
				lib_errf(err, errlen, "rule write-order: write "
				       "%zu: the first write must disable the "
				       "counters (IA32_PERF_GLOBAL_CTRL = 0)",
				       i);
				r = rule_err(rule, PEBS_RULE_WRITE_ORDER);
				goto out;
			}
			s->started = 1;
			continue;
		}
		if (s->ended) {
			lib_errf(err, errlen, "rule write-order: write %zu: %s "
			       "after the counters were enabled", i, mname);
			r = rule_err(rule, PEBS_RULE_WRITE_ORDER);
			goto out;
		}
		if (x->msr == PEBS_MSR_GLOBAL_CTRL) {
			s->global_ctrl = x->value;
			if (x->value)
				s->ended = 1;
			continue;
		}
		if (x->msr >= PEBS_MSR_PERFEVTSEL(0) &&
		    x->msr < PEBS_MSR_PERFEVTSEL(32)) {
			unsigned c = x->msr - PEBS_MSR_PERFEVTSEL(0);
			s->sel[c] = x->value;
			s->sel_w |= 1u << c;
		} else if (x->msr >= PEBS_MSR_PMC(0) &&
			   x->msr < PEBS_MSR_PMC(32)) {
			s->pmc[x->msr - PEBS_MSR_PMC(0)] = x->value;
			s->pmc_w |= 1u << (x->msr - PEBS_MSR_PMC(0));
		} else if (x->msr >= PEBS_MSR_A_PMC(0) &&
			   x->msr < PEBS_MSR_A_PMC(32)) {
			s->pmc[x->msr - PEBS_MSR_A_PMC(0)] = x->value;
			s->pmc_w |= 1u << (x->msr - PEBS_MSR_A_PMC(0));
		} else if (x->msr == PEBS_MSR_PEBS_ENABLE) {
			s->pebs_enable = x->value;
		} else if (x->msr == PEBS_MSR_LD_LAT) {
			s->ldlat = x->value;
			s->ldlat_w = 1;
		} else if (x->msr == PEBS_MSR_FRONTEND) {
			s->fe = x->value;
			s->fe_w = 1;
		} else if (x->msr == PEBS_MSR_DATA_CFG) {
			s->data_cfg = x->value;
		}
	}
	for (size_t k = 0; k < nst && r == 0; k++) {
		if (st[k].global_ctrl & ~gp_mask(u) & 0xffffffffull) {
			lib_errf(err, errlen, "rule reserved-bits: "
			       "IA32_PERF_GLOBAL_CTRL enables a counter %s "
			       "lacks", u->name);
			r = rule_err(rule, PEBS_RULE_RESERVED);
			break;
		}
		r = check_final(u, &st[k], rule, err, errlen);
	}
out:
	free(st);
	return r;
}

/* ------------------------------------------------------------ metadata */

int pebs_plan_to_meta(const struct pebs_plan *p, struct pebs_meta *m)
{
	int r = 0;
	char k[64];
	r |= pebs_meta_set(m, "uarch", p->u->name);
	r |= pebs_meta_setf(m, "period", "%llu",
			    (unsigned long long)p->period);
	for (size_t i = 0; i < p->nev && !r; i++) {
		const struct pebs_plan_event *e = &p->ev[i];
		snprintf(k, sizeof(k), "events.%zu.name", i);
		r |= pebs_meta_set(m, k, e->ev.name);
		snprintf(k, sizeof(k), "events.%zu.evtsel", i);
		r |= pebs_meta_setf(m, k, "0x%llx",
				    (unsigned long long)e->evtsel);
		snprintf(k, sizeof(k), "events.%zu.counter", i);
		r |= pebs_meta_setf(m, k, "PMC%u", e->counter);
		snprintf(k, sizeof(k), "events.%zu.period", i);
		r |= pebs_meta_setf(m, k, "%llu",
				    (unsigned long long)e->period);
		if (e->ev.kind == PEBS_EVK_LOAD_LATENCY) {
			snprintf(k, sizeof(k), "events.%zu.ldlat", i);
			r |= pebs_meta_setf(m, k, "%u", e->ldlat);
		}
		/* hex, as pebs-import -f perf writes it from config1: the
		 * perf export puts it back into config1 of FRONTEND_RETIRED */
		if (e->ev.kind == PEBS_EVK_FRONTEND) {
			snprintf(k, sizeof(k), "events.%zu.frontend", i);
			r |= pebs_meta_setf(m, k, "0x%llx",
					    (unsigned long long)e->frontend);
		}
	}
	for (size_t i = 0; i < p->nw && !r; i++) {
		const struct pebs_msr_write *w = &p->w[i];
		snprintf(k, sizeof(k), "plan.%zu.msr", i);
		r |= pebs_meta_setf(m, k, "0x%x", w->msr);
		snprintf(k, sizeof(k), "plan.%zu.name", i);
		r |= pebs_meta_set(m, k, w->name);
		snprintf(k, sizeof(k), "plan.%zu.cpu", i);
		if (w->cpu < 0)
			r |= pebs_meta_set(m, k, "all");
		else
			r |= pebs_meta_setf(m, k, "%d", w->cpu);
		snprintf(k, sizeof(k), "plan.%zu.value", i);
		r |= pebs_meta_setf(m, k, "0x%llx",
				    (unsigned long long)w->value);
	}
	return r ? -PEBS_E_NOMEM : 0;
}

/* ------------------------------------------------------------ CPU list */

int pebs_plan_parse_cpus(const char *s, int **cpus, size_t *n, char *err,
			 size_t errlen)
{
	unsigned char *seen;
	size_t cnt = 0;
	const char *p = s;

	*cpus = NULL;
	*n = 0;
	if (!s || !*s) {
		lib_errf(err, errlen, "empty CPU list");
		return -PEBS_E_PARSE;
	}
	if (strcmp(s, "all") == 0)
		return 0;
	seen = calloc(PEBS_PLAN_MAX_CPUS, 1);
	if (!seen)
		return -PEBS_E_NOMEM;
	for (;;) {
		unsigned long a = 0, b;
		int digits = 0;
		while (*p >= '0' && *p <= '9' && a < PEBS_PLAN_MAX_CPUS) {
			a = a * 10 + (unsigned long)(*p++ - '0');
			digits++;
		}
		if (!digits || a >= PEBS_PLAN_MAX_CPUS)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			b = 0;
			digits = 0;
			while (*p >= '0' && *p <= '9' &&
			       b < PEBS_PLAN_MAX_CPUS) {
				b = b * 10 + (unsigned long)(*p++ - '0');
				digits++;
			}
			if (!digits || b >= PEBS_PLAN_MAX_CPUS || b < a)
				goto bad;
		}
		for (unsigned long c = a; c <= b; c++) {
			if (seen[c]) {
				lib_errf(err, errlen, "CPU list '%s': CPU %lu "
				       "listed twice", s, c);
				free(seen);
				return -PEBS_E_PARSE;
			}
			seen[c] = 1;
			cnt++;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	*cpus = malloc(cnt * sizeof(**cpus));
	if (!*cpus) {
		free(seen);
		return -PEBS_E_NOMEM;
	}
	for (unsigned c = 0; c < PEBS_PLAN_MAX_CPUS; c++)
		if (seen[c])
			(*cpus)[(*n)++] = (int)c;
	free(seen);
	return 0;
bad:
	lib_errf(err, errlen, "bad CPU list '%s' (expected e.g. 0-3,8; CPUs "
	       "below %u)", s, PEBS_PLAN_MAX_CPUS);
	free(seen);
	return -PEBS_E_PARSE;
}
