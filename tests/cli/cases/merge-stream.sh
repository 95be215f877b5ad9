# --merge parses its inputs as they are read, holding results, not text
# (pebs-hist(1): "read as a stream, in little memory"): a document that
# is refused stops the input there, while its writer still writes.  Each
# input was read whole first, so these never ended (timeout's 124)
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c -f yaml -o $TMP/c2c.yaml
cd $TMP
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  values: [[5, 1]]\n' >one.yaml
sed 's/field: lat/field: ins_lat/' one.yaml >other.yaml
{ cat one.yaml other.yaml; yes -- "$(cat one.yaml)"; } |
	timeout 5 pebs-hist --merge -f csv
echo "rc=${PIPESTATUS[1]}"
# the first result's head makes the histogram: a bad one ends it too
{ printf -- '--- {pebs_hist: 2}\n'; yes -- "$(cat one.yaml)"; } |
	timeout 5 pebs-hist --merge -f csv
echo "rc=${PIPESTATUS[1]}"
# as does pebs-c2c --merge
{ cat c2c.yaml; printf -- '--- {pebs_c2c: 99}\n'; yes -- "$(cat c2c.yaml)"; } |
	timeout 5 pebs-c2c --merge -f csv | md5sum
echo "rc=${PIPESTATUS[1]}"
pebs-c2c --merge -f csv c2c.yaml | md5sum
