# The heat maps fit their images at every --line-size: each <text> (7
# pixels a character; start, middle or end anchored), <rect> and inner
# <svg> lies within the width of the <svg> it is in, and a cell's text
# within its cell.  At 16 and 32 bytes
# the two or four columns were narrower than the key under them, which
# the inner <svg> cut off; a 7-digit pid's thread label ran off the left.
# Counts of 6 and 7 digits ("W123456 R1234567") overflowed their 76-pixel
# cells, the last column past the map's edge: they read short now
# ("W123k R1.2M"), exact in the cell's title.
cat > $TMP/ext.awk <<'AWK' &&
function attr(s, a) {
	if (!match(s, " " a "=\"[^\"]*\""))
		return ""
	return substr(s, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
}
/<svg/ {
	w = attr($0, "width") + 0; x = attr($0, "x") + 0
	if (n && x + w > wd[n]) { print "svg to " x + w " > " wd[n]; bad++ }
	wd[++n] = w
}
/<text/ && n {
	x = attr($0, "x") + 0; a = attr($0, "text-anchor")
	t = $0; sub(/^.*<text[^>]*>/, "", t); sub(/<\/text>.*$/, "", t)
	gsub(/&[a-z#0-9]+;/, "_", t)
	len = length(t) * 7
	lo = a == "middle" ? x - len / 2 : a == "end" ? x - len : x
	if (lo < 0 || lo + len > wd[n]) {
		print "text at " lo "-" lo + len ", not in 0-" wd[n] ": " t
		bad++
	}
	# a cell's text (the line after its rect) lies within the cell
	if (cell && (lo < rx || lo + len > rx + rw)) {
		print "text at " lo "-" lo + len ", not in its cell " rx "-" \
			rx + rw ": " t
		bad++
	}
}
{ cell = 0 }
/<rect/ && n && attr($0, "width") !~ /%/ {
	x = attr($0, "x") + attr($0, "width")
	if (x > wd[n]) { print "rect to " x " > " wd[n]; bad++ }
	rx = attr($0, "x") + 0; rw = attr($0, "width") + 0; cell = /<title>/
}
/<\/svg>/ { n-- }
END { print bad ? bad " outside" : "all inside" }
AWK
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
sed 's/,100,1001,/,4194303,4194304,/' $TD/good/c2c-sharing.csv |
	pebs-import -f csv -o $TMP/big.pebs &&
LC_ALL=C awk 'BEGIN {
	print "time,cpu,pid,tid,event,ip,addr,lat,dsrc"
	for (i = 0; i < 1234567; i++) {
		print t++ ",0,100,1001,load-latency,0x401008,0x7f0000001000,200,0x600800842"
		if (i >= 123456)
			continue
		print t++ ",0,100,1001,precise-store,0x401000,0x7f0000001000,0,0x80144"
		print t++ ",1,100,1002,precise-store,0x401010,0x7f0000001038,0,0x80144"
		print t++ ",1,100,1002,load-latency,0x401018,0x7f0000001038,200,0x600800842"
	}
}' | pebs-import -f csv -o $TMP/many.pebs &&
for f in svg html; do
	for ls in 16 32 64 128 256; do
		printf '%s --line-size %s: ' $f $ls
		pebs-c2c -f $f --line-size $ls $TMP/s.pebs > $TMP/r.$f &&
		LC_ALL=C awk -f $TMP/ext.awk $TMP/r.$f | tail -3 || exit
	done
	printf '%s, pid 4194303: ' $f
	pebs-c2c -f $f $TMP/big.pebs > $TMP/r.$f &&
	LC_ALL=C awk -f $TMP/ext.awk $TMP/r.$f | tail -3 || exit
	printf '%s, 7-digit counts: ' $f
	pebs-c2c -f $f $TMP/many.pebs > $TMP/r.$f &&
	LC_ALL=C awk -f $TMP/ext.awk $TMP/r.$f | tail -3 || exit
done &&
echo "the cells of 7-digit counts:" &&
grep -o '<text[^>]*>[WR][0-9][^<]*</text>' $TMP/r.html &&
echo "the 16-byte map:" &&
pebs-c2c -f svg --line-size 16 $TMP/s.pebs | grep -m1 '<svg x='
