/*
 * util_yaml.c - YAML document writer for the pebs-* tools (util_yaml.h).
 */
#include <stdarg.h>
#include <string.h>

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

void yo_scalar(struct yout *o, const char *s)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
				     (int)strlen(s), 1, 1,
				     YAML_ANY_SCALAR_STYLE);
	emit(o, &ev);
}

void yo_scalarf(struct yout *o, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	yo_scalar(o, b);
}

void yo_kv(struct yout *o, const char *k, const char *v)
{
	yo_scalar(o, k);
	yo_scalar(o, v);
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

