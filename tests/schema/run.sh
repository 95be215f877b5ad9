#!/bin/sh
# Checks that what pebs-hist -f yaml and pebs-c2c -f yaml write validates
# against schemas/ (make schema, part of make check), on outputs that use
# every optional key: percentiles, unmeasured, groups of every kind, a
# result of --merge, c2c's other_at, workload_ips, !!binary names, short
# lines, line size 128.  Needs /usr/bin/python3 with python3-yaml and
# python3-jsonschema (scripts/deps.sh --test).
#   tests/schema/run.sh BUILD_DIR
set -u
B=${1:-build}
bin=$B/bin
py=/usr/bin/python3
if ! $py -c 'import yaml, jsonschema' 2>/dev/null; then
	echo "schema: $py lacks yaml or jsonschema: run scripts/deps.sh" \
	     "--test (python3-yaml, python3-jsonschema)" >&2
	exit 1
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
run() {	# OUT COMMAND...: the command's output into $T/OUT
	out=$1
	shift
	if ! "$@" > "$T/$out" 2> "$T/$out.err"; then
		echo "schema: failed: $*" >&2
		cat "$T/$out.err" >&2
		fail=1
	fi
}
"$bin/pebs-gen" -n 20000 --seed 3 -o "$T/g.pebs" || exit 1
# --show-all lists every line: of 20000 samples, 13 MB of YAML that took
# the validator 50 s; 1000 samples use the same keys
"$bin/pebs-gen" -n 1000 --seed 3 -o "$T/g1k.pebs" || exit 1
"$bin/pebs-capture" --workload false-sharing -d 1 -o "$T/fs.pebs" 2>/dev/null ||
	exit 1
"$bin/pebs-capture" --workload true-sharing -d 1 -o "$T/ts.pebs" 2>/dev/null ||
	exit 1
"$bin/pebs-import" -o "$T/empty.pebs" testdata/good/import-header-only.csv ||
	exit 1
# a locked sample with an address, neither load nor store (other_at); a
# map path that is not UTF-8 (!!binary)
printf 'time,pid,tid,ip,addr,dsrc\n1,7,7,0x401000,0x1000,0x2000001\n2,7,7,0x401000,0x1040,0x2000001\n' |
	"$bin/pebs-import" --meta maps.0.pid=7 --meta maps.0.start=0x400000 \
	--meta maps.0.end=0x402000 --meta maps.0.pgoff=0 \
	--meta "maps.0.path=/opt/$(printf '\377')bin" -o "$T/oa.pebs" || exit 1

h="$bin/pebs-hist -f yaml"
run h1.yaml $h "$T/g.pebs"
run h2.yaml $h --by mem --percentiles 50,90,99.9 "$T/g.pebs"
run h3.yaml $h --by event --bins linear:25 "$T/g.pebs"
run h4.yaml $h --field ins_lat --by cpu --bins 0,10,100,1000 "$T/g.pebs"
run h5.yaml $h --by sym "$T/fs.pebs"
run h6.yaml $h --by line --zeros "$T/ts.pebs"
run h7.yaml $h "$T/empty.pebs"
run h8.yaml $h --where 'lat > 100' --by snoop "$T/g.pebs"
run h9.yaml $h --by mem --merge "$T/h2.yaml" "$T/h2.yaml"
run h10.yaml $h --merge "$T/h8.yaml" "$T/h8.yaml"	# keeps where
c="$bin/pebs-c2c -f yaml"
run c1.yaml $c "$T/g.pebs"
run c2.yaml $c --show-all --line-size 128 "$T/g1k.pebs"
run c3.yaml $c --perf-compat -d rmt "$T/g.pebs"
run c4.yaml $c "$T/fs.pebs" "$T/ts.pebs"
run c5.yaml $c "$T/oa.pebs"
run c6.yaml $c "$T/empty.pebs"
run c7.yaml $c --merge "$T/c1.yaml" "$T/c4.yaml"
cat "$T/c4.yaml" "$T/c5.yaml" > "$T/c8.yaml"	# results concatenated
# the optional keys this checks must be there
for k in 'other_at:' 'workload_ips:' '!!binary'; do
	cat "$T"/c*.yaml | grep -q -- "$k" ||
		{ echo "schema: no c2c output has $k" >&2; fail=1; }
done
$py tests/schema/check.py schemas/hist-result.schema.json "$T"/h*.yaml ||
	fail=1
$py tests/schema/check.py schemas/c2c-result.schema.json "$T"/c*.yaml ||
	fail=1
n=$(ls "$T"/h*.yaml "$T"/c*.yaml | wc -l)
[ $fail = 0 ] && echo "schema: $n results valid"
exit $fail
