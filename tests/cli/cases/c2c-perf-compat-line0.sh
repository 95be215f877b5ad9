# --perf-compat: line 0 (address 0) counts the samples without an address
# as perf 6.1's Shared Data Cache Line Table does: the store without an
# address is one of its stores (perf: Total Stores 1), the load without an
# address changes neither its records nor its loads.  Without
# --perf-compat they are on no line (stores 0).
printf 'time,cpu,pid,tid,event,ip,addr,lat,dsrc\n1,0,10,11,load-latency,0x401000,0x10,300,0x668800842\n2,0,10,11,precise-store,0x401000,0x0,0,0x4080144\n3,0,10,11,load-latency,0x401000,0x0,300,0x668100142\n' |
	pebs-import -f csv -o $TMP/l0.pebs &&
for m in "" --perf-compat; do
	echo "== ${m:-default}"
	pebs-c2c $m -f csv $TMP/l0.pebs | cut -d, -f1-9,17,23
	pebs-c2c $m -f yaml $TMP/l0.pebs | grep -E '^    (tot_|store|load|st_noadrs|ld_noadrs)'
done
