# the comm column imports to comm.PID.TID metadata: the round trip prints
# the same bytes (it printed [unknown] for every row)
p=$TD/perf/gen-two-events-lost.perf.data
pebs-import -f perf $p -o $TMP/a.pebs
pebs-decode --fields time,pid,tid,comm $TMP/a.pebs > $TMP/a.csv
pebs-import $TMP/a.csv | pebs-decode --fields time,pid,tid,comm > $TMP/b.csv
cmp $TMP/a.csv $TMP/b.csv && echo "round trip: same bytes"
cut -d, -f2- $TMP/b.csv | sort -u
pebs-import $TMP/a.csv | pebs-decode --info | sed -n '/^  comm:/,/^  [a-z]/p'
# with symbol columns beside it (ignored) and a quoted name
printf 'pid,tid,sym,comm\n5,6,f+0x1,"a, b"\n5,5,[unknown],main\n7,7,g,[unknown]\n' |
	pebs-import | pebs-decode --fields pid,tid,comm
# a thread renamed (exec): the last name is kept, the change told
cd $TMP
printf 'pid,tid,comm\n1,1,sh\n1,1,make\n1,2,w\n1,2,x\n' > c.csv
pebs-import c.csv | pebs-decode --fields pid,tid,comm; echo "rc=$?"
# a name given with --meta stays
pebs-import --meta comm.1.1=init c.csv 2>/dev/null |
	pebs-decode --fields pid,tid,comm | head -2
# an input without comm streams; one with comm after it starts a second
# segment carrying the names; event ids stay right across the switch
printf 'pid,tid,event,lat\n1,1,load-latency,5\n2,2,precise-store,0\n' > n.csv
printf 'pid,tid,event,comm,lat\n3,3,precise-store,zz,7\n4,4,other,yy,8\n' > y.csv
pebs-import n.csv y.csv n.csv | pebs-decode --fields pid,tid,event,comm,lat
pebs-import n.csv y.csv | pebs-decode --info | grep -E '^  (samples|segments):'
