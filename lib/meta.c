/*
 * meta.c - capture metadata: ordered (key, value) strings.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "fmt.h"
#include "meta_int.h"
#include "pebs.h"
#include "strhash.h"

/*
 * Keys in insertion order, and an open-addressing index over them (slots
 * hold entry + 1, 0 is free; at most half full), so that setting many
 * keys, as a HEAD may, costs O(1) each rather than a scan of all keys.
 */
struct pebs_meta {
	char **key, **val;
	size_t n, cap;
	size_t *slot;
	size_t nslot;		/* a power of two, or 0 */
	uint64_t serial;	/* meta_serial() */
};

/* The slot of @key in the index, or the free slot where it would go. */
static size_t find_slot(const struct pebs_meta *m, const char *key)
{
	size_t mask = m->nslot - 1, i = (size_t)lib_str_hash(key) & mask;
	while (m->slot[i] && strcmp(m->key[m->slot[i] - 1], key) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Makes room in the index for one more key; returns 0 or -1. */
static int index_grow(struct pebs_meta *m)
{
	if (2 * (m->n + 1) <= m->nslot)
		return 0;
	size_t ns = m->nslot ? 2 * m->nslot : 32;
	size_t *old = m->slot, on = m->nslot;
	if (!(m->slot = calloc(ns, sizeof(*m->slot)))) {
		m->slot = old;
		return -1;
	}
	m->nslot = ns;
	for (size_t i = 0; i < on; i++)
		if (old[i])
			m->slot[find_slot(m, m->key[old[i] - 1])] = old[i];
	free(old);
	return 0;
}

struct pebs_meta *pebs_meta_new(void)
{
	/* from 1: 0 is NULL's */
	static uint64_t next_serial;
	struct pebs_meta *m = calloc(1, sizeof(struct pebs_meta));
	if (m)
		m->serial = __atomic_add_fetch(&next_serial, 1,
					       __ATOMIC_RELAXED);
	return m;
}

uint64_t meta_serial(const struct pebs_meta *m)
{
	return m ? m->serial : 0;
}

void pebs_meta_free(struct pebs_meta *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->key[i]);
		free(m->val[i]);
	}
	free(m->key);
	free(m->val);
	free(m->slot);
	free(m);
}

int pebs_meta_set(struct pebs_meta *m, const char *key, const char *value)
{
	char *v = strdup(value);
	if (!v)
		return -PEBS_E_NOMEM;
	if (index_grow(m) < 0)
		goto nomem;
	size_t at = find_slot(m, key);
	if (m->slot[at]) {
		/* the last value wins, at the first one's place */
		free(m->val[m->slot[at] - 1]);
		m->val[m->slot[at] - 1] = v;
		return 0;
	}
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 16;
		char **nk = realloc(m->key, nc * sizeof(*nk));
		if (!nk)
			goto nomem;
		m->key = nk;
		char **nv = realloc(m->val, nc * sizeof(*nv));
		if (!nv)
			goto nomem;
		m->val = nv;
		m->cap = nc;
	}
	m->key[m->n] = strdup(key);
	if (!m->key[m->n])
		goto nomem;
	m->val[m->n++] = v;
	m->slot[at] = m->n;
	return 0;
nomem:
	free(v);
	return -PEBS_E_NOMEM;
}

int fmt_meta_set(struct pebs_meta *m, const void *key, size_t klen,
		 const void *val, size_t vlen)
{
	/*
	 * A NUL would cut the C string short: "k\0x" would become "k" and
	 * replace the real "k"'s value (format sections 4 and 9).
	 */
	if (memchr(key, 0, klen) || memchr(val, 0, vlen))
		return -PEBS_E_CORRUPT;
	char *k = strndup(key, klen), *v = strndup(val, vlen);
	int r = k && v ? pebs_meta_set(m, k, v) : -PEBS_E_NOMEM;
	free(k);
	free(v);
	return r;
}

void meta_truncate(struct pebs_meta *m, size_t n)
{
	if (n >= m->n)
		return;
	for (size_t i = n; i < m->n; i++) {
		free(m->key[i]);
		free(m->val[i]);
	}
	m->n = n;
	/* the index is rebuilt rather than holes left in its probe runs */
	if (m->nslot) {
		memset(m->slot, 0, m->nslot * sizeof(*m->slot));
		for (size_t i = 0; i < n; i++)
			m->slot[find_slot(m, m->key[i])] = i + 1;
	}
}

int pebs_meta_setf(struct pebs_meta *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	int r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -PEBS_E_NOMEM;
	r = pebs_meta_set(m, key, s);
	free(s);
	return r;
}

const char *pebs_meta_get(const struct pebs_meta *m, const char *key)
{
	if (!m->nslot)
		return NULL;
	size_t at = find_slot(m, key);
	return m->slot[at] ? m->val[m->slot[at] - 1] : NULL;
}

size_t pebs_meta_count(const struct pebs_meta *m)
{
	return m->n;
}

void pebs_meta_entry(const struct pebs_meta *m, size_t i, const char **key,
		     const char **value)
{
	/* past the count: NULLs, not a read past the arrays */
	*key = i < m->n ? m->key[i] : NULL;
	*value = i < m->n ? m->val[i] : NULL;
}

int meta_parse_cpulist(const char *s, int (*cb)(void *, unsigned),
		       void *ctx)
{
	const char *p = s;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		char *e;
		errno = 0;
		unsigned long a = strtoul(p, &e, 10), b;
		if (e == p || errno || a > META_MAX_CPU)
			return -1;
		p = e;
		b = a;
		if (*p == '-') {
			p++;
			b = strtoul(p, &e, 10);
			if (e == p || errno || b > META_MAX_CPU || b < a)
				return -1;
			p = e;
		}
		for (unsigned long x = a; x <= b; x++)
			if (cb(ctx, (unsigned)x))
				return -1;
		if (!*p)
			return 0;
		if (*p != ',')
			return -1;
		p++;
	}
}

/* @s as a decimal integer up to @max (digits only): 0 and *@v, else -1. */
static int dec_read(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > 9 || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* @s as a decimal integer from 1 to @max (digits only), else 0. */
static uint64_t dec_positive(const char *s, uint64_t max)
{
	uint64_t v;
	return dec_read(s, max, &v) ? 0 : v;
}

uint64_t meta_tsc_hz(const struct pebs_meta *m, const char **bad)
{
	const char *hz = m ? pebs_meta_get(m, "tsc.hz") : NULL;
	uint64_t v = hz ? dec_positive(hz, UINT64_MAX) : 0;
	if (bad)
		*bad = hz && !v ? hz : NULL;
	return v;
}

int meta_time_origin(const struct pebs_meta *m, uint64_t *v,
		     const char **bad)
{
	const char *o = m ? pebs_meta_get(m, "time.origin") : NULL;
	int r = !o ? 0 : dec_read(o, UINT64_MAX, v) ? -1 : 1;
	if (bad)
		*bad = r < 0 ? o : NULL;
	return r;
}

static int cpu_ok(void *ctx, unsigned cpu)
{
	(void)ctx;
	(void)cpu;
	return 0;
}

/* N of "topology.node.N.cpus", or -1 for another key. */
static long topo_node(const char *key)
{
	static const char pre[] = "topology.node.";
	const char *p = key + sizeof(pre) - 1;
	char *e;
	if (strncmp(key, pre, sizeof(pre) - 1) || *p < '0' || *p > '9')
		return -1;
	unsigned long n = strtoul(p, &e, 10);
	if (strcmp(e, ".cpus"))
		return -1;
	return n > META_MAX_NODE ? (long)META_MAX_NODE + 1 : (long)n;
}

int pebs_meta_check(const char *key, const char *value,
		    const char **expected)
{
	const char *want = NULL;
	long node;
	/*
	 * The readers parse these leniently (strtod, strtoul) and fall back
	 * to a default on nonsense, so a bad value set by hand shows up
	 * only later and elsewhere, as a missing one: refuse it here.
	 */
	if (strcmp(key, "time.unit") == 0) {
		if (strcmp(value, "tsc") && strcmp(value, "ns"))
			want = "tsc or ns";
	} else if (strcmp(key, "tsc.hz") == 0) {
		if (!dec_positive(value, UINT64_MAX))
			want = "a decimal integer above 0 (TSC ticks per "
			       "second)";
	} else if (strcmp(key, "time.origin") == 0) {
		uint64_t v;
		if (dec_read(value, UINT64_MAX, &v))
			want = "a decimal integer (the origin of t, in the "
			       "segment's time unit)";
	} else if (strcmp(key, "topology.nr_cpus") == 0) {
		if (!dec_positive(value, UINT32_MAX))
			want = "a decimal integer above 0 (the number of CPUs)";
	} else if ((node = topo_node(key)) >= 0) {
		/* the parser pebs-c2c reads the topology with */
		_Static_assert(META_MAX_NODE == 4095, "the text says 4095");
		if (node > (long)META_MAX_NODE ||
		    meta_parse_cpulist(value, cpu_ok, NULL))
			want = "a CPU list such as 0-27,56-83 (CPUs up to "
			       "65535, node N up to 4095)";
	}
	if (expected)
		*expected = want;
	return want ? -PEBS_E_PARSE : 0;
}

int pebs_meta_copy(struct pebs_meta *dst, const struct pebs_meta *src)
{
	for (size_t i = 0; i < src->n; i++) {
		int r = pebs_meta_set(dst, src->key[i], src->val[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

int meta_map_useless(const char *path)
{
	static const char *const skip[] = {
		"//anon", "/anon_hugepage", "/dev/", "/SYSV", "/memfd:",
		"[heap]", "[stack]", "[anon",
	};
	if (!*path)
		return 1;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strncmp(path, skip[i], strlen(skip[i])) == 0)
			return 1;
	return 0;
}
