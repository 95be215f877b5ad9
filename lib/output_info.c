/*
 * output_info.c - the YAML of pebs-decode --info: metadata nested by the
 * dots of its keys, and a summary of what the input holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cloc.h"
#include "pebs_format.h"
#include "pebs_output.h"
#include "meta_int.h"
#include "output_fmt.h"
#include "strhash.h"

struct pebs_summary {
	char **name;
	uint64_t *count;
	size_t n, cap;
	uint32_t *slot;		/* name index + 1, 0 empty; hashed */
	size_t nslot;		/* power of two, at least 2 n */
	uint64_t samples, tmin, tmax;
	uint32_t *map;		/* batch dictionary index -> own index */
	size_t map_cap;
	char *clock;		/* first segment's "unit hz", NULL: none yet */
	int mixed_clock;	/* a later segment's differs */
};

struct pebs_summary *pebs_summary_new(void)
{
	return calloc(1, sizeof(struct pebs_summary));
}

void pebs_summary_free(struct pebs_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->count);
	free(s->slot);
	free(s->map);
	free(s->clock);
	free(s);
}

int pebs_summary_clock(struct pebs_summary *s, const struct pebs_meta *meta)
{
	const char *unit = meta ? pebs_meta_get(meta, "time.unit") : NULL;
	const char *hz = meta ? pebs_meta_get(meta, "tsc.hz") : NULL;
	char *c;
	if (asprintf(&c, "%s %s", unit ? unit : "-", hz ? hz : "-") < 0)
		return -PEBS_E_NOMEM;
	if (!s->clock) {
		s->clock = c;
		return 0;
	}
	s->mixed_clock |= strcmp(s->clock, c) != 0;
	free(c);
	return 0;
}

/* Rebuilds the name index with @nslot slots.  0 or -PEBS_E_NOMEM. */
static int rehash(struct pebs_summary *s, size_t nslot)
{
	uint32_t *t = calloc(nslot, sizeof(*t));
	if (!t)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < s->n; i++) {
		size_t h = (size_t)lib_str_hash(s->name[i]) & (nslot - 1);
		while (t[h])
			h = (h + 1) & (nslot - 1);
		t[h] = (uint32_t)i + 1;
	}
	free(s->slot);
	s->slot = t;
	s->nslot = nslot;
	return 0;
}

/* The index of @name, added with count 0 if new (hashed: a file may name
 * 65,535 events per block); -1 out of memory. */
static long find_or_add(struct pebs_summary *s, const char *name)
{
	if (2 * (s->n + 1) > s->nslot &&
	    rehash(s, s->nslot ? 2 * s->nslot : 64) < 0)
		return -1;
	size_t h = (size_t)lib_str_hash(name) & (s->nslot - 1);
	for (; s->slot[h]; h = (h + 1) & (s->nslot - 1))
		if (strcmp(s->name[s->slot[h] - 1], name) == 0)
			return (long)s->slot[h] - 1;
	if (s->n == s->cap) {
		size_t nc = s->cap ? 2 * s->cap : 8;
		char **nn = realloc(s->name, nc * sizeof(*nn));
		if (!nn)
			return -1;
		s->name = nn;
		uint64_t *ncnt = realloc(s->count, nc * sizeof(*ncnt));
		if (!ncnt)
			return -1;
		s->count = ncnt;
		s->cap = nc;
	}
	if (!(s->name[s->n] = strdup(name)))
		return -1;
	s->count[s->n] = 0;
	s->slot[h] = (uint32_t)s->n + 1;
	return (long)s->n++;
}

int pebs_summary_add(struct pebs_summary *s, const struct pebs_batch *b)
{
	if (b->nnames + 1u > s->map_cap) {
		uint32_t *m = realloc(s->map, (b->nnames + 1u) * sizeof(*m));
		if (!m)
			return -PEBS_E_NOMEM;
		s->map = m;
		s->map_cap = b->nnames + 1u;
	}
	/* Ids outside the dictionary count as the empty name. */
	for (uint32_t i = 0; i <= b->nnames; i++) {
		long k = find_or_add(s, i < b->nnames ? b->names[i] : "");
		if (k < 0)
			return -PEBS_E_NOMEM;
		s->map[i] = (uint32_t)k;
	}
	const uint32_t *ev = b->c32[PEBS_COL_EVENT];
	const uint64_t *t = b->c64[PEBS_COL_TIME];
	for (size_t i = 0; i < b->n; i++) {
		uint32_t e = ev[i] < b->nnames ? ev[i] : b->nnames;
		s->count[s->map[e]]++;
		if (!s->samples || t[i] < s->tmin)
			s->tmin = t[i];
		if (!s->samples || t[i] > s->tmax)
			s->tmax = t[i];
		s->samples++;
	}
	return 0;
}

/* ------------------------------------------------------ metadata tree */

struct node {
	char *name;
	const char *value;
	struct node **kid;
	size_t nkid, cap;
};

/* Every node of a tree under its parent and name, hashed: a file may
 * carry 100,000 keys under one prefix (maps.N.*). */
struct tree {
	struct node *root;
	struct node **slot;	/* NULL empty */
	size_t nslot, n;	/* power of two; nodes in it */
};

static uint64_t name_hash(const struct node *parent, const char *name,
			  size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^
		     (uint64_t)(uintptr_t)parent * 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 0x100000001b3ull;
	return h ^ (h >> 32);
}

static void node_free(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkid; i++)
		node_free(n->kid[i]);
	free(n->kid);
	free(n->name);
	free(n);
}

struct tnode {
	struct node n;
	struct node *parent;	/* for the tree's index */
};

static int tree_grow(struct tree *t)
{
	size_t ns = t->nslot ? 2 * t->nslot : 64;
	struct node **sl = calloc(ns, sizeof(*sl));
	if (!sl)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < t->nslot; i++) {
		struct node *k = t->slot[i];
		if (!k)
			continue;
		size_t h = (size_t)name_hash(((struct tnode *)k)->parent,
					     k->name, strlen(k->name)) &
			   (ns - 1);
		while (sl[h])
			h = (h + 1) & (ns - 1);
		sl[h] = k;
	}
	free(t->slot);
	t->slot = sl;
	t->nslot = ns;
	return 0;
}

static struct node *node_child(struct tree *t, struct node *n,
			       const char *name, size_t len)
{
	if (2 * (t->n + 1) > t->nslot && tree_grow(t) < 0)
		return NULL;
	size_t h = (size_t)name_hash(n, name, len) & (t->nslot - 1);
	for (struct node *k; (k = t->slot[h]); h = (h + 1) & (t->nslot - 1))
		if (((struct tnode *)k)->parent == n &&
		    strlen(k->name) == len && memcmp(k->name, name, len) == 0)
			return k;
	if (n->nkid == n->cap) {
		size_t nc = n->cap ? 2 * n->cap : 4;
		struct node **nk = realloc(n->kid, nc * sizeof(*nk));
		if (!nk)
			return NULL;
		n->kid = nk;
		n->cap = nc;
	}
	struct tnode *tk = calloc(1, sizeof(*tk));
	struct node *k = &tk->n;
	if (!tk || !(k->name = strndup(name, len))) {
		free(tk);
		return NULL;
	}
	tk->parent = n;
	n->kid[n->nkid++] = k;
	t->slot[h] = k;
	t->n++;
	return k;
}

static int tree_add(struct tree *t, const char *key, const char *value)
{
	struct node *n = t->root;
	for (const char *p = key;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		if (!(n = node_child(t, n, p, len)))
			return -PEBS_E_NOMEM;
		if (!dot)
			break;
		p = dot + 1;
	}
	n->value = value;
	return 0;
}

/*
 * Children named 0..n-1 (in any order) make a sequence: then @order, of
 * nkid entries, gets child j at position (its number).  1, 0 not a
 * sequence, -PEBS_E_NOMEM.  Names are distinct (one node per name).
 */
static int seq_order(const struct node *n, const struct node ***order)
{
	*order = NULL;
	if (!n->nkid)
		return 0;
	const struct node **o = calloc(n->nkid, sizeof(*o));
	if (!o)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < n->nkid; i++) {
		uint64_t v;
		const char *s = n->kid[i]->name;
		if (pebs_outfmt_parse_u64(s, strlen(s), &v) || v >= n->nkid ||
		    (s[0] == '0' && s[1]) || o[v]) {
			free(o);
			return 0;
		}
		o[v] = n->kid[i];
	}
	*order = o;
	return 1;
}

/* ------------------------------------------------------------ emitter */

struct em {
	yaml_emitter_t e;
	FILE *fp;
	int err;
};

static int em_write(void *data, unsigned char *buf, size_t size)
{
	struct em *m = data;
	if (fwrite(buf, 1, size, m->fp) != size) {
		if (!errno)
			errno = EIO;
		m->err = -PEBS_E_IO;
		return 0;
	}
	return 1;
}

static int em_emit(struct em *m, yaml_event_t *ev, int ok)
{
	if (m->err)
		return m->err;
	if (!ok || !yaml_emitter_emit(&m->e, ev))
		m->err = m->e.error == YAML_MEMORY_ERROR ? -PEBS_E_NOMEM :
			 m->err ? m->err : -PEBS_E_IO;
	return m->err;
}

/*
 * 1 when @s is a decimal number as the tools write one: digits, no leading
 * 0, at most 15 of them (below 2^53, so that a reader keeping numbers as
 * doubles, as JavaScript does, reads two such keys as two numbers).  No
 * other string a reader would take for this number is written plain
 * (em_scalar()), so that two such keys are never one.
 */
static int plain_decimal(const char *s)
{
	size_t n = strspn(s, "0123456789");
	return n && !s[n] && n <= 15 && (s[0] != '0' || n == 1);
}

static int em_scalar(struct em *m, const char *s, int quote)
{
	yaml_event_t ev;
	size_t n = strlen(s);
	char *fixed = malloc(3 * n + 1);
	if (!fixed)
		return m->err = -PEBS_E_NOMEM;
	n = pebs_outfmt_utf8_fix(fixed, s, n);
	fixed[n] = 0;
	/*
	 * quote: 1 always, 0 never, -1 words, -2 words and numbers, -3 (a
	 * mapping key) words and numbers but plain decimals: two keys that
	 * a reader resolves to one value (0x10 and 16, 1 and 01, true and
	 * yes) would be a duplicate key, read as one.
	 */
	if (quote < 0)
		quote = pebs_outfmt_yaml_needs_quote(fixed, quote != -1) &&
			!(quote == -3 && plain_decimal(fixed));
	yaml_scalar_style_t st = pebs_outfmt_yaml_has_linesep(fixed, n) ?
		YAML_DOUBLE_QUOTED_SCALAR_STYLE : quote ?
		YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
	int r = em_emit(m, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL,
		(yaml_char_t *)fixed, (int)n, 1, 1, st));
	free(fixed);
	return r;
}

static int em_u64(struct em *m, const char *key, uint64_t v)
{
	char buf[24];
	*pebs_outfmt_u64(buf, v) = 0;
	em_scalar(m, key, 0);
	return em_scalar(m, buf, 0);
}

static int em_map(struct em *m, int start)
{
	yaml_event_t ev;
	return em_emit(m, &ev, start ? yaml_mapping_start_event_initialize(
		&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) :
		yaml_mapping_end_event_initialize(&ev));
}

static int em_seq(struct em *m, int start)
{
	yaml_event_t ev;
	return em_emit(m, &ev, start ? yaml_sequence_start_event_initialize(
		&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE) :
		yaml_sequence_end_event_initialize(&ev));
}

static int em_node(struct em *m, const struct node *n);

/* The value of @n: scalar, sequence or mapping. */
static int em_value(struct em *m, const struct node *n)
{
	if (!n->nkid)
		return em_scalar(m, n->value ? n->value : "", -1);
	const struct node **order;
	int seq = n->value ? 0 : seq_order(n, &order);
	if (seq < 0)
		return m->err = seq;
	if (seq) {
		em_seq(m, 1);
		for (size_t i = 0; i < n->nkid; i++)
			em_value(m, order[i]);
		free(order);
		return em_seq(m, 0);
	}
	em_map(m, 1);
	/*
	 * A key that has a value and sub-keys: the value goes under "_";
	 * em_node() writes a sub-key named "_" (or "__", ...) with one more
	 * "_", so that it never takes this place.
	 */
	if (n->value) {
		em_scalar(m, "_", 0);
		em_scalar(m, n->value, -1);
	}
	for (size_t i = 0; i < n->nkid; i++)
		em_node(m, n->kid[i]);
	return em_map(m, 0);
}

static int em_node(struct em *m, const struct node *n)
{
	size_t len = strlen(n->name);
	if (len && strspn(n->name, "_") == len) {
		char *k = malloc(len + 2);
		if (!k)
			return m->err = -PEBS_E_NOMEM;
		memset(k, '_', len + 1);
		k[len + 1] = 0;
		em_scalar(m, k, 0);
		free(k);
	} else {
		em_scalar(m, n->name, -3);
	}
	return em_value(m, n);
}

static void em_seconds(struct em *m, const struct pebs_meta *meta,
		       const struct pebs_summary *s)
{
	const char *unit = meta ? pebs_meta_get(meta, "time.unit") : NULL;
	double div = 0;
	if (s->mixed_clock) {
		/* ns of one segment and ticks of another make no range */
		em_scalar(m, "unit", 0);
		em_scalar(m, "mixed", 0);
		return;
	}
	if (!unit)
		return;
	em_scalar(m, "unit", 0);
	em_scalar(m, unit, -1);
	if (strcmp(unit, "ns") == 0) {
		div = 1e9;
	} else if (strcmp(unit, "tsc") == 0) {
		div = (double)meta_tsc_hz(meta, NULL);
	}
	if (div > 0) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.9f",
			 (double)(s->tmax - s->tmin) / div);
		em_scalar(m, "seconds", 0);
		em_scalar(m, buf, 0);
	}
}

/*
 * Where the bytes go: each stored column's data, largest first (the rest
 * of the file is headers, directories, checksums and metadata).
 */
static void em_columns(struct em *m, const struct pebs_read_stats *st)
{
	unsigned ord[PEBS_COL_COUNT], n = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		if (st->col_bytes[c])
			ord[n++] = c;
	if (!n)
		return;
	/* insertion sort: a few dozen columns; ties by id */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && st->col_bytes[ord[j]] >
		     st->col_bytes[ord[j - 1]]; j--) {
			unsigned t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	em_scalar(m, "columns", 0);
	em_seq(m, 1);
	for (unsigned i = 0; i < n; i++) {
		uint64_t b = st->col_bytes[ord[i]];
		char buf[64];
		em_map(m, 1);
		em_scalar(m, "name", 0);
		em_scalar(m, pebs_col_info(ord[i])->name, 0);
		em_u64(m, "bytes", b);
		if (st->samples) {
			snprintf(buf, sizeof(buf), "%.3f",
				 (double)b / (double)st->samples);
			em_scalar(m, "bytes_per_sample", 0);
			em_scalar(m, buf, 0);
		}
		if (st->bytes) {
			snprintf(buf, sizeof(buf), "%.1f",
				 100.0 * (double)b / (double)st->bytes);
			em_scalar(m, "percent_of_file", 0);
			em_scalar(m, buf, 0);
		}
		em_map(m, 0);
	}
	em_seq(m, 0);
}

static void em_summary(struct em *m, const struct pebs_meta *meta,
		       const struct pebs_summary *s,
		       const struct pebs_read_stats *st)
{
	em_map(m, 1);
	em_u64(m, "samples", st->samples);
	em_u64(m, "blocks", st->blocks);
	em_u64(m, "segments", st->segments);
	em_u64(m, "lost", st->lost);
	if (st->raw)
		em_u64(m, "unattributed", st->unattributed);
	em_u64(m, "damaged_blocks", st->damaged);
	em_u64(m, "bytes", st->bytes);
	if (st->samples) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.2f",
			 (double)st->bytes / (double)st->samples);
		em_scalar(m, "bytes_per_sample", 0);
		em_scalar(m, buf, 0);
	}
	/* a segment whose header was never read has no known version */
	if (st->segments && st->have_minor) {
		char buf[64];
		if (st->minor_min == st->minor_max)
			snprintf(buf, sizeof(buf), "%d.%u",
				 PEBS_FORMAT_VERSION, st->minor_max);
		else
			snprintf(buf, sizeof(buf), "%d.%u to %d.%u",
				 PEBS_FORMAT_VERSION, st->minor_min,
				 PEBS_FORMAT_VERSION, st->minor_max);
		em_scalar(m, "format", 0);
		em_scalar(m, buf, -2);
	}
	em_columns(m, st);
	if (s->samples) {
		em_scalar(m, "time", 0);
		em_map(m, 1);
		em_u64(m, "first", s->tmin);
		em_u64(m, "last", s->tmax);
		em_seconds(m, meta, s);
		em_map(m, 0);
	}
	em_scalar(m, "events", 0);
	em_seq(m, 1);
	for (size_t i = 0; i < s->n; i++) {
		if (!s->count[i])
			continue;
		em_map(m, 1);
		em_scalar(m, "name", 0);
		em_scalar(m, s->name[i], -2);
		em_u64(m, "count", s->count[i]);
		em_map(m, 0);
	}
	em_seq(m, 0);
	em_map(m, 0);
}

static int output_info(FILE *fp, const char *file,
		       const struct pebs_meta *meta,
		       const struct pebs_summary *s,
		       const struct pebs_read_stats *st);

/* In the C locale: seconds and bytes per sample are "%f" (cloc.h). */
int pebs_output_info(FILE *fp, const char *file, const struct pebs_meta *meta,
		     const struct pebs_summary *s,
		     const struct pebs_read_stats *st)
{
	locale_t old = lib_locale_enter();
	int r = output_info(fp, file, meta, s, st);
	lib_locale_leave(old);
	return r;
}

static int output_info(FILE *fp, const char *file,
		       const struct pebs_meta *meta,
		       const struct pebs_summary *s,
		       const struct pebs_read_stats *st)
{
	struct em m = { .fp = fp };
	struct tree t = { .root = calloc(1, sizeof(struct tnode)) };
	struct node *root = t.root;
	yaml_event_t ev;
	if (!root)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; meta && i < pebs_meta_count(meta); i++) {
		const char *k, *v;
		pebs_meta_entry(meta, i, &k, &v);
		if (tree_add(&t, k, v) < 0) {
			node_free(root);
			free(t.slot);
			return -PEBS_E_NOMEM;
		}
	}
	/* The index served the building; the emitter walks the tree. */
	free(t.slot);
	if (!yaml_emitter_initialize(&m.e)) {
		node_free(root);
		return -PEBS_E_NOMEM;
	}
	yaml_emitter_set_output(&m.e, em_write, &m);
	yaml_emitter_set_unicode(&m.e, 1);
	yaml_emitter_set_width(&m.e, -1);
	em_emit(&m, &ev, yaml_stream_start_event_initialize(
		&ev, YAML_UTF8_ENCODING));
	em_emit(&m, &ev, yaml_document_start_event_initialize(
		&ev, NULL, NULL, NULL, 0));
	em_map(&m, 1);
	em_scalar(&m, "file", 0);
	em_scalar(&m, file, -2);
	em_scalar(&m, "metadata", 0);
	if (root->nkid) {
		root->value = NULL;
		em_value(&m, root);
	} else {
		em_map(&m, 1);
		em_map(&m, 0);
	}
	em_scalar(&m, "summary", 0);
	em_summary(&m, meta, s, st);
	em_map(&m, 0);
	em_emit(&m, &ev, yaml_document_end_event_initialize(&ev, 1));
	em_emit(&m, &ev, yaml_stream_end_event_initialize(&ev));
	if (!m.err && !yaml_emitter_flush(&m.e))
		m.err = -PEBS_E_IO;
	yaml_emitter_delete(&m.e);
	node_free(root);
	return m.err;
}
