# The binary moved away: one note per object on stderr, the names read
# [unknown], the run goes on (exit 0); --symfs DIR finds it under DIR; a
# build-id that differs from the capture's is refused with a note.
. $TD/sym/setup.sh &&
mkdir -p $TMP/root$TMP && mv $TMP/prog $TMP/root$TMP/prog &&
pebs-decode -f csv --fields sym,srcline $TMP/s.pebs 2>&1 >/dev/null |
	sed "s|$TMP|TMP|g" &&
pebs-decode -f csv --fields sym,srcline $TMP/s.pebs 2>/dev/null &&
pebs-decode -f csv --fields sym --symfs $TMP/root $TMP/s.pebs &&
mkdir $TMP/none &&
pebs-decode -f csv --fields sym --symfs $TMP/none $TMP/s.pebs 2>&1 \
	>/dev/null | sed "s|$TMP|TMP|g" &&
bid=00112233445566778899aabbccddeeff00112233 &&
sed "s/maps\.\([0-9]*\)\.path=\([^ ]*\)/&  --meta maps.\1.build_id=$bid/g" \
	$TMP/meta.args >$TMP/bad.args &&
pebs-import $(cat $TMP/bad.args) -o $TMP/bad.pebs $TMP/s.csv &&
pebs-decode -f csv --fields sym --symfs $TMP/root $TMP/bad.pebs 2>&1 \
	>/dev/null | sed -e "s|$TMP|TMP|g" -e 's/file [0-9a-f]*,/file ID,/' &&
pebs-decode -f csv --fields sym --symfs $TMP/root $TMP/bad.pebs 2>/dev/null |
	sort | uniq -c
