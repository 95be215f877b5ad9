# One message per kind of bad input.
for f in $TD/bad/import-*.csv; do
	pebs-import $f >/dev/null
	echo "rc=$?"
done
