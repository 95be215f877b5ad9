# --salvage from a pipe that stalls after a damaged trailing chunk (the
# index) goes on into what follows once it comes: the rescan past the
# damage waits for the writer.  Since f2bac67 it gave up after 50 ms as
# the read before it did, and dropped the rest of the input silently (the
# second segment's 5000 samples) in about half the runs with threads.
pebs-gen -n 200000 --block 65536 --seed 4 -o $TMP/big.pebs
pebs-gen -n 5000 --seed 7 --block 300 -o $TMP/g2.pebs
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); i=d.rfind(b'INDX'); d[i+20]^=0x55; open(sys.argv[2],'wb').write(d)" \
	$TMP/big.pebs $TMP/bad.pebs
for j in 2 2 3 3 4 4; do
	{ cat $TMP/bad.pebs; sleep 0.3; cat $TMP/g2.pebs; } |
		pebs-decode -j$j --salvage -f csv --fields time | wc -l
done
