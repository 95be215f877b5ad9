# pebs-decode -f perf gives samples a physical address (PERF_SAMPLE_PHYS_ADDR)
# only when the input has them: not for a capture without any (perf script
# -F phys_addr showed 0 for every sample), yes for one with a phys_addr
# column, and yes again for the perf import of such a file (its metadata
# says the event recorded them).  Read back: sample_type, phys_addr, flags.
cd $TMP || exit 9
printf 'time,cpu,pid,tid,event,ip,addr,lat,dsrc\n100,1,10,10,load-latency,0x401000,0x7f00,70,0x629800842\n200,0,10,10,load-latency,0x401004,0x7f08,5,0x629800842\n' > none.csv &&
printf 'time,cpu,pid,tid,event,ip,addr,lat,dsrc,phys_addr\n100,1,10,10,load-latency,0x401000,0x7f00,70,0x629800842,0\n200,0,10,10,load-latency,0x401004,0x7f08,5,0x629800842,0x12345f08\n' > phys.csv &&
show() {
	pebs-import -f perf $1 -o $1.pebs &&
	pebs-decode --info $1.pebs | grep -E '^      sample_type:' &&
	pebs-decode -f csv --fields time,phys_addr,flags $1.pebs
}
for f in none phys; do
	echo "== $f" &&
	pebs-import $f.csv -o $f.pebs &&
	pebs-decode -f perf $f.pebs -o $f.data && show $f.data &&
	pebs-decode -f perf $f.data.pebs -o $f.again && show $f.again || exit
done
# the same through a pipe (pipe layout: the attrs precede the samples)
for f in none phys; do
	pebs-decode -f perf $f.pebs | pebs-import -f perf |
		pebs-decode -f csv --fields phys_addr,flags | tail -1
done
