# -o naming the --trace file (by any path) is refused before anything is
# opened, as by every other tool: it would empty the trace before it is
# read.
cp $TD/good/trace-basic.txt $TMP/t.trace
ln $TMP/t.trace $TMP/hard.trace
cd $TMP || exit 9
pebs-capture --trace t.trace -c 1 -o t.trace; echo "rc $?"
pebs-capture --trace ./t.trace -c 1 -o hard.trace; echo "rc $?"
cmp -s t.trace "$OLDPWD/$TD/good/trace-basic.txt" && echo "trace intact"
pebs-capture --trace t.trace -c 1 -o t.pebs 2>/dev/null; echo "rc $?"
