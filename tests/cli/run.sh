#!/bin/bash
# Golden CLI tests.  Each case is tests/cli/cases/NAME.sh, a shell snippet run
# from the repository root with the tools first on PATH, $TMP a fresh
# scratch directory and $TD the testdata directory.  Expected standard
# output, standard error and exit status are NAME.out, NAME.err and NAME.rc.
#   run.sh BINDIR [NAME...]            compare (all cases, or those named)
#   run.sh --update BINDIR [NAME...]   rewrite the expected files (review
#                                      the diff)
# CLI_JOBS=N runs N cases at a time (default: the number of CPUs).
# CLI_CASE_LIMIT=S: a case running longer is stopped and fails (default
# 300 s; the slowest take about 15 s).
set -u
update=0
case_limit=${CLI_CASE_LIMIT:-300}
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
bindir=$(cd "${1:?usage: run.sh [--update] BINDIR [NAME...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cases=()
if [ $# -gt 0 ]; then
	for n in "$@"; do cases+=("tests/cli/cases/${n%.sh}.sh"); done
else
	cases=(tests/cli/cases/*.sh)
fi

# One case: runs it and compares (or, with --update, rewrites its expected
# files); the report, if any, goes to $2 so that cases run side by side
# report in order.
run_case() {
	local t=$1 rep=$2 name=${1%.sh} tmp x ok=1
	tmp=$(mktemp -d)
	# A case that hangs fails (exit 124) instead of hanging the suite.
	PATH="$bindir:$PATH" TMP="$tmp" TD="testdata" LC_ALL=C \
		timeout -k 10 "$case_limit" bash -o pipefail "$t" \
		>"$tmp/.out" 2>"$tmp/.err" </dev/null
	echo $? >"$tmp/.rc"
	if [ "$(cat "$tmp/.rc")" = 124 ]; then
		echo "--- $name: timed out after $case_limit s" >>"$rep"
	fi
	if [ $update = 1 ]; then
		cp "$tmp/.out" "$name.out"; cp "$tmp/.err" "$name.err"
		cp "$tmp/.rc" "$name.rc"
	fi
	for x in out err rc; do
		if [ ! -f "$name.$x" ] || ! cmp -s "$tmp/.$x" "$name.$x"; then
			ok=0
			{ echo "--- $name.$x differs:"
			  diff -u "$name.$x" "$tmp/.$x" 2>&1 | head -20
			} >>"$rep"
		fi
	done
	[ $ok = 1 ] || echo "$name" >>"$rep.failed"
	rm -rf "$tmp"
}

# Cases run CLI_JOBS at a time (default: the number of CPUs; make test on
# 2 cores spent a minute here one at a time).  Each has its own scratch
# directory, and none depends on another.
jobs=${CLI_JOBS:-$(nproc 2>/dev/null || echo 1)}
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
i=0
for t in "${cases[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	run_case "$t" "$reports/$(printf %05d $i)" &
	i=$((i+1))
done
wait
pass=0 fail=0 failed=""
for ((k = 0; k < i; k++)); do
	r=$reports/$(printf %05d $k)
	[ -f "$r" ] && cat "$r"
	if [ -f "$r.failed" ]; then
		fail=$((fail+1)); failed="$failed $(cat "$r.failed")"
	else
		pass=$((pass+1))
	fi
done
echo "cli: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
