pebs-c2c --version && pebs-c2c -h | head -3 && pebs-c2c --bogus 2>&1 | head -2
