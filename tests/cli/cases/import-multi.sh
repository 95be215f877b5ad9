# Several inputs, each with its own header, make one stream.
pebs-import $TD/good/import-subset.csv $TD/good/decode-basic.csv |
	pebs-decode --fields time,event,lat,addr
