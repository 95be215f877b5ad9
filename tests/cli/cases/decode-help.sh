pebs-decode --help | grep -E -- '^ +--(fields|info|salvage|no-header) ' | cut -c1-16 &&
pebs-decode -h | head -1 | cut -c1-20 && pebs-decode --version
