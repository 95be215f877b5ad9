pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs &&
pebs-decode --no-header --fields cpu,lat $TMP/a.pebs &&
pebs-decode --no-header -f text --fields cpu,lat $TMP/a.pebs
