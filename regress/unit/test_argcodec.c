/*
 * test_argcodec.c: cmocka tests of the launcher argument codec
 * (proto/argcodec.c).  Runs unprivileged; no I/O.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/argcodec.h"

static char	enc[ARG_ENC_MAX + 1];
static char	dec[START_MAX_ARGLEN + 1];

static int
encode_str(const char *s)
{
	return arg_encode((const uint8_t *)s, strlen(s), enc, sizeof(enc));
}

static void
assert_roundtrip(const char *s, const char *want)
{
	int	r;

	r = encode_str(s);
	assert_int_equal(r, (int)strlen(want));
	assert_string_equal(enc, want);
	r = arg_decode(enc, dec, sizeof(dec));
	assert_int_equal(r, (int)strlen(s));
	assert_memory_equal(dec, s, strlen(s) + 1);
}

/* The seed's own example argv, empty argument included. */
static void
test_seed_argv(void **state)
{
	(void)state;
	assert_roundtrip("printf", "acHJpbnRm");
	assert_roundtrip("%s\n", "aJXMK");
	assert_roundtrip("a'b; $(id)", "aYSdiOyAkKGlkKQ");
	assert_roundtrip("", "a");
}

/* RFC 4648 section 10 vectors, unpadded, with the 'a' prefix. */
static void
test_rfc4648_vectors(void **state)
{
	(void)state;
	assert_roundtrip("f", "aZg");
	assert_roundtrip("fo", "aZm8");
	assert_roundtrip("foo", "aZm9v");
	assert_roundtrip("foob", "aZm9vYg");
	assert_roundtrip("fooba", "aZm9vYmE");
	assert_roundtrip("foobar", "aZm9vYmFy");
}

/* The URL-safe alphabet: 62 is '-', 63 is '_', never '+' or '/'. */
static void
test_urlsafe_alphabet(void **state)
{
	(void)state;
	assert_roundtrip("\xfb\xff", "a-_8");
	assert_roundtrip("\xff\xff\xff", "a____");
	assert_roundtrip("\xf8", "a-A");
}

static void
test_every_byte_pair(void **state)
{
	uint8_t	in[2];
	int	a, b, r;

	(void)state;
	for (a = 1; a < 256; a++) {
		for (b = 1; b < 256; b++) {
			in[0] = (uint8_t)a;
			in[1] = (uint8_t)b;
			r = arg_encode(in, 2, enc, sizeof(enc));
			assert_int_equal(r, 4);
			r = arg_decode(enc, dec, sizeof(dec));
			assert_int_equal(r, 2);
			assert_memory_equal(dec, in, 2);
		}
	}
}

static void
test_reject_prefix(void **state)
{
	(void)state;
	assert_int_equal(arg_decode("bad=", dec, sizeof(dec)), ARG_E_PREFIX);
	assert_int_equal(arg_decode("Zm9v", dec, sizeof(dec)), ARG_E_PREFIX);
	assert_int_equal(arg_decode("", dec, sizeof(dec)), ARG_E_PREFIX);
	assert_int_equal(arg_decode("A", dec, sizeof(dec)), ARG_E_PREFIX);
}

static void
test_reject_char(void **state)
{
	(void)state;
	assert_int_equal(arg_decode("abad=", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("aZg==", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("aZm8=", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("a+_8", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("a-/8", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("aZm 9", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("aZm9\n", dec, sizeof(dec)), ARG_E_CHAR);
	assert_int_equal(arg_decode("aZm\x80", dec, sizeof(dec)), ARG_E_CHAR);
}

static void
test_reject_length(void **state)
{
	(void)state;
	assert_int_equal(arg_decode("aZ", dec, sizeof(dec)), ARG_E_LENGTH);
	assert_int_equal(arg_decode("aZm9vY", dec, sizeof(dec)), ARG_E_LENGTH);
}

/* "A" is "aQQ"; "aQR" .. "aQf" spell it too but are not canonical. */
static void
test_reject_trailing_bits(void **state)
{
	(void)state;
	assert_int_equal(arg_decode("aQQ", dec, sizeof(dec)), 1);
	assert_string_equal(dec, "A");
	assert_int_equal(arg_decode("aQR", dec, sizeof(dec)), ARG_E_BITS);
	assert_int_equal(arg_decode("aQf", dec, sizeof(dec)), ARG_E_BITS);
	assert_int_equal(arg_decode("aZh", dec, sizeof(dec)), ARG_E_BITS);
	/* Three characters carry two bytes and two spare bits. */
	assert_int_equal(arg_decode("aZm8", dec, sizeof(dec)), 2);
	assert_int_equal(arg_decode("aZm9", dec, sizeof(dec)), ARG_E_BITS);
	assert_int_equal(arg_decode("aZm-", dec, sizeof(dec)), ARG_E_BITS);
}

static void
test_reject_nul(void **state)
{
	(void)state;
	assert_int_equal(arg_decode("aAA", dec, sizeof(dec)), ARG_E_NUL);
	assert_int_equal(arg_decode("aYQBi", dec, sizeof(dec)), ARG_E_NUL);
	assert_int_equal(arg_decode("aAAAA", dec, sizeof(dec)), ARG_E_NUL);
	assert_int_equal(arg_encode((const uint8_t *)"a\0b", 3, enc,
	    sizeof(enc)), ARG_E_NUL);
}

/* The largest argument and the first one too large, both ways. */
static void
test_length_limit(void **state)
{
	uint8_t	*big;
	char	*s;
	size_t	 i;
	int	 r;

	(void)state;
	big = malloc(START_MAX_ARGLEN + 1);
	assert_non_null(big);
	memset(big, 'A', START_MAX_ARGLEN + 1);
	r = arg_encode(big, START_MAX_ARGLEN, enc, sizeof(enc));
	assert_int_equal(r, ARG_ENC_MAX);
	r = arg_decode(enc, dec, sizeof(dec));
	assert_int_equal(r, START_MAX_ARGLEN);
	assert_memory_equal(dec, big, START_MAX_ARGLEN);
	assert_int_equal(arg_encode(big, START_MAX_ARGLEN + 1, enc,
	    sizeof(enc)), ARG_E_TOOLONG);

	/* 'a' + 1365 * "QUFB" + "QUE": exactly 4097 bytes of 'A'. */
	s = malloc(1 + 1365 * 4 + 3 + 1);
	assert_non_null(s);
	s[0] = 'a';
	for (i = 0; i < 1365; i++)
		memcpy(s + 1 + i * 4, "QUFB", 4);
	memcpy(s + 1 + 1365 * 4, "QUE", 4);
	assert_int_equal(arg_decode(s, dec, sizeof(dec)), ARG_E_TOOLONG);
	free(s);
	free(big);
}

/* Length is judged before the characters are, and the scan is bounded. */
static void
test_huge_input(void **state)
{
	char	*s;

	(void)state;
	s = malloc(100001);
	assert_non_null(s);
	memset(s, '=', 100000);
	s[0] = 'a';
	s[100000] = '\0';
	assert_int_equal(arg_decode(s, dec, sizeof(dec)), ARG_E_TOOLONG);
	free(s);
}

static void
test_output_space(void **state)
{
	char	small[5];

	(void)state;
	/* "foo" needs "aZm9v" + NUL = 6 bytes. */
	assert_int_equal(arg_encode((const uint8_t *)"foo", 3, small,
	    sizeof(small)), ARG_E_SPACE);
	assert_int_equal(arg_encode((const uint8_t *)"fo", 2, small,
	    sizeof(small)), 4);
	assert_string_equal(small, "aZm8");
	/* "foobar" needs 7 bytes decoded. */
	assert_int_equal(arg_decode("aZm9vYmFy", small, sizeof(small)),
	    ARG_E_SPACE);
	assert_int_equal(arg_decode("aZm9v", small, 4), 3);
	assert_string_equal(small, "foo");
	assert_int_equal(arg_decode("aZm9v", small, 3), ARG_E_SPACE);
}

static void
test_strerror_distinct(void **state)
{
	int	 codes[] = { ARG_OK, ARG_E_PREFIX, ARG_E_CHAR, ARG_E_LENGTH,
		    ARG_E_BITS, ARG_E_TOOLONG, ARG_E_NUL, ARG_E_SPACE };
	size_t	 i, j, n = sizeof(codes) / sizeof(codes[0]);

	(void)state;
	for (i = 0; i < n; i++) {
		assert_non_null(arg_strerror(codes[i]));
		for (j = 0; j < i; j++)
			assert_string_not_equal(arg_strerror(codes[i]),
			    arg_strerror(codes[j]));
	}
	assert_string_equal(arg_strerror(-99), "unknown argument error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_argv),
		cmocka_unit_test(test_rfc4648_vectors),
		cmocka_unit_test(test_urlsafe_alphabet),
		cmocka_unit_test(test_every_byte_pair),
		cmocka_unit_test(test_reject_prefix),
		cmocka_unit_test(test_reject_char),
		cmocka_unit_test(test_reject_length),
		cmocka_unit_test(test_reject_trailing_bits),
		cmocka_unit_test(test_reject_nul),
		cmocka_unit_test(test_length_limit),
		cmocka_unit_test(test_huge_input),
		cmocka_unit_test(test_output_space),
		cmocka_unit_test(test_strerror_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
