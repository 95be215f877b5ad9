# -f perf writes the lost samples of collisions that no batch of samples
# follows (here a dump of colliding records only: record 2 of
# raw-nhm-multi.bin, status 0x6, twice), as -f pebs does; they were
# dropped, and perf.data said nothing was lost.
r=$(tail -c +353 $TD/good/raw-nhm-multi.bin | head -c 176 | od -An -tx1 |
	tr -d ' \n' | sed 's/../\\x&/g')
printf "$r$r" > $TMP/coll.bin || exit 9
ev='INST_RETIRED.ANY_P@PMC1;MEM_STORE_RETIRED.DTLB_MISS@PMC2'
for f in pebs perf; do
	pebs-decode --raw --uarch nhm --raw-event "$ev" -f $f -o $TMP/o.$f \
		$TMP/coll.bin || exit 9
done
pebs-decode --info $TMP/o.pebs | grep -E 'samples|lost'
pebs-import -f perf $TMP/o.perf | pebs-decode --info | grep -E 'samples|lost'
