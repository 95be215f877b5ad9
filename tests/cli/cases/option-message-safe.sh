# A refused option is quoted made safe to print, as every other message
# quotes what it was given (util_warn()): getopt's own message printed a
# terminal's escape sequence as it was.  The messages otherwise say what
# glibc's getopt says.  Exit 2, the usage on standard error.
for t in pebs-capture pebs-decode pebs-filter pebs-hist pebs-c2c pebs-import \
	 pebs-gen; do
	$t $'--x\e[2Jy' 2>&1 >/dev/null | head -1 | cat -v
	echo "rc=${PIPESTATUS[0]}"
done
for a in --bogus -Q -vQ -j --head --he=3 --he --help=3 --count=2 -: \
	 $'-\xc3\xa9'; do
	pebs-filter "$a" 2>&1 >/dev/null | head -1 | cat -v
done
# a tool whose short options start with '+' (pebs-capture: options end at
# the command): '+' is no option of its own
pebs-capture -+ 2>&1 >/dev/null | head -1
