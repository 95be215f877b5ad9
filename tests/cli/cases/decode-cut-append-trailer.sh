# A file cut 8 to 23 bytes before a block's end, with another file
# appended: the next file's MAGIC lies in the cut block's checksum trailer
# and its HEAD's header runs past the block's claimed end.  Each cut reads
# the second file as its own segment, with its own metadata,
# from a file and a pipe, with and without --salvage (--salvage
# --info counts the segments; the rows are file/pipe); only the messages
# of the first cut and the last are kept here (the offsets move by one).
cd $TMP || exit 9
pebs-gen -n 3000 --block 1000 --seed 5 -o a.pebs || exit 9
pebs-capture -b sim --uarch icl --workload remote-numa --seed 3 \
	-o b.pebs 2>/dev/null || exit 9
# where block 1 of a.pebs ends: MAGIC, HEAD, block 0, block 1
E=$(python3 - <<'PY'
import struct
d = open('a.pebs', 'rb').read(); p = 8; n = 0
while True:
    ln = struct.unpack('<Q', d[p + 8:p + 16])[0]
    if d[p:p + 4] == b'BLCK':
        n += 1
        if n == 2:
            break
    p += 16 + ln + 8
print(p + 16 + ln + 8)
PY
) || exit 9
for c in $(seq 23 -1 8); do
	head -c $((E - c)) a.pebs > cut.pebs && cat cut.pebs b.pebs > x.pebs
	line="cut -$c:"
	for s in "" --salvage; do
		pebs-decode $s --no-header --fields time x.pebs >f.csv 2>f.err
		pebs-decode $s --no-header --fields time <x.pebs >p.csv 2>p.err
		segs=$(pebs-decode $s --info <x.pebs 2>/dev/null |
			sed -n 's/^  segments: //p')
		line="$line ${s:-plain} $(wc -l <f.csv)/$(wc -l <p.csv)"
		# without salvage, how far --info reads after the block that
		# fails its check depends on the decoding threads
		[ -n "$s" ] && line="$line segments=$segs"
		if [ $c = 23 ] || [ $c = 8 ]; then
			cat f.err p.err >&2
		fi
	done
	echo "$line"
done
