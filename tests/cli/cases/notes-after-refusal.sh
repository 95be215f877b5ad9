# A note on standard error comes only after the options were accepted: a
# note followed by a usage error misled.  pebs-capture said "simulating
# the built-in workload" before refusing --uarch, -e, -C or a terminal
# on standard output; pebs-import said it read CSV from the terminal
# before refusing to write .pebs to it.  pebs-capture --trace - at a
# terminal now says it reads the trace from it, as pebs-import,
# pebs-hist --merge and pebs-c2c --merge do (it waited silently).  A pty
# from script(1); the typed lines it echoes are dropped.
cd $TMP || exit 9
pebs-capture --uarch bogus >/dev/null; echo "uarch rc=$?"
pebs-capture -e bogus 2>&1 >/dev/null | grep -c simulating
pebs-capture -C 99 -d 0.001 >/dev/null; echo "cpus rc=$?"
pebs-capture -d 0.001 2>&1 >/dev/null | grep -c simulating
script -qec "pebs-capture; echo rc=\$?
	pebs-capture --uarch bogus -o x.pebs; echo rc=\$?
	pebs-import; echo rc=\$?
	pebs-capture --trace - --uarch bogus -o x.pebs; echo rc=\$?" \
	/dev/null </dev/null | tr -d '\r'
# typed a second after the start, after the note
{ sleep 1; printf 'pebs-trace 1\n\004'; sleep 2; } |
	script -qec "pebs-capture --trace - -o t.pebs 2>&1 |
		sed 's/, [0-9]* bytes, .*//'; echo rc=\$?" /dev/null |
	tr -d '\r' | grep -vx 'pebs-trace 1'
