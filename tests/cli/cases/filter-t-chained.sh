# t, the time since the start of the sample's segment, survives the tools
# that write segments: a filter's output starts at its first kept sample
# and pebs-decode -f pebs cuts blocks anew, but each output segment
# carries its input segment's start as time.origin, so that filters chain
# (each gave 20000 here: t restarted at the first kept sample).  Both
# orders, -j1 and -j2 (the same bytes), through pebs-decode -f pebs, and
# two concatenated segments of different origins.
cd $TMP || exit 9
pebs-gen -n 200000 --seed 2 -o t.pebs || exit 9
pebs-gen -n 50000 --seed 3 -o u.pebs || exit 9
echo "== at once: $(pebs-filter -c 't >= 10ms and t < 20ms' t.pebs)"
echo "== chained"
pebs-filter 't >= 10ms' t.pebs | pebs-filter -c 't < 20ms'
pebs-filter 't < 20ms' t.pebs | pebs-filter -c 't >= 10ms'
pebs-filter -j1 't >= 10ms' t.pebs > j1.pebs &&
pebs-filter -j2 't >= 10ms' t.pebs > j2.pebs &&
cmp j1.pebs j2.pebs && echo "-j1, -j2: same bytes"
pebs-filter -j1 -c 't < 20ms' j1.pebs
pebs-filter -j2 -c 't < 20ms' j2.pebs
pebs-decode --info j1.pebs | grep -A2 '^  time:' | head -3
echo "== through pebs-decode -f pebs"
pebs-decode -f pebs t.pebs | pebs-filter -c 't >= 10ms and t < 20ms'
pebs-filter 't >= 10ms' t.pebs | pebs-decode -f pebs |
	pebs-filter -c 't < 20ms'
pebs-filter 't >= 10ms' t.pebs | pebs-decode -f pebs -j1 > d1.pebs &&
pebs-filter 't >= 10ms' t.pebs | pebs-decode -f pebs -j2 > d2.pebs &&
cmp d1.pebs d2.pebs && echo "-j1, -j2: same bytes"
echo "== two segments, two origins"
# the second input's own samples count from its own start
echo "at once: $(pebs-filter -c 't >= 10ms and t < 40ms' t.pebs) +" \
	"$(pebs-filter -c 't >= 30ms and t < 40ms' u.pebs)"
pebs-filter 't >= 10ms' t.pebs > a.pebs &&
pebs-filter 't >= 30ms' u.pebs > b.pebs &&
cat a.pebs b.pebs > ab.pebs &&
pebs-filter -c 't < 40ms' ab.pebs &&
pebs-filter -j1 -c 't < 40ms' a.pebs b.pebs &&
pebs-decode -f pebs ab.pebs | pebs-filter -c 't < 40ms' &&
pebs-filter 't < 40ms' ab.pebs | pebs-filter -c true
echo "== pebs-hist --where through a filtered file"
pebs-hist --where 't >= 10ms and t < 20ms' t.pebs > h1.txt &&
pebs-filter 't >= 5ms' t.pebs | pebs-hist --where 't >= 10ms and t < 20ms' \
	> h2.txt && cmp h1.txt h2.txt && echo "same histogram"
