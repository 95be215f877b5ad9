# A PIE mapped as Linux maps it: the RELRO part of the RW segment shares a
# file page (pgoff) with the read-only segment before it.  Its map takes
# the load bias the other maps agree on, so .data.rel.ro (a const table of
# function pointers) resolves, with no note about overlapping loads.
. $TD/sym/pie-setup.sh &&
pebs-import $(cat $TMP/maps.args) -o $TMP/r.pebs $TMP/r.csv &&
pebs-decode -f csv --fields sym,srcline,data_sym $TMP/r.pebs
