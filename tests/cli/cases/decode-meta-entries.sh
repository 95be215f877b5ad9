# HEAD metadata (format section 4): a repeated key keeps its first place
# and takes the last value; a NUL byte in a key is a malformed HEAD (the
# key "k\0hidden" would otherwise replace k's value).  Both files in
# testdata/bad are one segment of one block of 3 samples; head-meta-dup
# repeats "dup", head-meta-nul has k, then "k\0hidden".
cd $TD/bad || exit 9
pebs-decode --info head-meta-dup.pebs | sed -n '/^metadata:/,/^summary:/p'
echo "rc=${PIPESTATUS[0]}"
pebs-decode -f csv --fields time head-meta-nul.pebs; echo "rc=$?"
pebs-decode --salvage -f csv --fields time head-meta-nul.pebs; echo "rc=$?"
