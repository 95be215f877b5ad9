# The fix for false sharing, on lines built from TID:OFFSET:KIND:COUNT
# specs (store, or HITM load), one .pebs per line.
cd $TMP || exit 9
line() {
	local t=1000 tid off ev n a i
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc > s.csv
	for spec in "$@"; do
		IFS=: read tid off ev n <<<"$spec"
		a=$(printf 0x%x $((0x7f0000001000 + 0x$off)))
		for ((i = 0; i < n; i++)); do
			t=$((t + 7))
			if [ $ev = store ]; then
				echo "$t,$((tid % 2)),100,$tid,precise-store,0x401000,$a,0,0x80184"
			else
				echo "$t,$((tid % 2)),100,$tid,load-latency,0x401100,$a,200,0x10668800842"
			fi
		done
	done >> s.csv
	pebs-import -f csv -o s.pebs s.csv || exit 9
}
fix() {
	pebs-c2c "$@" s.pebs | grep -E '^  fix:'
}
# tid 11 stores to 0x00 and 0x10, unused bytes between, tid 12 to 0x20:
# no interleaving; one pad after 0x17 (the line less tid 11's 24-byte
# span) separates them, for 64- and 128-byte lines.
line 11:00:store:10 11:10:store:10 12:20:store:10 \
     11:00:load:10 11:10:load:10 12:20:load:10
fix
fix --line-size 128
# tid 1 writes 0x00, tid 2 and 3 only read 0x10 and 0x20: the readers'
# fields can share one line, only the written one needs its own.
line 1:00:store:10 1:00:load:10 2:10:load:10 3:20:load:10
fix
# tid 1 writes 0x00 (read by tid 2) and alone reads 0x20; tid 3's 0x30 is
# what falsely shares.  A pad after 0x07 would take 0x20 along to tid 3's
# line: the pad goes after 0x27.  Followed (0x30 -> 0x48), no line is
# false sharing.
line 1:00:store:20 2:00:load:20 1:20:load:30 3:30:store:10 3:30:load:5
fix | cut -d';' -f1
line 1:00:store:20 2:00:load:20 1:20:load:30 3:48:store:10 3:48:load:5
pebs-c2c s.pebs | grep -E '^  verdicts'
# tid 1 also writes 0x10, which only it uses: three written groups, every
# two in conflict, so no one pad does; each gets its own line.
line 1:00:store:20 2:00:load:20 1:10:store:30 1:10:load:10 \
     3:30:store:10 3:30:load:5 2:00:load:5
fix | cut -d';' -f1
line 1:00:store:20 2:00:load:20 1:40:store:30 1:40:load:10 \
     3:80:store:10 3:80:load:5 2:00:load:5
pebs-c2c s.pebs | grep -E '^  verdicts'
