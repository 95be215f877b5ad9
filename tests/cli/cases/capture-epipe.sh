# A closed pipe downstream ends the capture quietly with status 0 (its
# registers restored first): no summary, no message.
pebs-capture -b sim --uarch skx --workload false-sharing -c 1 |
	head -c 100 >/dev/null
echo "rc=${PIPESTATUS[*]}"
