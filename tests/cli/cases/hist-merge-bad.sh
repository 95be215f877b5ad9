# --merge refuses malformed YAML with exit 1, naming the file and line
cd $TMP
# a field that is not numeric cannot be counted (it was "out of memory", 3)
printf -- '---\npebs_hist: 1\nfield: mem\nby: none\ngroups: []\n' >mem.yaml
pebs-hist --merge mem.yaml; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: bogus\nby: none\ngroups: []\n' >bogus.yaml
pebs-hist --merge bogus.yaml; echo "rc=$?"
