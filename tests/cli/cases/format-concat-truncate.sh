# cat of two files is one valid stream; a file cut inside a block gives
# every complete block, then the damage and exit 1; the end marker's
# absence (a killed writer) is reported too.
pebs-gen -n 3000 --block 1000 --seed 1 -o $TMP/a.pebs &&
pebs-gen -n 2000 --block 1000 --seed 2 -o $TMP/b.pebs &&
cat $TMP/a.pebs $TMP/b.pebs | pebs-decode --info | grep -E '^  (samples|blocks|segments):'
cat $TMP/a.pebs $TMP/b.pebs | pebs-decode -f csv | wc -l
head -c 20000 $TMP/a.pebs | pebs-decode -f csv | wc -l; echo "rc ${PIPESTATUS[1]}"
cd $TMP && size=$(stat -c %s a.pebs)
head -c $((size - 500)) a.pebs > cut.pebs
pebs-decode -f csv cut.pebs | wc -l; echo "rc ${PIPESTATUS[0]}"
