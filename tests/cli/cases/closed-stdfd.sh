# A descriptor 0, 1 or 2 the caller closed: the next file opened (the -o
# output) would take it and messages would go into the data.  Closed
# stderr: the messages vanish, the output holds what could be read (the
# whole first block of a file cut in its second); closed stdout or stdin
# still fail as before (exit 3).
pebs-gen -n 100000 --seed 1 -o $TMP/x.pebs || exit 9
head -c 700000 $TMP/x.pebs > $TMP/cut.pebs
pebs-filter -o $TMP/o.pebs 'lat > 5' $TMP/cut.pebs 2>&-; echo "rc $?"
pebs-filter -c 'lat > 5' $TMP/o.pebs
pebs-filter -c 'lat > 5' $TMP/cut.pebs 2> /dev/null
pebs-decode -f csv -o $TMP/o.csv $TMP/cut.pebs 2>&-; echo "rc $?"
grep -c pebs-decode $TMP/o.csv
pebs-decode -f csv $TMP/cut.pebs > $TMP/c.csv 2> /dev/null
cmp $TMP/c.csv $TMP/o.csv && echo "csv whole"
pebs-decode -f pebs -o $TMP/d.pebs $TMP/cut.pebs 2>&-; echo "rc $?"
pebs-decode -f csv $TMP/d.pebs > $TMP/d.csv
cmp $TMP/d.csv $TMP/o.csv && echo "pebs whole"
pebs-decode -f csv $TMP/cut.pebs >&-; echo "rc $?"
pebs-decode -f csv <&-; echo "rc $?"
