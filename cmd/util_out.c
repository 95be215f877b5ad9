/*
 * util_out.c - -o FILE written as a temporary beside it and renamed over
 * it, so that a run that read nothing leaves FILE as it was (util.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/*
 * The one output pending: fixed storage, as the signal handler reads the
 * temporary's name.  tmp[0] is 0 when none is.
 */
static struct {
	FILE *fp;		/* the temporary's stream; NULL once closed */
	char tmp[PATH_MAX];
	char dst[PATH_MAX];	/* FILE, or the file its symbolic link names */
	pid_t owner;		/* a forked child's exit or signal: not ours */
	int keep;		/* util_out_keep() */
	int bad;		/* a write failed: never renamed */
} pend;

/* Fatal signals that were at their default when the temporary was made. */
static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_fatal(int sig)
{
	int saved = errno;
	if (pend.tmp[0] && getpid() == pend.owner)
		unlink(pend.tmp);
	errno = saved;
	/* SA_RESETHAND restored the default: the same death as without us */
	raise(sig);
}

static void discard(void)
{
	unlink(pend.tmp);
	pend.tmp[0] = '\0';
}

/*
 * The temporary's bytes copied into FILE in place, the temporary removed:
 * for a FILE that rename() cannot replace (a file bind-mounted over
 * another, EBUSY, as containers' -v out.csv:/out.csv; EXDEV).  0, or -1
 * with errno (the temporary kept).
 */
static int copy_over(void)
{
	char buf[65536];
	int in = open(pend.tmp, O_RDONLY | O_CLOEXEC), out = -1, saved;
	ssize_t n = 0;
	if (in >= 0)
		out = open(pend.dst, O_WRONLY | O_TRUNC | O_CLOEXEC);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0) {
		ssize_t o = 0, w = 0;
		while (o < n && (w = write(out, buf + o, (size_t)(n - o))) > 0)
			o += w;
		if (w <= 0) {
			n = -1;
			break;
		}
	}
	saved = errno;
	if (out >= 0 && close(out) < 0 && n == 0) {
		n = -1;
		saved = errno;
	}
	if (in >= 0)
		close(in);
	if (out < 0 || n < 0) {
		errno = saved;
		return -1;
	}
	unlink(pend.tmp);
	return 0;
}

/*
 * Renames the closed temporary over FILE; 0, or -1 with errno after a
 * message: the output then stays in the temporary, which it names (a
 * whole run's output is not thrown away because FILE could not be
 * replaced).
 */
static int commit(void)
{
	if (rename(pend.tmp, pend.dst) < 0 &&
	    ((errno != EBUSY && errno != EXDEV) || copy_over() < 0)) {
		util_warn("%s: cannot replace it with the output, left in "
			  "%s:", pend.dst, pend.tmp);
		pend.tmp[0] = '\0';
		return -1;
	}
	pend.tmp[0] = '\0';
	return 0;
}

/* Whether the temporary holds a result: bytes, or util_out_keep(). */
static int has_output(int fd)
{
	struct stat st;
	return pend.keep || (fstat(fd, &st) == 0 && st.st_size > 0);
}

/*
 * At exit (util_die() included): what was written stays, unless a write
 * failed; an empty output replaces FILE only after a success.
 */
static void at_exit(int status, void *arg)
{
	(void)arg;
	if (!pend.tmp[0] || getpid() != pend.owner)
		return;
	int out = pend.keep;
	if (pend.fp) {
		FILE *fp = pend.fp;
		pend.fp = NULL;
		if (fflush(fp) == EOF || ferror(fp))
			pend.bad = 1;
		out = has_output(fileno(fp));
		if (fclose(fp) == EOF)
			pend.bad = 1;
	}
	if (pend.bad || (status != EXIT_OK && !out)) {
		discard();
		return;
	}
	if (commit() < 0) {
		if (status == EXIT_OK) {
			fflush(stdout);
			_exit(EXIT_SYS);
		}
	}
}

/*
 * FILE's directory, a dot, its name and a dot and six random letters; the
 * name cut so that the whole fits NAME_MAX (and @cap): a name of 248 to
 * 255 bytes made the temporary's too long, and FILE was written in place.
 */
static int tmp_name(char *buf, size_t cap, const char *dst, unsigned salt)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(dst, '/');
	size_t dir = slash ? (size_t)(slash + 1 - dst) : 0;
	size_t base = strlen(dst + dir), extra = 8;	/* ".", ".xxxxxx" */
	if (base > NAME_MAX - extra)
		base = NAME_MAX - extra;
	if (dir + extra >= cap)
		return -1;
	if (dir + base + extra >= cap)
		base = cap - 1 - dir - extra;
	char rnd[7];
	for (int i = 0; i < 6; i++, salt /= 36)
		rnd[i] = abc[salt % 36];
	rnd[6] = '\0';
	snprintf(buf, cap, "%.*s.%.*s.%s", (int)dir, dst, (int)base,
		 dst + dir, rnd);
	return 0;
}

/*
 * Whether FILE @path (existing) must be written in place: replacing it
 * would change what it is to others.  Not writable by us (a
 * write-protected file is refused, as before, not replaced); an access
 * control list (the temporary would not have it).  A FILE that rename()
 * cannot replace (a bind mount) is copied into at the end (commit()).
 */
static int keep_in_place(const char *path)
{
	return access(path, W_OK) < 0 ||
	       getxattr(path, "system.posix_acl_access", NULL, 0) >= 0;
}

FILE *util_out_tmp(const char *path)
{
	struct stat st, lst;
	/* "" names no file, though stat() says ENOENT as of a missing one:
	 * the temporary would be "..XXXXXX" here, FILE never replaced */
	if (!*path)
		return NULL;
	int exists = stat(path, &st) == 0;
	/*
	 * Written in place, as before: a device, a FIFO (/dev/stdout,
	 * /dev/null), a file shared with other names or owned by someone
	 * else (a rename would cut the links or take it over), and a
	 * second output (one is pending).
	 */
	if (pend.tmp[0] || (exists ? !S_ISREG(st.st_mode) ||
			    st.st_nlink > 1 || st.st_uid != geteuid() :
			    errno != ENOENT))
		return NULL;
	int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	if (is_link && !exists)
		return NULL;	/* a dangling link: created through it */
	if (is_link) {
		/* the file the link names is replaced, the link kept */
		char *real = realpath(path, NULL);
		size_t len = real ? strlen(real) : 0;
		if (real && len < sizeof(pend.dst))
			memcpy(pend.dst, real, len + 1);
		free(real);
		if (!len || len >= sizeof(pend.dst))
			return NULL;
	} else if (snprintf(pend.dst, sizeof(pend.dst), "%s", path) >=
		   (int)sizeof(pend.dst)) {
		return NULL;
	}
	/* (a link's file judged where it lies) */
	if (exists && keep_in_place(pend.dst))
		return NULL;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	unsigned salt = (unsigned)ts.tv_nsec ^ (unsigned)getpid() << 12;
	int fd = -1;
	/* a new FILE gets 0666 less the umask, as fopen() gives it; an
	 * existing one keeps its mode, as when it was overwritten */
	for (int i = 0; fd < 0 && i < 100; i++) {
		salt = salt * 1103515245u + 12345u;
		if (tmp_name(pend.tmp, sizeof(pend.tmp), pend.dst, salt) < 0)
			break;
		fd = open(pend.tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  exists ? 0600 : 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	/* an unwritable directory: FILE itself may still be writable */
	if (fd < 0) {
		pend.tmp[0] = '\0';
		return NULL;
	}
	FILE *fp = NULL;
	/* an existing FILE's group and mode (fchown: the group only, which
	 * its owner, us, may give) */
	if ((exists && (fchown(fd, (uid_t)-1, st.st_gid) < 0 ||
			fchmod(fd, st.st_mode & 07777) < 0)) ||
	    !(fp = fdopen(fd, "wb"))) {
		close(fd);
		discard();
		return NULL;
	}
	static int armed;
	if (!armed) {
		armed = 1;
		on_exit(at_exit, NULL);
		for (size_t i = 0; i < sizeof(fatal) / sizeof(*fatal); i++) {
			struct sigaction old, sa = { .sa_handler = on_fatal,
						     .sa_flags = SA_RESETHAND };
			sigemptyset(&sa.sa_mask);
			if (sigaction(fatal[i], NULL, &old) == 0 &&
			    !(old.sa_flags & SA_SIGINFO) &&
			    old.sa_handler == SIG_DFL)
				sigaction(fatal[i], &sa, NULL);
		}
	}
	pend.fp = fp;
	pend.owner = getpid();
	pend.keep = 0;
	pend.bad = 0;
	return fp;
}

int util_out_close(FILE *fp, const char *path)
{
	if (!pend.tmp[0] || fp != pend.fp)
		return 0;
	pend.fp = NULL;
	int out = has_output(fileno(fp));
	if (fclose(fp) == EOF) {
		pend.bad = 1;
		util_write_failed(path);
	}
	/* an empty output waits for the exit status (at_exit) */
	if (out && commit() < 0)
		exit(EXIT_SYS);
	return 1;
}

void util_out_keep(void)
{
	pend.keep = 1;
}

void util_out_bad(void)
{
	pend.bad = 1;
}
