PEBS_PROBE_ROOT=$TD/probe/does-not-exist pebs-capture --probe
