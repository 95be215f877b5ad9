# The contract's CSV: one row per line with HITM, most costly first.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
pebs-c2c -f csv $TMP/s.pebs
