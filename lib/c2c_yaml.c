/*
 * c2c_yaml.c - the YAML result of the c2c analysis and its reader for
 * --merge.  The result holds the report (the listed lines in full, the
 * other lines with a HITM in short, a count of the rest) and, after it,
 * every sample the report was computed from, compactly: dictionaries of
 * data sources, threads and instructions, the samples outside lines as
 * counts, and the line samples sorted by address as text chunks (format
 * in pebs-c2c(1), MERGE FORMAT).  Merging reads only the samples and the
 * topology, so merged parts give exactly the result of the whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "c2c_int.h"
#include "output_fmt.h"

#define C2C_YAML_VERSION 2
#define C2C_CHUNK 512	/* samples per text chunk */

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/*
 * A text value that reads back as exactly its bytes: a YAML string when
 * it is valid UTF-8 (YAML text is), else its bytes as !!binary (base64),
 * as a path with a Latin-1 name comes (--merge reads maps back).
 */
static void ystr(FILE *fp, const char *s)
{
	size_t n = strlen(s);
	if (pebs_outfmt_utf8_valid(s, n)) {
		pebs_outfmt_yaml_fputs(fp, s);
		return;
	}
	const unsigned char *u = (const unsigned char *)s;
	fputs("!!binary \"", fp);
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)u[i] << 16 |
			     (i + 1 < n ? (uint32_t)u[i + 1] << 8 : 0) |
			     (i + 2 < n ? u[i + 2] : 0);
		char q[4] = { b64[v >> 18], b64[v >> 12 & 63],
			      i + 1 < n ? b64[v >> 6 & 63] : '=',
			      i + 2 < n ? b64[v & 63] : '=' };
		fwrite(q, 1, 4, fp);
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

/*
 * The counters, X(member, key): keys as the CSV and the contract name
 * them (stores_l1hit, not perf's st_l1hit), so that a script reads one
 * name in every format.  --merge reads none of them.
 */
#define STAT_FIELDS(X) X(nr_entries, nr_entries) X(locks, locks) \
	X(blk_data, blk_data) X(blk_addr, blk_addr) X(load, load) \
	X(store, store) X(ld_noadrs, ld_noadrs) X(st_noadrs, st_noadrs) \
	X(ld_uncache, ld_uncache) X(ld_io, ld_io) X(ld_fbhit, ld_fbhit) \
	X(ld_l1hit, ld_l1hit) X(ld_l2hit, ld_l2hit) X(ld_llchit, ld_llchit) \
	X(lcl_hitm, lcl_hitm) X(rmt_hitm, rmt_hitm) X(tot_hitm, tot_hitm) \
	X(lcl_peer, lcl_peer) X(rmt_peer, rmt_peer) X(tot_peer, tot_peer) \
	X(rmt_hit, rmt_hit) X(lcl_dram, lcl_dram) X(rmt_dram, rmt_dram) \
	X(ld_shared, ld_shared) X(ld_excl, ld_excl) X(ld_miss, ld_miss) \
	X(st_uncache, st_uncache) X(st_l1hit, stores_l1hit) \
	X(st_l1miss, stores_l1miss) X(st_na, stores_na) X(noparse, noparse)

static void ystats(FILE *fp, const char *ind, const struct pebs_c2c_stats *s)
{
#define X(f, k) fprintf(fp, "%s%s: %" PRIu64 "\n", ind, #k, s->f);
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
		", tot_loads: %" PRIu64 ", tot_stores: %" PRIu64, p->addr,
		pebs_c2c_verdict_name(p->verdict), p->hitm_cycles,
		pebs_c2c_tot_recs(s), pebs_c2c_tot_loads(s), s->store);
#define X(f, k) if (s->f) fprintf(fp, ", %s: %" PRIu64, #k, s->f);
	STAT_FIELDS(X)
#undef X
	fprintf(fp, ", cpus: %" PRIu32 ", threads: %" PRIu32 ", pids: %" PRIu32
		"}\n", p->ncpus, p->nthreads, p->npids);
}

/* The offsets of line @l; 0 or -PEBS_E_NOMEM. */
static int yrows(struct pebs_c2c *c, FILE *fp, struct c2c_line_int *l)
{
	struct c2c_row *rows;
	long n = c2c_line_rows(c, l, &rows);
	if (n < 0)
		return (int)n;
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
		if (by & PEBS_C2C_BY_DSO) {
			fprintf(fp, ", dso: ");
			ystr(fp, r->dso);
		}
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
		fprintf(fp, "], nips: %" PRIu32, r->nips);
		char *sym, *src;
		int k = c2c_sym_code(c, r->ip_pid, r->ip, &sym, &src);
		if (k < 0) {
			free(rows);
			return k;
		}
		if (k) {
			fprintf(fp, ", sym: ");
			ystr(fp, sym);
			if (src) {
				fprintf(fp, ", srcline: ");
				ystr(fp, src);
			}
			free(sym);
			free(src);
		}
		fprintf(fp, "}\n");
	}
	free(rows);
	return 0;
}

/* ------------------------------------------------------ samples out */

/* Writes @v in decimal / lowercase hex at @p; returns the end. */
static char *put_dec(char *p, uint64_t v)
{
	char t[24];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

static char *put_hex(char *p, uint64_t v)
{
	char t[16];
	int n = 0;
	do {
		t[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

/* The key of a cell besides its address, by value, for sorting. */
struct ckey {
	uint64_t ip, dsrc, thr, cl;	/* cl: cpu << 32 | lat */
	uint32_t idx;
};

static int cmp_ckey(const void *a, const void *b)
{
	const struct ckey *x = a, *y = b;
#define C(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
	C(ip);
	C(dsrc);
	C(thr);
	C(cl);
#undef C
	return 0;
}

/*
 * Dictionary @d in ascending key order: *@keys (sorted) and *@map (old
 * index -> position), so that the result does not depend on the order the
 * samples came in (merged parts write the same text as the whole).
 */
static int dict_sorted(const struct c2c_dict *d, uint64_t **keys,
		       uint32_t **map)
{
	size_t n = d->n ? d->n : 1;
	uint64_t *k = malloc(n * sizeof(*k)), *kt = malloc(n * sizeof(*kt));
	uint32_t *p = malloc(n * sizeof(*p)), *pt = malloc(n * sizeof(*pt));
	uint32_t *m = malloc(n * sizeof(*m));
	int r = -PEBS_E_NOMEM;
	if (!k || !kt || !p || !pt || !m)
		goto out;
	for (size_t i = 0; i < d->n; i++) {
		k[i] = d->keys[i];
		p[i] = (uint32_t)i;
	}
	if (lib_radix_sort(&k, &p, &kt, &pt, d->n))
		goto out;
	for (size_t i = 0; i < d->n; i++)
		m[p[i]] = (uint32_t)i;
	*keys = k;
	*map = m;
	k = NULL;
	m = NULL;
	r = 0;
out:
	free(k);
	free(kt);
	free(p);
	free(pt);
	free(m);
	return r;
}

/*
 * The line samples in (address, ip, dsrc, thread, cpu, lat) order, so that
 * equal keys are adjacent (written once with their summed count) and
 * addresses can be written as deltas.  *@out: cell indices, *@dup: 1 where
 * a cell has the key of the one before; returns the number, or <0.
 */
static long sorted_cells(struct pebs_c2c *c, uint32_t **out, uint8_t **dup)
{
	size_t n = 0, m = c->ncells ? c->ncells : 1, maxrun = 0;
	uint64_t *k = lib_big_realloc(NULL, m * sizeof(*k));
	uint64_t *kt = lib_big_realloc(NULL, m * sizeof(*kt));
	uint32_t *p = lib_big_realloc(NULL, m * sizeof(*p));
	uint32_t *pt = lib_big_realloc(NULL, m * sizeof(*pt));
	uint8_t *d = calloc(m, 1);
	struct ckey *ck = NULL;
	long r = -PEBS_E_NOMEM;
	if (!k || !kt || !p || !pt || !d)
		goto out;
	for (size_t b = 0; c->bk && b < (size_t)1 << C2C_BUCKET_BITS; b++)
		C2C_BUCKET_CELLS(c, b, q, {
			k[n] = c->ls[q].addr;
			p[n++] = (uint32_t)q;
		});
	if (lib_radix_sort(&k, &p, &kt, &pt, n))
		goto out;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && k[j] == k[i])
			j++;
		if (j - i > maxrun)
			maxrun = j - i;
		i = j;
	}
	ck = malloc((maxrun ? maxrun : 1) * sizeof(*ck));
	if (!ck)
		goto out;
	/* runs of one address: sort by the rest of the key, by value */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && k[j] == k[i])
			j++;
		if (j - i > 1) {
			for (size_t x = i; x < j; x++) {
				if (x + 16 < n)
					__builtin_prefetch(&c->ls[p[x + 16]]);
				uint32_t q = p[x];
				const struct c2c_ls *e = &c->ls[q];
				ck[x - i] = (struct ckey){ e->ip,
					c->kinds.keys[e->kind],
					c->threads.keys[e->thr],
					(uint64_t)e->cpu << 32 | e->lat, q };
			}
			qsort(ck, j - i, sizeof(*ck), cmp_ckey);
			for (size_t x = i; x < j; x++) {
				p[x] = ck[x - i].idx;
				d[x] = x > i && !cmp_ckey(&ck[x - i],
							  &ck[x - i - 1]);
			}
		}
		i = j;
	}
	*out = p;
	*dup = d;
	p = NULL;
	d = NULL;
	r = (long)n;
out:
	lib_big_free(k);
	lib_big_free(kt);
	lib_big_free(p);
	lib_big_free(pt);
	free(d);
	free(ck);
	return r;
}

static int cmp_xs(const void *a, const void *b, void *ctx)
{
	const struct c2c_xs *x = a, *y = b;
	const uint64_t *keys = ctx;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return keys[x->kind] < keys[y->kind] ? -1 :
	       keys[x->kind] > keys[y->kind];
}

/*
 * other_at: [[address, dsrc index, count], ...], the samples outside
 * lines that perf counts under the line of their address (struct c2c_xs),
 * by address and data source, equal keys added (the key is left out when
 * there are none).  Each is counted in
 * "other" too (a reader that skips other_at loses only their lines).
 * @kd, @km: the written data sources (every kind of them is there).
 */
static int yother_at(struct pebs_c2c *c, FILE *fp, struct c2c_dict *kd,
		     const uint32_t *km)
{
	/* only when there are some: results without are as before */
	if (!c->nxs)
		return 0;
	fprintf(fp, "]\nother_at: [");
	size_t nkd = kd->n;
	struct c2c_xs *v = malloc(c->nxs * sizeof(*v));
	if (!v)
		return -PEBS_E_NOMEM;
	memcpy(v, c->xs, c->nxs * sizeof(*v));
	qsort_r(v, c->nxs, sizeof(*v), cmp_xs, c->kinds.keys);
	for (size_t i = 0; i < c->nxs;) {
		uint64_t cnt = 0;
		size_t j = i;
		while (j < c->nxs && v[j].addr == v[i].addr &&
		       v[j].kind == v[i].kind)
			cnt += v[j++].count;
		long a = c2c_dict_get(kd, c->kinds.keys[v[i].kind]);
		if (a < 0 || (size_t)a >= nkd) {
			/* not written: each is counted in "other" too, and
			 * the merge reader refuses results where it is not */
			free(v);
			return a < 0 ? -PEBS_E_NOMEM : -PEBS_E_CORRUPT;
		}
		fprintf(fp, "%s[0x%" PRIx64 ", %" PRIu32 ", %" PRIu64 "]",
			i ? ", " : "", v[i].addr, km[a], cnt);
		i = j;
	}
	free(v);
	return 0;
}

static int ysamples(struct pebs_c2c *c, FILE *fp)
{
	uint32_t *ord = NULL;
	uint8_t *dup = NULL;
	long n = sorted_cells(c, &ord, &dup);
	if (n < 0)
		return (int)n;
	/* dictionaries of what is written, by value (see dict_sorted) */
	struct c2c_dict kd, td, id;
	uint64_t *ks = NULL, *ts = NULL, *is = NULL;
	uint32_t *km = NULL, *tm = NULL, *im = NULL, *inv = NULL;
	uint32_t *kx = NULL, *tx = NULL;
	uint32_t *x3 = malloc(3 * (n ? (size_t)n : 1) * sizeof(*x3));
	uint64_t *other = NULL;
	size_t nother = 0;
	int r = -PEBS_E_NOMEM;
	memset(&kd, 0, sizeof(kd));
	memset(&td, 0, sizeof(td));
	memset(&id, 0, sizeof(id));
	/* our data source and thread indices -> written ones, on first use */
	kx = malloc((c->kinds.n ? c->kinds.n : 1) * sizeof(*kx));
	tx = malloc((c->threads.n ? c->threads.n : 1) * sizeof(*tx));
	if (!x3 || !kx || !tx)
		goto out;
	memset(kx, 0xff, (c->kinds.n ? c->kinds.n : 1) * sizeof(*kx));
	memset(tx, 0xff, (c->threads.n ? c->threads.n : 1) * sizeof(*tx));
	for (long i = 0; i < n; i++) {
		if (i + 16 < n)
			__builtin_prefetch(&c->ls[ord[i + 16]]);
		uint32_t x = ord[i], k = c->ls[x].kind, t = c->ls[x].thr;
		if (kx[k] == UINT32_MAX) {
			long a = c2c_dict_get(&kd, c->kinds.keys[k]);
			if (a < 0)
				goto out;
			kx[k] = (uint32_t)a;
		}
		if (tx[t] == UINT32_MAX) {
			long b = c2c_dict_get(&td, c->threads.keys[t]);
			if (b < 0)
				goto out;
			tx[t] = (uint32_t)b;
		}
		long d = c2c_dict_get(&id, c->ls[x].ip);
		if (d < 0)
			goto out;
		x3[3 * i] = kx[k];
		x3[3 * i + 1] = tx[t];
		x3[3 * i + 2] = (uint32_t)d;
	}
	/* samples outside lines: counts per (data source, has address) */
	for (size_t k = 0; k < c->nkinds; k++) {
		if (!c->other[2 * k] && !c->other[2 * k + 1])
			continue;
		long a = c2c_dict_get(&kd, c->kinds.keys[k]);
		if (a < 0)
			goto out;
		if (2 * kd.n > nother) {
			size_t nn = 2 * kd.n + 16;
			uint64_t *o = realloc(other, nn * sizeof(*o));
			if (!o)
				goto out;
			memset(o + nother, 0, (nn - nother) * sizeof(*o));
			other = o;
			nother = nn;
		}
		other[2 * (size_t)a] += c->other[2 * k];
		other[2 * (size_t)a + 1] += c->other[2 * k + 1];
	}
	if (dict_sorted(&kd, &ks, &km) || dict_sorted(&td, &ts, &tm) ||
	    dict_sorted(&id, &is, &im))
		goto out;
	fprintf(fp, "# the samples: see pebs-c2c(1), MERGE FORMAT\n");
	fprintf(fp, "dsrc: [");
	for (size_t i = 0; i < kd.n; i++)
		fprintf(fp, "%s0x%" PRIx64, i ? ", " : "", ks[i]);
	fprintf(fp, "]\nthreads: [");
	for (size_t i = 0; i < td.n; i++)
		fprintf(fp, "%s[%" PRIu32 ", %" PRIu32 "]", i ? ", " : "",
			(uint32_t)(ts[i] >> 32), (uint32_t)ts[i]);
	fprintf(fp, "]\nips: [");
	for (size_t i = 0; i < id.n; i++)
		fprintf(fp, "%s0x%" PRIx64, i == 0 ? "" : i % 8 ? ", " :
			",\n  ", is[i]);
	fprintf(fp, "]\nother: [");
	int first = 1;
	inv = malloc((kd.n ? kd.n : 1) * sizeof(*inv));
	if (!inv)
		goto out;
	for (size_t a = 0; a < kd.n; a++)
		inv[km[a]] = (uint32_t)a;
	for (size_t i = 0; i < kd.n; i++) {
		size_t a = inv[i];
		for (size_t h = 0; h < 2 && 2 * a + h < nother; h++)
			if (other[2 * a + h]) {
				fprintf(fp, "%s[%zu, %zu, %" PRIu64 "]",
					first ? "" : ", ", i, h,
					other[2 * a + h]);
				first = 0;
			}
	}
	if ((r = yother_at(c, fp, &kd, km)))
		goto out;
	r = -PEBS_E_NOMEM;
	fprintf(fp, "]\ncells:%s\n", n ? "" : " []");
	uint64_t prev = 0;
	long inchunk = 0;
	for (long i = 0; i < n;) {
		if (i + 16 < n)
			__builtin_prefetch(&c->ls[ord[i + 16]]);
		uint32_t x = ord[i];
		uint64_t cnt = 0;
		long j = i;
		do
			cnt += c2c_count(c, ord[j++]);
		while (j < n && dup[j]);
		if (!inchunk) {
			fputs("  - \"", fp);
			prev = 0;
		} else {
			fputc(' ', fp);
		}
		/* hand-formatted: printf was most of the time here */
		char buf[160], *e = buf;
		e = put_hex(e, c->ls[x].addr - prev);
		*e++ = ',';
		e = put_dec(e, im[x3[3 * i + 2]]);
		*e++ = ',';
		e = put_dec(e, km[x3[3 * i]]);
		*e++ = ',';
		e = put_dec(e, tm[x3[3 * i + 1]]);
		*e++ = ',';
		e = put_dec(e, c->ls[x].cpu);
		*e++ = ',';
		e = put_dec(e, c->ls[x].lat);
		if (cnt != 1) {
			*e++ = ',';
			e = put_dec(e, cnt);
		}
		fwrite(buf, 1, (size_t)(e - buf), fp);
		prev = c->ls[x].addr;
		if (++inchunk == C2C_CHUNK || j == n) {
			fputs("\"\n", fp);
			inchunk = 0;
		}
		i = j;
	}
	r = 0;
out:
	lib_big_free(ord);
	free(dup);
	free(x3);
	free(kx);
	free(tx);
	free(inv);
	free(other);
	free(ks);
	free(km);
	free(ts);
	free(tm);
	free(is);
	free(im);
	c2c_dict_free(&kd);
	c2c_dict_free(&td);
	c2c_dict_free(&id);
	return r;
}

int c2c_write_yaml(struct pebs_c2c *c, FILE *fp)
{
	const struct pebs_c2c_opts *o = &c->o;
	fprintf(fp, "pebs_c2c: %d\n", C2C_YAML_VERSION);
	char acc[16] = "auto";
	if (o->access_size)
		snprintf(acc, sizeof(acc), "%u", o->access_size);
	fprintf(fp, "options:\n  line_size: %u\n  access_size: %s\n"
		"  display: %s\n  min_samples: %u\n  verdict_pct: %u\n"
		"  perf_compat: %s\n  coalesce: \"", o->line_size,
		acc, o->display == PEBS_C2C_D_LCL ? "lcl" :
		o->display == PEBS_C2C_D_RMT ? "rmt" : "tot",
		o->min_samples, o->verdict_pct,
		o->perf_compat ? "true" : "false");
	static const char *const names[] = { "pid", "tid", "iaddr", "cpu",
					     "dso" };
	int first = 1;
	for (unsigned b = 0; b < 5; b++)
		if (o->coalesce & (1u << b)) {
			fprintf(fp, "%s%s", first ? "" : ",", names[b]);
			first = 0;
		}
	fprintf(fp, "\"\n");
	size_t defined = 0;
	for (size_t i = 0; i < c->topo.nnodes; i++)
		defined += c->topo.cpulist[i] != NULL;
	fprintf(fp, "topology:%s\n", defined ? "" : " {}");
	for (size_t i = 0; i < c->topo.nnodes; i++)
		if (c->topo.cpulist[i]) {
			fprintf(fp, "  \"%zu\": ", i);
			ystr(fp, c->topo.cpulist[i]);
			fputc('\n', fp);
		}
	if (c->nmaps) {
		/* process maps, so that merged results get symbols too */
		fprintf(fp, "maps:\n");
		for (size_t i = 0; i < c->nmaps; i++) {
			for (int f = 0; f < C2C_MAP_FIELDS; f++) {
				char k[64];
				snprintf(k, sizeof(k), "maps.%zu.%s", i,
					 c2c_map_field_name(f));
				const char *v = pebs_meta_get(c->maps, k);
				if (!v)
					continue;
				fprintf(fp, "%s%s: ", f ? "    " : "  - ",
					c2c_map_field_name(f));
				ystr(fp, v);
				fputc('\n', fp);
			}
		}
	}
	struct c2c_ip *ips;
	long nips = c2c_ip_list(c, &ips);
	if (nips < 0)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	if (nips) {
		/* a built-in workload's instruction names, by ip */
		fprintf(fp, "workload_ips:\n");
		for (long i = 0; i < nips; i++) {
			fprintf(fp, "  - ip: 0x%" PRIx64 "\n    name: ",
				ips[i].ip);
			ystr(fp, ips[i].name);
			fputc('\n', fp);
		}
	}
	free(ips);
	fprintf(fp, "totals:\n");
	ystats(fp, "  ", &c->totals);
	fprintf(fp, "lines_sampled: %zu\n", c->nsampled);
	fprintf(fp, "# listed lines in full, other lines with a HITM in "
		"short\n");
	fprintf(fp, "lines:%s\n", c->nlines ? "" : " []");
	for (size_t i = 0; i < c->nlines; i++) {
		struct c2c_line_int *l = &c->lines[i];
		const struct pebs_c2c_line *p = &l->pub;
		if (!l->listed) {
			yshort(fp, p);
			continue;
		}
		fprintf(fp, "  - dcacheline: 0x%" PRIx64 "\n", p->addr);
		fprintf(fp, "    listed: true\n");
		fprintf(fp, "    verdict: %s\n",
			pebs_c2c_verdict_name(p->verdict));
		fprintf(fp, "    why: ");
		ystr(fp, p->why);
		fprintf(fp, "\n    evidence: ");
		ystr(fp, p->evidence);
		fprintf(fp, "\n    fix: ");
		ystr(fp, p->fix);
		fputc('\n', fp);
		fprintf(fp, "    hitm_cycles: %" PRIu64 "\n", p->hitm_cycles);
		/* tot_stores: line 0 has those without address (perf_compat) */
		fprintf(fp, "    tot_recs: %" PRIu64 "\n    tot_loads: %" PRIu64
			"\n    tot_stores: %" PRIu64 "\n",
			pebs_c2c_tot_recs(&p->st), pebs_c2c_tot_loads(&p->st),
			p->st.store);
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
		char *ds;
		int r = c2c_sym_data(c, l, &ds);
		if (r < 0)
			return c2c_fail(c, -r, "out of memory");
		if (r) {
			fprintf(fp, "    data_sym: ");
			ystr(fp, ds);
			fputc('\n', fp);
			free(ds);
		}
		r = yrows(c, fp, l);
		if (r < 0)
			return c2c_fail(c, -r, "out of memory");
	}
	int r = ysamples(c, fp);
	if (r)
		return c2c_fail(c, -r, "out of memory");
	return ferror(fp) ? -PEBS_E_IO : 0;
}

/* ---------------------------------------------------------------- merge */

struct yp {
	struct pebs_c2c *c;
	yaml_parser_t p;
	yaml_event_t ev;
	int have;
	struct pebs_outfmt_yin in;	/* the input */
	uint64_t version;
	/* version 2 dictionaries: file index -> ours */
	uint32_t *kmap, *tmap;
	size_t nk, nt, capk, capt;
	uint64_t *ips;
	size_t nips, capips;
	struct c2c_dict ipset;	/* the ips workload_ips named */
};

static int ynext(struct yp *y)
{
	if (y->have)
		yaml_event_delete(&y->ev);
	y->have = 0;
	if (!yaml_parser_parse(&y->p, &y->ev)) {
		if (y->in.ioerr)
			return c2c_fail(y->c, PEBS_E_IO, "read error");
		return c2c_fail(y->c, PEBS_E_PARSE, "line %zu: %s",
				pebs_outfmt_yin_err_line(&y->p, &y->in),
				y->p.problem ? y->p.problem : "bad YAML");
	}
	y->have = 1;
	return 0;
}

static int yerr(struct yp *y, const char *what)
{
	return c2c_fail(y->c, PEBS_E_PARSE, "line %zu: %s",
			y->ev.start_mark.line + 1, what);
}

/*
 * Error @r of adding the samples of the current event (@what: its key):
 * counts beyond the bounds are the input's fault, named by its line;
 * other errors keep their message.
 */
static int yadd_err(struct yp *y, const char *what, int r)
{
	if (r != -PEBS_E_RANGE)
		return r;
	char msg[sizeof(y->c->err) + 16];
	snprintf(msg, sizeof(msg), "%s: %s", what, y->c->err);
	return yerr(y, msg);
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

/* Reads a flow or block list of @nf numbers (bounds @max) into @v. */
static int ytuple(struct yp *y, const char *what, int nf,
		  const uint64_t *max, uint64_t *v)
{
	int r;
	char msg[96];
	if (y->ev.type != YAML_SEQUENCE_START_EVENT) {
		snprintf(msg, sizeof(msg), "%s: expected a list of %d "
			 "numbers", what, nf);
		return yerr(y, msg);
	}
	for (int i = 0; i < nf; i++) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT) {
			snprintf(msg, sizeof(msg), "%s: an entry has fewer "
				 "than %d numbers", what, nf);
			return yerr(y, msg);
		}
		if ((r = yu64(y, max[i], &v[i])))
			return r;
	}
	if ((r = ynext(y)))
		return r;
	if (y->ev.type != YAML_SEQUENCE_END_EVENT) {
		snprintf(msg, sizeof(msg), "%s: an entry has more than %d "
			 "numbers", what, nf);
		return yerr(y, msg);
	}
	return 0;
}

/* Version 1: cells: [[addr, ip, dsrc, pid, tid, cpu, lat, count], ...] */
static int ycells_v1(struct yp *y)
{
	static const uint64_t max[8] = { UINT64_MAX, UINT64_MAX, UINT64_MAX,
		UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT64_MAX };
	int r;
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (y->ev.type != YAML_SEQUENCE_START_EVENT)
			return yerr(y, "cells: expected [addr, ip, dsrc, pid, "
				    "tid, cpu, lat, count]");
		uint64_t v[8];
		if ((r = ytuple(y, "cells", 8, max, v)))
			return r;
		struct c2c_cell k = { v[0], v[1], v[2], (uint32_t)v[3],
				      (uint32_t)v[4], (uint32_t)v[5],
				      (uint32_t)v[6], 0 };
		if ((r = c2c_add_cell(y->c, &k, v[7])))
			return yadd_err(y, "cells", r);
	}
}

static int push32(uint32_t **a, size_t *n, size_t *cap, uint32_t v)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		uint32_t *p = realloc(*a, nc * sizeof(*p));
		if (!p)
			return -PEBS_E_NOMEM;
		*a = p;
		*cap = nc;
	}
	(*a)[(*n)++] = v;
	return 0;
}

/* dsrc: [...], threads: [[pid, tid], ...], ips: [...] */
static int ydict(struct yp *y, int which)
{
	static const uint64_t tmax[2] = { UINT32_MAX, UINT32_MAX };
	int r;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT)
		return yerr(y, "expected a list");
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		uint64_t v[2];
		long x;
		if (which == 1) {
			if ((r = ytuple(y, "threads", 2, tmax, v)))
				return r;
			x = c2c_dict_get(&y->c->threads, v[0] << 32 | v[1]);
			if (x < 0 || push32(&y->tmap, &y->nt, &y->capt,
					    (uint32_t)x))
				return c2c_fail(y->c, PEBS_E_NOMEM,
						"out of memory");
			continue;
		}
		if ((r = yu64(y, UINT64_MAX, &v[0])))
			return r;
		if (which == 0) {
			x = c2c_kind_get(y->c, v[0]);
			if (x < 0 || push32(&y->kmap, &y->nk, &y->capk,
					    (uint32_t)x))
				return c2c_fail(y->c, PEBS_E_NOMEM,
						"out of memory");
			continue;
		}
		if (y->nips == y->capips) {
			size_t nc = y->capips ? y->capips * 2 : 256;
			uint64_t *p = realloc(y->ips, nc * sizeof(*p));
			if (!p)
				return c2c_fail(y->c, PEBS_E_NOMEM,
						"out of memory");
			y->ips = p;
			y->capips = nc;
		}
		y->ips[y->nips++] = v[0];
	}
}

/*
 * other: [[dsrc index, has address, count], ...], or with @at other_at:
 * [[address, dsrc index, count], ...] (see yother_at()).
 */
static int yother(struct yp *y, int at)
{
	const char *what = at ? "other_at" : "other";
	const uint64_t max[3] = { at ? UINT64_MAX : UINT32_MAX,
				  at ? UINT32_MAX : 1, UINT64_MAX };
	char msg[64];
	int r;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT) {
		snprintf(msg, sizeof(msg), "%s: expected a list", what);
		return yerr(y, msg);
	}
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		uint64_t v[3];
		if ((r = ytuple(y, what, 3, max, v)))
			return r;
		if (v[at] >= y->nk) {
			snprintf(msg, sizeof(msg), "%s: data source index out "
				 "of range", what);
			return yerr(y, msg);
		}
		uint32_t kd = y->kmap[v[at]];
		unsigned cls = y->c->kcls[kd];
		if (at) {
			if (!v[0] || !v[2] || c2c_is_line(v[0], cls) ||
			    !(cls & PEBS_C2C_LOCKBLK))
				return yerr(y, "other_at: not a locked or "
					    "blocked sample outside lines "
					    "with an address");
			r = c2c_add_xs(y->c, v[0], kd, v[2]);
		} else if (!v[2]) {
			return yerr(y, "other: zero count");
		} else if (c2c_is_line(v[1], cls)) {
			/*
			 * Counts only: the samples with an address that perf
			 * files under a line come again, with it, in
			 * other_at.  A load or store "with an address" is a
			 * line sample at address 1, as before other_at.
			 */
			struct c2c_cell k = { v[1], 0, y->c->kinds.keys[kd],
					      0, 0, 0, 0, 0 };
			r = c2c_add_cell(y->c, &k, v[2]);
		} else {
			r = c2c_add_other(y->c, kd, (int)v[1], v[2]);
		}
		if (r)
			return yadd_err(y, what, r);
	}
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* One number of a chunk: hex or decimal, at most @max, then @sep. */
static int chunk_num(const char **sp, int hex, uint64_t max, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;
	unsigned base = hex ? 16 : 10;
	int d, any = 0;
	while ((d = hexval((unsigned char)*s)) >= 0 && (unsigned)d < base) {
		if (v > (max - (uint64_t)d) / base)
			return -1;
		v = v * base + (uint64_t)d;
		s++;
		any = 1;
	}
	if (!any)
		return -1;
	*out = v;
	*sp = s;
	return 0;
}

/*
 * A chunk: "ADDR,IP,DSRC,THREAD,CPU,LAT[,COUNT] ..." (ADDR hex, a delta
 * from the previous sample's address after the first; the others
 * decimal, indices into the dictionaries).
 */
static int ychunk(struct yp *y, const char *s)
{
	struct pebs_c2c *c = y->c;
	uint64_t prev = 0;
	if (!*s)
		return yerr(y, "cells: empty chunk");
	for (;;) {
		uint64_t v[7];
		const char *p = s;
		int nf = 0;
		static const uint64_t max[7] = { UINT64_MAX, UINT32_MAX,
			UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
			UINT64_MAX };
		for (;;) {
			if (chunk_num(&p, nf == 0, max[nf], &v[nf]))
				return yerr(y, "cells: malformed sample in "
					    "chunk");
			nf++;
			if (*p != ',' || nf == 7)
				break;
			p++;
		}
		if (nf < 6 || (*p && *p != ' '))
			return yerr(y, "cells: malformed sample in chunk");
		if (nf == 6)
			v[6] = 1;
		if (v[0] > UINT64_MAX - prev)
			return yerr(y, "cells: address out of range");
		uint64_t addr = prev + v[0];
		prev = addr;
		if (v[1] >= y->nips || v[2] >= y->nk || v[3] >= y->nt)
			return yerr(y, "cells: dictionary index out of range "
				    "(dsrc, threads and ips must come first)");
		if (!addr || !v[6])
			return yerr(y, "cells: zero address or count");
		int r = c2c_append_cell(c, addr, y->ips[v[1]], y->kmap[v[2]],
					y->tmap[v[3]], (uint32_t)v[4],
					(uint32_t)v[5], v[6]);
		if (r)
			return yadd_err(y, "cells", r);
		if (!*p)
			return 0;
		s = p + 1;
	}
}

static int ycells(struct yp *y)
{
	int r;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT)
		return yerr(y, "cells: expected a list");
	if (y->version == 1)
		return ycells_v1(y);
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (y->ev.type != YAML_SCALAR_EVENT)
			return yerr(y, "cells: expected chunks of samples "
				    "(text)");
		if ((r = ychunk(y, yscalar(y))))
			return r;
	}
}

/* A !!binary value of key @what that cannot be read, and @why. */
static int ytext_err(struct yp *y, const char *what, const char *why)
{
	char msg[96];
	snprintf(msg, sizeof(msg), "%s: !!binary value %s", what, why);
	return yerr(y, msg);
}

/*
 * The current scalar as text into *@out (to free): a !!binary one (what
 * ystr() writes for bytes that are not UTF-8) decoded from base64.
 * @what (the key) starts the messages.
 */
static int ytext(struct yp *y, const char *what, char **out)
{
	const char *s = yscalar(y), *tag = (const char *)y->ev.data.scalar.tag;
	*out = NULL;
	if (!tag || strcmp(tag, "tag:yaml.org,2002:binary")) {
		if (!(*out = strdup(s)))
			return c2c_fail(y->c, PEBS_E_NOMEM, "out of memory");
		return 0;
	}
	size_t len = strlen(s), n = 0, pad = 0;
	unsigned char *d = malloc(len / 4 * 3 + 3);
	uint32_t v = 0;
	unsigned k = 0;
	if (!d)
		return c2c_fail(y->c, PEBS_E_NOMEM, "out of memory");
	for (; *s; s++) {
		const char *p = strchr(b64, *s);
		if (*s == ' ' || *s == '\n')
			continue;	/* base64 may be folded */
		if (*s == '=' && k >= 2 && pad < 2) {
			pad++;
			p = b64;
		} else if (!p || pad) {
			free(d);
			return ytext_err(y, what, "that is not base64");
		}
		v = v << 6 | (uint32_t)(p - b64);
		if (++k == 4) {
			d[n++] = (unsigned char)(v >> 16);
			d[n++] = (unsigned char)(v >> 8);
			d[n++] = (unsigned char)v;
			n -= pad;
			v = k = 0;
		}
	}
	d[n] = 0;
	if (k || memchr(d, 0, n)) {
		free(d);
		return ytext_err(y, what, k ? "that is not base64" :
				 "with a NUL byte");
	}
	*out = (char *)d;
	return 0;
}

/*
 * A list of mappings, @what its key (maps, workload_ips), @per what an
 * entry is: @val(y, key, st) for each key of an entry (the current event
 * is its value), then @end(y, r, line, st) once per entry, with the error
 * so far (0: the entry was read whole) and the entry's line; @end frees
 * what @val kept in @st and returns the entry's error.
 */
static int ymaplist(struct yp *y, const char *what, const char *per,
		    int (*val)(struct yp *, const char *, void *),
		    int (*end)(struct yp *, int, size_t, void *), void *st)
{
	char msg[96];
	int r;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT) {
		snprintf(msg, sizeof(msg), "%s: expected a list", what);
		return yerr(y, msg);
	}
	for (;;) {
		if ((r = ynext(y)))
			return r;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (y->ev.type != YAML_MAPPING_START_EVENT) {
			snprintf(msg, sizeof(msg), "%s: expected a mapping "
				 "per %s", what, per);
			return yerr(y, msg);
		}
		size_t line = y->ev.start_mark.line + 1;
		for (;;) {
			if ((r = ynext(y)) ||
			    y->ev.type == YAML_MAPPING_END_EVENT)
				break;
			if (y->ev.type != YAML_SCALAR_EVENT) {
				snprintf(msg, sizeof(msg), "%s: expected a key",
					 what);
				r = yerr(y, msg);
				break;
			}
			/* a longer key is none of ours */
			char key[32];
			if (strlen(yscalar(y)) >= sizeof(key))
				key[0] = 0;
			else
				strcpy(key, yscalar(y));
			if ((r = ynext(y)) || (r = val(y, key, st)))
				break;
		}
		if ((r = end(y, r, line, st)))
			return r;
	}
}

/* maps: [{pid: "1", start: "0x...", ..., path: "..."}, ...] */
static int map_val(struct yp *y, const char *key, void *st)
{
	char **v = st;
	if (y->ev.type != YAML_SCALAR_EVENT)
		return yerr(y, "maps: expected a text value");
	int f = c2c_map_field(key);
	if (f < 0)
		return 0;
	free(v[f]);
	v[f] = NULL;
	return ytext(y, "maps", &v[f]);
}

static int map_end(struct yp *y, int r, size_t line, void *st)
{
	char **v = st;
	(void)line;
	if (!r && c2c_map_add(y->c, (const char *const *)v))
		r = c2c_fail(y->c, PEBS_E_NOMEM, "out of memory");
	for (int f = 0; f < C2C_MAP_FIELDS; f++) {
		free(v[f]);
		v[f] = NULL;
	}
	return r;
}

static int ymaps(struct yp *y)
{
	char *v[C2C_MAP_FIELDS] = { 0 };
	return ymaplist(y, "maps", "map", map_val, map_end, v);
}

/*
 * workload_ips: [{ip: 0x4011a3, name: "fs_worker: load x"}, ...], the
 * names of a built-in workload's instructions.  Each entry has one ip and
 * one name (text, 1 to C2C_IP_NAME_MAX bytes; other keys are skipped), a
 * result names an ip once; an ip an earlier input named keeps that name,
 * as it does when captures are read (c2c_ip_add()).
 */
struct wip_entry {
	uint64_t ip;
	int have_ip;
	char *name;
};

static int wip_val(struct yp *y, const char *key, void *st)
{
	struct wip_entry *e = st;
	int r;
	if (!strcmp(key, "ip")) {
		if (e->have_ip)
			return yerr(y, "workload_ips: two ips in an entry");
		if (yu64(y, UINT64_MAX, &e->ip))
			return yerr(y, "workload_ips: ip: expected an unsigned "
				    "number");
		e->have_ip = 1;
		return 0;
	}
	if (strcmp(key, "name"))
		return yskip(y);
	if (e->name)
		return yerr(y, "workload_ips: two names in an entry");
	if (y->ev.type != YAML_SCALAR_EVENT)
		return yerr(y, "workload_ips: name: expected text");
	if ((r = ytext(y, "workload_ips: name", &e->name)))
		return r;
	if (!*e->name)
		return yerr(y, "workload_ips: empty name");
	if (strlen(e->name) > C2C_IP_NAME_MAX)
		return yerr(y, "workload_ips: name longer than 4096 bytes");
	return 0;
}

static int wip_end(struct yp *y, int r, size_t line, void *st)
{
	struct wip_entry *e = st;
	size_t seen = y->ipset.n;
	if (!r && (!e->have_ip || !e->name))
		r = c2c_fail(y->c, PEBS_E_PARSE, "line %zu: workload_ips: an "
			     "entry without %s", line,
			     e->have_ip ? "name" : "ip");
	else if (!r && c2c_dict_get(&y->ipset, e->ip) < 0)
		r = c2c_fail(y->c, PEBS_E_NOMEM, "out of memory");
	else if (!r && y->ipset.n == seen)
		r = c2c_fail(y->c, PEBS_E_PARSE, "line %zu: workload_ips: ip "
			     "0x%" PRIx64 " named twice in one result", line,
			     e->ip);
	else if (!r && c2c_ip_add(y->c, e->ip, e->name))
		r = c2c_fail(y->c, PEBS_E_NOMEM, "out of memory");
	free(e->name);
	memset(e, 0, sizeof(*e));
	return r;
}

static int ywips(struct yp *y)
{
	struct wip_entry e = { 0 };
	return ymaplist(y, "workload_ips", "instruction", wip_val, wip_end,
			&e);
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
		if ((r = yu64(y, META_MAX_NODE, &node)))
			return r;
		if ((r = ynext(y)))
			return r;
		if (y->ev.type != YAML_SCALAR_EVENT)
			return yerr(y, "topology: expected a cpu list");
		if ((r = c2c_topo_add(y->c, (unsigned)node, yscalar(y))))
			return r;
	}
}

/* A new result: its dictionaries and names start empty. */
static void yreset(struct yp *y)
{
	y->nk = y->nt = y->nips = 0;
	c2c_dict_free(&y->ipset);
}

static int ydoc(struct yp *y)
{
	int r, first = 1;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return yerr(y, "not a pebs-c2c YAML result (expected a "
			    "mapping)");
	/* dictionaries are per document */
	yreset(y);
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
		if (!strcmp(key, "pebs_c2c")) {
			/*
			 * Results concatenated with cat(1) read as one
			 * mapping: the key starts the next result, with its
			 * own dictionaries.
			 */
			yreset(y);
			if ((r = yu64(y, UINT32_MAX, &y->version)))
				return r;
			if (y->version < 1 || y->version > C2C_YAML_VERSION)
				return yerr(y, "unsupported pebs_c2c version");
			first = 0;
		} else if (!strcmp(key, "cells")) {
			r = ycells(y);
		} else if (!strcmp(key, "topology")) {
			r = ytopo(y);
		} else if (y->version >= 2 && !strcmp(key, "maps")) {
			r = ymaps(y);
		} else if (y->version >= 2 && !strcmp(key, "workload_ips")) {
			r = ywips(y);
		} else if (y->version >= 2 && !strcmp(key, "dsrc")) {
			r = ydict(y, 0);
		} else if (y->version >= 2 && !strcmp(key, "threads")) {
			r = ydict(y, 1);
		} else if (y->version >= 2 && !strcmp(key, "ips")) {
			r = ydict(y, 2);
		} else if (y->version >= 2 && !strcmp(key, "other")) {
			r = yother(y, 0);
		} else if (y->version >= 2 && !strcmp(key, "other_at")) {
			r = yother(y, 1);
		} else {
			r = yskip(y);
		}
		if (r)
			return r;
	}
}

/*
 * Each other_at sample is counted in "other" too (yother_at()): more of
 * them than "other" holds with an address, for a data source, is a result
 * no pebs-c2c wrote (and would make the report count samples twice).
 * Checked for what one input added (other_at from @nxs0 on; "other" with
 * an address less @before, its counts of the first @nk0 data sources
 * before the input), so that no other input can make up for it.
 */
static int xs_counted(struct pebs_c2c *c, size_t nxs0, const uint64_t *before,
		      size_t nk0)
{
	if (c->nxs == nxs0)
		return 0;
	uint64_t *sum = calloc(c->nkinds ? c->nkinds : 1, sizeof(*sum));
	if (!sum)
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	int r = 0;
	for (size_t i = nxs0; i < c->nxs && !r; i++) {
		uint32_t k = c->xs[i].kind;
		uint64_t added = c->other[2 * (size_t)k + 1] -
				 (k < nk0 ? before[k] : 0);
		/* sum[k] <= added: the subtraction cannot wrap */
		if (c->xs[i].count <= added - sum[k])
			sum[k] += c->xs[i].count;
		else
			r = c2c_fail(c, PEBS_E_PARSE, "other_at: more samples "
				     "of data source 0x%" PRIx64 " than "
				     "\"other\" counts with an address",
				     c->kinds.keys[k]);
	}
	free(sum);
	/*
	 * Refused: the input's other_at entries go (its "other" counts
	 * stay, as what an input gave before its error does), so that the
	 * result written still holds each of them in "other": -f yaml
	 * stopped at other_at with "out of memory" (exit 3).
	 */
	if (r)
		c->nxs = nxs0;
	return r;
}

/*
 * Each result of @y's input (its parser and input set up) into @y->c.
 * Frees them.
 */
static int merge_run(struct yp *y)
{
	struct pebs_c2c *c = y->c;
	int r, docs = 0;
	/* what "other" held before this input (xs_counted()) */
	size_t nxs0 = c->nxs, nk0 = c->nkinds;
	uint64_t *before = malloc((nk0 ? nk0 : 1) * sizeof(*before));
	if (!before) {
		r = c2c_fail(c, PEBS_E_NOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < nk0; k++)
		before[k] = c->other[2 * k + 1];
	if ((r = ynext(y)))
		goto out;
	for (;;) {
		if ((r = ynext(y)))
			goto out;
		if (y->ev.type == YAML_STREAM_END_EVENT)
			break;
		if (y->ev.type != YAML_DOCUMENT_START_EVENT) {
			r = yerr(y, "bad YAML stream");
			goto out;
		}
		if ((r = ynext(y)) || (r = ydoc(y)) || (r = ynext(y)))
			goto out;
		if (y->ev.type != YAML_DOCUMENT_END_EVENT) {
			r = yerr(y, "bad YAML document end");
			goto out;
		}
		docs++;
	}
	if (!docs)
		r = c2c_fail(c, PEBS_E_PARSE, "empty input: not a pebs-c2c "
			     "YAML result");
	else
		r = xs_counted(c, nxs0, before, nk0);
out:
	free(before);
	if (y->have)
		yaml_event_delete(&y->ev);
	yaml_parser_delete(&y->p);
	pebs_outfmt_yin_free(&y->in);
	free(y->kmap);
	free(y->tmap);
	free(y->ips);
	c2c_dict_free(&y->ipset);
	return r;
}

int pebs_c2c_merge_yaml(struct pebs_c2c *c, const void *buf, size_t len)
{
	struct yp y;
	memset(&y, 0, sizeof(y));
	y.c = c;
	if (!yaml_parser_initialize(&y.p))
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	pebs_outfmt_yin_string(&y.p, &y.in, buf, len);
	return merge_run(&y);
}

int pebs_c2c_merge_yaml_read(struct pebs_c2c *c, pebs_read_fn rd, void *ctx)
{
	struct yp y;
	memset(&y, 0, sizeof(y));
	y.c = c;
	if (!yaml_parser_initialize(&y.p))
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	if (pebs_outfmt_yin_stream(&y.p, &y.in, rd, ctx) < 0) {
		yaml_parser_delete(&y.p);
		return c2c_fail(c, PEBS_E_NOMEM, "out of memory");
	}
	return merge_run(&y);
}
