# `event` with the portable names: a sim capture records the profile's
# name (MEM_TRANS_RETIRED.LOAD_LATENCY), pebs-gen the portable one; both
# match load-latency (and perf's mem-loads).  A name that matches no
# event of an input is warned about once, with the input's events.
cd $TMP || exit 9
pebs-capture -b sim --uarch skl --workload false-sharing --seed 1 \
	-e load-latency -e precise-store -o cap.pebs 2>/dev/null || exit 9
pebs-gen -n 2000 --seed 1 -o gen.pebs || exit 9
pebs-decode --info cap.pebs | sed -n '/^  events:/,/^  plan:/p'
for e in 'event == "load-latency"' 'event == load-latency' \
	'event == mem-loads' 'event != load-latency' \
	'event in (precise-store, "nope")' 'event ~ "load*"' \
	'event == "MEM_TRANS_RETIRED.LOAD_LATENCY"' 'event == "loadlat"'; do
	printf '%-44s cap %s gen %s\n' "$e" "$(pebs-filter -c "$e" cap.pebs)" \
		"$(pebs-filter -c "$e" gen.pebs 2>/dev/null)"
done
# without --count; a name given twice and missing from two inputs: one
# warning
pebs-filter -f csv --fields event 'event == load-latency' cap.pebs |
	sort | uniq -c
pebs-filter -c 'event in ("x", "y") or event == "x"' cap.pebs gen.pebs
pebs-hist --where 'event == "precise_store"' gen.pebs >/dev/null
echo rc=$?
# an input whose metadata lists no events (a CSV import): a block skipped
# on another clause may hold the name, so no warning; a name in no block
# read and none skipped is still warned about
printf 'time,cpu,pid,tid,event,ip,addr,lat\n1,0,1,1,aaa,0x1000,0x2000,5\n' |
	pebs-import -o a.pebs
printf 'time,cpu,pid,tid,event,ip,addr,lat\n2,0,1,1,bbb,0x1000,0x2000,5000\n' |
	pebs-import -o b.pebs
cat a.pebs b.pebs >two.pebs
pebs-filter -c 'lat < 100 and event == "bbb"' two.pebs
pebs-filter -c 'event == "ccc"' two.pebs
