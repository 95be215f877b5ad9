# A repeated --fields name: fine in csv and text, refused in yaml and jsonl,
# whose keys must be unique (it used to print "lat: 35" twice per sample),
# whichever of -f and --fields comes first; "all" has no repeats.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs || exit 1
pebs-decode -f csv --fields lat,cpu,lat $TMP/a.pebs | head -2
pebs-decode -f text --fields lat,lat $TMP/a.pebs | head -2
pebs-decode -f yaml --fields lat,cpu,lat $TMP/a.pebs; echo "rc=$?"
pebs-decode --fields time,line,time,line -f jsonl $TMP/a.pebs; echo "rc=$?"
pebs-decode -f jsonl --fields all $TMP/a.pebs | head -1
# --info prints no samples, so the list does not matter there
pebs-decode --info -f yaml --fields lat,lat $TMP/a.pebs >/dev/null
echo "info rc=$?"
