/*
 * unit.c: start, inspect, stop and reset one session unit (root parent).
 * Every call names a unit that passed unit_name_valid(), so the parent
 * can never act on a unit it did not name itself.  "Gone" is decided
 * only by asking PID 1, never by a signal.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dbusd/priv.h"
#include "dbusd/props.h"
#include "proto/log.h"

struct state_raw {
	char			load[32];
	struct unit_state	st;
};

#define RAW(f)	offsetof(struct state_raw, f), \
		sizeof(((struct state_raw *)0)->f)

static const struct prop_want state_want[] = {
	{ SD_UNIT,	"LoadState",		"s",	RAW(load) },
	{ SD_UNIT,	"ActiveState",		"s",	RAW(st.active) },
	{ SD_UNIT,	"SubState",		"s",	RAW(st.sub) },
	{ SD_UNIT,	"Job",			"(uo)",	RAW(st.job_id) },
	{ SD_SERVICE,	"Result",		"s",	RAW(st.result) },
	{ SD_SERVICE,	"ExecMainCode",		"i",	RAW(st.exec_code) },
	{ SD_SERVICE,	"ExecMainStatus",	"i",	RAW(st.exec_status) },
	{ SD_SERVICE,	"MainPID",		"u",	RAW(st.main_pid) },
	{ SD_SERVICE,	"ExecMainStartTimestampMonotonic", "t",
	    RAW(st.exec_start_usec) },
};

int
dbusd_start_unit(struct dbusd *d, const struct unit_spec *spec, char *job,
    size_t joblen)
{
	struct props_in	 in = {
		.name = spec->name, .runtime_sec = spec->runtime_sec,
		.stream_fd = spec->stream_fd, .dir_fd = spec->dir_fd,
		.argc = spec->argc, .argv = spec->argv,
		.user_uid = d->user_uid,
	};
	sd_bus_message	*m = NULL, *reply = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	const char	*p;
	int		 r;

	if ((r = props_start_message(d->bus, &in, &m)) < 0)
		return r;
	r = sd_bus_call(d->bus, m, DBUSD_CALL_USEC, &e, &reply);
	/* Drops the message's duplicates of the stream and directory. */
	sd_bus_message_unref(m);
	bus_kick(d);
	if (r < 0) {
		log_warnx("StartTransientUnit %s: %s", spec->name,
		    e.message != NULL ? e.message : strerror(-r));
		r = call_errno(&e, r);
	} else if (sd_bus_message_read_basic(reply, 'o', &p) <= 0)
		r = -EBADMSG;
	else if (strlen(p) >= joblen)
		r = -ENAMETOOLONG;
	else {
		memcpy(job, p, strlen(p) + 1);
		r = 0;
	}
	sd_bus_error_free(&e);
	sd_bus_message_unref(reply);
	return r;
}

int
dbusd_unit_state(struct dbusd *d, const char *unit, struct unit_state *out)
{
	struct state_raw	raw = { .load = "" };
	char			path[256];
	int			r;

	if (!unit_name_valid(unit))
		return -EINVAL;
	r = call_get_unit(d, unit, path, sizeof(path));
	if (r == 0)
		r = call_get_wanted(d, path, state_want,
		    sizeof(state_want) / sizeof(state_want[0]), &raw);
	if (r == -ENOENT ||
	    (r == 0 && strcmp(raw.load, "not-found") == 0)) {
		/* Asking by path may load a stub of a collected unit. */
		memset(out, 0, sizeof(*out));
		return 0;
	}
	if (r < 0)
		return r;
	*out = raw.st;
	out->loaded = 1;
	return 0;
}

int
dbusd_stop_unit(struct dbusd *d, const char *unit)
{
	int	r;

	if (!unit_name_valid(unit))
		return -EINVAL;
	r = call_unit_method(d, "StopUnit", unit, "replace");
	return r == -ENOENT ? 0 : r;
}

int
dbusd_reset_failed(struct dbusd *d, const char *unit)
{
	int	r;

	if (!unit_name_valid(unit))
		return -EINVAL;
	r = call_unit_method(d, "ResetFailedUnit", unit, NULL);
	return r == -ENOENT ? 0 : r;
}
