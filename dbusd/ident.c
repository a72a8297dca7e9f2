/*
 * ident.c: reads the identity of the client service (opencode-v2.service)
 * from PID 1 for the root parent's peer authentication.  Each property is
 * read only from the interface systemd defines it on; a ControlGroup or
 * MainPID answered by any other interface does not count.
 */
#include <errno.h>
#include <stddef.h>

#include "dbusd/priv.h"
#include "dbusd/ident.h"
#include "proto/config.h"

#define FIELD(f)	offsetof(struct client_ident, f), \
			sizeof(((struct client_ident *)0)->f)

const struct prop_want ident_want[] = {
	{ SD_UNIT,	"ActiveState",	"s",	FIELD(active) },
	{ SD_UNIT,	"SubState",	"s",	FIELD(sub) },
	{ SD_UNIT,	"InvocationID",	"ay",	FIELD(invocation) },
	{ SD_SERVICE,	"MainPID",	"u",	FIELD(main_pid) },
	{ SD_SERVICE,	"ControlGroup",	"s",	FIELD(cgroup) },
};
const size_t ident_nwant = sizeof(ident_want) / sizeof(ident_want[0]);

int
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
dbusd_client_ident(struct dbusd *d, struct client_ident *out)
{
	struct client_ident	tmp = { 0 };
	char			path[256];
	int			r;

	if ((r = call_get_unit(d, OPTY_CLIENT_UNIT, path, sizeof(path))) < 0)
		return r;
	if ((r = call_get_wanted(d, path, ident_want, ident_nwant, &tmp)) < 0)
		return r;
	*out = tmp;
	return 0;
}
