# Every sample's CPU is one of the 56 the metadata's topology has, on the
# socket of its thread (even threads 0-27, odd 28-55): with 57 to 64
# threads the last ones ran on CPUs 56-59, in no node, and threads
# 56-62 on socket 1's CPUs.  Per thread: its CPUs, one line each.
pebs-gen -n 100000 --threads 64 --seed 2 |
pebs-decode -f csv --no-header --fields tid,cpu | sort -u |
awk -F, '{ t = $1 - 4242; bad = $2 > 55 || (t % 2) != ($2 >= 28) }
	 bad { print "thread " t " on CPU " $2 } { n[$1]++ }
	 END { for (k in n) if (n[k] != 1) print k " on " n[k] " CPUs";
	       print length(n) " threads" }'
pebs-gen -n 1 --threads 64 | pebs-decode --info |
grep -E '^    nr_cpus|^    - cpus'
