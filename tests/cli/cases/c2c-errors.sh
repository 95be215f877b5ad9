# Usage errors exit 2; bad YAML and damaged input exit 1, a missing file
# exits 3: the report of what was read still comes out (the cut .pebs),
# none when nothing could be read (0 lines); a full disk exits 3, a
# closed pipe downstream ends quietly with 0.
{
pebs-c2c --line-size 96 </dev/null; echo "rc $?"
pebs-c2c -d far </dev/null; echo "rc $?"
pebs-c2c -c pid,foo </dev/null; echo "rc $?"
pebs-c2c --stats -f yaml </dev/null; echo "rc $?"
pebs-c2c --access-size 0 </dev/null; echo "rc $?"
pebs-c2c --line-size 16 --access-size 32 </dev/null; echo "rc $?"
printf 'pebs_c2c: 1\ncells:\n  - [1, 2]\n' > $TMP/bad.yaml
pebs-c2c --merge -f csv $TMP/bad.yaml | wc -l; echo "rc $?"
printf 'just text\n' | pebs-c2c --merge -f csv | wc -l; echo "rc $?"
pebs-c2c --merge -f csv $TMP/missing.yaml | wc -l; echo "rc $?"
pebs-import -f csv $TD/good/c2c-sharing.csv -o $TMP/s.pebs &&
head -c 300 $TMP/s.pebs > $TMP/cut.pebs &&
pebs-c2c -f csv $TMP/cut.pebs | wc -l; echo "rc $?"
pebs-c2c -f csv -o /dev/full $TMP/s.pebs; echo "rc $?"
pebs-c2c --show-all -f yaml $TMP/s.pebs | head -1; echo "rc ${PIPESTATUS[0]}"
# a bad topology: named by its file (or standard input), left out whole,
# the report still comes out (nodes unknown) and the YAML stays mergeable.
# testdata/bad/c2c-bad-topology.pebs is good/c2c-sharing.csv with metadata
# topology.node.0.cpus "0-3x", written through libpebs: pebs-import --meta
# refuses that value.
cp $TD/bad/c2c-bad-topology.pebs $TMP/t.pebs || exit 9
pebs-c2c -f csv $TMP/t.pebs | cut -d, -f36 | sort -u; echo "rc ${PIPESTATUS[0]}"
pebs-c2c -f yaml < $TMP/t.pebs > $TMP/t.yaml; echo "rc $?"
pebs-c2c --merge -f csv $TMP/t.yaml | wc -l; echo "rc ${PIPESTATUS[0]}"
} 2>&1 | sed -e "s|$TMP|TMP|g" -e 's/offset 0x[0-9a-f]*/offset X/'
