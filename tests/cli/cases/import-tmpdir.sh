# A CSV import with a comm column spools its samples to a temporary file
# in $TMPDIR (unset or empty: /tmp).  Where none can be made: exit 3 and a
# message naming the directory and where it came from, as pebs-capture's
# trace file (it said only "cannot create a temporary file").  No -o
# output is left.  An import without the column needs no file.
cd $TMP || exit 9
csv='pid,tid,comm,lat
1,1,a,5'
echo "$csv" | TMPDIR=/nonexist pebs-import -o x.pebs; echo "rc=$?"
[ -e x.pebs ] && echo "x.pebs left"
: >notdir; echo "$csv" | TMPDIR=notdir pebs-import -o x.pebs; echo "rc=$?"
echo "$csv" | TMPDIR= pebs-import -o x.pebs; echo "rc=$?"
printf 'pid,tid,lat\n1,1,5\n' | TMPDIR=/nonexist pebs-import -o y.pebs
echo "rc=$?"
