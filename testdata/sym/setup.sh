# Sourced by the symbol CLI cases (tests/cli/cases/*-sym*): builds
# testdata/sym/prog.c with -g as $TMP/prog, runs it, and imports the samples
# it prints, with its own maps as metadata, into $TMP/s.pebs.
cc -g -O0 -o $TMP/prog $TD/sym/prog.c &&
$TMP/prog >$TMP/run.txt &&
head -n 1 $TMP/run.txt >$TMP/meta.args &&
tail -n +2 $TMP/run.txt >$TMP/s.csv &&
pebs-import $(cat $TMP/meta.args) -o $TMP/s.pebs $TMP/s.csv
