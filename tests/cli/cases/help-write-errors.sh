# --help and --version that cannot be written are write errors (exit 3),
# as every other output is; a closed pipe is not an error.
for t in capture decode filter hist c2c import gen; do
	pebs-$t --help >/dev/full; a=$?
	pebs-$t --version >/dev/full; b=$?
	pebs-$t --help | head -c 1 >/dev/null; c=${PIPESTATUS[0]}
	echo "pebs-$t: $a $b $c"
done
