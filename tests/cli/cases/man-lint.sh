# The man pages render whole: a text line that begins with '.' or "'" is
# read by roff as a request (man/pebs-filter.1 once lost "...)." that way,
# and the words after it), so every such line must be a request the pages
# use; and groff, where installed (groff-base, scripts/deps.sh --test),
# warns of nothing, also as man renders a page on an 80-column terminal
# (a line of 78 ens) in a UTF-8 locale and in the C locale (ASCII: a
# glyph it lacks, a line it cannot adjust).  Prints each offending line;
# nothing when clean.
known=' TH SH SS PP LP P IP TP B I BR BI IB IR RB RI SB SM EX EE RS RE TS TE nf fi br sp in ad na ne UR UE MT ME if '
for f in man/*.[1-9]; do
	awk -v known="$known" -v f="$f" '
		/^[.'\'']/ {
			line = $0
			sub(/^[.'\''][ \t]*/, "", line)
			if (line == "" || line ~ /^\\"/) next
			split(line, w, /[ \t]/)
			if (index(known, " " w[1] " ") == 0)
				printf "%s:%d: not a request: %s\n", f, NR, $0
		}' "$f"
done
if command -v groff >/dev/null 2>&1; then
	for f in man/*.[1-9]; do
		groff -man -ww -z "$f" 2>&1
		for dev in utf8 ascii; do
			groff -man -ww -z -T$dev -rLL=78n -rLT=78n "$f" 2>&1
		done
	done
fi
echo "man pages checked"
