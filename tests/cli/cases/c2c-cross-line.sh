# Accesses that cross a line end (only a given --access-size makes them):
# tid 1 stores and loads 8 bytes at 0x3c of one line, tid 2 the first 8
# bytes of the next.  Each sample counts, clipped, on the line of its
# address, so each line has one thread: the reason says that the other
# side was sampled across the line end, and the evidence which part
# counted where; auto sizes (4 bytes at 0x3c) cross nothing.
cd $TMP || exit 9
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	t=1000
	for i in 1 2 3 4 5; do
		echo "$((t += 7)),0,100,1,precise-store,0x401000,0x7f000000103c,0,0x80184"
		echo "$((t += 7)),0,100,1,load-latency,0x401100,0x7f000000103c,200,0x10668800842"
		echo "$((t += 7)),1,100,2,precise-store,0x401040,0x7f0000001040,0,0x80184"
		echo "$((t += 7)),1,100,2,load-latency,0x401140,0x7f0000001040,200,0x10668800842"
	done
} > s.csv
pebs-import -f csv -o s.pebs s.csv || exit 9
for o in "--access-size 8" ""; do
	echo "== $o"
	pebs-c2c $o s.pebs | grep -E '^(Line|  verdict:|  evidence:)'
done
# a sample of another process on the line before is named with its pid
sed -i 's/^\([0-9]*\),0,100,1,/\1,0,300,1,/' s.csv
pebs-import -f csv s.csv | pebs-c2c --access-size 8 | grep -E '^  verdict:'
