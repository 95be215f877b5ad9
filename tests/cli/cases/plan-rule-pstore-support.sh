pebs-capture --plan --uarch nhm -e precise-store
