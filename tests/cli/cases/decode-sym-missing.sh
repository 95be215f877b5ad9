# The real Skylake-SP capture: its maps name binaries that are not on this
# machine.  A note per object that samples fall in (kernel included), the
# names stay [unknown], dso still comes from the maps; exit 0.  A file
# without maps says so once.
pebs-import -f perf $TD/perf/skx-load-latency.perf.data -o $TMP/a.pebs &&
pebs-decode -f csv --fields pid,ip,sym,dso,srcline,data_sym $TMP/a.pebs \
	2>/dev/null | head -n 6 &&
pebs-decode -f csv --fields sym $TMP/a.pebs 2>&1 >/dev/null |
	sed "s|$TMP|TMP|g" | head -n 4 &&
mkdir $TMP/empty &&
pebs-decode -f csv --fields sym --symfs $TMP/empty $TMP/a.pebs 2>&1 \
	>/dev/null | sed "s|$TMP|TMP|g" | sed -n 2p &&
pebs-import $TD/good/decode-basic.csv |
	pebs-decode -f csv --fields sym,lat | head -n 2
