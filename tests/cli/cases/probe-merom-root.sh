# Core 2 Merom/Clovertown (06_0F): PEBS is fault-like (PERF_CAPABILITIES
# bit 6 clear) and its errata make Linux disable PEBS: msr refused
PEBS_PROBE_ROOT=$TD/probe/merom-root pebs-capture --probe
