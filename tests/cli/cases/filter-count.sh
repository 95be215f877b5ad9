# --count over the language's pieces (each line: expression, matches)
f=$TD/good/filter-hist-2k.pebs
for e in 'true' 'false' 'lat > 200' 'lat >= 0x10 and lat < 1k' \
	'lat in 100..400' 'not (lat in 100..400)' 'mem in (L3, LOCAL_RAM)' \
	'mem == l1 or mem == "LFB"' 'snoop != none' 'op == store' 'store' \
	'load' 'hitm' 'remote' 'dram' 'l1' 'lfb' 'l2' 'l3' 'stlb_miss' \
	'locked' 'event == "precise-store"' 'event in (load-latency)' \
	'cpu in (0, 1, 2..5)' 'tid != pid' 'line(addr) == line(addr)' \
	'page(addr) == 0' 'addr' '!addr' 'lat > 100 && (hitm || dram)' \
	't < 500us' 't >= 1ms' 't in 0.5ms..1.5ms' 'time > 1004000000'; do
	printf '%-34s %s\n' "$e" "$(pebs-filter --count "$e" $f)"
done
