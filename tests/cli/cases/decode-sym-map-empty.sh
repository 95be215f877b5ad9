# A map whose end is not above its start (inverted, empty, or no end key)
# was left out silently, and the only note said "no process maps in the
# metadata" although the metadata has one; now a note names it and why,
# as for a start that is not hex.  Fields without symbols say nothing.
cd $TMP &&
printf 'time,cpu,pid,tid,event,ip,addr,lat\n1,1,5,5,load-latency,0x401136,0x404060,1\n' \
	>e.csv &&
for se in "0x402000 0x401000" "0x401000 0x401000" "0x401000 -"; do
	set -- $se
	end=
	[ "$2" != - ] && end="--meta maps.0.end=$2"
	pebs-import --meta maps.0.pid=5 --meta maps.0.start=$1 $end \
		--meta maps.0.path=/bin/true -o e.pebs e.csv &&
	pebs-decode -f csv --fields sym e.pebs &&
	pebs-decode -f csv --fields lat e.pebs || exit
done
