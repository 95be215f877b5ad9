# Options that would change nothing are refused (exit 2) alike in
# pebs-decode and pebs-filter: the text options with binary output, and
# the output options with --count and --explain
pebs-gen -n 10 -o $TMP/x.pebs || exit 9
pebs-decode -f pebs --no-header $TMP/x.pebs >/dev/null; echo "rc=$?"
pebs-decode -f perf --no-header $TMP/x.pebs >/dev/null; echo "rc=$?"
pebs-decode -f perf --fields lat $TMP/x.pebs >/dev/null; echo "rc=$?"
pebs-filter --no-header 'lat>0' $TMP/x.pebs >/dev/null; echo "rc=$?"
pebs-filter -c --level 3 'lat>0' $TMP/x.pebs; echo "rc=$?"
pebs-filter --explain --level 3 'lat>0'; echo "rc=$?"
pebs-filter --explain -f csv 'lat>0'; echo "rc=$?"
pebs-filter --explain --no-header 'lat>0'; echo "rc=$?"
pebs-filter --explain --fields lat 'lat>0'; echo "rc=$?"
# --explain reads no input: what chooses or reads samples does not apply
for o in -c '--head 1' '--sample 2' --salvage '-j 1' '--symfs /nonexistent'; do
	pebs-filter --explain $o 'lat>0'; echo "rc=$?"
done
pebs-filter --explain -v 'lat>0'; echo "rc=$?"
# an empty --symfs is no --symfs (pebs-decode(1)): not refused here either
pebs-filter --explain --symfs '' 'lat>0'; echo "rc=$?"
# --info ignores them, as it says
pebs-decode --info -f pebs --no-header $TMP/x.pebs | head -1; echo "rc=$?"
