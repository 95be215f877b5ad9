# A recorded trace replayed on the simulated PMU (--trace): the samples
# carry its threads and pid on an adaptive profile (icl: no registers in
# the records), its maps and build-id go to the metadata ([heap] is left
# out); a missing trace is an I/O error (exit 3).
pebs-capture -b sim --uarch icl --trace $TD/good/trace-basic.txt \
	-e MEM_INST_RETIRED.ALL_LOADS -e MEM_INST_RETIRED.ALL_STORES -c 1 \
	-o $TMP/t.pebs 2>/dev/null &&
pebs-decode -f csv --fields cpu,pid,tid,event,ip,addr $TMP/t.pebs &&
pebs-decode --info $TMP/t.pebs | sed -n '/^  maps:/,/^  [a-z]/p' | grep -v '^  [a-z]'
pebs-capture -b sim --trace $TMP/nonexistent -o $TMP/x.pebs 2>&1 | sed "s|$TMP|TMP|"
