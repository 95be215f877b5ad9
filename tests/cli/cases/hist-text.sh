# the text table with its bar chart
# the bars in Unicode (hist-text-charset: which locales give ASCII)
export LC_ALL=C.UTF-8
f=$TD/good/filter-hist-2k.pebs
pebs-hist -f text --by mem $f
pebs-hist -f text --by event --percentiles 50,99.9 --bins 0,8,64,512 $f
