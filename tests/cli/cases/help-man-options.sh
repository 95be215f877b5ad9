# Every option a man page's OPTIONS section documents (the names of its .TP
# items) is named in the tool's --help, and every option --help names is
# documented there: pebs-gen --help named only --threads of its own, and
# the others' left out the long forms of -f, -o, -j, -b, -e, ... .  And
# --help fits an 80-column terminal (the default --fields list made a line
# of 123 characters).  Prints each name missing on one side, and each
# longer line; nothing when all is well.
for t in capture decode filter hist c2c import gen; do
	man=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 }
		   on && tp { print; tp = 0 } on && /^\.TP/ { tp = 1 }' \
		  man/pebs-$t.1 | sed 's/\\-/-/g; s/\\f[BIRP]//g' |
	      grep -oE -- '(^|[ ",])--?[a-zA-Z][a-zA-Z0-9-]*' |
	      sed 's/^[ ",]//' | sort -u)
	help=$(pebs-$t --help | grep -oE -- '(^|[ ,[|])--?[a-zA-Z][a-zA-Z0-9-]*' |
	       sed 's/^[ ,[|]//' | sort -u)
	comm -23 <(echo "$man") <(echo "$help") | sed "s/^/pebs-$t: not in --help: /"
	comm -13 <(echo "$man") <(echo "$help") | sed "s/^/pebs-$t: not in the man page: /"
	pebs-$t --help | awk -v t=pebs-$t 'length > 80 {
		print t ": --help line of " length " columns: " $0 }'
done
echo "options checked"
