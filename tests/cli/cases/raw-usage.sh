# Usage errors of --raw (exit 2); a missing file and a directory (exit 3)
# say "cannot open" and "read error" as the .pebs reader does.
pebs-decode --raw $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --uarch skl $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --raw --uarch k8 $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --raw --uarch core2 --raw-event frontend $TD/good/raw-core2.bin
echo "rc=$?"
pebs-decode --raw --uarch skl -f csv --fields ip $TD/good/raw-none.bin \
	$TD/good/raw-skl-ldlat.bin
echo "rc=$?"
# A directory opens but cannot be read: "read error", as for .pebs inputs.
pebs-decode --raw --uarch skl -f csv --fields ip $TD/good
echo "rc=$?"
# --salvage skips damaged blocks; a raw dump has none: refused, not ignored.
pebs-decode --raw --uarch icl --salvage $TD/bad/raw-icl-badsize.bin
