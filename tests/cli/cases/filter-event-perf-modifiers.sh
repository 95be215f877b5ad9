# a perf import keeps perf's modifiers in the event name
# (MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64:precise=2:...): the name
# without them, in any case, matches it; with modifiers the whole name
p=$PWD/$TD/perf/skx-load-latency.perf.data
cd $TMP || exit 9
pebs-import $p -o s.pebs || exit 9
pebs-decode --fields event s.pebs | sort | uniq -c
for e in 'event == MEM_TRANS_RETIRED.LOAD_LATENCY' \
	'event == mem_trans_retired.load_latency' \
	'event ~ "*.LOAD_LATENCY"' 'event != MEM_TRANS_RETIRED.LOAD_LATENCY' \
	'event == load-latency' 'event == "MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64"'; do
	printf '%-56s %s\n' "$e" "$(pebs-filter -c "$e" s.pebs)"
done
