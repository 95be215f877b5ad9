# A raw encoding outside the profile's table keeps its counter constraints:
# the old INST_RETIRED.PREC_DIST 0x01C0 is FIXED0 only on icl, 0xC0 is
# PMC1-7 on spr; placing it elsewhere is a usage error (exit 2).
pebs-decode --raw --uarch icl --raw-event r1c0 -f csv \
	--fields time,event,ip,applicable $TD/good/raw-icl-fx0.bin
echo "rc=$?"
pebs-decode --raw --uarch icl --raw-event r1c0@PMC0 -f csv \
	$TD/good/raw-icl-fx0.bin
echo "rc=$?"
pebs-decode --raw --uarch spr --raw-event r2c0@PMC0 -f csv \
	$TD/good/raw-spr-adaptive.bin
echo "rc=$?"
# store-latency: the portable name of MEM_TRANS_RETIRED.STORE_SAMPLE (PMC0)
pebs-decode --info --raw --uarch spr --raw-event 'store-latency;load-latency' \
	$TD/good/raw-spr-adaptive.bin 2>/dev/null | grep -A2 -E '^  - name:'
echo "rc=$?"
