# No tsc.hz: t with a unit is the same error whatever the blocks are, with
# every block ruled out by the rest, inverted, counted, in pebs-hist too
cd $TMP && printf '%s\n' time,lat 1000,5 2000,6 | pebs-import -f csv -o tsc.pebs &&
pebs-filter -c 'lat > 100000 and t >= 1s' tsc.pebs; echo "rc=$?"
pebs-filter -v -c 'lat > 100000 and t >= 1s' tsc.pebs; echo "rc=$?"
pebs-filter -v -o $TMP/o.pebs 'lat > 100000 and t >= 1s' tsc.pebs
echo "rc=$?"
pebs-hist --where 'lat > 100000 and t >= 1s' -f csv tsc.pebs
echo "rc=$?"
# raw ticks need no frequency
pebs-filter -c 'lat > 100000 and t >= 1000' tsc.pebs; echo "rc=$?"
pebs-filter -v -c 'lat > 100000 and t >= 1000' tsc.pebs; echo "rc=$?"
