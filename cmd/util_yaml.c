/*
 * util_yaml.c - YAML document writer for the pebs-* tools (util_yaml.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pebs.h"
#include "util.h"
#include "util_yaml.h"

static void emit(struct yout *o, yaml_event_t *ev)
{
	if (!yaml_emitter_emit(&o->em, ev)) {
		if (ferror(o->fp))
			util_write_failed(o->path);
		util_die(EXIT_SYS, "YAML output: %s",
			 o->em.problem ? o->em.problem : "emitter error");
	}
}

static void scalar(struct yout *o, const char *s, size_t n,
		   yaml_scalar_style_t style)
{
	yaml_event_t ev;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
					  (int)n, 1, 1, style))
		util_die(EXIT_SYS, "YAML output: cannot write a value");
	emit(o, &ev);
}

/* Whether a YAML reader resolves plain @s to something other than that
 * string: a boolean, null, the value and merge keys, or a number or date
 * (0x10, 1e3, .inf, 1:20, 2001-12-14: what starts like a number and has
 * only the characters of those; "12th Gen Intel(R) ..." stays plain). */
static int needs_quote(const char *s)
{
	static const char *const words[] = {
		"y", "n", "yes", "no", "true", "false", "on", "off", "null",
		"~", "=", "<<",
	};
	if (!*s || (strchr("0123456789+-.", *s) &&
		    !s[strspn(s, "0123456789_:.+- xXoObBeEaAcCdDfFiInNtTzZ")]))
		return 1;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	return 0;
}

void yo_scalar(struct yout *o, const char *s)
{
	/* text from the machine (a CPU's model name, sysfs names): each
	 * byte of no valid UTF-8 sequence as U+FFFD, and quoted where a
	 * reader would take it for another type */
	size_t n = strlen(s);
	char *b = malloc(3 * n + 1);
	if (!b)
		util_die(EXIT_SYS, "out of memory");
	n = pebs_utf8_fix(b, s, n);
	b[n] = 0;
	scalar(o, b, n, needs_quote(b) ?
	       YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	free(b);
}

void yo_scalarf(struct yout *o, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	scalar(o, b, strlen(b), YAML_ANY_SCALAR_STYLE);
}

void yo_kv(struct yout *o, const char *k, const char *v)
{
	yo_scalar(o, k);
	yo_scalar(o, v);
}

void yo_kvbool(struct yout *o, const char *k, int v)
{
	yo_scalar(o, k);
	yo_scalarf(o, "%s", v ? "true" : "false");
}

void yo_kvhex(struct yout *o, const char *k, unsigned long long v)
{
	yo_scalar(o, k);
	yo_scalarf(o, "0x%llx", v);
}

void yo_kvu(struct yout *o, const char *k, unsigned long long v)
{
	yo_scalar(o, k);
	yo_scalarf(o, "%llu", v);
}

void yo_map_start(struct yout *o)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
					    YAML_BLOCK_MAPPING_STYLE);
	emit(o, &ev);
}

void yo_map_end(struct yout *o)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	emit(o, &ev);
}

void yo_seq_start(struct yout *o)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
					     YAML_BLOCK_SEQUENCE_STYLE);
	emit(o, &ev);
}

void yo_seq_end(struct yout *o)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	emit(o, &ev);
}

static int yaml_write(void *data, unsigned char *buf, size_t len)
{
	struct yout *o = data;
	return fwrite(buf, 1, len, o->fp) == len;
}

void yo_doc_start(struct yout *o, const char *path)
{
	yaml_event_t ev;
	o->path = path;
	o->fp = util_open_out(path, 0);
	if (!yaml_emitter_initialize(&o->em))
		util_die(EXIT_SYS, "out of memory");
	yaml_emitter_set_output(&o->em, yaml_write, o);
	yaml_emitter_set_width(&o->em, -1);
	yaml_emitter_set_unicode(&o->em, 1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(o, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	emit(o, &ev);
	yo_map_start(o);
}

void yo_doc_end(struct yout *o)
{
	yaml_event_t ev;
	yo_map_end(o);
	yaml_document_end_event_initialize(&ev, 1);
	emit(o, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(o, &ev);
	yaml_emitter_delete(&o->em);
	util_close_out(o->fp, o->path);
}

