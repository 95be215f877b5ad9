/*
 * perf.data parser against Linux perf itself: the real Skylake-SP capture
 * (testdata/perf/skx-load-latency.perf.data) must give, sample by sample,
 * the pid, tid, cpu, time, ip, addr, weight and data_src that
 * `perf script --ns -F pid,tid,cpu,time,ip,addr,weight,data_src` printed
 * (perf 6.1, stored as testdata/perf/skx-load-latency.script).  Also the
 * metadata taken from its header features, and the same checks through
 * pebs-import's library entry point and a pipe.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pebs_format.h"
#include "pebs_perf.h"

#define REAL "testdata/perf/skx-load-latency.perf.data"
#define GOLD "testdata/perf/skx-load-latency.script"

struct gold {
	uint32_t pid, tid, cpu, weight;
	uint64_t time, ip, addr, dsrc;
};

/* Parses perf script's line: "PID/TID [CPU] S.NS: ADDR DSRC |...| W IP". */
static size_t load_gold(struct gold *g, size_t cap)
{
	FILE *fp = fopen(GOLD, "r");
	cr_assert_not_null(fp, "cannot open %s", GOLD);
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), fp) && n < cap) {
		unsigned long long s, ns, addr, dsrc, ip;
		unsigned pid, tid, cpu, w;
		int k = sscanf(line, " %u/%u [%u] %llu.%llu: %llx %llx", &pid,
			       &tid, &cpu, &s, &ns, &addr, &dsrc);
		cr_assert_eq(k, 7, "bad golden line: %s", line);
		/* weight and ip follow the last '|' of the data_src text */
		char *bar = strrchr(line, '|');
		cr_assert_not_null(bar);
		const char *p = strchr(bar, ' ');
		cr_assert_not_null(p);
		cr_assert_eq(sscanf(p, " %*s %u %llx", &w, &ip), 2,
			     "bad tail: %s", p);
		g[n++] = (struct gold){ pid, tid, cpu, w,
					s * 1000000000ull + ns, ip, addr,
					dsrc };
	}
	fclose(fp);
	return n;
}

static void check_samples(FILE *fp)
{
	struct gold g[64];
	size_t ng = load_gold(g, 64);
	cr_assert_eq(ng, 14);
	struct pebs_perf_reader *r;
	int e = pebs_perf_reader_open(&r, fp, "real", NULL);
	cr_assert_eq(e, 0, "open: %s", pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	size_t i = 0;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		cr_assert_eq(it.kind, PEBS_PERF_SAMPLE);
		cr_assert_lt(i, ng);
		const struct pebs_sample *s = &it.s;
		cr_expect_eq(s->pid, g[i].pid, "sample %zu pid", i);
		cr_expect_eq(s->tid, g[i].tid, "sample %zu tid", i);
		cr_expect_eq(s->cpu, g[i].cpu, "sample %zu cpu", i);
		cr_expect_eq(s->time, g[i].time, "sample %zu time", i);
		cr_expect_eq(s->ip, g[i].ip, "sample %zu ip", i);
		cr_expect_eq(s->addr, g[i].addr, "sample %zu addr", i);
		cr_expect_eq(s->lat, g[i].weight, "sample %zu weight", i);
		cr_expect_eq(s->dsrc, g[i].dsrc, "sample %zu data_src", i);
		cr_expect_str_eq(it.event, "MEM_TRANS_RETIRED.LOAD_LATENCY:"
				 "ldlat=64:precise=2:mh:mg:pinned");
		i++;
	}
	cr_assert_eq(e, 0, "next: %s", pebs_perf_reader_errmsg(r));
	cr_assert_eq(i, ng);
	pebs_perf_reader_close(r);
}

Test(perf_real, samples_equal_perf_script)
{
	FILE *fp = fopen(REAL, "rb");
	cr_assert_not_null(fp);
	check_samples(fp);
	fclose(fp);
}

/* The same file through a pipe (the reader spools it). */
Test(perf_real, samples_through_a_pipe)
{
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		FILE *in = fopen(REAL, "rb");
		char buf[65536];
		size_t k;
		while (in && (k = fread(buf, 1, sizeof(buf), in)) > 0)
			if (write(pfd[1], buf, k) != (ssize_t)k)
				_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	FILE *fp = fdopen(pfd[0], "rb");
	check_samples(fp);
	fclose(fp);
	int st;
	waitpid(pid, &st, 0);
}

static const char *mget(const struct pebs_meta *m, const char *k)
{
	const char *v = pebs_meta_get(m, k);
	cr_assert_not_null(v, "metadata key %s missing", k);
	return v;
}

Test(perf_real, metadata_from_header_features)
{
	FILE *fp = fopen(REAL, "rb");
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open(&r, fp, "real", NULL), 0);
	const struct pebs_meta *m = pebs_perf_reader_meta(r);
	cr_expect_str_eq(mget(m, "source"), "import-perf");
	cr_expect_str_eq(mget(m, "host"), "oxco15.prod.google.com");
	cr_expect_str_eq(mget(m, "os.release"), "4.15.0-smp-923.44.0.0");
	cr_expect_str_eq(mget(m, "cpu.family"), "6");
	cr_expect_str_eq(mget(m, "cpu.model"), "85");
	cr_expect_str_eq(mget(m, "uarch"), "skx");
	cr_expect_str_eq(mget(m, "time.unit"), "ns");
	cr_expect_str_eq(mget(m, "topology.nr_cpus"), "112");
	cr_expect_str_eq(mget(m, "topology.node.0.cpus"), "0-27,56-83");
	cr_expect_str_eq(mget(m, "topology.node.1.cpus"), "28-55,84-111");
	cr_expect_str_eq(mget(m, "topology.cpu.28.socket"), "1");
	cr_expect_str_eq(mget(m, "topology.cpu.56.socket"), "0");
	cr_expect_str_eq(mget(m, "events.1.name"), "dummy:HG");
	cr_expect_str_eq(mget(m, "events.0.period"), "10009");
	cr_expect_str_eq(mget(m, "events.0.ldlat"), "64");
	cr_expect_str_eq(mget(m, "events.0.perf.sample_type"), "0x10080cf");
	cr_expect(strncmp(mget(m, "cmdline"), "/usr/bin/perf5 record", 21)
		  == 0);
	cr_expect_str_eq(mget(m, "comm.17575"), "borglet");
	/* maps of sampled processes, with build ids where perf had them */
	int kernel = 0, with_bid = 0;
	const char *p;
	char k[64];
	for (size_t i = 0; snprintf(k, sizeof(k), "maps.%zu.path", i),
	     (p = pebs_meta_get(m, k)); i++) {
		snprintf(k, sizeof(k), "maps.%zu.pid", i);
		const char *pid = mget(m, k);
		if (strcmp(pid, "-1") == 0 &&
		    strncmp(p, "[kernel.kallsyms]", 17) == 0)
			kernel++;
		cr_expect(strcmp(p, "//anon") != 0);
		snprintf(k, sizeof(k), "maps.%zu.build_id", i);
		if (pebs_meta_get(m, k))
			with_bid++;
	}
	cr_expect_eq(kernel, 1);
	cr_expect_gt(with_bid, 100);
	pebs_perf_reader_close(r);
	fclose(fp);
}

/* pebs_perf_import: one .pebs segment, read back with the format reader. */
Test(perf_real, import_to_pebs)
{
	FILE *in = fopen(REAL, "rb"), *out = tmpfile();
	char err[256], path[64];
	int wf;
	struct pebs_meta *extra = pebs_meta_new();
	pebs_meta_set(extra, "import.cmdline", "test");
	int e = pebs_perf_import(in, REAL, out, NULL, extra, err, sizeof(err),
				 &wf);
	cr_assert_eq(e, 0, "%s", err);
	cr_assert_eq(wf, 0);
	fflush(out);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(out));
	const char *paths[] = { path };
	struct pebs_reader *rd;
	cr_assert_eq(pebs_reader_open(&rd, paths, 1, NULL), 0);
	struct pebs_batch *b;
	struct gold g[64];
	size_t ng = load_gold(g, 64), i = 0;
	while ((e = pebs_reader_next(rd, &b)) > 0) {
		for (size_t j = 0; j < b->n; j++, i++) {
			struct pebs_sample s;
			pebs_batch_get(b, j, &s);
			cr_assert_lt(i, ng);
			cr_expect_eq(s.time, g[i].time);
			cr_expect_eq(s.addr, g[i].addr);
			cr_expect_eq(s.dsrc, g[i].dsrc);
			cr_expect_eq(s.lat, g[i].weight);
		}
	}
	cr_assert_eq(e, 0, "%s", pebs_reader_errmsg(rd));
	cr_assert_eq(i, ng);
	const struct pebs_meta *m = pebs_reader_meta(rd);
	cr_expect_str_eq(mget(m, "import.cmdline"), "test");
	cr_expect_str_eq(mget(m, "uarch"), "skx");
	pebs_reader_close(rd);
	pebs_meta_free(extra);
	fclose(in);
	fclose(out);
}

struct calls {
	size_t n;
	uint64_t samples, done, total;
	int backwards;
};

static void count_calls(void *ctx, uint64_t samples, uint64_t done,
			uint64_t total)
{
	struct calls *c = ctx;
	if (c->n && (samples < c->samples || done < c->done ||
		     total != c->total))
		c->backwards = 1;
	c->n++;
	c->samples = samples;
	c->done = done;
	c->total = total;
}

/*
 * pebs_perf_import_cb: its progress comes after each batch written, the
 * samples so far and the records passed, which end at all of them; a
 * reader just opened has passed none.  The compressed file: the records
 * counted are the inflated ones.
 */
Test(perf_real, import_progress)
{
	const char *files[] = { REAL, "testdata/perf/cpu-clock-zstd.perf.data" };
	for (size_t f = 0; f < 2; f++) {
		FILE *in = fopen(files[f], "rb"), *out = tmpfile();
		char err[256];
		int wf;
		struct calls c = { 0 };
		cr_assert(in && out);
		struct pebs_perf_reader *r;
		uint64_t done = 1, total = 0;
		cr_assert_eq(pebs_perf_reader_open(&r, in, "p", NULL), 0);
		pebs_perf_reader_progress(r, &done, &total);
		cr_expect_eq(done, 0);
		cr_expect_gt(total, 0);
		uint64_t records = total;
		pebs_perf_reader_close(r);
		rewind(in);
		cr_assert_eq(pebs_perf_import_cb(in, files[f], out, NULL, NULL,
						 count_calls, &c, err,
						 sizeof(err), &wf), 0, "%s",
			     err);
		cr_expect_geq(c.n, 1);
		cr_expect_eq(c.backwards, 0);
		cr_expect_eq(c.total, records);
		cr_expect_eq(c.done, records, "%s: %llu of %llu", files[f],
			     (unsigned long long)c.done,
			     (unsigned long long)records);
		/* the samples imported: those the .pebs holds */
		char path[64];
		fflush(out);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(out));
		const char *paths[] = { path };
		struct pebs_reader *rd;
		struct pebs_batch *b;
		uint64_t n = 0;
		int e;
		cr_assert_eq(pebs_reader_open(&rd, paths, 1, NULL), 0);
		while ((e = pebs_reader_next(rd, &b)) > 0)
			n += b->n;
		cr_assert_eq(e, 0);
		cr_expect_eq(c.samples, n);
		cr_expect_gt(n, 0);
		pebs_reader_close(rd);
		fclose(in);
		fclose(out);
	}
}

/*
 * `perf record -z -e cpu-clock -d` (perf 6.1, zstd-compressed records):
 * every sample's pid, tid, time, addr and ip equal what `perf script --ns
 * -F pid,tid,time,ip,addr` printed (testdata/perf/cpu-clock-zstd.script).
 */
Test(perf_real, compressed_records)
{
	FILE *g = fopen("testdata/perf/cpu-clock-zstd.script", "r");
	FILE *fp = fopen("testdata/perf/cpu-clock-zstd.perf.data", "rb");
	cr_assert(g && fp);
	struct pebs_perf_reader *r;
	cr_assert_eq(pebs_perf_reader_open(&r, fp, "z", NULL), 0, "%s",
		     pebs_perf_reader_errmsg(r));
	struct pebs_perf_item it;
	char line[512];
	size_t n = 0;
	int e;
	while ((e = pebs_perf_reader_next(r, &it)) > 0) {
		cr_assert_eq(it.kind, PEBS_PERF_SAMPLE);
		cr_assert_not_null(fgets(line, sizeof(line), g));
		unsigned pid, tid;
		unsigned long long s, ns, addr, ip;
		cr_assert_eq(sscanf(line, " %u/%u %llu.%llu: %llx %llx", &pid,
				    &tid, &s, &ns, &addr, &ip), 6, "%s", line);
		cr_expect_eq(it.s.pid, pid);
		cr_expect_eq(it.s.tid, tid);
		cr_expect_eq(it.s.time, s * 1000000000ull + ns);
		cr_expect_eq(it.s.addr, addr);
		cr_expect_eq(it.s.ip, ip, "sample %zu", n);
		n++;
	}
	cr_assert_eq(e, 0, "%s", pebs_perf_reader_errmsg(r));
	cr_expect_null(fgets(line, sizeof(line), g));
	cr_expect_eq(n, 1192);
	pebs_perf_reader_close(r);
	fclose(fp);
	fclose(g);
}

/*
 * A copy cut anywhere in the header features (after the data section):
 * every sample is still returned, then PEBS_E_TRUNCATED naming the feature
 * lost, and the features before the cut are kept in the metadata.  The
 * import was silent here (exit 0, host and topology gone).  A cut only
 * into the padding after the last section loses nothing and is no error.
 */
Test(perf_real, features_cut_off)
{
	FILE *fp = fopen(REAL, "rb");
	cr_assert_not_null(fp);
	fseek(fp, 0, SEEK_END);
	size_t len = (size_t)ftell(fp);
	rewind(fp);
	uint8_t *all = malloc(len);
	cr_assert_eq(fread(all, 1, len, fp), len);
	fclose(fp);
	uint64_t doff, dlen, fo, fl, host_end = 0, feat_end = 0;
	memcpy(&doff, all + 40, 8);
	memcpy(&dlen, all + 48, 8);
	/* bit 3 (HOSTNAME) is the second entry: BUILD_ID (2) comes first */
	for (size_t k = 0; k < 14; k++) {
		memcpy(&fo, all + doff + dlen + 16 * k, 8);
		memcpy(&fl, all + doff + dlen + 16 * k + 8, 8);
		if (fo + fl > feat_end)
			feat_end = fo + fl;
		if (k == 1)
			host_end = fo + fl;
	}
	cr_assert_lt(feat_end, len);
	size_t tested = 0;
	for (size_t cut = doff + dlen; cut <= len; cut += 53) {
		if (cut > feat_end && cut < len)
			cut = len;	/* and the whole file last */
		struct pebs_perf_reader *r;
		int e = pebs_perf_reader_open_mem(&r, all, cut, NULL);
		cr_assert_eq(e, 0, "cut %zu: %s", cut,
			     pebs_perf_reader_errmsg(r));
		struct pebs_perf_item it;
		size_t n = 0;
		while ((e = pebs_perf_reader_next(r, &it)) > 0)
			n += it.kind == PEBS_PERF_SAMPLE;
		cr_expect_eq(n, 14, "cut %zu: %zu samples", cut, n);
		const char *msg = pebs_perf_reader_errmsg(r);
		if (cut >= feat_end) {
			cr_expect_eq(e, 0, "cut %zu: %s", cut, msg);
		} else {
			cr_expect_eq(e, -PEBS_E_TRUNCATED, "cut %zu", cut);
			cr_expect(strncmp(msg, "offset 0x", 9) == 0 &&
				  strstr(msg, " truncated (file ends at ") &&
				  strstr(msg, "header features lost)"),
				  "cut %zu: %s", cut, msg);
		}
		const struct pebs_meta *m = pebs_perf_reader_meta(r);
		if (cut >= host_end)
			cr_expect_str_eq(mget(m, "host"),
					 "oxco15.prod.google.com");
		else
			cr_expect_null(pebs_meta_get(m, "host"), "cut %zu",
				       cut);
		pebs_perf_reader_close(r);
		tested++;
	}
	cr_expect_gt(tested, 200);
	/* the brief's cut: the table itself ends inside the 9th entry */
	struct pebs_perf_reader *r;
	struct pebs_perf_item it;
	int e;
	cr_assert_eq(pebs_perf_reader_open_mem(&r, all, 1240000, NULL), 0);
	while ((e = pebs_perf_reader_next(r, &it)) > 0)
		;
	cr_expect_eq(e, -PEBS_E_TRUNCATED);
	cr_expect_str_eq(pebs_perf_reader_errmsg(r),
			 "offset 0x12ec20: feature section BUILD_ID truncated "
			 "(file ends at 0x12ebc0; 14 of 14 header features "
			 "lost)");
	pebs_perf_reader_close(r);
	free(all);
}
