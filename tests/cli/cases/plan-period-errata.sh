# periods below the kernel's limit_period minimums are refused, naming the
# minimum: nhm 32; bdw INST_RETIRED.PREC_DIST (0x01C0) at least 128 and a
# multiple of 64.  A period the user gave is refused; the default (100003,
# not a multiple of 64) is rounded up to 100032, as is the sim's 199.
pebs-capture --plan --uarch nhm -e load-latency -c 1
echo "rc $?"
pebs-capture --plan --uarch bdw -e INST_RETIRED.PREC_DIST -c 100003
echo "rc $?"
pebs-capture --plan --uarch bdw -e INST_RETIRED.PREC_DIST | grep period:
pebs-capture --plan --uarch bdw -e INST_RETIRED.PREC_DIST -c 100032 | grep period:
pebs-capture -b sim --uarch bdw --workload streaming --accesses 100k \
	-e INST_RETIRED.PREC_DIST -o $TMP/p.pebs 2>/dev/null
pebs-decode --info $TMP/p.pebs | grep -E '^ +period:'
