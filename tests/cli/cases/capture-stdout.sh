# With no -o the record format goes to standard output (a pipe here).
pebs-capture -b sim --uarch skx --workload false-sharing -c 997 2>/dev/null |
	pebs-decode --info | grep -E '^ *(source|uarch|samples):'
