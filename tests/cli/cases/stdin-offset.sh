# Standard input starts at its offset, as a pipe does: a file redirected
# there after part of it was read gives what is left, and a second "-"
# finds it consumed.
pebs-gen -n 300 --seed 1 -o $TMP/a.pebs 2>/dev/null
pebs-gen -n 5 --seed 9 -o $TMP/b.pebs 2>/dev/null
cat $TMP/a.pebs $TMP/b.pebs >$TMP/ab.pebs
n=$(wc -c <$TMP/a.pebs)
( dd bs=$n count=1 of=/dev/null 2>/dev/null; pebs-decode --fields time ) \
	<$TMP/ab.pebs | wc -l
( dd bs=$n count=1 of=/dev/null 2>/dev/null; pebs-filter --count true ) \
	<$TMP/ab.pebs
pebs-decode --fields time - - <$TMP/a.pebs | wc -l
# the same from a pipe
cat $TMP/a.pebs | pebs-decode --fields time - - | wc -l
# --merge inputs: a missing one is reported, the others still merged
pebs-hist -f yaml $TMP/a.pebs >$TMP/h.yaml
pebs-hist --merge -f csv --percentiles 50 /nonexistent $TMP/h.yaml; echo "rc=$?"
