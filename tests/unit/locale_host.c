/*
 * locale_host.c - libpebs inside a program that set a locale.
 *
 * The tools never call setlocale(), but a program linking libpebs may
 * (setlocale(LC_ALL, "") as most GUIs do; Python sets LC_CTYPE): under
 * de_DE.UTF-8 printf's %f wrote a decimal comma, which split a column of
 * pebs_c2c_write()'s CSV in two and changed the numbers of its YAML, of
 * pebs_hist_write() and of pebs_output_info(); under tr_TR.UTF-8
 * tolower('I') is 'I', so "HITM", "LOAD" or "LOAD-LATENCY" matched
 * nothing.  Each test sets the locale in its own process (Criterion runs
 * each test in one) and is skipped, saying so, where the locale is not
 * installed (package locales-all, scripts/deps.sh --test).
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_c2c.h"
#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_hist.h"
#include "pebs_plan.h"
#include "pebs_uarch.h"

static void want_locale(const char *name)
{
	if (!setlocale(LC_ALL, name))
		cr_skip_test("locale %s not installed (package locales-all, "
			     "scripts/deps.sh --test)", name);
}

/* A memory stream for what a writer writes. */
static FILE *open_mem(char **buf, size_t *len)
{
	FILE *fp = open_memstream(buf, len);
	cr_assert(fp);
	return fp;
}

Test(locale_host, decimal_point_de)
{
	want_locale("de_DE.UTF-8");
	char chk[32];
	snprintf(chk, sizeof(chk), "%.2f", 1.5);
	cr_assert_str_eq(chk, "1,50", "the locale has no decimal comma");

	/* a histogram whose mean is 5.5 and shares 50% */
	struct pebs_hist *h;
	cr_assert_eq(pebs_hist_new(&h, PEBS_COL_TIME, -1), 0);
	cr_assert_eq(pebs_hist_add_value(h, "all", 5, 1), 0);
	cr_assert_eq(pebs_hist_add_value(h, "all", 6, 1), 0);
	struct pebs_hist_bins lg = { .kind = PEBS_BINS_LOG2 };
	char *buf;
	size_t len;
	FILE *fp = open_mem(&buf, &len);
	cr_assert_eq(pebs_hist_write(h, fp, PEBS_HIST_TEXT, &lg, NULL, 0), 0);
	cr_assert_eq(pebs_hist_write(h, fp, PEBS_HIST_YAML, &lg, NULL, 0), 0);
	cr_assert_eq(pebs_hist_write(h, fp, PEBS_HIST_SVG, &lg, NULL, 0), 0);
	fclose(fp);
	cr_expect(strstr(buf, "(100.00%)"), "text:\n%s", buf);
	cr_expect(strstr(buf, "  mean: 5.500\n"), "yaml:\n%s", buf);
	cr_expect_null(strstr(buf, "100,00"), "a decimal comma:\n%s", buf);
	cr_expect_null(strstr(buf, "5,5"), "a decimal comma:\n%s", buf);
	free(buf);
	pebs_hist_free(h);

	/* a cache line with two HITM loads of 100 and 287 cycles: means
	 * 193.50 in the CSV row, which must keep its column count */
	struct pebs_c2c *c;
	char err[128];
	cr_assert_eq(pebs_c2c_new(&c, NULL, err, sizeof(err)), 0, "%s", err);
	struct pebs_batch *b = pebs_batch_new(64);
	cr_assert(b);
	struct pebs_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = 100;
	s.addr = 0x1000;
	s.dsrc = 0x668800842;	/* load, L3 hit, HITM (pebs-decode) */
	s.event = (uint32_t)pebs_batch_intern(b, "load-latency");
	s.lat = 100;
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	s.lat = 287;
	s.tid = s.cpu = 1;
	cr_assert_eq(pebs_batch_push(b, &s), 0);
	cr_assert_eq(pebs_c2c_add_batch(c, b), 0);
	pebs_batch_free(b);
	cr_assert_eq(pebs_c2c_finish(c), 0);
	fp = open_mem(&buf, &len);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_CSV), 0);
	fclose(fp);
	char *row = strchr(buf, '\n');
	cr_assert(row && row[1], "csv:\n%s", buf);
	size_t hc = 0, rc = 0;
	for (char *p = buf; p < row; p++)
		hc += *p == ',';
	for (char *p = row + 1; *p && *p != '"'; p++)
		rc += *p == ',';
	cr_expect(strstr(row, ",193.50,"), "csv:\n%s", buf);
	cr_expect_leq(rc, hc, "a row of more columns than the header:\n%s",
		      buf);
	free(buf);
	fp = open_mem(&buf, &len);
	cr_assert_eq(pebs_c2c_write(c, fp, PEBS_C2C_F_YAML), 0);
	fclose(fp);
	cr_expect(strstr(buf, "193.50"), "yaml:\n%s", buf);
	cr_expect_null(strstr(buf, "193,5"), "yaml:\n%s", buf);
	free(buf);
	pebs_c2c_free(c);
	setlocale(LC_ALL, "C");
}

Test(locale_host, case_tr)
{
	want_locale("tr_TR.UTF-8");
	cr_assert_neq(tolower('I'), 'i', "the locale folds I to i");

	const char *ok[] = {
		"snoop == HITM", "mem == local_ram", "op == LOAD",
		"event == LOAD-LATENCY", "mem in (L1, LFB) and snoop != MISS",
		"t >= 1.5s or lat > 1.5k",
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct pebs_expr *e = NULL;
		struct pebs_expr_error ee;
		memset(&ee, 0, sizeof(ee));
		cr_expect_eq(pebs_expr_parse(ok[i], &e, &ee), 0, "%s: %s",
			     ok[i], ee.msg);
		pebs_expr_free(e);
	}
	struct pebs_event_spec sp;
	char err[256] = "";
	cr_expect_eq(pebs_event_parse("LOAD-LATENCY:ldlat=30", &sp, err,
				      sizeof(err)), 0, "%s", err);
	cr_expect(pebs_uarch_by_name("SKL"), "--uarch SKL");
	cr_expect(pebs_uarch_by_name("ICL"), "--uarch ICL");
	setlocale(LC_ALL, "C");
}
