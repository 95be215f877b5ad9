# -d lcl|rmt|tot orders and filters by that kind of HITM; --min-hitm,
# --top and --show-all choose the listed lines.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
for a in "-d rmt" "-d lcl --top 2" "--min-hitm 15" "--show-all" \
	"--show-all --top 7 -d rmt"; do
	echo "== $a"
	pebs-c2c -f csv $a $TMP/s.pebs | cut -d, -f1-4,15,16 || exit
done
