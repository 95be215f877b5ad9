# A result refused for its other_at (more samples than its "other" counts
# with an address) is exit 1 in every format, and -f yaml still writes a
# whole result that merges again: it stopped at other_at with "out of
# memory" (exit 3), the refused entries kept (found by a mutation hunt).
f=fuzz/corpus/c2cmerge/other-at-without-other
for fmt in text csv yaml; do
	pebs-c2c --merge -f $fmt $f > $TMP/out.$fmt; echo "$fmt: rc=$?"
done
pebs-c2c --merge -f csv $TMP/out.yaml > /dev/null; echo "merged again: rc=$?"
tail -2 $TMP/out.yaml
