# A binary cut short under --symfs (a copy that did not finish): its
# section headers, at the end, are gone.  It was used and read as
# stripped ("no symbol table (stripped)"), or, cut inside its notes, as a
# build-id of "none"; now a note says it is truncated, by how much, and
# its symbols read [unknown].  The whole file is used as before.
. $TD/sym/pie-setup.sh &&
pebs-import $(cat $TMP/maps.args) -o $TMP/r.pebs $TMP/r.csv &&
mkdir -p $TMP/root$TMP &&
n=$(stat -c %s $TMP/r) &&
dec() { pebs-decode -f csv --fields sym,data_sym --symfs $TMP/root \
	$TMP/r.pebs 2>&1 | sed -e "s|$TMP|TMP|g" -e "s/$n/SIZE/g" \
	-e "s/$((n - 1))/SIZE-1/g"; } &&
for k in 100 2000 $((n - 1)); do
	head -c $k $TMP/r >$TMP/root$TMP/r && dec
done &&
echo "== whole" && cp $TMP/r $TMP/root$TMP/r && dec
