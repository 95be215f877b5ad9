# Same seed, same file (byte for byte); another seed, another file.
cd $TMP || exit 9
for f in a:5 b:5 c:6; do
	pebs-capture -b sim --uarch skl --workload false-sharing \
		--seed ${f#*:} -e load-latency -c 101 >${f%:*}.pebs \
		2>/dev/null || exit 9
done
cmp a.pebs b.pebs && echo "seed 5 twice: identical"
cmp -s a.pebs c.pebs || echo "seed 6: different"
