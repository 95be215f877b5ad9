# Not the record format: message, exit 1.
pebs-decode --fields time $TD/good/decode-basic.csv
echo "rc=$?"
pebs-decode --fields time </dev/null
echo "rc=$?"
# a perf.data file says so, as does a .pebs file given to pebs-import
pebs-decode --fields time $TD/perf/skx-load-latency.perf.data
echo "rc=$?"
pebs-gen -n 10 -o $TMP/g.pebs 2>/dev/null
(cd $TMP && pebs-import -f csv g.pebs >/dev/null)
echo "rc=$?"
