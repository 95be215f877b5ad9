# Debug files of a stripped binary (--symfs): found through
# .gnu_debuglink beside it; a FIFO there (or any non-regular file) is
# refused with a note, never opened blocking (it hung); a link name that
# is a path (../) is not followed; a debug file of another build is
# refused.  No debuginfod server is asked (DEBUGINFOD_URLS set).
. $TD/sym/pie-setup.sh &&
pebs-import $(cat $TMP/maps.args) -o $TMP/r.pebs $TMP/r.csv &&
mkdir -p $TMP/root$TMP &&
objcopy --only-keep-debug $TMP/r $TMP/r.dbg &&
objcopy --strip-debug --strip-unneeded --add-gnu-debuglink=$TMP/r.dbg \
	$TMP/r $TMP/root$TMP/r &&
dec() { DEBUGINFOD_URLS=http://127.0.0.1:9/ timeout 10 pebs-decode -f csv \
	--fields sym,srcline --symfs $TMP/root $TMP/r.pebs 2>&1 |
	sed "s|$TMP|TMP|g"; } &&
echo "== fifo" && mkfifo $TMP/root$TMP/r.dbg && dec &&
echo "== file" && rm $TMP/root$TMP/r.dbg &&
cp $TMP/r.dbg $TMP/root$TMP/r.dbg && dec &&
echo "== other build" &&
cc -g -O1 -fPIE -pie -o $TMP/r2 $TD/sym/pie.c &&
objcopy --only-keep-debug $TMP/r2 $TMP/root$TMP/r.dbg && dec &&
echo "== path" && rm $TMP/root$TMP/r.dbg && cp $TMP/r.dbg $TMP/root/r.dbg &&
printf '../r.dbg\0\0\0\0\0\0\0\0' >$TMP/link &&
objcopy --remove-section .gnu_debuglink --add-section \
	.gnu_debuglink=$TMP/link $TMP/root$TMP/r && dec
echo "rc $?"
