#!/bin/bash
# pebs-c2c benchmark: CPU time (user+sys), samples per CPU-second and peak
# RSS on N samples (default 1M) of two inputs, and the same samples through
# `perf c2c report --stdio` (when perf is installed) for the comparison.
#   gen:   pebs-gen -n N --seed 1 (realistic: ~460k lines, few with HITM)
#   bench: bench/c2c-mkdata.py (4096 lines, all with HITM and all listed
#          with per-offset rows: the worst case for the report writers)
# Not a test: results go to bench/RESULTS-c2c.md by hand, with the machine.
#   bench/c2c-bench.sh BINDIR [N]
set -eu
bin=${1:?usage: c2c-bench.sh BINDIR [N]}
n=${2:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/pebs-gen" -n "$n" --seed 1 -o "$tmp/gen.pebs"
python3 "$(dirname "$0")/c2c-mkdata.py" bench "$n" > "$tmp/b.csv"
"$bin/pebs-import" -f csv -o "$tmp/bench.pebs" "$tmp/b.csv"
rm -f "$tmp/b.csv"
for f in gen bench; do
	echo "input $f: $n samples, $(stat -c %s "$tmp/$f.pebs") bytes .pebs"
done
run() {
	local what=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" > "$tmp/out"
	read -r secs usr sys kb < "$tmp/t"
	awk -v w="$what" -v s="$secs" -v u="$usr" -v y="$sys" -v k="$kb" \
	    -v n="$n" 'BEGIN { c = u + y
		printf "%-34s wall %6.2f s cpu %6.2f s %10.0f samples/cpu-s " \
		"%7.1f MiB peak RSS\n", w, s, c, (c > 0 ? n / c : 0),
		k / 1024 }'
}
for f in gen bench; do
	for i in 1 2 3; do
		run "$f: text report (file)" "$bin/pebs-c2c" "$tmp/$f.pebs"
	done
	run "$f: text report (pipe)" sh -c \
		"cat '$tmp/$f.pebs' | '$bin/pebs-c2c'"
	run "$f: csv report" "$bin/pebs-c2c" -f csv "$tmp/$f.pebs"
	run "$f: csv report --show-all" "$bin/pebs-c2c" --show-all -f csv \
		"$tmp/$f.pebs"
	run "$f: yaml result" "$bin/pebs-c2c" -f yaml "$tmp/$f.pebs"
	cp "$tmp/out" "$tmp/$f.yaml"
	echo "$f: yaml result: $(stat -c %s "$tmp/$f.yaml") bytes"
	run "$f: --merge of that yaml -> text" "$bin/pebs-c2c" --merge \
		"$tmp/$f.yaml"
	rm -f "$tmp/$f.yaml"
done
if command -v perf > /dev/null; then
	"$bin/pebs-decode" -f perf -o "$tmp/gen.perf" "$tmp/gen.pebs"
	run "gen: perf c2c report --stdio" perf c2c report --stdio \
		-i "$tmp/gen.perf"
	run "gen: pebs-c2c --perf-compat" "$bin/pebs-c2c" --perf-compat \
		"$tmp/gen.pebs"
else
	echo "perf not installed: no comparison"
fi
