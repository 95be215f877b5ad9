# Subsets, repeats and derived names without their source column.
for f in lat,event,lat op,mem,snoop line,page,tid ip,op,addr,page \
	snoop,tlb,lock,time; do
	pebs-import $TD/good/decode-basic.csv |
		pebs-decode --fields $f >$TMP/s.csv &&
	pebs-import $TMP/s.csv | pebs-decode --fields $f >$TMP/t.csv &&
	cmp $TMP/s.csv $TMP/t.csv && echo "$f: same" || exit 1
done
