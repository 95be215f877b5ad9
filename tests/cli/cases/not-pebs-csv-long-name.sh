# A CSV is told by its whole first line, not its first 16 bytes: a first
# column name longer than 15 characters (so no comma in a chunk header's
# worth) still gets the pebs-import hint, from a file, a pipe and with
# --salvage, and from the other readers; a line of prose with a comma
# after its first 16 bytes, or a first line without a comma, is just text;
# so is a first name of more than three unquoted words (pebs-decode(1)).
cd $TMP || exit 9
printf 'sample_time_in_nanoseconds,cpu,lat\n1,0,30\n' >long.csv
printf '"a quoted first column name",cpu\n1,0\n' >quoted.csv
printf 'time_of_the_sample_in_ns,note\n1,caf\303\251\n' >utf8.csv
printf 'These are the notes of the run, kept here\n' >prose.txt
printf 'a_single_long_name_and_no_comma\n1\n' >one.txt
# three words make a name, four a sentence (four were a name), however
# many spaces stand around and between them
printf 'time  in  ns ,lat\n1,30\n' >three.csv
printf 'time of the sample,lat\n1,30\n' >four.txt
for f in long.csv quoted.csv utf8.csv prose.txt one.txt three.csv four.txt; do
	pebs-decode $f; echo "rc=$?"
done
pebs-decode <long.csv; echo "rc=$?"
pebs-decode --salvage long.csv; echo "rc=$?"
pebs-hist long.csv; echo "rc=$?"
pebs-filter "lat > 0" long.csv >/dev/null; echo "rc=$?"
