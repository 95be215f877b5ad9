# The expression forgotten (`pebs-filter --head 3 -f csv g.pebs`): the
# file is taken for it and does not parse; when it names an existing file
# and nothing follows, the hint says the expression comes first, exit 2.
# An expression that parses, or one followed by files, is unchanged.
cd $TMP || exit 9
pebs-gen -n 100 -o g.pebs || exit 9
pebs-filter --head 3 -f csv g.pebs; echo "rc=$?"
pebs-filter g.pebs g.pebs; echo "rc=$?"
pebs-filter nosuch.pebs; echo "rc=$?"
pebs-filter --head 1 -f csv 'lat >= 0' g.pebs | wc -l
