# More inputs than file descriptors: each input is opened (and mapped)
# when reading reaches it and closed when it is done, so 200 inputs read
# under `ulimit -n 64`, threaded or not, and a message about a late input
# (one missing, one damaged) still names it.
cd $TMP || exit 9
pebs-gen -n 10 --seed 1 -o t.pebs || exit 9
for i in $(seq -w 1 200); do cp t.pebs c$i.pebs || exit 9; done
head -c 100 t.pebs > c150.pebs && rm c120.pebs || exit 9
files=$(seq -f 'c%03g.pebs' 1 200)
ulimit -n 64 || exit 9
pebs-decode --no-header --fields time $files 2>&1 >/dev/null
pebs-decode -j 4 --no-header --fields time $files 2>/dev/null | wc -l
pebs-decode --threads 1 --no-header --fields time $files 2>/dev/null |
	wc -l
pebs-decode --info $files 2>/dev/null | grep -c '^file:'
pebs-filter --count 'lat >= 0' $files 2>/dev/null
echo "rc=$?"
