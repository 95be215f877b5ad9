# A file cut inside a block, with a file shorter than the rest of that
# block appended: the cut block's length now runs past the end of the
# input, and the scan of --salvage finds the second file's segment inside
# it.  Said as when the length ends inside the second file (format
# section 8: "truncated in block N ... (a segment starts at ...)"), not as
# a bad chunk header, from a file, a pipe and at any -j; without
# --salvage the input ends inside the block.
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 3 -o b.pebs || exit 9
pebs-gen -n 5 --seed 4 -o s.pebs || exit 9
head -c 100000 b.pebs > cut.pebs && cat cut.pebs s.pebs > cs.pebs || exit 9
for j in 1 3; do
	pebs-decode -j$j --salvage --no-header --fields time cs.pebs | wc -l
	cat cs.pebs | pebs-decode -j$j --salvage --no-header --fields time |
		wc -l
done
pebs-decode --salvage --info cs.pebs 2>/dev/null |
	grep -E '^  (samples|segments|damaged_blocks):'
pebs-filter --salvage -c 'lat >= 0' cs.pebs
# the second file's samples, all of them, in order, as read alone
pebs-decode --no-header --fields all s.pebs > alone.csv
pebs-decode --salvage --no-header --fields all cs.pebs >all.csv 2>/dev/null
echo "rc=$?"
tail -n 5 all.csv | cmp - alone.csv && echo "second file whole"
pebs-decode --no-header --fields time cs.pebs | wc -l
