# pebs-capture's running totals on a terminal (a pty from script(1)), as
# the readers' progress line: rewritten in place (\r ... \e[K), erased
# before the summary; none with PEBS_PROGRESS=0 or off a terminal; cut to
# one row of a narrow terminal (its length printed).  The
# library reports about once a second of wall time: a trace on a pipe
# that stalls 1.5 s makes the capture last that long, on any machine.
# Numbers are masked.
mask() {
	cat -v | sed -E 's/[0-9]+(\.[0-9]+)?/N/g'
}
cap="{ cat $TD/good/trace-basic.txt; sleep 1.5; } |
	pebs-capture --trace - -c 1 -o /dev/null"
script -qec "$cap" /dev/null | mask
echo
script -qec "export PEBS_PROGRESS=0; $cap" /dev/null | mask
echo
sh -c "$cap" 2>&1 | mask
echo
script -qec "stty cols 24; $cap" /dev/null | cat -v |
	grep -o '\^Mpebs-capture[^^]*\^\[\[K' | awk '{ print length($0) - 6 }'
