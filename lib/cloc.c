/*
 * cloc.c - the C locale for the output functions (see cloc.h).
 */
#include <pthread.h>

#include "cloc.h"

static locale_t c_locale;
static pthread_once_t c_once = PTHREAD_ONCE_INIT;

static void make_c(void)
{
	/* glibc hands out its static C locale object: nothing to free */
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t lib_locale_enter(void)
{
	pthread_once(&c_once, make_c);
	return c_locale ? uselocale(c_locale) : (locale_t)0;
}

void lib_locale_leave(locale_t old)
{
	if (old)
		uselocale(old);
}
