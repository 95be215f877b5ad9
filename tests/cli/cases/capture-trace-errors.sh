# Bad trace data is bad input: exit 1 with "FILE: line N: WHY", after
# writing the samples read before the bad line (none here, at the default
# period: the file is then not created).  A trace that cannot be opened
# or read is an I/O error: exit 3, "FILE: cannot open: WHY" or
# "FILE: read error: WHY".  See pebs-capture(1) EXIT STATUS.
: >$TMP/empty.txt
mkdir $TMP/dir
for f in $TD/bad/trace-*.txt $TMP/empty.txt $TMP/dir $TMP/missing; do
	pebs-capture -b sim --trace $f -o $TMP/x.pebs 2>&1 | sed "s|$TMP|TMP|"
	echo "rc ${PIPESTATUS[0]}"
done
pebs-capture -b sim --trace - -o $TMP/x.pebs <$TD/bad/trace-junk.txt
echo "rc $?"
[ -e $TMP/x.pebs ] && echo "x.pebs created"
# The trace a -- COMMAND wrote is input data too.
pebs-capture -b sim -o $TMP/x.pebs -- sh -c \
	'printf "pebs-trace 1\n1 1 - Q 8 0x1 0x2\n" >"$PEBS_TRACE_OUT"'
echo "rc $?"
# Bad after samples: those before the bad line are in the file (exit 1).
{ cat $TD/good/trace-basic.txt; echo '@junk'; } >$TMP/late.trace
pebs-capture -b sim --uarch icl --trace $TMP/late.trace -c 1 \
	-e MEM_INST_RETIRED.ALL_LOADS -e MEM_INST_RETIRED.ALL_STORES \
	-o $TMP/late.pebs 2>&1 | sed "s|$TMP|TMP|"
echo "rc ${PIPESTATUS[0]}"
pebs-decode --info $TMP/late.pebs | grep -E '^  samples:'
