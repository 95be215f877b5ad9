# -b sim -- COMMAND writes the command's trace to a temporary file in
# $TMPDIR.  A $TMPDIR where no file can be made: exit 3, a message that
# says what failed and where the directory came from (not the random
# name of a file the user never typed), no output file left.  The
# command never runs, so it need not be built for tracing.
cd $TMP || exit 9
TMPDIR=/nonexist pebs-capture -o x.pebs -- true
echo "rc=$?"
[ -e x.pebs ] && echo "x.pebs left"
TMPDIR=/nonexist pebs-capture -b sim -o x.pebs -- true 2>&1 | sed 's/^/sim: /'
true
