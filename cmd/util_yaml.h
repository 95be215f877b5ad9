/*
 * util_yaml.h - a small YAML document writer over libyaml's emitter for
 * the pebs-* tools (block style, plain scalars where YAML allows them,
 * quoted where it does not).  Write errors end the tool as util.h does:
 * quiet exit 0 on a closed pipe, else exit 3.
 */
#ifndef PEBS_CMD_UTIL_YAML_H
#define PEBS_CMD_UTIL_YAML_H

#include <stdio.h>

#include <yaml.h>

struct yout {
	yaml_emitter_t em;
	FILE *fp;
	const char *path;
};

/* Opens @path (NULL or "-" = stdout) and starts a document whose root is
 * a block mapping. */
void yo_doc_start(struct yout *o, const char *path);
/* Ends the root mapping and the document, closes the output (checked). */
void yo_doc_end(struct yout *o);

/* A text scalar: bytes of no valid UTF-8 sequence become U+FFFD, and
 * text that would read as another type (yes, null, 0x10, 1e3, a date) is
 * quoted, so that it reads back as the string. */
void yo_scalar(struct yout *o, const char *s);
/* A typed scalar (a number, a boolean), written as formatted: plain. */
void yo_scalarf(struct yout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Key and value scalars; value as a string, as a boolean, as 0x-hex, as
 * decimal. */
void yo_kv(struct yout *o, const char *k, const char *v);
void yo_kvbool(struct yout *o, const char *k, int v);
void yo_kvhex(struct yout *o, const char *k, unsigned long long v);
void yo_kvu(struct yout *o, const char *k, unsigned long long v);
void yo_map_start(struct yout *o);
void yo_map_end(struct yout *o);
void yo_seq_start(struct yout *o);
void yo_seq_end(struct yout *o);

#endif
