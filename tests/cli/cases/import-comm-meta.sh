# A thread named with --meta comm.PID.TID keeps that name (pebs-import(1)),
# so rows naming it otherwise change nothing and are not told: the note
# said "the last one read is kept" of a name that was not.  A thread that
# --meta does not name is still told of.
printf 'pid,tid,comm\n1,1,sh\n1,1,make\n1,2,w\n' > $TMP/c.csv
pebs-import --meta comm.1.1=init $TMP/c.csv |
	pebs-decode --fields pid,tid,comm; echo "rc=$?"
printf 'pid,tid,comm\n1,1,sh\n1,1,make\n1,2,w\n1,2,x\n' > $TMP/d.csv
pebs-import --meta comm.1.1=init $TMP/d.csv 2>&1 >/dev/null |
	sed "s|$TMP/||"
