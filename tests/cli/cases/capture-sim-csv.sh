# The simulated PMU end to end: false sharing on Skylake-SP with load
# latency and stores, decoded to CSV (deterministic for a seed).  The
# summary's timing varies: only its counts are compared.
pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency -e precise-store -c 997 -d 1 2>$TMP/err |
	pebs-decode -f csv | head -12
sed 's/ [0-9]* bytes, [0-9.]* s, [0-9]* samples\/s/ B bytes, T s, R samples\/s/' $TMP/err
