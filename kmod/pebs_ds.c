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
 * Limits (formats/capture.md section 2): the PMI is an NMI shared with
 * perf, so no perf user may run (nmi_watchdog=0); with page-table
 * isolation the buffers are not in the user page tables the processor
 * may be on when it writes a record, so boot with nopti (as pmu-tools'
 * simple-pebs requires) or use a CPU without Meltdown; the module refuses
 * to load under PTI.  Hot-plugged CPUs are not handled: load the module
 * with all CPUs online.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/nmi.h>

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

static void pmi_wake(struct irq_work *w)
{
	wake_up_interruptible(&pmi_wait);
}

static DEFINE_IRQ_WORK(pmi_work, pmi_wake);

/* NMI context: acknowledge our bit only, re-arm LVTPC, defer the wake. */
static int pebs_nmi(unsigned int cmd, struct pt_regs *regs)
{
	u64 status;

	rdmsrl(MSR_GLOBAL_STATUS, status);
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

static const struct file_operations pebs_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = pebs_ioctl,
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
	/* User space restored IA32_DS_AREA before closing; the processor
	 * no longer writes here. */
	free_bufs();
}

module_init(pebs_ds_init);
module_exit(pebs_ds_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DS save areas and PEBS buffers for pebs-capture");
