# pebs-hist --by sym (names without offsets), data_sym, srcline; the yaml
# groups merge back exactly; --where on a symbol field.
. $TD/sym/setup.sh &&
pebs-hist -f csv --by sym --percentiles 50,100 $TMP/s.pebs &&
pebs-hist -f csv --by data_sym $TMP/s.pebs &&
pebs-hist -f csv --by srcline --percentiles 100 $TMP/s.pebs &&
pebs-hist -f csv --by sym --where 'data_sym == table' --percentiles 100 \
	$TMP/s.pebs &&
pebs-hist -f yaml --by sym $TMP/s.pebs >$TMP/h.yaml &&
pebs-hist --merge -f csv --percentiles 50 $TMP/h.yaml $TMP/h.yaml &&
pebs-hist -f csv --field sym $TMP/s.pebs
