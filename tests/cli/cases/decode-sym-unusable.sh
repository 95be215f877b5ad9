# A map of an object that cannot be used (here: not found) over the text
# of a usable one in the same pid: its addresses read [unknown], not the
# other object's symbols under its name (dso /nonexistent.so, sym main).
. $TD/sym/pie-setup.sh &&
x=" --meta maps.9.pid=7 --meta maps.9.start=0x555555555000" &&
x="$x --meta maps.9.end=0x555555556000 --meta maps.9.pgoff=0x1000" &&
x="$x --meta maps.9.path=/nonexistent.so" &&
pebs-import $(cat $TMP/maps.args) $x -o $TMP/r.pebs $TMP/r.csv &&
pebs-decode -f csv --fields dso,sym,srcline,data_sym $TMP/r.pebs 2>&1 |
	sed "s|$TMP|TMP|g"
