# Without --salvage an input ends at its first damaged block, and what
# the decode threads read past it counts for nothing: the metadata of an
# output with no samples is that of the damaged segment (seed 3), not of
# a segment read ahead (seed 4), and --info counts the segments and
# bytes before the damage only, from a file or a pipe, with -j1, -j2 and
# -j8 alike (each run three times).
cd $TMP || exit 9
pebs-gen -n 111 --seed 3 --block 100 -o a.pebs || exit 9
pebs-gen -n 148 --seed 4 --block 100 -o b.pebs || exit 9
printf 'time,cpu\n' > h.csv
pebs-import -f csv -o z.pebs h.csv || exit 9
cat a.pebs z.pebs b.pebs > t.pebs
# inside block 0 of a.pebs
printf Z | dd of=t.pebs bs=1 seek=2048 conv=notrunc 2>/dev/null
for J in 1 2 8; do
	for k in 1 2 3; do
		seed=$(pebs-decode -f pebs -j$J t.pebs 2>/dev/null |
			pebs-decode --info | sed -n 's/^ *seed: //p')
		file=$(pebs-decode --info -j$J t.pebs 2>/dev/null |
			grep -E '^  (segments|format):' | tr -d '\n')
		pipe=$(cat t.pebs | pebs-decode --info -j$J 2>/dev/null |
			grep -E '^  (segments|bytes|format):' | tr -d '\n')
		echo "-j$J: seed $seed; file:$file; pipe:$pipe"
	done
done | sort | uniq -c
pebs-decode -j8 t.pebs >/dev/null
