# A line touched by 200 threads: 196 readers (tid 1001-1196, one HITM load
# each, but tid 1150-1159 three) and four writers with high tids (9001-9004,
# stores).  The heat map draws 64 rows: the busiest (HITM loads + stores,
# then stores, then loads, ties by pid and tid), so the writers and the
# busier readers, then the first readers; rows in (pid, tid) order, and a
# note says how many threads were left out and by what rule.
cd $TMP || exit 9
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	t=1000
	for tid in $(seq 1001 1196); do
		n=1
		((tid >= 1150 && tid <= 1159)) && n=3
		for ((i = 0; i < n; i++)); do
			echo "$((t += 7)),$((tid % 8)),100,$tid,load-latency,0x401100,0x7f0000001000,200,0x10668800842"
		done
	done
	for tid in 9001 9002 9003 9004; do
		for i in 1 2 3 4 5; do
			echo "$((t += 7)),$((tid % 8)),100,$tid,precise-store,0x401000,$(printf 0x%x $((0x7f0000001000 + (tid - 9000) * 8))),0,0x80184"
		done
	done
} > s.csv
pebs-import -f csv -o s.pebs s.csv || exit 9
pebs-c2c -f svg s.pebs > r.svg || exit 9
rows() { grep -o 'tid [0-9]* (pid 100)</text>' "$1" | sed 's/tid \([0-9]*\).*/\1/' | tr '\n' ' '; echo; }
echo "svg rows: $(grep -c 'tid [0-9]* (pid 100)</text>' r.svg)"
rows r.svg
grep -o '<text x="4" y="[0-9]*">[0-9]* more threads[^<]*</text>' r.svg
grep -o '<text x="4" y="[0-9]*">are the busiest[^<]*</text>' r.svg
grep -o '<svg x="0" y="[0-9]*" width="[0-9]*" height="[0-9]*">' r.svg
pebs-c2c -f html s.pebs > r.html || exit 9
rows r.html
grep -o '>[0-9]* more threads[^<]*<' r.html
