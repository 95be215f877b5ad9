# Text: the event column is as wide as the longest name of the first block,
# capped at 48; a longer name still widens the column to 48 and overflows
# its own row only (a name of 49 used to leave the column at 20).
e48=$(printf 'E%.0s' {1..48})
e49=$(printf 'F%.0s' {1..49})
e62=$(printf 'G%.0s' {1..62})
for e in "$e48" "$e49" "$e62"; do
	echo "== ${#e}"
	printf 'time,event,lat\n1,%s,5\n2,ab,6\n' "$e" | pebs-import |
		pebs-decode -f text --fields event,lat || exit 1
done
# The cap holds however many names the block has.
echo "== mixed"
printf 'time,event,lat\n1,ab,5\n2,%s,6\n3,MEM_TRANS_RETIRED.LOAD_LATENCY,7\n' \
	"$e62" | pebs-import | pebs-decode -f text --fields lat,event,lat ||
	exit 1
