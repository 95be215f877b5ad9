// SPDX-License-Identifier: GPL-2.0
/*
 * pebs_ds - DS save areas and PEBS buffers for pebs-capture -b msr.
 *
 * The processor writes PEBS records to kernel linear addresses that must
 * stay mapped and present in every context (SDM Vol. 3B 17.4.9), so user
 * memory cannot be the PEBS buffer.  This module allocates, per online
 * CPU, one page of DS save area and a 64 KiB PEBS buffer and lets user
 * space:
 *   mmap   offset CPU * 1 MiB: the area page, then the buffer (shared);
 *   ioctl  PEBS_KMOD_INFO: their kernel addresses, which user space writes
 *          to IA32_DS_AREA (through /dev/cpu/N/msr) and into the area;
 *   poll   POLLIN once some CPU took the DS threshold PMI
 *          (IA32_PERF_GLOBAL_STATUS bit 62).
 * User space (lib/backend_msr.c) does all register programming and the
 * draining; the constants below are also there: keep both in step.
 *
 * The module loads only on an Intel processor with PEBS and
 * architectural perfmon version 2 or later (IA32_PERF_GLOBAL_STATUS and
 * _CTRL exist): elsewhere its NMI handler's RDMSR would fault.  When the
 * last user closes the device, and before the pages are freed at
 * unload, every CPU whose IA32_DS_AREA still points at this module's
 * area stops PEBS there (see stop_cpu()): a killed pebs-capture restores
 * nothing.
 *
 * Limits (formats/capture.md section 2): the PMI is an NMI shared with
 * perf, so no perf user may run (nmi_watchdog=0); with page-table
 * isolation the buffers are not in the user page tables the processor
 * may be on when it writes a record, so boot with nopti (as pmu-tools'
 * simple-pebs requires) or use a CPU without Meltdown; the module refuses
 * to load under PTI.  Hot-plugged CPUs are not handled: load the module
 * with all CPUs online.
 */
#include <linux/atomic.h>
#include <linux/compat.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/msr-index.h>
#include <asm/nmi.h>
#include <asm/processor.h>

#define PEBS_KMOD_STRIDE	(1u << 20)
#define PEBS_KMOD_BUF		65536u
#define PEBS_KMOD_BUF_ORDER	4	/* 16 pages */
#define STATUS_DS_THRESH	(1ull << 62)
#define MSR_GLOBAL_STATUS	0x38e
#define MSR_GLOBAL_OVF_CTRL	0x390

struct pebs_kmod_info {
	__u32 cpu;
	__u32 pad;
	__u64 area_addr;
	__u64 buf_addr;
	__u64 buf_size;
};
#define PEBS_KMOD_INFO		_IOWR('P', 1, struct pebs_kmod_info)

struct cpu_bufs {
	struct page *area;
	struct page *buf;
};

static struct cpu_bufs *bufs;
static DECLARE_WAIT_QUEUE_HEAD(pmi_wait);
static atomic_t pmi_pending = ATOMIC_INIT(0);
static atomic_t nopen = ATOMIC_INIT(0);

static void pmi_wake(struct irq_work *w)
{
	wake_up_interruptible(&pmi_wait);
}

static DEFINE_IRQ_WORK(pmi_work, pmi_wake);

/*
 * NMI context: acknowledge our bit only, re-arm LVTPC, defer the wake.
 * Every NMI of the machine comes here: the read is the checked one, so
 * that a processor without the MSR gives a quiet NMI_DONE rather than a
 * warning (or, with panic_on_warn, a panic) in NMI context.
 */
static int pebs_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 status;

	if (rdmsrl_safe(MSR_GLOBAL_STATUS, &status))
		return NMI_DONE;
	if (!(status & STATUS_DS_THRESH))
		return NMI_DONE;
	wrmsrl(MSR_GLOBAL_OVF_CTRL, STATUS_DS_THRESH);
	/* A PMI masks LVTPC; unmask it for the next one. */
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	atomic_set(&pmi_pending, 1);
	irq_work_queue(&pmi_work);
	return NMI_HANDLED;
}

static long pebs_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct pebs_kmod_info info;

	if (cmd != PEBS_KMOD_INFO)
		return -ENOTTY;
	if (copy_from_user(&info, (void __user *)arg, sizeof(info)))
		return -EFAULT;
	if (info.cpu >= nr_cpu_ids || !bufs[info.cpu].area)
		return -ENODEV;
	info.area_addr = (u64)(unsigned long)page_address(bufs[info.cpu].area);
	info.buf_addr = (u64)(unsigned long)page_address(bufs[info.cpu].buf);
	info.buf_size = PEBS_KMOD_BUF;
	if (copy_to_user((void __user *)arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static int pebs_mmap(struct file *f, struct vm_area_struct *vma)
{
	unsigned long cpu = vma->vm_pgoff / (PEBS_KMOD_STRIDE >> PAGE_SHIFT);
	unsigned long len = vma->vm_end - vma->vm_start;
	int r;

	if (vma->vm_pgoff % (PEBS_KMOD_STRIDE >> PAGE_SHIFT) ||
	    cpu >= nr_cpu_ids || !bufs[cpu].area ||
	    len > PAGE_SIZE + PEBS_KMOD_BUF)
		return -EINVAL;
	r = remap_pfn_range(vma, vma->vm_start, page_to_pfn(bufs[cpu].area),
			    PAGE_SIZE, vma->vm_page_prot);
	if (r || len <= PAGE_SIZE)
		return r;
	return remap_pfn_range(vma, vma->vm_start + PAGE_SIZE,
			       page_to_pfn(bufs[cpu].buf), len - PAGE_SIZE,
			       vma->vm_page_prot);
}

static __poll_t pebs_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &pmi_wait, wait);
	if (atomic_xchg(&pmi_pending, 0))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

/*
 * On each CPU (IPI): if IA32_DS_AREA still holds this module's area for
 * the CPU, stop PEBS there: counting first (GLOBAL_CTRL = 0), then PEBS,
 * then the DS pointer (SDM: change PEBS state only while disabled).
 * User space restores every register it wrote when it ends normally,
 * and then IA32_DS_AREA is no longer ours and nothing is touched here;
 * after a kill -9 nothing restored them, and the processor would go on
 * writing records into pages that unload frees.  The previous values are
 * unknown here: 0 stops PEBS, which is what matters.
 */
static void stop_cpu(void *unused)
{
	unsigned int cpu = smp_processor_id();
	u64 ds;

	if (cpu >= nr_cpu_ids || !bufs[cpu].area)
		return;
	if (rdmsrl_safe(MSR_IA32_DS_AREA, &ds) ||
	    ds != (u64)(unsigned long)page_address(bufs[cpu].area))
		return;
	wrmsrl_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wrmsrl_safe(MSR_IA32_PEBS_ENABLE, 0);
	wrmsrl_safe(MSR_IA32_DS_AREA, 0);
}

static void stop_all(void)
{
	on_each_cpu(stop_cpu, NULL, 1);
}

static int pebs_open(struct inode *inode, struct file *f)
{
	atomic_inc(&nopen);
	return 0;
}

/* The last user is gone (whether it restored its registers or was
 * killed): no processor may write into our buffers any more. */
static int pebs_release(struct inode *inode, struct file *f)
{
	if (atomic_dec_and_test(&nopen))
		stop_all();
	return 0;
}

static const struct file_operations pebs_fops = {
	.owner = THIS_MODULE,
	.open = pebs_open,
	.release = pebs_release,
	.unlocked_ioctl = pebs_ioctl,
	/* struct pebs_kmod_info has one layout for 32- and 64-bit callers;
	 * without this a 32-bit pebs-capture gets ENOTTY */
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = pebs_mmap,
	.poll = pebs_poll,
	.llseek = noop_llseek,
};

static struct miscdevice pebs_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pebs_ds",
	.fops = &pebs_fops,
	.mode = 0600,
};

static void free_bufs(void)
{
	unsigned int cpu;

	if (!bufs)
		return;
	for_each_possible_cpu(cpu) {
		if (bufs[cpu].area)
			__free_page(bufs[cpu].area);
		if (bufs[cpu].buf)
			__free_pages(bufs[cpu].buf, PEBS_KMOD_BUF_ORDER);
	}
	kfree(bufs);
	bufs = NULL;
}

/*
 * The handler reads IA32_PERF_GLOBAL_STATUS on every NMI and user space
 * programs PEBS through IA32_PERF_GLOBAL_CTRL: an Intel processor with
 * PEBS (the kernel's flag: DS present, IA32_MISC_ENABLE[12] clear) and
 * architectural perfmon version 2 or later (CPUID.0AH:EAX[7:0]) only.
 * AMD processors and VMs without a virtual PMU are refused here.
 */
static bool __init pmu_ok(void)
{
	unsigned int version;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL) {
		pr_err("pebs_ds: not an Intel processor\n");
		return false;
	}
	if (!boot_cpu_has(X86_FEATURE_PEBS)) {
		pr_err("pebs_ds: the kernel reports no PEBS (no DS, or "
		       "IA32_MISC_ENABLE[12] says unavailable; in a VM: not "
		       "exposed)\n");
		return false;
	}
	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON) ||
	    boot_cpu_data.cpuid_level < 0xa) {
		pr_err("pebs_ds: no architectural perfmon (CPUID leaf 0AH)\n");
		return false;
	}
	version = cpuid_eax(0xa) & 0xff;
	if (version < 2) {
		pr_err("pebs_ds: architectural perfmon version %u; "
		       "IA32_PERF_GLOBAL_CTRL needs version 2\n", version);
		return false;
	}
	return true;
}

static int __init pebs_ds_init(void)
{
	unsigned int cpu;
	int r;

	/*
	 * Under PTI the buffers are missing from the user page tables the
	 * processor is on whenever user code runs, so a PEBS assist there
	 * faults on its own record writes (the kernel maps its own DS in
	 * cpu_entry_area for this reason).  pebs-capture's probe refuses
	 * too; refusing here keeps other users of the device safe.
	 */
	if (!pmu_ok())
		return -ENODEV;
	if (boot_cpu_has(X86_FEATURE_PTI)) {
		pr_err("pebs_ds: page-table isolation is on; boot with nopti "
		       "(or use a CPU without Meltdown)\n");
		return -EOPNOTSUPP;
	}
	bufs = kcalloc(nr_cpu_ids, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		int node = cpu_to_node(cpu);
		bufs[cpu].area = alloc_pages_node(node, GFP_KERNEL |
						  __GFP_ZERO, 0);
		bufs[cpu].buf = alloc_pages_node(node, GFP_KERNEL |
						 __GFP_ZERO,
						 PEBS_KMOD_BUF_ORDER);
		if (!bufs[cpu].area || !bufs[cpu].buf) {
			free_bufs();
			return -ENOMEM;
		}
	}
	r = register_nmi_handler(NMI_LOCAL, pebs_nmi, 0, "pebs_ds");
	if (r) {
		free_bufs();
		return r;
	}
	r = misc_register(&pebs_dev);
	if (r) {
		unregister_nmi_handler(NMI_LOCAL, "pebs_ds");
		free_bufs();
	}
	return r;
}

static void __exit pebs_ds_exit(void)
{
	misc_deregister(&pebs_dev);
	unregister_nmi_handler(NMI_LOCAL, "pebs_ds");
	irq_work_sync(&pmi_work);
	/* No user is left (module references), and the last release
	 * stopped PEBS on our areas already; once more in case a CPU came
	 * back since, before the pages go. */
	stop_all();
	free_bufs();
}

module_init(pebs_ds_init);
module_exit(pebs_ds_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DS save areas and PEBS buffers for pebs-capture");
