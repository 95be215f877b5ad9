# A synthetic capture of ours as perf.data and back: the sample fields and
# event names survive (time too: the generator's TSC ticks become ns and
# are compared separately by the unit tests).
pebs-gen -n 50 --seed 3 -o $TMP/g.pebs &&
pebs-decode -f perf $TMP/g.pebs -o $TMP/g.data &&
pebs-import -f perf $TMP/g.data -o $TMP/h.pebs &&
F=pid,tid,cpu,ip,addr,lat,ins_lat,dsrc,event &&
pebs-decode -f csv --fields $F $TMP/g.pebs > $TMP/g.csv &&
pebs-decode -f csv --fields $F $TMP/h.pebs > $TMP/h.csv &&
cmp $TMP/g.csv $TMP/h.csv && wc -l < $TMP/h.csv
