/*
 * test_marker.c: cmocka tests of the readiness marker parser
 * (readiness/marker.c, compiled in for its static grammar): the accepting case and every refusal, each
 * asserting its own status code.  Unprivileged test code: the parser is
 * pure, so no file, no root and no installed binary is needed.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): its grammar is static */
#include "readiness/marker.c"

#define GIT	"0123456789abcdef0123456789abcdef01234567"
#define SRC	"89abcdef0123456789abcdef0123456789abcdef0123456789abcdef01234567"
#define REV	"revision=opencode-v2-pilot:git:" GIT ";pty-source:sha256:" SRC

#define SUP	"/usr/local/libexec/opencode-pty-supervisor"
#define LAU	"/usr/local/libexec/opencode-pty-launcher"
#define CLI	"/usr/local/libexec/opencode-pty-client"

#define H1	"ff03df72fc6a401e8070db776ceba524e9111d9d907c6f4939244354564a86f2"
#define H2	"d833c859476f021565e8f425e6ee51353909060fa5f64ce629fb07d3411987dd"
#define H3	"fb8739d98ff7882782005e04ef731b6120e8daf0719e606362a1fe620adc2cde"

#define L1	REV "\n"
#define L2	H1 "  " SUP "\n"
#define L3	H2 "  " LAU "\n"
#define L4	H3 "  " CLI "\n"
#define VALID	L1 L2 L3 L4

static const char *const paths[MARKER_NRECORDS] = { SUP, LAU, CLI };

static int
parse_str(const char *s)
{
	struct marker	m;
	size_t		i, j;
	int		rc;

	memset(&m, 0xa5, sizeof(m));
	rc = marker_parse((const uint8_t *)s, strlen(s), REV, paths, &m);
	if (rc != MARKER_OK)	/* refusals leave no digest behind */
		for (i = 0; i < MARKER_NRECORDS; i++)
			for (j = 0; j < SHA256_DIGEST_LEN; j++)
				assert_int_equal(m.digest[i][j], 0);
	return rc;
}

static void
test_accepts_valid(void **state)
{
	static const uint8_t	d1[4] = { 0xff, 0x03, 0xdf, 0x72 };
	static const uint8_t	d3[4] = { 0xfb, 0x87, 0x39, 0xd9 };
	struct marker		m;

	(void)state;
	assert_int_equal(marker_parse((const uint8_t *)VALID, strlen(VALID),
	    REV, paths, &m), MARKER_OK);
	assert_memory_equal(m.digest[0], d1, sizeof(d1));
	assert_int_equal(m.digest[0][31], 0xf2);
	assert_int_equal(m.digest[1][0], 0xd8);
	assert_int_equal(m.digest[1][31], 0xdd);
	assert_memory_equal(m.digest[2], d3, sizeof(d3));
	assert_int_equal(m.digest[2][31], 0xde);
}

static void
test_refuses_empty(void **state)
{
	(void)state;
	assert_int_equal(parse_str(""), MARKER_E_EMPTY);
}

static void
test_refuses_too_long(void **state)
{
	static char	big[MARKER_MAX_LEN + 2];

	(void)state;
	memset(big, '\n', MARKER_MAX_LEN + 1);
	assert_int_equal(parse_str(big), MARKER_E_TOOLONG);
}

static void
test_refuses_nul(void **state)
{
	struct marker	m;
	uint8_t		buf[sizeof(VALID)];

	(void)state;
	memcpy(buf, VALID, sizeof(VALID) - 1);
	buf[sizeof(L1) - 1 + 3] = '\0';
	assert_int_equal(marker_parse(buf, sizeof(VALID) - 1, REV, paths,
	    &m), MARKER_E_NUL);
}

static void
test_refuses_missing_final_newline(void **state)
{
	char	buf[sizeof(VALID)];

	(void)state;
	memcpy(buf, VALID, sizeof(VALID));
	buf[sizeof(VALID) - 2] = '\0';
	assert_int_equal(parse_str(buf), MARKER_E_NOFINALNL);
}

static void
test_refuses_three_lines(void **state)
{
	(void)state;
	assert_int_equal(parse_str(L1 L2 L3), MARKER_E_SHORT);
	assert_int_equal(parse_str(L1), MARKER_E_SHORT);
}

static void
test_refuses_trailing_line(void **state)
{
	(void)state;
	assert_int_equal(parse_str(VALID "extra\n"), MARKER_E_TRAILING);
	assert_int_equal(parse_str(VALID "\n"), MARKER_E_TRAILING);
	assert_int_equal(parse_str(VALID "x\ny\nz\n"), MARKER_E_TRAILING);
}

static void
test_refuses_duplicate_appended(void **state)
{
	(void)state;
	assert_int_equal(parse_str(VALID L4), MARKER_E_DUPLICATE);
	assert_int_equal(parse_str(VALID L1), MARKER_E_DUPLICATE);
}

static void
test_refuses_duplicate_in_place(void **state)
{
	(void)state;
	assert_int_equal(parse_str(L1 L2 L2 L4), MARKER_E_DUPLICATE);
	assert_int_equal(parse_str(L1 L1 L3 L4), MARKER_E_DUPLICATE);
	assert_int_equal(parse_str(L1 L2 L3 L2), MARKER_E_DUPLICATE);
}

static void
test_refuses_other_commit(void **state)
{
	(void)state;
	assert_int_equal(parse_str("revision=opencode-v2-pilot:git:"
	    "1123456789abcdef0123456789abcdef01234567;pty-source:sha256:"
	    SRC "\n" L2 L3 L4), MARKER_E_REVGIT);
	assert_int_equal(parse_str("revision=opencode-v2-pilot:git:"
	    "0123456789abcdef0123456789abcdef01234568;pty-source:sha256:"
	    SRC "\n" L2 L3 L4), MARKER_E_REVGIT);
}

static void
test_refuses_other_source_hash(void **state)
{
	(void)state;
	assert_int_equal(parse_str("revision=opencode-v2-pilot:git:" GIT
	    ";pty-source:sha256:"
	    "89abcdef0123456789abcdef0123456789abcdef0123456789abcdef01234560"
	    "\n" L2 L3 L4), MARKER_E_REVSOURCE);
}

static void
test_refuses_malformed_revision(void **state)
{
	static const char *const bad[] = {
		/* uppercase hex */
		"revision=opencode-v2-pilot:git:0123456789ABCDEF0123456789abcd"
		"ef01234567;pty-source:sha256:" SRC "\n",
		/* other pilot name */
		"revision=opencode-v3-pilot:git:" GIT ";pty-source:sha256:"
		SRC "\n",
		/* short commit */
		"revision=opencode-v2-pilot:git:0123456;pty-source:sha256:"
		SRC "\n",
		/* CR before the newline */
		REV "\r\n",
		/* leading space */
		" " REV "\n",
		/* trailing space */
		REV " \n",
		/* empty line */
		"\n",
	};
	char	buf[1024];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s%s%s", bad[i], L2, L3, L4);
		assert_int_equal(parse_str(buf), MARKER_E_REVFORMAT);
	}
}

static void
test_refuses_malformed_record(void **state)
{
	static const char *const bad[] = {
		/* uppercase hex, as some tools print */
		"FF03DF72FC6A401E8070DB776CEBA524E9111D9D907C6F4939244354564A"
		"86F2  " SUP "\n",
		/* one space */
		H1 " " SUP "\n",
		/* sha256sum binary-mode marker */
		H1 " *" SUP "\n",
		/* 63 hex digits */
		"f03df72fc6a401e8070db776ceba524e9111d9d907c6f4939244354564a86"
		"f2  " SUP "\n",
		/* tab separator */
		H1 "\t" SUP "\n",
		/* CRLF */
		H1 "  " SUP "\r\n",
		/* no path */
		H1 "  \n",
		/* BSD-style tagged record */
		"SHA256 (" SUP ") = " H1 "\n",
	};
	char	buf[1024];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s%s%s", L1, bad[i], L3, L4);
		assert_int_equal(parse_str(buf), MARKER_E_RECFORMAT);
	}
}

static void
test_refuses_wrong_order(void **state)
{
	(void)state;
	assert_int_equal(parse_str(L1 L3 L2 L4), MARKER_E_ORDER);
	assert_int_equal(parse_str(L1 L2 L4 L3), MARKER_E_ORDER);
	assert_int_equal(parse_str(L1 L4 L3 L2), MARKER_E_ORDER);
}

static void
test_refuses_unexpected_path(void **state)
{
	(void)state;
	assert_int_equal(parse_str(L1 H1 "  /tmp/opencode-pty-supervisor\n"
	    L3 L4), MARKER_E_PATH);
	assert_int_equal(parse_str(L1 L2 H2
	    "  usr/local/libexec/opencode-pty-launcher\n" L4), MARKER_E_PATH);
	assert_int_equal(parse_str(L1 L2 L3 H3 "  " CLI " \n"),
	    MARKER_E_PATH);
	assert_int_equal(parse_str(L1 L2 L3 H3
	    "  /usr/local/libexec/opencode-pty-relay\n"), MARKER_E_PATH);
	assert_int_equal(parse_str(L1 L2 L3 H3
	    "  /usr/local/libexec/../libexec/opencode-pty-client\n"),
	    MARKER_E_PATH);
}

/* A stale record parses; verify.c compares it with the file on disk. */
static void
test_other_digest_is_returned_not_judged(void **state)
{
	struct marker	m;
	const char	*s = L1 L2 L3
	    "0000000000000000000000000000000000000000000000000000000000000001"
	    "  " CLI "\n";
	size_t		i;

	(void)state;
	assert_int_equal(marker_parse((const uint8_t *)s, strlen(s), REV,
	    paths, &m), MARKER_OK);
	for (i = 0; i < SHA256_DIGEST_LEN - 1; i++)
		assert_int_equal(m.digest[2][i], 0);
	assert_int_equal(m.digest[2][SHA256_DIGEST_LEN - 1], 1);
}

static void
test_refuses_malformed_expected_revision(void **state)
{
	struct marker	m;

	(void)state;
	assert_int_equal(marker_parse((const uint8_t *)VALID, strlen(VALID),
	    "revision=unknown", paths, &m), MARKER_E_EXPECTED);
	assert_int_equal(marker_parse((const uint8_t *)VALID, strlen(VALID),
	    "", paths, &m), MARKER_E_EXPECTED);
}

static void
test_revision_grammar(void **state)
{
	(void)state;
	assert_int_equal(REV_LEN, strlen(REV));
	assert_true(marker_revision_valid(REV, strlen(REV)));
	assert_false(marker_revision_valid(REV, strlen(REV) - 1));
	assert_false(marker_revision_valid(REV "0", strlen(REV) + 1));
}

static void
test_strerror_distinct(void **state)
{
	int	a, b;

	(void)state;
	for (a = MARKER_E_EXPECTED; a <= MARKER_OK; a++) {
		assert_string_not_equal(marker_strerror(a),
		    "unknown marker error");
		for (b = MARKER_E_EXPECTED; b < a; b++)
			assert_string_not_equal(marker_strerror(a),
			    marker_strerror(b));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts_valid),
		cmocka_unit_test(test_refuses_empty),
		cmocka_unit_test(test_refuses_too_long),
		cmocka_unit_test(test_refuses_nul),
		cmocka_unit_test(test_refuses_missing_final_newline),
		cmocka_unit_test(test_refuses_three_lines),
		cmocka_unit_test(test_refuses_trailing_line),
		cmocka_unit_test(test_refuses_duplicate_appended),
		cmocka_unit_test(test_refuses_duplicate_in_place),
		cmocka_unit_test(test_refuses_other_commit),
		cmocka_unit_test(test_refuses_other_source_hash),
		cmocka_unit_test(test_refuses_malformed_revision),
		cmocka_unit_test(test_refuses_malformed_record),
		cmocka_unit_test(test_refuses_wrong_order),
		cmocka_unit_test(test_refuses_unexpected_path),
		cmocka_unit_test(test_other_digest_is_returned_not_judged),
		cmocka_unit_test(test_refuses_malformed_expected_revision),
		cmocka_unit_test(test_revision_grammar),
		cmocka_unit_test(test_strerror_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
