# Several events: fmt 1 collisions are dropped and counted as lost (one per
# colliding counter), fmt 3 gives one sample per applicable counter; rHEX
# outside the table keeps its name; bad counters are usage errors.
pebs-decode --raw --uarch nhm -f csv --fields event,ip,addr,applicable \
	--raw-event 'INST_RETIRED.ANY_P@PMC1;MEM_STORE_RETIRED.DTLB_MISS@PMC2' \
	$TD/good/raw-nhm-multi.bin &&
pebs-decode --raw --uarch nhm --info \
	--raw-event 'INST_RETIRED.ANY_P@PMC1;MEM_STORE_RETIRED.DTLB_MISS@PMC2' \
	$TD/good/raw-nhm-multi.bin | sed -n '/^  events:/,$p' &&
pebs-decode --raw --uarch skl -f csv --fields time,event,ip,lat,op,mem \
	--raw-event 'load-latency:ldlat=30;precise-store;rC0' \
	$TD/good/raw-skl-multi.bin
pebs-decode --raw --uarch snb --raw-event load-latency@PMC0 $TD/good/raw-snb-ldlat.bin
echo "rc=$?"
pebs-decode --raw --uarch skl --raw-event 'rC0@PMC1;rC4@PMC1' $TD/good/raw-skl-multi.bin
echo "rc=$?"
pebs-decode --raw --uarch skl --raw-event 'rC0@PMC9' $TD/good/raw-skl-multi.bin
echo "rc=$?"
