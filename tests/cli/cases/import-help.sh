pebs-import --help | head -1 && pebs-import -h | grep -c -- --level &&
pebs-import --version
