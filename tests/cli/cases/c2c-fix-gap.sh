# The fix when one thread's fields have unused bytes between them: tid 11
# stores to 0x00 and 0x10, tid 12 to 0x20, each with HITM loads on its own
# offsets.  The groups do not interleave: one pad after 0x17 (the line less
# tid 11's 24-byte span) separates them, for 64- and 128-byte lines.
cd $TMP || exit 9
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	t=1000
	for spec in 11:0:store 11:10:store 12:20:store \
		    11:0:load 11:10:load 12:20:load; do
		IFS=: read tid off ev <<<"$spec"
		a=$(printf 0x%x $((0x7f0000001000 + 0x$off)))
		for i in 1 2 3 4 5 6 7 8 9 10; do
			t=$((t + 7))
			if [ $ev = store ]; then
				echo "$t,$((tid % 2)),100,$tid,precise-store,0x401000,$a,0,0x80184"
			else
				echo "$t,$((tid % 2)),100,$tid,load-latency,0x401100,$a,200,0x10668800842"
			fi
		done
	done
} > s.csv
pebs-import -f csv -o s.pebs s.csv || exit 9
for L in 64 128; do
	pebs-c2c --line-size $L s.pebs | grep -E '^  (verdict|fix):' |
		cat
done
