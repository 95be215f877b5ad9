#!/bin/bash
# Fault injection: every tool run on small inputs with the Nth call of a
# function family made to fail (tests/fault/shim.c, LD_PRELOAD), for each
# N up to the number of such calls a clean run makes.  Each run must
#   - not die by a signal, time out or print a sanitizer report;
#   - exit 0, 1, 3 (or 4, pebs-capture only): an injected system failure
#     is never a usage error (2);
#   - when not 0, say why on standard error as "TOOL: ...";
#   - when 0, write exactly what the run without a fault wrote (the
#     failure was recovered, not ignored with wrong output).
#   run.sh BINDIR SHIM.so
# Environment:
#   FULL=1            every case, and up to 200 points per family (then a
#                     stride: about 100 more); without it, a smaller set
#                     (the default of `make test`)
#   FAULT_CASES="A B" only these cases
#   FAULT_POINT=FAM:N with one case: run only that point, keep its
#                     directory and show its output (to reproduce)
#   FAULT_JOBS=N      parallel runs (default 2)
set -u
bindir=$(cd "${1:?usage: run.sh BINDIR SHIM.so}" && pwd)
shim=$(cd "$(dirname "${2:?usage: run.sh BINDIR SHIM.so}")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
TD=$root/testdata
full=${FULL:-0}
jobs=${FAULT_JOBS:-2}
families="malloc read pread write open fopen mmap fread fwrite"
work=$(mktemp -d)
keep=0
trap '[ $keep = 1 ] || rm -rf "$work"' EXIT
export LC_ALL=C

# The cases: NAME|CHECK|STDIN|TOOL ARGS.  CHECK is how outputs are
# compared with the clean run: "raw" byte for byte, "pebs" after decoding
# every .pebs (stdout included) to CSV (a capture's metadata has the
# time).  STDIN: "-" none, "<FILE" a redirect, "cat:FILE" a pipe.  @TD@
# is testdata/, @IN@ the inputs made below; outputs go to the current
# directory.  Arguments are split on blanks, or on '~' where the line has
# one (an argument with blanks).  Quick cases (Q) run by default, the others with FULL=1.
cases_all() {
	cat <<'EOF'
Q decode-csv|raw|-|pebs-decode -f csv @IN@/gen.pebs
Q decode-yaml|raw|-|pebs-decode -f yaml -o out.yaml @IN@/gen.pebs
Q decode-jsonl-pipe|raw|cat:@IN@/gen.pebs|pebs-decode -f jsonl
F decode-pebs|raw|-|pebs-decode -f pebs -o out.pebs @IN@/gen.pebs @TD@/good/filter-hist-2k.pebs
Q decode-perf|raw|-|pebs-decode -f perf -o out.perf.data @IN@/gen.pebs
F decode-info|raw|-|pebs-decode --info @TD@/good/filter-hist-2k.pebs
F decode-raw|raw|-|pebs-decode -f csv --raw --uarch skl @TD@/good/raw-skl-ldlat.bin
Q filter|raw|-|pebs-filter~-o~out.pebs~lat >= 30 and op == load~@IN@/gen.pebs
F filter-csv|raw|<@IN@/gen.pebs|pebs-filter~-f~csv~mem in (L2, L3) or lat in 100..400
Q hist-text|raw|-|pebs-hist -f text @IN@/gen.pebs
F hist-yaml|raw|-|pebs-hist -f yaml --by mem -o out.yaml @IN@/gen.pebs
Q hist-merge|raw|-|pebs-hist --merge -f csv @IN@/h1.yaml @IN@/h2.yaml
Q c2c-text|raw|-|pebs-c2c -f text @TD@/good/filter-hist-2k.pebs
F c2c-yaml|raw|-|pebs-c2c -f yaml -o out.yaml @IN@/gen.pebs
Q c2c-merge|raw|-|pebs-c2c --merge -f text @IN@/c1.yaml @IN@/c2.yaml
F c2c-sym|raw|-|pebs-c2c -f text @IN@/ws.pebs
F decode-sym|raw|-|pebs-decode -f csv --fields ip,sym,srcline,dso @IN@/ws.pebs
F hist-sym|raw|-|pebs-hist -f text --by sym @IN@/ws.pebs
F filter-sym|raw|-|pebs-filter~-f~csv~sym == "fs_worker"~@IN@/ws.pebs
Q import-csv|raw|-|pebs-import -f csv -o out.pebs @TD@/good/decode-basic.csv
F import-csv-pipe|raw|cat:@TD@/good/import-quoting.csv|pebs-import -f csv
Q import-perf|raw|-|pebs-import -o out.pebs @IN@/gen.perf.data
F import-perf-real|raw|-|pebs-import -o out.pebs @TD@/perf/skx-weight-callchain.perf.data
Q capture-sim|pebs|-|pebs-capture -b sim --uarch skx --workload false-sharing --accesses 20k --seed 1 -o out.pebs
Q gen|raw|-|pebs-gen -n 300 --seed 1 --threads 2 -o out.pebs
EOF
}

# Inputs made once, without faults.
mk() { "$bindir/$1" "${@:2}" 2>"$work/mk.err" || {
	echo "fault: making an input failed: $*"; cat "$work/mk.err"; exit 2; }; }
IN=$work/in
mkdir -p "$IN"
mk pebs-gen -n 400 --seed 7 --threads 2 -o "$IN/gen.pebs"
mk pebs-decode -f perf -o "$IN/gen.perf.data" "$IN/gen.pebs"
mk pebs-hist -f yaml -o "$IN/h1.yaml" "$IN/gen.pebs"
mk pebs-hist -f yaml -o "$IN/h2.yaml" "$TD/good/filter-hist-2k.pebs"
mk pebs-c2c -f yaml -o "$IN/c1.yaml" "$IN/gen.pebs"
mk pebs-c2c -f yaml -o "$IN/c2.yaml" "$TD/good/filter-hist-2k.pebs"
# a workload's capture: its instructions named (workload.ips)
mk pebs-capture -b sim --uarch skx --workload false-sharing --accesses 200k \
	--seed 1 -o "$IN/ws.pebs"

# run_tool DIR SPEC: runs the current case ($tool, $args, $stdin) in DIR
# with PEBS_FAULT=SPEC ("" for none); DIR/.out .err .rc .report.
run_tool() {
	local dir=$1 spec=$2 out=.out
	rm -rf "$dir"
	mkdir -p "$dir"
	# stdout:full: no fault injected, standard output is /dev/full
	if [ "$spec" = stdout:full ]; then spec="" out=/dev/full; fi
	(
		cd "$dir" || exit 99
		export LD_PRELOAD=$shim PEBS_FAULT_PROG=$tool \
			PEBS_FAULT_REPORT=$dir/.report
		[ -n "$spec" ] && export PEBS_FAULT=$spec
		case $stdin in
		-) timeout -k 2 30 "$bindir/$tool" "${args[@]}" </dev/null ;;
		\<*) timeout -k 2 30 "$bindir/$tool" "${args[@]}" \
			<"${stdin#<}" ;;
		# cat is not $tool: the shim leaves it alone
		cat:*) cat "${stdin#cat:}" |
			timeout -k 2 30 "$bindir/$tool" "${args[@]}" ;;
		esac >$out 2>.err
		echo $? >.rc
		[ -f .out ] || : >.out
	)
	# A .pebs output is compared by what it holds: the writer may
	# store a block it could not compress (that is recovering), so
	# its bytes differ.  Its metadata (with "pebs", the capture's,
	# which has the time, is left out) and every field of every
	# sample.  start_time is when the run began.
	local f
	for f in "$dir"/.out "$dir"/*; do
		[ -f "$f" ] && [ "$(head -c 5 "$f" | tail -c 4)" = PEBS ] ||
			continue
		{
			[ "$check" = pebs ] ||
				"$bindir/pebs-decode" --info "$f" |
				sed -e '/^summary:/,$d' -e '/^file:/d' \
				    -e '/^  start_time:/d'
			"$bindir/pebs-decode" -f csv --fields all "$f"
		} >"$f.decoded" 2>&1 || echo "(not decodable)" >>"$f.decoded"
		mv "$f.decoded" "$f"
	done
}

# The outputs of a run, as one stream to compare.
outputs() {
	local dir=$1 f
	for f in "$dir"/.out "$dir"/*; do
		[ -f "$f" ] && { echo "== ${f##*/}"; cat "$f"; }
	done
	return 0
}

# check_point DIR BASE FAM N: the verdict of one faulted run; prints a
# violation line, nothing when fine.
check_point() {
	local dir=$1 base=$2 fam=$3 n=$4 rc why=""
	rc=$(cat "$dir/.rc")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="timed out (rc $rc)"
	elif [ "$rc" -ge 128 ]; then why="killed by signal $((rc - 128))"
	elif grep -qE 'Sanitizer|runtime error:' "$dir/.err"; then
		why="sanitizer report"
	elif [ "$rc" = 125 ]; then why="shim refused PEBS_FAULT"
	elif [ "$rc" = 2 ]; then why="usage exit 2 for a system failure"
	elif [ "$rc" = 4 ] && [ "$tool" != pebs-capture ]; then
		why="exit 4 outside pebs-capture"
	elif [ "$rc" -gt 4 ]; then why="exit $rc outside the contract"
	elif [ "$rc" != 0 ] && ! grep -q "^$tool: ." "$dir/.err"; then
		why="exit $rc without a '$tool: ...' message"
	elif [ "$fam" = stdout ] && [ "$rc" = 0 ] && [ -s "$base/.out" ]; then
		why="exit 0 though writing standard output failed"
	elif [ "$fam" = stdout ]; then
		why=""
	elif [ "$rc" = 0 ] && ! cmp -s <(outputs "$dir") <(outputs "$base")
	then
		why="exit 0 with output unlike the clean run's"
	fi
	[ -z "$why" ] && return 0
	local msg
	msg=$(grep -v '^$' "$dir/.err" | head -2 | tr '\n' ' ')
	printf '%s %s:%s: %s [%s]\n' "$name" "$fam" "$n" "$why" "$msg"
}

# The points to try of a family that a clean run calls @count times.
points() {
	local count=$1 first=$2 more=$3 n
	for ((n = 1; n <= count && n <= first; n++)); do echo $n; done
	if [ "$count" -gt "$first" ]; then
		local stride=$(( (count - first + more - 1) / more ))
		for ((n = first + stride; n <= count; n += stride)); do
			echo $n
		done
	fi
}

if [ "$full" = 1 ]; then first=200 more=100; else first=20 more=10; fi
total=0 bad=0
: >"$work/violations"
while read -r tag line; do
	IFS='|' read -r name check stdin cmd <<<"$line"
	if [ -n "${FAULT_CASES:-}" ]; then
		case " $FAULT_CASES " in *" $name "*) ;; *) continue ;; esac
	elif [ "$tag" = F ] && [ "$full" != 1 ]; then
		continue
	fi
	cmd=${cmd//@TD@/$TD}
	cmd=${cmd//@IN@/$IN}
	stdin=${stdin//@TD@/$TD}
	stdin=${stdin//@IN@/$IN}
	if [[ $cmd == *~* ]]; then
		IFS='~' read -r -a words <<<"$cmd"
	else
		read -r -a words <<<"$cmd"
	fi
	tool=${words[0]}
	args=("${words[@]:1}")
	base=$work/$name.base
	run_tool "$base" ""
	brc=$(cat "$base/.rc")
	if [ "$brc" != 0 ]; then
		echo "$name: the clean run exits $brc:"; cat "$base/.err"
		bad=$((bad + 1)); continue
	fi
	repro="FAULT_CASES=$name FAULT_POINT=FAM:N tests/fault/run.sh $1 $2"
	if [ -n "${FAULT_POINT:-}" ]; then
		keep=1
		d=$work/$name.point
		run_tool "$d" "$FAULT_POINT"
		echo "$name $FAULT_POINT: exit $(cat "$d/.rc") (kept in $d)"
		cat "$d/.err"
		check_point "$d" "$base" "${FAULT_POINT%%:*}" "${FAULT_POINT#*:}"
		exit 0
	fi
	summary=""
	for fam in $families; do
		count=$(awk -v f="$fam" '$1 == f { print $2 }' "$base/.report")
		[ "${count:-0}" -gt 0 ] || continue
		# A run may call a little more than the clean one (threads).
		ns=$(points "$((count + 2))" "$first" "$more")
		k=0
		for n in $ns; do
			while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
			(
				d=$work/$name.$fam.$n
				run_tool "$d" "$fam:$n"
				v=$(check_point "$d" "$base" "$fam" "$n")
				if [ -n "$v" ]; then
					echo "$v" >>"$work/violations"
					echo "  to reproduce: ${repro/FAM:N/$fam:$n}" \
						>>"$work/violations"
				fi
				rm -rf "$d"
			) &
			k=$((k + 1))
		done
		summary="$summary $fam=$k/$count"
		total=$((total + k))
	done
	# and once with standard output on a full disk
	wait
	d=$work/$name.full
	run_tool "$d" stdout:full
	v=$(check_point "$d" "$base" stdout full)
	if [ -n "$v" ]; then
		echo "$v" >>"$work/violations"
		echo "  to reproduce: ${repro/FAULT_POINT=FAM:N/FAULT_POINT=stdout:full}" >>"$work/violations"
	fi
	total=$((total + 1))
	echo "fault: $name:$summary"
done < <(cases_all)
wait
# Known, not yet fixed (tests/fault/known.txt): listed, not failing.
: >"$work/known"
while read -r kc kf kn kwhat; do
	case $kc in ''|\#*) continue ;; esac
	awk -v c="$kc" -v f="$kf" -v n="$kn" -v w="$kwhat" '
		{ split($2, p, ":") }
		$1 == c && p[1] == f && (n == "*" || p[2] == n) &&
		index($0, w) { skip = 1; print > "/dev/stderr"; next }
		skip && /^  to reproduce/ { skip = 0; next }
		{ skip = 0; print }' "$work/violations" \
		>"$work/v.tmp" 2>>"$work/known"
	mv "$work/v.tmp" "$work/violations"
done <"$root/tests/fault/known.txt"
nk=$(grep -c . "$work/known")
[ "$nk" -gt 0 ] && echo "fault: $nk known violations (tests/fault/known.txt):" &&
	sed -E 's/ \[.*//' "$work/known" | sort | uniq -c | head -20
nv=$(grep -vc '^  to reproduce' "$work/violations")
echo "fault: $total faulted runs, $nv violations"
if [ "$nv" -gt 0 ] || [ "$bad" -gt 0 ]; then
	cat "$work/violations"
	# one line per case, family and kind of failure: how many, which N
	echo "fault: summary (count, case, family, what, points):"
	grep -v '^  to reproduce' "$work/violations" |
		sed -E 's/^([^ ]+) ([^:]+):([^:]+): ([^[]*) \[.*$/\1 \2|\4|\3/' |
		sort -t'|' -k1,2 -k3n | awk -F'|' '
		{ k = $1 ": " $2; if (!(k in cnt)) ord[++m] = k
		  cnt[k]++; if (cnt[k] <= 6) pts[k] = pts[k] " " $3 }
		END { for (i = 1; i <= m; i++) { k = ord[i]
		  printf "%5d  %s:%s%s\n", cnt[k], k, pts[k],
			 (cnt[k] > 6 ? " ..." : "") } }'
	exit 1
fi
exit 0
