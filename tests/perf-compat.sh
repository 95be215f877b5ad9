#!/bin/bash
# Checks our perf.data against the Linux perf tool itself (needs `perf`;
# not part of the golden CLI suite, which must pass without it):
#   tests/perf-compat.sh BINDIR
# 1. the checked-in goldens of perf script (real capture, perf record -z
#    capture) are current;
# 2. perf.data -> .pebs -> perf.data (file and pipe mode): perf script
#    prints the same sample fields as for the original;
# 3. perf mem report and perf c2c report accept our files;
# 4. the generated variants in testdata/perf are read by perf identically
#    (the pipe-mode big-endian one excepted: perf 6.1 does not swap samples
#    of a cross-endian pipe);
# 5. samples carry phys_addr only when the input has physical addresses;
# 6. samples without an event name are an event perf calls "pebs";
# 7. pebs-c2c --stats --perf-compat equals perf c2c report --stats on
#    random data sources and addresses (addresses 0 and below 64 too),
#    and so does every line of its Shared Data Cache Line Table (line 0
#    with the samples without an address).
# 8. round trips keep the cpumode and EXACT_IP (header.misc) and the
#    kernel's dso and build-id, a frequency-mode event's periods and event
#    count, and perf's order of samples recorded out of order.
# 9. round trips keep PERF_SAMPLE_TRANSACTION (abort flags and code), which
#    the .pebs holds as the TSX tuning field and AX.
# 10. several inputs in one perf.data: each sample as perf shows the export
#    of its input alone (time, comm, symbol).
# 11. a real `perf record -e cpu-clock` recording (kernel, dash, ld.so,
#    [vdso] and libc maps with build-ids) exported through pebs-import and
#    pebs-decode -f perf (file and pipe): perf script and perf mem report
#    read it with rc 0 and every sample, under valgrind where installed
#    (perf's heap overrun of a kernel-mode [vdso] build-id did not always
#    abort).  Skipped, with a note, where perf cannot record.
# 12. forked processes are named as perf names them (their parent's name
#    until an exec; the checked-in golden of a fork+exec recording is
#    current), and so is a fresh recording; samples of time 0 and 2^64-1
#    (which perf does not sort) keep their place in an export.
set -euo pipefail
bin=$(cd "${1:?usage: perf-compat.sh BINDIR}" && pwd)
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "perf-compat: no perf here" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=testdata/perf
F=pid,tid,cpu,time,ip,addr,weight,data_src
ps() { perf script --ns -F $F "$@" 2>/dev/null; }
fail=0
check() { if cmp -s "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1";
	{ diff "$2" "$3" || true; } | head -5; fail=1; fi; }

ps -i $T/skx-load-latency.perf.data > "$tmp/orig"
check "golden perf script output is current" $T/skx-load-latency.script \
	"$tmp/orig"
perf script --ns -F pid,tid,time,ip,addr -i $T/cpu-clock-zstd.perf.data \
	2>/dev/null > "$tmp/z"
check "golden of the compressed (perf record -z) capture is current" \
	$T/cpu-clock-zstd.script "$tmp/z"
"$bin/pebs-import" -f perf $T/skx-load-latency.perf.data -o "$tmp/a.pebs"
"$bin/pebs-decode" -f perf "$tmp/a.pebs" -o "$tmp/rt.data"
ps -i "$tmp/rt.data" > "$tmp/rt"
check "round trip (file): perf script fields" "$tmp/orig" "$tmp/rt"
"$bin/pebs-decode" -f perf "$tmp/a.pebs" | ps -i - > "$tmp/rtp"
check "round trip (pipe): perf script fields" "$tmp/orig" "$tmp/rtp"
cat $T/skx-load-latency.perf.data | "$bin/pebs-import" -f perf |
	"$bin/pebs-decode" -f perf | ps -i - > "$tmp/rtpp"
check "pipe in, pipe out" "$tmp/orig" "$tmp/rtpp"
ps -i $T/skx-be.perf.data > "$tmp/be"
check "perf reads skx-be" "$tmp/orig" "$tmp/be"
ps -i - < $T/skx-pipe.perf.data > "$tmp/pipe"
check "perf reads skx-pipe" "$tmp/orig" "$tmp/pipe"
# callchains change how perf script prints the ip: compare without it
ps2() { perf script --ns -F pid,tid,cpu,time,addr,weight,data_src "$@" \
	2>/dev/null | sed 's/ *$//'; }
ps2 -i $T/skx-weight-callchain.perf.data > "$tmp/wc"
ps2 -i $T/skx-load-latency.perf.data > "$tmp/o2"
check "perf reads skx-weight-callchain" "$tmp/o2" "$tmp/wc"
perf mem report -i "$tmp/rt.data" --stdio > "$tmp/mem" 2>&1
grep -q "^# Samples: 14 " "$tmp/mem" && echo "ok   perf mem report" ||
	{ echo "FAIL perf mem report"; head "$tmp/mem"; fail=1; }
perf c2c report -i "$tmp/rt.data" --stdio > "$tmp/c2c" 2>&1
grep -Eq "Total records +: +14" "$tmp/c2c" && echo "ok   perf c2c report" ||
	{ echo "FAIL perf c2c report"; head "$tmp/c2c"; fail=1; }
"$bin/pebs-gen" -n 2000 --seed 1 -o "$tmp/g.pebs"
"$bin/pebs-decode" -f perf "$tmp/g.pebs" -o "$tmp/g.data"
n=$(perf script -i "$tmp/g.data" -F ip 2>/dev/null | wc -l)
[ "$n" = 2000 ] && echo "ok   perf script reads a pebs-gen capture" ||
	{ echo "FAIL pebs-gen capture: $n samples"; fail=1; }
perf c2c report -i "$tmp/g.data" --stdio > "$tmp/gc2c" 2>&1
grep -Eq "Total records +: +2000" "$tmp/gc2c" &&
	echo "ok   perf c2c report on a pebs-gen capture" ||
	{ echo "FAIL perf c2c on pebs-gen"; head "$tmp/gc2c"; fail=1; }
# pipe mode: small topology, events named in band
n=$("$bin/pebs-decode" -f perf "$tmp/g.pebs" | perf script -i - -F event \
	2>/dev/null | wc -l)
[ "$n" = 2000 ] && echo "ok   perf script -i - reads a pebs-gen pipe stream" ||
	{ echo "FAIL pebs-gen pipe stream: $n samples"; fail=1; }
"$bin/pebs-import" -f perf $T/gen-two-events-lost.perf.data |
	"$bin/pebs-decode" -f perf | perf script -i - -F event 2>/dev/null |
	sort | uniq -c | awk '{print $1}' | sort -n | tr '\n' ' ' > "$tmp/ev"
[ "$(cat "$tmp/ev")" = "4 8 " ] && echo "ok   two events through a pipe" ||
	{ echo "FAIL two events: $(cat "$tmp/ev")"; fail=1; }
# PERF_SAMPLE_PHYS_ADDR only for an input with physical addresses: perf
# script -F phys_addr refuses a capture without (it showed 0 per sample)
"$bin/pebs-gen" -n 20 --seed 1 -o "$tmp/np.pebs"
"$bin/pebs-decode" -f perf "$tmp/np.pebs" -o "$tmp/np.data"
if perf script -i "$tmp/np.data" -F phys_addr >/dev/null 2>&1; then
	echo "FAIL phys_addr exported for a capture without"; fail=1
else echo "ok   no phys_addr for a capture without"; fi
printf 'time,event,addr,phys_addr\n1,load-latency,0x7f00,0x12345f00\n' |
	"$bin/pebs-import" -o "$tmp/p.pebs"
"$bin/pebs-decode" -f perf "$tmp/p.pebs" -o "$tmp/p.data"
[ "$(perf script -i "$tmp/p.data" -F phys_addr 2>/dev/null | tr -d ' ')" \
	= 12345f00 ] && echo "ok   phys_addr for a capture with" ||
	{ echo "FAIL phys_addr of a capture with"; fail=1; }
# samples without an event name: perf sees an event called "pebs"
printf 'time,addr\n1,0x7f00\n' | "$bin/pebs-import" -o "$tmp/u.pebs"
"$bin/pebs-decode" -f perf "$tmp/u.pebs" -o "$tmp/u.data"
[ "$(perf script -i "$tmp/u.data" -F event 2>/dev/null | tr -d ' ')" \
	= pebs: ] && echo "ok   an unnamed event is pebs to perf" ||
	{ echo "FAIL unnamed event"; fail=1; }
# random samples: every data source field, 20 in 20 addresses 0 or
# below 64, the rest on N lines
c2c_random() {
	awk -v n="$1" -v seed="$2" -v nl="$3" '
	function r(k) { return int(rand() * k) }
	function bits(w, p,   v, i) { v = 0
		for (i = 0; i < w; i++) if (rand() < p) v += 2 ^ i; return v }
	BEGIN { srand(seed); print "time,cpu,pid,tid,event,ip,addr,lat,dsrc"
		split("1 2 4 8 16 0 2 2 4 6", ops, " ")
		for (i = 1; i <= n; i++) {
			op = ops[1 + r(10)]
			# bits 0-31, and 32-45 as two numbers (awk: 32 bits)
			lo = op + bits(14, 0.2) * 2^5 + bits(5, 0.3) * 2^19 + \
			     r(4) * 2^24 + bits(6, 0.2) * 2^26
			hi = r(2) + r(16) * 2 + r(2) * 2^5 + r(4) * 2^6 + \
			     r(8) * 2^8 + r(8) * 2^11
			a = r(20)
			addr = a == 0 ? "0" : a == 1 ? sprintf("0x%x", 1 + r(63)) : \
			       sprintf("0x7f00000%05x", r(nl) * 64 + r(64))
			printf "%d,%d,100,%d,%s,0x%x,%s,%d,0x%x%08x\n", i, r(4),
			       1000 + r(4), op == 4 ? "precise-store" : \
			       "load-latency", 4198400 + r(16) * 16, addr,
			       r(500), hi, lo } }'
}
for args in "20000 1 16" "20000 2 3000"; do
	c2c_random $args | "$bin/pebs-import" -f csv -o "$tmp/r.pebs"
	"$bin/pebs-decode" -f perf "$tmp/r.pebs" -o "$tmp/r.data"
	# perf's -nan% and No Page Map Rejects are documented differences
	perf c2c report --stdio --stats -i "$tmp/r.data" 2>/dev/null |
		grep ' : ' | grep -v -e Events -e 'Cachelines sort' \
		-e 'data grouping' -e '^  *: ' -e 'No Page' -e 'nan%' \
		> "$tmp/rp"
	"$bin/pebs-c2c" --stats --perf-compat "$tmp/r.pebs" | grep ' : ' |
		grep -v -e 'No Page' -e 'n/a' > "$tmp/ro"
	check "pebs-c2c --stats --perf-compat on random samples ($args)" \
		"$tmp/rp" "$tmp/ro"
done
# the Shared Data Cache Line Table, line by line (perf lists by HITM,
# pebs-c2c by cycles: sorted by address), line 0 with the samples without
# an address: perf's Address, HITM (total, Lcl, Rmt), records, loads,
# stores, the store and load levels, against the same columns of the CSV
c2c_random 20000 7 40 | "$bin/pebs-import" -f csv -o "$tmp/r.pebs"
"$bin/pebs-decode" -f perf "$tmp/r.pebs" -o "$tmp/r.data"
perf c2c report --stdio -i "$tmp/r.data" 2>/dev/null |
	sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution/p' |
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { $1 = $3 = $4 = $5 = ""
		$0 = $0; $1 = $1; print }' | sort > "$tmp/lp"
"$bin/pebs-c2c" --perf-compat -f csv "$tmp/r.pebs" | awk -F, 'NR > 1 {
	print $1, $2, $3, $4, $5, $6, $7, $8, $9, $17, $18, $10, $11, $12,
	      $3, $19, $4, $13, $14 }' | sort > "$tmp/lo"
if grep -q '^0x0 ' "$tmp/lp"; then
	check "pebs-c2c --perf-compat lines = perf's Shared Data Cache Line Table" \
		"$tmp/lp" "$tmp/lo"
else echo "FAIL line table: perf lists no line 0"; fail=1; fi
# header.misc (cpumode, EXACT_IP), the kernel's dso and its build-id
misc() { perf report -D -i "$1" 2>/dev/null |
	grep -o 'PERF_RECORD_SAMPLE([^)]*)' | sort | uniq -c; }
misc $T/skx-load-latency.perf.data > "$tmp/m0"
misc "$tmp/rt.data" > "$tmp/m1"
check "round trip: sample cpumode and EXACT_IP" "$tmp/m0" "$tmp/m1"
pss() { perf script --ns -F ip,sym,dso "$@" 2>/dev/null; }
pss -i $T/skx-load-latency.perf.data > "$tmp/s0"
pss -i "$tmp/rt.data" > "$tmp/s1"
check "round trip: kernel samples in [kernel.kallsyms]" "$tmp/s0" "$tmp/s1"
# frequency mode: per-sample periods, the event count, the attr
"$bin/pebs-import" -f perf $T/cpu-clock-zstd.perf.data -o "$tmp/z.pebs"
"$bin/pebs-decode" -f perf "$tmp/z.pebs" -o "$tmp/z.data"
fq() { perf script -F period -i "$1" 2>/dev/null
	perf report --stdio -i "$1" 2>/dev/null | grep 'Event count'
	perf evlist -v -i "$1" 2>/dev/null | grep -o 'sample_freq }: [0-9]*'
	misc "$1"; }
fq $T/cpu-clock-zstd.perf.data > "$tmp/f0"
fq "$tmp/z.data" > "$tmp/f1"
check "round trip (freq): periods, event count, sample_freq" "$tmp/f0" \
	"$tmp/f1"
# samples perf itself showed out of order keep their place
po() { perf script --ns -F event,time,ip "$@" 2>/dev/null; }
po -i $T/gen-two-events-lost.perf.data > "$tmp/o0"
"$bin/pebs-import" -f perf $T/gen-two-events-lost.perf.data -o "$tmp/o.pebs"
"$bin/pebs-decode" -f perf "$tmp/o.pebs" -o "$tmp/o.data"
po -i "$tmp/o.data" > "$tmp/o1"
check "round trip: order of out-of-order samples" "$tmp/o0" "$tmp/o1"
"$bin/pebs-decode" -f perf "$tmp/o.pebs" | po -i - > "$tmp/o2"
check "round trip (pipe): order of out-of-order samples" "$tmp/o0" \
	"$tmp/o2"
# transaction: flags and XABORT codes as perf report shows them
tx() { perf report --stdio --sort transaction -i "$1" 2>/dev/null |
	grep -v '^#' | grep -v '^$'; }
tx $T/gen-transaction.perf.data > "$tmp/t0"
"$bin/pebs-import" -f perf $T/gen-transaction.perf.data -o "$tmp/t.pebs"
"$bin/pebs-decode" -f perf "$tmp/t.pebs" -o "$tmp/t.data"
tx "$tmp/t.data" > "$tmp/t1"
check "round trip: transaction flags and abort codes" "$tmp/t0" "$tmp/t1"
# several inputs in one file: each sample as the export of its own input
# alone shows it (a built-in workload in TSC ticks, then a perf import in
# ns with its processes and maps; the second once got the first's clock,
# and no COMM or MMAP2 records)
"$bin/pebs-capture" -b sim --workload false-sharing -c 997 \
	-o "$tmp/w.pebs" 2>/dev/null
sg() { perf script --ns -F comm,tid,time,ip,sym,dso "$@" 2>/dev/null; }
for x in w a; do
	"$bin/pebs-decode" -f perf "$tmp/$x.pebs" -o "$tmp/$x.alone.data"
	sg -i "$tmp/$x.alone.data"
done > "$tmp/s0"
"$bin/pebs-decode" -f perf "$tmp/w.pebs" "$tmp/a.pebs" -o "$tmp/s.data"
sg -i "$tmp/s.data" > "$tmp/s1"
check "several inputs: each sample as its input alone" "$tmp/s0" "$tmp/s1"
cat "$tmp/w.pebs" "$tmp/a.pebs" | "$bin/pebs-decode" -f perf | sg -i - \
	> "$tmp/s2"
check "several inputs (pipe): each sample as its input alone" "$tmp/s0" \
	"$tmp/s2"
# a real recording: what only perf record writes (FINISHED_INIT, the
# kernel's MMAP, a [vdso] MMAP2, build-ids of user and kernel objects)
if perf record -q -e cpu-clock -F 2000 -o "$tmp/rec.data" -- sh -c \
	'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' \
	> "$tmp/rec.err" 2>&1 && [ -s "$tmp/rec.data" ]; then
	vg=()
	if command -v valgrind >/dev/null; then
		vg=(valgrind -q --error-exitcode=99)
	else echo "note: no valgrind: perf's reads of the recording unchecked" \
		"for heap errors"; fi
	n=$(perf script -i "$tmp/rec.data" 2>/dev/null | grep -c cpu-clock) ||
		true
	"$bin/pebs-import" -o "$tmp/rec.pebs" "$tmp/rec.data"
	"$bin/pebs-decode" -f perf -o "$tmp/rec.x.data" "$tmp/rec.pebs"
	# perf's output, its rc (valgrind's 99 for a heap error) last
	rd() { ${vg[@]+"${vg[@]}"} perf "$@" 2>&1 && echo "rc 0" ||
		echo "rc $?"; }
	for how in file pipe mem; do
		case $how in
		file) rd script -i "$tmp/rec.x.data" > "$tmp/rd"
		      got=$(grep -c cpu-clock "$tmp/rd") || true ;;
		pipe) "$bin/pebs-decode" -f perf "$tmp/rec.pebs" |
			rd script -i - > "$tmp/rd"
		      got=$(grep -c cpu-clock "$tmp/rd") || true ;;
		mem) rd mem report --stdio -i "$tmp/rec.x.data" > "$tmp/rd"
		     got=$(sed -n 's/^# Samples: \([0-9]*\) .*/\1/p' "$tmp/rd") ;;
		esac
		if [ "$(tail -1 "$tmp/rd")" = "rc 0" ] && [ "$n" -gt 0 ] &&
		   [ "$got" = "$n" ]; then
			echo "ok   perf record -e cpu-clock round trip ($how)"
		else echo "FAIL perf record -e cpu-clock round trip ($how):" \
			"$(tail -1 "$tmp/rd"), samples $got of $n"
			grep -v cpu-clock "$tmp/rd" | head -5; fail=1; fi
	done
else echo "skip perf record -e cpu-clock round trip: perf cannot record" \
	"here: $(head -1 "$tmp/rec.err")"; fi
tc() { perf script -F tid,comm "$@" 2>/dev/null |
	sed -E 's/^ *(.*[^ ]) +([0-9]+) *$/\2 \1/'; }
ours() { "$bin/pebs-import" -f perf "$1" -o "$tmp/f.pebs" &&
	"$bin/pebs-decode" -f csv --fields tid,comm "$tmp/f.pebs" |
	tail -n +2 | tr , ' '; }
tc -i $T/cpu-clock-fork-exec.perf.data > "$tmp/f0"
check "golden of the fork+exec capture is current" \
	$T/cpu-clock-fork-exec.comm "$tmp/f0"
if perf record -q -e cpu-clock -c 200000 -o "$tmp/fr.data" -- sh -c \
	'(i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exec awk \
	"BEGIN{for(i=0;i<1500000;i++);}")' >/dev/null 2>&1; then
	tc -i "$tmp/fr.data" > "$tmp/f1"
	ours "$tmp/fr.data" > "$tmp/f2"
	check "fresh fork+exec recording: each sample's comm" "$tmp/f1" \
		"$tmp/f2"
else
	echo "skip fresh fork+exec recording (perf record failed)"
fi
# each sample's dso, across an exec (the maps before it serve the
# samples before it)
td() { perf script -F tid,comm,ip,dso "$@" 2>/dev/null |
	sed -E 's/^ *(.*[^ ]) +([0-9]+) +[0-9a-f]+ +\((.*)\) *$/\2 \1 \3/'; }
oursd() { "$bin/pebs-import" -f perf "$1" -o "$tmp/d.pebs" &&
	"$bin/pebs-decode" -f csv --fields tid,comm,dso "$tmp/d.pebs" \
	2>/dev/null | tail -n +2 | tr , ' '; }
td -i $T/cpu-clock-exec.perf.data > "$tmp/d0"
check "golden of the exec capture is current" $T/cpu-clock-exec.dso \
	"$tmp/d0"
"$bin/pebs-import" -f perf $T/cpu-clock-exec.perf.data -o "$tmp/e.pebs"
"$bin/pebs-decode" -f perf "$tmp/e.pebs" -o "$tmp/e.data"
td -i "$tmp/e.data" > "$tmp/d3"
check "exec capture through .pebs and back: each sample's dso" \
	$T/cpu-clock-exec.dso "$tmp/d3"
if perf record -q -e cpu-clock:u -c 200000 -o "$tmp/dr.data" -- perl -e \
	'my $s = 0; for (my $i = 0; $i < 3000000; $i++) { $s += $i }
	exec "awk", "BEGIN{for(i=0;i<3000000;i++)s+=i}"' >/dev/null 2>&1; then
	td -i "$tmp/dr.data" > "$tmp/d1"
	oursd "$tmp/dr.data" > "$tmp/d2"
	check "fresh exec recording: each sample's dso" "$tmp/d1" "$tmp/d2"
else
	echo "skip fresh exec recording (perf record failed)"
fi
printf '%s\n' time,pid,tid,comm,addr 100,10,10,a,0x1000 \
	18446744073709551615,10,10,a,0x2000 0,10,10,a,0x2800 \
	200,10,10,a,0x3000 > "$tmp/u.csv"
"$bin/pebs-import" "$tmp/u.csv" -o "$tmp/u.pebs"
"$bin/pebs-decode" -f perf "$tmp/u.pebs" -o "$tmp/u.data"
perf script -F addr -i "$tmp/u.data" 2>/dev/null | tr -d ' ' > "$tmp/u1"
printf '%s\n' 1000 2000 2800 3000 > "$tmp/u0"
check "untimed samples keep their place" "$tmp/u0" "$tmp/u1"
# leader sampling: each sample reads the group; perf script shows it once
# per member whose count grew, as the import keeps it (the import kept
# the leader's alone); with a plain event beside the group
pg() { perf script --ns -F tid,time,ip,event -i "$1" 2>/dev/null; }
if perf record -q -c 200000 -e '{cpu-clock,task-clock}:S' -e cpu-clock \
	-o "$tmp/g.data" -- perl -e \
	'my $s = 0; for (my $i = 0; $i < 3000000; $i++) { $s += $i }' \
	>/dev/null 2>&1; then
	pg "$tmp/g.data" > "$tmp/g0"
	"$bin/pebs-import" -f perf "$tmp/g.data" -o "$tmp/g.pebs"
	"$bin/pebs-decode" -f perf "$tmp/g.pebs" -o "$tmp/g2.data"
	pg "$tmp/g2.data" > "$tmp/g1"
	grep -q task-clock "$tmp/g0" ||
		{ echo "FAIL leader sampling: perf shows no member sample"
		  fail=1; }
	check "leader-sampled group: a sample per member, as perf script" \
		"$tmp/g0" "$tmp/g1"
else
	echo "skip leader-sampled group (perf record failed)"
fi
exit $fail
