# --fields help (or list): every field with its kind and a one-line
# meaning, exit 0, in pebs-decode and pebs-filter alike.
pebs-decode --fields help; echo "rc=$?"
pebs-filter --fields list 'lat > 0' | cmp - <(pebs-decode --fields help) &&
	echo "pebs-filter: same list"
