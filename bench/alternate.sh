#!/bin/bash
# Times one command with two builds, alternating them run by run so that
# both see the same phases of a shared machine; prints the best wall and
# CPU (user + sys) seconds of each and samples per CPU second.
#   bench/alternate.sh REPS SAMPLES OLD_BINDIR NEW_BINDIR TOOL [ARGS...]
# e.g. bench/alternate.sh 7 160000000 /tmp/old/build/bin build/bin \
#          pebs-hist -j2 -f csv in.pebs
set -eu
reps=$1 n=$2 old=$3 new=$4
shift 4
tool=$1
shift
t=$(mktemp)
trap 'rm -f "$t"' EXIT
declare -A wall cpu
for _ in $(seq "$reps"); do
	for v in old new; do
		dir=$old
		[ "$v" = new ] && dir=$new
		/usr/bin/time -o "$t" -f "%e %U %S" "$dir/$tool" "$@" >/dev/null
		read -r w u s <"$t"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		wall[$v]=$(awk -v a="$w" -v b="${wall[$v]:-1e9}" \
			'BEGIN { print a < b ? a : b }')
		cpu[$v]=$(awk -v a="$c" -v b="${cpu[$v]:-1e9}" \
			'BEGIN { print a < b ? a : b }')
	done
done
for v in old new; do
	awk -v v="$v" -v n="$n" -v w="${wall[$v]}" -v c="${cpu[$v]}" \
		'BEGIN { printf "%s: wall %.3f s, cpu %.3f s, %.1f M samples/cpu-s\n",
		v, w, c, (c > 0 ? n / c / 1e6 : 0) }'
done
