/*
 * c2c_yaml.c - the YAML result of the c2c analysis and its reader for
 * --merge.  The result is complete: it holds the report (every line, the
 * rows of the listed ones) and, under `cells`, every exact aggregate the
 * report was computed from; merging reads only `cells` and `topology`, so
 * merged parts give exactly the result of the whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "c2c_int.h"

#define C2C_YAML_VERSION 1

static void ystr(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\x%02x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

static void ymean(FILE *fp, const char *k, double v, uint64_t n)
{
	if (n)
		fprintf(fp, "    %s: %.3f\n", k, v);
	else
		fprintf(fp, "    %s: null\n", k);
}

static void ypct(FILE *fp, const char *k, uint32_t p50, uint32_t p99,
		 uint64_t n)
{
	if (n)
		fprintf(fp, "    %s_p50: %" PRIu32 "\n    %s_p99: %" PRIu32
			"\n", k, p50, k, p99);
	else
		fprintf(fp, "    %s_p50: null\n    %s_p99: null\n", k, k);
}

#define STAT_FIELDS(X) X(nr_entries) X(locks) X(blk_data) X(blk_addr) \
	X(load) X(store) X(ld_noadrs) X(st_noadrs) X(ld_uncache) X(ld_io) \
	X(ld_fbhit) X(ld_l1hit) X(ld_l2hit) X(ld_llchit) X(lcl_hitm) \
	X(rmt_hitm) X(tot_hitm) X(lcl_peer) X(rmt_peer) X(tot_peer) \
	X(rmt_hit) X(lcl_dram) X(rmt_dram) X(ld_shared) X(ld_excl) \
	X(ld_miss) X(st_uncache) X(st_l1hit) X(st_l1miss) X(st_na) X(noparse)

static void ystats(FILE *fp, const char *ind, const struct pebs_c2c_stats *s)
{
#define X(f) fprintf(fp, "%s%s: %" PRIu64 "\n", ind, #f, s->f);
	STAT_FIELDS(X)
#undef X
}

/*
 * A line that is not listed, on one line: its counts without the zero
 * counters (there can be a million such lines).
 */
static void yshort(FILE *fp, const struct pebs_c2c_line *p)
{
	const struct pebs_c2c_stats *s = &p->st;
	fprintf(fp, "  - {dcacheline: 0x%" PRIx64 ", listed: false, verdict: "
		"%s, hitm_cycles: %" PRIu64 ", tot_recs: %" PRIu64
		", tot_loads: %" PRIu64, p->addr,
		pebs_c2c_verdict_name(p->verdict), p->hitm_cycles,
		pebs_c2c_tot_recs(s), pebs_c2c_tot_loads(s));
#define X(f) if (s->f) fprintf(fp, ", %s: %" PRIu64, #f, s->f);
	STAT_FIELDS(X)
#undef X
	fprintf(fp, ", cpus: %" PRIu32 ", threads: %" PRIu32 ", pids: %" PRIu32
		"}\n", p->ncpus, p->nthreads, p->npids);
}

static void yrows(struct pebs_c2c *c, FILE *fp, struct c2c_line_int *l)
{
	struct c2c_row *rows;
	long n = c2c_line_rows(c, l, &rows);
	if (n < 0)
		return;
	unsigned by = c->o.coalesce;
	fprintf(fp, "    offsets:\n");
	for (long i = 0; i < n; i++) {
		const struct c2c_row *r = &rows[i];
		fprintf(fp, "      - {offset: 0x%" PRIx32, r->offset);
		if (by & PEBS_C2C_BY_PID)
			fprintf(fp, ", pid: %" PRIu32, r->pid);
		if (by & PEBS_C2C_BY_TID)
			fprintf(fp, ", tid: %" PRIu32, r->tid);
		if (by & PEBS_C2C_BY_CPU)
			fprintf(fp, ", cpu: %" PRIu32, r->cpu);
		fprintf(fp, ", loads: %" PRIu64 ", stores: %" PRIu64
			", lcl_hitm: %" PRIu64 ", rmt_hitm: %" PRIu64,
			r->loads, r->stores, r->lcl_hitm, r->rmt_hitm);
		if (r->lat_n)
			fprintf(fp, ", lat_mean: %.3f",
				(double)r->lat_sum / (double)r->lat_n);
		else
			fprintf(fp, ", lat_mean: null");
		fprintf(fp, ", threads: %" PRIu32 ", cpus: %" PRIu32
			", ips: [", r->nthreads, r->ncpus);
		for (unsigned k = 0; k < 3 && k < r->nips; k++)
			fprintf(fp, "%s0x%" PRIx64, k ? ", " : "", r->ips[k]);
		fprintf(fp, "], nips: %" PRIu32 "}\n", r->nips);
	}
	free(rows);
}

int c2c_write_yaml(struct pebs_c2c *c, FILE *fp)
{
	const struct pebs_c2c_opts *o = &c->o;
	fprintf(fp, "pebs_c2c: %d\n", C2C_YAML_VERSION);
	fprintf(fp, "options:\n  line_size: %u\n  access_size: %u\n"
		"  display: %s\n  min_samples: %u\n  verdict_pct: %u\n"
		"  perf_compat: %s\n  coalesce: \"", o->line_size,
		o->access_size, o->display == PEBS_C2C_D_LCL ? "lcl" :
		o->display == PEBS_C2C_D_RMT ? "rmt" : "tot",
		o->min_samples, o->verdict_pct,
		o->perf_compat ? "true" : "false");
	static const char *const names[] = { "pid", "tid", "iaddr", "cpu" };
	int first = 1;
	for (unsigned b = 0; b < 4; b++)
		if (o->coalesce & (1u << b)) {
			fprintf(fp, "%s%s", first ? "" : ",", names[b]);
			first = 0;
		}
	fprintf(fp, "\"\n");
	fprintf(fp, "topology:%s\n", c->topo.nnodes ? "" : " {}");
	for (size_t i = 0; i < c->topo.nnodes; i++)
		if (c->topo.cpulist[i]) {
			fprintf(fp, "  \"%zu\": ", i);
			ystr(fp, c->topo.cpulist[i]);
			fputc('\n', fp);
		}
	fprintf(fp, "totals:\n");
	ystats(fp, "  ", &c->totals);
	fprintf(fp, "lines:%s\n", c->nlines ? "" : " []");
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[c->rank[i]];
		const struct pebs_c2c_line *p = &l->pub;
		if (!l->listed) {
			yshort(fp, p);
			continue;
		}
		fprintf(fp, "  - dcacheline: 0x%" PRIx64 "\n", p->addr);
		fprintf(fp, "    listed: %s\n", l->listed ? "true" : "false");
		fprintf(fp, "    verdict: %s\n",
			pebs_c2c_verdict_name(p->verdict));
		if (l->listed) {
			fprintf(fp, "    why: ");
			ystr(fp, p->why);
			fprintf(fp, "\n    evidence: ");
			ystr(fp, p->evidence);
			fprintf(fp, "\n    fix: ");
			ystr(fp, p->fix);
			fputc('\n', fp);
		}
		fprintf(fp, "    hitm_cycles: %" PRIu64 "\n", p->hitm_cycles);
		fprintf(fp, "    tot_recs: %" PRIu64 "\n    tot_loads: %" PRIu64
			"\n", pebs_c2c_tot_recs(&p->st),
			pebs_c2c_tot_loads(&p->st));
		ystats(fp, "    ", &p->st);
		ymean(fp, "lat_mean", p->lat_mean, p->nloads);
		ypct(fp, "lat", p->lat_p50, p->lat_p99, p->nloads);
		ymean(fp, "hitm_mean", p->hitm_mean, p->nhitm);
		ypct(fp, "hitm", p->hitm_p50, p->hitm_p99, p->nhitm);
		ymean(fp, "lcl_hitm_cyc", p->lcl_hitm_cyc, p->st.lcl_hitm);
		ymean(fp, "rmt_hitm_cyc", p->rmt_hitm_cyc, p->st.rmt_hitm);
		ymean(fp, "ld_cyc", p->ld_cyc, p->nloads - p->nhitm);
		fprintf(fp, "    cpus: %" PRIu32 "\n    threads: %" PRIu32
			"\n    pids: %" PRIu32 "\n", p->ncpus, p->nthreads,
			p->npids);
		if (p->nnodes >= 0)
			fprintf(fp, "    nodes: %d\n", p->nnodes);
		else
			fprintf(fp, "    nodes: null\n");
		if (l->listed)
			yrows(c, fp, l);
	}
	fprintf(fp, "# cells: every distinct sample key and its count: "
		"[addr, ip, dsrc, pid, tid, cpu, lat, count]\n");
	fprintf(fp, "cells:%s\n", c->ncells ? "" : " []");
	for (size_t i = 0; i < c->ncells; i++) {
		const struct c2c_cell *k = &c->cells[i];
		fprintf(fp, "  - [0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64
			", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32
			", %" PRIu64 "]\n", k->addr, k->ip, k->dsrc, k->pid,
			k->tid, k->cpu, k->lat, k->count);
	}
	return ferror(fp) ? -PEBS_E_IO : 0;
}

/* ---------------------------------------------------------------- merge */

struct yp {
	struct pebs_c2c *c;
	yaml_parser_t p;
	yaml_event_t ev;
	int have;
};

static int ynext(struct yp *y)
{
	if (y->have)
		yaml_event_delete(&y->ev);
	y->have = 0;
	if (!yaml_parser_parse(&y->p, &y->ev))
		return c2c_fail(y->c, PEBS_E_PARSE, "line %zu: %s",
				y->p.problem_mark.line + 1,
				y->p.problem ? y->p.problem : "bad YAML");
	y->have = 1;
	return 0;
}

static int yerr(struct yp *y, const char *what)
{
	return c2c_fail(y->c, PEBS_E_PARSE, "line %zu: %s",
			y->ev.start_mark.line + 1, what);
}

/* Skips the node whose first event is the current one. */
static int yskip(struct yp *y)
{
	int depth = 0;
	for (;;) {
		switch (y->ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			break;
		default:
			return yerr(y, "unexpected end of document");
		}
		if (depth <= 0)
			return 0;
		int r = ynext(y);
		if (r)
			return r;
	}
}

static const char *yscalar(const struct yp *y)
{
	return (const char *)y->ev.data.scalar.value;
}

static int yu64(struct yp *y, uint64_t max, uint64_t *out)
{
	if (y->ev.type != YAML_SCALAR_EVENT)
		return yerr(y, "expected a number");
	const char *s = yscalar(y);
	char *e;
	errno = 0;
	if (*s == '-' || *s == '+' || *s == ' ' || !*s)
		return yerr(y, "expected an unsigned number");
	unsigned long long v = strtoull(s, &e, 0);
	if (errno || *e || v > max)
		return yerr(y, "number out of range or malformed");
	*out = v;
	return 0;
}

static int ycells(struct yp *y)
{
	int r;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT)
		return yerr(y, "cells: expected a list");
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (y->ev.type != YAML_SEQUENCE_START_EVENT)
			return yerr(y, "cells: expected [addr, ip, dsrc, pid, "
				    "tid, cpu, lat, count]");
		uint64_t v[8];
		static const uint64_t max[8] = { UINT64_MAX, UINT64_MAX,
			UINT64_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
			UINT32_MAX, UINT64_MAX };
		for (int i = 0; i < 8; i++) {
			if ((r = ynext(y)))
				return r;
			if (y->ev.type == YAML_SEQUENCE_END_EVENT)
				return yerr(y, "cells: an entry has fewer "
					    "than 8 numbers");
			if ((r = yu64(y, max[i], &v[i])))
				return r;
		}
		if ((r = ynext(y)))
			return r;
		if (y->ev.type != YAML_SEQUENCE_END_EVENT)
			return yerr(y, "cells: an entry has more than 8 "
				    "numbers");
		struct c2c_cell k = { v[0], v[1], v[2], (uint32_t)v[3],
				      (uint32_t)v[4], (uint32_t)v[5],
				      (uint32_t)v[6], 0 };
		if ((r = c2c_add_cell(y->c, &k, v[7])))
			return r;
	}
}

static int ytopo(struct yp *y)
{
	int r;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return yerr(y, "topology: expected a mapping");
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		uint64_t node;
		if ((r = yu64(y, 4095, &node)))
			return r;
		if ((r = ynext(y)))
			return r;
		if (y->ev.type != YAML_SCALAR_EVENT)
			return yerr(y, "topology: expected a cpu list");
		if ((r = c2c_topo_add(y->c, (unsigned)node, yscalar(y))))
			return r;
	}
}

static int ydoc(struct yp *y)
{
	int r, first = 1;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return yerr(y, "not a pebs-c2c YAML result (expected a "
			    "mapping)");
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			return first ? yerr(y, "not a pebs-c2c YAML result "
					    "(empty)") : 0;
		if (y->ev.type != YAML_SCALAR_EVENT)
			return yerr(y, "expected a key");
		char key[32];
		snprintf(key, sizeof(key), "%s", yscalar(y));
		if (first && strcmp(key, "pebs_c2c"))
			return yerr(y, "not a pebs-c2c YAML result (first key "
				    "is not pebs_c2c)");
		if ((r = ynext(y)))
			return r;
		if (first) {
			uint64_t ver;
			if ((r = yu64(y, UINT32_MAX, &ver)))
				return r;
			if (ver != C2C_YAML_VERSION)
				return yerr(y, "unsupported pebs_c2c version");
			first = 0;
		} else if (!strcmp(key, "cells")) {
			r = ycells(y);
		} else if (!strcmp(key, "topology")) {
			r = ytopo(y);
		} else {
			r = yskip(y);
		}
		if (r)
			return r;
	}
}

int pebs_c2c_merge_yaml(struct pebs_c2c *c, const void *buf, size_t len)
{
	struct yp y;
	memset(&y, 0, sizeof(y));
	y.c = c;
	if (!yaml_parser_initialize(&y.p))
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	yaml_parser_set_input_string(&y.p, buf, len);
	int r, docs = 0;
	if ((r = ynext(&y)))
		goto out;
	for (;;) {
		if ((r = ynext(&y)))
			goto out;
		if (y.ev.type == YAML_STREAM_END_EVENT)
			break;
		if (y.ev.type != YAML_DOCUMENT_START_EVENT) {
			r = yerr(&y, "bad YAML stream");
			goto out;
		}
		if ((r = ynext(&y)) || (r = ydoc(&y)) || (r = ynext(&y)))
			goto out;
		if (y.ev.type != YAML_DOCUMENT_END_EVENT) {
			r = yerr(&y, "bad YAML document end");
			goto out;
		}
		docs++;
	}
	if (!docs)
		r = c2c_fail(c, PEBS_E_PARSE, "empty input: not a pebs-c2c "
			     "YAML result");
out:
	if (y.have)
		yaml_event_delete(&y.ev);
	yaml_parser_delete(&y.p);
	return r;
}
