# the text bar chart is in Unicode block elements only where the locale's
# character set is UTF-8 (LC_ALL, else LC_CTYPE, else LANG), else in ASCII
# ('#' a cell, '+' a part of one); a locale that is not installed is
# judged by its name (xx_YY.ISO-8859-1 reads as en_US.ISO-8859-1 does
# installed).  No locale package is needed: C.UTF-8 is built into glibc.
# The numbers are the C locale's whatever the locale.
f=$TD/good/filter-hist-2k.pebs
unset LC_ALL LC_CTYPE LANG
for v in "LC_ALL=C" "LC_ALL=POSIX" "LC_ALL=C.UTF-8" "LC_ALL=C.utf8" \
	 "LANG=C.UTF-8" "LANG=C.UTF-8 LC_CTYPE=C" "LC_ALL=C LANG=C.UTF-8" \
	 "LC_ALL=xx_YY.UTF-8" "LC_ALL=xx_YY.utf8@euro" \
	 "LC_ALL=xx_YY.ISO-8859-1" "LANG=xx_YY" ""; do
	echo "== ${v:-(none set)}"
	env $v pebs-hist -f text --bins 0,8,16,64,1000 "$f" | sed -n '5,$p'
done
# other formats are the same bytes under any locale
pebs-hist -f csv --percentiles 50,99.9 "$f" >$TMP/c.csv 2>&1
LC_ALL=C.UTF-8 pebs-hist -f csv --percentiles 50,99.9 "$f" | cmp - $TMP/c.csv &&
	echo "csv: same under C.UTF-8"
