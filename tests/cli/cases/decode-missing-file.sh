# A missing input: message, the others still decoded, exit 3.
cd $TMP || exit 9
pebs-import <$OLDPWD/$TD/good/import-subset.csv >a.pebs &&
pebs-decode --fields time a.pebs nope.pebs a.pebs
echo "rc=$?"
