# Several perf.data inputs (one is a generated file with two events and
# 5 samples lost): one .pebs segment each, read back as one stream; the
# lost count is kept in band.  The generated file has samples out of order
# beyond its FINISHED_ROUND windows: they come out in the very order
# `perf script` gives them (1000 1005 ... 1011 1001 ... 1004).
pebs-import -f perf $TD/perf/skx-load-latency.perf.data \
	$TD/perf/gen-two-events-lost.perf.data -o $TMP/m.pebs &&
pebs-decode -f csv --fields time,pid,event $TMP/m.pebs | tail -13 &&
pebs-decode --info $TMP/m.pebs | grep -E '^  (samples|segments|lost):'
