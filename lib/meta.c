/*
 * meta.c - capture metadata: ordered (key, value) strings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"

struct pebs_meta {
	char **key, **val;
	size_t n, cap;
};

struct pebs_meta *pebs_meta_new(void)
{
	return calloc(1, sizeof(struct pebs_meta));
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
	free(m);
}

int pebs_meta_set(struct pebs_meta *m, const char *key, const char *value)
{
	char *v = strdup(value);
	if (!v)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->key[i], key) == 0) {
			free(m->val[i]);
			m->val[i] = v;
			return 0;
		}
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
	return 0;
nomem:
	free(v);
	return -PEBS_E_NOMEM;
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
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->key[i], key) == 0)
			return m->val[i];
	return NULL;
}

size_t pebs_meta_count(const struct pebs_meta *m)
{
	return m->n;
}

void pebs_meta_entry(const struct pebs_meta *m, size_t i, const char **key,
		     const char **value)
{
	*key = m->key[i];
	*value = m->val[i];
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
