# pebs-decode's outputs piped to pebs-import: CSV imports (the same text
# back); the others are named as what they are (exit 1, nothing written),
# where JSON Lines read "column 1: malformed quoting" and YAML or the text
# table "unknown column"; a CSV without its header says the header is
# missing.
cd $TMP || exit 9
pebs-gen -n 50 --seed 4 -o g.pebs || exit 9
pebs-decode -f csv g.pebs | pebs-import | pebs-decode -f csv |
	cmp - <(pebs-decode -f csv g.pebs) && echo "csv: same"
for f in jsonl yaml text; do
	pebs-decode -f $f g.pebs | pebs-import | wc -c
	echo "$f: rc=$?"
done
pebs-decode --info g.pebs | pebs-import | wc -c
pebs-decode -f csv --no-header g.pebs | pebs-import | wc -c
echo "rc=$?"
