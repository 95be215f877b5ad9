# U+2028, U+2029 and U+0085 are line breaks to libyaml but content to YAML
# 1.2 readers: in a plain or single-quoted scalar libyaml broke the line
# there and indented ('x<U+2029>    y'), which those readers read back with
# the spaces.  Strings holding one are written double-quoted, with \L, \P,
# \N, in the samples (-f yaml) and in --info alike (event names, metadata
# keys and values).
ls=$(printf '\342\200\250') ps=$(printf '\342\200\251') nel=$(printf '\302\205')
printf 'time,cpu,event\n1,0,x%sy\n2,0,a%sb\n3,0,c%sd\n' "$ps" "$nel" "$ls" \
	>$TMP/ls.csv &&
pebs-import $TMP/ls.csv -o $TMP/ls.pebs --meta "u=v${ls}w" \
	--meta "k${ps}l=plain" --meta "n.a${nel}=1" &&
pebs-decode -f yaml --fields time,event $TMP/ls.pebs &&
pebs-decode --info $TMP/ls.pebs >$TMP/info.yaml &&
sed -n '/^  u:/,/^summary:/p' $TMP/info.yaml &&
grep -a '^  - name: "' $TMP/info.yaml
