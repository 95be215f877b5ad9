# With --merge, the options that only say how samples are read (--salvage,
# -j, --symfs) are accepted and change nothing; pebs-c2c --merge takes
# --salvage and -j alike, but uses --symfs (its results keep the maps), so
# its DIR must exist (c2c-merge-symfs); --where is refused (exit 2).
# man/pebs-hist.1, --merge.
f=$PWD/$TD/good/filter-hist-2k.pebs
cd $TMP
pebs-hist -f yaml $f >a.yaml || exit 9
pebs-c2c -f yaml $f >c.yaml || exit 9
pebs-hist --merge -f csv a.yaml a.yaml >plain.csv; echo "rc=$?"
pebs-hist --merge -f csv --salvage -j 3 --symfs /nonexistent a.yaml \
	a.yaml | cmp - plain.csv && echo "hist: same result"
pebs-c2c --merge -f csv c.yaml c.yaml >plain2.csv; echo "rc=$?"
pebs-c2c --merge -f csv --salvage -j 3 --symfs $TMP c.yaml \
	c.yaml | cmp - plain2.csv && echo "c2c: same result"
pebs-hist --merge --where hitm a.yaml; echo "rc=$?"
