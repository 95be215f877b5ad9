# The same samples written by our perf writer as a big-endian file, a pipe
# stream in each byte order, and with WEIGHT (not WEIGHT_STRUCT), callchains,
# branch stacks, registers and IDENTIFIER: every one must import to the
# same CSV as the original (all but the first print nothing).
pebs-import -f perf $TD/perf/skx-load-latency.perf.data |
	pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event > $TMP/ref.csv &&
for v in skx-be skx-pipe skx-pipe-be skx-weight-callchain; do
	pebs-import -f perf < $TD/perf/$v.perf.data |
		pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event > $TMP/$v.csv &&
	cmp $TMP/ref.csv $TMP/$v.csv && echo "$v: same"
done
