# A capture refused for its options (a rule, an unknown workload or
# micro-architecture) leaves an existing -o file as it was: the file is
# created only when the capture can start.
pebs-capture -b sim --workload false-sharing -c 997 -o $TMP/good.pebs \
	2>/dev/null || exit 9
cp $TMP/good.pebs $TMP/keep.pebs
pebs-capture -b sim --workload false-sharing -e load-latency:ldlat=1 \
	-o $TMP/good.pebs; echo "rc $?"
pebs-capture -b sim --workload nope -o $TMP/good.pebs; echo "rc $?"
pebs-capture -b sim --uarch bogus -o $TMP/good.pebs 2>/dev/null; echo "rc $?"
cmp $TMP/good.pebs $TMP/keep.pebs && echo "unchanged"
pebs-capture -b sim --workload false-sharing -c 997 \
	-o $TMP/nodir/x.pebs 2>&1 | sed "s|$TMP|TMP|"
