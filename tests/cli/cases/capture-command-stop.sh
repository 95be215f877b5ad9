# -b sim -- COMMAND: a stop request sent to pebs-capture alone (kill, not
# the terminal's signal to the whole process group) is passed on to the
# command.  One that handles it and exits has its trace replayed; one
# that dies of it leaves no trace: the capture ends as interrupted, exit
# 0, a valid file without samples.  SIGHUP (the terminal closed) is
# handled as SIGTERM, and nothing is left in $TMPDIR.  (Before, the
# signal was not passed on: the capture waited for the command, and
# SIGHUP killed pebs-capture, the command running on, its trace left.)
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$OLDPWD/trace/pebs-trace.c" ||
	exit 9
cat >spin.c <<'EOF'
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
static volatile sig_atomic_t done;
static void on(int s) { (void)s; done = 1; }
int v[16];
int main(void)
{
	signal(SIGTERM, on);
	close(open("ready", O_CREAT | O_WRONLY, 0644));
	/* at most about 5 s, should the signal not come */
	for (int n = 0; !done && n < 5000; n++) {
		for (int i = 0; i < 16; i++)
			v[i]++;
		usleep(1000);
	}
	return 0;
}
EOF
cc -O1 -fsanitize=thread -c -o spin.o spin.c && cc -o spin spin.o rt.o \
	-pthread -ldl || exit 9
mkdir t || exit 9
mask() { sed -E 's/[0-9]+(\.[0-9]+)? (samples|lost|bytes|s)/N \2/g;
	s/N samples\/s/R samples\/s/; s/\(N simulated s\)/(S simulated s)/'; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
TMPDIR=$TMP/t pebs-capture -b sim -c 11 -o a.pebs -- ./spin 2>err &
pid=$!
while [ ! -e ready ]; do sleep 0.05; done
sleep 0.3
t0=$(ms)
kill -TERM $pid
wait $pid
echo "SIGTERM, handled: rc=$?"
[ $(( $(ms) - t0 )) -lt 3000 ] && echo "ended at the signal"
mask <err
n=$(pebs-decode -f csv --fields cpu a.pebs | tail -n +2 | wc -l)
[ "$n" -gt 0 ] && echo "its trace replayed: samples"
for sig in TERM HUP; do
	t0=$(ms)
	# SIGHUP as by default even where this test runs under nohup (a
	# shell cannot undo an ignore it inherited; env can)
	TMPDIR=$TMP/t env --default-signal=HUP pebs-capture -b sim \
		-o b.pebs -- sleep 8 2>err &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	wait $pid
	echo "SIG$sig to sleep 8: rc=$?"
	[ $(( $(ms) - t0 )) -lt 5000 ] && echo "ended with the command"
	mask <err
	pebs-decode -f csv b.pebs | wc -l
done
ls t
# Without a command: SIGHUP ends the capture as SIGTERM does (it killed
# pebs-capture, the file unfinished); ignored at the start (nohup), it
# stays ignored.
long="-b sim --workload false-sharing --seed 1 -c 1 --accesses 200000000"
env --default-signal=HUP pebs-capture $long -o h.pebs 2>err &
pid=$!
sleep 1
kill -HUP $pid
wait $pid
echo "SIGHUP, no command: rc=$?"
pebs-decode -f csv --fields cpu h.pebs >/dev/null && echo "file complete"
(trap '' HUP; exec pebs-capture $long -o n.pebs 2>err) &
pid=$!
sleep 1
kill -HUP $pid
sleep 0.3
kill -0 $pid && echo "SIGHUP ignored under nohup: still running"
kill -TERM $pid
wait $pid
echo "then SIGTERM: rc=$?"
