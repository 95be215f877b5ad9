/*
 * pebs_plan.h - event specifications and PEBS register plans.
 *
 * Two modules, one header:
 *   pebs_event_*  parsing of event specifications ("load-latency:ldlat=30",
 *                 "MEM_LOAD_RETIRED.L3_MISS", "r1cd:period=1000") and their
 *                 resolution to an IA32_PERFEVTSELx encoding for one
 *                 microarchitecture profile (pebs_uarch.h), through the
 *                 profile's built-in table or libpfm4;
 *   pebs_plan_*   the exact, ordered MSR writes that program PEBS for a set
 *                 of events, every rule of the Intel SDM enforced (enum
 *                 pebs_rule), and an independent checker of a write list.
 *
 * formats/plan.md is the normative description: write order, values, and
 * every rule with its SDM source.  Nothing here touches hardware; the
 * library never prints.  The libpfm4 lookups set LIBPFM_FORCE_PMU and
 * LIBPFM_ENCODE_INACTIVE in the environment before the first
 * pfm_initialize() of the process (so results never depend on the host)
 * and are not thread-safe.
 */
#ifndef PEBS_PLAN_H
#define PEBS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_uarch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ MSRs */

#define PEBS_MSR_PMC(x)		(0x0C1u + (x))	/* IA32_PMCx, legacy */
#define PEBS_MSR_A_PMC(x)	(0x4C1u + (x))	/* IA32_A_PMCx, full width */
#define PEBS_MSR_PERFEVTSEL(x)	(0x186u + (x))	/* IA32_PERFEVTSELx */
#define PEBS_MSR_GLOBAL_CTRL	0x38Fu	/* IA32_PERF_GLOBAL_CTRL */
#define PEBS_MSR_GLOBAL_OVF	0x390u	/* IA32_PERF_GLOBAL_OVF_CTRL (v4+:
					 * GLOBAL_STATUS_RESET): write 1 to
					 * clear a GLOBAL_STATUS bit */
#define PEBS_MSR_PEBS_ENABLE	0x3F1u	/* IA32_PEBS_ENABLE */
#define PEBS_MSR_DATA_CFG	0x3F2u	/* MSR_PEBS_DATA_CFG */
#define PEBS_MSR_LD_LAT		0x3F6u	/* MSR_PEBS_LD_LAT_THRESHOLD */
#define PEBS_MSR_FRONTEND	0x3F7u	/* MSR_PEBS_FRONTEND */
#define PEBS_MSR_DS_AREA	0x600u	/* IA32_DS_AREA */

/* GLOBAL_STATUS bit 62: the DS buffer reached its threshold. */
#define PEBS_STATUS_DS_THRESH	(1ull << 62)

/* IA32_PERFEVTSELx fields. */
#define PEBS_EVTSEL_EVENT	0x000000FFull
#define PEBS_EVTSEL_UMASK	0x0000FF00ull
#define PEBS_EVTSEL_USR		(1ull << 16)
#define PEBS_EVTSEL_OS		(1ull << 17)
#define PEBS_EVTSEL_EDGE	(1ull << 18)
#define PEBS_EVTSEL_PC		(1ull << 19)
#define PEBS_EVTSEL_INT		(1ull << 20)
#define PEBS_EVTSEL_ANY		(1ull << 21)
#define PEBS_EVTSEL_EN		(1ull << 22)
#define PEBS_EVTSEL_INV		(1ull << 23)
#define PEBS_EVTSEL_CMASK	0xFF000000ull
#define PEBS_EVTSEL_IN_TX	(1ull << 32)
#define PEBS_EVTSEL_IN_TXCP	(1ull << 33)
#define PEBS_EVTSEL_ADAPTIVE	(1ull << 34)
/* The bits an event selection ("rHEX", a named event) may carry. */
#define PEBS_EVTSEL_SELECT	(PEBS_EVTSEL_EVENT | PEBS_EVTSEL_UMASK | \
				 PEBS_EVTSEL_EDGE | PEBS_EVTSEL_ANY | \
				 PEBS_EVTSEL_INV | PEBS_EVTSEL_CMASK)

/* IA32_PEBS_ENABLE bits. */
#define PEBS_PE_PEBS_EN(x)	(1ull << (x))
#define PEBS_PE_LL_EN(x)	(1ull << (32 + (x)))	/* PEBS_UF_LL_EN */
#define PEBS_PE_PS_EN		(1ull << 63)		/* PEBS_UF_PSTORE */

/* MSR_PEBS_FRONTEND. */
#define PEBS_FE_VALID_MASK	0x7FFF17ull	/* kernel valid mask, skl/icl */
#define PEBS_FE_VALID_MASK_SPR	0x7FFF1Full	/* and spr: bit 3, MS_FLOWS */
#define PEBS_FE_LATENCY_SHIFT	8		/* 19:8, cycles */
#define PEBS_FE_WIDTH_SHIFT	20		/* 22:20, slots */

/*
 * FRONTEND_RETIRED's event select and umask (IA32_PERFEVTSELx 15:0), the
 * event whose MSR_PEBS_FRONTEND value perf carries in attr.config1.
 * 0x01C6 on Skylake through Golden Cove (every profile here: skl, skx,
 * icl, icx, spr; perf's skylake, icelake, alderlake and sapphirerapids
 * frontend.json give UMask 0x1, the kernel's intel_{skl,icl,spr}_extra_regs
 * 0x01c6).  0x03C6 on Redwood Cove and later (perf's meteorlake
 * frontend.json UMask 0x3; intel_rwc/gnr/lnc_extra_regs 0x03c6), which
 * no profile here has: met in perf.data files from such machines.
 */
#define PEBS_FE_EVTSEL		0x01C6u
#define PEBS_FE_EVTSEL_RWC	0x03C6u

/* Whether perf config (or event select) @config is FRONTEND_RETIRED in
 * either encoding, as a perf.data file may carry. */
static inline int pebs_fe_evtsel_any(uint64_t config)
{
	return (config & 0xffff) == PEBS_FE_EVTSEL ||
	       (config & 0xffff) == PEBS_FE_EVTSEL_RWC;
}

/* Largest MSR_PEBS_LD_LAT_THRESHOLD (bits 15:0). */
#define PEBS_LDLAT_MAX		65535u

/* Defaults when a spec does not say. */
#define PEBS_PLAN_DEFAULT_PERIOD 100003ull	/* prime, as simple-pebs */
#define PEBS_PLAN_DEFAULT_LDLAT	3u		/* SDM minimum, perf's */

/* Most events and CPUs one plan takes. */
#define PEBS_PLAN_MAX_EVENTS	32u
#define PEBS_PLAN_MAX_CPUS	8192u

/* ------------------------------------------------------------ rules */

/*
 * Every rule the plan enforces.  The numbers and short names are stable
 * (messages start "rule NAME: "); formats/plan.md gives each one's SDM
 * source.  Never renumber; only append.
 */
enum pebs_rule {
	PEBS_RULE_NONE = 0,
	PEBS_RULE_PEBS_COUNTER,	/* "pebs-counter": counter not allowed */
	PEBS_RULE_FIELDS_ZERO,	/* "pebs-fields-zero": Any/Edge/Inv/CMask */
	PEBS_RULE_LDLAT_SUPPORT, /* "ldlat-support": no load latency */
	PEBS_RULE_LDLAT_MIN,	/* "ldlat-min": threshold < 3 */
	PEBS_RULE_LDLAT_MAX,	/* "ldlat-max": threshold > 65535 */
	PEBS_RULE_LDLAT_CMASK_INV, /* "ldlat-cmask-inv": CMASK/INV on LL */
	PEBS_RULE_LDLAT_ENABLE,	/* "ldlat-enable": PEBS_EN and LL_EN pair */
	PEBS_RULE_LDLAT_ALONE,	/* "ldlat-alone": SNB/IVB, LL only */
	PEBS_RULE_LDLAT_CONFLICT, /* "ldlat-conflict": two thresholds */
	PEBS_RULE_PSTORE_SUPPORT, /* "pstore-support": no store sampling */
	PEBS_RULE_PSTORE_PMC3,	/* "pstore-pmc3": PMC3 + PS_EN only */
	PEBS_RULE_FRONTEND_SUPPORT, /* "frontend-support": SKL and later */
	PEBS_RULE_FRONTEND_MSR,	/* "frontend-msr": sub-event/latency/width */
	PEBS_RULE_FRONTEND_CONFLICT, /* "frontend-conflict": two values */
	PEBS_RULE_RESERVED,	/* "reserved-bits": reserved bit set */
	PEBS_RULE_TOO_MANY,	/* "too-many-events": not enough counters */
	PEBS_RULE_GLM_PMC0,	/* "glm-pmc0": Goldmont PEBS on PMC0 only */
	PEBS_RULE_PEBS_EVENT,	/* "pebs-event": event is not PEBS-capable */
	PEBS_RULE_PERIOD,	/* "period-range": period 0 or too large */
	PEBS_RULE_WRITE_ORDER,	/* "write-order": change only while disabled */
	PEBS_RULE_LDLAT_AUX,	/* "ldlat-aux": SPR load latency's 0x8203 */
	PEBS_RULE_COUNT
};

struct pebs_rule_info {
	enum pebs_rule id;
	const char *name;	/* stable short name, "pebs-counter" */
	const char *summary;	/* one line: what the rule requires */
	const char *source;	/* where it comes from: "SDM 18.9.4 ..." */
};

/* The description of rule @r, or NULL when out of range (or NONE). */
const struct pebs_rule_info *pebs_rule_info(enum pebs_rule r);
/* The rule whose short name is @name, or PEBS_RULE_NONE. */
enum pebs_rule pebs_rule_by_name(const char *name);

/* ------------------------------------------------------- event specs */

#define PEBS_EVSPEC_MAX		256	/* bytes of a spec, NUL included */
#define PEBS_EVNAME_MAX		128	/* bytes of a name, NUL included */

enum pebs_evspec_type {
	PEBS_SPEC_NAME = 0, /* SDM / libpfm4 name, "MEM_LOAD_RETIRED.L1_HIT" */
	PEBS_SPEC_RAW,		/* "rHEX" */
	PEBS_SPEC_LOAD_LATENCY,	/* portable "load-latency" */
	PEBS_SPEC_PRECISE_STORE, /* portable "precise-store" */
	PEBS_SPEC_FRONTEND,	/* portable "frontend" */
};

/* Front-end sub-events (modifier sub=), MSR_PEBS_FRONTEND[7:0] codes. */
enum pebs_fe_sub {
	PEBS_FE_NONE = 0,
	PEBS_FE_DSB_MISS = 0x11,
	PEBS_FE_L1I_MISS = 0x12,
	PEBS_FE_L2_MISS = 0x13,
	PEBS_FE_ITLB_MISS = 0x14,
	PEBS_FE_STLB_MISS = 0x15,
	PEBS_FE_IDQ_BUBBLES = 0x06,
	/* FRONTEND_RETIRED.MS_FLOWS, spr only (MSR value 0x8 is bit 3,
	 * outside PEBS_FE_VALID_MASK): pebs_plan_fe_valid_mask() */
	PEBS_FE_MS_FLOWS = 0x08,
};

/* Modifiers given (struct pebs_event_spec.mods). */
#define PEBS_MOD_LDLAT		0x0001u
#define PEBS_MOD_PERIOD		0x0002u
#define PEBS_MOD_U		0x0004u
#define PEBS_MOD_K		0x0008u
#define PEBS_MOD_SUB		0x0010u
#define PEBS_MOD_LATENCY	0x0020u
#define PEBS_MOD_WIDTH		0x0040u
#define PEBS_MOD_EDGE		0x0080u
#define PEBS_MOD_INV		0x0100u
#define PEBS_MOD_ANY		0x0200u
#define PEBS_MOD_CMASK		0x0400u
#define PEBS_MOD_PMC		0x0800u

/*
 * A parsed (not yet resolved) event specification:
 *   NAME[:MOD[,MOD]...]
 * MOD is ldlat=N, period=N, u, k, sub=NAME, latency=N, width=N, edge, inv,
 * any, cmask=N or pmc=N; N is decimal or 0x-hex.  Values are kept as given;
 * their ranges are rules checked by the plan.
 */
struct pebs_event_spec {
	char text[PEBS_EVSPEC_MAX];	/* the whole spec as given */
	char name[PEBS_EVNAME_MAX];	/* the part before ':' */
	enum pebs_evspec_type type;
	uint64_t raw;		/* PEBS_SPEC_RAW: the hex value */
	unsigned mods;		/* PEBS_MOD_* given */
	uint64_t ldlat, period, latency, width;
	unsigned sub;		/* enum pebs_fe_sub */
	unsigned cmask;		/* 0..255 */
	unsigned pmc;		/* requested counter index */
};

/*
 * Parses @text into @out.  Returns 0, or -PEBS_E_PARSE (empty, too long,
 * bad character, unknown/duplicate/malformed modifier, number overflow,
 * modifier meaningless for the type such as sub= on load-latency) with a
 * message in @err (@errlen bytes, may be NULL).  Never reads beyond the
 * NUL of @text.  perf's spellings ("cpu/mem-loads,ldlat=30/P", raw terms
 * "cpu/event=0xcd,umask=0x1,ldlat=30/P", "cpu/config=0x1cd/") give the
 * spec of our spelling of the same event ("r1cd:ldlat=30"), text aside;
 * perf terms we cannot express, duplicate or unknown ones and values out
 * of their field are -PEBS_E_PARSE naming the term.
 */
int pebs_event_parse(const char *text, struct pebs_event_spec *out,
		     char *err, size_t errlen);

/*
 * PEBS_SPEC_LOAD_LATENCY or PEBS_SPEC_PRECISE_STORE when @name is the
 * portable name of that event or perf's (load-latency or mem-loads;
 * precise-store or mem-stores; any case), else PEBS_SPEC_NAME.
 */
enum pebs_evspec_type pebs_event_portable(const char *name);

/*
 * Which portable event a recorded event name stands for (the names of
 * the event column and of metadata events.N.name): PEBS_SPEC_LOAD_LATENCY
 * or PEBS_SPEC_PRECISE_STORE for the portable names and perf's, perf's
 * spelling of them ("cpu/mem-loads,ldlat=30/P"), and the event any
 * profile maps the portable name or perf's to (mem-stores: the store
 * latency event on spr), by SDM name
 * ("MEM_TRANS_RETIRED.LOAD_LATENCY") or raw code ("r1cd", perf's
 * "cpu/event=0xcd,umask=0x1/P" on any PMU; not with edge, inv, any or
 * cmask, which make another event); else PEBS_SPEC_NAME.  Modifiers
 * after ':' are ignored.  Pure.
 */
enum pebs_evspec_type pebs_event_stands_for(const char *name);

/* Name of front-end sub-event @sub ("dsb_miss", ...), "?" if unknown;
 * whether a profile has it is pebs_plan_fe_valid_mask()'s matter. */
const char *pebs_event_fe_sub_name(unsigned sub);

/* Where a resolved event's encoding came from. */
enum pebs_evsrc { PEBS_EVSRC_BUILTIN = 0, PEBS_EVSRC_LIBPFM, PEBS_EVSRC_RAW };

/* An event specification resolved for one profile. */
struct pebs_event {
	struct pebs_event_spec spec;
	char name[PEBS_EVNAME_MAX]; /* SDM name, or "rHEX" for unknown raw */
	enum pebs_evsrc src;
	uint64_t select;	/* PEBS_EVTSEL_SELECT bits only */
	enum pebs_uarch_kind kind;
	int precise;		/* 1 PEBS-capable, 0 not, -1 unknown (raw) */
	uint64_t counters;	/* GP counters it may use (bit x = PMCx) */
	enum pebs_rule counter_rule;	/* rule that narrows counters */
};

/*
 * Resolves @spec for profile @u into @out: portable names to the profile's
 * own event, SDM names through the profile's table then libpfm4 (the
 * profile's libpfm4 PMU, see pebs_event_pfm_pmu()), rHEX as given (and
 * classified when the profile's table knows the code).  Applies the
 * modifiers edge/inv/any/cmask to out->select.  Returns 0, or
 *   -PEBS_E_RULE    the hardware has no such facility (ldlat-support,
 *                   pstore-support, frontend-support; *@rule set);
 *   -PEBS_E_INVAL   unknown event name, raw bits outside
 *                   PEBS_EVTSEL_SELECT, a modifier that does not apply to
 *                   the resolved event (ldlat= on a non-load-latency
 *                   event), an event needing an extra MSR libpfm4 knows;
 *   -PEBS_E_UNSUPPORTED  a fixed-counter-only event, or no libpfm4 table;
 * with a message in @err.  @rule may be NULL.
 */
int pebs_event_resolve(const struct pebs_uarch *u,
		       const struct pebs_event_spec *spec,
		       struct pebs_event *out, enum pebs_rule *rule,
		       char *err, size_t errlen);

/* The libpfm4 PMU name used for profile @u ("skl", "core"), or NULL
 * when libpfm4 4.13 has no table for it (glp). */
const char *pebs_event_pfm_pmu(const struct pebs_uarch *u);

/* ------------------------------------------------------------- plans */

/* Flags of one MSR write. */
#define PEBS_MW_DS_ADDR	0x1u	/* value = this CPU's DS save-area address,
				 * known only at capture time (0 in a plan
				 * built without opts.ds_area) */

/* One MSR write. */
struct pebs_msr_write {
	uint32_t msr;
	const char *name;	/* SDM name, static: "IA32_PEBS_ENABLE" */
	int cpu;		/* logical CPU, or -1 = every CPU */
	uint64_t value;
	unsigned flags;		/* PEBS_MW_* */
};

/* One event of a plan, resolved and placed. */
struct pebs_plan_event {
	struct pebs_event ev;
	unsigned counter;	/* PMC index */
	uint64_t evtsel;	/* value written to IA32_PERFEVTSELx */
	uint64_t period;
	uint64_t reset;		/* (-period) masked to the counter width:
				 * IA32_PMCx start value and DS reset */
	uint32_t ldlat;		/* load latency: the threshold, else 0 */
	uint64_t frontend;	/* front-end: MSR_PEBS_FRONTEND, else 0 */
};

/*
 * The auxiliary event of PEBS_UF_LDLAT_AUX profiles (spr): event 0x03
 * umask 0x82, perf's "mem-loads-aux".  Linux (core.c, PMU_FL_MEM_LOADS_AUX)
 * says SPR's load-latency event 0x01CD "doesn't function quite right"
 * unless it is co-scheduled with it; only that it counts matters.
 */
#define PEBS_LDLAT_AUX_SELECT	0x8203ull

/* A counter a plan programs without PEBS: the auxiliary event above. */
struct pebs_plan_aux {
	const char *name;	/* "mem-loads-aux" */
	uint64_t select;	/* PEBS_LDLAT_AUX_SELECT */
	unsigned counter;	/* PMC index, one no PEBS event uses */
	uint64_t evtsel;	/* IA32_PERFEVTSELx: select | EN | USR/OS of
				 * the event it serves; no INT, no ADAPTIVE */
	size_t event;		/* index of the plan event it serves */
};

/* DS save area: PEBS counter-reset slot of counter @x. */
struct pebs_ds_reset {
	unsigned counter;
	uint32_t offset;	/* byte offset in the DS save area */
	uint64_t value;
};

struct pebs_plan_opts {
	const struct pebs_uarch *uarch;	/* required */
	uint64_t period; /* default period; 0 = PEBS_PLAN_DEFAULT_PERIOD */
	const int *cpus;	/* CPUs to program, NULL = all (cpu -1) */
	size_t ncpus;
	uint64_t ds_area;	/* DS save-area address for every CPU; 0 = not
				 * known yet (written as 0, PEBS_MW_DS_ADDR) */
	int user, kernel;	/* default privilege when a spec has neither
				 * u nor k; both 0 = both 1 */
	int regs;		/* adaptive profiles: also the GPR group in
				 * MSR_PEBS_DATA_CFG (register snapshots) */
	int period_default;	/* @period is a tool's default, not the
				 * user's: rounded up to an errata minimum
				 * or multiple (rule period-range) instead
				 * of refused, as is PEBS_PLAN_DEFAULT_PERIOD */
};

struct pebs_plan;

/*
 * Builds the plan for the @n event specs @specs under @opts: parses and
 * resolves every spec, enforces every rule, assigns counters, and lays out
 * the ordered writes (formats/plan.md), then runs pebs_plan_check() on its
 * own output.  Returns 0 and *@out (free with pebs_plan_free()), or a
 * negative error and *@out = NULL with a message in @err (@errlen bytes):
 *   -PEBS_E_PARSE   a spec does not parse;
 *   -PEBS_E_INVAL   unknown event, bad option, no events, duplicate CPU;
 *   -PEBS_E_RULE    a rule forbids the configuration (*@rule set, the
 *                   message starts "rule NAME: ");
 *   -PEBS_E_UNSUPPORTED  see pebs_event_resolve();
 *   -PEBS_E_NOMEM.
 * @rule may be NULL.
 */
int pebs_plan_build(struct pebs_plan **out, const struct pebs_plan_opts *opts,
		    const char *const *specs, size_t n, enum pebs_rule *rule,
		    char *err, size_t errlen);

/* Frees @p.  NULL is fine. */
void pebs_plan_free(struct pebs_plan *p);

/* The profile of @p. */
const struct pebs_uarch *pebs_plan_uarch(const struct pebs_plan *p);
/* Number of writes, and write @i in order (NULL when out of range). */
size_t pebs_plan_nwrites(const struct pebs_plan *p);
const struct pebs_msr_write *pebs_plan_write(const struct pebs_plan *p,
					     size_t i);
/* Number of events, and event @i in spec order (NULL out of range). */
size_t pebs_plan_nevents(const struct pebs_plan *p);
const struct pebs_plan_event *pebs_plan_event(const struct pebs_plan *p,
					      size_t i);
/* Auxiliary (non-PEBS) counters of the plan (pebs_plan_aux), and the
 * @i-th (NULL when out of range).  They start at 0 and are enabled in
 * IA32_PERF_GLOBAL_CTRL, never in IA32_PEBS_ENABLE. */
size_t pebs_plan_naux(const struct pebs_plan *p);
const struct pebs_plan_aux *pebs_plan_aux(const struct pebs_plan *p,
					  size_t i);
/* DS counter-reset slots, one per used counter, in counter order. */
size_t pebs_plan_nresets(const struct pebs_plan *p);
const struct pebs_ds_reset *pebs_plan_reset(const struct pebs_plan *p,
					    size_t i);
/* Final register values (the same on every CPU). */
uint64_t pebs_plan_pebs_enable(const struct pebs_plan *p);
uint64_t pebs_plan_global_ctrl(const struct pebs_plan *p);
/* MSR_PEBS_DATA_CFG written (adaptive profiles), else 0. */
uint64_t pebs_plan_data_cfg(const struct pebs_plan *p);

/*
 * The bits of MSR_PEBS_FRONTEND @u defines: the kernel's mask for
 * FRONTEND_RETIRED 0x01C6, PEBS_FE_VALID_MASK (intel_skl/icl_extra_regs),
 * PEBS_FE_VALID_MASK_SPR on spr (intel_spr_extra_regs, since Linux
 * "perf/x86/intel: Update the FRONTEND MSR mask on Sapphire Rapids":
 * FRONTEND_RETIRED.MS_FLOWS is MSR value 0x8); 0 when @u has no
 * MSR_PEBS_FRONTEND or is NULL.  Pure.
 */
uint64_t pebs_plan_fe_valid_mask(const struct pebs_uarch *u);

/*
 * Adds the plan to metadata @m as the well-known keys events.N.name,
 * events.N.evtsel, events.N.counter, events.N.period, events.N.ldlat (a
 * load-latency event), events.N.frontend (a front-end event: its
 * MSR_PEBS_FRONTEND value, hex), plan.N.msr, plan.N.name, plan.N.cpu,
 * plan.N.value and "uarch", "period".
 * Returns 0 or -PEBS_E_NOMEM.
 */
int pebs_plan_to_meta(const struct pebs_plan *p, struct pebs_meta *m);

/*
 * Checks the write list @w (@n writes, in order) for profile @u against the
 * rules that can be seen on register values alone: write order (disable
 * first, enable last, nothing changed while enabled), reserved bits of
 * every value, counters allowed for PEBS and for each programmed event,
 * Any/Edge/Inv/CMask zero on PEBS counters, the PEBS_EN/LL_EN pairing,
 * PS_EN with PMC3, the SNB/IVB load-latency exclusivity, the threshold
 * range and MSR_PEBS_FRONTEND.  Independent of pebs_plan_build() (it
 * reconstructs the state from the writes).  Returns 0 or -PEBS_E_RULE with
 * *@rule and "rule NAME: ..." in @err; -PEBS_E_INVAL for an unknown MSR.
 */
int pebs_plan_check(const struct pebs_uarch *u,
		    const struct pebs_msr_write *w, size_t n,
		    enum pebs_rule *rule, char *err, size_t errlen);

/*
 * Parses a CPU list ("0-3,8,10-11", perf style; "all" = NULL list) into a
 * malloc'd ascending array *@cpus of *@n distinct CPUs, each below
 * PEBS_PLAN_MAX_CPUS.  Returns 0, -PEBS_E_PARSE (message in @err) or
 * -PEBS_E_NOMEM.  The caller frees *@cpus.
 */
int pebs_plan_parse_cpus(const char *s, int **cpus, size_t *n,
			 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
