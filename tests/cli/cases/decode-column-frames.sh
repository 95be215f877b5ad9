# Column data is exactly one zstd frame, and a CONST column has none
# (format section 6).  Each file in testdata/bad is one checksum-valid
# block of 10 samples: pid CONST with 4 bytes of data, lat as two zstd
# frames, lat as a skippable frame and then its frame.  zstd alone would
# read the last two; they are damage (exit 1).  The CONST entry is a
# directory error, so the whole block is; a bad frame costs only what
# reads that column.
cd $TD/bad || exit 9
for f in block-const-with-data block-two-frames block-skippable-frame; do
	pebs-decode -f csv --fields time,pid,lat $f.pebs; echo "rc=$?"
	pebs-decode -f csv --fields time $f.pebs | wc -l; echo "rc=$?"
done
