# the skx-root machine with PTI on, PEBS unavailable (no pebs flag,
# IA32_MISC_ENABLE bit 12), PMC2 and FIXED1 enabled and the NMI watchdog
# on: msr refuses, each reason with what to do
PEBS_PROBE_ROOT=$TD/probe/skx-busy pebs-capture --probe
