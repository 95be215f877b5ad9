# -b sim -- COMMAND: the command (built with thread-sanitizer
# instrumentation and the libpebs-trace runtime) runs to its end, its
# trace drives the simulated PMU.  Real threads interleave differently
# each run, so only robust facts are compared.  Its own output goes to
# standard error when the samples go to standard output.
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$OLDPWD/trace/pebs-trace.c" ||
	exit 9
cc -O1 -g -fsanitize=thread -c -o fs.o "$OLDPWD/examples/false_sharing.c" &&
cc -o fs fs.o rt.o -pthread -ldl || exit 9
pebs-capture -b sim --uarch skx -e load-latency -e precise-store -c 211 \
	-- ./fs 2>err >fs.pebs
echo "rc=$?"
grep -c 'total 200000' err
pebs-decode --info fs.pebs | grep -E '^ *(source|uarch):'
n=$(pebs-c2c -f csv fs.pebs | tail -n +2 | wc -l)
[ "$n" -ge 1 ] && echo "cache lines with HITM: at least one"
# The process's name, as the kernel named it (the command's basename), in
# comm.PID: the comm field reads it for every thread, and -f perf gives
# each sampled thread a COMM of that name (perf would show ":TID").
pebs-decode --info fs.pebs | sed -n 's/^    [0-9]*: /comm.PID: /p'
pebs-hist -f csv --by comm --percentiles 100 fs.pebs | cut -d, -f1
pebs-decode -f perf fs.pebs | pebs-import -f perf | pebs-decode --info - |
	sed -n '/^  comm:/,/^  [a-z]/p' >comm.txt
n=$(grep -c '^      [0-9]*: fs$' comm.txt)
[ "$n" -ge 4 ] && echo "perf: every worker thread is fs"
grep -E '^      [0-9]+: ' comm.txt | grep -v ': fs$'
true
