# The simulated PMU counts only the events that describe its user-mode
# accesses (pebs-capture(1), Backends, sim): a branch event, or a memory
# event restricted to kernel mode, is programmed and gives no samples,
# while the same workload samples loads.
for ev in BR_INST_RETIRED.ALL_BRANCHES load-latency:k load-latency; do
	pebs-capture -b sim --uarch skx --workload mixed -e $ev \
		-o $TMP/a.pebs 2>/dev/null
	echo "$ev rc=$? samples=$(pebs-decode -f csv $TMP/a.pebs | tail -n +2 |
		wc -l)"
done
