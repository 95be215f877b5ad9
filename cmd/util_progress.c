/*
 * util_progress.c - the progress line of the .pebs readers, pebs-import
 * and pebs-gen (see util_progress.h).  Costs one clock read per batch of
 * up to 65536 samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "util_progress.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int util_progress_wanted(FILE *out)
{
	const char *e = getenv("PEBS_PROGRESS"), *term = getenv("TERM");

	/* a dumb terminal cannot erase a line: the updates would pile up */
	return isatty(STDERR_FILENO) && !(e && !strcmp(e, "0")) &&
	       !(term && !strcmp(term, "dumb")) &&
	       !(out && isatty(fileno(out)));
}

void util_progress_print(const char *line)
{
	struct winsize ws;
	int cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col ?
		   ws.ws_col : 80;
	/*
	 * One row, short of the last column: a line that wrapped would leave
	 * a row behind at each update, "\r" going back only to the last one.
	 * The tools' names and totals are ASCII, so bytes are columns.
	 */
	int len = (int)strlen(line), max = cols > 1 ? cols - 1 : 1;
	fprintf(stderr, "\r%.*s\033[K", len < max ? len : max, line);
	util_progress_shown = 1;
}

void util_progress_clear(void)
{
	if (util_progress_shown)
		fputs("\r\033[K", stderr);
	util_progress_shown = 0;
}

void util_progress_start(struct util_progress *p, const char *const *paths,
			 size_t n, FILE *out)
{
	/* Every .pebs reader starts here before its first batch: the one
	 * place to refuse a terminal on standard input for all of them. */
	util_check_in(paths, n, ".pebs data");
	util_progress_init(p, paths, n, out);
}

void util_progress_init(struct util_progress *p, const char *const *paths,
			size_t n, FILE *out)
{
	const char *a = getenv("PEBS_PROGRESS_AFTER");

	memset(p, 0, sizeof(*p));
	p->on = util_progress_wanted(out);
	if (!p->on)
		return;
	p->t0 = now();
	p->after = 1.0;
	if (a && *a) {
		/* a value that is not a number of seconds keeps the
		 * default, as an unset one: "abc" read as 0 showed the
		 * line at once */
		char *end;
		double v = strtod(a, &end);
		if (!*end && v >= 0 && isfinite(v))
			p->after = v;
	}
	p->total_known = n > 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!paths[i] || !strcmp(paths[i], "-") ||
		    stat(paths[i], &st) || !S_ISREG(st.st_mode)) {
			p->total_known = 0;
			break;
		}
		p->total += (uint64_t)st.st_size;
	}
}

/* @v bytes as "1.2 GB" (decimal units, as ls -h --si). */
static void human(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	unsigned u = 0;
	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

/* Whether a line is due now; *@t: seconds since the start. */
static int due(struct util_progress *p, double *t)
{
	return p->on && (*t = now() - p->t0) >= p->after &&
	       !(p->last && *t - p->last < 0.5);
}

static void show(struct util_progress *p, double t, uint64_t samples,
		 uint64_t bytes)
{
	char what[128], done[32], total[32], pct[64] = "";

	if (p->want)
		snprintf(what, sizeof(what), "%.1fM of %.1fM samples (%.0f%%)",
			 (double)samples / 1e6, (double)p->want / 1e6,
			 100.0 * (double)samples / (double)p->want);
	else
		snprintf(what, sizeof(what), "%.1fM samples",
			 (double)samples / 1e6);
	char line[512];
	if (bytes != UINT64_MAX) {
		human(done, sizeof(done), (double)bytes);
		if (p->total_known && p->total) {
			human(total, sizeof(total), (double)p->total);
			snprintf(pct, sizeof(pct), " of %s (%.0f%%)", total,
				 100.0 * (double)bytes / (double)p->total);
		}
		snprintf(line, sizeof(line), "%s: %s, %s%s, %.0f s", util_prog,
			 what, done, pct, t);
	} else {
		snprintf(line, sizeof(line), "%s: %s, %.0f s", util_prog, what,
			 t);
	}
	util_progress_print(line);
	p->last = t;
}

void util_progress_tick(struct util_progress *p,
			const struct pebs_reader *r)
{
	struct pebs_read_stats st;
	double t;

	if (!due(p, &t))
		return;
	pebs_reader_stats(r, &st);
	show(p, t, st.samples, st.bytes);
}

void util_progress_at(struct util_progress *p, uint64_t samples,
		      uint64_t bytes)
{
	double t;

	if (due(p, &t))
		show(p, t, samples, bytes);
}

void util_progress_end(struct util_progress *p)
{
	(void)p;
	util_progress_clear();
}
