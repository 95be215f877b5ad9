# -- COMMAND runs with the signal dispositions pebs-capture was started
# with: not with the SIGPIPE that the tool itself ignores (an exec keeps
# an ignored signal), so `yes | head -1` in it ends quietly; and a
# SIGINT ignored by the caller stays ignored, as it would outside.  (sh
# has no libpebs-trace: the capture is refused after the command ran.)
# Only the standard signals, 1-31, are compared: the C library's own
# (32, 33) are not the tool's, and the sanitizers' runtime changes them.
cmd='sed -n "s/^SigIgn:[[:space:]]*//p" /proc/self/status |
	while read h; do printf "SigIgn 1-31: %08x\n" $((0x$h & 0x7fffffff)); done'
outside=$(sh -c "$cmd")
inside=$(pebs-capture -b sim -o $TMP/x.pebs -- sh -c "$cmd" 2>/dev/null)
[ "$inside" = "$outside" ] && echo "ignored signals: as outside" ||
	echo "ignored signals: $inside, outside $outside"
outside=$(trap '' INT; sh -c "$cmd")
inside=$(trap '' INT; pebs-capture -b sim -o $TMP/x.pebs -- sh -c "$cmd" \
	2>/dev/null)
[ "$inside" = "$outside" ] && echo "with SIGINT ignored: as outside" ||
	echo "with SIGINT ignored: $inside, outside $outside"
pebs-capture -b sim -o $TMP/x.pebs -- sh -c 'yes | head -1' 2>&1 |
	grep -v 'wrote no trace'
