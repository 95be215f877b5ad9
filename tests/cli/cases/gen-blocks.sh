# --block sets samples per block; 1k means 1000.
pebs-gen -n 2500 --block 1k | pebs-decode --info | grep -E '^  (samples|blocks):'
