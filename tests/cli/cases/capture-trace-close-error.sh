# libpebs-trace: a write that the file system reports lost only at fsync()
# or close() (NFS, a full disk under delayed allocation) makes the trace
# an "error" one, as a failed write() does (formats/trace-format.md
# section 7), not a trace that ends with "end N" and claims to be whole:
# the message on standard error, the file emptied but for "pebs-trace 2"
# and "error WHY" (after a failed close, opened again by its name), and
# pebs-capture says the trace is incomplete, exit 3.  The program's own
# close() and fsync() stand in for the file system's: they fail on the
# trace, once, as FAIL says.
cd $TMP || exit 9
cc -std=gnu11 -O2 -D_GNU_SOURCE -c -o rt.o "$OLDPWD/trace/pebs-trace.c" ||
	exit 9
cat >p.c <<'C'
volatile long g[64];
int main(void)
{
	for (long i = 0; i < 1000; i++)
		g[i % 64] += i;
	return 0;
}
C
cat >fail.c <<'C'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
/* Whether @fd is the trace and FAIL names @what: once only. */
static int fails(int fd, const char *what)
{
	static int done;
	char l[64], t[4096];
	const char *f = getenv("FAIL"), *out = getenv("PEBS_TRACE_OUT");
	snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(l, t, sizeof(t) - 1);
	if (done || !f || strcmp(f, what) || !out || n <= 0)
		return 0;
	t[n] = '\0';
	size_t k = strlen(out);
	return done = (size_t)n >= k && !strcmp(t + n - k, out);
}
int fsync(int fd)
{
	if (fails(fd, "fsync")) {
		errno = ENOSPC;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}
int close(int fd)
{
	int f = fails(fd, "close");
	int r = (int)syscall(SYS_close, fd);
	if (f) {
		errno = EIO;
		return -1;
	}
	return r;
}
C
cc -O1 -fsanitize=thread -c -o p.o p.c && cc -O1 -c -o fail.o fail.c &&
	cc -o p p.o fail.o rt.o -pthread -ldl || exit 9
for f in none fsync close; do
	FAIL=$f PEBS_TRACE_OUT=t.txt ./p
	echo "$f: rc $?"
	head -1 t.txt
	tail -1 t.txt | sed "s/^end [0-9]*$/end N/"
done
FAIL=close pebs-capture -b sim -o x.pebs -- ./p 2>&1 |
	sed -E 's|/[^ ]*/pebs-trace-[A-Za-z0-9]*|TRACE|'
echo "capture: rc $?"
