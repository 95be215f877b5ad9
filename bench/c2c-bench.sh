#!/bin/bash
# pebs-c2c benchmark: samples/s and peak RSS on N random samples (default
# 1M; 4096 lines x 8 offsets x 32 threads, every perf c2c class).  Not a
# test: results go to bench/RESULTS-c2c.md by hand, with the machine.
#   bench/c2c-bench.sh BINDIR [N]
set -eu
bin=${1:?usage: c2c-bench.sh BINDIR [N]}
n=${2:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$(dirname "$0")/c2c-mkdata.py" bench "$n" > "$tmp/b.csv"
"$bin/pebs-import" -f csv -o "$tmp/b.pebs" "$tmp/b.csv"
echo "input: $n samples, $(stat -c %s "$tmp/b.pebs") bytes .pebs"
run() {
	local what=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" > "$tmp/out"
	read -r secs usr sys kb < "$tmp/t"
	awk -v w="$what" -v s="$secs" -v u="$usr" -v y="$sys" -v k="$kb" \
	    -v n="$n" 'BEGIN { c = u + y
		printf "%-30s wall %6.2f s cpu %6.2f s %9.0f samples/cpu-s " \
		"%7.1f MiB peak RSS\n", w, s, c, (c > 0 ? n / c : 0),
		k / 1024 }'
}
for i in 1 2 3; do
	run "text report (file, mmap)" "$bin/pebs-c2c" "$tmp/b.pebs"
done
run "text report (pipe)" sh -c "cat '$tmp/b.pebs' | '$bin/pebs-c2c'"
run "csv report" "$bin/pebs-c2c" -f csv "$tmp/b.pebs"
run "yaml result (all cells)" "$bin/pebs-c2c" -f yaml "$tmp/b.pebs"
cp "$tmp/out" "$tmp/b.yaml"
echo "yaml result: $(stat -c %s "$tmp/b.yaml") bytes"
run "merge of that yaml -> text" "$bin/pebs-c2c" --merge "$tmp/b.yaml"
