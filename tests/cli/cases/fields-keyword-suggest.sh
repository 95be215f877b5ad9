# Field names and the words all, help and list of --fields are
# case-sensitive; an unknown name suggests the word it is nearest (case
# ignored) when that is nearer than any field: "ALL" was answered with
# "did you mean \"lat\"?".  help and list only stand for the whole list.
for l in ALL All alll al lat,ALL ALL,sym HELP hlep LIST lat,HELP LAT lta; do
	pebs-decode --fields "$l" </dev/null 2>&1; echo "rc=$?"
done
pebs-filter -f csv --fields ALL true </dev/null 2>&1; echo "rc=$?"
pebs-filter -f csv --fields Help true </dev/null 2>&1; echo "rc=$?"
