/*
 * capture_maps.c - the process maps and build-ids a capture records in
 * the file's metadata (maps.N.pid/start/end/pgoff/path/build_id), with
 * the keys and exclusions of pebs-import -f perf (formats/perf-import.md),
 * so that the symbol library (pebs_sym.h) resolves captured samples.
 * Sources: /proc/PID/maps of a live process (hardware backends), the
 * `map`/`build-id` lines of a libpebs-trace trace (sim).  Also the command
 * names of a -- COMMAND (comm.PID, comm.PID.TID, pebs-import's keys), so
 * that reports and perf exports name the process.
 */
#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_int.h"
#include "meta_int.h"

int cmaps_useless(const char *path)
{
	/* pebs-import's list (meta_map_useless()), and what has no file */
	if (!path || !*path || path[0] != '/' || meta_map_useless(path))
		return 1;	/* [vdso], [vvar]: no file to read */
	/* A file deleted since it was mapped cannot be read later. */
	size_t n = strlen(path);
	return n > 10 && strcmp(path + n - 10, " (deleted)") == 0;
}

int cmaps_build_id(const char *path, char hex[41])
{
	static int ver;
	const void *p;
	ssize_t n = -1;
	struct stat sb;
	int fd;
	Elf *elf;

	hex[0] = 0;
	if (!ver) {
		elf_version(EV_CURRENT);
		ver = 1;
	}
	/* The path may come from a trace file: never block on a FIFO or
	 * read a device, only regular files. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -2;
	}
	n = dwelf_elf_gnu_build_id(elf, &p);
	for (ssize_t i = 0; i < n && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", ((const uint8_t *)p)[i]);
	elf_end(elf);
	close(fd);
	return n > 0 ? 0 : -1;
}

/* The index of @path's build-id entry (looked up once per path), or -1. */
static long bid_of(struct cmaps *m, const char *path,
			  const char *given)
{
	for (size_t i = 0; i < m->nbid; i++)
		if (!strcmp(m->bid[i].path, path)) {
			if (given && *given && !m->bid[i].hex[0])
				snprintf(m->bid[i].hex, 41, "%s", given);
			return (long)i;
		}
	if (m->nbid == m->capbid) {
		size_t nc = m->capbid ? 2 * m->capbid : 16;
		void *nb = realloc(m->bid, nc * sizeof(*m->bid));
		if (!nb)
			return -1;
		m->bid = nb;
		m->capbid = nc;
	}
	struct cmaps_bid *b = &m->bid[m->nbid];
	b->path = strdup(path);
	if (!b->path)
		return -1;
	b->notelf = 0;
	if (given && *given)
		snprintf(b->hex, sizeof(b->hex), "%s", given);
	else
		b->notelf = cmaps_build_id(path, b->hex) == -2;
	return (long)m->nbid++;
}

int cmaps_add(struct cmaps *m, int32_t pid, uint64_t start, uint64_t end,
	      uint64_t pgoff, const char *path, const char *bid)
{
	if (end <= start || cmaps_useless(path))
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct cmaps_map *x = &m->v[i];
		if (x->pid == pid && x->start == start && x->end == end &&
		    x->pgoff == pgoff && !strcmp(x->path, path))
			return 0;
	}
	if (m->n >= CMAPS_MAX) {
		m->truncated = 1;
		return 0;
	}
	if (m->n == m->cap) {
		size_t nc = m->cap ? 2 * m->cap : 32;
		void *nv = realloc(m->v, nc * sizeof(*m->v));
		if (!nv)
			return -PEBS_E_NOMEM;
		m->v = nv;
		m->cap = nc;
	}
	long bi = bid_of(m, path, bid);
	if (bi < 0)
		return -PEBS_E_NOMEM;
	/* A data file (locale archive, fonts): no symbols, only notes. */
	if (m->bid[bi].notelf)
		return 0;
	char *p = strdup(path);
	if (!p)
		return -PEBS_E_NOMEM;
	m->v[m->n++] = (struct cmaps_map){ pid, start, end, pgoff, p,
					     (size_t)bi };
	return 1;
}

int cmaps_read_proc(struct cmaps *m, const char *root, int pid)
{
	char fn[4200], *l = NULL;
	size_t cap = 0;
	int added = 0, r = 0;
	FILE *f;

	snprintf(fn, sizeof(fn), "%s/proc/%d/maps", root ? root : "", pid);
	f = fopen(fn, "re");
	if (!f)
		return -PEBS_E_IO;
	while (r >= 0 && getline(&l, &cap, f) > 0) {
		unsigned long long s, e, off;
		char perm[8];
		int pos = 0;
		if (sscanf(l, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perm,
			   &off, &pos) < 4 || !pos)
			continue;
		l[strcspn(l, "\n")] = 0;
		r = cmaps_add(m, pid, s, e, off, l + pos, NULL);
		added += r > 0;
	}
	free(l);
	fclose(f);
	return r < 0 ? r : added;
}

int cmaps_meta(const struct cmaps *m, struct pebs_meta *meta)
{
	char k[64];
	int r = 0;

	for (size_t i = 0; i < m->n && !r; i++) {
		const struct cmaps_map *x = &m->v[i];
#define MK(f) (snprintf(k, sizeof(k), "maps.%zu." f, i), k)
		r |= pebs_meta_setf(meta, MK("pid"), "%d", (int)x->pid);
		r |= pebs_meta_setf(meta, MK("start"), "0x%llx",
				    (unsigned long long)x->start);
		r |= pebs_meta_setf(meta, MK("end"), "0x%llx",
				    (unsigned long long)x->end);
		r |= pebs_meta_setf(meta, MK("pgoff"), "0x%llx",
				    (unsigned long long)x->pgoff);
		r |= pebs_meta_set(meta, MK("path"), x->path);
		if (m->bid[x->bidx].hex[0])
			r |= pebs_meta_set(meta, MK("build_id"),
					   m->bid[x->bidx].hex);
#undef MK
	}
	if (!r && m->truncated)
		r = pebs_meta_set(meta, "maps_truncated", "1");
	return r ? -PEBS_E_NOMEM : 0;
}

void cmaps_comm_name(const char *cmd, char name[CMAPS_COMM_LEN])
{
	const char *base = strrchr(cmd, '/');
	snprintf(name, CMAPS_COMM_LEN, "%s", base ? base + 1 : cmd);
}

/* The one line of the comm file @fn into @name: 0, or -1 (none). */
static int read_comm(const char *fn, char name[CMAPS_COMM_LEN])
{
	FILE *f = fopen(fn, "re");
	if (!f)
		return -1;
	char *ok = fgets(name, CMAPS_COMM_LEN, f);
	fclose(f);
	if (!ok)
		return -1;
	name[strcspn(name, "\n")] = 0;
	return name[0] ? 0 : -1;
}

int cmaps_comm(struct pebs_meta *meta, const char *root, int pid, int live,
	       const char *cmd)
{
	char fn[4200], name[CMAPS_COMM_LEN], k[48];
	int r = 0;

	snprintf(k, sizeof(k), "comm.%d", pid);
	snprintf(fn, sizeof(fn), "%s/proc/%d/comm", root ? root : "", pid);
	if (live && read_comm(fn, name) == 0) {
		r = pebs_meta_set(meta, k, name);
	} else if (!pebs_meta_get(meta, k) && cmd) {
		cmaps_comm_name(cmd, name);
		if (name[0])
			r = pebs_meta_set(meta, k, name);
	}
	if (r < 0 || !live)
		return r < 0 ? -PEBS_E_NOMEM : 0;
	/* Its threads (the main one is comm.PID): those alive now. */
	snprintf(fn, sizeof(fn), "%s/proc/%d/task", root ? root : "", pid);
	DIR *d = opendir(fn);
	struct dirent *de;
	while (d && r >= 0 && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || tid <= 0 || tid == pid)
			continue;
		snprintf(fn, sizeof(fn), "%s/proc/%d/task/%ld/comm",
			 root ? root : "", pid, tid);
		if (read_comm(fn, name) < 0)
			continue;
		snprintf(k, sizeof(k), "comm.%d.%ld", pid, tid);
		r = pebs_meta_set(meta, k, name);
	}
	if (d)
		closedir(d);
	return r < 0 ? -PEBS_E_NOMEM : 0;
}

void cmaps_free(struct cmaps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	for (size_t i = 0; i < m->nbid; i++)
		free(m->bid[i].path);
	free(m->v);
	free(m->bid);
	memset(m, 0, sizeof(*m));
}
