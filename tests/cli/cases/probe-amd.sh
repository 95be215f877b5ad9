# not Intel: no profile; perf without precise_ip
PEBS_PROBE_ROOT=$TD/probe/amd pebs-capture --probe
