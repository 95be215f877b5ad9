# --where counts what pebs-filter keeps (block skipping and t included)
f=$TD/good/filter-hist-2k.pebs
for e in 't < 500us' 'time > 1004000000' 'hitm or remote' 'lat > 100 and not dram'; do
	# the same counts; only the filter's record (where) differs
	a=$(pebs-hist -f yaml --by mem --where "$e" $f | grep -v '^where: ' | md5sum)
	b=$(pebs-filter "$e" $f | pebs-hist -f yaml --by mem | md5sum)
	[ "$a" = "$b" ] && echo "same: $e" || echo "DIFFERENT: $e"
done
pebs-hist -f csv --percentiles 50,99 --where 't in 0.5ms..1ms' $f
# without a known frequency, t takes raw time units only
pebs-import $TD/good/filter-hist-nohz.csv >$TMP/nohz.pebs
pebs-hist --where 't > 1s' <$TMP/nohz.pebs; echo "rc=$?"
pebs-filter --count 't > 1s' <$TMP/nohz.pebs; echo "rc=$?"
pebs-filter --count 't > 0' $TMP/nohz.pebs; echo "rc=$?"
