# t constants on a tick are that tick: time.unit ns (9ms is 9000000 ns,
# not a double's neighbour of it) and raw ticks past 2^53; --explain
# prints them as written and names data-source classes and values
h=time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop
r=0,1,1,e,0x1,0x1,1,0,0x268100142,load,L1,none
printf '%s\n' $h 0,$r 3,$r 100,$r 300,$r 9000000,$r 13000000,$r |
	pebs-import -f csv --meta time.unit=ns -o $TMP/ns.pebs &&
for e in 't == 9ms' 't >= 9ms' 't in 9ms..13ms' 't < 13ms' 't == 3ns' \
	't >= 0.3us' 't in 100ns..300ns' 't == 0.1us' 't == 3.5ns'; do
	printf '%-20s %s\n' "$e" "$(pebs-filter --count "$e" $TMP/ns.pebs)"
done &&
printf '%s\n' $h 100,$r 18446744073709551614,$r 18446744073709551615,$r |
	pebs-import -f csv -o $TMP/big.pebs &&
for e in 't >= 18446744073709551515' 't == 18446744073709551514'; do
	printf '%-28s %s\n' "$e" "$(pebs-filter --count "$e" $TMP/big.pebs)"
done &&
pebs-filter --explain 't >= 18446744073709551515 or t in 0.05s..100ms' &&
pebs-filter --explain 'hitm and not stlb_miss' &&
pebs-filter --explain 'mem == L3 or snoop not in (hitm, fwd)'
