# Any subset in any order; missing columns read 0.
pebs-import $TD/good/import-subset.csv | pebs-decode
