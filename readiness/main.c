/*
 * main.c: opencode-pty-verify-readiness.  Runs as root, as
 * ExecCondition= of opencode-v2.service: exits 0 only if the
 * content-bound readiness marker names exactly the embedded reviewed
 * revision and the SHA-256 of the three installed PTY binaries, and the
 * installed unit files, drop-in and sysusers.d entry are the ones
 * embedded at build time.  Any refusal exits 1 with one line on stderr,
 * which makes systemd skip the service instead of failing it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "readiness/readiness.h"

#define PROGNAME	"opencode-pty-verify-readiness"

static const char *const binaries[MARKER_NRECORDS] = {
	READINESS_SUPERVISOR,
	READINESS_LAUNCHER,
	READINESS_CLIENT,
};

static int
refuse(const char *path, int rc)
{
	if (rc == RD_E_OPEN || rc == RD_E_READ)
		fprintf(stderr, "%s: not ready: %s: %s: %s\n", PROGNAME, path,
		    readiness_strerror(rc), strerror(errno));
	else
		fprintf(stderr, "%s: not ready: %s: %s\n", PROGNAME, path,
		    readiness_strerror(rc));
	return READINESS_EXIT_REFUSED;
}

/*
 * The units, drop-in and sysusers.d entry as installed must be the ones
 * this verifier was built with: the marker binds the binaries, this
 * binds the configuration that confines them.
 */
static int
verify_confs(void)
{
	uint8_t	digest[SHA256_DIGEST_LEN];
	char	hex[2 * SHA256_DIGEST_LEN + 1];
	size_t	i;
	int	rc;

	for (i = 0; i < readiness_nconfs; i++) {
		rc = readiness_hash_file(readiness_confs[i].path, digest);
		if (rc != RD_OK)
			return refuse(readiness_confs[i].path, rc);
		sha256_hex(digest, hex);
		if (strcmp(hex, readiness_confs[i].sha256) != 0)
			return refuse(readiness_confs[i].path, RD_E_CONF);
	}
	return READINESS_EXIT_READY;
}

static int
verify(void)
{
	uint8_t		buf[MARKER_MAX_LEN + 2];
	uint8_t		digest[SHA256_DIGEST_LEN];
	struct marker	m;
	size_t		len;
	int		rc, i;

	rc = readiness_read_marker(READINESS_MARKER_PATH, buf, sizeof(buf),
	    &len);
	if (rc != RD_OK)
		return refuse(READINESS_MARKER_PATH, rc);
	rc = marker_parse(buf, len, opty_revision, binaries, &m);
	if (rc != MARKER_OK)
		return refuse(READINESS_MARKER_PATH, rc);
	for (i = 0; i < MARKER_NRECORDS; i++) {
		if ((rc = readiness_hash_file(binaries[i], digest)) != RD_OK)
			return refuse(binaries[i], rc);
		if (memcmp(digest, m.digest[i], sizeof(digest)) != 0)
			return refuse(binaries[i], RD_E_STALE);
	}
	if ((rc = verify_confs()) != READINESS_EXIT_READY)
		return rc;
	fprintf(stderr, "%s: ready: %s\n", PROGNAME, opty_revision);
	return READINESS_EXIT_READY;
}

static int
print_revision(void)
{
	if (printf("%s\n", opty_revision) < 0 || fflush(stdout) == EOF) {
		fprintf(stderr, "%s: write: %s\n", PROGNAME, strerror(errno));
		return READINESS_EXIT_REFUSED;
	}
	return READINESS_EXIT_READY;
}

int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "--print-revision") == 0)
		return print_revision();
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--print-revision]\n", PROGNAME);
		return READINESS_EXIT_USAGE;
	}
	return verify();
}
