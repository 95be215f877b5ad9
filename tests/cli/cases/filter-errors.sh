# bad expressions point at the column; usage errors exit 2
f=$TD/good/filter-hist-2k.pebs
pebs-filter --count 'lat > 3 and latt < 5' $f; echo "rc=$?"
pebs-filter --count 'mem == L9' $f; echo "rc=$?"
pebs-filter --count '(lat > 3' $f; echo "rc=$?"
pebs-filter --count 'lat > 3s' $f; echo "rc=$?"
pebs-filter --count 'lat >' $f; echo "rc=$?"
pebs-filter; echo "rc=$?"
pebs-filter -f xml true $f; echo "rc=$?"
pebs-filter --head 0 true $f; echo "rc=$?"
(cd $TMP && pebs-filter --count true missing.pebs); echo "rc=$?"
pebs-filter --version
# a class is a condition, not a value; swapped range ends; columns count
# characters (é is two bytes); transpositions and case in suggestions
pebs-filter --count 'hitm == 1' $f; echo "rc=$?"
pebs-filter --count 'l1 == 1' $f; echo "rc=$?"
pebs-filter --count 'lat in 400..100' $f; echo "rc=$?"
pebs-filter --count 't in 0.1s..0.05s' $f; echo "rc=$?"
pebs-filter --count 't in 5..1s' $f; echo "rc=$?"
pebs-filter --count 'lat in 100..100' $f; echo "rc=$?"
pebs-filter --count 'event == "é" and latt > 1' $f; echo "rc=$?"
pebs-filter --count 'mme == L3' $f; echo "rc=$?"
pebs-filter --count 'LAT > 5' $f; echo "rc=$?"
# options that would change nothing are refused, not ignored
pebs-filter --fields lat true $f; echo "rc=$?"
pebs-filter -c -f yaml true $f; echo "rc=$?"
# a count past 64 bits is out of range, not "not a count"
pebs-filter --head 99999999999999999999 true $f; echo "rc=$?"
pebs-filter --head x true $f; echo "rc=$?"
