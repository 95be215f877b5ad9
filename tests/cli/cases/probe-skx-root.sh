# bare-metal Skylake server, root, msr module, perf: every backend can run
PEBS_PROBE_ROOT=$TD/probe/skx-root pebs-capture --probe
