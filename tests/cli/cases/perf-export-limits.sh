# What one perf.data of pebs-decode -f perf cannot hold stops the output
# with exit 2 before it, the file still a valid perf.data of what came
# before.  A 4097th event name exited 3 (an I/O error's status) and left
# a header of zeros ("bad perf.data header"); a refused segment left the
# same; TSC ticks that are 2^64 ns or more wrapped silently to an early
# time.
cd $TMP || exit 9
{ echo time,pid,tid,ip,event
  for i in $(seq 0 4096); do echo $((i + 1)),7,7,0x401000,e$i; done
} > ev.csv
pebs-import -f csv ev.csv -o ev.pebs || exit 9
pebs-decode -f perf ev.pebs -o ev.data
echo "events, file: rc=$?"
pebs-decode -f perf ev.pebs | cat > ev.pipe
echo "events, pipe: rc=$?"
for f in ev.data ev.pipe; do
	pebs-import -f perf $f -o - | pebs-decode --info - |
		grep -E '^  samples:|^    (first|last):'
done
# the metadata over the limit: refused before its first sample; a file
# of no samples is valid (a data size of 0 read as a file never finished)
printf 'time,pid,tid,ip\n1,7,7,0x401000\n' > s.csv
for i in $(seq 0 4096); do echo "--meta events.$i.name=m$i"; done > args
pebs-import s.csv --meta time.unit=ns $(cat args) -o meta.pebs || exit 9
pebs-decode -f perf meta.pebs -o meta.data
echo "metadata events: rc=$?"
pebs-import -f perf meta.data | pebs-decode --info | grep -E '^  samples:'
pebs-import s.csv --meta time.unit=ns -o one.pebs || exit 9
cat one.pebs meta.pebs | pebs-decode -f perf -o meta2.data
echo "metadata events after a segment: rc=$?"
pebs-import -f perf meta2.data | pebs-decode --info | grep -E '^  samples:'
# a refused segment: the one before it is whole
pebs-gen -n 50 --seed 1 -o g.pebs || exit 9
pebs-import s.csv -o nounit.pebs || exit 9
pebs-decode -f perf g.pebs nounit.pebs -o seg.data 2>/dev/null
echo "segment refused: rc=$?"
pebs-import -f perf seg.data | pebs-decode --info | grep -E '^  samples:'
# times: exact (integers: a double gave ...496), refused from 2^64 ns on
printf 'time,pid,tid,ip\n55340232221,7,7,0x401000\n' > e.csv
pebs-import -f csv --meta time.unit=tsc --meta tsc.hz=3 e.csv |
	pebs-decode -f perf | pebs-import -f perf |
	pebs-decode -f csv --no-header --fields time
{ echo time,pid,tid,ip
  printf '%s,7,7,0x401000\n' 18446744073709551 18446744073709552 \
	18446744073707980950
} > t.csv
pebs-import -f csv --meta time.unit=tsc --meta tsc.hz=1000000 t.csv \
	-o t.pebs || exit 9
pebs-decode -f perf t.pebs -o t.data
echo "times: rc=$?"
pebs-import -f perf t.data | pebs-decode -f csv --no-header --fields time
