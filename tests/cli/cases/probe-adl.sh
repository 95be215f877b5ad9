# Alder Lake (CPUID.1 EAX 0x90672, 06_97) has no PEBS profile: a plain
# -b perf capture refuses it, so perf is not available without --uarch
cp -r $TD/probe/skx-root $TMP/r
sed -i 's/^0x1: 0x50657 /0x1: 0x90672 /' $TMP/r/fake/cpuid
sed -i 's/^model name.*/model name\t: 12th Gen Intel(R) Core(TM) i9-12900K/' $TMP/r/proc/cpuinfo
echo alderlake_hybrid >$TMP/r/sys/bus/event_source/devices/cpu/caps/pmu_name
PEBS_PROBE_ROOT=$TMP/r pebs-capture --probe
