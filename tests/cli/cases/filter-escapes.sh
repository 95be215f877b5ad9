# Quoted strings: \\ \" \' stand for the character, \* \? \[ too, and in a
# ~ pattern they match a literal wildcard; any other escape is an error at
# its column (it used to be dropped: "b\c" read as "bc", "*\*" as "**").
printf '%s\n' time,event,lat 1,a*,5 '2,b\c,6' 3,ab,7 4,a?,8 '5,"q""t",9' |
	pebs-import >$TMP/ev.pebs || exit 1
for e in 'event == "b\\c"' 'event ~ "b\\*"' 'event ~ "*\*"' \
	'event ~ "a\*"' 'event ~ "a*"' 'event ~ "a\?"' 'event == "a\*"' \
	'event == "q\"t"' "event == 'q\"t'" 'event !~ "*\**"'; do
	printf '%-18s ' "$e"
	pebs-filter -f csv --no-header --fields event "$e" $TMP/ev.pebs |
		tr '\n' ' ' || exit 1
	echo
done
pebs-filter --explain 'event ~ "a\*\\" or event in ("b\\c", "a\*")'
pebs-filter --count 'event == "b\c"' $TMP/ev.pebs; echo "rc=$?"
pebs-filter --count 'lat > 1 and event ~ "*\.*"' $TMP/ev.pebs; echo "rc=$?"
pebs-filter --count "event == 'é\é'" $TMP/ev.pebs; echo "rc=$?"
pebs-filter --count 'event == "a\"' $TMP/ev.pebs; echo "rc=$?"
