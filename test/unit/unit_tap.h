/*
 * unit_tap.h
 *		TAP output of the unit test programs in test/unit: one "ok N -
 *		what" line per check, then the plan; each program includes it once.
 */
#ifndef UID_UNIT_TAP_H
#define UID_UNIT_TAP_H

#include <stdio.h>

static int	tests = 0;
static int	failures = 0;

static void
check(bool ok, const char *what)
{
	tests++;
	if (!ok)
		failures++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tests, what);
}

/* Prints the plan; the exit status of the program. */
static int
check_done(const char *program)
{
	printf("1..%d\n", tests);
	if (failures)
		fprintf(stderr, "%s: %d of %d checks failed\n", program, failures, tests);
	return failures ? 1 : 0;
}

#endif							/* UID_UNIT_TAP_H */
