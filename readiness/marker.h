/*
 * marker.h: the grammar of /etc/opencode/pty-supervisor-verified, the
 * content-bound readiness marker root writes at gate 10
 * (docs/ROOT-ACCEPTANCE.md).  The parser is a pure
 * function over bytes already read; it runs in the root verifier and
 * treats the marker as untrusted text until every rule has passed.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_MARKER_H
#define OPTY_MARKER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/sha256.h"

#define MARKER_NRECORDS		3	/* supervisor, launcher, client */
#define MARKER_NLINES		(1 + MARKER_NRECORDS)
#define MARKER_MAX_LEN		4095	/* bytes; larger files are refused */

#define REV_PREFIX		"revision=opencode-v2-pilot:git:"
#define REV_GIT_HEXLEN		40
#define REV_SOURCE_SEP		";pty-source:sha256:"
#define REV_SOURCE_HEXLEN	64
#define REV_LEN			(sizeof(REV_PREFIX) - 1 + REV_GIT_HEXLEN + \
				 sizeof(REV_SOURCE_SEP) - 1 + REV_SOURCE_HEXLEN)

/* Each refusal its own code, so tests and logs can tell them apart. */
enum marker_status {
	MARKER_OK = 0,
	MARKER_E_EMPTY = -1,		/* zero bytes */
	MARKER_E_TOOLONG = -2,		/* over MARKER_MAX_LEN */
	MARKER_E_NUL = -3,		/* a NUL byte anywhere */
	MARKER_E_NOFINALNL = -4,	/* last line not newline-terminated */
	MARKER_E_SHORT = -5,		/* fewer than four lines */
	MARKER_E_TRAILING = -6,		/* a fifth line */
	MARKER_E_DUPLICATE = -7,	/* a line repeats an earlier one */
	MARKER_E_REVFORMAT = -8,	/* line 1 not the revision grammar */
	MARKER_E_REVGIT = -9,		/* line 1 names another commit */
	MARKER_E_REVSOURCE = -10,	/* line 1 names another source hash */
	MARKER_E_RECFORMAT = -11,	/* not "<64 lowercase hex>  <path>" */
	MARKER_E_ORDER = -12,		/* a known path in the wrong line */
	MARKER_E_PATH = -13,		/* a path that is not expected */
	/* caller's expected revision malformed */
	MARKER_E_EXPECTED = -14,
};

struct marker {
	uint8_t	digest[MARKER_NRECORDS][SHA256_DIGEST_LEN];
};

/*
 * Checks buf[0..len) against the expected revision line (without its
 * newline) and the three expected paths, in order.  On MARKER_OK the
 * record digests are in *out; on any other result *out is zeroed.
 */
int	marker_parse(const uint8_t *buf, size_t len, const char *revision,
	    const char *const paths[MARKER_NRECORDS], struct marker *out);
const char *marker_strerror(int);

#endif
