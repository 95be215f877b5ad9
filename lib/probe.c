/*
 * probe.c - what this machine offers for PEBS capture.  Small readers
 * gather facts (files below a root, cpuid, perf_event_open); the verdict is
 * a pure function of them, so a fake root gives deterministic answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/perf_event.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

#include "pebs_probe.h"

static void addf(struct pebs_probe_backend *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct pebs_probe_backend *b, const char *fmt, ...)
{
	va_list ap;
	if (b->nreasons >= PEBS_PROBE_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(b->reasons[b->nreasons++], sizeof(b->reasons[0]), fmt, ap);
	va_end(ap);
}

static const struct {
	int e;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
	{ EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" }, { EMFILE, "EMFILE" }, { ENOSYS, "ENOSYS" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { E2BIG, "E2BIG" }, { ENXIO, "ENXIO" },
};

const char *pebs_probe_errno_name(int e, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	snprintf(buf, len, "E?%d", e);
	return buf;
}

static int errno_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (strcmp(errnames[i].name, s) == 0)
			return errnames[i].e;
	int v = atoi(s);
	return v > 0 ? v : EINVAL;
}

/* ------------------------------------------------------------- readers */

struct ctx {
	const char *root;	/* NULL = the live machine */
};

static void path(const struct ctx *c, const char *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", c->root ? c->root : "", p);
}

static FILE *open_file(const struct ctx *c, const char *p)
{
	char b[4096];
	path(c, p, b, sizeof(b));
	return fopen(b, "r");
}

static int exists(const struct ctx *c, const char *p)
{
	char b[4096];
	struct stat st;
	path(c, p, b, sizeof(b));
	return stat(b, &st) == 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' ||
		     s[n - 1] == '\t'))
		s[--n] = '\0';
}

static int read_line(const struct ctx *c, const char *p, char *buf,
		     size_t len)
{
	FILE *fp = open_file(c, p);
	if (!fp)
		return -1;
	int ok = fgets(buf, (int)len, fp) != NULL;
	fclose(fp);
	if (!ok)
		return -1;
	trim(buf);
	return 0;
}

/* Is @w one of the space-separated words of @s? */
static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = s; (p = strstr(p, w)) != NULL; p += n) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
			return 1;
	}
	return 0;
}

static void read_cpuinfo(const struct ctx *c, struct pebs_probe_facts *f)
{
	FILE *fp = open_file(c, "/proc/cpuinfo");
	char line[4096];
	int first = 1;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		trim(v);
		*colon = '\0';
		trim(line);
		if (strcmp(line, "processor") == 0) {
			if (f->ncpus)
				first = 0;
			f->ncpus++;
			continue;
		}
		if (!first)
			continue;
		if (strcmp(line, "vendor_id") == 0)
			snprintf(f->ci_vendor, sizeof(f->ci_vendor), "%s", v);
		else if (strcmp(line, "cpu family") == 0)
			f->ci_family = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(line, "model") == 0)
			f->ci_model = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(line, "stepping") == 0)
			f->ci_stepping = (unsigned)strtoul(v, NULL, 10);
		else if (strcmp(line, "microcode") == 0) {
			char *end;
			unsigned long m = strtoul(v, &end, 0);
			if (end != v) {
				f->ci_microcode = (uint32_t)m;
				f->ci_microcode_ok = 1;
			}
		} else if (strcmp(line, "model name") == 0)
			snprintf(f->name, sizeof(f->name), "%s", v);
		else if (strcmp(line, "flags") == 0) {
			f->ci_flags_ok = 1;
			f->ci_ds = has_word(v, "dts");
			f->ci_dtes64 = has_word(v, "dtes64");
			f->ci_pdcm = has_word(v, "pdcm");
			f->ci_hypervisor = has_word(v, "hypervisor");
			f->ci_pebs = has_word(v, "pebs");
			f->ci_pti = has_word(v, "pti");
		}
	}
	fclose(fp);
	f->cpuinfo_ok = f->ncpus > 0 && f->ci_vendor[0];
}

static void set_vendor(struct pebs_probe_facts *f, uint32_t b, uint32_t c,
		       uint32_t d)
{
	memcpy(f->vendor, &b, 4);
	memcpy(f->vendor + 4, &d, 4);
	memcpy(f->vendor + 8, &c, 4);
	f->vendor[12] = '\0';
}

/* Fake cpuid: lines "LEAF: EAX EBX ECX EDX" in hex (leaf 0, 1, 0xa). */
static void read_fake_cpuid(const struct ctx *c, struct pebs_probe_facts *f)
{
	FILE *fp = open_file(c, "/fake/cpuid");
	char line[256];
	int got0 = 0, got1 = 0;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long leaf;
		unsigned a, b, cc, d;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%lx: %x %x %x %x", &leaf, &a, &b, &cc,
			   &d) != 5)
			continue;
		if (leaf == 0) {
			f->max_leaf = a;
			set_vendor(f, b, cc, d);
			got0 = 1;
		} else if (leaf == 1) {
			f->l1_eax = a;
			f->l1_ebx = b;
			f->l1_ecx = cc;
			f->l1_edx = d;
			got1 = 1;
		} else if (leaf == 0xa) {
			f->la_eax = a;
			f->la_ebx = b;
			f->la_ecx = cc;
			f->la_edx = d;
			f->leaf_a_ok = 1;
		}
	}
	fclose(fp);
	f->cpuid_ok = got0 && got1;
	if (f->max_leaf < 0xa)
		f->leaf_a_ok = 0;
}

static void read_cpuid(struct pebs_probe_facts *f)
{
#if HAVE_CPUID
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	f->max_leaf = a;
	set_vendor(f, b, c, d);
	__cpuid(1, f->l1_eax, f->l1_ebx, f->l1_ecx, f->l1_edx);
	f->cpuid_ok = 1;
	if (f->max_leaf >= 0xa) {
		__cpuid_count(0xa, 0, f->la_eax, f->la_ebx, f->la_ecx,
			      f->la_edx);
		f->leaf_a_ok = 1;
	}
#else
	(void)f;
#endif
}

/* 8 bytes of MSR @msr from @fd: the msr driver reads MSR n at file
 * offset n; a regular file standing in for it (a fake root) holds MSR n
 * at 8 x n, as the msr backend's stand-ins, so that neighbouring MSRs do
 * not overlap. */
static int rdmsr_fd(int fd, int reg, uint32_t msr, uint64_t *v)
{
	off_t off = reg ? (off_t)msr * 8 : (off_t)msr;
	return pread(fd, v, sizeof(*v), off) == (ssize_t)sizeof(*v) ? 0 : -1;
}

static void read_msr(const struct ctx *c, struct pebs_probe_facts *f)
{
	char b[4096];
	struct stat st;
	uint64_t v;
	f->msr_dev_present = exists(c, "/dev/cpu/0/msr");
	f->pebs_ds_present = exists(c, "/dev/pebs_ds");
	f->msr_module = exists(c, "/sys/module/msr");
	f->msr_open_errno = ENOENT;
	if (!f->msr_dev_present)
		return;
	path(c, "/dev/cpu/0/msr", b, sizeof(b));
	int fd = open(b, O_RDONLY);
	if (fd < 0) {
		f->msr_open_errno = errno;
		return;
	}
	f->msr_open_errno = 0;
	int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (rdmsr_fd(fd, reg, 0x345, &v) == 0) {
		f->perf_cap = v;
		f->perf_cap_ok = 1;
	}
	if (rdmsr_fd(fd, reg, 0x1a0, &v) == 0) {
		f->misc_enable = v;
		f->misc_enable_ok = 1;
	}
	/* The GP counters CPUID.0AH reports (a missing one would #GP). */
	f->nevtsel = 4;
	if (f->cpuid_ok && f->leaf_a_ok)
		f->nevtsel = f->la_eax >> 8 & 0xff;
	if (f->nevtsel > 8)
		f->nevtsel = 8;
	for (unsigned x = 0; x < f->nevtsel; x++)
		if (rdmsr_fd(fd, reg, 0x186 + x, &f->evtsel[x]) == 0)
			f->evtsel_ok |= 1u << x;
	if (rdmsr_fd(fd, reg, 0x38d, &v) == 0) {
		f->fixed_ctrl = v;
		f->fixed_ctrl_ok = 1;
	}
	if (rdmsr_fd(fd, reg, 0x38f, &v) == 0) {
		f->global_ctrl = v;
		f->global_ctrl_ok = 1;
	}
	close(fd);
}

/*
 * Opens what a perf capture opens: a per-CPU system-wide event (pid -1,
 * cpu N) counting user and kernel, the default mode.  A per-task event in
 * user mode only would pass at perf_event_paranoid 2, where the capture's
 * own opens fail.
 */
static int try_perf(int precise)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_hv = 1;
	if (precise) {
		a.sample_period = 100003;
		a.precise_ip = 1;
	}
	long fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close((int)fd);
	return 0;
}

/* Fake perf_event_open: lines "cycles ok|ERRNO", "precise ok|ERRNO". */
static void read_fake_perf(const struct ctx *c, struct pebs_probe_facts *f)
{
	FILE *fp = open_file(c, "/fake/perf_event_open");
	char line[128], k[32], v[32];
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%31s %31s", k, v) != 2)
			continue;
		int e = strcmp(v, "ok") == 0 ? 0 : errno_parse(v);
		if (strcmp(k, "cycles") == 0)
			f->perf_cycles_errno = e;
		else if (strcmp(k, "precise") == 0)
			f->perf_precise_errno = e;
	}
	fclose(fp);
}

/* The CapEff line of /proc/self/status (below the root): hex bits. */
static void read_caps(const struct ctx *c, struct pebs_probe_facts *f)
{
	FILE *fp = open_file(c, "/proc/self/status");
	char line[256];
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *end;
		if (strncmp(line, "CapEff:", 7) != 0)
			continue;
		unsigned long long v = strtoull(line + 7, &end, 16);
		if (end != line + 7) {
			f->cap_eff = v;
			f->cap_eff_ok = 1;
		}
		break;
	}
	fclose(fp);
}

int pebs_probe_gather(struct pebs_probe_facts *f, const char *root)
{
	struct ctx c = { NULL };
	char buf[64];
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->uid = -1;
	f->nmi_watchdog = -1;
	f->perf_cycles_errno = -1;
	f->perf_precise_errno = -1;
	if (root && *root && strcmp(root, "/") != 0) {
		if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
			return -PEBS_E_INVAL;
		c.root = root;
	}
	read_cpuinfo(&c, f);
	if (c.root) {
		read_fake_cpuid(&c, f);
		if (read_line(&c, "/fake/uid", buf, sizeof(buf)) == 0)
			f->uid = strtol(buf, NULL, 10);
		read_fake_perf(&c, f);
	} else {
		read_cpuid(f);
		f->uid = (long)geteuid();
		f->perf_cycles_errno = try_perf(0);
		f->perf_precise_errno = try_perf(1);
	}
	if (read_line(&c, "/proc/sys/kernel/perf_event_paranoid", buf,
		      sizeof(buf)) == 0) {
		f->paranoid = atoi(buf);
		f->paranoid_ok = 1;
	}
	read_line(&c, "/sys/bus/event_source/devices/cpu/caps/pmu_name",
		  f->pmu_name, sizeof(f->pmu_name));
	read_line(&c, "/sys/devices/system/cpu/vulnerabilities/meltdown",
		  f->meltdown, sizeof(f->meltdown));
	if (read_line(&c, "/proc/sys/kernel/nmi_watchdog", buf,
		      sizeof(buf)) == 0)
		f->nmi_watchdog = atoi(buf);
	read_caps(&c, f);
	read_msr(&c, f);
	return 0;
}

/* ------------------------------------------------------------- verdict */

/* Kernel headers older than 5.8 lack CAP_PERFMON; its bit is fixed. */
#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

static const char *perf_why(int e)
{
	switch (e) {
	case ENOENT:
		return "the kernel offers no such hardware event (no PMU "
		       "exposed, e.g. in a VM)";
	case EACCES:
	case EPERM:
		return "not permitted (perf_event_paranoid or missing "
		       "CAP_PERFMON)";
	case EOPNOTSUPP:
		return "not supported by this PMU driver";
	case ENODEV:
		return "no such PMU device";
	case EINVAL:
		return "rejected as invalid by this kernel/PMU";
	case ENOSYS:
		return "perf_event_open is not available in this kernel";
	}
	return "failed";
}

/*
 * Errata for which Linux turns PEBS off (core.c), into r->pebs_broken:
 * - Core 2 06_0F (Merom, Clovertown; intel_clovertown_quirk): AJ67 CPL
 *   leaks, AJ68 PMI delayed by one event, AJ69 GLOBAL_STATUS[62] set only
 *   with DEBUGCTL[12] (so the pebs_ds module, which looks for bit 62,
 *   never sees its PMI), AJ106;
 * - Sandy Bridge 06_2A / 06_2D below a microcode revision per stepping
 *   (intel_snb_pebs_broken: 06_2A stepping 7 0x28, 06_2D stepping 6
 *   0x618, stepping 7 0x70c; any other stepping counts as broken).
 */
static void pebs_errata(const struct pebs_probe_facts *f,
			struct pebs_probe_result *r)
{
	uint32_t need = 0;

	if (!r->uarch || r->family != 6)
		return;
	if (r->model == 0x0f) {
		snprintf(r->pebs_broken, sizeof(r->pebs_broken),
			 "Core 2 model 0x0F (Merom, Clovertown): errata "
			 "AJ67/AJ68/AJ69/AJ106 make PEBS unreliable and hide "
			 "the threshold PMI; Linux disables PEBS there");
		return;
	}
	if (r->model == 0x2a && r->stepping == 7)
		need = 0x28;
	else if (r->model == 0x2d && r->stepping == 6)
		need = 0x618;
	else if (r->model == 0x2d && r->stepping == 7)
		need = 0x70c;
	else if (r->model != 0x2a && r->model != 0x2d)
		return;
	if (!need)
		snprintf(r->pebs_broken, sizeof(r->pebs_broken),
			 "Sandy Bridge 06_%02X stepping %u: Linux knows no "
			 "microcode with working PEBS for this stepping and "
			 "disables PEBS", r->model, r->stepping);
	else if (!f->ci_microcode_ok)
		snprintf(r->pebs_broken, sizeof(r->pebs_broken),
			 "Sandy Bridge 06_%02X stepping %u needs microcode "
			 "0x%x or later for PEBS and the revision is unknown "
			 "(no microcode line in /proc/cpuinfo)", r->model,
			 r->stepping, need);
	else if (f->ci_microcode < need)
		snprintf(r->pebs_broken, sizeof(r->pebs_broken),
			 "Sandy Bridge 06_%02X stepping %u with microcode "
			 "0x%x: PEBS is broken below 0x%x (Linux disables "
			 "it); update the microcode", r->model, r->stepping,
			 f->ci_microcode, need);
}

/* Appends counter @kind@x to the list of @n bytes in @buf (cap @cap). */
static void list_counter(char *buf, size_t cap, size_t *n, const char *kind,
			 unsigned x)
{
	int w = snprintf(buf + *n, cap - *n, "%s%s%u", *n ? ", " : "", kind,
			 x);
	if (w > 0 && (size_t)w < cap - *n)
		*n += (size_t)w;
}

/*
 * What makes the msr backend unsafe or wrong although the MSRs can be
 * written: PEBS writing where it must not, PEBS switched off, and
 * counters someone else owns.
 */
static void msr_hazards(const struct pebs_probe_facts *f,
			const struct pebs_probe_result *r,
			struct pebs_probe_backend *msr)
{
	char used[128] = "";
	size_t n = 0;
	unsigned nfixed = r->counters_ok ? r->n_fixed : 3;

	/* The processor writes records to linear addresses in whatever
	 * address space runs, user code included.  Under PTI the user page
	 * tables map no kernel memory but cpu_entry_area, where Linux puts
	 * its own DS buffers and a module cannot put ours: the PEBS assist
	 * would fault on the pebs_ds buffer. */
	if ((f->ci_flags_ok && f->ci_pti) || strstr(f->meltdown, "PTI"))
		addf(msr, "kernel page-table isolation is on (%s): PEBS would "
		     "write its records to the pebs_ds buffer, which is not "
		     "mapped while user code runs; boot with nopti, or use a "
		     "CPU not affected by Meltdown",
		     f->ci_flags_ok && f->ci_pti ? "cpuinfo flag pti" :
		     f->meltdown);
	/* Linux sets its pebs flag from DS and IA32_MISC_ENABLE[12]
	 * (arch/x86/kernel/cpu/intel.c); a missing DS is said above. */
	if (f->ci_flags_ok && !f->ci_pebs && r->ds != 0)
		addf(msr, "the kernel reports no PEBS (no pebs flag in "
		     "/proc/cpuinfo): it found IA32_MISC_ENABLE[12] "
		     "(PEBS unavailable) set; check the firmware settings");
	if (f->misc_enable_ok && (f->misc_enable >> 12 & 1))
		addf(msr, "IA32_MISC_ENABLE (0x1A0) is 0x%llx: bit 12 says "
		     "PEBS is unavailable on this processor; check the "
		     "firmware settings",
		     (unsigned long long)f->misc_enable);
	/*
	 * A counter counts when its own enable (PERFEVTSELx.EN, the
	 * FIXED_CTR_CTRL ring bits) and its GLOBAL_CTRL bit are both set
	 * (SDM 18.2.2).  The own enables alone decide here: Linux leaves
	 * every GLOBAL_CTRL bit set once perf has run (intel_pmu_enable_all
	 * writes them all) and clears only the enables of the counters it
	 * stops, so a GLOBAL_CTRL bit on its own means nothing; an enable
	 * with its GLOBAL_CTRL bit clear is still someone's counter.
	 */
	for (unsigned x = 0; x < f->nevtsel && x < 8; x++)
		if ((f->evtsel_ok >> x & 1) && (f->evtsel[x] >> 22 & 1))
			list_counter(used, sizeof(used), &n, "PMC", x);
	for (unsigned j = 0; f->fixed_ctrl_ok && j < nfixed && j < 16; j++)
		if (f->fixed_ctrl >> (4 * j) & 3)
			list_counter(used, sizeof(used), &n, "FIXED", j);
	if (n)
		addf(msr, "counters already in use on CPU 0: %s (enabled in "
		     "IA32_PERFEVTSELx / IA32_FIXED_CTR_CTRL); stop their "
		     "user (perf, the NMI watchdog, another tool) first",
		     used);
	if (f->nmi_watchdog > 0)
		addf(msr, "the NMI watchdog is on (kernel.nmi_watchdog = %d): "
		     "it keeps a counter and takes the PMIs; sysctl "
		     "kernel.nmi_watchdog=0 first", f->nmi_watchdog);
}

void pebs_probe_analyze(const struct pebs_probe_facts *f,
			struct pebs_probe_result *r)
{
	char eb[16];
	struct pebs_probe_backend *sim = &r->backend[0];
	struct pebs_probe_backend *msr = &r->backend[1];
	struct pebs_probe_backend *perf = &r->backend[2];

	memset(r, 0, sizeof(*r));
	sim->name = "sim";
	msr->name = "msr";
	perf->name = "perf";
	r->pebs_fmt = -1;
	r->ds = r->dtes64 = r->pdcm = -1;

	if (f->cpuid_ok) {
		r->cpu_source = "cpuid";
		snprintf(r->vendor, sizeof(r->vendor), "%s", f->vendor);
		pebs_uarch_cpuid_fms(f->l1_eax, &r->family, &r->model,
				     &r->stepping);
		r->hypervisor = !!(f->l1_ecx >> 31 & 1);
		r->ds = !!(f->l1_edx >> 21 & 1);
		r->dtes64 = !!(f->l1_ecx >> 2 & 1);
		r->pdcm = !!(f->l1_ecx >> 15 & 1);
	} else if (f->cpuinfo_ok) {
		r->cpu_source = "/proc/cpuinfo";
		snprintf(r->vendor, sizeof(r->vendor), "%s", f->ci_vendor);
		r->family = f->ci_family;
		r->model = f->ci_model;
		r->stepping = f->ci_stepping;
		if (f->ci_flags_ok) {
			r->hypervisor = f->ci_hypervisor;
			r->ds = f->ci_ds;
			r->dtes64 = f->ci_dtes64;
			r->pdcm = f->ci_pdcm;
		}
	} else {
		r->cpu_source = "none";
	}

	if (r->vendor[0]) {
		const struct pebs_uarch *u = NULL;
		int e = pebs_uarch_detect(r->vendor, r->family, r->model,
					  f->perf_cap, f->perf_cap_ok, &u,
					  r->uarch_why,
					  sizeof(r->uarch_why));
		r->uarch = u;
		if (e == 0)
			r->uarch_why[0] = '\0';
	} else {
		snprintf(r->uarch_why, sizeof(r->uarch_why),
			 "CPU unknown (no cpuid, no /proc/cpuinfo)");
	}

	if (f->perf_cap_ok) {
		r->pebs_fmt = (int)(f->perf_cap >> 8 & 0xf);
		r->pebs_fmt_source = "IA32_PERF_CAPABILITIES";
	} else if (r->uarch) {
		r->pebs_fmt = (int)r->uarch->pebs_fmt;
		r->pebs_fmt_source = "profile";
	} else {
		r->pebs_fmt_source = "unknown";
	}

	r->trap = -1;
	r->trap_source = "unknown";
	if (f->perf_cap_ok) {
		r->trap = (int)(f->perf_cap >> 6 & 1);
		r->trap_source = "IA32_PERF_CAPABILITIES";
	} else if (r->uarch) {
		/* Merom reports fault-like PEBS ("PEBS fmt0-" in its boot
		 * logs), the other Core 2 parts trap-like. */
		r->trap = r->family == 6 && r->model == 0x0f ? 0 :
			  !!(r->uarch->features & PEBS_UF_TRAP);
		r->trap_source = "profile";
	}
	pebs_errata(f, r);

	if (f->cpuid_ok && f->leaf_a_ok) {
		r->counters_ok = 1;
		r->pmu_version = f->la_eax & 0xff;
		r->n_gp = f->la_eax >> 8 & 0xff;
		r->gp_width = f->la_eax >> 16 & 0xff;
		r->n_fixed = f->la_edx & 0x1f;
		r->fixed_width = f->la_edx >> 5 & 0xff;
	}

	/* sim */
	sim->available = 1;
	addf(sim, "always available: the simulated PMU needs no hardware");

	/* msr */
	int intel = !r->vendor[0] || strcmp(r->vendor, "GenuineIntel") == 0;
	if (!intel)
		addf(msr, "not an Intel CPU (%s)", r->vendor);
	else if (!r->uarch)
		addf(msr, "no PEBS profile for this CPU: %s", r->uarch_why);
	else if (r->pebs_broken[0])
		addf(msr, "%s", r->pebs_broken);
	if (intel && r->uarch && r->uarch_why[0])
		/* The drain sizes and reads records by the profile: with
		 * another format it would misread every record. */
		addf(msr, "the profile does not match the processor: %s; the "
		     "drain would read records in the wrong layout",
		     r->uarch_why);
	if (!f->cpuid_ok && intel)
		addf(msr, "no CPUID facts: the PMU version and counters "
		     "cannot be checked");
	if (r->hypervisor)
		addf(msr, "PMU not exposed to this VM: running under a "
		     "hypervisor (CPUID.1:ECX[31]); PEBS MSRs are not "
		     "virtualized for direct writes");
	if (r->counters_ok && r->pmu_version == 0)
		addf(msr, "PMU not exposed: CPUID.0AH reports architectural "
		     "perfmon version 0");
	else if (r->counters_ok && r->pmu_version < 2)
		addf(msr, "CPUID.0AH perfmon version %u: PEBS programming "
		     "needs IA32_PERF_GLOBAL_CTRL (version 2)",
		     r->pmu_version);
	else if (f->cpuid_ok && !f->leaf_a_ok && intel)
		addf(msr, "PMU not exposed: no CPUID leaf 0AH");
	if (r->ds == 0 && intel)
		addf(msr, "no Debug Store (CPUID.1:EDX[21] DS is 0)");
	if (r->dtes64 == 0 && intel)
		addf(msr, "no 64-bit DS layout (CPUID.1:ECX[2] DTES64 is 0)");
	if (f->uid != 0)
		addf(msr, "not root (uid %ld): writing MSRs needs root",
		     f->uid);
	if (!f->msr_dev_present) {
		if (!f->msr_module)
			addf(msr, "msr module not loaded: no /dev/cpu/0/msr "
			     "(modprobe msr)");
		else
			addf(msr, "no /dev/cpu/0/msr although the msr module "
			     "is loaded");
	} else if (f->msr_open_errno) {
		addf(msr, "cannot open /dev/cpu/0/msr: %s",
		     pebs_probe_errno_name(f->msr_open_errno, eb,
					   sizeof(eb)));
	}
	/* the DS area must be kernel memory: the backend maps it from the
	 * module's device */
	if (!f->pebs_ds_present)
		addf(msr, "pebs_ds module not loaded: no /dev/pebs_ds (make "
		     "-C kmod; insmod kmod/pebs_ds.ko)");
	msr_hazards(f, r, msr);
	msr->available = msr->nreasons == 0;

	/* perf: the capture opens per-CPU system-wide events, which the
	 * kernel (perf_allow_cpu) allows only at paranoid 0 or less, or
	 * with CAP_PERFMON or CAP_SYS_ADMIN (perfmon_capable). */
	if (f->paranoid_ok && f->paranoid > 0 && f->uid != 0 &&
	    !(f->cap_eff_ok && (f->cap_eff >> CAP_PERFMON & 1 ||
				f->cap_eff >> CAP_SYS_ADMIN & 1)))
		addf(perf, "perf_event_paranoid %d > 0: per-CPU events need "
		     "0 or less, or root/CAP_PERFMON", f->paranoid);
	/* Without --uarch the capture refuses a CPU without a profile;
	 * another vendor's CPU --uarch too, unless --force (every profile
	 * programs Intel event encodings). */
	if (!r->uarch)
		addf(perf, "no PEBS profile for this CPU: %s (a perf capture "
		     "needs --uarch NAME%s)", r->uarch_why,
		     intel ? "" : " and --force");
	if (f->perf_cycles_errno < 0)
		addf(perf, "perf_event_open not tried");
	else if (f->perf_cycles_errno > 0)
		addf(perf, "perf_event_open(hardware cycles) fails with %s: "
		     "%s", pebs_probe_errno_name(f->perf_cycles_errno, eb,
						 sizeof(eb)),
		     perf_why(f->perf_cycles_errno));
	if (f->perf_precise_errno < 0 && f->perf_cycles_errno == 0)
		addf(perf, "perf_event_open(cycles, precise_ip=1) not tried");
	if (f->perf_precise_errno > 0 && f->perf_cycles_errno == 0)
		addf(perf, "perf_event_open(cycles, precise_ip=1) fails with "
		     "%s: no PEBS through perf here",
		     pebs_probe_errno_name(f->perf_precise_errno, eb,
					   sizeof(eb)));
	perf->available = perf->nreasons == 0;
}
