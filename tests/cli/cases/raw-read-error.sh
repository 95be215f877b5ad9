# An input that cannot be read is "FILE: read error: WHY" (exit 3) with
# --raw too, as in every other reader; it said "FILE: read: WHY".  The
# other inputs are still read.
pebs-decode --raw --uarch skx / $TD/good/raw-skx-ldlat.bin | wc -l
echo "rc=${PIPESTATUS[0]}"
pebs-decode --raw --uarch skx --info / >/dev/null; echo "rc=$?"
pebs-decode / >/dev/null; echo "rc=$?"
