# A file cut inside its index chunk (after the end marker): every block is
# read, and the cut is "truncated", inside the chunk header as inside its
# payload, from a file or a pipe, with or without --salvage (exit 1).
cd $TMP || exit 9
pebs-gen -n 3000 --block 1000 --seed 4 -o m.pebs || exit 9
off=$(grep -obUa INDX m.pebs | tail -1 | cut -d: -f1)
[ -n "$off" ] || exit 9
for k in 2 4 9 15 16 17; do
	head -c $((off + k)) m.pebs >cut.pebs
	pebs-decode --fields time cut.pebs | wc -l
	pebs-decode --salvage --fields time <cut.pebs | wc -l
done
