/*
 * hist_out.c - pebs-hist writers: text (aligned table with a bar chart),
 * csv, yaml (complete: exact value counts, so --merge is exact) and svg
 * (a log-log step plot per group).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cloc.h"
#include "pebs_dsrc.h"
#include "pebs_field.h"
#include "pebs_hist.h"

#include "hist_int.h"
#include "output_fmt.h"
#include "strhash.h"

static const struct pebs_hist_pct default_pct[] = {
	{ 50, 1, "50" }, { 90, 1, "90" }, { 99, 1, "99" },
};

int pebs_hist_format_parse(const char *name)
{
	static const char *const names[] = { "text", "csv", "yaml", "svg" };
	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return PEBS_HIST_TEXT + i;
	return -1;
}

static int is_hex(const struct pebs_hist *h)
{
	return pebs_field_by_id(h->field)->kind == PEBS_FK_HEX;
}

/* A value of the histogram's field, as the contract prints it. */
static char *fmt_val(const struct pebs_hist *h, unsigned __int128 v,
		     char *buf, size_t len)
{
	if (v >> 64) {
		snprintf(buf, len, is_hex(h) ? "0x10000000000000000" :
			 "18446744073709551616");
		return buf;
	}
	snprintf(buf, len, is_hex(h) ? "0x%llx" : "%llu",
		 (unsigned long long)v);
	return buf;
}

/* A bin edge for people: the end of the value range (2^64) is "inf". */
static char *text_edge(const struct pebs_hist *h, unsigned __int128 v,
		       char *buf, size_t len)
{
	if (v >> 64) {
		snprintf(buf, len, "inf");
		return buf;
	}
	return fmt_val(h, v, buf, len);
}

static void u128_dec(unsigned __int128 v, char *buf, size_t len)
{
	char tmp[48];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v && n < sizeof(tmp));
	size_t k = 0;
	while (n && k + 1 < len)
		buf[k++] = tmp[--n];
	buf[k] = 0;
}

/*
 * The mean @sum / @n exactly, to three decimals rounded half up, into @buf
 * (48 bytes): in a double, means above 2^53 lost their last digits and
 * could even print larger than the maximum.
 */
static char *fmt_mean(unsigned __int128 sum, uint64_t n, char *buf,
		      size_t len)
{
	unsigned __int128 q = 0, f = 0;
	if (n) {
		q = sum / n;
		/* sum % n < 2^64: times 1000 fits */
		unsigned __int128 r = sum % n * 1000;
		f = r / n + (2 * (r % n) >= n);
		if (f == 1000) {
			q++;
			f = 0;
		}
	}
	u128_dec(q, buf, len);
	size_t k = strlen(buf);
	snprintf(buf + k, len - k, ".%03u", (unsigned)f);
	return buf;
}

static const char *by_name(const struct pebs_hist *h)
{
	return h->by < 0 ? "none" : pebs_field_by_id(h->by)->name;
}

static const char *bins_name(const struct pebs_hist_bins *b, char *buf,
			     size_t len)
{
	if (b->kind == PEBS_BINS_LOG2)
		return "log2";
	if (b->kind == PEBS_BINS_LINEAR) {
		snprintf(buf, len, "linear:%llu", (unsigned long long)b->width);
		return buf;
	}
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < b->nedges && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu", i ? "," : "",
				      (unsigned long long)b->edges[i]);
	return buf;
}

/*
 * Does @s need quotes in CSV?  The rule pebs-decode writes by (an edge
 * space or tab too: readers that trim unquoted fields, pebs-import among
 * them, would change the name); a plain loop, not strpbrk(), whose
 * set-up for each of millions of groups was a sixth of the time of
 * grouping by line.
 */
static int csv_quoted(const char *s)
{
	return pebs_outfmt_csv_needs_quote(s, strlen(s));
}

/* RFC 4180 field. */
static void csv_str(FILE *fp, const char *s)
{
	if (!csv_quoted(s)) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static int cmp_count_desc(const void *x, const void *y, void *ctx)
{
	struct pebs_hist *h = ctx;
	uint64_t a = hist_group(h, *(const size_t *)x)->n;
	uint64_t b = hist_group(h, *(const size_t *)y)->n;
	if (a != b)
		return a > b ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/*
 * The groups a writer lists, by output index, into *@idx (to free): all
 * of them in output order, or by count (@by_count, or pebs_hist_set_top())
 * the most samples first (equal counts in output order), at most h->top;
 * with @measured, not those of only unmeasured samples (no values to
 * show).  Returns how many, or -PEBS_E_NOMEM.
 */
static long listed_groups(struct pebs_hist *h, int by_count, int measured,
			  size_t **idx)
{
	size_t ng = 0;
	size_t *x = malloc((h->ng ? h->ng : 1) * sizeof(*x));
	/* hist_sort(): the output order and the counts the ordering reads */
	if (!x || hist_sort(h) < 0) {
		free(x);
		return -PEBS_E_NOMEM;
	}
	for (size_t i = 0; i < h->ng; i++)
		if (!measured || h->view[i].n)
			x[ng++] = i;
	if (by_count || h->top)
		qsort_r(x, ng, sizeof(*x), cmp_count_desc, h);
	if (h->top && ng > h->top)
		ng = h->top;
	*idx = x;
	return (long)ng;
}

static int write_csv(struct pebs_hist *h, FILE *fp,
		     const struct pebs_hist_bins *bins,
		     const struct pebs_hist_pct *p, size_t np)
{
	char a[48], b[48], m[48];
	if (np) {
		fprintf(fp, "group,count,min,max,mean");
		for (size_t j = 0; j < np; j++)
			fprintf(fp, ",p%s", p[j].name);
		fputc('\n', fp);
	} else {
		fprintf(fp, "group,lo,hi,count\n");
	}
	size_t *idx;
	long nl = listed_groups(h, 0, 1, &idx);
	if (nl < 0)
		return (int)nl;
	for (size_t k = 0; k < (size_t)nl; k++) {
		size_t i = idx[k];
		struct pebs_hist_stats st;
		if (pebs_hist_group_stats(h, i, &st) < 0)
			goto nomem;
		if (np) {
			csv_str(fp, st.group);
			fprintf(fp, ",%llu,%s,%s,%s",
				(unsigned long long)st.count,
				fmt_val(h, st.min, a, sizeof(a)),
				fmt_val(h, st.max, b, sizeof(b)),
				fmt_mean(st.sum, st.count, m, sizeof(m)));
			for (size_t j = 0; j < np; j++) {
				uint64_t v = 0;
				pebs_hist_percentile(h, i, &p[j], &v);
				fprintf(fp, ",%s", fmt_val(h, v, a, sizeof(a)));
			}
			fputc('\n', fp);
			continue;
		}
		struct pebs_hist_bin *bv;
		size_t nb;
		if (pebs_hist_bins_of(h, i, bins, &bv, &nb) < 0)
			goto nomem;
		int plain = !csv_quoted(st.group);	/* once */
		for (size_t j = 0; j < nb; j++) {
			if (plain)
				fputs(st.group, fp);
			else
				csv_str(fp, st.group);
			fprintf(fp, ",%s,%s,%llu\n",
				fmt_val(h, bv[j].lo, a, sizeof(a)),
				fmt_val(h, bv[j].hi, b, sizeof(b)),
				(unsigned long long)bv[j].count);
		}
		free(bv);
	}
	free(idx);
	return 0;
nomem:
	free(idx);
	return -PEBS_E_NOMEM;
}

static int write_yaml(struct pebs_hist *h, FILE *fp,
		      const struct pebs_hist_bins *bins,
		      const struct pebs_hist_pct *p, size_t np)
{
	char a[48], b[48], m[48], bn[PEBS_HIST_MAX_EDGES * 21 + 16];
	fprintf(fp, "---\npebs_hist: 1\nfield: %s\nby: %s\n",
		pebs_field_by_id(h->field)->name, by_name(h));
	/* the filter, so that --merge can refuse counts of other samples */
	if (h->where) {
		fputs("where: ", fp);
		pebs_outfmt_yaml_fputs(fp, h->where);
		fputc('\n', fp);
	}
	fprintf(fp, "bins: \"%s\"\ntotal: %llu\n",
		bins_name(bins, bn, sizeof(bn)),
		(unsigned long long)pebs_hist_total(h));
	/* unmeasured (a latency's 0) per group, so that --merge adds them
	 * up too; its presence says that the statistics leave them out */
	if (h->skip0)
		fprintf(fp, "unmeasured: %llu\n",
			(unsigned long long)pebs_hist_unmeasured_total(h));
	fprintf(fp, "groups:%s\n", h->ng ? "" : " []");
	for (size_t i = 0; i < h->ng; i++) {
		struct pebs_hist_stats st;
		const struct gview *g = hist_group(h, i);
		if (!g || pebs_hist_group_stats(h, i, &st) < 0)
			return -PEBS_E_NOMEM;
		u128_dec(st.sum, bn, sizeof(bn));
		fputs("- group: ", fp);
		pebs_outfmt_yaml_fputs(fp, st.group);
		fprintf(fp, "\n  count: %llu\n", (unsigned long long)st.count);
		if (h->skip0)
			fprintf(fp, "  unmeasured: %llu\n",
				(unsigned long long)g->unmeasured);
		/* only unmeasured samples: no values, so no statistics */
		if (!st.count) {
			fprintf(fp, "  bins: []\n  values: []\n");
			continue;
		}
		fprintf(fp, "  min: %s\n  max: %s\n  sum: %s\n  mean: %s\n"
			"  percentiles:\n", fmt_val(h, st.min, a, sizeof(a)),
			fmt_val(h, st.max, b, sizeof(b)), bn,
			fmt_mean(st.sum, st.count, m, sizeof(m)));
		for (size_t j = 0; j < np; j++) {
			uint64_t v = 0;
			pebs_hist_percentile(h, i, &p[j], &v);
			fprintf(fp, "    p%s: %s\n", p[j].name,
				fmt_val(h, v, a, sizeof(a)));
		}
		struct pebs_hist_bin *bv;
		size_t nb;
		if (pebs_hist_bins_of(h, i, bins, &bv, &nb) < 0)
			return -PEBS_E_NOMEM;
		fprintf(fp, "  bins:\n");
		for (size_t k = 0; k < nb; k++)
			fprintf(fp, "  - {lo: %s, hi: %s, count: %llu}\n",
				fmt_val(h, bv[k].lo, a, sizeof(a)),
				fmt_val(h, bv[k].hi, b, sizeof(b)),
				(unsigned long long)bv[k].count);
		free(bv);
		/* exact value counts: what --merge reads */
		fprintf(fp, "  values:\n");
		for (size_t k = 0; k < g->sn; k++)
			fprintf(fp, "  - [%s, %llu]\n",
				fmt_val(h, g->sv[k], a, sizeof(a)),
				(unsigned long long)g->sc[k]);
	}
	return 0;
}

/*
 * A bar of @eighths eighths of a character cell, in Unicode block
 * elements, or with @ascii in '#'s and a '+' for the part of a cell
 * (no finer, but nothing a non-UTF-8 terminal shows as mojibake).
 */
static void bar(FILE *fp, uint64_t eighths, int ascii)
{
	if (ascii) {
		static const char hashes[] = "################";
		const size_t run = sizeof(hashes) - 1;
		for (uint64_t n = eighths / 8; n; ) {
			size_t k = n < run ? (size_t)n : run;
			fwrite(hashes, 1, k, fp);
			n -= k;
		}
		if (eighths % 8)
			fputc('+', fp);
		return;
	}
	static const char *const part[] = { "", "\u258f", "\u258e", "\u258d",
					    "\u258c", "\u258b", "\u258a",
					    "\u2589" };
	/* whole cells written in runs: one call per row, not per cell */
	static const char full[] = "\u2588\u2588\u2588\u2588\u2588\u2588"
		"\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588";
	const size_t w = sizeof("\u2588") - 1, run = (sizeof(full) - 1) / w;
	for (uint64_t n = eighths / 8; n; ) {
		size_t k = n < run ? (size_t)n : run;
		fwrite(full, w, k, fp);
		n -= k;
	}
	fputs(part[eighths % 8], fp);
}

/*
 * The line saying that @n unmeasured samples were left out, after
 * @indent; nothing when none were.
 */
static void unmeasured_line(const struct pebs_hist *h, FILE *fp,
			    const char *indent, uint64_t n)
{
	if (!n)
		return;
	fprintf(fp, "%s%llu sample%s without a latency (%s 0: stores, or "
		"events that do not measure it) left out\n", indent,
		(unsigned long long)n, n == 1 ? "" : "s",
		pebs_field_by_id(h->field)->name);
}

static int write_text(struct pebs_hist *h, FILE *fp,
		      const struct pebs_hist_bins *bins,
		      const struct pebs_hist_pct *p, size_t np)
{
	char a[48], b[48], m[48];
	uint64_t total = pebs_hist_total(h);
	fprintf(fp, "%s", pebs_field_by_id(h->field)->name);
	if (h->by >= 0)
		fprintf(fp, " by %s", by_name(h));
	size_t *idx;
	long nl = listed_groups(h, 0, 0, &idx);
	if (nl < 0)
		return (int)nl;
	fprintf(fp, ": %llu sample%s, %zu group%s", (unsigned long long)total,
		total == 1 ? "" : "s", h->ng, h->ng == 1 ? "" : "s");
	if (h->top && (size_t)nl < h->ng)
		fprintf(fp, ", the %ld with the most samples", nl);
	else if (h->top)
		fputs(", most samples first", fp);
	fputc('\n', fp);
	/* once for the total, then per group: a group of loads and stores
	 * would otherwise look half made of latencies 0 */
	unmeasured_line(h, fp, "", pebs_hist_unmeasured_total(h));
	for (size_t g = 0; g < (size_t)nl; g++) {
		size_t i = idx[g];
		struct pebs_hist_stats st;
		if (pebs_hist_group_stats(h, i, &st) < 0)
			goto nomem;
		fputc('\n', fp);
		pebs_outfmt_text_fputs(fp, st.group, 0);
		if (!st.count) {
			fprintf(fp, ": no samples with a latency\n");
			if (h->by >= 0)
				unmeasured_line(h, fp, "  ",
						hist_group(h, i)->unmeasured);
			continue;
		}
		fprintf(fp, ": %llu sample%s (%.2f%%)  min %s  max %s  "
			"mean %s", (unsigned long long)st.count,
			st.count == 1 ? "" : "s",
			total ? 100.0 * (double)st.count / (double)total : 0.0,
			fmt_val(h, st.min, a, sizeof(a)),
			fmt_val(h, st.max, b, sizeof(b)),
			fmt_mean(st.sum, st.count, m, sizeof(m)));
		for (size_t j = 0; j < np; j++) {
			uint64_t v = 0;
			pebs_hist_percentile(h, i, &p[j], &v);
			fprintf(fp, "  p%s %s", p[j].name,
				fmt_val(h, v, a, sizeof(a)));
		}
		fputc('\n', fp);
		/* without grouping the header said it for the one group */
		if (h->by >= 0)
			unmeasured_line(h, fp, "  ",
					hist_group(h, i)->unmeasured);
		struct pebs_hist_bin *bv;
		size_t nb;
		if (pebs_hist_bins_of(h, i, bins, &bv, &nb) < 0)
			goto nomem;
		uint64_t mx = 1;
		int wl = 2, wh = 2, wc = 12;	/* wc: 12 unless wider */
		for (size_t k = 0; k < nb; k++) {
			if (bv[k].count > mx)
				mx = bv[k].count;
			int lc = snprintf(a, sizeof(a), "%llu",
					  (unsigned long long)bv[k].count);
			wc = lc > wc ? lc : wc;
			int l1 = (int)strlen(fmt_val(h, bv[k].lo, a,
						     sizeof(a)));
			int l2 = (int)strlen(text_edge(h, bv[k].hi, a,
						       sizeof(a)));
			wl = l1 > wl ? l1 : wl;
			wh = l2 > wh ? l2 : wh;
		}
		fprintf(fp, "  %*s  %*s  %*s  %7s\n", wl, "lo", wh, "hi",
			wc, "count", "%");
		for (size_t k = 0; k < nb; k++) {
			fprintf(fp, "  %*s  %*s  %*llu  %7.3f", wl,
				fmt_val(h, bv[k].lo, a, sizeof(a)), wh,
				text_edge(h, bv[k].hi, b, sizeof(b)), wc,
				(unsigned long long)bv[k].count,
				st.count ? 100.0 * (double)bv[k].count /
				(double)st.count : 0.0);
			/* 40 cells, scaled to the group's largest bin */
			uint64_t e8 = (uint64_t)((unsigned __int128)
						 bv[k].count * 320 / mx);
			if (e8) {
				fputs("  ", fp);
				bar(fp, e8, h->ascii);
			}
			fputc('\n', fp);
		}
		free(bv);
	}
	free(idx);
	return 0;
nomem:
	free(idx);
	return -PEBS_E_NOMEM;
}

/* ------------------------------------------------------------------ svg */

#define SVG_W 860
#define SVG_H 500
#define ML 80
#define MR 200
#define MT 50
#define MB 70
#define SVG_MAXG 10
/*
 * Legend text: from ML + pw + 34 to the right edge, widened for long
 * group names (paths, C++ symbols) up to LEG_MAXC characters, each
 * counted LEG_CW px wide (12 px sans-serif runs narrower: an estimate
 * that errs on the side of room); longer names are cut in the middle.
 */
#define LEG_X (SVG_W - MR + 34)
#define LEG_CW 7.5
#define LEG_PAD 6
#define LEG_MAXC 48
/* the widest image: the longest legend entry fits it */
#define SVG_WMAX (LEG_X + LEG_CW * LEG_MAXC + LEG_PAD)
/*
 * The title, from ML to LEG_PAD short of the right edge, each character
 * counted TITLE_CW px wide (16 px bold: 12 px's LEG_CW scaled, and a
 * little more for bold); a title too long widens the image up to
 * SVG_WMAX, then is cut in the middle like a legend entry.
 */
#define TITLE_CW 10.5
/* the most characters of a text cut to fit: the title's, in SVG_WMAX */
#define SVG_MAXC 96

/* as many colours as drawn groups: no two of a plot need share one */
static const char *const colors[SVG_MAXG] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/*
 * The colours of the common data-source levels (--by mem), the same in
 * every plot whatever else is drawn, grey for NA; the rarer levels take
 * colours by their names like any group.
 */
static const struct {
	enum pebs_mem mem;
	int color;
} mem_colors[] = {
	{ PEBS_MEM_L1, 0 }, { PEBS_MEM_LFB, 9 }, { PEBS_MEM_L2, 2 },
	{ PEBS_MEM_L3, 3 }, { PEBS_MEM_LOCAL_RAM, 1 },
	{ PEBS_MEM_REMOTE_RAM, 4 }, { PEBS_MEM_REMOTE_CACHE, 5 },
	{ PEBS_MEM_PMEM, 6 }, { PEBS_MEM_L3_MISS, 8 }, { PEBS_MEM_NA, 7 },
};

static int mem_color(const char *name)
{
	for (size_t i = 0; i < sizeof(mem_colors) / sizeof(mem_colors[0]); i++)
		if (strcmp(name, pebs_dsrc_mem_name(mem_colors[i].mem)) == 0)
			return mem_colors[i].color;
	return -1;
}

/*
 * The colours of the @n (at most SVG_MAXG) drawn groups @idx into @col,
 * from their names, not their ranks, so that a group keeps its colour in
 * plots of other runs where it has more or fewer samples than the others:
 * a data-source level its own (mem_colors), then every other group, in
 * byte order of names, the colour its name hashes to where no group has
 * taken it, and then those left, in the same order, the next colour after
 * theirs that is free.  The same drawn groups get the same colours
 * whatever their counts, and a group keeps its colour in a plot of other
 * groups unless one of them had it first.
 */
static void svg_colors(struct pebs_hist *h, const size_t *idx, size_t n,
		       int *col)
{
	unsigned used = 0;
	const char *name[SVG_MAXG];
	size_t ord[SVG_MAXG], no = 0;
	for (size_t s = 0; s < n; s++) {
		name[s] = hist_group(h, idx[s])->name;
		col[s] = h->by == PEBS_F_MEM ? mem_color(name[s]) : -1;
		if (col[s] >= 0) {
			used |= 1u << col[s];
			continue;
		}
		/* insertion into byte order of names: ten at most */
		size_t k = no++;
		for (; k && strcmp(name[ord[k - 1]], name[s]) > 0; k--)
			ord[k] = ord[k - 1];
		ord[k] = s;
	}
	/* each its own colour where free, then those left the next free:
	 * a group keeps its colour unless one before it has taken it */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < no; k++) {
			size_t s = ord[k];
			if (col[s] >= 0)
				continue;
			int c = (int)(lib_str_hash(name[s]) % SVG_MAXG);
			while (pass && used & 1u << c)
				c = (c + 1) % SVG_MAXG;
			if (used & 1u << c)
				continue;
			used |= 1u << c;
			col[s] = c;
		}
}

/*
 * @v with three significant digits and an SI suffix: 999600 is "1M", not
 * "1e+03k" (%.3g rounds 999.6 up to 1000, which it writes so), so scale
 * while the rounded text would reach 1000.
 */
static void si(char *buf, size_t len, double v)
{
	static const char *const suf[] = { "", "k", "M", "G", "T", "P", "E" };
	int k = 0;
	char t[32];
	for (;;) {
		snprintf(t, sizeof(t), "%.3g", v);
		if (k == 6 || strtod(t, NULL) < 1000)
			break;
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.3g%s", v, suf[k]);
}

/* Characters (code points) of UTF-8 @s (group names are valid UTF-8). */
static size_t u8_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The byte offset of character @k of UTF-8 @s (its length if fewer). */
static size_t u8_off(const char *s, size_t k)
{
	size_t i = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && !k--)
			break;
	return i;
}

/*
 * @text then @keep in at most @maxc characters (SVG_MAXC at most), for
 * the legend (a group's name, then its count) and the title: a @text too
 * long keeps its start and end around an ellipsis (@keep, written last,
 * must stay visible), and the whole of both goes in a <title> child,
 * which browsers show on hover.  @keep is short: it leaves @text at least
 * two characters.
 */
static void svg_text_fit(FILE *fp, const char *text, const char *keep,
			 size_t maxc)
{
	size_t len = strlen(text), nc = u8_len(text), kc = u8_len(keep);
	if (maxc > SVG_MAXC)
		maxc = SVG_MAXC;
	size_t room = maxc > kc + 2 ? maxc - kc : 2;
	if (nc <= room) {
		pebs_outfmt_xml_fputs(fp, text);
		pebs_outfmt_xml_fputs(fp, keep);
		return;
	}
	/* head, U+2026, tail: at most SVG_MAXC characters of 4 bytes */
	char cut[SVG_MAXC * 4 + 4];
	size_t head = room / 2, tail = room - 1 - head;
	size_t hb = u8_off(text, head), tb = u8_off(text, nc - tail);
	memcpy(cut, text, hb);
	memcpy(cut + hb, "\u2026", 3);
	memcpy(cut + hb + 3, text + tb, len - tb + 1);
	fputs("<title>", fp);
	pebs_outfmt_xml_fputs(fp, text);
	pebs_outfmt_xml_fputs(fp, keep);
	fputs("</title>", fp);
	pebs_outfmt_xml_fputs(fp, cut);
	pebs_outfmt_xml_fputs(fp, keep);
}

/*
 * The plot's title into @buf: the field, the grouping and the samples
 * (those without a latency too).  Its parts are bounded (field names,
 * two 20-digit counts): 256 bytes hold it.
 */
static void svg_title(struct pebs_hist *h, char *buf, size_t len)
{
	char un[64] = "";
	uint64_t total = pebs_hist_total(h);
	uint64_t n = pebs_hist_unmeasured_total(h);
	if (n)
		snprintf(un, sizeof(un), "; %llu without a latency left out",
			 (unsigned long long)n);
	snprintf(buf, len, "%s distribution%s%s (%llu sample%s%s)",
		 pebs_field_by_id(h->field)->name, h->by >= 0 ? " by " : "",
		 h->by >= 0 ? by_name(h) : "", (unsigned long long)total,
		 total == 1 ? "" : "s", un);
}

static int write_svg(struct pebs_hist *h, FILE *fp)
{
	struct pebs_hist_bins lb = { .kind = PEBS_BINS_LOG2 };
	struct pebs_hist_bin *bv[SVG_MAXG] = { 0 };
	size_t nb[SVG_MAXG] = { 0 };
	int r = 0;
	/* the largest groups first, equal counts in output order: the
	 * legend lists them so, the same for the same input */
	size_t *idx = NULL, ng = 0;
	long nl = listed_groups(h, 1, 1, &idx);
	if (nl < 0)
		goto nomem;
	/* the groups that could be drawn: the note below must not count
	 * those of only unmeasured samples (the title counts their
	 * samples) as left out for room */
	for (size_t i = 0; i < h->ng; i++)
		ng += h->view[i].n != 0;
	size_t shown = (size_t)nl < SVG_MAXG ? (size_t)nl : SVG_MAXG;
	int col[SVG_MAXG];
	svg_colors(h, idx, shown, col);
	int kmin = 64, kmax = 0;
	uint64_t cmax = 1;
	for (size_t s = 0; s < shown; s++) {
		if (pebs_hist_bins_of(h, idx[s], &lb, &bv[s], &nb[s]) < 0)
			goto nomem;
		for (size_t k = 0; k < nb[s]; k++) {
			int b = bv[s][k].lo ? 64 - __builtin_clzll(bv[s][k].lo)
				: 0;
			kmin = b < kmin ? b : kmin;
			kmax = b > kmax ? b : kmax;
			cmax = bv[s][k].count > cmax ? bv[s][k].count : cmax;
		}
	}
	if (kmin > kmax)
		kmin = kmax = 1;
	/* x in log2 units: bin b spans [b-1, b]; y in decades of count */
	double x0 = kmin - 1, x1 = kmax, ydec = ceil(log10((double)cmax));
	if (x1 - x0 < 4)
		x1 = x0 + 4;
	if (ydec < 1)
		ydec = 1;
	double pw = SVG_W - ML - MR, ph = SVG_H - MT - MB;
	/* the legend's counts, and the characters of its widest entry: the
	 * image widens to fit it, up to LEG_MAXC */
	char labs[SVG_MAXG][32];
	size_t legc = 0;
	for (size_t s = 0; s < shown; s++) {
		const struct gview *g = hist_group(h, idx[s]);
		si(labs[s], sizeof(labs[s]), (double)g->n);
		size_t c = u8_len(g->name) + 3 + strlen(labs[s]);
		legc = c > legc ? c : legc;
	}
	if (legc > LEG_MAXC)
		legc = LEG_MAXC;
	int svg_w = (int)ceil(LEG_X + LEG_CW * (double)legc + LEG_PAD);
	/* the title: the image widens for it too, up to SVG_WMAX */
	char title[256];
	svg_title(h, title, sizeof(title));
	double tw = ML + TITLE_CW * (double)u8_len(title) + LEG_PAD;
	if (tw > SVG_WMAX)
		tw = SVG_WMAX;
	if (tw > svg_w)
		svg_w = (int)ceil(tw);
	if (svg_w < SVG_W)
		svg_w = SVG_W;
	/* what fits in svg_w: legc, or more in the narrowest image */
	size_t maxc = (size_t)((svg_w - LEG_X - LEG_PAD) / LEG_CW);
	if (maxc > LEG_MAXC)
		maxc = LEG_MAXC;
#define X(v) (ML + ((v) - x0) / (x1 - x0) * pw)
#define Y(c) (MT + ph - ((c) > 0 ? (log10((double)(c)) + 0.3) / \
			 (ydec + 0.3) * ph : 0))
	const char *fname = pebs_field_by_id(h->field)->name;
	const struct pebs_col_info *ci = pebs_col_info((unsigned)h->fcol);
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
		" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n", svg_w, SVG_H, svg_w, SVG_H);
	fprintf(fp, "<text x=\"%d\" y=\"24\" font-size=\"16\" "
		"font-weight=\"bold\">", ML);
	svg_text_fit(fp, title, "",
		     (size_t)((svg_w - ML - LEG_PAD) / TITLE_CW));
	fprintf(fp, "</text>\n");
	/* grid and ticks */
	int step = (int)ceil((x1 - x0) / 16);
	for (int k = (int)x0; k <= (int)x1; k++) {
		double x = X(k);
		char lab[32];
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", x, MT, x,
			MT + ph);
		if ((k - (int)x0) % step)
			continue;
		/* bin 0 is [0, 1): its left edge is labelled 0 */
		if (k < 0)
			snprintf(lab, sizeof(lab), "0");
		else if (k <= 16)
			snprintf(lab, sizeof(lab), "%llu", 1ull << k);
		else
			snprintf(lab, sizeof(lab), "2^%d", k);
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%s</text>\n", x, MT + ph + 16,
			lab);
	}
	for (int d = 0; d <= (int)ydec; d++) {
		char lab[32];
		double y = Y(pow(10, d));
		si(lab, sizeof(lab), pow(10, d));
		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n"
			"<text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n", ML, y, ML + pw, y,
			ML - 6, y + 4, lab);
	}
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" "
		"fill=\"none\" stroke=\"black\"/>\n", ML, MT, pw, ph);
	fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%s%s%s"
		" (log2 bins: [lo, 2lo))</text>\n", ML + pw / 2, SVG_H - 24,
		fname, ci && ci->unit[0] ? " [" : "", ci ? ci->unit : "",
		ci && ci->unit[0] ? "]" : "");
	fprintf(fp, "<text transform=\"translate(20,%.1f) rotate(-90)\" "
		"text-anchor=\"middle\">samples per bin (log scale)</text>\n",
		MT + ph / 2);
	/* one step line per group */
	for (size_t s = 0; s < shown; s++) {
		fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"", colors[col[s]]);
		for (size_t k = 0; k < nb[s]; k++) {
			int b = bv[s][k].lo ? 64 - __builtin_clzll(bv[s][k].lo)
				: 0;
			double y = Y(bv[s][k].count);
			if (k == 0)
				fprintf(fp, "%.1f,%.1f ", X(b - 1), Y(0));
			fprintf(fp, "%.1f,%.1f %.1f,%.1f ", X(b - 1), y, X(b),
				y);
			if (k + 1 == nb[s])
				fprintf(fp, "%.1f,%.1f", X(b), Y(0));
		}
		fprintf(fp, "\"/>\n");
	}
	/* legend */
	for (size_t s = 0; s < shown; s++) {
		const struct gview *g = hist_group(h, idx[s]);
		double y = MT + 10 + 20.0 * (double)s;
		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			"height=\"4\" fill=\"%s\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\">",
			ML + pw + 14, y - 4, colors[col[s]], ML + pw + 34, y + 1);
		char keep[40];
		snprintf(keep, sizeof(keep), " (%s)", labs[s]);
		svg_text_fit(fp, g->name, keep, maxc);
		fputs("</text>\n", fp);
	}
	if (shown < ng)
		fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\">(%zu of %zu groups)"
			"</text>\n", ML + pw + 14,
			MT + 10 + 20.0 * (double)shown, shown, ng);
	fprintf(fp, "</svg>\n");
#undef X
#undef Y
	goto out;
nomem:
	r = -PEBS_E_NOMEM;
out:
	for (size_t s = 0; s < SVG_MAXG; s++)
		free(bv[s]);
	free(idx);
	return r;
}

void pebs_hist_set_top(struct pebs_hist *h, size_t top)
{
	h->top = top;
}

void pebs_hist_set_ascii(struct pebs_hist *h, int ascii)
{
	h->ascii = !!ascii;
}

static int hist_write(struct pebs_hist *h, FILE *fp, int fmt,
		      const struct pebs_hist_bins *bins,
		      const struct pebs_hist_pct *p, size_t np);

/* In the C locale: "%.3f" and strtod() of si() and the SVG (cloc.h). */
int pebs_hist_write(struct pebs_hist *h, FILE *fp, int fmt,
		    const struct pebs_hist_bins *bins,
		    const struct pebs_hist_pct *p, size_t np)
{
	locale_t old = lib_locale_enter();
	int r = hist_write(h, fp, fmt, bins, p, np);
	lib_locale_leave(old);
	return r;
}

static int hist_write(struct pebs_hist *h, FILE *fp, int fmt,
		      const struct pebs_hist_bins *bins,
		      const struct pebs_hist_pct *p, size_t np)
{
	/* pebs-hist's default; a zeroed struct is the same */
	static const struct pebs_hist_bins log2_bins = {
		.kind = PEBS_BINS_LOG2
	};
	int r;
	const struct pebs_hist_pct *dp = np ? p : default_pct;
	size_t dn = np ? np : 3;
	if (!bins)
		bins = &log2_bins;
	switch (fmt) {
	case PEBS_HIST_CSV: r = write_csv(h, fp, bins, p, np); break;
	case PEBS_HIST_YAML: r = write_yaml(h, fp, bins, dp, dn); break;
	case PEBS_HIST_SVG: r = write_svg(h, fp); break;
	case PEBS_HIST_TEXT: r = write_text(h, fp, bins, dp, dn); break;
	default: return -PEBS_E_INVAL;
	}
	if (r < 0)
		return r;
	if (ferror(fp)) {
		if (!errno)
			errno = EIO;
		return -PEBS_E_IO;
	}
	return 0;
}
