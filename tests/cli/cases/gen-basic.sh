# Deterministic: the same seed gives the same bytes; another seed differs.
pebs-gen -n 5000 --seed 7 -o $TMP/a.pebs &&
pebs-gen -n 5000 --seed 7 > $TMP/b.pebs &&
cmp $TMP/a.pebs $TMP/b.pebs && echo same &&
pebs-gen -n 5000 --seed 8 | cmp -s - $TMP/a.pebs || echo differs
pebs-decode -f csv $TMP/a.pebs | head -4
pebs-decode --info $TMP/a.pebs | grep -E 'samples:|blocks:|seed|source'
