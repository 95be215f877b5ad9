# Per-offset rows coalesced by tid and instruction, and by cpu only.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
pebs-c2c --top 1 -c tid,iaddr $TMP/s.pebs | sed -n '/^Line/,$p' &&
pebs-c2c --top 1 -c cpu -f yaml $TMP/s.pebs | grep -- '- {offset'
# by object: without process maps in the file, every instruction's is
# unknown, so the rows are those of the offset alone
pebs-c2c --top 1 -c dso $TMP/s.pebs | sed -n '/^    offset/,/^$/p' &&
pebs-c2c --top 1 -c dso,iaddr -f yaml $TMP/s.pebs | grep -c 'dso: "\[unknown\]"'
