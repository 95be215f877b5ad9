# --raw refuses an input that starts as a .pebs stream or a perf.data file
# (exit 1, with where it goes) instead of decoding its bytes as records;
# the other inputs are read, and nothing is written when none is a dump
td=$PWD/$TD; cd $TMP || exit 9
pebs-gen -n 100 -o x.pebs || exit 9
cp $td/perf/cpu-clock-zstd.perf.data p.data && cp $td/good/raw-core2.bin r.bin ||
	exit 9
pebs-decode --raw --uarch skx x.pebs | wc -l; echo "rc=${PIPESTATUS[0]}"
pebs-decode --raw --uarch skx p.data | wc -l; echo "rc=${PIPESTATUS[0]}"
pebs-decode --raw --uarch skx <p.data | wc -l; echo "rc=${PIPESTATUS[0]}"
pebs-decode --raw --uarch core2 r.bin x.pebs r.bin | wc -l
echo "rc=${PIPESTATUS[0]}"
# the warning of records no counter takes names the dump (its inputs)
cp $td/good/raw-skl-ldlat.bin s.bin || exit 9
pebs-decode --raw --uarch skl --raw-event load-latency@PMC2 s.bin - <s.bin |
	wc -l
# --info: the refused input's bytes are not the dump's (bytes and
# bytes_per_sample of the two dumps r.bin make)
pebs-decode --info --raw --uarch core2 r.bin x.pebs r.bin |
	grep -E '^file|samples|bytes'
# An empty dump is read (a header, an --info document of 0 samples) also
# beside an input that is refused or cannot be opened; none was written.
: > e.bin
pebs-decode --raw --uarch skx -f csv --fields ip x.pebs e.bin
echo "rc=$?"
pebs-decode --raw --uarch skx -f csv --fields ip missing e.bin
echo "rc=$?"
pebs-decode --info --raw --uarch skx missing e.bin | grep -E '^file|samples'
