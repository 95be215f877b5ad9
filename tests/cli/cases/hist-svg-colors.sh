# svg colours follow the group, not its rank: the same group has the same
# colour in plots of two inputs where its rank differs (data-source levels
# have their own colours; other groups a colour from their name), and no
# two drawn groups share one
f=$PWD/$TD/good/filter-hist-2k.pebs
legend() {
	pebs-hist -f svg "$@" | sed -n \
		-e 's/^<rect x=.*fill="\(#[0-9a-f]*\)"\/>$/\1/p' \
		-e 's/^<text x="694.0" y="[0-9.]*">\(.*\) ([0-9.k]*)<\/text>$/\1/p' |
		paste - -
}
cd $TMP
pebs-filter '(mem != "L1" || cpu == 1) && (mem != "L3" || lat > 60)' $f >b.pebs
pebs-filter 'cpu < 5' $f >c.pebs
pebs-filter 'cpu < 5 && (cpu != 0 || lat > 300)' $f >d.pebs
for x in "--by mem $f" "--by mem b.pebs" "--by cpu c.pebs" "--by cpu d.pebs"; do
	echo "== ${x/$f/whole}"
	pebs-hist -f csv --percentiles 50 $x | cut -d, -f1,2 | tail -n +2 |
		sort -t, -k2,2nr | cut -d, -f1 | paste -sd' '
	legend $x | sort -k2
done
legend --by mem $f | sort -k2 | cmp - <(legend --by mem b.pebs | sort -k2) &&
	echo "mem: same colours"
legend --by cpu c.pebs | sort -k2 | cmp - <(legend --by cpu d.pebs | sort -k2) &&
	echo "cpu: same colours"
echo "colours of the 10 groups drawn by cpu: $(legend --by cpu $f | cut -f1 |
	sort -u | wc -l)"
