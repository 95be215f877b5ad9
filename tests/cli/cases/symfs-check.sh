# --symfs DIR is checked once the options are read, whatever the fields
# or grouping (a typo was silent unless a symbol field was used): not a
# directory, or none there, is exit 3 naming it, before any input is
# read.  An existing directory changes nothing for these inputs.
f=$TD/good/filter-hist-2k.pebs
for t in "pebs-decode -f csv" "pebs-filter -f csv load" "pebs-hist -f csv" \
	 "pebs-c2c -f csv"; do
	$t --symfs /nonexistent $f; echo "rc=$?"
	$t --symfs $f $f; echo "rc=$?"
	$t --symfs $TD $f > $TMP/a; echo "rc=$?"
	$t $f | cmp - $TMP/a && echo "same output"
done
