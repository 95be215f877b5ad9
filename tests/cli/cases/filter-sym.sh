# Filters on symbol fields: == compares the name without +0xoff (or the
# whole text when the string has one), ~ and !~ take glob patterns, dso
# without a '/' compares the file name, srcline without ':' the file.
. $TD/sym/setup.sh &&
for e in 'sym == "worker"' 'sym == "worker+0x4"' 'sym ~ "h*"' \
	'sym !~ "*er"' 'sym == "[unknown]"' 'data_sym in (table, static_var)' \
	'dso == "prog"' 'srcline == "prog.c"' 'sym ~ "w*" and lat > 15'; do
	printf '%s: ' "$e"
	pebs-filter -c "$e" $TMP/s.pebs || exit 1
done &&
pebs-filter -f csv --fields lat,sym,data_sym 'not sym in (worker, main)' \
	$TMP/s.pebs &&
pebs-filter 'srcline ~ "prog.c:1*"' $TMP/s.pebs | pebs-decode -f csv \
	--fields lat,sym,srcline &&
pebs-filter --explain 'sym ~ "w*" or dso != "/lib/x.so"' &&
pebs-filter -c 'sim == "worker"' $TMP/s.pebs
