# Names and values from input files reach messages as text tables show
# them: controls (C0, '\n' and '\t' too, DEL, C1) and invalid UTF-8 as
# '?'.  They went to the terminal raw, so a file from another machine
# could set its title, clear it or fake a line of its own.  stderr is
# shown through cat -v: a raw byte would read ^[ or M-^[ here.
# testdata/bad/msg-hostile-meta.pebs was written through libpebs (the
# tools refuse such values): event "\e]0;PWNED\ar\e[31md\nfake: line",
# time.unit "\e[2J\nfake: unit", tsc.hz "1\e]0;X\a" and
# topology.node.0.cpus "0-3\e[31m\xc2\x9bx\x7f\xff".
h=$TD/bad/msg-hostile-meta.pebs
cp $h $TMP/h.pebs || exit 9
cd $TMP
{
# the event names of a "matches no event" warning (util_evcheck.c)
pebs-filter -c 'event == "red"' h.pebs
# a malformed tsc.hz (lib/expr.c)
pebs-filter -c 't > 1ms' h.pebs
# a bad topology cpu list (lib/c2c.c)
pebs-c2c h.pebs >/dev/null
# a time.unit perf.data cannot take (lib/perfwrite.c)
pebs-decode -f perf -o o.data "$OLDPWD/$TD/good/filter-hist-2k.pebs" h.pebs
# --merge: a group, a field name and a --where decoded from YAML escapes
printf -- '---\npebs_hist: 1\nfield: lat\nby: mem\ngroups:\n- group: "\\e[31mL1\\nfake: line"\n  values: [[5, 1]]\n' >g.yaml
pebs-hist --merge g.yaml
printf -- '---\npebs_hist: 1\nfield: "\\e]0;X\\a"\nby: none\ngroups: []\n' >f.yaml
pebs-hist --merge f.yaml
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\nwhere: "lat > 1\\e[2J\\x9b"\ngroups: []\n' >w.yaml
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups: []\n' >n.yaml
pebs-hist --merge w.yaml n.yaml >/dev/null
# pebs-import: a thread renamed, and an excerpt of a bad value (C1 as
# UTF-8 and as a raw byte, DEL, a byte of no UTF-8, '"')
printf 'pid,tid,comm\n1,1,"a\033]0;X\007"\n1,1,"b\033[2J\nfake: line"\n' >c.csv
pebs-import c.csv >/dev/null
printf 'pid,tid,lat\n1,1,"5\302\23331m\233\177\377""x"\n' >l.csv
pebs-import l.csv >/dev/null
# a message that is no name is cut to lines as it was: a bad -j
pebs-filter -j "$(printf '1\033[2J')" true h.pebs
} 2>&1 | cat -v
