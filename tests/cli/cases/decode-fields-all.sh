# --fields all: stored columns in id order, then the derived ones.
pebs-import $TD/good/decode-basic.csv | pebs-decode --fields all | head -3
# all takes other names beside it, in their places: the symbol fields it
# leaves out (it said: unknown field "all" (did you mean "lat"?))
pebs-import $TD/good/decode-basic.csv > $TMP/b.pebs && cd $TMP
pebs-decode --fields pid,all,comm,sym b.pebs | head -2
pebs-decode --fields all,lta b.pebs; echo "rc=$?"
pebs-decode --fields all,,lat b.pebs; echo "rc=$?"
pebs-decode -f yaml --fields all,lat b.pebs; echo "rc=$?"
