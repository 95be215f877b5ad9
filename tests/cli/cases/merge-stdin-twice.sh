# Standard input named twice in a --merge: the second "-" is empty (as
# when inputs were read whole), so the documents after the first "-"
# stopped at a refused one are not merged by the next "-" either
# (pebs-hist(1), pebs-c2c(1): "the rest of it is neither merged nor read").
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  values: [[5, 1]]\n' > $TMP/one.yaml
sed 's/\[\[5, 1\]\]/[[5, x]]/' $TMP/one.yaml > $TMP/bad.yaml
{ cat $TMP/one.yaml $TMP/bad.yaml; for i in $(seq 2000); do cat $TMP/one.yaml; done; } > $TMP/in.yaml
pebs-hist --merge -f csv - - < $TMP/in.yaml; echo "rc $?"
cat $TMP/in.yaml | pebs-hist --merge -f csv - -; echo "rc $?"
# a whole first "-": the second is empty, as before
pebs-hist --merge -f csv - - < $TMP/one.yaml; echo "rc $?"
pebs-c2c --merge -f csv - - < /dev/null; echo "rc $?"
