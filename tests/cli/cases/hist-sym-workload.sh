# A built-in workload has no process maps, but its metadata names every
# instruction (workload.ips.N: "fs_worker: load shared.count[id]"): sym
# is the function, srcline what the instruction does; dso and data_sym
# stay [unknown], without a note (the names are there).
pebs-capture -b sim --uarch skx -e load-latency -e precise-store \
	--workload false-sharing -o $TMP/run.pebs 2>/dev/null &&
pebs-hist -f csv --by sym --percentiles 50 $TMP/run.pebs &&
pebs-hist -f csv --by srcline --percentiles 50 $TMP/run.pebs &&
pebs-decode -f csv --no-header --fields ip,sym,srcline,dso,data_sym \
	$TMP/run.pebs | sort | uniq -c &&
pebs-filter 'sym == "fs_worker" && srcline ~ "store*"' -f csv \
	--fields sym,srcline $TMP/run.pebs | sort | uniq -c
