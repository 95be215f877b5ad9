# An empty file and a header-only file hold no samples; not an error.
pebs-import $TD/good/import-empty.csv | pebs-decode &&
pebs-import $TD/good/import-header-only.csv | pebs-decode --fields time,cpu,lat &&
pebs-import $TD/good/import-empty.csv | pebs-decode --info | grep samples
