# --perf-compat counts a remote-bit HITM also as remote DRAM, as perf does:
# line 0x7f0000002000 gets rmt_dram 8 and 8 more loads/records.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
pebs-c2c -f csv $TMP/s.pebs | cut -d, -f1-15 > $TMP/a &&
pebs-c2c -f csv --perf-compat $TMP/s.pebs | cut -d, -f1-15 > $TMP/b &&
diff $TMP/a $TMP/b
echo "diff status $?"
