/*
 * A batch's event dictionary and its hash index: ids in order of first
 * appearance, duplicates (which decoded blocks may hold) found at their
 * first id, names appended directly indexed on the next lookup, the index
 * emptied with the dictionary (reset) and kept by a relayout; the writer's
 * names, found through its pending batch, up to the format's limit.
 * Interning used to compare a name with every name of the batch (an import
 * of 65,535 distinct names took some 20 s); these tests check the answers,
 * not the time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_format.h"

/* Appends @name as the block decoder does: no lookup, duplicates kept. */
static void append_direct(struct pebs_batch *b, const char *name)
{
	if (b->nnames == b->names_cap) {
		uint32_t nc = b->names_cap ? b->names_cap * 2 : 8;
		b->names = realloc(b->names, nc * sizeof(*b->names));
		cr_assert_not_null(b->names);
		b->names_cap = nc;
	}
	b->names[b->nnames] = strdup(name);
	cr_assert_not_null(b->names[b->nnames]);
	b->nnames++;
}

Test(batch_names, intern_and_find_many)
{
	enum { N = 100000 };
	struct pebs_batch *b = pebs_batch_new(16);
	cr_assert_not_null(b);
	char name[32];
	cr_expect_eq(pebs_batch_find(b, "e0"), -1, "empty dictionary");
	for (unsigned i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "e%u", i);
		cr_assert_eq(pebs_batch_intern(b, name), (int)i, "%s", name);
	}
	cr_assert_eq(pebs_batch_intern(b, ""), N, "the empty name");
	cr_assert_eq(b->nnames, N + 1);
	for (unsigned i = 0; i < N; i += 7) {
		snprintf(name, sizeof(name), "e%u", i);
		cr_assert_eq(pebs_batch_intern(b, name), (int)i, "%s", name);
		cr_assert_eq(pebs_batch_find(b, name), (int)i, "%s", name);
	}
	cr_expect_eq(pebs_batch_find(b, ""), N);
	cr_expect_eq(pebs_batch_find(b, "e100000"), -1);
	cr_expect_eq(pebs_batch_find(b, "e"), -1);
	cr_expect_eq(b->nnames, N + 1, "lookups add nothing");
	pebs_batch_free(b);
}

/*
 * The block decoder empties the dictionary and appends a block's names
 * directly, duplicates included; lookups then see exactly those.
 */
Test(batch_names, direct_appends_reset_and_duplicates)
{
	struct pebs_batch *b = pebs_batch_new(16);
	cr_assert_eq(pebs_batch_intern(b, "x"), 0);
	cr_assert_eq(pebs_batch_intern(b, "a"), 1);
	pebs_batch_reset(b);
	cr_expect_eq(pebs_batch_find(b, "x"), -1, "gone with the reset");
	cr_expect_eq(pebs_batch_find(b, "a"), -1);
	static const char *const blk[] = { "a", "b", "a", "c", "b" };
	for (size_t i = 0; i < 5; i++)
		append_direct(b, blk[i]);
	cr_expect_eq(pebs_batch_find(b, "a"), 0);
	cr_expect_eq(pebs_batch_find(b, "b"), 1);
	cr_expect_eq(pebs_batch_find(b, "c"), 3);
	cr_expect_eq(pebs_batch_find(b, "x"), -1);
	cr_expect_eq(pebs_batch_intern(b, "d"), 5);
	/* appended directly after the index exists, past a table growth */
	char name[32];
	for (unsigned i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		append_direct(b, name);
	}
	append_direct(b, "c");
	cr_expect_eq(pebs_batch_find(b, "n0"), 6);
	cr_expect_eq(pebs_batch_find(b, "n99"), 105);
	cr_expect_eq(pebs_batch_intern(b, "c"), 3, "the first of two");
	cr_expect_eq(pebs_batch_intern(b, "d"), 5);
	cr_expect_eq(b->nnames, 107);
	pebs_batch_free(b);
}

/* A relayout keeps names and index; append maps names between batches. */
Test(batch_names, relayout_and_append)
{
	struct pebs_batch *a = pebs_batch_new(64), *b = pebs_batch_new(64);
	char name[32];
	for (unsigned i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "ev-%u", i);
		struct pebs_sample s = { .time = i };
		s.event = (uint32_t)pebs_batch_intern(a, name);
		cr_assert_eq(pebs_batch_push(a, &s), 0);
	}
	cr_assert_eq(pebs_batch_intern(b, "ev-39"), 0);
	cr_assert_eq(pebs_batch_relayout(b, 1ull << PEBS_COL_EVENT), 0);
	cr_expect_eq(pebs_batch_find(b, "ev-39"), 0);
	for (size_t i = 40; i-- > 0;)
		cr_assert_eq(pebs_batch_append(b, a, i), 0);
	cr_expect_eq(b->nnames, 40);
	for (size_t i = 0; i < 40; i++)
		cr_expect_str_eq(pebs_batch_event(b, i),
				 pebs_batch_event(a, 39 - i));
	cr_expect_eq(pebs_batch_find(b, "ev-0"), 39);
	pebs_batch_free(a);
	pebs_batch_free(b);
}

/* A reader of what a writer wrote to @fp (a tmpfile()). */
static struct pebs_reader *read_back(FILE *fp)
{
	char path[64];
	fflush(fp);
	rewind(fp);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(fp));
	const char *paths[] = { path };
	struct pebs_reader *r;
	cr_assert_eq(pebs_reader_open(&r, paths, 1, NULL), 0);
	return r;
}

/*
 * The writer finds its names through its pending batch: every one keeps
 * its id, and the 65,536th distinct name is refused while known ones are
 * still found.  The file read back has every name.
 */
Test(batch_names, writer_names_to_the_limit)
{
	enum { N = 65535 };
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, NULL), 0);
	char name[32];
	for (unsigned i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "name-%05u", i);
		int id = pebs_writer_event(w, name);
		cr_assert_eq(id, (int)i, "%s: %d", name, id);
		struct pebs_sample s = { .time = i, .event = (uint32_t)id };
		cr_assert_eq(pebs_writer_add(w, &s), 0);
	}
	cr_expect_eq(pebs_writer_event(w, "name-65535"), -PEBS_E_RANGE);
	cr_expect_eq(pebs_writer_event(w, "name-00000"), 0);
	cr_expect_eq(pebs_writer_event(w, "name-65534"), N - 1);
	cr_assert_eq(pebs_writer_close(w), 0);
	struct pebs_reader *r = read_back(fp);
	struct pebs_batch *b;
	size_t n = 0;
	while (pebs_reader_next(r, &b) > 0)
		for (size_t i = 0; i < b->n; i++, n++) {
			snprintf(name, sizeof(name), "name-%05zu", n);
			cr_assert_str_eq(pebs_batch_event(b, i), name);
		}
	cr_expect_eq(n, N);
	pebs_reader_close(r);
	fclose(fp);
}

/*
 * An event id the writer did not hand out is the caller's bad input: that
 * sample is refused with -PEBS_E_INVAL and a message, and the writer goes
 * on (it was a sticky error: the samples pending were never written, nor
 * the end marker).
 */
Test(batch_names, writer_bad_event_id_is_not_sticky)
{
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, NULL), 0);
	int id = pebs_writer_event(w, "x");
	cr_assert_eq(id, 0);
	struct pebs_sample s = { .time = 1, .event = 0 };
	cr_assert_eq(pebs_writer_add(w, &s), 0);
	s.event = 100000;
	cr_assert_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL);
	cr_assert(strstr(pebs_writer_errmsg(w), "unknown event id 100000"),
		  "%s", pebs_writer_errmsg(w));
	s.event = 1;
	cr_assert_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL);
	s.event = 0;
	s.time = 2;
	cr_assert_eq(pebs_writer_add(w, &s), 0);
	cr_assert_eq(pebs_writer_event(w, "y"), 1);
	cr_assert_eq(pebs_writer_close(w), 0);
	struct pebs_reader *r = read_back(fp);
	struct pebs_batch *b;
	size_t n = 0;
	int rc;
	while ((rc = pebs_reader_next(r, &b)) > 0)
		for (size_t i = 0; i < b->n; i++, n++) {
			cr_assert_str_eq(pebs_batch_event(b, i), "x");
			cr_assert_eq(b->c64[PEBS_COL_TIME][i], n + 1);
		}
	cr_expect_eq(rc, 0, "%s", pebs_reader_errmsg(r));
	cr_expect_eq(n, 2);
	pebs_reader_close(r);
	fclose(fp);
}

/*
 * With no name interned, ids are not checked: the format reads an index
 * without a name as the empty name (pebs-format.md, Events), and writers
 * that never name events (every sample event 0) are valid.  Once names
 * exist, an id past them is refused, as above.
 */
Test(batch_names, writer_without_names_takes_any_id)
{
	FILE *fp = tmpfile();
	cr_assert_not_null(fp);
	struct pebs_writer *w;
	cr_assert_eq(pebs_writer_open(&w, fp, NULL, NULL), 0);
	struct pebs_sample s = { .time = 1, .event = 0 };
	cr_assert_eq(pebs_writer_add(w, &s), 0);
	s.time = 2;
	s.event = 7;
	cr_assert_eq(pebs_writer_add(w, &s), 0, "%s", pebs_writer_errmsg(w));
	/* the block written before a name gets id 0 */
	cr_assert_eq(pebs_writer_flush(w), 0);
	cr_assert_eq(pebs_writer_event(w, "x"), 0);
	s.time = 3;
	cr_assert_eq(pebs_writer_add(w, &s), -PEBS_E_INVAL);
	s.event = 0;
	cr_assert_eq(pebs_writer_add(w, &s), 0);
	cr_assert_eq(pebs_writer_close(w), 0);
	struct pebs_reader *r = read_back(fp);
	static const char *const want[] = { "", "", "x" };
	static const uint32_t ids[] = { 0, 7, 0 };
	struct pebs_batch *b;
	size_t n = 0;
	int rc;
	while ((rc = pebs_reader_next(r, &b)) > 0)
		for (size_t i = 0; i < b->n && n < 3; i++, n++) {
			cr_expect_str_eq(pebs_batch_event(b, i), want[n],
					 "sample %zu", n);
			cr_expect_eq(b->c32[PEBS_COL_EVENT][i], ids[n],
				     "sample %zu", n);
		}
	cr_expect_eq(rc, 0, "%s", pebs_reader_errmsg(r));
	cr_expect_eq(n, 3);
	pebs_reader_close(r);
	fclose(fp);
}
