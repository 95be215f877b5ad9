/*
 * cloc.h - the C locale for the output functions (internal to lib/).
 *
 * printf's %f writes the decimal point of the calling thread's
 * LC_NUMERIC: in a program that called setlocale(LC_ALL, "") under
 * de_DE.UTF-8, pebs-c2c's CSV read "193,33" (one more column) and the
 * YAML and SVG numbers changed meaning.  The functions that write numbers
 * with a fraction switch their thread to the C locale for the call
 * (uselocale(): no other thread is affected) and back.
 */
#ifndef PEBS_CLOC_H
#define PEBS_CLOC_H

#include <locale.h>

/* Makes the calling thread use the C locale; returns what to give back
 * to lib_locale_leave() ((locale_t)0 when it could not). */
locale_t lib_locale_enter(void);

/* Gives the calling thread back @old of lib_locale_enter(). */
void lib_locale_leave(locale_t old);

#endif
