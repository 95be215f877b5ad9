# A filtered capture still says how many samples the capture lost, as
# pebs-decode -f pebs does, whatever the expression keeps.
pebs-capture --workload streaming -c 3 --accesses 100k -o $TMP/l.pebs \
	2>/dev/null
for e in true 'lat > 100' false; do
	pebs-filter "$e" $TMP/l.pebs | pebs-decode --info |
		grep -E '^  (samples|lost):' | tr '\n' ' '
	echo
done
