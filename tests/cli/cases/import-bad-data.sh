# Bad rows: a message with file, line and field; rows before it are kept;
# the next input is still read; exit 1.
pebs-import $TD/bad/import-bad-number.csv $TD/good/import-subset.csv >$TMP/x.pebs
echo "rc=$?"
pebs-decode --fields time,cpu,lat $TMP/x.pebs
