# Names of forked processes, as perf script gives them (perf record -e
# cpu-clock of sh -c '(loop; exec awk ...)', perf script -F tid,comm
# stored as cpu-clock-fork-exec.comm): the subshell, forked without a
# COMM of its own, is "sh" (its parent's name, from its FORK), not
# [unknown]; its samples before its exec stay "sh", those after are
# "awk", in a second segment that starts at the exec, which has the maps
# and names of that process alone (and the kernel's maps), not those of
# its parent without samples there.
pebs-import -f perf $TD/perf/cpu-clock-fork-exec.perf.data -o $TMP/a.pebs &&
pebs-decode -f csv --fields tid,comm $TMP/a.pebs | tail -n +2 | tr , ' ' \
	> $TMP/ours &&
cmp $TMP/ours $TD/perf/cpu-clock-fork-exec.comm && echo "as perf script" &&
uniq -c $TMP/ours &&
pebs-decode --info $TMP/a.pebs | grep 'segments:' &&
echo "== the exec's segment: the maps and names of its process and the kernel's" &&
pebs-filter 'comm == "awk"' $TMP/a.pebs -o - | pebs-decode --info - |
	grep -E '^  - pid:' | uniq -c &&
pebs-filter 'comm == "awk"' $TMP/a.pebs -o - | pebs-decode --info - |
	grep -A1 '^  comm:'
