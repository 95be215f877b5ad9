# svg: a log-log step plot per group, with axes, labels and a legend
f=$TD/good/filter-hist-2k.pebs
pebs-hist -f svg --by mem $f
