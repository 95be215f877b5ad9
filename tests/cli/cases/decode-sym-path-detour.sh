# Map paths come from the metadata, untrusted.  One with a "..", "." or
# empty component was opened as it was: /../prog under --symfs DIR read
# DIR/../prog, outside DIR, and /./dev/null passed the test that skips
# devices and was opened.  Now such a path is not opened, with or without
# --symfs: a note names it and its samples read [unknown].  The plain
# path under DIR still resolves.
. $TD/sym/setup.sh &&
mkdir -p $TMP/root$TMP && cp $TMP/prog $TMP/root$TMP/prog &&
for p in "/../prog --symfs $TMP/root" "$TMP//prog --symfs $TMP/root" \
	 "$TMP/./prog" /./dev/null /../dev/null; do
	set -- $p
	sed "s|=$TMP/prog|=$1|g" $TMP/meta.args >$TMP/d.args &&
	pebs-import $(cat $TMP/d.args) -o $TMP/d.pebs $TMP/s.csv || exit 9
	echo "== $p" | sed "s|$TMP|TMP|g"
	pebs-decode -f csv --fields sym "${@:2}" $TMP/d.pebs 2>&1 |
		sed "s|$TMP|TMP|g" | sort | uniq -c
done
pebs-decode -f csv --fields sym --symfs $TMP/root $TMP/s.pebs | sort | uniq -c
