/*
 * c2c_sym.c - symbols in the c2c report: the process maps of the inputs
 * (maps.N.* metadata, gathered and renumbered across inputs, kept in the
 * YAML result so that merged results symbolize too), and the lookups the
 * writers make for listed lines only: the instruction of each per-offset
 * row (function+offset, source line) and the data symbol of each line.
 * A built-in workload has no maps: the instructions its metadata names
 * (workload.ips.N.ip/name) are gathered the same way, so its rows read
 * "fs_worker" and "load shared.count[id]" (pebs_sym.h), one name per
 * instruction, and kept in the YAML result too (workload_ips).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c_int.h"
#include "pebs_sym.h"

_Static_assert(C2C_MAP_FIELDS == PEBS_SYM_MAP_FIELDS,
	       "c2c keeps the map fields of pebs_sym.h");

int c2c_map_field(const char *name)
{
	return pebs_sym_map_field_lookup(name);
}

const char *c2c_map_field_name(int f)
{
	return pebs_sym_map_field_name(f);
}

/*
 * The identity of a map: every field, each with its length (no text can
 * make two maps look alike), as the key of c->mapset.
 */
static char *map_key(const char *const v[C2C_MAP_FIELDS])
{
	size_t len = 1;
	for (size_t f = 0; f < C2C_MAP_FIELDS; f++)
		len += 24 + (v[f] ? strlen(v[f]) : 0);
	char *k = malloc(len), *p = k;
	if (!k)
		return NULL;
	for (size_t f = 0; f < C2C_MAP_FIELDS; f++)
		p += v[f] ? sprintf(p, "%zu:%s,", strlen(v[f]), v[f]) :
			    sprintf(p, "-,");
	return k;
}

/*
 * Whether what @id (malloc'd, taken; NULL: out of memory) identifies is
 * new to c->mapset: 1, and it is now there; 0 when seen before; or
 * -PEBS_E_NOMEM.  Makes c->maps too.  The same map read from two inputs
 * is kept once (a hashed set: thousands of maps per input must not cost
 * a scan each).
 */
static int first_seen(struct pebs_c2c *c, char *id)
{
	int r = -PEBS_E_NOMEM;
	if (!id || (!c->maps && !(c->maps = pebs_meta_new())) ||
	    (!c->mapset && !(c->mapset = pebs_meta_new())))
		goto out;
	r = pebs_meta_get(c->mapset, id) ? 0 :
	    pebs_meta_set(c->mapset, id, "") < 0 ? -PEBS_E_NOMEM : 1;
out:
	free(id);
	return r;
}

int c2c_map_add(struct pebs_c2c *c, const char *const v[C2C_MAP_FIELDS])
{
	char k[64];
	if (!v[0] || !v[1] || !v[2] || !v[4])
		return 0;	/* pid, start, end and path are needed */
	int r = first_seen(c, map_key(v));
	if (r <= 0)
		return r;
	for (int f = 0; f < C2C_MAP_FIELDS; f++) {
		if (!v[f])
			continue;
		snprintf(k, sizeof(k), "maps.%zu.%s", c->nmaps,
			 c2c_map_field_name(f));
		if (pebs_meta_set(c->maps, k, v[f]) < 0)
			return -PEBS_E_NOMEM;
	}
	c->nmaps++;
	return 0;
}

/*
 * A built-in workload's instruction @ip named @name, kept as
 * workload.ips.K.ip/name (K: unused so far, not dense: only the symbol
 * library reads them, whatever the numbering).  An ip keeps the first
 * name it comes with: the symbolizer keeps the first of several names
 * too, so gathering one per ip changes no report, and the YAML result
 * (which has one name per ip) gives the same report merged.
 */
int c2c_ip_add(struct pebs_c2c *c, uint64_t ip, const char *name)
{
	char *id, k[64];
	/* the symbolizer ignores an empty name; the bound keeps a YAML
	 * result's names readable (c2c_yaml.c refuses longer ones) */
	if (!*name || strlen(name) > C2C_IP_NAME_MAX)
		return 0;
	/* map keys start with a digit or '-': no clash */
	if (asprintf(&id, "ip:%" PRIx64, ip) < 0)
		id = NULL;
	int r = first_seen(c, id);
	if (r <= 0)
		return r;
	size_t n = pebs_meta_count(c->maps);
	snprintf(k, sizeof(k), "workload.ips.%zu.ip", n);
	if (pebs_meta_setf(c->maps, k, "0x%" PRIx64, ip) < 0)
		return -PEBS_E_NOMEM;
	snprintf(k, sizeof(k), "workload.ips.%zu.name", n);
	if (pebs_meta_set(c->maps, k, name) < 0)
		return -PEBS_E_NOMEM;
	c->nips++;
	return 0;
}

static int ip_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct c2c_ip *)a)->ip;
	uint64_t y = ((const struct c2c_ip *)b)->ip;
	return (x > y) - (x < y);
}

long c2c_ip_list(const struct pebs_c2c *c, struct c2c_ip **out)
{
	const char *v, *name;
	size_t n = 0;
	*out = NULL;
	if (!c->nips)
		return 0;
	if (!(*out = malloc(c->nips * sizeof(**out))))
		return -PEBS_E_NOMEM;
	/* what c2c_ip_add() wrote: "0x..." hex, one per ip */
	for (size_t i = 0; n < c->nips &&
	     pebs_sym_ip_next(c->maps, &i, &v, &name);)
		(*out)[n++] = (struct c2c_ip){ strtoull(v, NULL, 16), name };
	qsort(*out, n, sizeof(**out), ip_cmp);
	return (long)n;
}

int pebs_c2c_add_maps(struct pebs_c2c *c, const struct pebs_meta *m)
{
	const char *v[C2C_MAP_FIELDS];
	for (size_t i = 0; pebs_sym_map_next(m, &i, v);) {
		int r = c2c_map_add(c, v);
		if (r)
			return r;
	}
	const char *ipv, *name;
	for (size_t i = 0; pebs_sym_ip_next(m, &i, &ipv, &name);) {
		/* read as the symbolizer reads it (sym.c, read_ips()) */
		char *end;
		errno = 0;
		uint64_t ip = strtoull(ipv, &end, 0);
		if (end == ipv || *end || errno)
			continue;
		int r = c2c_ip_add(c, ip, name);
		if (r)
			return r;
	}
	return 0;
}

const struct pebs_meta *pebs_c2c_maps(const struct pebs_c2c *c)
{
	return c->maps && pebs_meta_count(c->maps) ? c->maps : NULL;
}

void pebs_c2c_set_sym(struct pebs_c2c *c, struct pebs_sym *s)
{
	c->sym = s;
}

/*
 * "name+0x1a" (or "name") of @in, full length (C++ names run past any
 * fixed buffer, and a cut would drop the offset): to free, NULL when
 * memory is short.
 */
static char *name_off(const struct pebs_sym_info *in)
{
	char *s;
	int r = in->off ? asprintf(&s, "%s+0x%" PRIx64, in->name, in->off) :
			  asprintf(&s, "%s", in->name);
	return r < 0 ? NULL : s;
}

int c2c_sym_code(const struct pebs_c2c *c, uint32_t pid, uint64_t ip,
		 char **sym, char **src)
{
	struct pebs_sym_info in;
	*sym = *src = NULL;
	if (!c->sym)
		return 0;
	int r = pebs_sym_lookup(c->sym, pid, ip, 0, &in);
	if (r <= 0 || !in.name)
		return r < 0 ? r : 0;
	if (!(*sym = name_off(&in)))
		return -PEBS_E_NOMEM;
	if (in.file) {
		const char *base = strrchr(in.file, '/');
		/* no dso: a workload's instruction, what it does */
		if ((in.dso ? asprintf(src, "%s:%d", base ? base + 1 : in.file,
				       in.line) :
			      asprintf(src, "%s", in.file)) < 0) {
			*src = NULL;
			free(*sym);
			*sym = NULL;
			return -PEBS_E_NOMEM;
		}
	}
	return 1;
}

int c2c_sym_data(const struct pebs_c2c *c, const struct c2c_line_int *l,
		 char **out)
{
	struct pebs_sym_info in;
	*out = NULL;
	if (!c->sym || !l->n)
		return 0;
	const struct c2c_rec *r = c->recs + l->first;
	uint32_t pid = (uint32_t)(c->threads.keys[r->thr] >> 32);
	/*
	 * The variable the line starts in; when the line starts between
	 * variables, the one its first sampled byte falls in.
	 */
	unsigned lo = c->o.line_size;
	for (size_t i = 0; i < l->n; i++)
		if (r[i].off < lo)
			lo = r[i].off;
	int k = pebs_sym_lookup(c->sym, pid, l->pub.addr, 1, &in);
	if (k == 0 || (k > 0 && !in.name)) {
		if (!lo)
			return 0;
		k = pebs_sym_lookup(c->sym, pid, l->pub.addr + lo, 1, &in);
		if (k == 0 || (k > 0 && !in.name))
			return 0;
	}
	if (k < 0)
		return k;
	return (*out = name_off(&in)) ? 1 : -PEBS_E_NOMEM;
}
