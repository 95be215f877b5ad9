/*
 * plan_probe.c - the probe verdict (a pure function of gathered facts) and
 * the readers over the fake roots in testdata/probe/.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pebs_probe.h"

/* Facts of a bare-metal Skylake server where everything works. */
static struct pebs_probe_facts good(void)
{
	struct pebs_probe_facts f;
	memset(&f, 0, sizeof(f));
	f.cpuid_ok = 1;
	strcpy(f.vendor, "GenuineIntel");
	f.max_leaf = 0x16;
	f.l1_eax = 0x50654;
	f.l1_ecx = 1u << 2 | 1u << 15;
	f.l1_edx = 1u << 21;
	f.leaf_a_ok = 1;
	f.la_eax = 0x07300404;
	f.la_edx = 0x603;
	f.uid = 0;
	f.paranoid_ok = 1;
	f.paranoid = 2;
	f.msr_dev_present = 1;
	f.msr_module = 1;
	f.pebs_ds_present = 1;
	f.perf_cycles_errno = 0;
	f.perf_precise_errno = 0;
	return f;
}

static int has_reason(const struct pebs_probe_backend *b, const char *s)
{
	for (unsigned i = 0; i < b->nreasons; i++)
		if (strstr(b->reasons[i], s))
			return 1;
	return 0;
}

Test(probe, all_available)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.cpu_source, "cpuid");
	cr_assert_eq(r.family, 6);
	cr_assert_eq(r.model, 0x55);
	cr_assert_eq(r.stepping, 4);
	cr_assert_not_null(r.uarch);
	cr_assert_str_eq(r.uarch->name, "skx");
	cr_assert_eq(r.pebs_fmt, 3);
	cr_assert_str_eq(r.pebs_fmt_source, "profile");
	cr_assert_eq(r.pmu_version, 4);
	cr_assert_eq(r.n_gp, 4);
	cr_assert_eq(r.gp_width, 48);
	cr_assert_eq(r.n_fixed, 3);
	cr_assert_eq(r.fixed_width, 48);
	for (int i = 0; i < 3; i++)
		cr_assert(r.backend[i].available, "%s", r.backend[i].name);
	cr_assert_str_eq(r.backend[1].name, "msr");
}

Test(probe, msr_reasons)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;
	f.msr_open_errno = EACCES;
	f.uid = 1000;
	pebs_probe_analyze(&f, &r);
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "not root (uid 1000)"));
	cr_assert(has_reason(&r.backend[1], "cannot open /dev/cpu/0/msr: "
			     "EACCES"));
	/* the msr device alone is not enough: the DS area's module too */
	f = good();
	f.pebs_ds_present = 0;
	pebs_probe_analyze(&f, &r);
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "pebs_ds module not loaded"));
	f = good();
	f.la_eax = 0x07300401;	/* version 1 */
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "perfmon version 1"));
	f = good();
	f.l1_ecx |= 1u << 31;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.hypervisor);
	cr_assert(has_reason(&r.backend[1], "PMU not exposed to this VM"));
	f = good();
	f.msr_dev_present = 0;
	f.msr_module = 0;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "msr module not loaded"));
	f = good();
	f.l1_eax = 0x206a7;	/* SNB 06_2A */
	f.perf_cap_ok = 1;
	f.perf_cap = 0x1c3;	/* format 1 */
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.uarch->name, "snb");
	cr_assert_eq(r.pebs_fmt, 1);
	cr_assert_str_eq(r.pebs_fmt_source, "IA32_PERF_CAPABILITIES");
	f.l1_eax = 0x30f00;	/* family 0xF: no profile */
	pebs_probe_analyze(&f, &r);
	cr_assert_null(r.uarch);
	cr_assert(has_reason(&r.backend[1], "no PEBS profile"));
}

/* What makes msr unsafe or wrong although its MSRs can be written. */
Test(probe, msr_hazards)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;

	f.ci_flags_ok = 1;
	f.ci_pebs = 1;
	f.nmi_watchdog = 0;
	f.misc_enable_ok = 1;
	f.misc_enable = 0x850089;
	f.nevtsel = 4;
	f.evtsel_ok = 0xf;
	f.fixed_ctrl_ok = 1;
	/* every GLOBAL_CTRL bit set, as Linux leaves it: not a sign */
	f.global_ctrl_ok = 1;
	f.global_ctrl = 0x70000000full;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available, "%s", r.backend[1].reasons[0]);

	f.ci_pti = 1;
	pebs_probe_analyze(&f, &r);
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "page-table isolation is on "
			     "(cpuinfo flag pti)"));
	cr_assert(has_reason(&r.backend[1], "boot with nopti"));
	f.ci_pti = 0;
	strcpy(f.meltdown, "Mitigation: PTI");
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "(Mitigation: PTI)"));
	strcpy(f.meltdown, "Not affected");
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available);

	f.ci_pebs = 0;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "no pebs flag"));
	f.ci_pebs = 1;
	f.misc_enable |= 1u << 12;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "IA32_MISC_ENABLE (0x1A0) is "
			     "0x851089: bit 12"));
	f.misc_enable &= ~(1ull << 12);

	f.evtsel[3] = 0x43003c;		/* EN */
	f.fixed_ctrl = 0xb0;		/* FIXED1: OS, USR, PMI */
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "counters already in use on CPU "
			     "0: PMC3, FIXED1"));
	f.evtsel[3] = 0x03003c;		/* programmed but not enabled */
	f.fixed_ctrl = 0x800;		/* FIXED2: PMI bit only */
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available);

	f.nmi_watchdog = 1;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "NMI watchdog is on"));
}

/* A profile IA32_PERF_CAPABILITIES contradicts is no base for msr: the
 * drain would read records in the profile's layout. */
Test(probe, msr_format_mismatch)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;

	f.l1_eax = 0x806f8;		/* 06_8F: Sapphire Rapids */
	f.la_eax = 0x07300805;
	f.la_edx = 0x604;
	f.perf_cap_ok = 1;
	f.perf_cap = 0xf4c5;		/* format 4, baseline */
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.uarch->name, "spr");
	cr_assert_eq(r.pebs_fmt, 4);
	cr_assert_str_eq(r.uarch_why, "");
	cr_assert(r.backend[1].available, "%s", r.backend[1].reasons[0]);
	f.perf_cap = 0xf5c5;		/* format 5 */
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.uarch->name, "spr");
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "PERF_CAPABILITIES[11:8] says "
			     "format 5; the drain would read records"));
	f.perf_cap = 0xb4c5;		/* format 4 without baseline */
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "IA32_PERF_CAPABILITIES[14] is "
			     "0"));
	/* perf programs by itself: not refused for that */
	cr_assert(r.backend[2].available);
}

/* Errata for which Linux disables PEBS: Core 2 06_0F; SNB below the
 * microcode of intel_snb_pebs_broken. */
Test(probe, pebs_errata)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;

	f.l1_eax = 0x6f6;		/* 06_0F stepping 6: Merom */
	f.la_eax = 0x07280202;
	f.la_edx = 0x503;
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.uarch->name, "core2");
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "Core 2 model 0x0F"));
	cr_assert_eq(r.trap, 0, "Merom is fault-like");
	cr_assert_str_eq(r.trap_source, "profile");
	f.perf_cap_ok = 1;
	f.perf_cap = 0x40;		/* format 0, trap-like bit */
	pebs_probe_analyze(&f, &r);
	cr_assert_eq(r.trap, 1);
	cr_assert_str_eq(r.trap_source, "IA32_PERF_CAPABILITIES");
	f.perf_cap_ok = 0;
	f.l1_eax = 0x10676;		/* 06_17: Penryn, no such errata */
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available, "%s", r.backend[1].reasons[0]);
	cr_assert_eq(r.trap, 1);

	f = good();
	f.l1_eax = 0x206a7;		/* 06_2A stepping 7 */
	pebs_probe_analyze(&f, &r);
	cr_assert_not(r.backend[1].available);
	cr_assert(has_reason(&r.backend[1], "needs microcode 0x28 or later "
			     "for PEBS and the revision is unknown"));
	f.ci_microcode_ok = 1;
	f.ci_microcode = 0x25;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "with microcode 0x25: PEBS is "
			     "broken below 0x28"));
	f.ci_microcode = 0x28;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available, "%s", r.backend[1].reasons[0]);
	f.l1_eax = 0x206d6;		/* 06_2D stepping 6 */
	f.ci_microcode = 0x617;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "below 0x618"));
	f.ci_microcode = 0x618;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available);
	f.l1_eax = 0x206d7;		/* 06_2D stepping 7 */
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "below 0x70c"));
	f.ci_microcode = 0x70c;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available);
	f.l1_eax = 0x206d5;		/* 06_2D stepping 5: none known */
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[1], "knows no microcode"));
	f.l1_eax = 0x306a9;		/* IVB: not affected */
	f.ci_microcode = 0x1;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[1].available);
}

Test(probe, perf_reasons)
{
	struct pebs_probe_facts f = good();
	struct pebs_probe_result r;
	f.uid = 1000;
	f.paranoid = 3;
	f.perf_cycles_errno = EACCES;
	pebs_probe_analyze(&f, &r);
	cr_assert_not(r.backend[2].available);
	cr_assert(has_reason(&r.backend[2], "perf_event_paranoid 3 > 0"));
	cr_assert(has_reason(&r.backend[2], "fails with EACCES"));
	f = good();
	f.perf_precise_errno = EOPNOTSUPP;
	pebs_probe_analyze(&f, &r);
	cr_assert(has_reason(&r.backend[2], "precise_ip=1) fails with "
			     "EOPNOTSUPP"));
	/* root is not stopped by paranoid */
	f = good();
	f.paranoid = 3;
	pebs_probe_analyze(&f, &r);
	cr_assert(r.backend[2].available);
	char b[16];
	cr_assert_str_eq(pebs_probe_errno_name(ENOENT, b, sizeof(b)),
			 "ENOENT");
	cr_assert_str_eq(pebs_probe_errno_name(9999, b, sizeof(b)), "E?9999");
}

/* With @why NULL: whether perf is available for @f.  Else asserts that
 * perf is refused with a reason containing @why (when @only, its one
 * reason) and returns 0. */
static int perf_verdict(const struct pebs_probe_facts *f, const char *why,
			int only)
{
	struct pebs_probe_result r;
	pebs_probe_analyze(f, &r);
	if (!why)
		return r.backend[2].available;
	cr_assert_not(r.backend[2].available, "%s", why);
	cr_assert(has_reason(&r.backend[2], why), "%s", why);
	if (only)
		cr_assert_eq(r.backend[2].nreasons, 1, "%s", why);
	return 0;
}

/* The capture opens per-CPU system-wide events (pid -1, cpu N): the
 * kernel allows them at paranoid 0 or less, or with CAP_PERFMON or
 * CAP_SYS_ADMIN, however the probe's own test-open went. */
Test(probe, perf_paranoid_per_cpu)
{
	static const char why[] = "perf_event_paranoid 2 > 0: per-CPU events "
				  "need 0 or less, or root/CAP_PERFMON";
	static const struct {
		long uid;
		int paranoid, cap_ok;
		uint64_t cap;
		int available;
	} c[] = {
		{ 1000, 2, 0, 0, 0 },
		{ 1000, 1, 0, 0, 0 },
		{ 1000, 0, 0, 0, 1 },
		{ 1000, -1, 0, 0, 1 },
		{ -1, 2, 0, 0, 0 },	/* unknown uid: unprivileged */
		{ 0, 2, 0, 0, 1 },
		{ 1000, 2, 1, 1ull << 38, 1 },	/* CAP_PERFMON */
		{ 1000, 2, 1, 1ull << 21, 1 },	/* CAP_SYS_ADMIN */
		{ 1000, 2, 1, ~(1ull << 38 | 1ull << 21), 0 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pebs_probe_facts f = good();
		char w[sizeof(why)];
		f.uid = c[i].uid;
		f.paranoid = c[i].paranoid;
		f.cap_eff_ok = c[i].cap_ok;
		f.cap_eff = c[i].cap;
		snprintf(w, sizeof(w), "perf_event_paranoid %d > 0", f.paranoid);
		if (c[i].available)
			cr_assert(perf_verdict(&f, NULL, 0), "case %zu", i);
		else
			perf_verdict(&f, f.paranoid == 2 ? why : w, 1);
	}
}

/* Without --uarch a perf capture refuses a CPU without a profile. */
Test(probe, perf_needs_profile)
{
	struct pebs_probe_facts f = good();
	f.l1_eax = 0x90672;		/* Alder Lake 06_97 */
	perf_verdict(&f, "no PEBS profile for this CPU: no PEBS profile for "
		     "family 6 model 0x97 (a perf capture needs --uarch NAME)",
		     1);
	strcpy(f.vendor, "AuthenticAMD");
	f.l1_eax = 0xa00f11;
	perf_verdict(&f, "no PEBS profile for this CPU: vendor "
		     "\"AuthenticAMD\"", 1);
	f.cpuid_ok = 0;			/* no identity at all */
	perf_verdict(&f, "no PEBS profile for this CPU: CPU unknown", 1);
}

Test(probe, gather_fake_roots)
{
	struct pebs_probe_facts f;
	struct pebs_probe_result r;
	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/skx-root"), 0);
	cr_assert(f.cpuid_ok);
	cr_assert_str_eq(f.vendor, "GenuineIntel");
	cr_assert_eq(f.ncpus, 2);
	cr_assert(f.perf_cap_ok);
	cr_assert_eq(f.perf_cap, 0x33c5);
	cr_assert_eq(f.uid, 0);
	cr_assert_eq(f.paranoid, 2);
	cr_assert_str_eq(f.pmu_name, "skylake");
	cr_assert(f.ci_pebs && !f.ci_pti);
	cr_assert_str_eq(f.meltdown, "Not affected");
	cr_assert_eq(f.nmi_watchdog, 0);
	cr_assert(f.misc_enable_ok);
	cr_assert_eq(f.misc_enable, 0x850089);
	cr_assert_eq(f.nevtsel, 4);
	cr_assert_eq(f.evtsel_ok, 0xf);
	cr_assert(f.global_ctrl_ok && f.fixed_ctrl_ok);
	cr_assert_eq(f.global_ctrl, 0x70000000full);
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.uarch->name, "skx");
	cr_assert(r.backend[1].available);

	/* every MSR at its own 8-byte slot of the stand-in file */
	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/skx-busy"), 0);
	cr_assert_eq(f.perf_cap, 0x33c5);
	cr_assert_eq(f.evtsel[2], 0x43003c);
	cr_assert_eq(f.evtsel[1] | f.evtsel[3], 0);
	cr_assert_eq(f.fixed_ctrl, 0xb0);
	cr_assert_eq(f.misc_enable, 0x851089);
	cr_assert(f.ci_pti && !f.ci_pebs);
	cr_assert_eq(f.nmi_watchdog, 1);
	pebs_probe_analyze(&f, &r);
	cr_assert_not(f.ci_microcode_ok);
	cr_assert_not(r.backend[1].available);
	cr_assert_eq(r.backend[1].nreasons, 5);

	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/vm-user"), 0);
	cr_assert_eq(f.perf_cycles_errno, ENOENT);
	cr_assert_eq(f.uid, 1000);
	pebs_probe_analyze(&f, &r);
	cr_assert(r.hypervisor);
	cr_assert_eq(r.pmu_version, 0);

	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/cpuinfo-only"), 0);
	cr_assert_not(f.cpuid_ok);
	cr_assert(f.ci_flags_ok && f.ci_ds && f.ci_dtes64 && f.ci_pdcm);
	cr_assert_not(f.ci_hypervisor);
	pebs_probe_analyze(&f, &r);
	cr_assert_str_eq(r.cpu_source, "/proc/cpuinfo");
	cr_assert_str_eq(r.uarch->name, "ivb");

	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/merom-root"), 0);
	cr_assert(f.ci_microcode_ok);
	cr_assert_eq(f.ci_microcode, 0xd2);
	pebs_probe_analyze(&f, &r);
	cr_assert_eq(r.model, 0x0f);
	cr_assert_eq(r.trap, 0);
	cr_assert_not(r.backend[1].available);

	cr_assert_eq(pebs_probe_gather(&f, "testdata/probe/no-such-dir"),
		     -PEBS_E_INVAL);
}
