# perf.data -> .pebs -> perf.data (file, then pipe mode) -> .pebs: every
# sample field survives both directions.
pebs-import -f perf $TD/perf/skx-load-latency.perf.data -o $TMP/a.pebs &&
pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event $TMP/a.pebs > $TMP/a.csv &&
pebs-decode -f perf $TMP/a.pebs -o $TMP/b.data &&
pebs-import -f perf $TMP/b.data | pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event > $TMP/b.csv &&
cmp $TMP/a.csv $TMP/b.csv && echo "file: same" &&
pebs-decode -f perf $TMP/a.pebs | pebs-import -f perf |
	pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event > $TMP/c.csv &&
cmp $TMP/a.csv $TMP/c.csv && echo "pipe: same" &&
head -c 8 $TMP/b.data && echo
