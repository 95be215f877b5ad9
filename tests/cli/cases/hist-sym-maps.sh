# Maps as pebs-hist reads them: numbered with gaps (maps.7, maps.9, ...)
# they are all found (they were lost: "no process maps"); a stripped
# binary says why its symbols read [unknown].
. $TD/sym/setup.sh &&
sed 's/maps\.\([0-9]\)\./maps.1\1./g' $TMP/meta.args >$TMP/gap.args &&
pebs-import $(cat $TMP/gap.args) -o $TMP/gap.pebs $TMP/s.csv &&
echo "== gaps" &&
pebs-hist -f csv --by sym --percentiles 100 $TMP/gap.pebs &&
echo "== stripped" &&
cp $TMP/prog $TMP/prog.strip && strip $TMP/prog.strip &&
sed "s|=$TMP/prog |=$TMP/prog.strip |g; s|=$TMP/prog\$|=$TMP/prog.strip|" \
	$TMP/meta.args >$TMP/strip.args &&
pebs-import $(cat $TMP/strip.args) -o $TMP/strip.pebs $TMP/s.csv &&
pebs-hist -f csv --by sym --percentiles 100 $TMP/strip.pebs 2>&1 |
	sed "s|$TMP|TMP|g"
