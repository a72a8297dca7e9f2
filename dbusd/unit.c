/*
 * unit.c: start, inspect, stop and reset one session unit (root parent).
 * Every call names a unit that passed unit_name_valid(), so the parent
 * can never act on a unit it did not name itself.  "Gone" is decided
 * only by asking PID 1, never by a signal.
 *
 * And at start-up, the sweep: session units left over by a previous
 * supervisor are stopped.  A unit is ours only if its name passes the
 * strict check AND its BindsTo= is exactly [OPTY_SUPERVISOR_UNIT]; any
 * look-alike (other case, other type, extra or foreign BindsTo=) is left
 * alone, so the sweep can never stop somebody else's unit.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/config.h"
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
	{ SD_SERVICE,	"ExecMainStartTimestampMonotonic", "t",
	    RAW(st.exec_start_usec) },
};
#define STATE_NWANT	(sizeof(state_want) / sizeof(state_want[0]))

/*
 * A StartTransientUnit call built (r: how that went), sent at once:
 * sd-bus holds the message, with its copies of the descriptors and
 * arguments, until it is written.
 */
static int
start_send(struct dbusd *d, int r, sd_bus_message *m, const char *unit,
    dbusd_req_cb cb, void *arg, struct dbusd_req **out)
{
	struct dbusd_req	*req = NULL;

	*out = NULL;
	if (r >= 0 && (req = req_new(d, cb, arg)) == NULL)
		r = -ENOMEM;
	if (r >= 0) {
		snprintf(req->what, sizeof(req->what),
		    "StartTransientUnit %s", unit);
		r = call_done(req, req_call(req, m), out);
	}
	sd_bus_message_unref(m);
	return r;
}

int
dbusd_start(struct dbusd *d, const struct unit_spec *spec, dbusd_req_cb cb,
    void *arg, struct dbusd_req **out)
{
	sd_bus_message	*m = NULL;
	int		 r;

	r = props_start_message(d->bus, spec, &m);
	return start_send(d, r, m, spec->name, cb, arg, out);
}

int
dbusd_pts_start(struct dbusd *d, const char *unit, uid_t uid, gid_t gid,
    dbusd_req_cb cb, void *arg, struct dbusd_req **out)
{
	struct pts_names	 pn;
	sd_bus_message		*m = NULL;
	int			 r;

	if ((r = unit_pts_names(unit, &pn)) == 0)
		r = props_pts_message(d->bus, &pn, uid, gid, &m);
	return start_send(d, r, m, pn.unit, cb, arg, out);
}

/* 0 and the job path, or -errno. */
int
dbusd_start_end(struct dbusd_req *req, char *job, size_t joblen)
{
	sd_bus_message	*m = NULL;	/* not set when its send failed */
	const char	*p;
	int		 r;

	if ((r = req_result(req, 0, &m)) < 0) {
		if (m != NULL && sd_bus_message_is_method_error(m, NULL))
			log_warnx("%s: %s", req->what,
			    sd_bus_message_get_error(m)->message);
		return r;
	}
	if (sd_bus_message_read_basic(m, 'o', &p) <= 0)
		return -EBADMSG;
	if (strlen(p) >= joblen)
		return -ENAMETOOLONG;
	memcpy(job, p, strlen(p) + 1);
	return 0;
}

int
dbusd_unit_state_begin(struct dbusd *d, const char *unit, dbusd_req_cb cb,
    void *arg, struct dbusd_req **out)
{
	if (!unit_name_valid(unit))
		return -EINVAL;
	return call_get_begin(d, unit, state_want, STATE_NWANT, REQ_GETALL,
	    cb, arg, out);
}

int
dbusd_unit_state_end(struct dbusd_req *req, struct unit_state *out)
{
	struct state_raw	raw = { .load = "" };
	struct prop_value	v[REQ_MAX_CALLS * 2];
	size_t			nv;
	int			r;

	if ((r = call_get_values(req, state_want, STATE_NWANT, v, &nv)) == 0)
		r = props_decode(state_want, STATE_NWANT, v, nv, &raw);
	if (r == -ENOENT ||
	    (r == 0 && strcmp(raw.load, "not-found") == 0)) {
		/* Asking by path loads a stub of a collected unit. */
		memset(out, 0, sizeof(*out));
		return 0;
	}
	if (r < 0)
		return r;
	*out = raw.st;
	out->loaded = 1;
	return 0;
}

/*
 * One method of a session unit, sent at once; its reply (a job path or
 * nothing) is not used.  Without out nobody waits for it: a failure is
 * logged (dbusd/req.c).
 */
int
dbusd_unit_call(struct dbusd *d, enum unit_method um, const char *unit,
    int sig, dbusd_req_cb cb, void *arg, struct dbusd_req **out)
{
	static const char *const method[] = {
		[UM_STOP] = "StopUnit", [UM_RESET_FAILED] = "ResetFailedUnit",
		[UM_UNREF] = "UnrefUnit", [UM_KILL] = "KillUnit",
		[UM_PTS_STOP] = "StopUnit",
	};
	struct pts_names	 pn;
	struct dbusd_req	*req;
	int			 r;

	if (out != NULL)
		*out = NULL;
	if ((r = unit_pts_names(unit, &pn)) < 0)	/* a valid name */
		return r;
	if (um == UM_PTS_STOP)
		unit = pn.unit;
	if ((req = req_new(d, cb, arg)) == NULL)
		return -ENOMEM;
	snprintf(req->what, sizeof(req->what), "%s %s", method[um], unit);
	if (um == UM_STOP || um == UM_PTS_STOP)
		r = call_add(req, SD_PATH, SD_MANAGER, method[um], "ss", unit,
		    "replace");
	else if (um == UM_KILL)		/* the main process only */
		r = call_add(req, SD_PATH, SD_MANAGER, method[um], "ssi",
		    unit, "main", (int32_t)sig);
	else
		r = call_add(req, SD_PATH, SD_MANAGER, method[um], "s", unit);
	return call_done(req, r, out);
}

/* 0, or -errno (the unit or its main process gone: -ENOENT, -ESRCH). */
int
dbusd_unit_call_end(struct dbusd_req *req)
{
	sd_bus_message	*m;

	return req_result(req, 0, &m);
}

/*
 * The job queued for the supervisor's own unit, if any: ListJobs, whose
 * answer lists the jobs of one transaction together, so a stop queued
 * with the stops of the session units bound to us is seen in the same
 * answer as they are.
 */
int
dbusd_self_job_begin(struct dbusd *d, dbusd_req_cb cb, void *arg,
    struct dbusd_req **out)
{
	struct dbusd_req	*req;

	*out = NULL;
	if ((req = req_new(d, cb, arg)) == NULL)
		return -ENOMEM;
	return call_done(req, call_add(req, SD_PATH, SD_MANAGER, "ListJobs",
	    ""), out);
}

/* 1 and its type, 0 if our unit has no job, or -errno. */
int
dbusd_self_job_end(struct dbusd_req *req, char *type, size_t len)
{
	sd_bus_message	*m;
	const char	*unit, *t, *state, *jp, *up;
	uint32_t	 id;
	int		 r, found = 0;

	if ((r = req_result(req, 0, &m)) < 0)
		return r;
	if ((r = sd_bus_message_enter_container(m, 'a', "(usssoo)")) < 0)
		return r;
	while ((r = sd_bus_message_read(m, "(usssoo)", &id, &unit, &t,
	    &state, &jp, &up)) > 0) {
		if (strcmp(unit, OPTY_SUPERVISOR_UNIT) != 0)
			continue;
		if (strlen(t) >= len)
			return -ENAMETOOLONG;
		memcpy(type, t, strlen(t) + 1);
		found = 1;
	}
	if (r < 0)
		return r;
	return found;
}

/* The blocking forms, for the start-up sweep and shutdown. */
int
dbusd_unit_state(struct dbusd *d, const char *unit, struct unit_state *out)
{
	struct dbusd_req	*req;
	int			 r;

	if ((r = dbusd_unit_state_begin(d, unit, NULL, NULL, &req)) < 0)
		return r;
	if ((r = req_wait(req, NULL)) == 0)
		r = dbusd_unit_state_end(req, out);
	dbusd_req_free(req);
	return r;
}

/* A unit already gone is fine. */
int
dbusd_unit_wait(struct dbusd *d, enum unit_method um, const char *unit)
{
	struct dbusd_req	*req;
	sd_bus_message		*m;
	int			 r;

	if ((r = dbusd_unit_call(d, um, unit, 0, NULL, NULL, &req)) < 0)
		return r;
	r = req_wait(req, &m);
	dbusd_req_free(req);
	return r == -ENOENT ? 0 : r;
}

/* 1 if the unit's BindsTo= is exactly [OPTY_SUPERVISOR_UNIT], else 0. */
static int
binds_only_supervisor(struct dbusd *d, const char *path)
{
	struct dbusd_req	*req;
	sd_bus_message		*reply;
	const char		*s;
	int			 r, n = 0, exact = 0;

	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = call_add(req, path, DBUS_PROPS, "Get", "ss", SD_UNIT,
	    "BindsTo")) < 0 || (r = req_wait(req, &reply)) < 0)
		goto out;
	if (sd_bus_message_enter_container(reply, 'v', "as") <= 0 ||
	    sd_bus_message_enter_container(reply, 'a', "s") <= 0) {
		r = -EBADMSG;
		goto out;
	}
	while ((r = sd_bus_message_read_basic(reply, 's', &s)) > 0) {
		n++;
		exact = strcmp(s, OPTY_SUPERVISOR_UNIT) == 0;
		log_debug("sweep: %s BindsTo[%d] = %s", path, n, s);
	}
	r = r < 0 ? -EBADMSG : n == 1 && exact;
out:
	dbusd_req_free(req);
	return r;
}

static int
sweep_one(struct dbusd *d, const char *name, const char *active,
    const char *path)
{
	int	r;

	if (!unit_name_valid(name)) {
		log_info("sweep: %s: not a session unit name, left alone",
		    name);
		return 0;
	}
	if ((r = binds_only_supervisor(d, path)) < 0) {
		log_warnx("sweep: %s: BindsTo unreadable: %s", name,
		    strerror(-r));
		return r;
	}
	if (r == 0) {
		log_info("sweep: %s: BindsTo is not exactly %s, left alone",
		    name, OPTY_SUPERVISOR_UNIT);
		return 0;
	}
	log_info("sweep: %s (%s): orphan of %s, stopping", name, active,
	    OPTY_SUPERVISOR_UNIT);
	/* A unit that went away by itself meanwhile is no failure. */
	r = dbusd_unit_wait(d, UM_STOP, name);
	if (r == 0 && strcmp(active, "failed") == 0)
		r = dbusd_unit_wait(d, UM_RESET_FAILED, name);
	if (r < 0) {
		log_warnx("sweep: %s: stop failed: %s", name, strerror(-r));
		return r;
	}
	return 1;
}

int
dbusd_sweep_orphans(struct dbusd *d)
{
	struct dbusd_req	*req;
	sd_bus_message		*reply;
	const char		*name, *active, *path;
	int			 r, stopped = 0, err = 0;

	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = call_add(req, SD_PATH, SD_MANAGER, "ListUnitsByPatterns",
	    "asas", 0, 1, OPTY_UNIT_PREFIX "*" OPTY_UNIT_SUFFIX)) < 0 ||
	    (r = req_wait(req, &reply)) < 0)
		goto out;
	if (sd_bus_message_enter_container(reply, 'a', "(ssssssouso)") <= 0) {
		r = -EBADMSG;
		goto out;
	}
	while ((r = sd_bus_message_read(reply, "(ssssssouso)", &name, NULL,
	    NULL, &active, NULL, NULL, &path, NULL, NULL, NULL)) > 0) {
		r = sweep_one(d, name, active, path);
		if (r > 0)
			stopped++;
		else if (r < 0 && err == 0)
			err = r;
	}
	/* Fail closed: a unit we could not judge is reported, not hidden. */
	r = r < 0 ? -EBADMSG : err < 0 ? err : stopped;
out:
	dbusd_req_free(req);
	return r;
}
