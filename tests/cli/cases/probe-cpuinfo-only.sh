# no cpuid facts: identity from /proc/cpuinfo; msr module loaded, node missing
PEBS_PROBE_ROOT=$TD/probe/cpuinfo-only pebs-capture --probe -o $TMP/p.yaml && cat $TMP/p.yaml
