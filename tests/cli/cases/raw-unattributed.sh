# Records that match no configured counter are dropped (raw-records.md
# section 3) and said once, with the applicable bits they had; --info
# counts them as unattributed.  Not damage: exit 0.
pebs-decode --raw --uarch skl --raw-event load-latency@PMC2 -f csv \
	$TD/good/raw-skl-ldlat.bin
echo "rc=$?"
pebs-decode --info --raw --uarch skl --raw-event load-latency@PMC2 \
	$TD/good/raw-skl-ldlat.bin | grep -E 'samples|unattributed'
echo "rc=$?"
