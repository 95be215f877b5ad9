# A chain of 2047 comparisons (the node limit allows 2048 terms) is walked
# along, not recursed into: with an 128 KiB stack, which glibc also gives
# the reader's threads, it crashed (SIGSEGV) in block analysis
f=$TD/good/filter-hist-2k.pebs
or=$(seq -f 'lat == %g' 1 2047 | paste -sd'#' | sed 's/#/ or /g')
and=$(seq -f 'lat != %g' 1 2047 | paste -sd'#' | sed 's/#/ and /g')
ulimit -s 128
pebs-filter -j 2 --count "$or" $f; echo "rc=$?"
pebs-filter -j 2 --count "lat in 1..2047" $f
pebs-filter -j 2 --count "$and" $f; echo "rc=$?"
pebs-filter -j 2 --count "not lat in 1..2047" $f
pebs-filter --explain "$or" | md5sum
# the counts of the same samples
pebs-hist -f csv --by mem --where "$or" $f | md5sum
pebs-hist -f csv --by mem --where "lat in 1..2047" $f | md5sum
