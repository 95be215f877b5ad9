# A capture refused once its options were accepted (the backend refuses
# its programming; the trace is bad before its first sample) writes
# nothing: an existing -o file is left as it was, no file is created, and
# nothing goes to standard output.  The output opens with the first
# sample.
pebs-capture -b sim --workload false-sharing -c 997 -o $TMP/keep.pebs \
	2>/dev/null || exit 9
cp $TMP/keep.pebs $TMP/out.pebs
# CPU 4095 is not online: refused (exit 2) on any machine, after the
# options were accepted (--force: skx's profile on any CPU).
pebs-capture -b perf --uarch skx --force -e load-latency -C 4095 -d 0.1 \
	-o $TMP/out.pebs 2>/dev/null
echo "perf: rc $?"
cmp -s $TMP/keep.pebs $TMP/out.pebs && echo "perf: file unchanged"
n=$(pebs-capture -b perf --uarch skx --force -e load-latency -C 4095 -d 0.1 \
	2>/dev/null | wc -c)
echo "perf: $n bytes on standard output"
: >$TMP/empty.txt
mkdir $TMP/dir
# (Their few good accesses give no sample at the default period.)
for f in $TD/bad/trace-*.txt $TMP/empty.txt $TMP/dir; do
	cp $TMP/keep.pebs $TMP/out.pebs
	pebs-capture -b sim --trace $f -o $TMP/out.pebs 2>/dev/null
	rc=$?
	cmp -s $TMP/keep.pebs $TMP/out.pebs && s="unchanged" || s="CHANGED"
	rm -f $TMP/new.pebs
	pebs-capture -b sim --trace $f -o $TMP/new.pebs 2>/dev/null
	[ -e $TMP/new.pebs ] && s="$s, CREATED"
	n=$(pebs-capture -b sim --trace $f 2>/dev/null | wc -c)
	echo "${f##*/}: rc $rc, $s, $n bytes on standard output"
done
