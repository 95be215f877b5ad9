# A segment whose LOST records come before its first block: a filter's or
# a copy's output segment cannot be started with the input's start (its
# HEAD is written first and the start is not known yet), so the records
# wait for the first kept sample, which knows it.  The output keeps the
# chunks in their order and `t` of every sample, the same bytes with -j1
# and -j2; a segment of LOST records without samples kept is written
# without time.origin (it has no `t`).
CHUNKS=$PWD/tests/cli/chunks.py
cd $TMP || exit 9
pebs-capture --workload streaming -c 3 --accesses 300k -o l.pebs \
	2>/dev/null || exit 9
# MAGIC HEAD BLCK LOST LOST END INDX TAIL -> MAGIC HEAD LOST LOST BLCK END
python3 -c '
import struct, sys
d = open("l.pebs", "rb").read(); p = 8; order = []
while p < len(d):
    t = d[p:p + 4]; n = struct.unpack("<Q", d[p + 8:p + 16])[0]
    order.append((t, d[p:p + 24 + n])); p += 24 + n
pick = lambda tag: [c for t, c in order if t == tag]
sys.stdout.buffer.write(d[:8] + b"".join(pick(b"HEAD") + pick(b"LOST") +
                        pick(b"BLCK") + pick(b"END ")))' > lf.pebs || exit 9
chunks() { python3 "$CHUNKS"; }
echo "input: $(chunks < lf.pebs)"
echo "at once: $(pebs-filter -c 't >= 20us and t < 60us' lf.pebs)"
for J in 1 2; do
	pebs-filter -j$J 't >= 20us' lf.pebs > f$J.pebs || exit 9
	pebs-decode -f pebs -j$J lf.pebs > d$J.pebs || exit 9
done
cmp f1.pebs f2.pebs && cmp d1.pebs d2.pebs && echo "-j1, -j2: same bytes"
echo "filter: $(chunks < f1.pebs)"
echo "chained: $(pebs-filter -c 't < 60us' f1.pebs)"
echo "decode: $(chunks < d1.pebs)"
echo "decoded: $(pebs-filter -c 't >= 20us and t < 60us' d1.pebs)"
pebs-decode --info f1.pebs | grep -A2 '^  time:' | head -3
echo "== no sample kept"
pebs-filter false lf.pebs > z.pebs &&
echo "$(chunks < z.pebs), $(pebs-decode --info z.pebs | grep -c origin:) origin"
