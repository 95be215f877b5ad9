# A process that runs one program, then execs another (perf record -e
# cpu-clock:u -c 200000 of perl -e 'loop; exec "awk", "loop"', stored as
# cpu-clock-exec.perf.data; perf script -F tid,comm,ip,dso of it as
# cpu-clock-exec.dso): each sample is resolved in the maps its process
# had at its time, as perf script resolves it.  The import dropped the
# maps before an exec, so perl's 603 samples read [unknown] and its
# segment had awk's maps.  The exec starts a segment; each has the maps
# alive in it.
pebs-import -f perf $TD/perf/cpu-clock-exec.perf.data -o $TMP/a.pebs &&
pebs-decode -f csv --fields tid,comm,dso $TMP/a.pebs 2>/dev/null |
	tail -n +2 | tr , ' ' > $TMP/ours &&
cmp $TMP/ours $TD/perf/cpu-clock-exec.dso && echo "as perf script" &&
uniq -c $TMP/ours &&
pebs-decode --info $TMP/a.pebs | grep 'segments:' &&
for c in perl awk; do
	echo "== $c's segment: its maps"
	pebs-filter "comm == \"$c\"" $TMP/a.pebs -o - | pebs-decode --info - |
		grep -E '^    path: /usr/bin/'
done
