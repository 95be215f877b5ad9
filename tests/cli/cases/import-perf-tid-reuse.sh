# Tids are reused: tid 11, a thread of process 10, is later the pid of a
# new process, and tid 12 a thread of process 10, then of process 20.
# perf names a thread by its (pid, tid) pair, as perf script shows it;
# the import keyed the samples' spans by tid alone, so process 11 got no
# comm.11 and no maps (its samples read [unknown]), and thread 20/12 no
# name of its own.
printf '%s\n' 'time,pid,tid,comm,addr,ip' '1000,10,10,main,0x1000,0x401000' \
	'1100,10,11,alpha,0x1040,0x401010' '1200,10,12,w1,0x1080,0x401020' \
	> $TMP/a.csv &&
printf '%s\n' 'time,pid,tid,comm,addr,ip' '2000,11,11,beta,0x2000,0x501000' \
	'2100,20,20,gamma,0x2040,0x601000' '2200,20,12,w2,0x2080,0x601010' \
	> $TMP/b.csv &&
pebs-import --meta maps.0.pid=10 --meta maps.0.start=0x400000 \
	--meta maps.0.end=0x402000 --meta maps.0.path=/bin/a \
	$TMP/a.csv -o $TMP/a.pebs &&
pebs-import --meta maps.0.pid=11 --meta maps.0.start=0x500000 \
	--meta maps.0.end=0x502000 --meta maps.0.path=/bin/b \
	--meta maps.1.pid=20 --meta maps.1.start=0x600000 \
	--meta maps.1.end=0x602000 --meta maps.1.path=/bin/c \
	$TMP/b.csv -o $TMP/b.pebs &&
cat $TMP/a.pebs $TMP/b.pebs | pebs-decode -f perf -o $TMP/r.data &&
pebs-import -f perf $TMP/r.data -o $TMP/r.pebs &&
pebs-decode -f csv --fields time,pid,tid,comm $TMP/r.pebs &&
echo "== each process's maps and names" &&
pebs-decode --info $TMP/r.pebs | grep -E '^  - pid:|path:' &&
pebs-decode --info $TMP/r.pebs | sed -n '/^  comm:/,/^  [a-z]/p'
