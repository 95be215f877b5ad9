# --salvage: the report covers every block that could be read; without it
# a damaged block ends the input (exit 1, the blocks before it reported).
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 3 -o m.pebs &&
cp m.pebs d.pebs &&
printf XXXX | dd of=d.pebs bs=1 seek=100000 conv=notrunc 2>/dev/null || exit 9
samples() { grep -E '^  samples:'; }
pebs-c2c m.pebs | samples; echo "rc ${PIPESTATUS[0]}"
pebs-c2c d.pebs | samples; echo "rc ${PIPESTATUS[0]}"
pebs-c2c --salvage d.pebs | samples; echo "rc ${PIPESTATUS[0]}"
pebs-c2c --salvage <d.pebs | samples; echo "rc ${PIPESTATUS[0]}"
