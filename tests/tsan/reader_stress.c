/*
 * reader_stress.c - the threaded reader under ThreadSanitizer (make tsan):
 * workers, the caller decoding when its batch is not ready, consume
 * callbacks on the decoding threads and damage reported in order, for 1
 * to 5 threads, with and without salvage, from files and from a pipe
 * (one that stalls, with threads).
 * Every configuration must deliver the same samples (count and a checksum
 * of two columns), lost records (lost_batches: where they lie) and errors
 * as one thread, and end with the same statistics; TSan aborts on a data
 * race.  Criterion's runner does not work under TSan, hence a plain
 * program.  Exit 0 when all agree, 1 otherwise.
 *   reader-stress DIR     (scratch files are written to DIR)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs_format.h"
#include "pebs_gen.h"

#define NSAMPLES 200000
#define BLOCK 4096

struct result {
	unsigned long long n, sum;
	/* the lost records in order with the sample count before each;
	 * stats at the end: segments, bytes, lost */
	unsigned long long lsum, segs, bytes, lost;
	int errors;
	char first_err[256];
};

static unsigned long long part[PEBS_READER_MAX_THREADS];

static unsigned long long mix(const struct pebs_batch *b)
{
	unsigned long long s = 0;
	for (size_t i = 0; i < b->n; i++)
		s += b->c32[PEBS_COL_LAT][i] * 31 + b->c64[PEBS_COL_ADDR][i];
	return s;
}

static int count_cb(void *ctx, unsigned worker, const struct pebs_batch *b)
{
	(void)ctx;
	part[worker] += mix(b);
	return 0;
}

static int write_file(const char *path)
{
	struct pebs_gen_opts go = { .seed = 11 };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_batch *b = pebs_batch_new(BLOCK);
	struct pebs_meta *m = pebs_meta_new();
	FILE *fp = fopen(path, "wb");
	struct pebs_writer_opts wo = { .block_samples = BLOCK };
	struct pebs_writer *w = NULL;
	int rc = !g || !b || !m || !fp || pebs_gen_meta(g, m) ||
		 pebs_writer_open(&w, fp, m, &wo);
	for (size_t done = 0; !rc && done < NSAMPLES; done += BLOCK) {
		rc = pebs_gen_batch(g, b, BLOCK) || pebs_writer_add_batch(w, b);
		/* lost records between some blocks, where the threads read
		 * ahead */
		if (!rc && done / BLOCK % 5 == 2)
			rc = pebs_writer_lost(w, (uint32_t)(done % 7), done,
					      done / BLOCK + 1) != 0;
	}
	if (w && pebs_writer_close(w))
		rc = 1;
	if (fp && fclose(fp))
		rc = 1;
	pebs_meta_free(m);
	pebs_batch_free(b);
	pebs_gen_free(g);
	return rc;
}

/* A copy of @src with 8 bytes of block 10's head overwritten. */
static int damage(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	if (!in || !out)
		return 1;
	static unsigned char buf[64 << 20];
	size_t n = fread(buf, 1, sizeof(buf), in), seen = 0;
	fclose(in);
	for (size_t i = 0; i + 4 <= n; i++)
		if (!memcmp(buf + i, "BLCK", 4) && seen++ == 10) {
			if (i + 108 > n)
				return 1;
			memset(buf + i + 100, 'Z', 8);
			break;
		}
	if (seen < 11 || fwrite(buf, 1, n, out) != n)
		return 1;
	return fclose(out) != 0;
}

struct feed {
	int fd;
	int stall;
	const char *path;
};

/*
 * Writes a file into a pipe, as `cat` would; with stall, as a live
 * capture would: it stops twice for longer than the reader waits before
 * a thread gives back the chunk it was reading (GIVEUP_MS in reader.c),
 * at places that are inside chunks as a rule.
 */
static void *feeder(void *arg)
{
	struct feed *f = arg;
	FILE *in = fopen(f->path, "rb");
	char buf[65536];
	size_t n, at = 0;
	while (in && (n = fread(buf, 1, f->stall ? 24007 : sizeof(buf),
				in)) > 0) {
		if (write(f->fd, buf, n) != (ssize_t)n)
			break;
		at++;
		if (f->stall && (at == 5 || at == 11))
			usleep(70000);
	}
	if (in)
		fclose(in);
	close(f->fd);
	return NULL;
}

static int run(const char *const *paths, size_t np, int piped,
	       unsigned threads, int consume, int salvage, struct result *res)
{
	struct pebs_reader_opts ro = {
		.threads = threads, .salvage = salvage,
		.cols = 1ull << PEBS_COL_LAT | 1ull << PEBS_COL_ADDR |
			1ull << PEBS_COL_IP,
		.lost_batches = 1,
	};
	if (consume)
		ro.consume = count_cb;
	memset(part, 0, sizeof(part));
	memset(res, 0, sizeof(*res));
	pthread_t th;
	struct feed f;
	int saved = -1;
	static const char *const dash[] = { "-" };
	if (piped) {
		int p[2];
		if (pipe(p) || (saved = dup(STDIN_FILENO)) < 0 ||
		    dup2(p[0], STDIN_FILENO) < 0)
			return 1;
		close(p[0]);
		f.fd = p[1];
		f.stall = threads > 1;
		f.path = paths[0];
		if (pthread_create(&th, NULL, feeder, &f))
			return 1;
		paths = dash;
		np = 1;
	}
	struct pebs_reader *r;
	struct pebs_batch *b;
	int rc;
	if (pebs_reader_open(&r, paths, np, &ro))
		return 1;
	while ((rc = pebs_reader_next(r, &b)) != 0) {
		if (rc < 0) {
			if (!res->errors++)
				snprintf(res->first_err, sizeof(res->first_err),
					 "%s", pebs_reader_errmsg(r));
			continue;
		}
		uint32_t cpu;
		uint64_t t, lc = pebs_reader_lost(r, &cpu, &t);
		if (lc)
			res->lsum = res->lsum * 1000003 + lc * 31 + cpu + t +
				    res->n + b->source;
		res->n += b->n;
		if (!consume)
			res->sum += mix(b);
	}
	for (unsigned i = 0; consume && i < PEBS_READER_MAX_THREADS; i++)
		res->sum += part[i];
	struct pebs_read_stats st;
	pebs_reader_stats(r, &st);
	res->segs = st.segments;
	res->bytes = st.bytes;
	res->lost = st.lost;
	pebs_reader_close(r);
	if (piped) {
		/* closing the read end ends a feeder the reader stopped on */
		dup2(saved, STDIN_FILENO);
		close(saved);
		pthread_join(th, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: reader-stress DIR\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	char good[4096], bad[4096];
	snprintf(good, sizeof(good), "%s/good.pebs", argv[1]);
	snprintf(bad, sizeof(bad), "%s/bad.pebs", argv[1]);
	if (write_file(good) || damage(good, bad)) {
		fprintf(stderr, "reader-stress: cannot write inputs: %s\n",
			strerror(errno));
		return 1;
	}
	const char *sets[][3] = { { good, NULL, NULL }, { good, bad, good },
				  { bad, NULL, NULL } };
	const size_t nset[] = { 1, 3, 1 };
	int fails = 0, runs = 0;
	for (size_t s = 0; s < 3; s++)
		for (int piped = 0; piped < 2; piped++) {
			if (piped && nset[s] > 1)
				continue;
			for (int salvage = 0; salvage < 2; salvage++) {
				struct result ref, got;
				if (run(sets[s], nset[s], piped, 1, 0, salvage,
					&ref))
					return 1;
				for (unsigned t = 1; t <= 5; t++)
					for (int c = 0; c < 2; c++) {
						if (run(sets[s], nset[s], piped,
							t, c, salvage, &got))
							return 1;
						runs++;
						if (got.n == ref.n &&
						    got.sum == ref.sum &&
						    got.lsum == ref.lsum &&
						    got.segs == ref.segs &&
						    got.bytes == ref.bytes &&
						    got.lost == ref.lost &&
						    got.errors == ref.errors &&
						    !strcmp(got.first_err,
							    ref.first_err))
							continue;
						fails++;
						printf("DIFFER: input set %zu%s "
						       "salvage %d threads %u "
						       "consume %d: %llu samples "
						       "(%llu), %d errors (%d), "
						       "%llu segments (%llu), "
						       "%llu bytes (%llu), lost "
						       "%llu (%llu) %s\n",
						       s, piped ? " piped" : "",
						       salvage, t, c, got.n,
						       ref.n, got.errors,
						       ref.errors, got.segs,
						       ref.segs, got.bytes,
						       ref.bytes, got.lost,
						       ref.lost,
						       got.lsum == ref.lsum ?
						       "" : "(in other places)");
					}
				printf("input set %zu%s salvage %d: %llu samples, "
				       "%llu lost, %d errors%s%s\n", s,
				       piped ? " piped" : "", salvage, ref.n,
				       ref.lost, ref.errors,
				       ref.errors ? ": " : "",
				       ref.first_err);
			}
		}
	printf("reader-stress: %d runs, %d differ\n", runs, fails);
	return fails != 0;
}
