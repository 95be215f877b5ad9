# Concatenated files, and several file arguments, read as one stream.
pebs-import $TD/good/import-subset.csv >$TMP/a.pebs &&
cat $TMP/a.pebs $TMP/a.pebs | pebs-decode --fields time,lat &&
pebs-decode --fields time,lat $TMP/a.pebs - $TMP/a.pebs <$TMP/a.pebs
