# A 16-byte build-id (ld --build-id=md5) as perf < 5.11 records it: 20
# bytes, zero-padded (no PERF_RECORD_MISC_BUILD_ID_SIZE).  It matches the
# file's 16-byte id; a padded id that differs is still refused.
CCFLAGS=-Wl,--build-id=md5 . $TD/sym/pie-setup.sh &&
id=$(readelf -n $TMP/r | sed -n 's/.*Build ID: //p') &&
echo "id digits: ${#id}" &&
sed "s/maps\.\([0-9]*\)\.path=\([^ ]*\)/&  --meta maps.\1.build_id=${id}00000000/g" \
	$TMP/maps.args >$TMP/pad.args &&
pebs-import $(cat $TMP/pad.args) -o $TMP/pad.pebs $TMP/r.csv &&
pebs-decode -f csv --fields sym,data_sym $TMP/pad.pebs &&
bad=$(echo $id | tr 0-9a-f 1-9a-f0) &&
sed "s/maps\.\([0-9]*\)\.path=\([^ ]*\)/&  --meta maps.\1.build_id=${bad}00000000/g" \
	$TMP/maps.args >$TMP/bad.args &&
pebs-import $(cat $TMP/bad.args) -o $TMP/bad.pebs $TMP/r.csv &&
pebs-decode -f csv --fields sym $TMP/bad.pebs 2>&1 |
	sed -e "s|$TMP|TMP|g" -e 's/[0-9a-f]\{32,\}/ID/g'
