/*
 * fuzz_marker.c: libFuzzer harness of the readiness-marker parser
 * (readiness/marker.c), which runs as root in the readiness verifier.
 * Test code only.
 *
 * Each input is parsed twice: against a fixed expected revision, and
 * against its own first line taken as the expected revision (so both
 * the "another commit" refusals and acceptance are reachable).  The
 * properties are checked against an oracle written here from
 * readiness/marker.h and docs, not from marker.c:
 *  - accepted if and only if the input is exactly
 *    "<revision>\n" then "<64 lowercase hex>  <path i>\n" for the three
 *    paths in order: four newline-terminated lines, nothing else;
 *  - the marker rebuilt from the accepted digests equals the input;
 *  - a refusal leaves the digests zeroed;
 *  - the whole-file rules are decided in their documented order:
 *    malformed expected revision, empty, over 4095 bytes, NUL, no final
 *    newline, fewer than four lines, more than four lines (trailing or
 *    duplicate); with four lines a repeated one is refused as such.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "readiness/marker.h"
#include "readiness/readiness.h"

#define GIT	"0123456789abcdef0123456789abcdef01234567"
#define SRC	"89abcdef0123456789abcdef0123456789abcdef0123456789abcdef01234567"
#define REV	REV_PREFIX GIT REV_SOURCE_SEP SRC

#define HEXLEN	(2 * SHA256_DIGEST_LEN)
#define MAXREV	255

static const char *const paths[MARKER_NRECORDS] = {
	READINESS_SUPERVISOR,
	READINESS_LAUNCHER,
	READINESS_CLIENT,
};

static uint8_t	rebuilt[MARKER_MAX_LEN + 1];

static int
lowerhex(const uint8_t *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') ||
		    (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	return 1;
}

/* The revision grammar of marker.h, checked independently. */
static int
oracle_rev(const char *rev)
{
	const uint8_t	*p = (const uint8_t *)rev;
	size_t		 pl = strlen(REV_PREFIX), sl = strlen(REV_SOURCE_SEP);

	return strlen(rev) == REV_LEN &&
	    memcmp(p, REV_PREFIX, pl) == 0 &&
	    lowerhex(p + pl, REV_GIT_HEXLEN) &&
	    memcmp(p + pl + REV_GIT_HEXLEN, REV_SOURCE_SEP, sl) == 0 &&
	    lowerhex(p + pl + REV_GIT_HEXLEN + sl, REV_SOURCE_HEXLEN);
}

/* Accepted iff the input has exactly the template's shape. */
static int
oracle_ok(const uint8_t *buf, size_t len, const char *rev)
{
	size_t	rl = strlen(rev), pl, o, i;

	if (len < rl + 1 || memcmp(buf, rev, rl) != 0 || buf[rl] != '\n')
		return 0;
	o = rl + 1;
	for (i = 0; i < MARKER_NRECORDS; i++) {
		pl = strlen(paths[i]);
		if (len - o < HEXLEN + 2 + pl + 1)
			return 0;
		if (!lowerhex(buf + o, HEXLEN) ||
		    memcmp(buf + o + HEXLEN, "  ", 2) != 0 ||
		    memcmp(buf + o + HEXLEN + 2, paths[i], pl) != 0 ||
		    buf[o + HEXLEN + 2 + pl] != '\n')
			return 0;
		o += HEXLEN + 2 + pl + 1;
	}
	return o == len;
}

static size_t
rebuild(const struct marker *m, const char *rev)
{
	static const char	hex[] = "0123456789abcdef";
	size_t			o, i, j, pl;

	o = strlen(rev);
	memcpy(rebuilt, rev, o);
	rebuilt[o++] = '\n';
	for (i = 0; i < MARKER_NRECORDS; i++) {
		for (j = 0; j < SHA256_DIGEST_LEN; j++) {
			rebuilt[o++] = (uint8_t)hex[m->digest[i][j] >> 4];
			rebuilt[o++] = (uint8_t)hex[m->digest[i][j] & 15];
		}
		rebuilt[o++] = ' ';
		rebuilt[o++] = ' ';
		pl = strlen(paths[i]);
		memcpy(rebuilt + o, paths[i], pl);
		o += pl;
		rebuilt[o++] = '\n';
	}
	return o;
}

/* Do two of the first five lines repeat each other? */
static int
has_duplicate(const uint8_t *buf, size_t len)
{
	const uint8_t	*ls[MARKER_NLINES + 1], *p = buf, *nl;
	size_t		 ll[MARKER_NLINES + 1], n = 0, i, j;

	while (n < MARKER_NLINES + 1 &&
	    (nl = memchr(p, '\n', len - (size_t)(p - buf))) != NULL) {
		ls[n] = p;
		ll[n++] = (size_t)(nl - p);
		p = nl + 1;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (ll[i] == ll[j] && memcmp(ls[i], ls[j], ll[i]) == 0)
				return 1;
	return 0;
}

static size_t
count_nl(const uint8_t *buf, size_t len)
{
	size_t	i, n = 0;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

/* The whole-file rules, in the order marker.h documents them. */
static void
check_shape(const uint8_t *buf, size_t len, int rc)
{
	size_t	nl;

	if (len == 0) {
		PROP(rc == MARKER_E_EMPTY);
		return;
	}
	if (len > MARKER_MAX_LEN) {
		PROP(rc == MARKER_E_TOOLONG);
		return;
	}
	if (memchr(buf, '\0', len) != NULL) {
		PROP(rc == MARKER_E_NUL);
		return;
	}
	if (buf[len - 1] != '\n') {
		PROP(rc == MARKER_E_NOFINALNL);
		return;
	}
	nl = count_nl(buf, len);
	if (nl < MARKER_NLINES)
		PROP(rc == MARKER_E_SHORT);
	else if (nl > MARKER_NLINES)
		PROP(rc == MARKER_E_TRAILING || rc == MARKER_E_DUPLICATE);
	else
		PROP(rc == MARKER_OK || rc <= MARKER_E_DUPLICATE);
	/*
	 * With a fifth line either refusal is right; with exactly four, a
	 * repeated line must be named as such.
	 */
	if (rc == MARKER_E_DUPLICATE)
		PROP(has_duplicate(buf, len));
	if (nl == MARKER_NLINES)
		PROP((rc == MARKER_E_DUPLICATE) == has_duplicate(buf, len));
}

static void
check_one(const uint8_t *buf, size_t len, const char *rev)
{
	struct marker	m;
	size_t		i, j, n;
	int		rc;

	memset(&m, 0xa5, sizeof(m));
	rc = marker_parse(buf, len, rev, paths, &m);
	PROP(rc <= MARKER_OK && rc >= MARKER_E_EXPECTED);
	if (!oracle_rev(rev)) {
		PROP(rc == MARKER_E_EXPECTED);
		return;
	}
	check_shape(buf, len, rc);
	PROP((rc == MARKER_OK) == oracle_ok(buf, len, rev));
	if (rc != MARKER_OK) {
		for (i = 0; i < MARKER_NRECORDS; i++)
			for (j = 0; j < SHA256_DIGEST_LEN; j++)
				PROP(m.digest[i][j] == 0);
		return;
	}
	n = rebuild(&m, rev);
	PROP(n == len && memcmp(rebuilt, buf, len) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/*
	 * Zero-filled, though only up to its NUL is read: clang-tidy's
	 * analyzer cannot tell that strlen(rev) stops there.
	 */
	char	 rev[MAXREV + 1] = "";
	uint8_t	*buf;
	size_t	 rl;

	/* An exact-size copy, so any read past the end is an ASan error. */
	if ((buf = malloc(size > 0 ? size : 1)) == NULL)
		abort();
	if (size > 0)
		memcpy(buf, data, size);

	check_one(buf, size, REV);

	/* The input's own first line as the expected revision. */
	for (rl = 0; rl < size && rl < MAXREV && data[rl] != '\n' &&
	    data[rl] != '\0'; rl++)
		rev[rl] = (char)data[rl];
	rev[rl] = '\0';
	check_one(buf, size, rev);

	free(buf);
	return 0;
}
