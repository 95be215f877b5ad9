# sym, dso, srcline, data_sym of a program built here with -g (its maps as
# the metadata): function+offset, file:line of the source, variable+offset;
# pid 200 has no maps, so [unknown].  Every text format, quoted as needed.
. $TD/sym/setup.sh &&
pebs-decode -f csv --fields pid,lat,sym,srcline,data_sym $TMP/s.pebs &&
pebs-decode -f text --fields sym,srcline,data_sym,lat $TMP/s.pebs &&
pebs-decode -f jsonl --fields sym,data_sym $TMP/s.pebs | head -n 2 &&
pebs-decode -f yaml --fields sym,srcline $TMP/s.pebs | tail -n 4 &&
pebs-decode -f csv --no-header --fields dso $TMP/s.pebs |
	sed "s|$TMP|TMP|" | sort | uniq -c
# several inputs: each segment's maps serve its own samples
pebs-import $TD/good/decode-basic.csv -o $TMP/n.pebs &&
pebs-decode -f csv --fields pid,sym,srcline $TMP/s.pebs $TMP/n.pebs \
	$TMP/s.pebs 2>/dev/null | sort | uniq -c &&
cat $TMP/s.pebs $TMP/n.pebs | pebs-decode -f csv --fields sym >/dev/null
