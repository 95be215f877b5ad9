/*
 * c2c_html.c - a self-contained HTML report: summary, line table, and per
 * listed line a heat map (inline SVG) of 8-byte words x threads, the
 * per-offset rows, the verdict, its evidence and the fix; and the same
 * heat maps as one SVG document.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c_int.h"
#include "output_fmt.h"

#define HTML_MAX_MAPS 50	/* heat maps for at most this many lines */
#define HTML_MAX_ROWS 64	/* threads drawn per heat map */

/* HTML text of a name (see pebs_outfmt_xml_fputs()). */
static void esc(FILE *fp, const char *s)
{
	pebs_outfmt_xml_fputs(fp, s);
}

/* Heat map geometry: cell size, room for labels, pixels a character of
 * the 11-pixel monospace font takes, about. */
#define HEAT_CW 76u
#define HEAT_CH 22u
#define HEAT_LEFT 150u
#define HEAT_TOP 34u
#define HEAT_CHAR_W 7u

/* The key under each heat map: the map is at least as wide (at the
 * smallest --line-size, 16, two columns are far narrower). */
static const char heat_key[] = "W n: n stores, R n: n loads; red: stored "
			       "to, blue: loads only; darker = more samples";

/*
 * Count @n in at most 4 characters, for a cell: 999, then 1.2k, 123k,
 * 1.2M ... (cut, not rounded: 1.2k is 1200 to 1299).  The end of the
 * text written at @p.
 */
static char *heat_num(char *p, uint64_t n)
{
	static const char unit[] = "kMGTPE";
	int u = 0;
	if (n < 1000)
		return p + sprintf(p, "%" PRIu64, n);
	while (n >= 1000000) {	/* UINT64_MAX is 18446E */
		n /= 1000;
		u++;
	}
	if (n < 10000)
		return p + sprintf(p, "%" PRIu64 ".%" PRIu64 "%c", n / 1000,
				   n % 1000 / 100, unit[u]);
	return p + sprintf(p, "%" PRIu64 "%c", n / 1000, unit[u]);
}

/*
 * The text of a cell with @st stores and @ld loads, into @buf (32
 * bytes): "W12 R345", exact while it fits a HEAT_CW cell with 3 pixels
 * each side, else both counts short ("W123k R1.2M"); the cell's title
 * has them exact.  Returns its length.
 */
static unsigned heat_text(char *buf, uint64_t st, uint64_t ld)
{
	for (int exact = 1;; exact = 0) {
		char *p = buf;
		if (st) {
			*p++ = 'W';
			p = exact ? p + sprintf(p, "%" PRIu64, st) :
				    heat_num(p, st);
		}
		if (st && ld)
			*p++ = ' ';
		if (ld) {
			*p++ = 'R';
			p = exact ? p + sprintf(p, "%" PRIu64, ld) :
				    heat_num(p, ld);
		}
		*p = 0;
		unsigned n = (unsigned)(p - buf);
		if (!exact || n * HEAT_CHAR_W + 6 <= HEAT_CW)
			return n;
	}
}

/*
 * Width of the cells of heat map @h: HEAT_CW, or wider for the widest
 * cell text (short counts: "W1.2k R1.2k" is 11 characters).
 */
static unsigned heat_cw(const struct c2c_heat *h)
{
	unsigned cw = HEAT_CW;
	char buf[32];
	for (size_t i = 0; i < (size_t)h->nthreads * h->nwords; i++) {
		unsigned n = heat_text(buf, h->stores[i], h->loads[i]);
		if (n * HEAT_CHAR_W + 6 > cw)
			cw = n * HEAT_CHAR_W + 6;
	}
	return cw;
}

/*
 * Left edge of the cells of heat map @h: room for the longest thread
 * label ("tid N (pid N)", right-aligned before the cells), which with
 * 7-digit pids is wider than HEAT_LEFT.
 */
static unsigned heat_left(const struct c2c_heat *h)
{
	unsigned left = HEAT_LEFT;
	for (uint32_t t = 0; t < h->nthreads; t++) {
		uint64_t key = h->thread[t];
		int n = snprintf(NULL, 0, "tid %" PRIu32 " (pid %" PRIu32 ")",
				 (uint32_t)key, (uint32_t)(key >> 32));
		/* 6 between label and cells, 4 before the label */
		if ((unsigned)n * HEAT_CHAR_W + 10 > left)
			left = (unsigned)n * HEAT_CHAR_W + 10;
	}
	return left;
}

/*
 * The two lines under heat map @h that say which threads have no row and
 * why those drawn were chosen, into @a and @b; 0 when every thread has a
 * row.
 */
static int heat_left_out(const struct c2c_heat *h, char *a, size_t alen,
			 char *b, size_t blen)
{
	if (h->nall <= h->nthreads)
		return 0;
	snprintf(a, alen, "%" PRIu32 " more threads not drawn (%" PRIu64
		 " HITM loads, %" PRIu64 " stores, %" PRIu64 " loads): the %"
		 PRIu32 " drawn", h->nall - h->nthreads, h->left_hitm,
		 h->left_stores, h->left_loads, h->nthreads);
	snprintf(b, blen, "are the busiest: most HITM loads + stores, then "
		 "stores, then loads (ties by pid, tid)");
	return 1;
}

/*
 * Width and height of the heat map of @h: the cells and their labels, and
 * the texts under them (written at x 4), which may be wider.
 */
static void heat_size(const struct c2c_heat *h, unsigned *wd, unsigned *ht)
{
	char a[160], b[160];
	size_t n = strlen(heat_key);
	*wd = heat_left(h) + h->nwords * heat_cw(h) + 10;
	*ht = HEAT_TOP + h->nthreads * HEAT_CH + 30;
	if (heat_left_out(h, a, sizeof(a), b, sizeof(b))) {
		if (strlen(a) > n)
			n = strlen(a);
		if (strlen(b) > n)
			n = strlen(b);
		*ht += 2 * 16;
	}
	if (n * HEAT_CHAR_W + 8 > *wd)
		*wd = (unsigned)n * HEAT_CHAR_W + 8;
}

/*
 * Draws heat map @h as an <svg> element: a document of its own for HTML
 * (@y0 < 0), or placed at @y0 inside another.  Returns its height.
 */
static unsigned heat_svg(FILE *fp, const struct c2c_heat *h, int y0)
{
	const unsigned cw = heat_cw(h), ch = HEAT_CH, left = heat_left(h),
		       top = HEAT_TOP;
	uint32_t rows = h->nthreads;
	uint64_t max = 1;
	for (size_t i = 0; i < (size_t)h->nthreads * h->nwords; i++)
		if (h->loads[i] + h->stores[i] > max)
			max = h->loads[i] + h->stores[i];
	unsigned wd, ht;
	heat_size(h, &wd, &ht);
	if (y0 < 0)
		fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			"width=\"%u\" height=\"%u\" font-family=\"monospace\" "
			"font-size=\"11\">\n", wd, ht);
	else
		fprintf(fp, "<svg x=\"0\" y=\"%d\" width=\"%u\" "
			"height=\"%u\">\n", y0, wd, ht);
	for (unsigned w = 0; w < h->nwords; w++)
		fprintf(fp, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">"
			"0x%02x</text>\n", left + w * cw + cw / 2, top - 8,
			w * 8);
	for (uint32_t t = 0; t < rows; t++) {
		uint64_t key = h->thread[t];
		fprintf(fp, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">"
			"tid %" PRIu32 " (pid %" PRIu32 ")</text>\n", left - 6,
			top + t * ch + ch / 2 + 4, (uint32_t)key,
			(uint32_t)(key >> 32));
		for (unsigned w = 0; w < h->nwords; w++) {
			size_t i = (size_t)t * h->nwords + w;
			uint64_t ld = h->loads[i], st = h->stores[i];
			unsigned x = left + w * cw, y = top + t * ch;
			if (!ld && !st) {
				fprintf(fp, "<rect x=\"%u\" y=\"%u\" width=\"%u"
					"\" height=\"%u\" fill=\"#f4f4f4\" "
					"stroke=\"#ddd\"/>\n", x, y, cw, ch);
				continue;
			}
			double a = 0.2 + 0.8 * (double)(ld + st) / (double)max;
			/* red: stores, blue: loads only */
			const char *col = st ? "200,30,30" : "30,80,200";
			fprintf(fp, "<rect x=\"%u\" y=\"%u\" width=\"%u\" "
				"height=\"%u\" fill=\"rgba(%s,%.2f)\" "
				"stroke=\"#999\"><title>offset 0x%02x-0x%02x, "
				"tid %" PRIu32 ": %" PRIu64 " stores, %" PRIu64
				" loads</title></rect>\n", x, y, cw, ch, col, a,
				w * 8, w * 8 + 7, (uint32_t)key, st, ld);
			char txt[32];
			heat_text(txt, st, ld);
			fprintf(fp, "<text x=\"%u\" y=\"%u\" text-anchor="
				"\"middle\" fill=\"%s\">%s</text>\n",
				x + cw / 2, y + ch / 2 + 4,
				a > 0.6 ? "#fff" : "#000", txt);
		}
	}
	fprintf(fp, "<text x=\"4\" y=\"%u\">%s</text>\n",
		top + rows * ch + 16, heat_key);
	char la[160], lb[160];
	if (heat_left_out(h, la, sizeof(la), lb, sizeof(lb)))
		fprintf(fp, "<text x=\"4\" y=\"%u\">%s</text>\n<text x=\"4\" "
			"y=\"%u\">%s</text>\n", top + rows * ch + 32, la,
			top + rows * ch + 48, lb);
	fprintf(fp, "</svg>\n");
	return ht;
}

/* The offset rows of line @l; 0 or -PEBS_E_NOMEM. */
static int rows_table(struct pebs_c2c *c, FILE *fp, struct c2c_line_int *l)
{
	struct c2c_row *rows;
	long n = c2c_line_rows(c, l, &rows);
	if (n < 0)
		return (int)n;
	unsigned by = c->o.coalesce;
	fprintf(fp, "<table><tr><th>offset</th>");
	if (by & PEBS_C2C_BY_PID)
		fprintf(fp, "<th>pid</th>");
	if (by & PEBS_C2C_BY_TID)
		fprintf(fp, "<th>tid</th>");
	if (by & PEBS_C2C_BY_CPU)
		fprintf(fp, "<th>cpu</th>");
	if (by & PEBS_C2C_BY_DSO)
		fprintf(fp, "<th>dso</th>");
	fprintf(fp, "<th>loads</th><th>stores</th><th>lcl_hitm</th>"
		"<th>rmt_hitm</th><th>lat_mean</th><th>threads</th>"
		"<th>cpus</th><th>instructions</th></tr>\n");
	char mb[32];
	for (long i = 0; i < n; i++) {
		const struct c2c_row *r = &rows[i];
		fprintf(fp, "<tr><td>0x%02" PRIx32 "</td>", r->offset);
		if (by & PEBS_C2C_BY_PID)
			fprintf(fp, "<td>%" PRIu32 "</td>", r->pid);
		if (by & PEBS_C2C_BY_TID)
			fprintf(fp, "<td>%" PRIu32 "</td>", r->tid);
		if (by & PEBS_C2C_BY_CPU)
			fprintf(fp, "<td>%" PRIu32 "</td>", r->cpu);
		if (by & PEBS_C2C_BY_DSO) {
			fprintf(fp, "<td>");
			esc(fp, r->dso);
			fprintf(fp, "</td>");
		}
		fprintf(fp, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%"
			PRIu64 "</td><td>%" PRIu64 "</td><td>%s</td><td>%"
			PRIu32 "</td><td>%" PRIu32 "</td><td>", r->loads,
			r->stores, r->lcl_hitm, r->rmt_hitm,
			c2c_fmt_mean(mb, sizeof(mb), r->lat_n ?
				     (double)r->lat_sum / (double)r->lat_n : 0,
				     r->lat_n, 1), r->nthreads, r->ncpus);
		for (unsigned k = 0; k < 3 && k < r->nips; k++)
			fprintf(fp, "%s0x%" PRIx64, k ? " " : "", r->ips[k]);
		if (r->nips > 3)
			fprintf(fp, " +%" PRIu32, r->nips - 3);
		char *sym, *src;
		int k = c2c_sym_code(c, r->ip_pid, r->ip, &sym, &src);
		if (k < 0) {
			free(rows);
			return k;
		}
		if (k) {
			fprintf(fp, " <i>");
			esc(fp, sym);
			if (src) {
				fprintf(fp, " (");
				esc(fp, src);
				fprintf(fp, ")");
			}
			fprintf(fp, "</i>");
			free(sym);
			free(src);
		}
		fprintf(fp, "</td></tr>\n");
	}
	fprintf(fp, "</table>\n");
	free(rows);
	return 0;
}

int c2c_write_html(struct pebs_c2c *c, FILE *fp)
{
	const struct pebs_c2c_stats *t = &c->totals;
	fprintf(fp, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>pebs-c2c report</title>\n<style>\n"
		"body{font-family:sans-serif;margin:1.5em;color:#222}\n"
		"table{border-collapse:collapse;margin:.5em 0}\n"
		"td,th{border:1px solid #bbb;padding:2px 6px;"
		"text-align:right;font-family:monospace}\n"
		"th{background:#eee}\n.v-false-sharing{color:#b00}\n"
		".v-true-sharing{color:#a50}\n.v-mixed{color:#80a}\n"
		".v-unknown{color:#666}\n.fix{background:#efe;padding:.4em;"
		"border-left:4px solid #4a4}\n</style></head><body>\n");
	fprintf(fp, "<h1>pebs-c2c: cache-line sharing</h1>\n<p>%" PRIu64
		" samples (%" PRIu64 " loads, %" PRIu64 " stores); HITM %"
		PRIu64 " (local %" PRIu64 ", remote %" PRIu64 "); %zu cache "
		"lines sampled; line size %u.</p>\n", t->nr_entries, t->load,
		t->store, t->tot_hitm, t->lcl_hitm, t->rmt_hitm, c->nsampled,
		c->o.line_size);
	fprintf(fp, "<h2>Cache lines, most cycles lost to HITM first</h2>\n"
		"<table><tr><th>#</th><th>dcacheline</th><th>hitm cycles</th>"
		"<th>tot_hitm</th><th>lcl_hitm</th><th>rmt_hitm</th>"
		"<th>records</th><th>loads</th><th>stores</th><th>threads</th>"
		"<th>verdict</th></tr>\n");
	size_t k = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		const struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		if (!l->listed)
			continue;
		const char *vn = pebs_c2c_verdict_name(p->verdict);
		fprintf(fp, "<tr><td><a href=\"#l%zu\">%zu</a></td><td>0x%"
			PRIx64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%"
			PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td><td>%" PRIu32 "</td><td class=\"v-%s\">%s</td>"
			"</tr>\n", k, k, p->addr, p->hitm_cycles,
			p->st.tot_hitm, p->st.lcl_hitm, p->st.rmt_hitm,
			pebs_c2c_tot_recs(&p->st), pebs_c2c_tot_loads(&p->st),
			p->st.store, p->nthreads, vn, vn);
		k++;
	}
	fprintf(fp, "</table>\n");
	if (!k)
		fprintf(fp, "<p>No cache line passes the listing "
			"filters.</p>\n");
	k = 0;
	for (size_t i = 0; i < c->nlines && k < HTML_MAX_MAPS; i++) {
		struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		if (!l->listed)
			continue;
		const char *vn = pebs_c2c_verdict_name(p->verdict);
		char b1[64], b2[64];
		fprintf(fp, "<h2 id=\"l%zu\">Line %zu: 0x%" PRIx64 " <span "
			"class=\"v-%s\">%s</span></h2>\n", k, k, p->addr, vn,
			vn);
		fprintf(fp, "<p>HITM %" PRIu64 " local, %" PRIu64 " remote; "
			"cycles lost %" PRIu64 "; HITM latency %s; load "
			"latency %s; cpus %" PRIu32 ", threads %" PRIu32
			", processes %" PRIu32 ".</p>\n", p->st.lcl_hitm,
			p->st.rmt_hitm, p->hitm_cycles,
			c2c_fmt_lat(b1, sizeof(b1), p->hitm_mean, p->hitm_p50,
				    p->hitm_p99, p->nhitm),
			c2c_fmt_lat(b2, sizeof(b2), p->lat_mean, p->lat_p50,
				    p->lat_p99, p->nloads),
			p->ncpus, p->nthreads, p->npids);
		char *ds;
		int r = c2c_sym_data(c, l, &ds);
		if (r < 0)
			return r;
		if (r) {
			fprintf(fp, "<p><b>Data:</b> ");
			esc(fp, ds);
			fprintf(fp, "</p>\n");
			free(ds);
		}
		/* a map or table left out would pass for no data */
		struct c2c_heat h;
		r = c2c_line_heat(c, l, HTML_MAX_ROWS, &h);
		if (r < 0)
			return r;
		heat_svg(fp, &h, -1);
		c2c_heat_free(&h);
		if ((r = rows_table(c, fp, l)) < 0)
			return r;
		fprintf(fp, "<p><b>Verdict:</b> <span class=\"v-%s\">%s</span>"
			": ", vn, vn);
		esc(fp, p->why);
		fprintf(fp, "</p>\n<p><b>Evidence:</b> ");
		esc(fp, p->evidence);
		fprintf(fp, "</p>\n");
		if (*p->fix) {
			fprintf(fp, "<p class=\"fix\"><b>Fix:</b> ");
			esc(fp, p->fix);
			fprintf(fp, "</p>\n");
		}
		k++;
	}
	if (c->nlisted > k)
		fprintf(fp, "<p>%zu more listed line%s in the table above "
			"but not detailed here: at most %u are (use --top, "
			"--min-hitm, or -f text for all).</p>\n",
			c->nlisted - k, c->nlisted - k == 1 ? " is" : "s are",
			HTML_MAX_MAPS);
	fprintf(fp, "</body></html>\n");
	return ferror(fp) ? -PEBS_E_IO : 0;
}

/* ------------------------------------------------------------------ svg */

/* Pixels a character of the 11-pixel monospace font takes, about; the
 * characters of a text line before it wraps; pixels between lines. */
#define SVG_CHAR_W 7u
#define SVG_WRAP 110u
#define SVG_LINE 16u

/* The two texts above line @k's heat map, into @a and @b. */
static void svg_titles(const struct c2c_line_int *l, size_t k, char *a,
		       size_t alen, char *b, size_t blen)
{
	const struct pebs_c2c_line *p = &l->pub;
	snprintf(a, alen, "Line %zu: 0x%" PRIx64 "  %s  (HITM %" PRIu64
		 " local, %" PRIu64 " remote; %" PRIu64 " cycles lost; %"
		 PRIu32 " threads)", k, p->addr,
		 pebs_c2c_verdict_name(p->verdict), p->st.lcl_hitm,
		 p->st.rmt_hitm, p->hitm_cycles, p->nthreads);
	if (*p->fix)
		snprintf(b, blen, "Fix: %s", p->fix);
	else
		snprintf(b, blen, "Why: %s", p->why);
}

/*
 * Writes @s as text lines of at most SVG_WRAP characters, broken at
 * spaces (SVG text does not wrap), the first at baseline @y; with @fp
 * NULL only counts them.  Returns the number of lines.
 */
static unsigned svg_text(FILE *fp, unsigned y, const char *s, int bold)
{
	unsigned n = 0;
	while (*s) {
		size_t len = strlen(s), take = len;
		if (len > SVG_WRAP) {
			take = SVG_WRAP;
			while (take > SVG_WRAP / 2 && s[take] != ' ')
				take--;
			if (s[take] != ' ')
				take = SVG_WRAP;
		}
		if (fp) {
			fprintf(fp, "<text x=\"4\" y=\"%u\"%s>",
				y + n * SVG_LINE,
				bold ? " font-weight=\"bold\"" : "");
			char part[SVG_WRAP + 1];
			memcpy(part, s, take);
			part[take] = 0;
			esc(fp, part);
			fprintf(fp, "</text>\n");
		}
		n++;
		s += take;
		while (*s == ' ')
			s++;
	}
	return n;
}

int c2c_write_svg(struct pebs_c2c *c, FILE *fp)
{
	const struct pebs_c2c_stats *t = &c->totals;
	char head[256], a[512], b[2048];
	snprintf(head, sizeof(head), "pebs-c2c: %" PRIu64 " samples, HITM %"
		 PRIu64 " (local %" PRIu64 ", remote %" PRIu64 "), %zu cache "
		 "lines sampled; line size %u", t->nr_entries, t->tot_hitm,
		 t->lcl_hitm, t->rmt_hitm, c->nsampled, c->o.line_size);
	/*
	 * The size goes in the first tag: the maps (of the first listed
	 * lines) and every text are measured first.
	 */
	struct c2c_heat heat[HTML_MAX_MAPS];
	struct c2c_line_int *ml[HTML_MAX_MAPS];
	size_t nm = 0;
	for (size_t i = 0; i < c->nlines && nm < HTML_MAX_MAPS; i++) {
		if (!c->lines[i].listed)
			continue;
		int r = c2c_line_heat(c, &c->lines[i], HTML_MAX_ROWS,
					  &heat[nm]);
		if (r < 0) {
			/* only out of memory: a map left out would pass
			 * for a line without one */
			while (nm)
				c2c_heat_free(&heat[--nm]);
			return r;
		}
		ml[nm++] = &c->lines[i];
	}
	unsigned width = SVG_WRAP * SVG_CHAR_W + 8;
	unsigned height = svg_text(NULL, 0, head, 1) * SVG_LINE + 16;
	for (size_t k = 0; k < nm; k++) {
		unsigned wd, ht;
		heat_size(&heat[k], &wd, &ht);
		if (wd > width)
			width = wd;
		svg_titles(ml[k], k, a, sizeof(a), b, sizeof(b));
		height += (svg_text(NULL, 0, a, 1) + svg_text(NULL, 0, b, 0)) *
			  SVG_LINE + ht + SVG_LINE;
	}
	if (!nm)
		height += SVG_LINE;
	size_t undrawn = c->nlisted - nm;
	char more[160];
	snprintf(more, sizeof(more), "%zu more listed line%s not drawn: at "
		 "most %u are (use --top, --min-hitm, or -f text for all).",
		 undrawn, undrawn == 1 ? "" : "s", HTML_MAX_MAPS);
	if (undrawn)
		height += svg_text(NULL, 0, more, 0) * SVG_LINE;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" font-family=\"monospace\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		width, height);
	unsigned y = SVG_LINE;
	y += svg_text(fp, y, head, 1) * SVG_LINE + 16 - SVG_LINE;
	if (!nm)
		svg_text(fp, y + SVG_LINE - 4,
			 "No cache line passes the listing filters.", 0);
	for (size_t k = 0; k < nm; k++) {
		svg_titles(ml[k], k, a, sizeof(a), b, sizeof(b));
		y += svg_text(fp, y + SVG_LINE - 4, a, 1) * SVG_LINE;
		y += svg_text(fp, y + SVG_LINE - 4, b, 0) * SVG_LINE;
		y += heat_svg(fp, &heat[k], (int)y) + SVG_LINE;
		c2c_heat_free(&heat[k]);
	}
	if (undrawn)
		svg_text(fp, y + SVG_LINE - 4, more, 0);
	fprintf(fp, "</svg>\n");
	return ferror(fp) ? -PEBS_E_IO : 0;
}
