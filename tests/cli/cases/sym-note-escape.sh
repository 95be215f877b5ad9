# The paths of the symbol notes come from the metadata, untrusted: a
# control character (ESC, a C1 CSI) or a byte of no UTF-8 character reads
# '?' in the note, as in the text reports, instead of reaching the
# terminal as it is (cat -v would show ^[ or M- here).  A binary not
# found, and a stripped one (its file's name holds an ESC).
esc=$(printf '\033') csi=$(printf '\302\233') bad=$(printf '\377')
pebs-import --meta maps.0.pid=4242 --meta maps.0.start=0x400000 \
	--meta maps.0.end=0x401000 --meta maps.0.pgoff=0 \
	--meta "maps.0.path=/no/${esc}[31mred${csi}2J${bad}x" \
	-o $TMP/a.pebs $TD/good/decode-basic.csv &&
pebs-decode -f csv --fields sym $TMP/a.pebs 2>&1 >/dev/null |
	sed "s|$TMP|TMP|g" | cat -v &&
. $TD/sym/setup.sh &&
cp $TMP/prog "$TMP/st${esc}]0;x" && strip "$TMP/st${esc}]0;x" &&
sed "s|=$TMP/prog |=$TMP/st${esc}]0;x |g; s|=$TMP/prog\$|=$TMP/st${esc}]0;x|" \
	$TMP/meta.args >$TMP/strip.args &&
pebs-import $(cat $TMP/strip.args) -o $TMP/strip.pebs $TMP/s.csv &&
pebs-hist -f csv --by sym $TMP/strip.pebs 2>&1 >/dev/null |
	sed "s|$TMP|TMP|g" | cat -v
