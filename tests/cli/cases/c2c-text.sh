# Golden text report, read from a pipe: one line of each verdict kind.
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c
