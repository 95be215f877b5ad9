# Lost-sample records stay where the input has them, whatever the decode
# threads read ahead: a segment of no samples but LOST records (a capture
# filtered to nothing) between two others keeps them in its own output
# segment, with -f pebs and pebs-filter -f pebs, and the output is the
# same bytes with -j1, -j2 and -j8 (-f perf too).  The chunks of each
# output are listed: MAGIC, HEAD, BLCK, LOST(cpu,time,count),
# END(samples,blocks,lost).
CHUNKS=$PWD/tests/cli/chunks.py
cd $TMP || exit 9
pebs-gen -n 37 --seed 1 -o s1.pebs || exit 9
pebs-gen -n 74 --seed 2 -o s2.pebs || exit 9
pebs-capture --workload streaming -c 3 --accesses 300k -o l.pebs \
	2>/dev/null || exit 9
pebs-filter false -f pebs l.pebs > lz.pebs || exit 9
cat s1.pebs lz.pebs s2.pebs > c.pebs
chunks() { python3 "$CHUNKS"; }
for J in 1 2 8; do
	echo "-j$J decode: $(pebs-decode -f pebs -j$J c.pebs | chunks)"
	echo "-j$J filter: $(pebs-filter true -f pebs -j$J c.pebs | chunks)"
	pebs-decode -f pebs -j$J c.pebs | md5sum >> decode.sum
	pebs-filter true -f pebs -j$J c.pebs | md5sum >> filter.sum
	pebs-decode -f perf -j$J c.pebs | md5sum >> perf.sum
	pebs-decode -f pebs -j$J l.pebs | md5sum >> capture.sum
done
for f in decode filter perf capture; do
	echo "$f: $(sort -u $f.sum | wc -l) distinct output(s)"
done
