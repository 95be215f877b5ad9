# perf's raw-term spelling (what perf list -v and perf mem record -v
# print) gives the same plan as ours: the whole plan but the spec lines
plan() { pebs-capture --plan --uarch skl "$@" | grep -v '^- spec:'; }
same() { cmp -s "$1" "$2" && echo "$3: same plan ($(wc -l <"$1") lines)"; }
plan -e r1cd:ldlat=30 -e r82d0 >$TMP/ours
plan -e 'cpu/event=0xcd,umask=0x1,ldlat=30/P' \
	-e 'cpu/event=0xd0,umask=0x82/pp' >$TMP/perf
same $TMP/ours $TMP/perf 'event=,umask='
plan -e 'cpu/config=0x1cd,ldlat=30/' -e 'cpu/config=0x82d0/P' >$TMP/perf
same $TMP/ours $TMP/perf 'config='
pebs-capture --plan --uarch skl -e 'cpu/event=0xcd,umask=0x1,ldlat=30/P' |
	sed -n '/^- spec/,/^msr_writes/p'
# front-end events: frontend= is MSR_PEBS_FRONTEND
plan -e 'frontend:sub=idq_bubbles,latency=8,width=4' >$TMP/ours
plan -e 'cpu/event=0xc6,umask=0x1,frontend=0x400806/P' >$TMP/perf
same $TMP/ours $TMP/perf 'frontend='
pebs-capture --plan --uarch skl -e 'cpu/event=0xc6,umask=0x1,frontend=0x11/' |
	sed -n '/^- spec/,/^msr_writes/p'
# refused: usage (exit 2), naming the term
for e in 'cpu/event=0xcd,umask=0x1,umask=0x1/' 'cpu/umask=0x1,ldlat=30/P' \
	'cpu/event=0xcd,umask=0x100/' 'cpu/event=0xd1,cmask=0x100/' \
	'cpu/event=0xcd,umask=0x1,snoop=1/' 'cpu/event=0xd1,umask=1,pc/' \
	'cpu/event=0xc6,umask=0x1,frontend=0x01/' 'cpu/config=0x301cd/' \
	'cpu/mem-loads:u,ldlat=3/k'; do
	pebs-capture --plan --uarch skl -e "$e" >/dev/null; echo rc=$?
done
# config= beside field terms, in either order (perf would OR them into
# config=), and FRONTEND_RETIRED's Redwood Cove umask 0x3 on spr
for e in 'cpu/config=0x1cd,umask=0x2/P' 'cpu/umask=0x2,config=0x1cd/P' \
	'cpu/event=0xc6,umask=0x3,frontend=0x11/' r3c6; do
	pebs-capture --plan --uarch spr -e "$e" >/dev/null; echo rc=$?
done
# an import whose events are named in perf's raw terms: event ==
# load-latency and precise-store match them
printf '%s\n' 'time,cpu,pid,tid,event,ip,addr,lat' \
	'1,0,1,1,"cpu/event=0xcd,umask=0x1,ldlat=30/P",0x1000,0x2000,50' \
	'2,0,1,1,"cpu/event=0xd0,umask=0x82/pp",0x1000,0x2000,0' \
	'3,0,1,1,"cpu/event=0xd1,umask=0x1/pp",0x1000,0x2000,0' |
	pebs-import -o $TMP/raw.pebs
pebs-filter -c 'event == load-latency' $TMP/raw.pebs
pebs-filter -c 'event == precise-store' $TMP/raw.pebs
pebs-filter -c 'event == mem-loads or event == mem-stores' $TMP/raw.pebs
