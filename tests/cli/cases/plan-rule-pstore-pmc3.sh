pebs-capture --plan --uarch snb -e precise-store -e precise-store
