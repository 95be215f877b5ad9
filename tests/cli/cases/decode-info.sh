# --info: one YAML document per input (time and host vary: masked).
td=$PWD/$TD; cd $TMP || exit 9
pebs-import $td/good/decode-basic.csv >a.pebs &&
pebs-import $td/good/import-subset.csv >b.pebs &&
pebs-decode --info a.pebs b.pebs |
	sed -E 's/^(  (start_time|host|cmdline)):.*/\1: .../; s/^(  bytes(_per_sample)?):.*/\1: .../' |
	sed -E 's/^(    (bytes|bytes_per_sample|percent_of_file)):.*/\1: .../'
# segments with different clocks (an import without one, a tsc capture)
# give no seconds: the unit is mixed
pebs-gen -n 100 --seed 1 -o g.pebs &&
cat g.pebs g.pebs | pebs-decode --info | grep -E '^    (unit|seconds):'
cat g.pebs a.pebs | pebs-decode --info | grep -E '^    (unit|seconds):'
# an input that cannot be opened or read has no document, only its message
mkdir -p adir
pebs-decode --info missing.pebs adir g.pebs | grep -E '^(file|---)'
echo "rc=${PIPESTATUS[0]}"
