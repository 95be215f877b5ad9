#!/bin/bash
# Golden CLI tests.  Each case is tests/cli/cases/NAME.sh, a shell snippet run
# from the repository root with the tools first on PATH, $TMP a fresh
# scratch directory and $TD the testdata directory.  Expected standard
# output, standard error and exit status are NAME.out, NAME.err and NAME.rc.
#   run.sh BINDIR [NAME...]            compare (all cases, or those named)
#   run.sh --update BINDIR [NAME...]   rewrite the expected files (review
#                                      the diff)
set -u
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
bindir=$(cd "${1:?usage: run.sh [--update] BINDIR [NAME...]}" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
pass=0 fail=0 failed=""
cases=()
if [ $# -gt 0 ]; then
	for n in "$@"; do cases+=("tests/cli/cases/${n%.sh}.sh"); done
else
	cases=(tests/cli/cases/*.sh)
fi
for t in "${cases[@]}"; do
	name=${t%.sh}
	tmp=$(mktemp -d)
	PATH="$bindir:$PATH" TMP="$tmp" TD="testdata" LC_ALL=C \
		bash -o pipefail "$t" >"$tmp/.out" 2>"$tmp/.err" </dev/null
	echo $? >"$tmp/.rc"
	if [ $update = 1 ]; then
		cp "$tmp/.out" "$name.out"; cp "$tmp/.err" "$name.err"
		cp "$tmp/.rc" "$name.rc"
	fi
	ok=1
	for x in out err rc; do
		if [ ! -f "$name.$x" ] || ! cmp -s "$tmp/.$x" "$name.$x"; then
			ok=0
			echo "--- $name.$x differs:"
			diff -u "$name.$x" "$tmp/.$x" 2>&1 | head -20
		fi
	done
	if [ $ok = 1 ]; then pass=$((pass+1)); else
		fail=$((fail+1)); failed="$failed $name"; fi
	rm -rf "$tmp"
done
echo "cli: $pass passed, $fail failed"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
