# raw and libpfm4 names on Skylake; -o writes the plan to a file
pebs-capture --plan --uarch skl -e r20d1 -e BR_INST_RETIRED.NEAR_TAKEN:period=1000 -o $TMP/plan.yaml && cat $TMP/plan.yaml
