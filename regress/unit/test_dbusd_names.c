/*
 * test_dbusd_names.c: cmocka tests of the strict session unit name check
 * and the random name generator (dbusd/name.c).  Runs unprivileged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dbusd/dbusd.h"

#define HEX32	"0123456789abcdef0123456789abcdef"

static void
test_valid(void **state)
{
	(void)state;
	assert_int_equal(unit_name_valid("opencode-pty-" HEX32 ".service"), 1);
	assert_int_equal(unit_name_valid("opencode-pty-"
	    "ffffffffffffffffffffffffffffffff.service"), 1);
}

static void
test_invalid(void **state)
{
	static const char *const bad[] = {
		"",
		"opencode-pty-.service",			/* empty id */
		"opencode-pty-0123456789abcdef0123456789abcde.service",
		"opencode-pty-0123456789abcdef0123456789abcdef0.service",
		"opencode-pty-0123456789ABCDEF0123456789abcdef.service",
		"opencode-pty-0123456789abcdef0123456789abcdeF.service",
		"opencode-pty-" HEX32 ".scope",
		"opencode-pty-" HEX32 ".service/../x",
		"opencode-pty-" HEX32 ".servicex",
		"opencode-pty-" HEX32 ".service ",
		"opencode-pty-" HEX32 ".servic",
		"opencode-pty-" HEX32,
		"opencode-pty-supervisor.service",
		"xopencode-pty-" HEX32 ".service",
		"Opencode-pty-" HEX32 ".service",
		"opencode-pty-0123456789abcdeg0123456789abcdef.service",
		"opencode-pty--123456789abcdef0123456789abcdef.service",
		"opencode-pty-" HEX32 "\n.service",
	};
	size_t	i;

	(void)state;
	assert_int_equal(unit_name_valid(NULL), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (unit_name_valid(bad[i]) != 0)
			fail_msg("accepted \"%s\"", bad[i]);
	}
}

static void
test_embedded_nul(void **state)
{
	static const char	name[] = "opencode-pty-" HEX32 ".service\0x";

	(void)state;
	/* What follows a NUL is not part of the C string anyway. */
	assert_int_equal(unit_name_valid(name), 1);
	assert_int_equal(unit_name_valid("opencode-pty-0123456789abcdef\0"
	    "0123456789abcdef.service"), 0);
}

static void
test_new(void **state)
{
	char	a[64], b[64];
	int	i;

	(void)state;
	for (i = 0; i < 100; i++) {
		memset(a, 'X', sizeof(a));
		memset(b, 'Y', sizeof(b));
		assert_int_equal(unit_name_new(a), 0);
		assert_int_equal(unit_name_new(b), 0);
		assert_int_equal(unit_name_valid(a), 1);
		assert_int_equal(unit_name_valid(b), 1);
		assert_int_equal(strlen(a), 13 + 32 + 8);
		assert_string_not_equal(a, b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_new),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
