# Every tool that writes -o FILE refuses an -o that names one of its inputs
# (also through another path), before truncating it: exit 2.
pebs-import $TD/good/decode-basic.csv -o $TMP/x.pebs &&
cp $TMP/x.pebs $TMP/keep.pebs || exit 9
cd $TMP || exit 9
pebs-decode -f pebs -o x.pebs ./x.pebs; echo "rc=$?"
ln -s x.pebs link.pebs && pebs-decode -f csv -o link.pebs keep.pebs x.pebs; echo "rc=$?"
pebs-filter 'lat > 0' -o x.pebs x.pebs; echo "rc=$?"
pebs-hist -o x.pebs x.pebs; echo "rc=$?"
pebs-c2c -o x.pebs x.pebs; echo "rc=$?"
# Standard input redirected from the output file is that file too.
pebs-decode -f pebs -o x.pebs < x.pebs; echo "rc=$?"
pebs-filter -o x.pebs true - < x.pebs; echo "rc=$?"
# and so is standard input read because no input is named
pebs-c2c -o x.pebs < x.pebs; echo "rc=$?"
pebs-hist -o x.pebs < x.pebs; echo "rc=$?"
pebs-filter -o x.pebs true < x.pebs; echo "rc=$?"
pebs-c2c -f yaml x.pebs > r.yaml && cp r.yaml keep.yaml || exit 9
pebs-c2c --merge -f yaml -o r.yaml < r.yaml; echo "rc=$?"
pebs-hist -f yaml x.pebs > h.yaml && cp h.yaml keep-h.yaml || exit 9
pebs-hist --merge -f yaml -o h.yaml < h.yaml; echo "rc=$?"
cmp r.yaml keep.yaml && cmp h.yaml keep-h.yaml && echo "results kept"
pebs-decode -f csv < x.pebs > x.csv && cp x.csv keep.csv || exit 9
pebs-import -o x.csv < x.csv; echo "rc=$?"
cmp x.csv keep.csv && echo "csv kept"
cmp x.pebs keep.pebs && echo "input kept"
# A new output file, and stdout, are not inputs.  (The copy has the same
# samples; its metadata adds time.origin, so the bytes differ.)
pebs-decode -f pebs -o y.pebs x.pebs &&
pebs-decode -f csv y.pebs > y.csv && cmp y.csv keep.csv && echo copied &&
pebs-decode x.pebs | wc -l
