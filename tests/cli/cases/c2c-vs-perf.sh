# Per-line counts against real perf: testdata/good/c2c-sharing.perf61.txt is
# the output of `perf c2c report --stdio` (perf 6.1.192) on the same samples
# (pebs-import -f csv c2c-sharing.csv | pebs-decode -f perf).  With
# --perf-compat every count of perf's Shared Data Cache Line Table matches.
awk '/Shared Data Cache Line Table/ { t = 1; next }
     /Shared Cache Line Distribution/ { t = 0 }
     t && $1 ~ /^[0-9]+$/ {
	print $2 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 "," $12 "," \
	      $13 "," $14 "," $15 "," $16 "," $17 "," $18 "," $19 "," $20 \
	      "," $21 "," $22 "," $23 }' $TD/good/c2c-sharing.perf61.txt |
	sort > $TMP/perf.csv &&
pebs-import -f csv $TD/good/c2c-sharing.csv |
	pebs-c2c -f csv --perf-compat |
	awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," \
		$7 "," $8 "," $9 "," $17 "," $18 "," $10 "," $11 "," $12 "," \
		$3 "," $19 "," $4 "," $13 "," $14 }' | sort > $TMP/ours.csv &&
echo "address,tot_hitm,lcl_hitm,rmt_hitm,recs,loads,stores,st_l1hit,st_l1miss,st_na,fb,l1,l2,llc,lcl_hitm,rmt_hit,rmt_hitm,lcl_dram,rmt_dram" &&
cat $TMP/perf.csv &&
diff $TMP/perf.csv $TMP/ours.csv && echo "pebs-c2c --perf-compat == perf c2c report"
# --stats: perf's tables row by row (perf c2c report --stats, same perf);
# only "No Page Map Rejects" differs: libpebs has no memory maps.
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c --stats --perf-compat |
	grep ' : ' > $TMP/ours.stats &&
grep ' : ' $TD/good/c2c-sharing.perf61-stats.txt | grep -v -e Events \
	-e 'Cachelines sort' -e 'data grouping' -e '^  *: ' > $TMP/perf.stats &&
diff $TMP/perf.stats $TMP/ours.stats
echo "stats diff status $?"
