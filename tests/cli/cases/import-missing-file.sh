# A missing input: message, exit 3; the other inputs are still imported.
td=$PWD/$TD; cd $TMP || exit 9
pebs-import nope.csv $td/good/import-subset.csv >m.pebs
echo "rc=$?"
pebs-decode --fields time m.pebs
