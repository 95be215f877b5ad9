# The metadata pebs-import writes (time and host vary: shown as keys only).
pebs-import $TD/good/decode-basic.csv | pebs-decode --info |
	sed -n '/^metadata:/,/^summary:/p' |
	sed -E 's/^(  (start_time|host)):.*/\1: .../'
