# The guide's pipelines as a user types them: with nothing to run, the
# simulated PMU runs the built-in "mixed" workload and says so; the
# capture is deterministic, so the histogram and the report are too.
# (Summary timings vary: only counts are compared.)
pebs-capture -e load-latency -d 10 2>$TMP/err | pebs-filter 'lat > 100' |
	pebs-hist
sed 's/ [0-9]* bytes, [0-9.]* s, [0-9]* samples\/s/ B bytes, T s, R samples\/s/' $TMP/err
pebs-capture -e load-latency -e precise-store -o $TMP/run.pebs 2>/dev/null &&
	pebs-c2c $TMP/run.pebs | sed -n '1,/^Line 1/p'
# the parts' instructions are named in the file, the workload too
pebs-decode --info $TMP/run.pebs | sed -n '/^  workload:/,/^    ips:/p' |
	grep -v '^    machine:'
