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
