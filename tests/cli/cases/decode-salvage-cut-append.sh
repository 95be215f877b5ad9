# A file cut inside a block, with another file appended: the cut block's
# head still vouches for its old length, which now runs into the second
# file.  --salvage finds the segment that starts inside the block (its
# whole checksum fails) and reads all of the second file, from a file and
# from a pipe; a flipped byte inside a block still skips just that block.
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 3 -o b.pebs || exit 9
head -c 100000 b.pebs > cut.pebs && cat cut.pebs b.pebs > cb.pebs || exit 9
pebs-decode --salvage --no-header --fields time cb.pebs | wc -l
pebs-decode --salvage --no-header --fields time < cb.pebs | wc -l
pebs-decode --salvage --info cb.pebs 2>/dev/null |
	grep -E '^  (samples|segments|damaged_blocks):'
# the second file's samples, all of them, in order, as read alone
pebs-decode --no-header --fields time b.pebs > alone.csv
pebs-decode --salvage --no-header --fields time cb.pebs >all.csv 2>/dev/null
echo "rc=$?"
tail -n 20000 all.csv | cmp - alone.csv && echo "second file whole"
# without --salvage the input ends at the cut block (exit 1)
pebs-decode --no-header --fields time cb.pebs | wc -l
cp b.pebs flip.pebs &&
printf '\xff' | dd of=flip.pebs bs=1 seek=100000 conv=notrunc 2>/dev/null
pebs-decode --salvage --no-header --fields all flip.pebs | wc -l
