# --help describes every option of pebs-gen(1): it described --threads
# and -h only, so COUNT's suffixes, the ranges of --block and --level and
# the defaults were in the man page alone.
for o in '-n, --count COUNT' '--seed N' '--threads N' '--block N' '--level N' \
	 '-o, --output FILE' '-h, --help'; do
	pebs-gen --help | grep -c -e "^  $o "
done
