# --merge refuses results counted under another --where (exit 2, naming
# both); the filter is recorded in the yaml result as key where
f=$PWD/$TD/good/filter-hist-2k.pebs
cd $TMP
pebs-hist -f yaml --where hitm $f >hitm.yaml
pebs-hist -f yaml $f >all.yaml
grep -n '^where' hitm.yaml all.yaml
pebs-hist --merge -f csv hitm.yaml all.yaml; echo "rc=$?"
pebs-hist --merge -f csv all.yaml hitm.yaml; echo "rc=$?"
pebs-hist -f yaml --where 'lat > 100' $f >lat.yaml
pebs-hist --merge -f csv hitm.yaml lat.yaml; echo "rc=$?"
# the same filter, however typed, merges; the result keeps it
pebs-hist -f yaml --where '100<lat' $f >lat2.yaml
pebs-hist --merge -f yaml lat.yaml lat2.yaml | grep -e '^where' -e '^total'
grep '^total' lat.yaml
# a result from before the key (no where) is unfiltered: merges with one
grep -v '^where' hitm.yaml >old.yaml
pebs-hist --merge -f csv old.yaml all.yaml | head -2; echo "rc=$?"
