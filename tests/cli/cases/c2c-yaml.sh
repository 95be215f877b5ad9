# The complete YAML result (report and the cells it was computed from).
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c -f yaml --top 2
