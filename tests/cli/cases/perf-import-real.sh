# perf.data from a real Skylake-SP capture -> .pebs -> CSV.  The expected
# values are those of `perf script --ns` (testdata/perf/*.script).
pebs-import -f perf $TD/perf/skx-load-latency.perf.data -o $TMP/a.pebs &&
pebs-decode -f csv --fields pid,tid,cpu,time,ip,addr,lat,ins_lat,dsrc,event $TMP/a.pebs
