# --info decodes every column: blocks whose checksums match but whose
# columns are malformed fail it as they fail decoding (exit 1).
for f in block-key-unknown-id block-minmax-lie block-skippable-frame \
	 block-two-frames; do
	pebs-decode --info $TD/bad/$f.pebs >/dev/null; echo "$f rc=$?"
done
