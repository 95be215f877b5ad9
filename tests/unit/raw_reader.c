/*
 * The raw dump reader (pebs_raw_reader_*) and the event-list parser
 * (pebs_raw_config_default): concatenated inputs with records straddling
 * files, batches larger than the reader's, damage after a partial batch,
 * unreadable files, metadata, a live pipe, and every parser error.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pebs.h"
#include "pebs_uarch.h"

static void put64(unsigned char *p, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* @n SKL records (200 B) with applicable PMC0, EventingIP = 0x1000 + i. */
static unsigned char *skl_records(size_t n)
{
	unsigned char *p = calloc(n, 200);

	cr_assert_not_null(p);
	for (size_t i = 0; i < n; i++) {
		put64(p + 200 * i, 0x90, 1);
		put64(p + 200 * i, 0xb0, 0x1000 + i);
		put64(p + 200 * i, 0xc0, 5000 + i);
	}
	return p;
}

static char *write_tmp(const void *data, size_t len)
{
	char *path = strdup("/tmp/pebs-rawrd-XXXXXX");
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static const struct pebs_uarch *U(const char *n)
{
	return pebs_uarch_by_name(n);
}

Test(raw_reader, concatenated_and_batched)
{
	const size_t n = 20000;	/* more than one reader batch */
	unsigned char *rec = skl_records(n);
	/* split in the middle of record 7 */
	char *a = write_tmp(rec, 7 * 200 + 13);
	char *b = write_tmp(rec + 7 * 200 + 13, n * 200 - (7 * 200 + 13));
	const char *paths[] = { a, b };
	struct pebs_raw_config cfg;
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;
	struct pebs_raw_stats st;
	size_t total = 0;
	int rc, batches = 0;
	char err[200];

	cr_assert_eq(pebs_raw_config_default(&cfg, U("skl"), NULL, err,
					     sizeof(err)), 0);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 2, &cfg), 0);
	while ((rc = pebs_raw_reader_next(r, &bt)) > 0) {
		for (size_t i = 0; i < bt->n; i++) {
			cr_assert_eq(bt->c64[PEBS_COL_IP][i], 0x1000 + total);
			cr_assert_eq(bt->c64[PEBS_COL_TIME][i], 5000 + total);
			total++;
		}
		batches++;
	}
	cr_assert_eq(rc, 0, "%s", pebs_raw_reader_errmsg(r));
	cr_assert_eq(total, n);
	cr_assert_gt(batches, 1);
	pebs_raw_reader_stats(r, &st);
	cr_assert_eq(st.records, n);
	cr_assert_eq(st.offset, n * 200);
	const struct pebs_meta *m = pebs_raw_reader_meta(r);
	cr_assert_str_eq(pebs_meta_get(m, "uarch"), "skl");
	cr_assert_str_eq(pebs_meta_get(m, "pebs.format"), "3");
	cr_assert_str_eq(pebs_meta_get(m, "time.unit"), "tsc");
	cr_assert_str_eq(pebs_meta_get(m, "source"), "raw");
	cr_assert_str_eq(pebs_meta_get(m, "events.0.name"),
			 "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_str_eq(pebs_meta_get(m, "events.0.counter"), "PMC0");
	/* the encoding, as a capture writes it: -f perf's config */
	cr_assert_str_eq(pebs_meta_get(m, "events.0.evtsel"), "0x1cd");
	pebs_raw_reader_close(r);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	free(rec);
}

Test(raw_reader, damage_after_partial_batch)
{
	unsigned char *rec = skl_records(3);
	char *a = write_tmp(rec, 2 * 200 + 10);
	const char *paths[] = { a };
	struct pebs_raw_config cfg;
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;

	cr_assert_eq(pebs_raw_config_default(&cfg, U("skl"), NULL, NULL, 0),
		     0);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 1, &cfg), 0);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_assert_eq(bt->n, 2u, "complete records first");
	cr_assert_eq(pebs_raw_reader_next(r, &bt), -PEBS_E_TRUNCATED);
	cr_assert_str_eq(pebs_raw_reader_errmsg(r), "record 2 at offset "
			 "0x190: truncated: 10 of 200 bytes (format 3)");
	cr_assert_str_eq(pebs_raw_reader_errfile(r), a);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 0, "then the end");
	pebs_raw_reader_close(r);
	unlink(a);
	free(a);
	free(rec);
}

Test(raw_reader, unreadable_file_then_next)
{
	unsigned char *rec = skl_records(2);
	char *a = write_tmp(rec, 400);
	const char *paths[] = { "/nonexistent/pebs-raw", a };
	struct pebs_raw_config cfg;
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;

	cr_assert_eq(pebs_raw_config_default(&cfg, U("skl"), NULL, NULL, 0),
		     0);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 2, &cfg), 0);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), -PEBS_E_IO);
	cr_assert_str_eq(pebs_raw_reader_errfile(r), "/nonexistent/pebs-raw");
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_assert_eq(bt->n, 2u);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 0);
	pebs_raw_reader_close(r);
	pebs_raw_reader_close(NULL);
	unlink(a);
	free(a);
	free(rec);
}

/* A record begun before an unreadable input is dropped and said in its
 * own input; the next input is read from its start. */
Test(raw_reader, partial_record_before_unreadable_input)
{
	unsigned char *rec = skl_records(3);
	char *a = write_tmp(rec, 300), *c = write_tmp(rec + 400, 200);
	const char *paths[] = { a, "/nonexistent/pebs-raw", c };
	struct pebs_raw_config cfg;
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;
	char want[400];

	cr_assert_eq(pebs_raw_config_default(&cfg, U("skl"), NULL, NULL, 0),
		     0);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 3, &cfg), 0);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_assert_eq(bt->n, 1u);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), -PEBS_E_IO);
	cr_assert_str_eq(pebs_raw_reader_errfile(r), "/nonexistent/pebs-raw");
	cr_assert_eq(pebs_raw_reader_next(r, &bt), -PEBS_E_TRUNCATED);
	cr_assert_str_eq(pebs_raw_reader_errfile(r), a);
	snprintf(want, sizeof(want), "record 1 at offset 0xc8: truncated: "
		 "100 of 200 bytes (format 3); the input after it could not "
		 "be read");
	cr_assert_str_eq(pebs_raw_reader_errmsg(r), want);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_assert_eq(bt->n, 1u);
	cr_assert_eq(bt->c64[PEBS_COL_IP][0], 0x1002u, "record 2, framed");
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 0);
	pebs_raw_reader_close(r);
	unlink(a);
	unlink(c);
	free(a);
	free(c);
	free(rec);
}

Test(raw_reader, raw_event_names_survive_the_copy)
{
	unsigned char *rec = skl_records(1);
	char *a = write_tmp(rec, 200);
	const char *paths[] = { a };
	struct pebs_raw_config *cfg = malloc(sizeof(*cfg));
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;
	char err[200];

	cr_assert_eq(pebs_raw_config_default(cfg, U("skl"), "r1234@PMC0",
					     err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 1, cfg), 0);
	memset(cfg, 0x55, sizeof(*cfg));	/* the reader owns a copy */
	free(cfg);
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_assert_str_eq(pebs_batch_event(bt, 0), "r1234");
	pebs_raw_reader_close(r);
	unlink(a);
	free(a);
	free(rec);
}

/* @event on @uarch gives counters @enabled, or is refused with @msg. */
static void placed(const char *uarch, const char *event, uint64_t enabled,
		   const char *msg)
{
	struct pebs_raw_config c;
	char err[200] = "";
	int rc = pebs_raw_config_default(&c, U(uarch), event, err,
					 sizeof(err));

	if (msg) {
		cr_assert_eq(rc, -PEBS_E_INVAL, "%s on %s", event, uarch);
		cr_assert_str_eq(err, msg);
		return;
	}
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(c.pebs_enabled, enabled, "%s on %s", event, uarch);
}

Test(raw_config, event_lists)
{
	struct pebs_raw_config c;
	char err[200];

	cr_assert_eq(pebs_raw_config_default(&c, U("skl"),
		"MEM_TRANS_RETIRED.LOAD_LATENCY@PMC2;precise-store;r1cd",
		err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(c.pebs_enabled, 0x7ull);
	cr_assert_str_eq(c.ev[2].name, "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_str_eq(c.ev[0].name, "MEM_INST_RETIRED.ALL_STORES");
	cr_assert_eq(c.ev[0].kind, PEBS_EVK_DATALA_STORE);
	/* r1cd (event 0xCD, umask 0x01) is in the table */
	cr_assert_str_eq(c.ev[1].name, "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_eq(c.ev[1].kind, PEBS_EVK_LOAD_LATENCY);
	/* a raw encoding outside the table */
	cr_assert_eq(pebs_raw_config_default(&c, U("icl"), "r3c@FIXED1", err,
					     sizeof(err)), 0, "%s", err);
	cr_assert_eq(c.pebs_enabled, PEBS_UARCH_FIXED(1));
	cr_assert_str_eq(c.ev[33].name, "r3c");
	cr_assert_eq(c.ev[33].kind, PEBS_EVK_OTHER);
	/* a raw encoding outside the table keeps the encoding's counter
	 * constraints: the old PREC_DIST 0x01C0 on ICL is FIXED0 only, any
	 * 0xC0 on SPR PMC1-7 (as pebs-capture's plan says) */
	placed("icl", "r1c0", PEBS_UARCH_FIXED(0), NULL);
	cr_assert_str_eq(pebs_raw_config_default(&c, U("icl"), "r1c0", err,
						 sizeof(err)) ? err :
			 c.ev[32].name, "r1c0");
	placed("icl", "r1c0@PMC0", 0, "r1c0 cannot use PMC0 on icl");
	placed("spr", "r2c0@PMC0", 0, "r2c0 cannot use PMC0 on spr");
	placed("spr", "r2c0", 0x2, NULL);
	placed("icl", "INST_RETIRED.PREC_DIST;r1c0", 0,
	       "no free PEBS counter for r1c0 on icl");
	/* SNB: load latency and precise store both want PMC3 */
	cr_assert_eq(pebs_raw_config_default(&c, U("snb"),
		"load-latency;precise-store", err, sizeof(err)),
		-PEBS_E_INVAL);
	cr_assert_str_eq(err, "no free PEBS counter for precise-store on snb");
	cr_assert_eq(pebs_raw_config_default(&c, U("glm"), "rc0@PMC1", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "rc0 cannot use PMC1 on glm");
	cr_assert_eq(pebs_raw_config_default(&c, U("skl"), "rc0@PMX1", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "bad counter \"PMX1\" (PMCx or FIXEDj)");
	cr_assert_eq(pebs_raw_config_default(&c, U("skl"), "rc0;", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_eq(pebs_raw_config_default(&c, U("skl"), "", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_eq(pebs_raw_config_default(&c, U("skl"), "rxyz", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "skl has no event \"rxyz\"");
	cr_assert_eq(pebs_raw_config_default(&c, U("skl"),
		"rc0;rc1;rc2;rc3;rc4", err, sizeof(err)), -PEBS_E_INVAL,
		"four PEBS counters on SKL");
	cr_assert_eq(pebs_raw_config_default(NULL, U("skl"), NULL, err,
					     sizeof(err)), -PEBS_E_INVAL);
}

static void count_idle(void *ctx)
{
	(*(int *)ctx)++;
}

struct late {
	int fd;
	const unsigned char *p;
	size_t len;
};

/* Writes the rest of a dump after 0.5 s (the reader waits meanwhile). */
static void *write_late(void *arg)
{
	struct late *l = arg;
	usleep(500000);
	cr_assert_eq(write(l->fd, l->p, l->len), (ssize_t)l->len);
	close(l->fd);
	return NULL;
}

/*
 * A pipe whose writer stays: the records read so far come out before the
 * reader waits (a record cut by the pipe's pause waits for its rest), and
 * while it waits, the idle hook is called every 200 ms.
 */
Test(raw_reader, live_pipe_hands_on_and_idles)
{
	const size_t n = 10;
	unsigned char *rec = skl_records(n);
	int fd[2];
	cr_assert_eq(pipe(fd), 0);
	char path[64];
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	const char *paths[] = { path };
	struct pebs_raw_config cfg;
	struct pebs_raw_reader *r;
	struct pebs_batch *bt;
	char err[200];
	int idles = 0;
	cr_assert_eq(pebs_raw_config_default(&cfg, U("skl"), NULL, err,
					     sizeof(err)), 0);
	cr_assert_eq(pebs_raw_reader_open(&r, paths, 1, &cfg), 0);
	pebs_raw_reader_set_idle(r, count_idle, &idles);
	/* 3 records and a part of the 4th, the writer still there */
	cr_assert_eq(write(fd[1], rec, 3 * 200 + 50), 3 * 200 + 50);
	struct late l = { fd[1], rec + 3 * 200 + 50, (n - 3) * 200 - 50 };
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, write_late, &l), 0);
	/* before the rest comes (fread(3) waited for it: 10 records) */
	cr_assert_eq(pebs_raw_reader_next(r, &bt), 1);
	cr_expect_eq(bt->n, 3);
	cr_expect_eq(idles, 0);
	size_t total = 3;
	int rc;
	while ((rc = pebs_raw_reader_next(r, &bt)) > 0) {
		for (size_t i = 0; i < bt->n; i++)
			cr_expect_eq(bt->c64[PEBS_COL_IP][i], 0x1000 + total + i);
		total += bt->n;
	}
	pthread_join(th, NULL);
	cr_expect_eq(rc, 0, "%s", pebs_raw_reader_errmsg(r));
	cr_expect_eq(total, n);
	cr_expect_geq(idles, 1);	/* 0.5 s of waiting */
	pebs_raw_reader_close(r);
	close(fd[0]);
	free(rec);
}
