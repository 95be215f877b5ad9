# Several inputs into one perf.data (-f perf): each segment keeps its own
# metadata.  The writer once took the first input's for all: a command's
# samples after a built-in workload's lost their process name (perf showed
# ":TID") and their symbols (raw addresses), and ticks of a second clock
# were written as if in the first's.  Here a perf.data import (ns, real
# processes), a built-in workload (TSC ticks at 2 GHz, no maps) and a
# command (ticks, maps of its binary) go out in one file, and in one pipe;
# imported again, each sample has its process name, symbol and time in ns.
# Built-in workloads have no maps: perf sees no symbols for them.
root=$PWD
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$root/trace/pebs-trace.c" ||
	exit 9
cat > prog.c <<'C'
#include <pthread.h>
static volatile long a[1024];
static void *worker(void *p)
{
	long s = 0;
	for (int k = 0; k < 100; k++)
		for (int i = 0; i < 1024; i++)
			s += a[i];
	return p;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	pthread_join(t, 0);
	return 0;
}
C
cc -O1 -g -fsanitize=thread -c -o prog.o prog.c &&
	cc -o prog prog.o rt.o -pthread -ldl || exit 9
pebs-import -f perf "$root/$TD/perf/skx-load-latency.perf.data" \
	-o perf.pebs || exit 9
pebs-capture -b sim --workload false-sharing -c 997 -o run.pebs \
	2>/dev/null || exit 9
pebs-capture -b sim --uarch skx -e load-latency -c 97 -o prog.pebs \
	-- ./prog 2>/dev/null || exit 9
# What each sample should be in perf: time in ns (ticks / 2 at 2 GHz),
# pid, tid, comm, and the symbol (none for the built-in workload).
f=time,pid,tid,comm,sym
want() { pebs-decode -f csv --no-header --fields $f "$1" 2>/dev/null |
	awk -F, -v OFS=, -v div="$2" -v nosym="$3" \
		'{ $1 = sprintf("%.0f", int($1 / div)); if (nosym) $5 = "[unknown]"; print }'; }
{ want perf.pebs 1 0; want run.pebs 2 1; want prog.pebs 2 0; } > want.csv
got() { pebs-decode -f csv --no-header --fields $f "$1" 2>/dev/null; }
pebs-decode -f perf perf.pebs run.pebs prog.pebs -o all.data &&
pebs-import -f perf all.data -o all.pebs && got all.pebs > file.csv &&
cmp want.csv file.csv && echo "file: every sample's time, comm, symbol" &&
cat perf.pebs run.pebs prog.pebs | pebs-decode -f perf | pebs-import -f perf |
	got - > pipe.csv &&
cmp want.csv pipe.csv && echo "pipe: every sample's time, comm, symbol"
echo "rc=$?"
# the command's segment, as perf shows it: its name and its function
awk -F, '$4 == "prog" { sub(/\+.*/, "", $5); print $4, $5 }' file.csv |
	sort -u
# Both segments with the same maps: each map once (the import would list
# a map written twice twice).
pebs-decode -f perf prog.pebs prog.pebs | pebs-import -f perf |
	pebs-decode --info - | grep -c '^    path: ' > twice.txt
pebs-decode -f perf prog.pebs | pebs-import -f perf | pebs-decode --info - |
	grep -c '^    path: ' | cmp - twice.txt && echo "maps: once each"
# What one perf.data cannot hold is refused (exit 2): an event name with
# other attributes, times of unknown rate after nanoseconds, an object
# with another build-id.
pebs-capture -b sim --workload false-sharing -e load-latency:ldlat=30 \
	-c 997 -o ldlat30.pebs 2>/dev/null || exit 9
pebs-decode -f perf run.pebs ldlat30.pebs -o x.data; echo "rc=$?"
printf 'time,pid,tid,ip\n1,7,7,0x401000\n' > s.csv
pebs-import s.csv -o nounit.pebs &&
pebs-decode -f perf perf.pebs nounit.pebs > x.data; echo "rc=$?"
for id in 0123456789abcdef0123456789abcdef01234567 \
	  89abcdef0123456789abcdef0123456789abcdef; do
	pebs-import s.csv --meta time.unit=ns --meta maps.0.pid=7 \
		--meta maps.0.start=0x401000 --meta maps.0.end=0x402000 \
		--meta maps.0.path=/opt/lib.so --meta maps.0.build_id=$id
done > ids.pebs
pebs-decode -f perf < ids.pebs > x.data; echo "rc=$?"
# three and more segments without build-ids: the table stays (a
# realloc to 0 bytes freed it, and the third segment freed it again)
for i in 1 2 3 4; do pebs-gen -n 500 --seed $i -o g$i.pebs || exit 9; done
cat g1.pebs g2.pebs g3.pebs g4.pebs | pebs-decode -f perf -o k.data
echo "four segments: rc=$?"
pebs-import -f perf k.data | pebs-decode --info | grep -E '^  samples:'
