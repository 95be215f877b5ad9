# On a terminal (a pty from script(1), util-linux): text is the default,
# and the record formats (.pebs, perf.data: the message names which) are
# refused with exit 2.
pebs-import $TD/good/import-subset.csv >$TMP/s.pebs || exit 9
script -qec "pebs-decode --fields time,cpu,event,lat $TMP/s.pebs; echo rc=\$?;
	pebs-decode -f pebs $TMP/s.pebs; echo rc=\$?;
	pebs-decode -f perf $TMP/s.pebs; echo rc=\$?;
	pebs-decode -f perf -o /dev/tty $TMP/s.pebs; echo rc=\$?;
	pebs-import $TD/good/import-subset.csv; echo rc=\$?" /dev/null |
	tr -d '\r'
