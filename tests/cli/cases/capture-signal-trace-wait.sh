# SIGINT, SIGTERM and SIGHUP end a capture normally (pebs-capture(1):
# exit 0, a complete file), also while it waits for more of a trace from
# a FIFO or a pipe (a live source; this shell holds the FIFO open): the
# read the signal interrupted was taken for a read error ("FILE: read
# error: Interrupted system call", exit 3).
mkfifo $TMP/trace
for sig in INT TERM HUP; do
	# SIGHUP as by default even where this test runs under nohup
	# (ignored, it left the capture waiting: the test hung)
	env --default-signal=HUP pebs-capture -b sim --trace $TMP/trace -c 1 \
		-o $TMP/$sig.pebs 2>$TMP/err &
	pid=$!
	exec 3>$TMP/trace
	cat $TD/good/trace-basic.txt >&3
	# until it sleeps, waiting for the rest of the trace
	while [ "$(cut -d' ' -f3 /proc/$pid/stat)" != S ]; do sleep 0.1; done
	sleep 0.3
	kill -$sig $pid
	wait $pid
	echo "$sig: rc=$?"
	exec 3>&-
	# the summary's sizes, rates and times vary
	sed 's/ lost, .*/ lost/' $TMP/err
	pebs-decode -f csv $TMP/$sig.pebs | wc -l
done
