# pebs-c2c --merge uses --symfs: a result keeps the process maps and the
# merged report is symbolized from them.  So DIR is checked as without
# --merge, before any input is read: pebs-c2c(1) said it was neither used
# nor checked there, and a bad DIR passed silently (a result without maps)
# or failed after the inputs were read (one with maps).
pebs-c2c -f yaml -o $TMP/r.yaml $TD/good/filter-hist-2k.pebs
pebs-c2c --merge -f csv --symfs /nonexistent $TMP/r.yaml; echo "rc=$?"
pebs-c2c --merge -f csv --symfs $TD/good/filter-hist-2k.pebs $TMP/r.yaml; echo "rc=$?"
pebs-c2c --merge -f csv --symfs $TD $TMP/r.yaml > $TMP/a; echo "rc=$?"
pebs-c2c --merge -f csv $TMP/r.yaml | cmp - $TMP/a && echo "same output"
# and it is checked before a missing input is
pebs-c2c --merge --symfs /nonexistent $TMP/none.yaml; echo "rc=$?"
