# Each remote load counts once by default: SNB's "remote DRAM (shared)"
# (0x13a68202042: REM_RAM1, remote bit, no hops, snoop HIT) is rmt_dram,
# not also rmt_hit; REM_RAM1 with snoop HITM or SNOOPX PEER stays rmt_dram;
# SKX's remote HITM (0x13668800042: any cache, remote) is rmt_hitm only;
# SKX's remote clean forward (0x17668000042: SNOOPX FWD) is rmt_hit.
# --perf-compat counts as perf does: each of the first four twice, the
# forward as rmt_dram (perf does not read FWD).
{
echo 'time,cpu,pid,tid,event,ip,addr,lat,dsrc'
echo '1,0,1,1,load-latency,0x401000,0x7f0000001000,300,0x13a68202042'
echo '2,0,1,1,load-latency,0x401000,0x7f0000002000,300,0x13a68802042'
echo '3,0,1,1,load-latency,0x401000,0x7f0000003000,300,0x1ba68102042'
echo '4,0,1,1,load-latency,0x401000,0x7f0000004000,300,0x13668800042'
echo '5,0,1,1,load-latency,0x401000,0x7f0000005000,300,0x17668000042'
} > $TMP/r.csv &&
pebs-import -f csv $TMP/r.csv -o $TMP/r.pebs &&
for o in "" --perf-compat; do
	echo "== ${o:-default}"
	pebs-c2c $o --show-all -f csv $TMP/r.pebs |
		cut -d, -f1,3,4,5,6,14,19 &&
	pebs-c2c $o --stats -f csv $TMP/r.pebs |
		grep -E '^(records|load|llc_misses|rmt_dram|rmt_hit|rmt_hitm),'
done
