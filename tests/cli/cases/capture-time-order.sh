# A capture is in time order: records are drained CPU by CPU, and each
# drain's samples are sorted by time across CPUs before they are written
# (formats/capture.md section 4, "Order").  Before, this file had 9
# times that went backwards and its first row was not the earliest.
pebs-capture -b sim --workload false-sharing -e load-latency \
	-e precise-store -o $TMP/r.pebs 2>/dev/null
pebs-decode -f csv --fields time $TMP/r.pebs |
	awk 'NR > 2 && $1 + 0 < p { n++ } NR > 1 { p = $1 + 0 }
	     END { print "backwards:", n + 0 }'
pebs-decode --info $TMP/r.pebs | grep '^    first:'
pebs-decode -f csv --fields time,cpu,tid $TMP/r.pebs | head -4
