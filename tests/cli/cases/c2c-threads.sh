# -j sets the decode threads: the report, the CSV and the mergeable YAML
# are the same for every count (block order is kept), from a file and from
# a pipe; a count that is not a number is a usage error.
cd $TMP || exit 9
pebs-gen -n 60000 --seed 7 --block 2048 -o a.pebs || exit 9
for f in text csv yaml; do
	pebs-c2c -j1 -f $f a.pebs > r1 || exit 9
	for j in 2 3 8; do
		pebs-c2c -j$j -f $f a.pebs > rj || exit 9
		cmp -s r1 rj && s=same || s=DIFFER
		echo "-f $f -j$j: $s as -j1"
	done
	cat a.pebs | pebs-c2c --threads 2 -f $f > rp || exit 9
	cmp -s r1 rp && s=same || s=DIFFER
	echo "-f $f --threads 2 from a pipe: $s as -j1"
done
grep -c '^' r1 | sed 's/^/yaml lines: /'
pebs-c2c -j two a.pebs
echo "rc=$?"
