# Names as the input has them, in every format: a map path with a byte of
# no UTF-8 and DEL, another with U+0085, U+2028 and ESC, a 300-byte symbol
# with ESC and a byte of no UTF-8.  YAML writes each so that it reads back
# as its bytes (!!binary when not UTF-8), and --merge gives the same
# paths, so the same result; text shows control characters and bad bytes
# as ?, HTML as U+FFFD; no name is cut (the offset +0x2 stays).
dir=$(printf '/opt/caf\351/b\177in') &&
mkdir -p "$TMP/root$dir" &&
cat > $TMP/prog.c <<'SRC' &&
struct pair {
	long a;
	long b;
} pair __attribute__((aligned(64)));

void writer_b(void)
{
	pair.b++;
}

int main(void)
{
	writer_b();
	return 0;
}
SRC
long=_ZN$(printf 'N%.0s' $(seq 300)) &&
q=$(printf '"%s\033[2J\351e"' $long) &&
printf '%s\n' .text ".globl $q" ".type $q, @function" "$q:" nop nop \
	'addq $1, pair(%rip)' ret ".size $q, .-$q" \
	'.section .note.GNU-stack,"",@progbits' > $TMP/long.s &&
cc -g -O0 -fPIE -pie -o "$TMP/root$dir/prog" $TMP/prog.c $TMP/long.s &&
base=$((0x555555554000)) &&
nm "$TMP/root$dir/prog" > $TMP/nm &&
sym() {
	local off
	off=$(awk -v s=$1 '$3 ~ s { print $1 }' $TMP/nm)
	printf '0x%x' $((base + 0x$off + $2))
} &&
wa=$(sym ^_ZN 2) && wb=$(sym ^writer_b 0) && pa=$(sym ^pair 0) &&
pb=$(printf '0x%x' $((pa + 8))) &&
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	for i in 1 2 3 4 5; do
		echo $i,0,100,1,precise-store,$wa,$pa,0,0x80144
		echo $i,1,100,2,precise-store,$wb,$pb,0,0x80144
		echo $i,0,100,1,load-latency,$wa,$pa,$((200 + i)),0x10668800842
		echo $i,1,100,2,load-latency,$wb,$pb,$((210 + i)),0x10668800842
		echo $i,2,200,3,load-latency,0x400100,0x7000,30,0x10668800842
		echo $i,3,200,4,precise-store,0x400200,0x7008,0,0x80144
	done
} > $TMP/s.csv &&
pebs-import -f csv --meta maps.0.pid=100 \
	--meta maps.0.start=$(printf 0x%x $base) \
	--meta maps.0.end=$(printf 0x%x $((base + 0x5000))) \
	--meta maps.0.pgoff=0x0 \
	--meta "maps.0.path=$dir/prog" --meta maps.1.pid=200 \
	--meta maps.1.start=0x400000 --meta maps.1.end=0x401000 \
	--meta maps.1.pgoff=0 \
	--meta "maps.1.path=$(printf '/opt/a\302\205b\342\200\250c\033[2Jd')" \
	-o $TMP/s.pebs $TMP/s.csv &&
c2c() { pebs-c2c --symfs $TMP/root -c tid,dso "$@" 2>/dev/null; } &&
echo "== yaml" &&
c2c -f yaml -o $TMP/s.yaml $TMP/s.pebs &&
grep -a -e 'path:' -e 'data_sym:' $TMP/s.yaml &&
grep -a -o 'dso: [^,]*' $TMP/s.yaml | sort -u &&
grep -a -o ', sym: [^,]*' $TMP/s.yaml | sort -u | grep -v '!!binary' &&
echo "the !!binary symbol, decoded:" &&
grep -a -o 'sym: !!binary "[^"]*' $TMP/s.yaml | head -1 | cut -d'"' -f2 |
	base64 -d | sed -E "s/N{300}/N*300/" | cat -v && echo &&
echo "== --merge reads the same paths back: the same result" &&
c2c --merge -f yaml $TMP/s.yaml | cmp - $TMP/s.yaml &&
c2c --merge $TMP/s.yaml > $TMP/m.txt &&
c2c $TMP/s.pebs | cmp - $TMP/m.txt && echo same &&
echo "== text" &&
grep -a -e '^  data' -e '^    0x' $TMP/m.txt | sed -E "s/N{300}/N*300/" |
	cat -v &&
echo "== html" &&
c2c -f html $TMP/s.pebs | grep -a -o -e '<td>/[^<]*</td>' -e '<i>[^<]*</i>' |
	sed -E "s/N{300}/N*300/" | sort -u
echo "rc $?"
