# The simulated PMU end to end: false sharing on Skylake-SP with load
# latency and stores, decoded to CSV (deterministic for a seed).  The
# summary's timing varies: only its counts are compared.  Captured to a
# file first: piped into `| head`, the capture could meet the closed pipe
# before its summary and end quietly (exit 0), which made this flaky.
pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency -e precise-store -c 997 -d 1 2>$TMP/err >$TMP/c.pebs
pebs-decode -f csv $TMP/c.pebs | head -12
sed 's/ [0-9]* bytes, [0-9.]* s, [0-9]* samples\/s/ B bytes, T s, R samples\/s/' $TMP/err
