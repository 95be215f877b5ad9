# Hardware backends either run or refuse with exit 3 and a reason (this
# test passes on both kinds of machine; without a PMU, as in a virtual
# machine, they refuse), or, on a CPU that is not skx (another Intel
# profile, another vendor), refuse --uarch skx with exit 2.
for b in msr perf; do
	pebs-capture -b $b --uarch skx -e load-latency -d 1 -o $TMP/$b.pebs \
		2>$TMP/$b.err
	rc=$?
	if [ $rc = 0 ]; then echo "$b: ran"
	elif [ $rc = 3 ] && grep -q -E 'msr|pebs_ds|perf_event_open' \
		$TMP/$b.err; then echo "$b: refused with a reason"
	elif [ $rc = 2 ] && grep -q -e '^pebs-capture: --uarch skx: this CPU' \
		$TMP/$b.err; then echo "$b: refused with a reason"
	else echo "$b: rc=$rc"; cat $TMP/$b.err; fi
done
