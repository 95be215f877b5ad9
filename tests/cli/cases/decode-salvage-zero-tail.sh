# A capture whose tail was zero-filled after a crash: --salvage scans the
# zeros for the next chunk, meets the end of input, and says the segment's
# end was lost (truncated ... no end marker), from a file and a pipe; the
# scan of a pipe reads ahead instead of one byte at a time (4 MiB here).
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 2 -o h.pebs || exit 9
{ head -c 200000 h.pebs; head -c 4000000 /dev/zero; } > z.pebs || exit 9
pebs-decode --salvage --no-header --fields time z.pebs | wc -l
cat z.pebs | pebs-decode --salvage --no-header --fields time | wc -l
