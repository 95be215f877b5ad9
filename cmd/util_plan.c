/*
 * util_plan.c - the YAML documents of pebs-capture --plan and --probe
 * (formats/plan.md, pebs-capture(1)): the library's plan and probe
 * results written out, nothing decided here.
 */
#include <stdlib.h>

#include "pebs_plan.h"
#include "pebs_probe.h"
#include "pebs_uarch.h"
#include "util.h"
#include "util_plan.h"
#include "util_yaml.h"

void util_plan_print(const struct pebs_plan *p, const char *path)
{
	const struct pebs_uarch *u = pebs_plan_uarch(p);
	struct yout o;
	yo_doc_start(&o, path);
	yo_kv(&o, "uarch", u->name);
	yo_kvu(&o, "pebs_format", u->pebs_fmt);
	yo_scalar(&o, "events");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nevents(p); i++) {
		const struct pebs_plan_event *e = pebs_plan_event(p, i);
		yo_map_start(&o);
		yo_kv(&o, "spec", e->ev.spec.text);
		yo_kv(&o, "name", e->ev.name);
		yo_kv(&o, "kind", pebs_uarch_kind_name(e->ev.kind));
		yo_scalar(&o, "counter");
		yo_scalarf(&o, "PMC%u", e->counter);
		yo_kvhex(&o, "evtsel", e->evtsel);
		yo_kvu(&o, "period", e->period);
		if (e->ev.kind == PEBS_EVK_LOAD_LATENCY)
			yo_kvu(&o, "ldlat", e->ldlat);
		if (e->ev.kind == PEBS_EVK_FRONTEND)
			yo_kvhex(&o, "frontend", e->frontend);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	if (pebs_plan_naux(p)) {
		yo_scalar(&o, "aux_events");
		yo_seq_start(&o);
		for (size_t i = 0; i < pebs_plan_naux(p); i++) {
			const struct pebs_plan_aux *a = pebs_plan_aux(p, i);
			yo_map_start(&o);
			yo_kv(&o, "name", a->name);
			yo_kvhex(&o, "select", a->select);
			yo_kv(&o, "for", pebs_plan_event(p, a->event)->ev.name);
			yo_scalar(&o, "counter");
			yo_scalarf(&o, "PMC%u", a->counter);
			yo_kvhex(&o, "evtsel", a->evtsel);
			yo_map_end(&o);
		}
		yo_seq_end(&o);
	}
	yo_scalar(&o, "msr_writes");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nwrites(p); i++) {
		const struct pebs_msr_write *w = pebs_plan_write(p, i);
		yo_map_start(&o);
		yo_kvhex(&o, "msr", w->msr);
		yo_kv(&o, "name", w->name);
		yo_scalar(&o, "cpu");
		if (w->cpu < 0)
			yo_scalar(&o, "all");
		else
			yo_scalarf(&o, "%d", w->cpu);
		yo_kvhex(&o, "value", w->value);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	yo_scalar(&o, "ds_reset");
	yo_seq_start(&o);
	for (size_t i = 0; i < pebs_plan_nresets(p); i++) {
		const struct pebs_ds_reset *r = pebs_plan_reset(p, i);
		yo_map_start(&o);
		yo_scalar(&o, "counter");
		yo_scalarf(&o, "PMC%u", r->counter);
		yo_kvhex(&o, "offset", r->offset);
		yo_kvhex(&o, "value", r->value);
		yo_map_end(&o);
	}
	yo_seq_end(&o);
	yo_kv(&o, "ds_area", "per-CPU DS save area address, allocated at "
	   "capture; written as 0x0 in this plan");
	yo_doc_end(&o);
}

/* A fact the probe may not know: a boolean, or the text unknown. */
static void kvtri(struct yout *o, const char *k, int v)
{
	if (v < 0)
		yo_kv(o, k, "unknown");
	else
		yo_kvbool(o, k, v);
}

void util_probe_print(const char *out)
{
	struct pebs_probe_facts f;
	struct pebs_probe_result r;
	struct yout o;
	const char *root = getenv("PEBS_PROBE_ROOT");

	if (pebs_probe_gather(&f, root) < 0)
		util_die(EXIT_SYS, "PEBS_PROBE_ROOT: %s: not a directory",
			 root);
	pebs_probe_analyze(&f, &r);
	yo_doc_start(&o, out);
	yo_scalar(&o, "cpu");
	yo_map_start(&o);
	yo_kv(&o, "source", r.cpu_source);
	yo_kv(&o, "vendor", r.vendor[0] ? r.vendor : "unknown");
	yo_kvu(&o, "family", r.family);
	yo_kvu(&o, "model", r.model);
	yo_kvhex(&o, "model_hex", r.model);
	yo_kvu(&o, "stepping", r.stepping);
	yo_kv(&o, "name", f.name[0] ? f.name : "unknown");
	yo_kvu(&o, "logical_cpus", f.ncpus);
	yo_kvbool(&o, "hypervisor", r.hypervisor);
	yo_map_end(&o);
	yo_scalar(&o, "uarch");
	yo_map_start(&o);
	yo_kv(&o, "name", r.uarch ? r.uarch->name : "none");
	if (r.uarch)
		yo_kv(&o, "desc", r.uarch->desc);
	if (r.uarch_why[0])
		yo_kv(&o, "note", r.uarch_why);
	yo_kv(&o, "perf_pmu_name", f.pmu_name[0] ? f.pmu_name : "unknown");
	yo_map_end(&o);
	yo_scalar(&o, "pebs");
	yo_map_start(&o);
	yo_scalar(&o, "format");
	if (r.pebs_fmt >= 0)
		yo_scalarf(&o, "%d", r.pebs_fmt);
	else
		yo_scalar(&o, "unknown");
	yo_kv(&o, "format_source", r.pebs_fmt_source);
	if (f.perf_cap_ok)
		yo_kvhex(&o, "perf_capabilities", f.perf_cap);
	kvtri(&o, "ds", r.ds);
	kvtri(&o, "dtes64", r.dtes64);
	kvtri(&o, "pdcm", r.pdcm);
	kvtri(&o, "trap_like", r.trap);
	yo_kv(&o, "trap_source", r.trap_source);
	yo_map_end(&o);
	yo_scalar(&o, "counters");
	yo_map_start(&o);
	if (r.counters_ok) {
		yo_kv(&o, "source", "CPUID.0AH");
		yo_kvu(&o, "version", r.pmu_version);
		yo_kvu(&o, "gp", r.n_gp);
		yo_kvu(&o, "gp_width", r.gp_width);
		yo_kvu(&o, "fixed", r.n_fixed);
		yo_kvu(&o, "fixed_width", r.fixed_width);
	} else {
		yo_kv(&o, "source", f.cpuid_ok ? "unknown (no CPUID leaf 0AH)" :
		   "unknown (no CPUID facts)");
	}
	yo_map_end(&o);
	yo_scalar(&o, "backends");
	yo_map_start(&o);
	for (int i = 0; i < 3; i++) {
		const struct pebs_probe_backend *b = &r.backend[i];
		yo_scalar(&o, b->name);
		yo_map_start(&o);
		yo_kvbool(&o, "available", b->available);
		if (i == 2) {
			yo_scalar(&o, "perf_event_paranoid");
			if (f.paranoid_ok)
				yo_scalarf(&o, "%d", f.paranoid);
			else
				yo_scalar(&o, "unknown");
		}
		yo_scalar(&o, b->available ? "notes" : "why_not");
		yo_seq_start(&o);
		for (unsigned k = 0; k < b->nreasons; k++)
			yo_scalar(&o, b->reasons[k]);
		yo_seq_end(&o);
		yo_map_end(&o);
	}
	yo_map_end(&o);
	yo_doc_end(&o);
}
