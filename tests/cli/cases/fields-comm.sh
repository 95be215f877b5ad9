# The comm field: the name of a sample's thread from the metadata
# (comm.PID.TID, else comm.PID, else [unknown]), as perf's --sort comm
# (pid 0: swapper), but for a thread without its own name (perf: :TID):
# grouped, filtered (==, ~) and printed like the symbol fields.
pebs-import -f perf $TD/perf/skx-load-latency.perf.data -o $TMP/a.pebs &&
pebs-hist -f csv --by comm --percentiles 50 $TMP/a.pebs &&
pebs-filter 'comm ~ "switchto*"' -f csv --fields pid,tid,comm $TMP/a.pebs |
	sort | uniq -c &&
pebs-filter 'comm == "kstaled"' -f csv --fields pid,tid,comm $TMP/a.pebs |
	sort | uniq -c &&
pebs-decode -f text --fields tid,comm,lat $TMP/a.pebs | head -n 3 &&
echo "== no names" &&
pebs-import $TD/good/decode-basic.csv |
	pebs-decode -f csv --fields pid,comm | head -n 2
