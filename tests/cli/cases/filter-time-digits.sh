# 0 ends a range below any unit; t constants with more digits than 64 bits
# hold stay exact (one a hair past 1s is between two ns ticks); 2^64 written
# as a fraction with a suffix is too large, not a fraction
h=time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop
r=0,1,1,e,0x1,0x1,1,0,0x268100142,load,L1,none
printf '%s\n' $h 1000,$r 1000001000,$r 1000001001,$r |
	pebs-import -f csv --meta time.unit=ns -o $TMP/ns.pebs &&
for e in 't in 1s..0' 't in 1ns..0.0' 't == 1.00000000000000000001s' \
	't > 1.00000000000000000001s' 't <= 1.00000000000000000001s' \
	't >= 0.99999999999999999999999s' 'lat <= 18446744073709551.616k'; do
	printf '%-32s ' "$e"
	pebs-filter -c "$e" $TMP/ns.pebs 2>&1; echo "rc=$?"
done
pebs-filter --explain 't in 0.999999999999999999999999s..1.00000000000000000001s'
