# libpebs-trace's trace says whether it is complete (version 2: it ends
# with "end N", formats/trace-format.md).  SIGTERM, SIGALRM, SIGUSR1
# while the trace is being written are held until the trace is complete,
# then kill the program; a write error (here a file size limit, as a
# full disk; its SIGXFSZ is ignored while the trace is written) empties
# the file but for an "error" line: pebs-capture says the trace is
# incomplete, exit 3, instead of replaying a cut trace (before: "line N:
# missing TID", exit 1); a trace cut short (the program killed while
# writing it) is replayed up to the cut, with a note: an interrupted
# capture, exit 0.
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$OLDPWD/trace/pebs-trace.c" ||
	exit 9
cat >p.c <<'C'
#include <stdlib.h>
volatile long g[64];
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	for (long i = 0; i < n; i++)
		g[i % 64] += i;
	return 0;
}
C
cc -O1 -fsanitize=thread -c -o p.o p.c && cc -o p p.o rt.o -pthread -ldl ||
	exit 9
for sig in TERM ALRM USR1; do
	rm -f t.txt
	PEBS_TRACE_OUT=t.txt ./p 600000 &
	pid=$!
	while [ ! -s t.txt ]; do sleep 0.01; done
	kill -$sig $pid
	{ wait $pid; } 2>/dev/null	# not bash's own report of the signal
	echo "SIG$sig while writing: rc $?"
	head -1 t.txt
	tail -1 t.txt | sed "s/[0-9]*$/N/"
done
# The file size limit's SIGXFSZ, not ignored by the program, does not
# kill it mid-write (before: a cut trace, replayed, exit 0): the write
# fails and says so.
pebs-capture -b sim -o x.pebs -- sh -c 'ulimit -f 8; exec ./p' 2>&1 |
	sed -E 's|/[^ ]*/pebs-trace-[A-Za-z0-9]*|TRACE|'
echo "write error: rc $?"
pebs-capture -b sim -o x.pebs -- sh -c 'printf "pebs-trace 2\n1 1 - R 8 0x1 0x40\n2 1 - W 8 0x1 0x4" >"$PEBS_TRACE_OUT"; kill -KILL $$' \
	2>&1 | sed 's/[0-9.]* s, [0-9]* samples\/s/S s, R samples\/s/; s/[0-9]* bytes/N bytes/'
echo "cut: rc $?"
