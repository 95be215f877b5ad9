# a file cut short: every complete block is read, then exit 1
f=$TD/good/filter-hist-2k.pebs
head -c 20000 $f >$TMP/cut.pebs; cd $TMP
pebs-filter --count true cut.pebs; echo "rc=$?"
pebs-filter 'lat > 100' cut.pebs | pebs-decode -f csv | wc -l; echo "rc=$?"
