/*
 * readiness.h: the root readiness verifier (opencode-pty-verify-readiness),
 * run by systemd as ExecCondition= of opencode-v2.service.  Reads only
 * root-owned files at fixed paths; answers ready (0) or not ready (1).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_READINESS_H
#define OPTY_READINESS_H

#include <stddef.h>
#include <stdint.h>

#include "proto/config.h"
#include "readiness/marker.h"

#define READINESS_MARKER_PATH	"/etc/opencode/pty-supervisor-verified"
#define READINESS_SUPERVISOR	OPTY_LIBEXECDIR "/opencode-pty-supervisor"
#define READINESS_LAUNCHER	OPTY_LIBEXECDIR "/opencode-pty-launcher"
#define READINESS_CLIENT	OPTY_LIBEXECDIR "/opencode-pty-client"

/* Exit statuses; 1-254 make systemd skip the unit, not fail it. */
#define READINESS_EXIT_READY	0
#define READINESS_EXIT_REFUSED	1
#define READINESS_EXIT_USAGE	2

/* File-level refusals, each with its own code (cf. enum marker_status). */
enum readiness_status {
	RD_OK = 0,
	RD_E_ABSENT = -100,	/* no such file */
	RD_E_SYMLINK = -101,	/* last component is a symbolic link */
	RD_E_OPEN = -102,	/* any other open(2) failure */
	RD_E_DIR = -103,	/* a parent directory not root-controlled */
	RD_E_NOTREG = -104,	/* not a regular file */
	RD_E_OWNER = -105,	/* not owned by uid 0 */
	RD_E_MODE = -106,	/* marker mode not exactly 0644 */
	RD_E_WRITABLE = -107,	/* file writable by group or other */
	RD_E_NLINK = -108,	/* marker has more than one link */
	RD_E_EMPTY = -109,	/* zero bytes */
	RD_E_SIZE = -110,	/* marker over MARKER_MAX_LEN */
	RD_E_READ = -111,	/* read(2) failed */
	RD_E_CHANGED = -112,	/* size changed while read */
	RD_E_STALE = -113,	/* binary hash differs from its record */
	RD_E_CONF = -114,	/* installed configuration file differs */
};

/* An installed configuration file and the SHA-256 (hex) it must have. */
struct readiness_conf {
	const char	*path;
	const char	*sha256;
};

/* Embedded at build time (readiness/confs.c). */
extern const struct readiness_conf	readiness_confs[];
extern const size_t			readiness_nconfs;

/* The embedded revision line, set at build time (readiness/revision.c). */
extern const char	opty_revision[];

int	readiness_read_marker(const char *, uint8_t *, size_t, size_t *);
int	readiness_hash_file(const char *, uint8_t [SHA256_DIGEST_LEN]);
const char *readiness_strerror(int);

#endif
