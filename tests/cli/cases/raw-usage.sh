# Usage errors of --raw (exit 2) and a missing file (exit 3).
pebs-decode --raw $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --uarch skl $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --raw --uarch k8 $TD/good/raw-glm.bin; echo "rc=$?"
pebs-decode --raw --uarch core2 --raw-event frontend $TD/good/raw-core2.bin
echo "rc=$?"
pebs-decode --raw --uarch skl -f csv --fields ip $TD/good/raw-none.bin \
	$TD/good/raw-skl-ldlat.bin
