# Group names reach the text table with control characters (ESC, a
# newline, C1 U+009B) as ?: a name cannot move the cursor or add a row
cd $TMP
printf 'time,event,lat\n1,"x\033[2J\ny",5\n2,"c1\302\233z",7\n' |
	pebs-import -f csv -o n.pebs &&
pebs-hist --by event -f text n.pebs | grep -a sample | cat -v
