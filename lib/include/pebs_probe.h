/*
 * pebs_probe.h - what this machine offers for PEBS capture: CPU, profile,
 * record format, counters, and which capture backends (sim, msr, perf) can
 * run here, and why not.
 *
 * Two steps:
 *   pebs_probe_gather()   small readers: /proc/cpuinfo, the cpuid
 *                         instruction, /dev/cpu/0/msr (presence, open,
 *                         IA32_PERF_CAPABILITIES, IA32_MISC_ENABLE, the
 *                         counter controls), /sys/module/msr, the
 *                         Meltdown mitigation, nmi_watchdog,
 *                         perf_event_paranoid, uid, the effective
 *                         capabilities (/proc/self/status),
 *                         perf_event_open();
 *   pebs_probe_analyze()  a pure function of those facts.
 * With a @root other than NULL or "/", every file is read below @root and
 * the process facts come from files too (root/fake/cpuid, root/fake/uid,
 * root/fake/perf_event_open: formats in formats/plan.md "Probe"), so tests
 * are deterministic; a regular file standing in for /dev/cpu/0/msr holds
 * 8 bytes per MSR at offset 8 x MSR, as the msr backend's stand-ins do.
 * Nothing here prints.
 */
#ifndef PEBS_PROBE_H
#define PEBS_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_uarch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Facts gathered from the machine (or a fake root). */
struct pebs_probe_facts {
	/* CPUID; cpuid_ok = 0 when neither the instruction nor a fake file
	 * gave leaf 0 and 1. */
	int cpuid_ok;
	char vendor[16];		/* leaf 0 */
	uint32_t max_leaf;
	uint32_t l1_eax, l1_ebx, l1_ecx, l1_edx;
	int leaf_a_ok;			/* max_leaf >= 0xA */
	uint32_t la_eax, la_ebx, la_ecx, la_edx;
	/* /proc/cpuinfo (first processor); ncpus = processor lines */
	int cpuinfo_ok;
	char ci_vendor[16];
	unsigned ci_family, ci_model, ci_stepping;
	int ci_microcode_ok;		/* its "microcode" line */
	uint32_t ci_microcode;
	char name[96];
	unsigned ncpus;
	/* its "flags" line: dts (= CPUID.1:EDX[21] DS), dtes64, pdcm,
	 * hypervisor, pebs (the kernel's: DS and IA32_MISC_ENABLE[12]
	 * clear), pti (kernel page-table isolation on); flags_ok = 0 when
	 * there is no flags line */
	int ci_flags_ok;
	int ci_ds, ci_dtes64, ci_pdcm, ci_hypervisor, ci_pebs, ci_pti;
	/* /sys/devices/system/cpu/vulnerabilities/meltdown, "" if none */
	char meltdown[64];
	/* /proc/sys/kernel/nmi_watchdog: -1 unknown, else its value */
	int nmi_watchdog;
	/* Privilege and kernel knobs. */
	long uid;			/* -1 unknown */
	/* CapEff of /proc/self/status (the effective capabilities), when
	 * cap_eff_ok: CAP_PERFMON (38) or CAP_SYS_ADMIN (21) lets a
	 * non-root user open per-CPU perf events at any paranoid level. */
	int cap_eff_ok;
	uint64_t cap_eff;
	int paranoid_ok;
	int paranoid;			/* kernel.perf_event_paranoid */
	/* MSR device: dev_present (stat), module (/sys/module/msr), the
	 * open errno (0 = opened), and IA32_PERF_CAPABILITIES if read. */
	int msr_dev_present;
	int msr_module;
	int msr_open_errno;
	/* /dev/pebs_ds, the kmod/pebs_ds.ko device the msr backend takes
	 * its DS area from (stat) */
	int pebs_ds_present;
	int perf_cap_ok;
	uint64_t perf_cap;
	/* More of CPU 0's MSRs, each with its _ok (read): IA32_MISC_ENABLE
	 * (0x1A0), IA32_PERFEVTSELx (0x186 + x, x < nevtsel: the GP
	 * counters CPUID.0AH gives, else 4; at most 8; evtsel_ok bit x),
	 * IA32_FIXED_CTR_CTRL (0x38D), IA32_PERF_GLOBAL_CTRL (0x38F). */
	int misc_enable_ok;
	uint64_t misc_enable;
	unsigned nevtsel;
	unsigned evtsel_ok;
	uint64_t evtsel[8];
	int fixed_ctrl_ok;
	uint64_t fixed_ctrl;
	int global_ctrl_ok;
	uint64_t global_ctrl;
	/* perf_event_open(): 0 = ok, else errno; -1 = not tried. */
	int perf_cycles_errno;		/* PERF_COUNT_HW_CPU_CYCLES */
	int perf_precise_errno;		/* same with precise_ip = 1 (PEBS) */
	char pmu_name[32];		/* /sys/bus/event_source/devices/cpu/
					 * caps/pmu_name, "" if none */
};

/*
 * Gathers facts from the machine (@root NULL or "/") or from the fake tree
 * @root.  Missing files are facts too (recorded, not errors).  Returns 0,
 * or -PEBS_E_INVAL when @root is not a readable directory.
 */
int pebs_probe_gather(struct pebs_probe_facts *f, const char *root);

#define PEBS_PROBE_MAX_REASONS	16

/* Verdict on one capture backend. */
struct pebs_probe_backend {
	const char *name;		/* "sim", "msr", "perf" */
	int available;
	unsigned nreasons;		/* why not (available = 0), or notes */
	char reasons[PEBS_PROBE_MAX_REASONS][256];
};

struct pebs_probe_result {
	/* CPU identity (cpuid when ok, else /proc/cpuinfo). */
	const char *cpu_source;		/* "cpuid", "/proc/cpuinfo", "none" */
	char vendor[16];
	unsigned family, model, stepping;
	int hypervisor;			/* CPUID.1:ECX[31] */
	/* Profile. */
	const struct pebs_uarch *uarch;	/* NULL when none */
	/* Why no profile; or, with uarch set, how IA32_PERF_CAPABILITIES
	 * contradicts it (record format, adaptive baseline): msr is then
	 * refused. */
	char uarch_why[160];
	/* PEBS record format. */
	int pebs_fmt;			/* -1 unknown */
	const char *pebs_fmt_source;	/* "IA32_PERF_CAPABILITIES",
					 * "profile", "unknown" */
	int ds, dtes64, pdcm;		/* CPUID.1 bits, -1 unknown */
	/* PEBS trap-like (the record's IP is the next instruction): 1, 0
	 * fault-like, -1 unknown; from IA32_PERF_CAPABILITIES[6] when read,
	 * else the profile's (Core 2 06_0F: fault-like) */
	int trap;
	const char *trap_source;	/* as pebs_fmt_source */
	/* Why PEBS must not be used on this processor at all (errata the
	 * Linux kernel disables PEBS for), "" if none: msr is refused. */
	char pebs_broken[200];
	/* Counters (CPUID.0AH). */
	int counters_ok;
	unsigned pmu_version, n_gp, gp_width, n_fixed, fixed_width;
	struct pebs_probe_backend backend[3];	/* sim, msr, perf */
};

/* Pure: the verdict for facts @f.  Never fails. */
void pebs_probe_analyze(const struct pebs_probe_facts *f,
			struct pebs_probe_result *r);

/* "EPERM"-style name of errno @e ("E?" + number when unknown). */
const char *pebs_probe_errno_name(int e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
