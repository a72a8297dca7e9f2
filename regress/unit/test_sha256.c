/*
 * test_sha256.c: cmocka tests of proto/sha256.c against the NIST
 * FIPS 180-4 example vectors, padding-boundary lengths (expected values
 * from an independent implementation, Python's hashlib) and the
 * equivalence of one-shot and split updates.  Unprivileged test code.
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

#include "proto/sha256.h"

static uint8_t	million[1000000];

/* One-shot digest: the shipped code only ever streams. */
static void
sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_LEN])
{
	struct sha256_ctx	ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, out);
}

static void
hex(const uint8_t d[SHA256_DIGEST_LEN], char out[2 * SHA256_DIGEST_LEN + 1])
{
	int	i;

	for (i = 0; i < SHA256_DIGEST_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
assert_digest(const void *msg, size_t len, const char *want)
{
	uint8_t	d[SHA256_DIGEST_LEN];
	char	got[2 * SHA256_DIGEST_LEN + 1];

	sha256(msg, len, d);
	hex(d, got);
	assert_string_equal(got, want);
}

static void
test_empty(void **state)
{
	(void)state;
	assert_digest("", 0,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void
test_abc(void **state)
{
	(void)state;
	assert_digest("abc", 3,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void
test_448bit(void **state)
{
	const char	*m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomn"
			    "opnopq";

	(void)state;
	assert_int_equal(strlen(m), 56);
	assert_digest(m, strlen(m),
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void
test_896bit(void **state)
{
	const char	*m = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghij"
			    "klmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrs"
			    "tnopqrstu";

	(void)state;
	assert_int_equal(strlen(m), 112);
	assert_digest(m, strlen(m),
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void
test_million_a(void **state)
{
	(void)state;
	memset(million, 'a', sizeof(million));
	assert_digest(million, sizeof(million),
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths around the 55/56-byte padding split and the block size. */
static void
test_padding_boundaries(void **state)
{
	static const struct {
		size_t		 len;
		const char	*want;
	} v[] = {
	{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
	{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
	{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
	{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
	{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
	{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	uint8_t	buf[128];
	size_t	i;

	(void)state;
	memset(buf, 'a', sizeof(buf));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_digest(buf, v[i].len, v[i].want);
}

/* Every split point of a 768-byte message gives the one-shot digest. */
static void
test_split_updates(void **state)
{
	struct sha256_ctx	ctx;
	uint8_t			msg[768], want[SHA256_DIGEST_LEN];
	uint8_t			got[SHA256_DIGEST_LEN];
	char			h[2 * SHA256_DIGEST_LEN + 1];
	size_t			i, cut;

	(void)state;
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	sha256(msg, sizeof(msg), want);
	hex(want, h);
	assert_string_equal(h,
	    "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
	for (cut = 0; cut <= sizeof(msg); cut++) {
		sha256_init(&ctx);
		sha256_update(&ctx, msg, cut);
		sha256_update(&ctx, msg + cut, sizeof(msg) - cut);
		sha256_final(&ctx, got);
		assert_memory_equal(got, want, sizeof(want));
	}
	sha256_init(&ctx);
	for (i = 0; i < sizeof(msg); i++)
		sha256_update(&ctx, msg + i, 1);
	sha256_final(&ctx, got);
	assert_memory_equal(got, want, sizeof(want));
}

/* The hex form every caller prints: lowercase, 64 digits, NUL. */
static void
test_hex(void **state)
{
	uint8_t	d[SHA256_DIGEST_LEN];
	char	out[SHA256_HEX_LEN + 1];

	(void)state;
	sha256("abc", 3, d);
	memset(out, 'X', sizeof(out));
	sha256_hex(d, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_abc),
		cmocka_unit_test(test_448bit),
		cmocka_unit_test(test_896bit),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_padding_boundaries),
		cmocka_unit_test(test_split_updates),
		cmocka_unit_test(test_hex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
