# Symbols: a program built here with -g, samples at its functions and at
# its variable, and maps.0.* metadata naming it at /opt/c2c/prog (found
# under --symfs): per-offset rows show function and source line, each line
# its data symbol, in every format and after --merge; without --symfs the
# binary is missing: a note, and the report without symbols.  Rows
# coalesced by object name it.
mkdir -p $TMP/root/opt/c2c &&
cat > $TMP/prog.c <<'SRC' &&
/* two counters on one cache line, each written by its own thread */
struct pair {
	long a;
	long b;
} pair __attribute__((aligned(64)));

void writer_a(void)
{
	pair.a++;
}

void writer_b(void)
{
	pair.b++;
}

int main(void)
{
	writer_a();
	writer_b();
	return 0;
}
SRC
cc -g -O0 -fPIE -pie -o $TMP/root/opt/c2c/prog $TMP/prog.c &&
base=$((0x555555554000)) &&
nm $TMP/root/opt/c2c/prog > $TMP/nm &&
sym() {
	local off
	off=$(awk -v s=$1 '$3 == s { print $1 }' $TMP/nm)
	printf '0x%x' $((base + 0x$off))
} &&
wa=$(sym writer_a) && wb=$(sym writer_b) && pa=$(sym pair) &&
pb=$(printf '0x%x' $((pa + 8))) &&
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo $i,0,100,1,precise-store,$wa,$pa,0,0x80144
		echo $i,1,100,2,precise-store,$wb,$pb,0,0x80144
		echo $i,0,100,1,load-latency,$wa,$pa,$((200 + i)),0x600800842
		echo $i,1,100,2,load-latency,$wb,$pb,$((210 + i)),0x600800842
	done
} > $TMP/s.csv &&
pebs-import -f csv --meta maps.0.pid=100 --meta maps.0.start=0x555555554000 \
	--meta maps.0.end=0x555555559000 --meta maps.0.pgoff=0x0 \
	--meta maps.0.path=/opt/c2c/prog -o $TMP/s.pebs $TMP/s.csv &&
echo "== text" &&
pebs-c2c --symfs $TMP/root $TMP/s.pebs | sed -n '/^Line 0/,/^  verdict/p' &&
echo "== csv (last column)" &&
pebs-c2c --symfs $TMP/root -f csv $TMP/s.pebs | awk -F, '{ print $NF }' &&
echo "== yaml" &&
pebs-c2c --symfs $TMP/root -f yaml -o $TMP/s.yaml $TMP/s.pebs &&
grep -e 'data_sym' -e 'sym:' -e '^maps' -e 'path:' $TMP/s.yaml &&
echo "== html" &&
pebs-c2c --symfs $TMP/root -f html $TMP/s.pebs |
	grep -o -e '<i>[^<]*</i>' -e 'Data:</b> [^<]*' &&
echo "== merge of the yaml result == whole" &&
pebs-c2c --symfs $TMP/root $TMP/s.pebs > $TMP/whole.txt &&
pebs-c2c --symfs $TMP/root --merge $TMP/s.yaml | cmp - $TMP/whole.txt &&
echo same &&
echo "== --no-sym" &&
pebs-c2c --no-sym --symfs $TMP/root -f csv $TMP/s.pebs | head -1 |
	awk -F, '{ print $NF }' &&
pebs-c2c --no-sym --symfs $TMP/root $TMP/s.pebs > $TMP/nosym.txt &&
echo "symbols without --no-sym: $(grep -c writer_ $TMP/whole.txt)," \
	"with: $(grep -c writer_ $TMP/nosym.txt)" &&
echo "== -c tid,dso: rows by thread and object (the path from the maps)" &&
pebs-c2c --symfs $TMP/root -c tid,dso $TMP/s.pebs |
	sed -n '/^    offset/,/^$/p' &&
pebs-c2c --symfs $TMP/root -c dso -f yaml $TMP/s.pebs | grep -o 'dso: "[^"]*"' &&
echo "== missing binary" &&
pebs-c2c -f csv $TMP/s.pebs | awk -F, '{ print $NF }'
echo "rc $?"
