/*
 * name.c: the one grammar of transient unit names the root parent will
 * create, stop or sweep: opencode-pty-<32 lowercase hex>.service, and
 * the session's terminal mount named from it.  Pure code, runs in the
 * root parent; a name that fails here is never sent to systemd, so a
 * lookalike unit can never be touched.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/random.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dbusd/dbusd.h"
#include "proto/config.h"

#define NAME_HEXLEN	32

int
unit_name_valid(const char *name)
{
	size_t	plen = strlen(OPTY_UNIT_PREFIX);

	if (name == NULL)
		return 0;
	if (strncmp(name, OPTY_UNIT_PREFIX, plen) != 0)
		return 0;
	name += plen;
	/*
	 * Uppercase is refused: systemd names are case-sensitive.  A
	 * longer run of hex fails too: the suffix starts with a dot.
	 */
	if (strspn(name, "0123456789abcdef") != NAME_HEXLEN)
		return 0;
	/* strcmp, not strncmp: nothing may follow the suffix. */
	return strcmp(name + NAME_HEXLEN, OPTY_UNIT_SUFFIX) == 0;
}

int
unit_name_new(char out[64])
{
	uint8_t	rnd[NAME_HEXLEN / 2];
	char	id[NAME_HEXLEN + 1];
	size_t	i;
	ssize_t	n;

	do {
		n = getrandom(rnd, sizeof(rnd), 0);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return -errno;
	if ((size_t)n != sizeof(rnd))
		return -EIO;
	for (i = 0; i < sizeof(rnd); i++)
		(void)snprintf(id + 2 * i, 3, "%02x", rnd[i]);
	/* 13 + 32 + 8 + NUL = 54 bytes: always fits in 64. */
	(void)snprintf(out, 64, "%s%s%s", OPTY_UNIT_PREFIX, id,
	    OPTY_UNIT_SUFFIX);
	return 0;
}

/*
 * The mount unit of a session's devpts instance and its mount point,
 * both made from the session unit's own id: only a valid session name
 * gives one, so no other mount can ever be named.
 */
int
unit_pts_names(const char *unit, struct pts_names *out)
{
	const char	*hex;

	if (!unit_name_valid(unit))
		return -EINVAL;
	hex = unit + strlen(OPTY_UNIT_PREFIX);
	(void)snprintf(out->unit, sizeof(out->unit), "%s%.*s%s",
	    OPTY_PTS_UNIT_PREFIX, NAME_HEXLEN, hex, OPTY_PTS_UNIT_SUFFIX);
	(void)snprintf(out->where, sizeof(out->where), "%s/%.*s",
	    OPTY_PTS_DIR, NAME_HEXLEN, hex);
	return 0;
}
