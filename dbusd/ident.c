/*
 * ident.c: reads the identity of the client service (opencode-v2.service)
 * from PID 1 for the root parent's peer authentication.  Each property is
 * read only from the interface systemd defines it on; a ControlGroup or
 * MainPID answered by any other interface does not count.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/config.h"

#define FIELD(f)	offsetof(struct client_ident, f), \
			sizeof(((struct client_ident *)0)->f)

/* ActiveState first: a unit that is not active has no identity. */
static const struct prop_want ident_want[] = {
	{ SD_UNIT,	"ActiveState",	"s",	FIELD(active) },
	{ SD_UNIT,	"SubState",	"s",	FIELD(sub) },
	{ SD_UNIT,	"InvocationID",	"ay",	FIELD(invocation) },
	{ SD_SERVICE,	"MainPID",	"u",	FIELD(main_pid) },
	{ SD_SERVICE,	"ControlGroup",	"s",	FIELD(cgroup) },
};
static const size_t ident_nwant = sizeof(ident_want) / sizeof(ident_want[0]);

/* 0, or -EBADMSG when a property is missing, doubled, mistyped or long. */
static int
ident_decode(const struct prop_value *v, size_t nv, struct client_ident *out)
{
	struct client_ident	tmp = { 0 };
	int			r;

	/* All or nothing: a half-filled identity is never returned. */
	if ((r = props_decode(ident_want, ident_nwant, v, nv, &tmp)) < 0)
		return r;
	*out = tmp;
	return 0;
}

int
dbusd_client_ident_begin(struct dbusd *d, dbusd_req_cb cb, void *arg,
    struct dbusd_req **out)
{
	return call_get_begin(d, OPTY_CLIENT_UNIT, ident_want, ident_nwant,
	    REQ_GET, cb, arg, out);
}

int
dbusd_client_ident_end(struct dbusd_req *req, struct client_ident *out)
{
	struct prop_value	v[WANT_MAX * 2];
	struct client_ident	tmp = { 0 };
	size_t			nv;
	int			r;

	if ((r = call_get_values(req, ident_want, ident_nwant, v, &nv)) < 0)
		return r;
	/*
	 * Not loaded (PID 1 answers for a stub), stopped or stopping: there
	 * is no client, and its InvocationID may well be empty.
	 */
	if ((r = props_decode(ident_want, 1, v, nv, &tmp)) < 0)
		return r;
	if (strcmp(tmp.active, "active") != 0)
		return -ENOENT;
	return ident_decode(v, nv, out);
}
