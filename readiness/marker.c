/*
 * marker.c: parser of the readiness marker (readiness/marker.h).  Runs
 * as root inside opencode-pty-verify-readiness on bytes read from a
 * root-owned file, but is written as if the bytes were hostile: every
 * rule is exact, nothing is trimmed, normalised or skipped.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <string.h>

#include "readiness/marker.h"

struct line {
	const uint8_t	*p;
	size_t		 len;	/* without the newline */
};

static int
is_lowerhex(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int
all_lowerhex(const uint8_t *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!is_lowerhex(p[i]))
			return 0;
	return 1;
}

static uint8_t
hexval(uint8_t c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* The revision grammar: REV_PREFIX, 40 hex, REV_SOURCE_SEP, 64 hex. */
static int
marker_revision_valid(const char *s, size_t len)
{
	const uint8_t	*p = (const uint8_t *)s;
	size_t		 plen = sizeof(REV_PREFIX) - 1;
	size_t		 slen = sizeof(REV_SOURCE_SEP) - 1;

	if (len != REV_LEN)
		return 0;
	if (memcmp(p, REV_PREFIX, plen) != 0)
		return 0;
	p += plen;
	if (!all_lowerhex(p, REV_GIT_HEXLEN))
		return 0;
	p += REV_GIT_HEXLEN;
	if (memcmp(p, REV_SOURCE_SEP, slen) != 0)
		return 0;
	p += slen;
	return all_lowerhex(p, REV_SOURCE_HEXLEN);
}

static int
line_eq(const struct line *a, const struct line *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

/* Splits into at most MARKER_NLINES + 1 lines; buf ends in '\n'. */
static size_t
split_lines(const uint8_t *buf, size_t len, struct line *lines)
{
	const uint8_t	*p = buf, *end = buf + len, *nl;
	size_t		 n = 0;

	while (p < end && n < MARKER_NLINES + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		lines[n].p = p;
		lines[n].len = (size_t)(nl - p);
		n++;
		p = nl + 1;
	}
	return n;
}

static int
check_revision(const struct line *l, const char *rev)
{
	size_t	gitoff = sizeof(REV_PREFIX) - 1;

	if (!marker_revision_valid((const char *)l->p, l->len))
		return MARKER_E_REVFORMAT;
	if (memcmp(l->p + gitoff, rev + gitoff, REV_GIT_HEXLEN) != 0)
		return MARKER_E_REVGIT;
	if (memcmp(l->p, rev, REV_LEN) != 0)
		return MARKER_E_REVSOURCE;
	return MARKER_OK;
}

/* sha256sum(1) escapes such bytes; a record holding one is not its text. */
static int
has_control(const uint8_t *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 1;
	return 0;
}

static int
path_is(const struct line *l, size_t off, const char *path)
{
	size_t	plen = strlen(path);

	return l->len - off == plen && memcmp(l->p + off, path, plen) == 0;
}

/* One sha256sum(1) text-mode record for paths[idx]. */
static int
check_record(const struct line *l, const char *const paths[], int idx,
    uint8_t digest[SHA256_DIGEST_LEN])
{
	const size_t	off = 2 * SHA256_DIGEST_LEN + 2;
	int		i;

	if (l->len <= off || !all_lowerhex(l->p, 2 * SHA256_DIGEST_LEN) ||
	    l->p[off - 2] != ' ' || l->p[off - 1] != ' ' ||
	    has_control(l->p + off, l->len - off))
		return MARKER_E_RECFORMAT;
	if (!path_is(l, off, paths[idx])) {
		for (i = 0; i < MARKER_NRECORDS; i++)
			if (path_is(l, off, paths[i]))
				return MARKER_E_ORDER;
		return MARKER_E_PATH;
	}
	for (i = 0; i < SHA256_DIGEST_LEN; i++)
		digest[i] = (uint8_t)(hexval(l->p[2 * i]) << 4 |
		    hexval(l->p[2 * i + 1]));
	return MARKER_OK;
}

/* Whole-file rules: size, NUL, final newline, exact line count. */
static int
check_shape(const uint8_t *buf, size_t len, struct line *lines)
{
	size_t	n, i, j;

	if (len == 0)
		return MARKER_E_EMPTY;
	if (len > MARKER_MAX_LEN)
		return MARKER_E_TOOLONG;
	if (memchr(buf, '\0', len) != NULL)
		return MARKER_E_NUL;
	if (buf[len - 1] != '\n')
		return MARKER_E_NOFINALNL;
	n = split_lines(buf, len, lines);
	if (n < MARKER_NLINES)
		return MARKER_E_SHORT;
	if (n > MARKER_NLINES) {
		for (i = 0; i < MARKER_NLINES; i++)
			if (line_eq(&lines[MARKER_NLINES], &lines[i]))
				return MARKER_E_DUPLICATE;
		return MARKER_E_TRAILING;
	}
	for (i = 1; i < MARKER_NLINES; i++)
		for (j = 0; j < i; j++)
			if (line_eq(&lines[i], &lines[j]))
				return MARKER_E_DUPLICATE;
	return MARKER_OK;
}

int
marker_parse(const uint8_t *buf, size_t len, const char *revision,
    const char *const paths[MARKER_NRECORDS], struct marker *out)
{
	struct line	lines[MARKER_NLINES + 1];
	int		rc, i;

	memset(out, 0, sizeof(*out));
	if (!marker_revision_valid(revision, strlen(revision)))
		return MARKER_E_EXPECTED;
	if ((rc = check_shape(buf, len, lines)) != MARKER_OK)
		return rc;
	if ((rc = check_revision(&lines[0], revision)) != MARKER_OK)
		return rc;
	for (i = 0; i < MARKER_NRECORDS; i++) {
		rc = check_record(&lines[1 + i], paths, i, out->digest[i]);
		if (rc != MARKER_OK) {
			memset(out, 0, sizeof(*out));
			return rc;
		}
	}
	return MARKER_OK;
}

const char *
marker_strerror(int rc)
{
	switch (rc) {
	case MARKER_OK:
		return "valid";
	case MARKER_E_EMPTY:
		return "marker is empty";
	case MARKER_E_TOOLONG:
		return "marker is too long";
	case MARKER_E_NUL:
		return "marker contains a NUL byte";
	case MARKER_E_NOFINALNL:
		return "last line is not newline-terminated";
	case MARKER_E_SHORT:
		return "fewer than 4 lines";
	case MARKER_E_TRAILING:
		return "trailing line after the 4 records";
	case MARKER_E_DUPLICATE:
		return "duplicate line";
	case MARKER_E_REVFORMAT:
		return "line 1 is not a revision line";
	case MARKER_E_REVGIT:
		return "line 1 names a different git commit";
	case MARKER_E_REVSOURCE:
		return "line 1 names a different source-manifest hash";
	case MARKER_E_RECFORMAT:
		return "record is not \"<64 lowercase hex>  <path>\"";
	case MARKER_E_ORDER:
		return "records are not in supervisor, launcher, client order";
	case MARKER_E_PATH:
		return "record names an unexpected path";
	case MARKER_E_EXPECTED:
		return "embedded revision is malformed";
	default:
		return "unknown marker error";
	}
}
