# Command names are per segment: two segments (two inputs, or one input of
# both, cat) give pid 5 and its thread 6 other names, with the same maps,
# and a third names neither thread nor process.  Every sample is named by
# its own segment's comm.PID.TID / comm.PID, never by another segment's:
# pebs-decode's comm field, pebs-filter expressions on comm and what it
# writes, pebs-hist --by comm.
cd $TMP || exit 9
maps="--meta maps.0.pid=5 --meta maps.0.start=0x400000
	--meta maps.0.end=0x401000 --meta maps.0.path=/bin/x"
printf 'pid,tid,comm,lat\n5,5,alpha,10\n5,6,alpha-w,20\n' > a.csv
printf 'pid,tid,comm,lat\n5,5,beta,30\n5,6,beta-w,40\n' > b.csv
printf 'pid,tid,lat\n5,5,50\n5,6,60\n' > c.csv
for x in a b c; do pebs-import $maps $x.csv -o $x.pebs || exit 9; done
cat a.pebs b.pebs c.pebs > abc.pebs
f="-f csv --fields pid,tid,comm,lat"
echo "== decode, three inputs"
pebs-decode $f a.pebs b.pebs c.pebs
echo "== decode, one input of three segments"
pebs-decode $f abc.pebs | cmp - <(pebs-decode $f a.pebs b.pebs c.pebs) &&
	echo same
pebs-decode $f < abc.pebs | cmp - <(pebs-decode $f a.pebs b.pebs c.pebs) &&
	echo "same (stream)"
echo "== filter"
pebs-filter 'comm ~ "beta*"' $f abc.pebs
pebs-filter 'comm == "alpha-w"' $f < abc.pebs
pebs-filter 'comm == "[unknown]"' $f a.pebs b.pebs c.pebs
echo "== filter writes each segment's names"
pebs-filter 'lat >= 20' abc.pebs | pebs-decode $f
echo "== hist"
pebs-hist -f csv --by comm --bins 0,100 abc.pebs
pebs-hist -f csv --by comm --bins 0,100 < abc.pebs
