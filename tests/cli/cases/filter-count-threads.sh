# --count is evaluated on the decode threads when it can be: the counts
# do not depend on -j, with --invert too, and on a file damaged in block
# 10's column data every thread count stops at the same block (or, with
# --salvage, skips only it).
cd $TMP || exit 9
pebs-gen -n 200000 --seed 5 --block 4096 -o a.pebs || exit 9
for e in 'lat > 200' 'mem in (L3, LOCAL_RAM)' 'hitm or dram' 'store' \
	'cpu in (0..3)' 'event == "precise-store"' 't >= 10ms'; do
	for v in '' '-v'; do
		c1=$(pebs-filter -j1 --count $v "$e" a.pebs)
		c2=$(pebs-filter -j2 --count $v "$e" a.pebs)
		c4=$(pebs-filter -j4 --count $v "$e" a.pebs)
		[ "$c1" = "$c2" ] && [ "$c1" = "$c4" ] && s=same || s=DIFFER
		printf '%-26s %-2s %7s  -j1/-j2/-j4 %s\n' "$e" "$v" "$c1" "$s"
	done
done
# damage: the column data of block 10 (from a quarter of its chunk to
# near its end, before the checksum table)
off=$(grep -obUa BLCK a.pebs | sed -n 11p | cut -d: -f1)
nxt=$(grep -obUa BLCK a.pebs | sed -n 12p | cut -d: -f1)
[ -n "$off" ] && [ -n "$nxt" ] || exit 9
cp a.pebs bad.pebs
len=$(( (nxt - off) * 7 / 10 ))
head -c $len /dev/zero | tr '\0' Z | dd of=bad.pebs bs=1 \
	seek=$(( off + (nxt - off) / 4 )) conv=notrunc 2>/dev/null
x='lat > 200 or addr == 1 or ip == 1 or tid == 9'
for s in '' --salvage; do
	for j in 1 2 4; do
		n=$(pebs-filter -j$j $s --count "$x" bad.pebs 2>err)
		echo "${s:-no-salvage} -j$j: $n rc=$? $(cut -d: -f3- err)"
	done
done
