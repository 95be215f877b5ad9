/*
 * util_progress.c - the progress line of the .pebs readers (see
 * util_progress.h).  Costs one clock read per batch of up to 65536
 * samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	const char *e = getenv("PEBS_PROGRESS");

	return isatty(STDERR_FILENO) && !(e && !strcmp(e, "0")) &&
	       !(out && isatty(fileno(out)));
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
	const char *a = getenv("PEBS_PROGRESS_AFTER");

	/* Every .pebs reader starts here before its first batch: the one
	 * place to refuse a terminal on standard input for all of them. */
	util_check_in(paths, n, ".pebs data");
	memset(p, 0, sizeof(*p));
	p->on = util_progress_wanted(out);
	if (!p->on)
		return;
	p->t0 = now();
	p->after = a && *a ? strtod(a, NULL) : 1.0;
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

void util_progress_tick(struct util_progress *p,
			const struct pebs_reader *r)
{
	struct pebs_read_stats st;
	char done[32], total[32], pct[64] = "";
	double t;

	if (!p->on || (t = now() - p->t0) < p->after ||
	    (p->last && t - p->last < 0.5))
		return;
	pebs_reader_stats(r, &st);
	human(done, sizeof(done), (double)st.bytes);
	if (p->total_known && p->total) {
		human(total, sizeof(total), (double)p->total);
		snprintf(pct, sizeof(pct), " of %s (%.0f%%)", total,
			 100.0 * (double)st.bytes / (double)p->total);
	}
	fprintf(stderr, "\r%s: %.1fM samples, %s%s, %.0f s\033[K", util_prog,
		(double)st.samples / 1e6, done, pct, t);
	util_progress_shown = 1;
	p->last = t;
}

void util_progress_end(struct util_progress *p)
{
	(void)p;
	util_progress_clear();
}
