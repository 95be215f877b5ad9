# -f pebs writes the record format again: same samples, same metadata.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs &&
pebs-decode -f pebs $TMP/a.pebs $TMP/a.pebs >$TMP/b.pebs &&
pebs-decode $TMP/b.pebs | wc -l &&
pebs-decode $TMP/a.pebs $TMP/a.pebs | cmp - <(pebs-decode $TMP/b.pebs) &&
pebs-decode --info $TMP/b.pebs | grep -E '^  (samples|segments|source)'
