# --info's bytes of an input read from standard input count every byte
# read, as a file's size does: the bytes salvage stepped over (a rescan
# after damage), a segment skipped for its version, and a cut chunk's
# last bytes were left out (a file 300 bytes short in a block said
# 3984026 of its 4024854 bytes).  Each damaged input, as a file and
# from a pipe, one thread and three.
pebs-gen --block 4096 -n 400000 --seed 2 -o $TMP/s.pebs
{ head -c 2012427 $TMP/s.pebs; tail -c +2012728 $TMP/s.pebs; } >$TMP/cut300.pebs
head -c 3000000 $TMP/s.pebs >$TMP/short.pebs
bytes() { grep -E '^  bytes:' | sed 's/^ *//'; }
for f in $TMP/cut300.pebs $TMP/short.pebs $TD/bad/head-major2.pebs \
	 $TD/bad/block-minmax-lie.pebs $TD/bad/msg-hostile-meta.pebs; do
	size=$(wc -c <$f)
	echo "$(basename $f): $size bytes"
	for j in 1 3; do
		echo "  file -j$j: $(pebs-decode -j$j --info --salvage $f 2>/dev/null |
					bytes)"
		echo "  pipe -j$j: $(cat $f | pebs-decode -j$j --info --salvage \
					2>/dev/null | bytes)"
	done
done
# Without --salvage a pipe's reading stops at the damage: its bytes are
# those read, the damaged block included (it was left out for a while).
pebs-gen -n 20000 --block 4096 --seed 2 -o $TMP/c.pebs
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[0x14410]^=1; open(sys.argv[2],'wb').write(d)" \
	$TMP/c.pebs $TMP/cbad.pebs
echo "cbad.pebs, no salvage, pipe: $(cat $TMP/cbad.pebs |
	pebs-decode --info 2>/dev/null | bytes)"
