# the skx-root machine as uid 1000: the capture opens per-CPU system-wide
# events, which perf_event_paranoid > 0 refuses without root, CAP_PERFMON
# or CAP_SYS_ADMIN (the CapEff line of /proc/self/status); the fake
# perf_event_open succeeding does not override that
cp -r $TD/probe/skx-root $TMP/r
echo 1000 >$TMP/r/fake/uid
perf() { PEBS_PROBE_ROOT=$TMP/r pebs-capture --probe | sed -n '/^  perf:/,$p'; }
for p in 2 1 0 -1; do
	echo "# paranoid $p"
	echo $p >$TMP/r/proc/sys/kernel/perf_event_paranoid
	perf
done
echo 2 >$TMP/r/proc/sys/kernel/perf_event_paranoid
mkdir -p $TMP/r/proc/self
for cap in 0000004000000000 0000000000200000 0000000000000001; do
	echo "# paranoid 2, CapEff $cap"
	printf 'Name:\tpebs-capture\nCapEff:\t%s\n' $cap >$TMP/r/proc/self/status
	perf
done
