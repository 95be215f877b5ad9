# The text line table has a column for every source of a load, in perf c2c
# report's order (stores: L1 hit, L1 miss, N/A; loads: fill buffer, L1,
# L2, LLC, remote cache HIT, local and remote DRAM; the HITMs before), so
# loads and records add up; cyc% is the share of the cycles lost, in the
# order of the rows (line 2 has more HITMs, line 1 more cycles).  One load
# of each source on line 1, a SNOOPX FWD remote forward (0x17668000042)
# counted as rmt_hit.
cat > $TMP/c.csv <<'CSV'
time,cpu,pid,tid,event,ip,addr,lat,dsrc
1,0,1,1,load-latency,0x401000,0x7f0000001000,10,0x80242
2,0,1,1,load-latency,0x401000,0x7f0000001000,10,0x80242
3,0,1,1,load-latency,0x401004,0x7f0000001000,4,0x80142
4,0,1,1,load-latency,0x401008,0x7f0000001000,12,0x80442
5,0,1,1,load-latency,0x40100c,0x7f0000001000,40,0x100842
6,1,1,2,load-latency,0x401010,0x7f0000001008,500,0x800842
7,1,1,2,load-latency,0x401010,0x7f0000001008,500,0x13668800042
8,1,1,2,load-latency,0x401014,0x7f0000001008,300,0x17668000042
9,1,1,2,load-latency,0x401018,0x7f0000001008,250,0x401042
10,1,1,2,load-latency,0x40101c,0x7f0000001008,400,0x13a68100042
11,0,1,1,precise-store,0x401020,0x7f0000001000,0,0x80144
12,0,1,1,precise-store,0x401020,0x7f0000001000,0,0x80184
13,1,1,2,precise-store,0x401024,0x7f0000001008,0,0x80024
14,0,1,1,load-latency,0x401100,0x7f0000002000,100,0x800842
15,1,1,2,load-latency,0x401100,0x7f0000002000,100,0x800842
16,0,1,1,load-latency,0x401100,0x7f0000002000,100,0x800842
CSV
pebs-import -f csv $TMP/c.csv | pebs-c2c > $TMP/out &&
sed -n '/^Cache lines/,/^$/p' $TMP/out &&
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ {
	ld = $14 + $15 + $16 + $17 + $6 + $18 + $7 + $19 + $20
	print "line " $1 ": loads " $9 ", sources " ld ", recs " $8 \
	    ", loads+stores " $9 + $11 + $12 + $13 ", cyc% " $4
}' $TMP/out
