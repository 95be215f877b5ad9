/*
 * c2c_out.c - the text and CSV reports of the c2c analysis, and the global
 * statistics tables (perf c2c --stats, without -nan).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cloc.h"
#include "c2c_int.h"
#include "output_fmt.h"

static const char *disp_name(int d)
{
	return d == PEBS_C2C_D_LCL ? "lcl" : d == PEBS_C2C_D_RMT ? "rmt" :
	       "tot";
}

/* "12.50%" of @a in @b, or "n/a" when @b is 0. */
static const char *pct(char *buf, size_t len, uint64_t a, uint64_t b)
{
	if (!b)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f%%", 100.0 * (double)a / (double)b);
	return buf;
}

static const char *nodes_str(char *buf, size_t len, int n)
{
	if (n < 0)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%d", n);
	return buf;
}

/* --------------------------------------------------------------- stats */

struct statrow {
	const char *name, *label;
	uint64_t v;
	int kind;		/* 0 count, 1 v / base as a percentage, 2 n/a */
	uint64_t base;
};

/*
 * perf c2c --stats, row by row with perf's labels and values (perf 6.1
 * "Load LLC hit" includes local HITMs), then the shared-line table.
 */
static int stats_rows(struct pebs_c2c *c, struct statrow *r)
{
	const struct pebs_c2c_stats *s = &c->totals;
	/* every line, listed or not (pebs_c2c_finish()) */
	const struct pebs_c2c_stats sh = c->shared;
	uint64_t nshared = c->nshared;
	uint64_t llc = pebs_c2c_llc_misses(s);
	int n = 0;
#define R(nm, lb, val) r[n++] = (struct statrow){ nm, lb, val, 0, 0 }
#define P(nm, lb, val, b) r[n++] = (struct statrow){ nm, lb, val, 1, b }
	R("records", "Total records", s->nr_entries);
	R("locks", "Locked Load/Store Operations", s->locks);
	R("load", "Load Operations", s->load);
	R("ld_uncache", "Loads - uncacheable", s->ld_uncache);
	R("ld_io", "Loads - IO", s->ld_io);
	R("ld_miss", "Loads - Miss", s->ld_miss);
	R("ld_noadrs", "Loads - no mapping", s->ld_noadrs);
	R("ld_fbhit", "Load Fill Buffer Hit", s->ld_fbhit);
	R("ld_l1hit", "Load L1D hit", s->ld_l1hit);
	R("ld_l2hit", "Load L2D hit", s->ld_l2hit);
	R("ld_llchit_all", "Load LLC hit", s->ld_llchit + s->lcl_hitm);
	R("lcl_hitm", "Load Local HITM", s->lcl_hitm);
	R("rmt_hitm", "Load Remote HITM", s->rmt_hitm);
	R("rmt_hit", "Load Remote HIT", s->rmt_hit);
	R("lcl_dram", "Load Local DRAM", s->lcl_dram);
	R("rmt_dram", "Load Remote DRAM", s->rmt_dram);
	R("ld_excl", "Load MESI State Exclusive", s->ld_excl);
	R("ld_shared", "Load MESI State Shared", s->ld_shared);
	R("llc_misses", "Load LLC Misses", llc);
	R("blk_data", "Load access blocked by data", s->blk_data);
	R("blk_addr", "Load access blocked by address", s->blk_addr);
	R("lcl_peer", "Load HIT Local Peer", s->lcl_peer);
	R("rmt_peer", "Load HIT Remote Peer", s->rmt_peer);
	P("llc_miss_lcl_dram", "LLC Misses to Local DRAM", s->lcl_dram, llc);
	P("llc_miss_rmt_dram", "LLC Misses to Remote DRAM", s->rmt_dram, llc);
	P("llc_miss_rmt_hit", "LLC Misses to Remote cache (HIT)",
	  s->rmt_hit, llc);
	P("llc_miss_rmt_hitm", "LLC Misses to Remote cache (HITM)",
	  s->rmt_hitm, llc);
	R("store", "Store Operations", s->store);
	R("st_uncache", "Store - uncacheable", s->st_uncache);
	R("st_noadrs", "Store - no mapping", s->st_noadrs);
	R("st_l1hit", "Store L1D Hit", s->st_l1hit);
	R("st_l1miss", "Store L1D Miss", s->st_l1miss);
	R("st_na", "Store No available memory level", s->st_na);
	r[n++] = (struct statrow){ "nomap", "No Page Map Rejects", 0, 2, 0 };
	R("noparse", "Unable to parse data source", s->noparse);
	R("shared_lines", "Total Shared Cache Lines", nshared);
	R("shared_loads", "Load HITs on shared lines", sh.load);
	R("shared_ld_fbhit", "Fill Buffer Hits on shared lines", sh.ld_fbhit);
	R("shared_ld_l1hit", "L1D hits on shared lines", sh.ld_l1hit);
	R("shared_ld_l2hit", "L2D hits on shared lines", sh.ld_l2hit);
	R("shared_ld_llchit_all", "LLC hits on shared lines",
	  sh.ld_llchit + sh.lcl_hitm);
	R("shared_peer", "Load hits on peer cache or nodes", sh.tot_peer);
	R("shared_locks", "Locked Access on shared lines", sh.locks);
	R("shared_blocked", "Blocked Access on shared lines",
	  sh.blk_data + sh.blk_addr);
	R("shared_store", "Store HITs on shared lines", sh.store);
	R("shared_st_l1hit", "Store L1D hits on shared lines", sh.st_l1hit);
	R("shared_st_na", "Store No available memory level", sh.st_na);
	R("shared_merged", "Total Merged records", sh.tot_hitm + sh.store);
#undef R
#undef P
	return n;
}

int c2c_write_stats(struct pebs_c2c *c, FILE *fp, int csv)
{
	struct statrow r[64];
	int n = stats_rows(c, r);
	char buf[32];
	if (csv)
		fprintf(fp, "name,value\n");
	else
		fprintf(fp, "Trace Event Information\n");
	for (int i = 0; i < n; i++) {
		const char *v = buf;
		if (r[i].kind == 2 || (r[i].kind == 1 && !r[i].base))
			v = csv ? "" : "n/a";
		else if (r[i].kind == 1)
			snprintf(buf, sizeof(buf), csv ? "%.1f%%" :
				 "%10.1f%%", 100.0 *
				 (double)r[i].v / (double)r[i].base);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, r[i].v);
		if (!strcmp(r[i].name, "shared_lines") && !csv)
			fprintf(fp, "\nGlobal Shared Cache Line Event "
				"Information\n");
		if (csv)
			fprintf(fp, "%s,%s\n", r[i].name, v);
		else
			fprintf(fp, "  %-33s : %10s\n", r[i].label, v);
	}
	return ferror(fp) ? -PEBS_E_IO : 0;
}

/* ---------------------------------------------------------------- text */

/* The offset rows of line @l; 0 or -PEBS_E_NOMEM (a report without
 * them would pass for complete). */
static int text_rows(struct pebs_c2c *c, FILE *fp, struct c2c_line_int *l)
{
	struct c2c_row *rows;
	long n = c2c_line_rows(c, l, &rows);
	if (n < 0)
		return (int)n;
	unsigned by = c->o.coalesce;
	fprintf(fp, "    offset");
	if (by & PEBS_C2C_BY_PID)
		fprintf(fp, "      pid");
	if (by & PEBS_C2C_BY_TID)
		fprintf(fp, "      tid");
	if (by & PEBS_C2C_BY_CPU)
		fprintf(fp, "  cpu");
	if (by & PEBS_C2C_BY_DSO)
		fprintf(fp, "  %-20s", "dso");
	fprintf(fp, "    loads   stores lcl_hitm rmt_hitm  lat_mean threads"
		" cpus  instructions\n");
	char mb[32];
	for (long i = 0; i < n; i++) {
		const struct c2c_row *r = &rows[i];
		fprintf(fp, "    0x%04" PRIx32, r->offset);
		if (by & PEBS_C2C_BY_PID)
			fprintf(fp, " %8" PRIu32, r->pid);
		if (by & PEBS_C2C_BY_TID)
			fprintf(fp, " %8" PRIu32, r->tid);
		if (by & PEBS_C2C_BY_CPU)
			fprintf(fp, " %4" PRIu32, r->cpu);
		if (by & PEBS_C2C_BY_DSO) {
			/* the file name: the path is in the other formats */
			const char *b = strrchr(r->dso, '/');
			fputs("  ", fp);
			pebs_outfmt_text_fputs(fp, b ? b + 1 : r->dso, 20);
		}
		fprintf(fp, " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8"
			PRIu64 " %9s %7" PRIu32 " %4" PRIu32 "  ", r->loads,
			r->stores, r->lcl_hitm, r->rmt_hitm,
			c2c_fmt_mean(mb, sizeof(mb), r->lat_n ?
				     (double)r->lat_sum / (double)r->lat_n : 0,
				     r->lat_n, 1),
			r->nthreads, r->ncpus);
		for (unsigned k = 0; k < 3 && k < r->nips; k++)
			fprintf(fp, "%s0x%" PRIx64, k ? "," : "", r->ips[k]);
		if (r->nips > 3)
			fprintf(fp, ",+%" PRIu32, r->nips - 3);
		char *sym, *src;
		int k = c2c_sym_code(c, r->ip_pid, r->ip, &sym, &src);
		if (k < 0) {
			free(rows);
			return k;
		}
		if (k) {
			fputs("  ", fp);
			pebs_outfmt_text_fputs(fp, sym, 0);
			if (src) {
				fputs(" (", fp);
				pebs_outfmt_text_fputs(fp, src, 0);
				fputc(')', fp);
			}
			free(sym);
			free(src);
		}
		fputc('\n', fp);
	}
	free(rows);
	return 0;
}

int c2c_write_text(struct pebs_c2c *c, FILE *fp)
{
	const struct pebs_c2c_stats *t = &c->totals;
	size_t listed = 0, hitm_lines = 0, vcount[4] = { 0 };
	uint64_t cyc = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		const struct c2c_line_int *l = &c->lines[i];
		hitm_lines += l->pub.sort_hitm > 0;
		cyc += l->pub.hitm_cycles;
		if (l->listed) {
			listed++;
			vcount[l->pub.verdict]++;
		}
	}
	char b1[64], b2[64], b3[32];
	fprintf(fp, "Summary\n");
	fprintf(fp, "  samples: %" PRIu64 " (loads %" PRIu64 ", stores %"
		PRIu64 ", without address %" PRIu64 ", neither %" PRIu64
		")\n", t->nr_entries, t->load, t->store,
		t->ld_noadrs + t->st_noadrs, t->noparse);
	fprintf(fp, "  HITM: %" PRIu64 " (local %" PRIu64 ", remote %"
		PRIu64 "); cycles lost to HITM (%s): %" PRIu64 "\n",
		t->tot_hitm, t->lcl_hitm, t->rmt_hitm,
		disp_name(c->o.display), cyc);
	fprintf(fp, "  cache lines: %zu sampled, %zu with %s HITM, %zu "
		"listed (line size %u, display %s)\n", c->nsampled, hitm_lines,
		disp_name(c->o.display), listed, c->o.line_size,
		disp_name(c->o.display));
	fprintf(fp, "  verdicts of listed lines: false-sharing %zu, "
		"true-sharing %zu, mixed %zu, unknown %zu\n",
		vcount[PEBS_C2C_V_FALSE], vcount[PEBS_C2C_V_TRUE],
		vcount[PEBS_C2C_V_MIXED], vcount[PEBS_C2C_V_UNKNOWN]);
	if (!listed) {
		fprintf(fp, "\nNo cache line with %s HITM%s.\n",
			disp_name(c->o.display), c->o.min_hitm > 1 ?
			" at or above --min-hitm" : "");
		return ferror(fp) ? -PEBS_E_IO : 0;
	}
	/*
	 * perf's Shared Data Cache Line Table, in its order: every source
	 * counter of a load, so that loads = ld_fbh + ld_l1h + ld_l2h +
	 * ld_llc + lcl_hitm + rmt_hit + rmt_hitm + l_dram + r_dram, and
	 * recs = loads + st_l1h + st_l1m + st_na.  cyc% is the line's share
	 * of the cycles lost, the sort key (perf's Hitm% is of the count,
	 * which would not be in order here).
	 */
	fprintf(fp, "\nCache lines, most cycles lost to HITM first\n");
	fprintf(fp, "  #  %-18s %10s %7s %8s %8s %8s %6s %6s %6s %6s %6s "
		"%6s %6s %6s %6s %6s %7s %6s %6s  %s\n", "dcacheline",
		"hitm_cyc", "cyc%", "tot_hitm", "lcl_hitm", "rmt_hitm", "recs",
		"loads", "stores", "st_l1h", "st_l1m", "st_na", "ld_fbh",
		"ld_l1h", "ld_l2h", "ld_llc", "rmt_hit", "l_dram", "r_dram",
		"verdict");
	size_t k = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		const struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		const struct pebs_c2c_stats *s = &p->st;
		if (!l->listed)
			continue;
		fprintf(fp, "%3zu  0x%016" PRIx64 " %10" PRIu64 " %7s %8" PRIu64
			" %8" PRIu64 " %8" PRIu64 " %6" PRIu64 " %6" PRIu64
			" %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
			" %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
			" %7" PRIu64 " %6" PRIu64 " %6" PRIu64 "  %s\n", k++,
			p->addr, p->hitm_cycles,
			pct(b1, sizeof(b1), p->hitm_cycles, cyc), s->tot_hitm,
			s->lcl_hitm, s->rmt_hitm, pebs_c2c_tot_recs(s),
			pebs_c2c_tot_loads(s), s->store, s->st_l1hit,
			s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit,
			s->ld_l2hit, s->ld_llchit, s->rmt_hit, s->lcl_dram,
			s->rmt_dram, pebs_c2c_verdict_name(p->verdict));
	}
	k = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		if (!l->listed)
			continue;
		fprintf(fp, "\nLine %zu: 0x%" PRIx64 ": %s\n", k++, p->addr,
			pebs_c2c_verdict_name(p->verdict));
		fprintf(fp, "  HITM: %" PRIu64 " local, %" PRIu64 " remote; "
			"cycles lost %" PRIu64 "; HITM latency %s\n",
			p->st.lcl_hitm, p->st.rmt_hitm, p->hitm_cycles,
			c2c_fmt_lat(b1, sizeof(b1), p->hitm_mean, p->hitm_p50,
				    p->hitm_p99, p->nhitm));
		/* --perf-compat counts some loads twice (and line 0 the loads
		 * without an address): the latency and the offset rows below
		 * are over the samples, so say how many those are */
		uint64_t tl = pebs_c2c_tot_loads(&p->st);
		fprintf(fp, "  loads %" PRIu64, tl);
		if (tl != p->nloads)
			fprintf(fp, " as perf counts them, %" PRIu64
				" sampled", p->nloads);
		fprintf(fp, " (latency %s), stores %" PRIu64
			"; cpus %" PRIu32 ", threads %" PRIu32 ", processes %"
			PRIu32 ", nodes %s\n",
			c2c_fmt_lat(b2, sizeof(b2), p->lat_mean, p->lat_p50,
				    p->lat_p99, p->nloads), p->st.store,
			p->ncpus, p->nthreads, p->npids,
			nodes_str(b3, sizeof(b3), p->nnodes));
		char *ds;
		int r = c2c_sym_data(c, l, &ds);
		if (r < 0)
			return r;
		if (r) {
			fputs("  data: ", fp);
			pebs_outfmt_text_fputs(fp, ds, 0);
			fputc('\n', fp);
			free(ds);
		}
		r = text_rows(c, fp, l);
		if (r < 0)
			return r;
		fprintf(fp, "  verdict: %s: %s\n",
			pebs_c2c_verdict_name(p->verdict), p->why);
		fprintf(fp, "  evidence: %s\n", p->evidence);
		if (*p->fix)
			fprintf(fp, "  fix: %s\n", p->fix);
	}
	return ferror(fp) ? -PEBS_E_IO : 0;
}

/* ----------------------------------------------------------------- csv */

/* Writes @s as a quoted CSV field, its quotes doubled. */
static void csv_str(FILE *fp, const char *s)
{
	putc('"', fp);
	for (;;) {
		const char *q = strchr(s, '"');
		fwrite(s, 1, q ? (size_t)(q - s) + 1 : strlen(s), fp);
		if (!q)
			break;
		putc('"', fp);
		s = q + 1;
	}
	putc('"', fp);
}

/* Appends ",N" at @e for each of the @n values @v; returns the end. */
static char *csv_u64s(char *e, const uint64_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		*e++ = ',';
		e = pebs_outfmt_u64(e, v[k]);
	}
	return e;
}

/* Appends ",MEAN" (two decimals) at @e, or "," when there is none (@n 0). */
static char *csv_mean(char *e, double v, uint64_t n)
{
	if (!n) {
		*e++ = ',';
		return e;
	}
	/* a mean of u64 values: at most 20 digits before the point, so
	 * 32 bytes always hold it (the row has room for every field) */
	int k = snprintf(e, 32, ",%.2f", v);
	return e + (k < 0 ? 0 : k > 31 ? 31 : k);
}

/* Appends ",P50,P99" at @e, or ",," when there are none (@n 0). */
static char *csv_pctl(char *e, uint32_t p50, uint32_t p99, uint64_t n)
{
	*e++ = ',';
	if (n)
		e = pebs_outfmt_u32(e, p50);
	*e++ = ',';
	if (n)
		e = pebs_outfmt_u32(e, p99);
	return e;
}

int c2c_write_csv(struct pebs_c2c *c, FILE *fp)
{
	fprintf(fp, "dcacheline,tot_hitm,lcl_hitm,rmt_hitm,tot_recs,"
		"tot_loads,tot_stores,stores_l1hit,stores_l1miss,ld_l1hit,"
		"ld_l2hit,ld_llchit,lcl_dram,rmt_dram,verdict,hitm_cycles,"
		"stores_na,ld_fbhit,rmt_hit,ld_uncache,ld_io,ld_miss,locks,"
		"lcl_hitm_cyc,rmt_hitm_cyc,ld_cyc,lat_mean,lat_p50,lat_p99,"
		"hitm_mean,hitm_p50,hitm_p99,cpus,threads,pids,nodes,why,"
		"fix%s\n", c->sym ? ",data_sym" : "");
	for (size_t i = 0; i < c->nlines; i++) {
		const struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		const struct pebs_c2c_stats *s = &p->st;
		if (!l->listed)
			continue;
		/*
		 * The numbers of a row are formatted into a buffer and
		 * written at once: with --show-all there are hundreds of
		 * thousands of rows, and fprintf() per field took a fifth
		 * of the time.
		 */
		char row[1024], *e = row;
		const uint64_t a[] = {
			s->tot_hitm, s->lcl_hitm, s->rmt_hitm,
			pebs_c2c_tot_recs(s), pebs_c2c_tot_loads(s), s->store,
			s->st_l1hit, s->st_l1miss, s->ld_l1hit, s->ld_l2hit,
			s->ld_llchit, s->lcl_dram, s->rmt_dram
		}, b[] = {
			p->hitm_cycles, s->st_na, s->ld_fbhit, s->rmt_hit,
			s->ld_uncache, s->ld_io, s->ld_miss, s->locks
		}, t[] = { p->ncpus, p->nthreads, p->npids };
		e = pebs_outfmt_hex(e, p->addr);
		e = csv_u64s(e, a, sizeof(a) / sizeof(a[0]));
		*e++ = ',';
		e = stpcpy(e, pebs_c2c_verdict_name(p->verdict));
		e = csv_u64s(e, b, sizeof(b) / sizeof(b[0]));
		e = csv_mean(e, p->lcl_hitm_cyc, s->lcl_hitm);
		e = csv_mean(e, p->rmt_hitm_cyc, s->rmt_hitm);
		e = csv_mean(e, p->ld_cyc, p->nloads - p->nhitm);
		e = csv_mean(e, p->lat_mean, p->nloads);
		e = csv_pctl(e, p->lat_p50, p->lat_p99, p->nloads);
		e = csv_mean(e, p->hitm_mean, p->nhitm);
		e = csv_pctl(e, p->hitm_p50, p->hitm_p99, p->nhitm);
		e = csv_u64s(e, t, sizeof(t) / sizeof(t[0]));
		*e++ = ',';
		if (p->nnodes >= 0)
			e = pebs_outfmt_u32(e, (uint32_t)p->nnodes);
		*e++ = ',';
		fwrite(row, 1, (size_t)(e - row), fp);
		csv_str(fp, p->why);
		putc(',', fp);
		csv_str(fp, p->fix);
		if (c->sym) {
			/* only with symbols: the contract's columns stay */
			char *ds;
			int r = c2c_sym_data(c, l, &ds);
			if (r < 0)
				return r;
			putc(',', fp);
			if (r)
				csv_str(fp, ds);
			free(ds);
		}
		putc('\n', fp);
	}
	return ferror(fp) ? -PEBS_E_IO : 0;
}

static int c2c_write(struct pebs_c2c *c, FILE *fp, enum pebs_c2c_format fmt);

/* In the C locale: the means and shares are "%.2f" (cloc.h). */
int pebs_c2c_write(struct pebs_c2c *c, FILE *fp, enum pebs_c2c_format fmt)
{
	locale_t old = lib_locale_enter();
	int r = c2c_write(c, fp, fmt);
	lib_locale_leave(old);
	return r;
}

static int c2c_write(struct pebs_c2c *c, FILE *fp, enum pebs_c2c_format fmt)
{
	if (!c->finished)
		return c2c_fail(c, PEBS_E_INVAL,
				"pebs_c2c_finish() not called");
	int r;
	errno = 0;
	switch (fmt) {
	case PEBS_C2C_F_TEXT: r = c2c_write_text(c, fp); break;
	case PEBS_C2C_F_CSV: r = c2c_write_csv(c, fp); break;
	case PEBS_C2C_F_YAML: r = c2c_write_yaml(c, fp); break;
	case PEBS_C2C_F_HTML: r = c2c_write_html(c, fp); break;
	case PEBS_C2C_F_SVG: r = c2c_write_svg(c, fp); break;
	case PEBS_C2C_F_STATS_TEXT: r = c2c_write_stats(c, fp, 0); break;
	case PEBS_C2C_F_STATS_CSV: r = c2c_write_stats(c, fp, 1); break;
	default:
		return c2c_fail(c, PEBS_E_INVAL, "unknown output format");
	}
	if (r == -PEBS_E_IO)
		return c2c_fail(c, PEBS_E_IO, "write error");
	if (r == -PEBS_E_NOMEM)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	return r;
}
