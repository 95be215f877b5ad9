# VM guest without a virtual PMU, unprivileged user
PEBS_PROBE_ROOT=$TD/probe/vm-user pebs-capture --probe
