# Without -c, the sim samples every 199 events (PEBS_CAPTURE_SIM_PERIOD):
# the README's quick start gives samples and a pebs-c2c verdict (the
# hardware default, 100003, gave none on the built-in workloads).  -c
# and period= still win, and --plan keeps the hardware default.
pebs-capture -b sim --workload false-sharing -e load-latency \
	-e precise-store -o $TMP/run.pebs 2>/dev/null || exit 9
pebs-decode --info $TMP/run.pebs | grep -E '^  (period|samples):'
pebs-c2c -f csv $TMP/run.pebs | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++)
	if ($i == "verdict") v = i } NR > 1 { print "c2c:", $1, $v }'
pebs-capture -b sim --workload false-sharing -e load-latency:period=1009 \
	-e precise-store -c 2003 -o $TMP/c.pebs 2>/dev/null || exit 9
pebs-decode --info $TMP/c.pebs | grep -E '^ *period:'
pebs-capture --plan --uarch skx -e load-latency | grep -E '^ *period:'
