/*
 * util_sym.c - symbolizer plumbing for the tools (util_sym.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pebs_field.h"
#include "util.h"
#include "util_sym.h"

const char *util_symfs;

/*
 * Static: a tool may die in the middle of its run; state reachable from
 * here is not a leak to LeakSanitizer then.
 */
static struct pebs_sym *cur;
static const struct pebs_meta *cur_meta;
static const char *cur_file;
static size_t shown;		/* notes of cur already printed */
static char **said;		/* every note printed (text), for dedup */
static size_t nsaid;

int util_sym_fields(const int *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pebs_field_is_sym(ids[i]))
			return 1;
	return 0;
}

/* Prints @note for @file unless the same text was printed before. */
static void say(const char *file, const char *note)
{
	for (size_t i = 0; i < nsaid; i++)
		if (strcmp(said[i], note) == 0)
			return;
	char **ns = realloc(said, (nsaid + 1) * sizeof(*ns));
	char *copy = strdup(note);
	if (!ns || !copy) {
		free(copy);
		if (ns)
			said = ns;
		util_die(EXIT_SYS, "out of memory");
	}
	said = ns;
	said[nsaid++] = copy;
	util_warn("%s: symbols: %s", file, note);
}

static void flush_notes(void)
{
	const char *note;
	while (cur && shown < pebs_sym_notes(cur, shown, &note)) {
		say(cur_file, note);
		shown++;
	}
}

void util_symfs_check(void)
{
	struct stat st;

	if (!util_symfs || !*util_symfs)
		return;
	if (stat(util_symfs, &st) < 0)
		util_die(EXIT_SYS, "--symfs %s: %s", util_symfs,
			 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		util_die(EXIT_SYS, "--symfs %s: %s", util_symfs,
			 strerror(ENOTDIR));
}

struct pebs_sym *util_sym_open(const struct pebs_meta *meta,
			       const struct pebs_sym_opts *opts)
{
	struct pebs_sym *s;
	int r = pebs_sym_open(&s, meta, opts);
	int e = errno;
	if (r < 0)
		pebs_sym_close(s);
	if (r == -PEBS_E_IO)
		util_die(EXIT_SYS, "--symfs %s: %s", opts->symfs, strerror(e));
	if (r < 0)
		util_die(EXIT_SYS, "symbols: out of memory");
	return s;
}

struct pebs_sym *util_sym_get(const struct pebs_meta *meta,
			      const char *file)
{
	flush_notes();
	if (cur && (meta == cur_meta || pebs_sym_same_maps(cur, meta))) {
		cur_meta = meta;
		return cur;
	}
	struct pebs_sym_opts so = { .symfs = util_symfs };
	struct pebs_sym *s = util_sym_open(meta, &so);
	pebs_sym_close(cur);
	cur = s;
	cur_meta = meta;
	cur_file = util_name(file);
	shown = 0;
	return cur;
}

void util_sym_close(void)
{
	flush_notes();
	pebs_sym_close(cur);
	cur = NULL;
	cur_meta = NULL;
	for (size_t i = 0; i < nsaid; i++)
		free(said[i]);
	free(said);
	said = NULL;
	nsaid = 0;
}
