# The symbol columns of pebs-decode --fields (sym, dso, srcline, data_sym)
# are ignored on import: the other columns read back the same.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs || exit 9
pebs-decode --fields time,sym,lat,dso,srcline,data_sym,addr $TMP/a.pebs \
	2>/dev/null >$TMP/s.csv && head -2 $TMP/s.csv &&
pebs-import $TMP/s.csv | pebs-decode --fields time,lat,addr |
	cmp - <(pebs-decode --fields time,lat,addr $TMP/a.pebs) && echo same
