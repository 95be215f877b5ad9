/*
 * sym.c - symbols through elfutils libdwfl, from the maps.N.* metadata of a
 * capture.  One Dwfl per process, built on first use: every mapped ELF
 * file of the process is reported once per load bias (computed from the
 * map start and file offset), after checking its build-id against the one
 * the capture recorded.  Also the one reader of maps.N.* metadata
 * (pebs_sym_map_next()), which pebs-c2c gathers its inputs' maps with.
 * Two more sources in the metadata: the instructions a built-in workload
 * names (workload.ips.N.ip/name), for addresses no map covers, and the
 * command names of processes and threads (comm.PID, comm.PID.TID) for the
 * comm field.
 */
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_fmt.h"
#include "pebs_sym.h"
#include "strhash.h"

struct smap {
	uint32_t pid;
	uint64_t start, end, pgoff;
	const char *path;	/* owned by the metadata copy */
	const char *bid;	/* hex, or NULL */
	size_t seq;		/* place in the metadata: earlier wins */
	size_t up;		/* see find_map(); NONE: none */
	const char *over;	/* not used: its load overlaps this object's */
	int noted;		/* the note about over was made */
};

#define NONE SIZE_MAX

/* A PT_LOAD segment, enough to place a map's file offset. */
struct seg {
	uint64_t vaddr, offset, filesz, memsz, align;
};

/*
 * Per object file: examined once (is it usable, its segments), then reused
 * by every process and map.  Why an object cannot be used becomes a note
 * only when a looked-up address falls in it, so objects no sample touches
 * stay quiet.
 */
struct obj {
	const char *path;
	int usable;		/* 1 ok, 0 not usable (why says why) */
	int noted;
	char *why;		/* malloc'd, or NULL */
	char *file;		/* where it was read (under --symfs) */
	int dyn;		/* ET_DYN: placed at a load bias */
	int nosymtab;		/* stripped: no .symtab in the file */
	struct seg *segs;
	size_t nsegs;
	/*
	 * The file, read (mapped) once and shared by the modules of every
	 * process (find_elf()), its fd closed: one fd per (process,
	 * object) ran out of descriptors past RLIMIT_NOFILE.
	 */
	Elf *elf;
};

/*
 * What a Dwfl module's userdata points to: the object it was reported
 * for (objs may move: an index) and the symbolizer, which the debug file
 * search (find_debuginfo()) needs.
 */
struct modref {
	struct pebs_sym *s;
	size_t obj;
};

/* The maps of one process; its Dwfl is built on first use. */
struct proc {
	uint32_t pid;
	size_t first, n;	/* its maps: maps[first .. first + n - 1] */
	int built;
	Dwfl *dwfl;		/* NULL when no object could be reported */
	struct modref *refs;	/* one per reported module */
};

/* An instruction named by a built-in workload: "fs_worker: load x". */
struct wip {
	uint64_t ip;
	const char *fn;		/* "fs_worker" (kept) */
	const char *what;	/* "load x" (in the metadata copy), or NULL */
	size_t seq;		/* place in the metadata: earlier wins */
};

struct centry {
	uint64_t addr;
	uint32_t pid;
	int32_t field;		/* -1: empty slot */
	const char *str;
};

struct pebs_sym {
	struct pebs_meta *meta;
	struct smap *maps;	/* sorted by pid, then start */
	size_t nmaps;
	uint32_t only_pid;	/* the one user process with maps, or 0 */
	struct proc *procs;	/* one per pid of the maps, sorted */
	size_t nprocs;
	struct obj *objs;
	size_t nobjs, capobjs;
	size_t *oslot;		/* index over objs by path: entry + 1, 0 free */
	size_t noslot;		/* a power of two, or 0 */
	char *symfs;
	int nocheck;
	Dwfl_Callbacks cb;
	char **notes;
	size_t nnotes;
	char **strs;		/* every string handed out */
	size_t nstrs, capstrs;
	struct centry *cache;
	size_t ccap, cn;
	struct wip *ips;	/* sorted by ip, one per ip */
	size_t nips;
	int nomaps_noted;
	/*
	 * An allocation failed (ours, or one inside libelf/libdw that
	 * libdwfl reported): what was built since may be missing a
	 * module, a name or a note, so every later call fails too.
	 */
	int nomem;
};

static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname,
			  GElf_Addr base, const char *file_name,
			  const char *link, GElf_Word crc, char **name);
static int find_elf(Dwfl_Module *mod, void **ud, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp);

static const char *const field_names[PEBS_SYM_COUNT] = {
	"sym", "dso", "srcline", "data_sym", "comm",
};

int pebs_sym_field_lookup(const char *name)
{
	for (int i = 0; i < PEBS_SYM_COUNT; i++)
		if (strcmp(name, field_names[i]) == 0)
			return i;
	return -1;
}

const char *pebs_sym_field_name(int f)
{
	return f >= 0 && f < PEBS_SYM_COUNT ? field_names[f] : NULL;
}

static const char *const map_fields[PEBS_SYM_MAP_FIELDS] = {
	"pid", "start", "end", "pgoff", "path", "build_id",
};

const char *pebs_sym_map_field_name(int f)
{
	return f >= 0 && f < PEBS_SYM_MAP_FIELDS ? map_fields[f] : NULL;
}

int pebs_sym_map_field_lookup(const char *name)
{
	for (int f = 0; f < PEBS_SYM_MAP_FIELDS; f++)
		if (strcmp(name, map_fields[f]) == 0)
			return f;
	return -1;
}

/*
 * The N of a key "PRE" N "SUF" (any digits, as maps.N.path), or NULL;
 * *@nd is its length.
 */
static const char *key_num(const char *k, const char *pre, const char *suf,
			   size_t *nd)
{
	size_t lp = strlen(pre);
	if (strncmp(k, pre, lp))
		return NULL;
	*nd = strspn(k + lp, "0123456789");
	if (!*nd || *nd > 20 || strcmp(k + lp + *nd, suf))
		return NULL;
	return k + lp;
}

int pebs_sym_map_next(const struct pebs_meta *m, size_t *i,
		      const char *v[PEBS_SYM_MAP_FIELDS])
{
	static const char pre[] = "maps.", suf[] = ".path";
	size_t n = m ? pebs_meta_count(m) : 0;
	for (; *i < n; (*i)++) {
		const char *k, *val;
		pebs_meta_entry(m, *i, &k, &val);
		/*
		 * maps.N.path marks map N, whatever N is: a numbering with
		 * gaps (an edited or filtered file) loses nothing.  N is
		 * kept as written, so its other keys are found as written.
		 */
		size_t nd;
		const char *num = key_num(k, pre, suf, &nd);
		if (!num)
			continue;
		for (int f = 0; f < PEBS_SYM_MAP_FIELDS; f++) {
			char key[64];
			snprintf(key, sizeof(key), "%s%.*s.%s", pre, (int)nd,
				 num, map_fields[f]);
			v[f] = pebs_meta_get(m, key);
		}
		(*i)++;
		return 1;
	}
	return 0;
}

int pebs_sym_ip_next(const struct pebs_meta *m, size_t *i, const char **ip,
		     const char **name)
{
	static const char pre[] = "workload.ips.", suf[] = ".ip";
	size_t n = m ? pebs_meta_count(m) : 0;
	for (; *i < n; (*i)++) {
		const char *k, *num;
		char key[64];
		size_t nd;
		pebs_meta_entry(m, *i, &k, ip);
		if (!(num = key_num(k, pre, suf, &nd)))
			continue;
		snprintf(key, sizeof(key), "%s%.*s.name", pre, (int)nd, num);
		if (!(*name = pebs_meta_get(m, key)))
			continue;
		(*i)++;
		return 1;
	}
	return 0;
}

/* Marks @s out of memory (see nomem); returns -PEBS_E_NOMEM. */
static int oom(struct pebs_sym *s)
{
	s->nomem = 1;
	return -PEBS_E_NOMEM;
}

/*
 * Whether libdwfl's error @e is an allocation that failed (in libdwfl,
 * libelf, libdw or a system call): its codes are not public, their
 * messages are, in whatever language the others are.
 */
enum { DWFL_NOMEM = 2, ELF_NOMEM = 8 };	/* their message tables' */

static int dw_is_nomem(int e)
{
	const char *m = e ? dwfl_errmsg(e) : NULL;
	if (!m)
		return 0;
	const char *own = dwfl_errmsg(DWFL_NOMEM), *elf = elf_errmsg(ELF_NOMEM);
	return (own && !strcmp(m, own)) || (elf && !strcmp(m, elf)) ||
	       !strcmp(m, strerror(ENOMEM));
}

/*
 * After a libdwfl call that gave nothing: marks @s out of memory when
 * that was why (not a missing symbol or line), and clears the error.
 */
static void dw_check(struct pebs_sym *s)
{
	if (dw_is_nomem(dwfl_errno()))
		s->nomem = 1;
}

/*
 * After a libelf call that failed: marks @s out of memory when that was
 * why (not a file that is no ELF), clears the error; returns 1 then.
 */
static int elf_check(struct pebs_sym *s)
{
	int e = elf_errno();
	if (!e || strcmp(elf_errmsg(e), elf_errmsg(ELF_NOMEM)))
		return 0;
	s->nomem = 1;
	return 1;
}

/* Keeps @str (malloc'd) until close; returns it, or NULL (freed: @s is
 * out of memory then). */
static const char *keep(struct pebs_sym *s, char *str)
{
	if (!str) {
		oom(s);
		return NULL;
	}
	if (s->nstrs == s->capstrs) {
		size_t nc = s->capstrs ? s->capstrs * 2 : 64;
		char **np = realloc(s->strs, nc * sizeof(*np));
		if (!np) {
			free(str);
			oom(s);
			return NULL;
		}
		s->strs = np;
		s->capstrs = nc;
	}
	s->strs[s->nstrs++] = str;
	return str;
}

static void note(struct pebs_sym *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct pebs_sym *s, const char *fmt, ...)
{
	char *raw, *n;
	uint32_t width;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (r < 0) {
		oom(s);	/* a note lost is a partial result */
		return;
	}
	/* The paths come from the metadata, untrusted: a note goes to a
	 * terminal, escaped as the text reports escape names (never
	 * longer). */
	n = malloc((size_t)r + 1);
	if (n)
		n[pebs_outfmt_text_str(n, raw, (size_t)r, &width)] = 0;
	free(raw);
	char **np = n ? realloc(s->notes, (s->nnotes + 1) * sizeof(*np)) :
		    NULL;
	if (!np) {
		free(n);
		oom(s);
		return;
	}
	s->notes = np;
	s->notes[s->nnotes++] = n;
}

/* The slot of @path in the object index, or the free slot for it. */
static size_t obj_slot(const struct pebs_sym *s, const char *path)
{
	size_t mask = s->noslot - 1, i = (size_t)lib_str_hash(path) & mask;
	while (s->oslot[i] && strcmp(s->objs[s->oslot[i] - 1].path, path))
		i = (i + 1) & mask;
	return i;
}

static struct obj *obj_find(struct pebs_sym *s, const char *path)
{
	if (!s->noslot)
		return NULL;
	size_t at = obj_slot(s, path);
	return s->oslot[at] ? &s->objs[s->oslot[at] - 1] : NULL;
}

/*
 * Records object @path (@why: malloc'd reason, or NULL; taken); returns
 * it, or NULL when out of memory.  Valid until the next obj_add().
 */
static struct obj *obj_add(struct pebs_sym *s, const char *path, int usable,
			   char *why)
{
	if (2 * (s->nobjs + 1) > s->noslot) {
		size_t ns = s->noslot ? 2 * s->noslot : 64;
		size_t *t = calloc(ns, sizeof(*t)), *old = s->oslot;
		if (!t)
			goto nomem;
		s->oslot = t;
		s->noslot = ns;
		for (size_t i = 0; i < s->nobjs; i++)
			s->oslot[obj_slot(s, s->objs[i].path)] = i + 1;
		free(old);
	}
	if (s->nobjs == s->capobjs) {
		size_t nc = s->capobjs ? 2 * s->capobjs : 16;
		struct obj *no = realloc(s->objs, nc * sizeof(*no));
		if (!no)
			goto nomem;
		s->objs = no;
		s->capobjs = nc;
	}
	s->objs[s->nobjs] = (struct obj){ .path = path, .usable = usable,
					  .why = why };
	s->oslot[obj_slot(s, path)] = ++s->nobjs;
	return &s->objs[s->nobjs - 1];
nomem:
	free(why);
	oom(s);
	return NULL;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	char *str;
	va_list ap;
	va_start(ap, f);
	int r = vasprintf(&str, f, ap);
	va_end(ap);
	return r < 0 ? NULL : str;
}

static int ucmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int map_cmp(const void *a, const void *b)
{
	const struct smap *x = a, *y = b;
	int r = ucmp(x->pid, y->pid);
	if (!r)
		r = ucmp(x->start, y->start);
	return r ? r : ucmp(x->seq, y->seq);
}

int pebs_sym_map_num(const char *v, uint64_t *out)
{
	/*
	 * Base 16 whatever the prefix: with base 0, strtoull() read the
	 * 7f3a... of /proc/PID/maps as 7 and a leading 0 as octal, silently.
	 * strtoull() alone also takes spaces, a sign and a second 0x.
	 */
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		v += 2;
	size_t len = strspn(v, "0123456789abcdefABCDEF");
	if (!len || v[len])
		return -PEBS_E_PARSE;
	errno = 0;
	uint64_t x = strtoull(v, NULL, 16);
	if (errno)
		return -PEBS_E_PARSE;
	*out = x;
	return 0;
}

int pebs_sym_map_pid(const char *v, int32_t *out)
{
	/*
	 * Decimal, as a pid is everywhere else: strtol(v, NULL, 0) read
	 * "010" as 8 and "0x10" as 16, and took junk after the digits.
	 * -1 is the kernel's maps (perf's pid of them); no other sign.
	 */
	if (strcmp(v, "-1") == 0) {
		*out = -1;
		return 0;
	}
	size_t len = strspn(v, "0123456789");
	if (!len || v[len])
		return -PEBS_E_PARSE;
	int32_t x = 0;
	for (; *v; v++) {
		int d = *v - '0';
		if (x > (INT32_MAX - d) / 10)
			return -PEBS_E_PARSE;
		x = x * 10 + d;
	}
	*out = x;
	return 0;
}

/* A note that map field @f of @v is not "@what": the map is not used. */
static int map_bad(struct pebs_sym *s, const char *const *v, int f,
		   const char *what)
{
	note(s, "%s: map with %s '%s' in the metadata (%s expected): not "
	     "used", v[PEBS_SYM_MAP_PATH], pebs_sym_map_field_name(f), v[f],
	     what);
	return 1;
}

/*
 * Map field @f of @v into *@out: 0 when absent (as before), else
 * pebs_sym_map_num(); a value that does not parse makes the map unusable,
 * said in a note (1 returned), rather than put it at a wrong address.
 */
static int map_num(struct pebs_sym *s, const char *const *v, int f,
		   uint64_t *out)
{
	*out = 0;
	if (!v[f] || pebs_sym_map_num(v[f], out) == 0)
		return 0;
	return map_bad(s, v, f, "hex");
}

/* The pid of map @v into *@out, as map_num(): 0 when absent, decimal. */
static int map_pid(struct pebs_sym *s, const char *const *v, uint32_t *out)
{
	int32_t pid = 0;
	const char *p = v[PEBS_SYM_MAP_PID];
	if (p && pebs_sym_map_pid(p, &pid))
		return map_bad(s, v, PEBS_SYM_MAP_PID, "decimal");
	*out = (uint32_t)pid;	/* -1, the kernel's, is UINT32_MAX */
	return 0;
}

/*
 * For find_map(): up of each map is the latest earlier map of its process
 * that ends after it does (a stack of ever later ends), so a walk from the
 * last map starting at or before an address to the one covering it skips
 * every map that cannot cover it, however many nest in between.
 */
static void link_up(struct pebs_sym *s, size_t *stack)
{
	size_t top = 0;
	for (size_t i = 0; i < s->nmaps; i++) {
		struct smap *m = &s->maps[i];
		if (i && m->pid != s->maps[i - 1].pid)
			top = 0;
		while (top && s->maps[stack[top - 1]].end <= m->end)
			top--;
		m->up = top ? stack[top - 1] : NONE;
		stack[top++] = i;
	}
}

static int wip_cmp(const void *a, const void *b)
{
	const struct wip *x = a, *y = b;
	int r = ucmp(x->ip, y->ip);
	return r ? r : ucmp(x->seq, y->seq);
}

/*
 * The instructions a built-in workload names (workload.ips.N.ip and
 * .name, any numbering): "fs_worker: load shared.count[id]" is function
 * fs_worker, and what the instruction does.  An ip named twice keeps its
 * first name.  0 or -PEBS_E_NOMEM.
 */
static int read_ips(struct pebs_sym *s)
{
	size_t n = pebs_meta_count(s->meta);
	s->ips = calloc(n + 1, sizeof(*s->ips));
	if (!s->ips)
		return -PEBS_E_NOMEM;
	const char *v, *name;
	for (size_t i = 0; pebs_sym_ip_next(s->meta, &i, &v, &name);) {
		char *end;
		errno = 0;
		uint64_t ip = strtoull(v, &end, 0);
		if (!*name || end == v || *end || errno)
			continue;
		const char *sep = strstr(name, ": "), *fn = name;
		const char *what = NULL;
		if (sep && sep > name) {
			fn = keep(s, strndup(name, (size_t)(sep - name)));
			if (!fn)
				return -PEBS_E_NOMEM;
			what = sep + strspn(sep + 1, " ") + 1;
			if (!*what)
				what = NULL;
		}
		/* seq: the entry of its .ip key, which the cursor passed */
		s->ips[s->nips++] = (struct wip){ ip, fn, what, i - 1 };
	}
	qsort(s->ips, s->nips, sizeof(*s->ips), wip_cmp);
	size_t k = 0;
	for (size_t i = 0; i < s->nips; i++)
		if (!k || s->ips[k - 1].ip != s->ips[i].ip)
			s->ips[k++] = s->ips[i];
	s->nips = k;
	return 0;
}

/* The workload instruction at exactly @ip, or NULL. */
static const struct wip *find_ip(const struct pebs_sym *s, uint64_t ip)
{
	size_t lo = 0, hi = s->nips;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ips[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nips && s->ips[lo].ip == ip ? &s->ips[lo] : NULL;
}

/* One proc per pid of the (sorted) maps. */
static int make_procs(struct pebs_sym *s)
{
	s->procs = calloc(s->nmaps + 1, sizeof(*s->procs));
	if (!s->procs)
		return -PEBS_E_NOMEM;
	for (size_t i = 0; i < s->nmaps; i++) {
		if (!i || s->maps[i].pid != s->maps[i - 1].pid)
			s->procs[s->nprocs++] = (struct proc){
				.pid = s->maps[i].pid, .first = i };
		s->procs[s->nprocs - 1].n++;
	}
	return 0;
}

int pebs_sym_open(struct pebs_sym **sp, const struct pebs_meta *meta,
		  const struct pebs_sym_opts *opts)
{
	struct pebs_sym *s = calloc(1, sizeof(*s));
	*sp = s;
	if (!s)
		return -PEBS_E_NOMEM;
	s->meta = pebs_meta_new();
	if (!s->meta || (meta && pebs_meta_copy(s->meta, meta) < 0))
		goto nomem;
	if (opts && opts->symfs && *opts->symfs) {
		/*
		 * Absolute: libdwfl reads a relative debuginfo path element
		 * as relative to each binary's directory, so a relative
		 * symfs never found SYMFS/usr/lib/debug.
		 */
		s->symfs = realpath(opts->symfs, NULL);
		if (!s->symfs)
			return errno == ENOMEM ? -PEBS_E_NOMEM : -PEBS_E_IO;
	}
	s->nocheck = opts && opts->no_build_id_check;
	elf_version(EV_CURRENT);
	s->cb.find_elf = find_elf;
	s->cb.find_debuginfo = find_debuginfo;
	size_t n = 0, it = 0;
	const char *v[PEBS_SYM_MAP_FIELDS];
	while (pebs_sym_map_next(s->meta, &it, v))
		n++;
	s->maps = calloc(n + 1, sizeof(*s->maps));
	if (!s->maps)
		goto nomem;
	for (it = 0; pebs_sym_map_next(s->meta, &it, v);) {
		struct smap *m = &s->maps[s->nmaps];
		if (map_pid(s, v, &m->pid) ||
		    map_num(s, v, PEBS_SYM_MAP_START, &m->start) ||
		    map_num(s, v, PEBS_SYM_MAP_END, &m->end) ||
		    map_num(s, v, PEBS_SYM_MAP_PGOFF, &m->pgoff))
			continue;
		m->path = v[PEBS_SYM_MAP_PATH];
		m->bid = v[PEBS_SYM_MAP_BUILD_ID];
		m->seq = s->nmaps;
		if (m->end > m->start)
			s->nmaps++;
		else	/* else it went unsaid, as if there were no map */
			note(s, "%s: map with start 0x%" PRIx64 " and end 0x%"
			     PRIx64 " in the metadata (an end above the start "
			     "expected): not used", m->path, m->start, m->end);
	}
	if (s->nomem)	/* a note about a map not used */
		goto nomem;
	qsort(s->maps, s->nmaps, sizeof(*s->maps), map_cmp);
	size_t *stack = malloc((s->nmaps + 1) * sizeof(*stack));
	if (!stack)
		goto nomem;
	link_up(s, stack);
	free(stack);
	if (make_procs(s) < 0 || read_ips(s) < 0)
		goto nomem;
	/* One user process (kernel maps have pid -1): samples without a pid
	 * (raw PEBS records carry none) belong to it. */
	for (size_t i = 0; i < s->nprocs; i++) {
		uint32_t p = s->procs[i].pid;
		if (p == UINT32_MAX)
			continue;
		if (s->only_pid) {
			s->only_pid = 0;
			break;
		}
		s->only_pid = p;
	}
	return 0;
nomem:
	return oom(s);
}

void pebs_sym_close(struct pebs_sym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocs; i++) {
		if (s->procs[i].dwfl)
			dwfl_end(s->procs[i].dwfl);
		free(s->procs[i].refs);
	}
	free(s->procs);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	for (size_t i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	free(s->strs);
	for (size_t i = 0; i < s->nobjs; i++) {
		if (s->objs[i].elf)
			elf_end(s->objs[i].elf);
		free(s->objs[i].why);
		free(s->objs[i].file);
		free(s->objs[i].segs);
	}
	free(s->objs);
	free(s->oslot);
	free(s->cache);
	free(s->ips);
	free(s->maps);
	free(s->symfs);
	pebs_meta_free(s->meta);
	free(s);
}

size_t pebs_sym_notes(const struct pebs_sym *s, size_t i, const char **n)
{
	if (i < s->nnotes)
		*n = s->notes[i];
	return s->nnotes;
}

/* ------------------------------------------------------------ objects */

static int special(const char *path)
{
	return path[0] == '[' || strncmp(path, "//", 2) == 0 ||
	       strncmp(path, "/dev/", 5) == 0 || path[0] != '/';
}

/*
 * 1 when absolute @path names its file without a detour: no empty, "." or
 * ".." component.  Map paths come from the metadata, untrusted: "/../x"
 * would be looked up outside --symfs DIR, and "/./dev/x" or "/../dev/x"
 * would pass the /dev/ test of special() and open a device.  The kernel
 * writes none of these in /proc/PID/maps.
 */
static int plain_path(const char *path)
{
	for (const char *p = path; *p == '/';) {
		const char *e = strchrnul(p + 1, '/');
		size_t n = (size_t)(e - p - 1);
		if (!n || (p[1] == '.' && (n == 1 || (n == 2 && p[2] == '.'))))
			return 0;
		p = e;
	}
	return 1;
}

/* The build-id of @elf as lowercase hex in @hex (41 bytes), or "". */
static void elf_bid(Elf *elf, char *hex)
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &p);
	hex[0] = 0;
	for (ssize_t i = 0; i < n && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", ((const uint8_t *)p)[i]);
}

/*
 * Whether build-id @file (hex, of the ELF) is @cap (hex, of the capture).
 * A perf.data build-id event without PERF_RECORD_MISC_BUILD_ID_SIZE
 * (perf < 5.11) carries 20 bytes whatever the id's size: a shorter id
 * (16 bytes: --build-id=md5 or uuid) comes zero-padded.  Only a 40-digit
 * capture id is taken as padded, and only zeros past the file's id.
 */
static int bid_match(const char *file, const char *cap)
{
	size_t nf = strlen(file), nc = strlen(cap);
	if (nf == nc || nc != 40 || nf > nc || !nf)
		return strcmp(file, cap) == 0;
	return strncmp(file, cap, nf) == 0 &&
	       strspn(cap + nf, "0") == nc - nf;
}

/* The CRC-32 of .gnu_debuglink (zlib's) of the file @fd; 0 on error. */
static uint32_t file_crc(int fd)
{
	static uint32_t tab[256];
	uint8_t buf[65536];
	uint32_t c = 0xffffffffu;
	ssize_t n;
	if (!tab[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;
			for (int k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			tab[i] = v;
		}
	for (off_t at = 0; (n = pread(fd, buf, sizeof(buf), at)) > 0; at += n)
		for (ssize_t i = 0; i < n; i++)
			c = tab[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	return n < 0 ? 0 : c ^ 0xffffffffu;
}

/*
 * Opens debug file candidate @path of object @o, never blocking (a FIFO
 * or device there is refused): a regular file other than @o's own whose
 * build-id is @id (@nid bytes), or, with no id, whose CRC is @crc.  A
 * candidate that exists but is refused gets a note.  The fd, or -1.
 */
static int try_debug(struct pebs_sym *s, const struct obj *o,
		     const char *path, const unsigned char *id, int nid,
		     GElf_Word crc)
{
	struct stat st, own;
	const void *fid;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	const char *why = NULL;
	Elf *elf = NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (stat(o->file, &own) == 0 && own.st_dev == st.st_dev &&
		 own.st_ino == st.st_ino)
		why = "";	/* the binary itself: quietly not */
	else if (nid > 0 && !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) &&
		 elf_check(s))
		why = "";	/* out of memory: the lookup fails */
	else if (nid > 0 && (!elf ||
			     dwelf_elf_gnu_build_id(elf, &fid) != nid ||
			     memcmp(fid, id, (size_t)nid)))
		why = "its build-id differs";
	else if (nid <= 0 && file_crc(fd) != crc)
		why = "its CRC differs from .gnu_debuglink's";
	if (elf)
		elf_end(elf);
	if (!why)
		return fd;
	close(fd);
	if (*why)
		note(s, "%s: debug file %s: %s: not used", o->path, path, why);
	return -1;
}

/* The name of section @name's data in @file, its bytes in *@n, or NULL. */
static const char *altlink(struct pebs_sym *s, const char *file, char **buf,
			   size_t *n)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t shstr;
	*buf = NULL;
	if (fd >= 0 && !elf)
		elf_check(s);
	if (elf && elf_getshdrstrndx(elf, &shstr) == 0)
		for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
			GElf_Shdr sh;
			const char *nm;
			Elf_Data *d;
			if (!gelf_getshdr(scn, &sh) ||
			    !(nm = elf_strptr(elf, shstr, sh.sh_name)) ||
			    strcmp(nm, ".gnu_debugaltlink") ||
			    !(d = elf_getdata(scn, NULL)) || !d->d_size)
				continue;
			if ((*buf = malloc(d->d_size)))
				memcpy(*buf, d->d_buf, d->d_size);
			else
				oom(s);
			*n = d->d_size;
			break;
		}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return *buf;
}

/*
 * libdwfl's find_elf callback: the object's ELF, read once (obj_get()),
 * one more reference to it (libdwfl elf_end()s it with the module); no fd.
 */
static int find_elf(Dwfl_Module *mod, void **ud, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod;
	(void)modname;
	(void)base;
	const struct modref *ref = *ud;
	*elfp = NULL;
	if (!ref)
		return -1;
	const struct obj *o = &ref->s->objs[ref->obj];
	if (o->elf && !(*file_name = strdup(o->file)))
		oom(ref->s);	/* else a module without symbols */
	else if (o->elf && !(*elfp = elf_begin(-1, ELF_C_READ_MMAP, o->elf)) &&
		 !strcmp(elf_errmsg(-1), elf_errmsg(8)))
		oom(ref->s);	/* one more reference: no I/O */
	return -1;
}

/*
 * libdwfl's find_debuginfo callback, in place of its standard search:
 * never blocks on a FIFO or device (candidates open O_NONBLOCK, must be
 * regular files), follows a .gnu_debuglink name only when it is one file
 * name (no '/': nothing outside --symfs), checks the build-id (the CRC
 * without one), and queries no debuginfod server.  Where it looks, ROOT
 * being --symfs or "": ROOT/usr/lib/debug/.build-id/xx/yyyy.debug; then
 * the link name beside the binary, in .debug/ beside it, and in
 * ROOT/usr/lib/debug/DIR (DIR: the binary's directory in the capture).
 * A dwz alternate file (libdwfl asks with its .gnu_debugaltlink name) is
 * looked up by its build-id, or at ROOT/NAME for an absolute name.
 */
static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname,
			  GElf_Addr base, const char *file_name,
			  const char *link, GElf_Word crc, char **name)
{
	(void)modname;
	(void)base;
	const struct modref *ref = *ud;
	if (!ref)
		return -1;
	struct pebs_sym *s = ref->s;
	const struct obj *o = &s->objs[ref->obj];
	const char *root = s->symfs ? s->symfs : "";
	const unsigned char *id = NULL;
	GElf_Addr va;
	char *alt = NULL, *path[4] = { NULL, NULL, NULL, NULL }, hex[41];
	size_t nalt = 0, np = 0, nl = link ? strlen(link) : 0;
	int nid = dwfl_module_build_id(mod, &id, &va), fd = -1;
	if (link && file_name && altlink(s, file_name, &alt, &nalt) &&
	    nl + 1 < nalt && memcmp(alt, link, nl + 1) == 0) {
		id = (const unsigned char *)alt + nl + 1;
		nid = (int)(nalt - nl - 1);
		if (link[0] == '/' && plain_path(link))
			if (!(path[1] = fmt("%s%s", root, link)))
				oom(s);
		link = NULL;
	}
	for (int i = 1; i < nid && i <= 20; i++)
		snprintf(hex + 2 * (i - 1), 3, "%02x", id[i]);
	if (nid > 1 && !(path[0] = fmt("%s/usr/lib/debug/.build-id/%02x/"
				       "%.*s.debug", root, id[0],
				       2 * (nid > 21 ? 20 : nid - 1), hex)))
		oom(s);
	np = 2;
	if (link && (!*link || strchr(link, '/') || !strcmp(link, ".") ||
		     !strcmp(link, ".."))) {
		note(s, "%s: .gnu_debuglink %s is not a file name: not "
		     "followed", o->path, link);
		link = NULL;
	}
	if (link) {
		const char *sl = strrchr(o->file, '/'), *ol = strrchr(o->path,
								      '/');
		int d = sl ? (int)(sl - o->file) : 0;
		int od = ol ? (int)(ol - o->path) : 0;
		path[1] = fmt("%.*s/%s", d, o->file, link);
		path[2] = fmt("%.*s/.debug/%s", d, o->file, link);
		path[3] = fmt("%s/usr/lib/debug%.*s/%s", root, od, o->path,
			      link);
		np = 4;
		if (!path[1] || !path[2] || !path[3])
			oom(s);
	}
	/* out of memory: no candidate is tried, the lookup fails */
	for (size_t i = 0; i < np && fd < 0 && !s->nomem; i++)
		if (path[i] && (fd = try_debug(s, o, path[i], id, nid,
					       crc)) >= 0) {
			*name = path[i];
			path[i] = NULL;
		}
	for (size_t i = 0; i < 4; i++)
		free(path[i]);
	free(alt);
	return fd;
}

/* Whether @elf has a .symtab (a stripped file has .dynsym at most). */
static int has_symtab(Elf *elf)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return 1;
	}
	return 0;
}

/* @a + @n x @size, or UINT64_MAX when that does not fit */
static uint64_t sat_end(uint64_t a, uint64_t n, uint64_t size)
{
	if (size && n > UINT64_MAX / size)
		return UINT64_MAX;
	return a > UINT64_MAX - n * size ? UINT64_MAX : a + n * size;
}

/*
 * The bytes @elf must have for the tables its ELF header places and the
 * file part of its PT_LOAD segments.  A file shorter than that was cut
 * (a copy that did not finish): its section headers, at the end, are
 * gone, and it would read as stripped.
 */
static uint64_t elf_need(Elf *elf, const GElf_Ehdr *eh)
{
	size_t nph = 0;
	uint64_t need = 0, e;
	if (elf_getphdrnum(elf, &nph) == 0 && nph)
		need = sat_end(eh->e_phoff, nph, eh->e_phentsize);
	/*
	 * libelf counts no section of a cut file: the header's count (0
	 * when the count is in section 0, which has to be there then)
	 */
	uint64_t nsh = eh->e_shnum ? eh->e_shnum : 1;
	if (eh->e_shoff &&
	    (e = sat_end(eh->e_shoff, nsh, eh->e_shentsize)) > need)
		need = e;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (e = sat_end(ph.p_offset, ph.p_filesz, 1)) > need)
			need = e;
	}
	return need;
}

/* Reads the PT_LOAD segments of @elf into @o; returns 0 or -1 (memory). */
static int read_segs(struct obj *o, Elf *elf)
{
	size_t nph = 0;
	elf_getphdrnum(elf, &nph);
	o->segs = calloc(nph + 1, sizeof(*o->segs));
	if (!o->segs)
		return -1;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			o->segs[o->nsegs++] = (struct seg){
				ph.p_vaddr, ph.p_offset, ph.p_filesz,
				ph.p_memsz, ph.p_align };
	}
	return 0;
}

/*
 * Examines the file of map @m's object once: whether it can be used (the
 * reason why not is kept for a note), its segments.  Returns the object,
 * or NULL when out of memory.
 */
static struct obj *obj_get(struct pebs_sym *s, const struct smap *m)
{
	struct obj *o = obj_find(s, m->path);
	if (o)
		return o;
	char *file = fmt("%s%s", s->symfs ? s->symfs : "", m->path);
	if (!file)
		return NULL;
	char *why = NULL;
	int plain = plain_path(m->path);
	/* metadata may name a FIFO or a device: never block on one */
	int fd = plain ? open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	Elf *elf = NULL;
	struct stat st;
	GElf_Ehdr eh;
	char hex[41] = "";
	int usable = 0;
	uint64_t need;
	if (!plain)
		why = fmt("%s: a path with an empty, . or .. component: not "
			  "opened, its symbols read " PEBS_SYM_UNKNOWN,
			  m->path);
	else if (fd < 0)
		why = fmt("%s: not found%s%s: its symbols read "
			  PEBS_SYM_UNKNOWN, m->path,
			  s->symfs ? " under --symfs " : "",
			  s->symfs ? s->symfs : "");
	else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		why = fmt("%s: not a regular file", m->path);
	else if (!(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) ||
		 !gelf_getehdr(elf, &eh))
		why = elf_check(s) ? NULL : fmt("%s: not an ELF file",
						m->path);
	else if ((uint64_t)st.st_size < (need = elf_need(elf, &eh)))
		why = fmt("%s: truncated (%" PRIu64 " bytes, its ELF headers "
			  "need %" PRIu64 "): not used, its symbols read "
			  PEBS_SYM_UNKNOWN, m->path, (uint64_t)st.st_size,
			  need);
	else if (m->bid && !s->nocheck && (elf_bid(elf, hex),
					   !bid_match(hex, m->bid)))
		why = fmt("%s: build-id differs (file %s, capture %s): not "
			  "used, its symbols read " PEBS_SYM_UNKNOWN, m->path,
			  *hex ? hex : "none", m->bid);
	else
		usable = 1;
	/* a reason that could not be written would go without a note */
	o = usable || why ? obj_add(s, m->path, usable, why) : NULL;
	if (!o)
		oom(s);
	if (o && usable) {
		o->file = file;
		file = NULL;
		o->dyn = eh.e_type == ET_DYN;
		o->nosymtab = !has_symtab(elf);
		/* all of it in memory (mapped, else read), then no fd */
		if (elf_cntl(elf, ELF_C_FDREAD) == 0) {
			o->elf = elf;
			elf = NULL;
		} else if (elf_check(s)) {
			o = NULL;	/* reading it needed memory */
		}
		if (o && read_segs(o, elf ? elf : o->elf) < 0) {
			oom(s);
			o = NULL;
		}
	}
	free(file);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return o;
}

/*
 * The load biases map @m of usable object @o may have: what its addresses
 * add to the file's, one per segment holding file offset pgoff (none for
 * ET_EXEC, whose bias is 0).  Two segments can hold one page (the default
 * layout puts the end of the read-only segment and the start of the RW
 * one in the same file page, and Linux maps that page twice, at two
 * addresses): then the other maps of the load decide (load_bias()).
 * Stores at most @max in @b; returns how many there are.
 */
static size_t map_biases(const struct obj *o, const struct smap *m,
			 uint64_t *b, size_t max)
{
	size_t n = 0;
	if (!o->dyn)
		return 0;
	for (size_t i = 0; i < o->nsegs; i++) {
		const struct seg *g = &o->segs[i];
		if (m->pgoff >= (g->offset & ~0xfffull) &&
		    m->pgoff < g->offset + g->filesz && n++ < max)
			b[n - 1] = m->start - (g->vaddr - g->offset + m->pgoff);
	}
	return n;
}

/*
 * The load bias of map @i of process @p (object @o): its one candidate,
 * else the candidate that the nearest map of the same object in @p with
 * one candidate has (the pgoff 0 map has one, unless the RW segment
 * starts in the file's first page too), else the one it shares with the
 * nearest map of the object with several (a small file linked with
 * -z noseparate-code -z norelro: its pgoff 0 maps, the text and the data
 * one, have two each, and only one in common), else the first.  0 when
 * none (ET_EXEC, or no segment holds pgoff).
 */
static uint64_t load_bias(struct pebs_sym *s, const struct proc *p, size_t i,
			  const struct obj *o)
{
	uint64_t b[4], ob[4];
	const struct smap *m = &s->maps[i];
	size_t n = map_biases(o, m, b, 4), best = NONE, dist = NONE, rank = 0;
	if (n <= 1)
		return n ? b[0] : 0;
	n = n < 4 ? n : 4;
	for (size_t j = p->first; j < p->first + p->n; j++) {
		const struct smap *x = &s->maps[j];
		size_t d = j < i ? i - j : j - i, on, r;
		if (j == i || (rank == 2 && d >= dist) ||
		    strcmp(x->path, m->path))
			continue;
		on = map_biases(o, x, ob, 4);
		/* one candidate says more than several */
		r = on == 1 ? 2 : 1;
		if (!on || r < rank || (r == rank && d >= dist))
			continue;
		on = on < 4 ? on : 4;
		size_t hit = NONE;
		for (size_t k = 0; k < n && hit == NONE; k++)
			for (size_t q = 0; q < on; q++)
				if (b[k] == ob[q])
					hit = k;
		if (hit != NONE) {
			best = hit;
			dist = d;
			rank = r;
		}
	}
	return b[best == NONE ? 0 : best];
}

/* An object loaded at a bias in a process: one Dwfl module. */
struct load {
	size_t obj;
	uint64_t bias, pgoff;
	size_t seq;		/* of its first map in the metadata */
	size_t map;		/* index of one of its maps in s->maps */
	uint64_t lo, hi;	/* the addresses the module spans */
	int lost;		/* overlaps a load kept, earlier in the metadata */
	size_t won_by;		/* then the object of a kept load it overlaps */
};

static int load_cmp(const void *a, const void *b)
{
	const struct load *x = a, *y = b;
	int r = ucmp(x->obj, y->obj);
	if (!r)
		r = ucmp(x->bias, y->bias);
	if (!r)
		r = ucmp(x->pgoff, y->pgoff);
	return r ? r : ucmp(x->seq, y->seq);
}

static int load_seq_cmp(const void *a, const void *b)
{
	const struct load *x = *(struct load *const *)a;
	const struct load *y = *(struct load *const *)b;
	return ucmp(x->seq, y->seq);
}

/*
 * The first of the @n loads @held (disjoint, in address order) that
 * overlaps [@lo, @hi), or NULL.  Disjoint, they are in order of their
 * ends too: a binary search finds the first that ends after @lo.
 */
static struct load *held_at(struct load *const *held, size_t n, uint64_t lo,
			    uint64_t hi, size_t *at)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (held[mid]->hi <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	*at = a;
	return a < n && held[a]->lo < hi ? held[a] : NULL;
}

/*
 * Where loads overlap (two inputs of one pid that mapped different objects,
 * or one object at two biases, at the same addresses), the one read first
 * from the metadata is reported and the others are not: their maps say
 * so (over) and their addresses stay unresolved, rather than resolving
 * through an object they did not map.  In metadata order, each load is
 * kept unless it overlaps one kept before it, which it then lost to: a
 * load never loses to one that lost in turn, so the object its note names
 * holds addresses there.  @by has room for 2 @n pointers: the loads kept
 * end in its second half, in address order; returns their number.
 */
static size_t drop_overlaps(struct load *l, size_t n, struct load **by)
{
	struct load **held = by + n;
	size_t nh = 0, at;
	for (size_t i = 0; i < n; i++)
		by[i] = &l[i];
	qsort(by, n, sizeof(*by), load_seq_cmp);
	for (size_t i = 0; i < n; i++) {
		struct load *x = by[i], *win = held_at(held, nh, x->lo, x->hi,
						       &at);
		if (win) {
			x->lost = 1;
			x->won_by = win->obj;
			continue;
		}
		memmove(held + at + 1, held + at, (nh - at) * sizeof(*held));
		held[at] = x;
		nh++;
	}
	return nh;
}

/* Reports the loads of @p's maps to a new Dwfl; 0 or -PEBS_E_NOMEM. */
static int build_proc(struct pebs_sym *s, struct proc *p)
{
	p->built = 1;
	struct load *l = calloc(p->n + 1, sizeof(*l));
	size_t *of = calloc(p->n + 1, sizeof(*of));
	struct load **by = calloc(2 * (p->n + 1), sizeof(*by));
	int r = -PEBS_E_NOMEM;
	size_t n = 0;
	if (!l || !of || !by) {
		oom(s);
		goto out;
	}
	for (size_t i = 0; i < p->n; i++)
		of[i] = NONE;
	for (size_t i = p->first; i < p->first + p->n; i++) {
		const struct smap *m = &s->maps[i];
		if (special(m->path))
			continue;
		const struct obj *o = obj_get(s, m);
		if (!o)
			goto out;
		if (!o->usable)
			continue;
		l[n++] = (struct load){ (size_t)(o - s->objs),
					load_bias(s, p, i, o), m->pgoff,
					m->seq, i };
	}
	/* one load per (object, bias): the map of its lowest offset */
	qsort(l, n, sizeof(*l), load_cmp);
	size_t nl = 0;
	for (size_t i = 0; i < n; i++) {
		if (nl && l[nl - 1].obj == l[i].obj &&
		    l[nl - 1].bias == l[i].bias) {
			if (l[i].seq < l[nl - 1].seq)
				l[nl - 1].seq = l[i].seq;
			of[l[i].map - p->first] = nl - 1;
			continue;
		}
		l[nl] = l[i];
		of[l[i].map - p->first] = nl++;
	}
	for (size_t i = 0; i < nl; i++) {
		const struct obj *o = &s->objs[l[i].obj];
		l[i].lo = UINT64_MAX;
		for (size_t j = 0; j < o->nsegs; j++) {
			const struct seg *g = &o->segs[j];
			uint64_t lo = (g->vaddr & ~0xfffull) + l[i].bias;
			uint64_t hi = g->vaddr + g->memsz + l[i].bias;
			l[i].lo = lo < l[i].lo ? lo : l[i].lo;
			l[i].hi = hi > l[i].hi ? hi : l[i].hi;
		}
		if (l[i].lo > l[i].hi)
			l[i].lo = l[i].hi;
	}
	size_t nh = drop_overlaps(l, nl, by);
	/* every map of a load that lost says which object holds its
	 * addresses: the kept load over the map, else one over its load */
	for (size_t i = 0, at; i < p->n; i++) {
		if (of[i] == NONE || !l[of[i]].lost)
			continue;
		struct smap *m = &s->maps[p->first + i];
		const struct load *w = held_at(by + nl, nh, m->start, m->end,
					       &at);
		m->over = s->objs[w ? w->obj : l[of[i]].won_by].path;
	}
	p->refs = calloc(nl + 1, sizeof(*p->refs));
	if (!p->refs || !(p->dwfl = dwfl_begin(&s->cb))) {
		oom(s);	/* dwfl_begin() fails for memory only */
		goto out;
	}
	dwfl_errno();	/* what an earlier call left */
	dwfl_report_begin(p->dwfl);
	int any = 0;
	for (size_t i = 0; i < nl; i++) {
		if (l[i].lost)
			continue;
		const struct obj *o = &s->objs[l[i].obj];
		/*
		 * libdwfl places the module at low - (the first PT_LOAD's
		 * vaddr, aligned down), as dwfl_report_elf() would; its ELF
		 * comes from find_elf(), shared, without an fd.
		 */
		const struct seg *g = o->nsegs ? &o->segs[0] : NULL;
		uint64_t al = g && g->align ? g->align : 1;
		Dwfl_Module *mod = !o->elf || !g ? NULL :
			dwfl_report_module(p->dwfl, o->path,
					   (g->vaddr & ~(al - 1)) + l[i].bias,
					   l[i].hi);
		if (!mod) {
			int e = o->elf && g ? dwfl_errno() : 0;
			const char *why = !o->elf ? elf_errmsg(-1) :
					  e ? dwfl_errmsg(e) :
					  "no loadable segment";
			if (dw_is_nomem(e)) {
				oom(s);
				goto out;
			}
			note(s, "%s: cannot be reported to libdwfl (%s): its "
			     "symbols read " PEBS_SYM_UNKNOWN, o->path, why);
			continue;
		}
		void **ud;
		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		p->refs[i] = (struct modref){ s, l[i].obj };
		*ud = &p->refs[i];
		any = 1;
	}
	if (dwfl_report_end(p->dwfl, NULL, NULL) != 0) {
		oom(s);	/* it only allocates */
		goto out;
	}
	r = s->nomem ? -PEBS_E_NOMEM : 0;	/* a note, as well */
	if (!any) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
out:
	free(l);
	free(of);
	free(by);
	return r;
}

/*
 * The process @pid, its Dwfl built on first use; NULL (with *@err 0) when
 * no map has that pid, or with *@err set when out of memory.
 */
static struct proc *get_proc(struct pebs_sym *s, uint32_t pid, int *err)
{
	size_t lo = 0, hi = s->nprocs;
	*err = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nprocs || s->procs[lo].pid != pid)
		return NULL;
	struct proc *p = &s->procs[lo];
	if (!p->built && (*err = build_proc(s, p)) < 0)
		return NULL;
	return p;
}

/*
 * The map covering @addr in @pid, else a kernel (-1) map, or NULL.  Maps
 * may overlap or nest (a perf import keeps every mmap): the one starting
 * last wins.
 */
static struct smap *find_map(struct pebs_sym *s, uint32_t pid,
			     uint64_t addr)
{
	for (int pass = 0; pass < 2; pass++) {
		uint32_t p = pass ? UINT32_MAX : pid;
		size_t lo = 0, hi = s->nmaps;
		/* last map of pid p with start <= addr */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct smap *m = &s->maps[mid];
			if (m->pid < p || (m->pid == p && m->start <= addr))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo || s->maps[lo - 1].pid != p)
			continue;
		for (size_t i = lo - 1; i != NONE; i = s->maps[i].up)
			if (addr < s->maps[i].end)
				return &s->maps[i];
	}
	return NULL;
}

/*
 * Map @m covering @addr lost to an overlapping load (drop_overlaps()):
 * the latest map under it that was used and covers @addr, or NULL.  Only
 * conflicting maps come here, so a plain walk back is fine.
 */
static struct smap *used_map(struct pebs_sym *s, struct smap *m,
			     uint64_t addr)
{
	for (struct smap *x = m; x-- > s->maps && x->pid == m->pid;)
		if (!x->over && addr < x->end)
			return x;
	return NULL;
}

/*
 * For a module of an object without a .symtab: says once that its
 * symbols are limited unless libdwfl found a debug file for it.
 */
static void check_stripped(struct pebs_sym *s, Dwfl_Module *mod)
{
	void **ud;
	const char *debug = NULL;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	const struct modref *ref = *ud;
	if (!ref)
		return;
	struct obj *o = &s->objs[ref->obj];
	if (!o->nosymtab || o->noted)
		return;
	o->noted = 1;
	/* the symbol table search looks for the debug file too */
	if (dwfl_module_getsymtab(mod) < 0)
		dw_check(s);
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (!debug)
		note(s, "%s: no symbol table (stripped) and no debug file "
		     "found: only its dynamic symbols resolve", o->path);
}

/*
 * The sized symbol starting exactly at addr, a global one first, or NULL.
 * libdwfl prefers a global symbol to a local one at the same address even
 * when the global is a size-0 marker (__bss_start, _edata, __TMC_END__):
 * the first byte of a static variable placed there would then read as no
 * object.  Only a size-0 answer at offset 0 comes here, so the scan runs
 * for few addresses.
 */
static const char *sized_at(Dwfl_Module *mod, GElf_Addr addr, GElf_Sym *out)
{
	const char *best = NULL;
	int n = dwfl_module_getsymtab(mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr v;
		GElf_Word shndx = SHN_UNDEF;
		const char *nm = dwfl_module_getsym_info(mod, i, &sym, &v,
							 &shndx, NULL, NULL);
		int t = GELF_ST_TYPE(sym.st_info);
		if (!nm || !*nm || v != addr || !sym.st_size ||
		    shndx == SHN_UNDEF || t == STT_SECTION || t == STT_FILE ||
		    t == STT_TLS)
			continue;
		if (best && (GELF_ST_BIND(out->st_info) == STB_GLOBAL ||
			     GELF_ST_BIND(sym.st_info) != STB_GLOBAL))
			continue;
		best = nm;
		*out = sym;
	}
	return best;
}

/* pebs_sym_lookup(), but an allocation failing may go unsaid but in
 * s->nomem. */
static int lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr, int data,
		  struct pebs_sym_info *out)
{
	if (pid == 0 && s->only_pid)
		pid = s->only_pid;
	struct smap *m = find_map(s, pid, addr);
	if (m)
		out->dso = m->path;
	/* no map: maybe an instruction a built-in workload names */
	const struct wip *ins = m || data ? NULL : find_ip(s, addr);
	if (ins) {
		out->name = ins->fn;
		out->file = ins->what;
		return 1;
	}
	if (!s->nmaps && !s->nips && !s->nomaps_noted) {
		note(s, "no process maps in the metadata: sym, dso and "
		     "data_sym read " PEBS_SYM_UNKNOWN ", srcline ??:0");
		s->nomaps_noted = 1;
	}
	/* kernel space (perf's pid -1 maps): not resolved, said once */
	if (m && (m->pid == UINT32_MAX || strncmp(m->path, "[kernel", 7) ==
		  0)) {
		struct obj *o = obj_find(s, m->path);
		if (!o) {
			char *why = fmt("%s: kernel symbols are not resolved",
					m->path);
			if (!why || !(o = obj_add(s, m->path, 0, why)))
				return oom(s);
		}
		if (!o->noted && o->why) {
			note(s, "%s", o->why);
			o->noted = 1;
		}
		return 0;
	}
	int err;
	struct proc *p = get_proc(s, pid, &err);
	if (err < 0)
		return err;
	if (!p)
		return 0;
	if (m && m->over) {
		if (!m->noted)
			note(s, "%s: mapped in pid %" PRIu32 " at 0x%" PRIx64
			     "-0x%" PRIx64 " over %s, mapped there first (maps "
			     "of several inputs?): not used, its addresses "
			     "resolve through %s or read " PEBS_SYM_UNKNOWN,
			     m->path, m->pid, m->start, m->end, m->over,
			     m->over);
		m->noted = 1;
		struct smap *w = used_map(s, m, addr);
		if (!w)
			return 0;
		m = w;
		out->dso = m->path;
	}
	/* an object that could not be used: say why, once */
	struct obj *o = m && !special(m->path) ? obj_find(s, m->path) : NULL;
	if (o && !o->usable && !o->noted && o->why) {
		note(s, "%s", o->why);
		o->noted = 1;
	}
	if (!p->dwfl)
		return 0;
	/*
	 * dwfl_addrmodule() is this call, but returns its module
	 * uninitialised when the segment table cannot be allocated
	 * (elfutils 0.188): NULL here, and the error says so.
	 */
	Dwfl_Module *mod = NULL;
	dwfl_addrsegment(p->dwfl, addr, &mod);
	if (!mod) {
		dw_check(s);
		return 0;
	}
	/*
	 * The map decides: a module of another object reaching over it
	 * (this object could not be used, so its own module is missing)
	 * would name what was not mapped there.
	 */
	void **ud;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	const struct modref *ref = *ud;
	if (o && (!ref || ref->obj != (size_t)(o - s->objs)))
		return 0;
	check_stripped(s, mod);
	if (!out->dso)
		out->dso = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL,
					    NULL, NULL);
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL,
						NULL, NULL);
	if (!name)
		dw_check(s);
	if (name && data && !sym.st_size && off == 0) {
		const char *sized = sized_at(mod, addr, &sym);
		if (sized)
			name = sized;
	}
	/*
	 * A data address must fall inside a sized object, not just after
	 * one nor on a marker such as _end or __bss_start (size 0).
	 */
	if (name && data && (!sym.st_size || off >= sym.st_size))
		name = NULL;
	if (name) {
		out->name = name;
		out->off = off;
	}
	if (!data) {
		Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
		int line = 0;
		const char *f = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL,
						   NULL) : NULL;
		if (!f)
			dw_check(s);
		if (f) {
			out->file = f;
			out->line = line;
		}
	}
	return name != NULL;
}

int pebs_sym_lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr,
		    int data, struct pebs_sym_info *out)
{
	memset(out, 0, sizeof(*out));
	if (s->nomem)
		return -PEBS_E_NOMEM;
	dwfl_errno();	/* what an earlier call left */
	int r = lookup(s, pid, addr, data, out);
	if (s->nomem) {
		/* a name or note may be missing: nothing is the answer */
		memset(out, 0, sizeof(*out));
		return -PEBS_E_NOMEM;
	}
	return r;
}

int pebs_sym_error(const struct pebs_sym *s)
{
	return s && s->nomem ? -PEBS_E_NOMEM : 0;
}

/* ------------------------------------------------------------ strings */

static size_t chash(uint32_t pid, uint64_t addr, int f, size_t cap)
{
	uint64_t k = addr * 0x9e3779b97f4a7c15ull ^ (uint64_t)pid << 20 ^
		     (uint64_t)f;
	k ^= k >> 29;
	return (size_t)(k * 0xbf58476d1ce4e5b9ull >> 7) & (cap - 1);
}

static struct centry *cache_slot(struct pebs_sym *s, uint32_t pid,
				 uint64_t addr, int f)
{
	if ((s->cn + 1) * 2 > s->ccap) {
		size_t nc = s->ccap ? s->ccap * 2 : 1024;
		struct centry *t = malloc(nc * sizeof(*t));
		if (!t) {
			oom(s);
			return NULL;
		}
		for (size_t i = 0; i < nc; i++)
			t[i].field = -1;
		for (size_t i = 0; i < s->ccap; i++) {
			struct centry *e = &s->cache[i];
			if (e->field < 0)
				continue;
			size_t j = chash(e->pid, e->addr, e->field, nc);
			while (t[j].field >= 0)
				j = (j + 1) & (nc - 1);
			t[j] = *e;
		}
		free(s->cache);
		s->cache = t;
		s->ccap = nc;
	}
	size_t j = chash(pid, addr, f, s->ccap);
	while (s->cache[j].field >= 0) {
		struct centry *e = &s->cache[j];
		if (e->pid == pid && e->addr == addr && e->field == f)
			return e;
		j = (j + 1) & (s->ccap - 1);
	}
	return &s->cache[j];
}

/*
 * The command name of thread @tid of process @pid: comm.PID.TID, else
 * comm.PID, of the metadata (pid 0 as in pebs_sym_lookup()).
 */
static const char *comm_of(const struct pebs_sym *s, uint32_t pid,
			   uint32_t tid)
{
	char k[48];
	if (pid == 0 && s->only_pid)
		pid = s->only_pid;
	snprintf(k, sizeof(k), "comm.%" PRIu32 ".%" PRIu32, pid, tid);
	const char *v = pebs_meta_get(s->meta, k);
	if (!v || !*v) {
		snprintf(k, sizeof(k), "comm.%" PRIu32, pid);
		v = pebs_meta_get(s->meta, k);
	}
	return v && *v ? v : PEBS_SYM_UNKNOWN;
}

/* Field @f of @addr in @pid (comm: @addr is the tid), made anew. */
static const char *format(struct pebs_sym *s, uint32_t pid, uint64_t addr,
			  int f)
{
	struct pebs_sym_info in;
	if (f == PEBS_SYM_COMM)
		return comm_of(s, pid, (uint32_t)addr);
	if (pebs_sym_lookup(s, pid, addr, f == PEBS_SYM_DATA_SYM, &in) < 0)
		return NULL;
	char *str = NULL;
	int r = 0;
	switch (f) {
	case PEBS_SYM_SYM:
	case PEBS_SYM_DATA_SYM:
		if (!in.name)
			return PEBS_SYM_UNKNOWN;
		r = in.off ? asprintf(&str, "%s+0x%llx", in.name,
				      (unsigned long long)in.off) :
			     asprintf(&str, "%s", in.name);
		break;
	case PEBS_SYM_DSO:
		return in.dso ? in.dso : PEBS_SYM_UNKNOWN;
	case PEBS_SYM_SRCLINE: {
		if (!in.file)
			return "??:0";
		if (!in.dso)
			return in.file;	/* a workload's: what it does */
		const char *base = strrchr(in.file, '/');
		r = asprintf(&str, "%s:%d", base ? base + 1 : in.file,
			     in.line);
		break;
	}
	default:
		return PEBS_SYM_UNKNOWN;
	}
	return r < 0 ? NULL : keep(s, str);
}

/*
 * The name part of "name+0x1a" (a name may itself hold '+', as C++
 * operator+ does: only a trailing "+0x<hex>" is an offset).
 */
static const char *strip_off(struct pebs_sym *s, const char *str)
{
	const char *plus = strrchr(str, '+');
	if (!plus || plus == str || strncmp(plus, "+0x", 3) ||
	    !plus[3] || strspn(plus + 3, "0123456789abcdef") !=
	    strlen(plus + 3))
		return str;
	return keep(s, strndup(str, (size_t)(plus - str)));
}

/* Cached field @f (keys: f + PEBS_SYM_COUNT) of @addr in @pid. */
static const char *cached(struct pebs_sym *s, uint32_t pid, uint64_t addr,
			  int f)
{
	if (s->nomem)
		return NULL;
	struct centry *e = cache_slot(s, pid, addr, f);
	if (e && e->field >= 0)
		return e->str;
	const char *str = NULL;
	if (f >= PEBS_SYM_COUNT) {
		int base = f - PEBS_SYM_COUNT;
		str = cached(s, pid, addr, base);
		if (str && (base == PEBS_SYM_SYM || base == PEBS_SYM_DATA_SYM))
			str = strip_off(s, str);
	} else if (e) {
		str = format(s, pid, addr, f);
	}
	/* the lookup may have grown the cache: find the slot again */
	if (!str || !(e = cache_slot(s, pid, addr, f))) {
		oom(s);	/* not "[unknown]": the name was there */
		return NULL;
	}
	*e = (struct centry){ addr, pid, f, str };
	s->cn++;
	return str;
}

/* What field @f of sample @i is resolved from, besides its pid. */
static uint64_t sample_key(const struct pebs_batch *b, size_t i, int f)
{
	switch (f) {
	case PEBS_SYM_DATA_SYM: return b->c64[PEBS_COL_ADDR][i];
	case PEBS_SYM_COMM: return b->c32[PEBS_COL_TID][i];
	default: return b->c64[PEBS_COL_IP][i];
	}
}

const char *pebs_sym_str(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f)
{
	if (f < 0 || f >= PEBS_SYM_COUNT || i >= b->n)
		return s->nomem ? NULL : PEBS_SYM_UNKNOWN;
	return cached(s, b->c32[PEBS_COL_PID][i], sample_key(b, i, f), f);
}

const char *pebs_sym_key(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f)
{
	if (f < 0 || f >= PEBS_SYM_COUNT || i >= b->n)
		return s->nomem ? NULL : PEBS_SYM_UNKNOWN;
	return cached(s, b->c32[PEBS_COL_PID][i], sample_key(b, i, f),
		      f + PEBS_SYM_COUNT);
}

const char *pebs_sym_dso(struct pebs_sym *s, uint32_t pid, uint64_t addr)
{
	if (pid == 0 && s->only_pid)
		pid = s->only_pid;
	if (s->nomem)
		return NULL;
	struct smap *m = find_map(s, pid, addr);
	int err;
	/* a lost map (see used_map()) is known once the process is built */
	if (m && m->pid != UINT32_MAX && get_proc(s, pid, &err) && m->over) {
		struct smap *w = used_map(s, m, addr);
		return (w ? w : m)->path;
	}
	/* not built for want of memory: whether m lost is not known */
	return m && !s->nomem ? m->path : NULL;
}

size_t pebs_sym_nmaps(const struct pebs_sym *s)
{
	return s->nmaps;
}

/*
 * The next entry of @m at or after *@i that a symbolizer reads (maps.*,
 * workload.ips.*, comm.*), or 0 at the end.
 */
static int next_map_entry(const struct pebs_meta *m, size_t *i,
			  const char **k, const char **v)
{
	size_t n = m ? pebs_meta_count(m) : 0;
	for (; *i < n; (*i)++) {
		pebs_meta_entry(m, *i, k, v);
		if (strncmp(*k, "maps.", 5) == 0 ||
		    strncmp(*k, "workload.ips.", 13) == 0 ||
		    strncmp(*k, "comm.", 5) == 0) {
			(*i)++;
			return 1;
		}
	}
	return 0;
}

int pebs_sym_same_maps(const struct pebs_sym *s, const struct pebs_meta *m)
{
	size_t i = 0, j = 0;
	for (;;) {
		const char *k1, *v1, *k2, *v2;
		int a = next_map_entry(s->meta, &i, &k1, &v1);
		int b = next_map_entry(m, &j, &k2, &v2);
		if (a != b)
			return 0;
		if (!a)
			return 1;
		if (strcmp(k1, k2) || strcmp(v1, v2))
			return 0;
	}
}
