/*
 * sym.c - symbols through elfutils libdwfl, from the maps.N.* metadata of a
 * capture.  One Dwfl per process, built on first use: every mapped ELF
 * file of the process is reported at its load bias (computed from the map
 * start and file offset), after checking its build-id against the one the
 * capture recorded.
 */
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pebs_sym.h"

struct smap {
	uint32_t pid;
	uint64_t start, end, pgoff;
	const char *path;	/* owned by the metadata copy */
	const char *bid;	/* hex, or NULL */
};

struct proc {
	uint32_t pid;
	Dwfl *dwfl;		/* NULL when no object could be reported */
};

/*
 * Per object file: checked once, then reused by every process.  Why an
 * object cannot be used becomes a note only when a looked-up address
 * falls in it, so objects no sample touches stay quiet.
 */
struct obj {
	const char *path;
	int usable;		/* 1 ok, 0 not usable (why says why) */
	int noted;
	char *why;		/* malloc'd, or NULL */
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
	struct proc *procs;
	size_t nprocs;
	size_t lastp;		/* index of the last process looked up */
	struct obj *objs;
	size_t nobjs;
	char *symfs;
	int nocheck;
	char *dbgpath;
	Dwfl_Callbacks cb;
	char **notes;
	size_t nnotes;
	char **strs;		/* every string handed out */
	size_t nstrs, capstrs;
	struct centry *cache;
	size_t ccap, cn;
};

static const char *const field_names[PEBS_SYM_COUNT] = {
	"sym", "dso", "srcline", "data_sym",
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

/* Keeps @str (malloc'd) until close; returns it, or NULL (freed). */
static const char *keep(struct pebs_sym *s, char *str)
{
	if (!str)
		return NULL;
	if (s->nstrs == s->capstrs) {
		size_t nc = s->capstrs ? s->capstrs * 2 : 64;
		char **np = realloc(s->strs, nc * sizeof(*np));
		if (!np) {
			free(str);
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
	char *n;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&n, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	char **np = realloc(s->notes, (s->nnotes + 1) * sizeof(*np));
	if (!np) {
		free(n);
		return;
	}
	s->notes = np;
	s->notes[s->nnotes++] = n;
}

static struct obj *obj_find(struct pebs_sym *s, const char *path)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i].path, path) == 0)
			return &s->objs[i];
	return NULL;
}

/* Records object @path (@why: malloc'd reason, or NULL; taken). */
static void obj_add(struct pebs_sym *s, const char *path, int usable,
		    char *why)
{
	struct obj *no = realloc(s->objs, (s->nobjs + 1) * sizeof(*no));
	if (!no) {
		free(why);
		return;
	}
	s->objs = no;
	s->objs[s->nobjs++] = (struct obj){ path, usable, 0, why };
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

static int map_cmp(const void *a, const void *b)
{
	const struct smap *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static uint64_t num(const char *v)
{
	return v ? strtoull(v, NULL, 0) : 0;
}

static const char *mget(const struct pebs_meta *m, const char *what,
			size_t i)
{
	char k[64];
	snprintf(k, sizeof(k), "maps.%zu.%s", i, what);
	return pebs_meta_get(m, k);
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
		s->symfs = strdup(opts->symfs);
		if (!s->symfs || asprintf(&s->dbgpath,
					  ":.debug:%s/usr/lib/debug",
					  opts->symfs) < 0)
			goto nomem;
	}
	s->nocheck = opts && opts->no_build_id_check;
	elf_version(EV_CURRENT);
	s->cb.find_elf = dwfl_build_id_find_elf;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.debuginfo_path = s->dbgpath ? &s->dbgpath : NULL;
	size_t n = 0;
	while (mget(s->meta, "path", n))
		n++;
	s->maps = calloc(n + 1, sizeof(*s->maps));
	if (!s->maps)
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		struct smap *m = &s->maps[s->nmaps];
		const char *pid = mget(s->meta, "pid", i);
		m->pid = pid ? (uint32_t)strtol(pid, NULL, 0) : 0;
		m->start = num(mget(s->meta, "start", i));
		m->end = num(mget(s->meta, "end", i));
		m->pgoff = num(mget(s->meta, "pgoff", i));
		m->path = mget(s->meta, "path", i);
		m->bid = mget(s->meta, "build_id", i);
		if (m->end > m->start)
			s->nmaps++;
	}
	qsort(s->maps, s->nmaps, sizeof(*s->maps), map_cmp);
	/* One user process (kernel maps have pid -1): samples without a pid
	 * (raw PEBS records carry none) belong to it. */
	for (size_t i = 0; i < s->nmaps; i++) {
		uint32_t p = s->maps[i].pid;
		if (p == UINT32_MAX || p == s->only_pid)
			continue;
		if (s->only_pid) {
			s->only_pid = 0;
			break;
		}
		s->only_pid = p;
	}
	return 0;
nomem:
	return -PEBS_E_NOMEM;
}

void pebs_sym_close(struct pebs_sym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].dwfl)
			dwfl_end(s->procs[i].dwfl);
	free(s->procs);
	for (size_t i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	for (size_t i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	free(s->strs);
	for (size_t i = 0; i < s->nobjs; i++)
		free(s->objs[i].why);
	free(s->objs);
	free(s->cache);
	free(s->maps);
	free(s->symfs);
	free(s->dbgpath);
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
 * Opens the file of map @m and computes its load bias; returns the file
 * descriptor (>= 0) with *@bias set, or -1 (a note says why, once per
 * object).
 */
static int open_obj(struct pebs_sym *s, const struct smap *m,
		    uint64_t *bias, char *file, size_t flen)
{
	struct obj *o = obj_find(s, m->path);
	char *why = NULL;
	if (o && !o->usable)
		return -1;
	snprintf(file, flen, "%s%s", s->symfs ? s->symfs : "", m->path);
	/* metadata may name a FIFO or a device: never block on one */
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int usable = fd >= 0;
	Elf *elf = NULL;
	struct stat st;
	if (!usable) {
		if (!o)
			why = fmt("%s: not found%s%s: its symbols read "
				  PEBS_SYM_UNKNOWN, m->path,
				  s->symfs ? " under --symfs " : "",
				  s->symfs ? s->symfs : "");
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (!o)
			why = fmt("%s: not a regular file", m->path);
		usable = 0;
	} else {
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		GElf_Ehdr eh;
		if (!elf || !gelf_getehdr(elf, &eh)) {
			if (!o)
				why = fmt("%s: not an ELF file", m->path);
			usable = 0;
		}
	}
	char hex[41] = "";
	if (usable && m->bid && !s->nocheck) {
		elf_bid(elf, hex);
		if (strcmp(hex, m->bid) != 0) {
			if (!o)
				why = fmt("%s: build-id differs (file %s, "
					  "capture %s): not used, its symbols "
					  "read " PEBS_SYM_UNKNOWN, m->path,
					  *hex ? hex : "none", m->bid);
			usable = 0;
		}
	}
	*bias = 0;
	if (usable) {
		GElf_Ehdr eh;
		gelf_getehdr(elf, &eh);
		size_t nph = 0;
		elf_getphdrnum(elf, &nph);
		if (eh.e_type == ET_DYN) {
			/* the segment that holds file offset pgoff */
			for (size_t i = 0; i < nph; i++) {
				GElf_Phdr ph;
				if (!gelf_getphdr(elf, (int)i, &ph) ||
				    ph.p_type != PT_LOAD)
					continue;
				uint64_t lo = ph.p_offset & ~0xfffull;
				if (m->pgoff >= lo &&
				    m->pgoff < ph.p_offset + ph.p_filesz) {
					*bias = m->start - (ph.p_vaddr -
						ph.p_offset + m->pgoff);
					break;
				}
			}
		}
	}
	if (elf)
		elf_end(elf);
	if (!o)
		obj_add(s, m->path, usable, why);
	if (!usable && fd >= 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static struct proc *get_proc(struct pebs_sym *s, uint32_t pid)
{
	/* samples come in runs of one process: try the last one first */
	if (s->lastp < s->nprocs && s->procs[s->lastp].pid == pid)
		return &s->procs[s->lastp];
	for (size_t i = 0; i < s->nprocs; i++) {
		if (s->procs[i].pid == pid) {
			s->lastp = i;
			return &s->procs[i];
		}
	}
	struct proc *np = realloc(s->procs, (s->nprocs + 1) * sizeof(*np));
	if (!np)
		return NULL;
	s->procs = np;
	struct proc *p = &s->procs[s->nprocs++];
	p->pid = pid;
	p->dwfl = dwfl_begin(&s->cb);
	if (!p->dwfl)
		return p;
	dwfl_report_begin(p->dwfl);
	int any = 0;
	for (size_t i = 0; i < s->nmaps; i++) {
		const struct smap *m = &s->maps[i];
		if (m->pid != pid)
			continue;
		if (special(m->path))
			continue;
		/* one report per file: the map of its lowest offset */
		int dup = 0;
		for (size_t j = 0; j < s->nmaps && !dup; j++)
			dup = s->maps[j].pid == pid && j != i &&
			      strcmp(s->maps[j].path, m->path) == 0 &&
			      (s->maps[j].pgoff < m->pgoff ||
			       (s->maps[j].pgoff == m->pgoff && j < i));
		if (dup)
			continue;
		char file[4096];
		uint64_t bias;
		int fd = open_obj(s, m, &bias, file, sizeof(file));
		if (fd < 0)
			continue;
		if (dwfl_report_elf(p->dwfl, m->path, file, fd, bias, true))
			any = 1;
		else
			close(fd);
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!any) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	return p;
}

/* The map covering @addr in @pid, else a kernel (-1) map, or NULL. */
static const struct smap *find_map(const struct pebs_sym *s, uint32_t pid,
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
		for (size_t i = lo; i-- > 0;) {
			const struct smap *m = &s->maps[i];
			if (m->pid != p)
				break;
			if (addr < m->end)
				return m;
			/* maps may overlap: look a few further back */
			if (lo - i > 16)
				break;
		}
	}
	return NULL;
}

int pebs_sym_lookup(struct pebs_sym *s, uint32_t pid, uint64_t addr,
		    int data, struct pebs_sym_info *out)
{
	memset(out, 0, sizeof(*out));
	if (pid == 0 && s->only_pid)
		pid = s->only_pid;
	const struct smap *m = find_map(s, pid, addr);
	if (m)
		out->dso = m->path;
	/* kernel space (perf's pid -1 maps): not resolved, said once */
	if (m && (m->pid == UINT32_MAX || strncmp(m->path, "[kernel", 7) ==
		  0)) {
		struct obj *o = obj_find(s, m->path);
		if (!o) {
			obj_add(s, m->path, 0, fmt("%s: kernel symbols are not "
						   "resolved", m->path));
			o = obj_find(s, m->path);
		}
		if (o && !o->noted && o->why) {
			note(s, "%s", o->why);
			o->noted = 1;
		}
		return 0;
	}
	struct proc *p = get_proc(s, pid);
	if (!p)
		return -PEBS_E_NOMEM;
	/* an object that could not be used: say why, once */
	struct obj *o = m && !special(m->path) ? obj_find(s, m->path) : NULL;
	if (o && !o->usable && !o->noted && o->why) {
		note(s, "%s", o->why);
		o->noted = 1;
	}
	if (!p->dwfl)
		return 0;
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	if (!mod)
		return 0;
	if (!out->dso)
		out->dso = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL,
					    NULL, NULL);
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL,
						NULL, NULL);
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
		if (f) {
			out->file = f;
			out->line = line;
		}
	}
	return name != NULL;
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
		if (!t)
			return NULL;
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

static const char *format(struct pebs_sym *s, uint32_t pid, uint64_t addr,
			  int f)
{
	struct pebs_sym_info in;
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
	struct centry *e = cache_slot(s, pid, addr, f);
	if (e && e->field >= 0)
		return e->str;
	const char *str;
	if (f >= PEBS_SYM_COUNT) {
		int base = f - PEBS_SYM_COUNT;
		str = cached(s, pid, addr, base);
		if (base == PEBS_SYM_SYM || base == PEBS_SYM_DATA_SYM)
			str = strip_off(s, str);
	} else {
		str = format(s, pid, addr, f);
	}
	if (!str)
		return PEBS_SYM_UNKNOWN;	/* out of memory: not cached */
	/* the lookup may have grown the cache: find the slot again */
	e = cache_slot(s, pid, addr, f);
	if (e) {
		*e = (struct centry){ addr, pid, f, str };
		s->cn++;
	}
	return str;
}

const char *pebs_sym_str(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f)
{
	if (f < 0 || f >= PEBS_SYM_COUNT || i >= b->n)
		return PEBS_SYM_UNKNOWN;
	return cached(s, b->c32[PEBS_COL_PID][i], f == PEBS_SYM_DATA_SYM ?
		      b->c64[PEBS_COL_ADDR][i] : b->c64[PEBS_COL_IP][i], f);
}

const char *pebs_sym_key(struct pebs_sym *s, const struct pebs_batch *b,
			 size_t i, int f)
{
	if (f < 0 || f >= PEBS_SYM_COUNT || i >= b->n)
		return PEBS_SYM_UNKNOWN;
	return cached(s, b->c32[PEBS_COL_PID][i], f == PEBS_SYM_DATA_SYM ?
		      b->c64[PEBS_COL_ADDR][i] : b->c64[PEBS_COL_IP][i],
		      f + PEBS_SYM_COUNT);
}

const char *pebs_sym_dso(struct pebs_sym *s, uint32_t pid, uint64_t addr)
{
	if (pid == 0 && s->only_pid)
		pid = s->only_pid;
	const struct smap *m = find_map(s, pid, addr);
	return m ? m->path : NULL;
}

size_t pebs_sym_nmaps(const struct pebs_sym *s)
{
	return s->nmaps;
}

/* The next maps.* entry of @m at or after *@i, or 0 at the end. */
static int next_map_entry(const struct pebs_meta *m, size_t *i,
			  const char **k, const char **v)
{
	size_t n = m ? pebs_meta_count(m) : 0;
	for (; *i < n; (*i)++) {
		pebs_meta_entry(m, *i, k, v);
		if (strncmp(*k, "maps.", 5) == 0) {
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
