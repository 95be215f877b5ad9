# --stats: the global tables, text and csv; "n/a" where perf prints -nan
# (the last input has three stores only: no LLC miss, no HITM).
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
pebs-c2c --stats $TMP/s.pebs &&
pebs-c2c --stats -f csv $TMP/s.pebs | sed -n '1,5p' &&
sed -n '1,4p' $TD/good/c2c-sharing.csv | pebs-import -f csv |
	pebs-c2c --stats | grep -E 'LLC Misses to|HITMs on shared'
