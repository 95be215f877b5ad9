# periods below the kernel's limit_period minimums are refused, naming the
# minimum: nhm 32; bdw INST_RETIRED.PREC_DIST (0x01C0) at least 128 and a
# multiple of 64 (the default 100003 is not)
pebs-capture --plan --uarch nhm -e load-latency -c 1
echo "rc $?"
pebs-capture --plan --uarch bdw -e INST_RETIRED.PREC_DIST
echo "rc $?"
pebs-capture --plan --uarch bdw -e INST_RETIRED.PREC_DIST -c 100032 | grep period:
