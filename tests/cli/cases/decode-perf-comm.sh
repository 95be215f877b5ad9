# Command names of processes (comm.PID) and of their sampled threads
# (comm.PID.TID) come in from perf.data and go out again with -f perf:
# perf script shows a thread by its own name, not ":TID".
comm() { pebs-decode --info "$@" | sed -n '/^  comm:/,/^  [a-z]/p' | sed '$d'; }
pebs-import -f perf $TD/perf/skx-load-latency.perf.data -o $TMP/a.pebs &&
comm $TMP/a.pebs | tee $TMP/a.txt &&
pebs-decode -f perf $TMP/a.pebs -o $TMP/b.data &&
pebs-import -f perf $TMP/b.data -o $TMP/b.pebs &&
comm $TMP/b.pebs | cmp - $TMP/a.txt && echo "file: same" &&
pebs-decode -f perf $TMP/a.pebs | pebs-import -f perf | comm - |
	cmp - $TMP/a.txt && echo "pipe: same"
