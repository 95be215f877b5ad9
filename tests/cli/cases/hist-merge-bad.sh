# --merge refuses malformed YAML with exit 1, naming the file and line
cd $TMP
# a field that is not numeric cannot be counted (it was "out of memory", 3)
printf -- '---\npebs_hist: 1\nfield: mem\nby: none\ngroups: []\n' >mem.yaml
pebs-hist --merge mem.yaml; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: bogus\nby: none\ngroups: []\n' >bogus.yaml
pebs-hist --merge bogus.yaml; echo "rc=$?"
# a count of zero makes up a group of no samples; lat is a u32 field.  A
# result refused before any of its counts is no input read: nothing is
# written (it was a CSV header alone), as pebs-c2c --merge does
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  count: 0\n  values:\n  - [1, 0]\n' >zero.yaml
pebs-hist --merge -f csv --percentiles 50 zero.yaml; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  count: 0\n  values: []\n' >empty.yaml
pebs-hist --merge -f csv --percentiles 50 empty.yaml; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  count: 1\n  values:\n  - [4294967296, 1]\n' >wide.yaml
pebs-hist --merge -f csv --percentiles 50 wide.yaml; echo "rc=$?"
# count is optional (it follows from the values), checked when given
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  values:\n  - [3, 2]\n  - [4294967295, 1]\n' >nocount.yaml
pebs-hist --merge -f csv --percentiles 50 nocount.yaml; echo "rc=$?"
sed 's/^  values:/  count: 4\n  values:/' nocount.yaml >badcount.yaml
pebs-hist --merge -f csv --percentiles 50 badcount.yaml; echo "rc=$?"
# counts that add up past 2^64-1 over documents or groups are refused (they
# wrapped: 18446744073709551614 samples, or "0 samples, 2 groups"), and
# the text table's count column widens for counts of 13 digits and more
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  values: [[5, 18446744073709551615]]\n' >max.yaml
pebs-hist --merge -f text max.yaml max.yaml; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: lat\nby: mem\ngroups:\n- group: L1\n  values: [[5, 9223372036854775808]]\n- group: L2\n  values: [[5, 9223372036854775808]]\n' >half.yaml
pebs-hist --merge -f csv half.yaml; echo "rc=$?"
# -o's file stays as it was when every result was refused before a count
echo keep >keep.csv
pebs-hist --merge -f csv -o keep.csv wide.yaml zero.yaml; echo "rc=$?"
cat keep.csv
