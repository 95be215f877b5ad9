# RFC 4180 quoting, CRLF and UTF-8 in; LF out, quoted only where needed.
pebs-import $TD/good/import-quoting.csv |
	pebs-decode --fields event,cpu,lat >$TMP/q.csv && cat $TMP/q.csv &&
pebs-import $TMP/q.csv | pebs-decode --fields event,cpu,lat | cmp - $TMP/q.csv
