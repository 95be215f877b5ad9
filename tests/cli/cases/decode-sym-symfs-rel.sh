# --symfs is made absolute: a relative one also finds debug files under
# SYMFS/usr/lib/debug (libdwfl read a relative path element as relative
# to each binary's directory).  A --symfs that does not exist is an error.
. $TD/sym/pie-setup.sh &&
pebs-import $(cat $TMP/maps.args) -o $TMP/r.pebs $TMP/r.csv &&
mkdir -p $TMP/root$TMP &&
objcopy --only-keep-debug $TMP/r $TMP/r.dbg &&
objcopy --strip-debug --strip-unneeded $TMP/r $TMP/root$TMP/r &&
id=$(readelf -n $TMP/r | sed -n 's/.*Build ID: //p') &&
mkdir -p $TMP/root/usr/lib/debug/.build-id/${id:0:2} &&
mv $TMP/r.dbg $TMP/root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug &&
(cd $TMP && pebs-decode -f csv --fields sym,srcline,data_sym --symfs root \
	r.pebs) &&
(cd $TMP && pebs-decode -f csv --fields sym --symfs none r.pebs)
echo "rc $?"
