# kmod/pebs_ds.c cannot be loaded on the test machines (no PMU; see
# README "Real hardware"): the rules that keep it from hurting a machine
# are checked in its source (make -C kmod check compiles it, W=1,
# warnings as errors).
m=kmod/pebs_ds.c
# every NMI of the machine runs the handler: no unchecked RDMSR there
# (it warns, or panics with panic_on_warn, where the MSR is missing)
grep -n 'rdmsrl(' $m || echo "no unchecked rdmsrl"
grep -c 'rdmsrl_safe(MSR_GLOBAL_STATUS, &status)' $m
# it loads only on Intel with PEBS and architectural perfmon >= 2, and
# refuses before it allocates or registers anything
awk '/^static bool __init pmu_ok/,/^}/' $m |
	grep -o 'X86_VENDOR_INTEL\|X86_FEATURE_PEBS\|X86_FEATURE_ARCH_PERFMON\|cpuid_eax(0xa)\|version < 2'
awk '/^static int __init pebs_ds_init/,/^}/' $m |
	grep -o 'pmu_ok()\|kcalloc\|register_nmi_handler' | head -2
# 32-bit callers reach the ioctl (else ENOTTY)
grep -o '\.compat_ioctl = compat_ptr_ioctl' $m
# the last close and the unload stop PEBS where IA32_DS_AREA is still
# ours (a killed pebs-capture restored nothing) before pages are freed
grep -o '\.release = pebs_release' $m
awk '/^static int pebs_release/,/^}/' $m | grep -o 'atomic_dec_and_test\|stop_all'
awk '/^static void __exit pebs_ds_exit/,/^}/' $m | grep -o 'stop_all\|free_bufs'
awk '/^static void stop_cpu/,/^}/' $m | grep -o 'page_address\|wrmsrl_safe(MSR_[A-Z0-9_]*, 0)'
