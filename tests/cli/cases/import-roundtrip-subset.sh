# Subsets, repeats and derived names without their source column.
for f in lat,event,lat op,mem,snoop line,page,tid ip,op,addr,page \
	snoop,tlb,lock,time; do
	pebs-import $TD/good/decode-basic.csv |
		pebs-decode --fields $f >$TMP/s.csv &&
	pebs-import $TMP/s.csv | pebs-decode --fields $f >$TMP/t.csv &&
	cmp $TMP/s.csv $TMP/t.csv && echo "$f: same" || exit 1
done
# a sole empty field is written "" (an empty line is no record) and every
# sample comes back
printf 'time,lat\n1,5\n2,6\n' | pebs-import | pebs-decode --fields event \
	>$TMP/e.csv && cat $TMP/e.csv &&
pebs-import $TMP/e.csv | pebs-decode --fields event | cmp - $TMP/e.csv &&
echo "empty event: same"
