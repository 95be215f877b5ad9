# make examples builds false_sharing with its fix, -DPADDED, as
# false_sharing_padded (README): each counter on a line of its own, so
# the capture that finds false sharing in false_sharing (capture-command)
# finds no HITM at all in it.
MAKEFLAGS= make -s --no-print-directory B=$TMP/b \
	$TMP/b/examples/false_sharing_padded >/dev/null 2>&1 || exit 9
cd $TMP || exit 9
pebs-capture -b sim --uarch skx -e load-latency -e precise-store -c 211 \
	-- b/examples/false_sharing_padded 2>err >fs.pebs
echo "rc=$?"
pebs-c2c fs.pebs | grep -E 'HITM:|verdicts'
