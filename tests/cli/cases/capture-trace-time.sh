# Trace time on the simulated PMU.  A gap of more than a quantum (1 ms of
# simulated time) between two accesses, a program that slept, is idle
# time the simulator skips: the capture ends (it spun forever), and -d
# still stops inside the gap.  The simulated seconds of the summary are
# the time the capture covered: the -d time when it stopped inside the
# gap (it said the last access's, 0), the last access's when the trace
# ended before -d.  A nanosecond of a `clock ns` trace is a
# nanosecond of capture: the simulated clock's 2 GHz (tsc.hz), not a
# conversion of its own.
sim_s() { sed -n 's/.*(\([0-9.]*\) simulated s).*/\1/p'; }
printf 'pebs-trace 1\nclock cycles\n0 1 0 R 8 1 1000\n2000001 1 0 R 8 1 2000\n' \
	>$TMP/gap.txt
for d in "" "-d 0.0005" "-d 0.0015"; do
	timeout 20 pebs-capture -b sim --trace $TMP/gap.txt -c 1 \
		-e MEM_INST_RETIRED.ALL_LOADS $d -o $TMP/g.pebs 2>$TMP/err
	echo "gap ${d:-to the end}: rc $?, $(pebs-decode -f csv --fields time \
		$TMP/g.pebs | tail -n +2 | tr '\n' ' ')"
	sim_s <$TMP/err
done
printf 'pebs-trace 1\nclock ns\n1000 1 0 R 8 1 1000\n4000000 1 0 R 8 1 2000\n' \
	>$TMP/ns.txt
timeout 20 pebs-capture -b sim --trace $TMP/ns.txt -o $TMP/n.pebs 2>&1 |
	sim_s
pebs-decode --info $TMP/n.pebs | grep -E '^ +hz:'
