# Every text format of the same samples.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs || exit 1
for f in csv jsonl yaml text; do
	echo "== $f"
	pebs-decode -f $f --fields time,cpu,event,addr,lat,dsrc,op,mem,snoop,line $TMP/a.pebs || exit 1
done
