# -b sim -- COMMAND: how the command ended.  Its status is in the
# summary (pebs-capture's own exit status says whether the capture
# worked); a command that exits 127 itself after writing its trace is
# replayed (127 is not taken for a failed exec: that comes through a
# close-on-exec pipe); one killed by a signal before writing its trace
# is named so (exit 2); a SIGINT to pebs-capture alone while the
# command runs is passed on to the command and ends the command's run,
# not the capture: a command that handles it (here: exit status 5 once
# it has the signal) has its trace replayed in full; a Ctrl-C to the process group that kills the
# command before it traced anything is an interrupted capture (exit 0,
# a valid empty file).  A command that cannot be run: one message, from
# the tool.
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$OLDPWD/trace/pebs-trace.c" ||
	exit 9
cat >p.c <<'C'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
volatile long g[64];
static volatile sig_atomic_t got;
static void on_int(int s) { (void)s; got = 1; }
int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "int-capture")) {
		signal(SIGINT, on_int);
		kill(getppid(), SIGINT);
		for (int n = 0; !got && n < 5000; n++)
			usleep(1000);
	}
	for (int i = 0; i < 100000; i++)
		g[i % 64] += i;
	if (!strcmp(m, "abort"))
		abort();
	if (!strcmp(m, "int-group")) {
		/* as a Ctrl-C would, whatever the harness ignores */
		signal(SIGINT, SIG_DFL);
		kill(getppid(), SIGINT);
		raise(SIGINT);
	}
	return got ? 5 : !strcmp(m, "exit3") ? 3 : !strcmp(m, "exit127") ? 127 : 0;
}
C
cc -O1 -g -fsanitize=thread -c -o p.o p.c && cc -o p p.o rt.o -pthread -ldl ||
	exit 9
for m in exit3 exit127 abort int-capture int-group; do
	rm -f x.pebs
	pebs-capture -b sim -c 101 -o x.pebs -- ./p $m 2>err
	echo "$m: rc $?"
	sed 's/^pebs-capture: [0-9]* samples,.*)/pebs-capture: SUMMARY/' err
	[ -e x.pebs ] || continue
	n=$(pebs-decode -f csv x.pebs | tail -n +2 | wc -l)
	[ "$n" -gt 100 ] && echo "samples: many" || echo "samples: $n"
done
pebs-capture -b sim -o x.pebs -- ./nonexistent
echo "nonexistent: rc $?"
