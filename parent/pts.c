/*
 * pts.c: each slot's own devpts instance (root parent).  The parent has
 * no CAP_SYS_ADMIN, so PID 1 mounts it: a transient mount unit named
 * from the session unit that asks for it (dbusd/name.c), once the
 * client is authenticated again.  That the instance is there is read
 * from the kernel (statfs of the mount point), never from a signal; the
 * session's terminal is then made in it (start.c, pty.c).
 *
 * The instance outlives its session and serves the slot's next one:
 * a mount and an unmount per session would pass through PID 1's
 * mountinfo rate limit, which holds other mount jobs (about three
 * session starts a second: docs/BENCHMARKS.md).  It is reused only when
 * it holds no terminal entry: an entry lives as long as its master is
 * open anywhere (the relay's not yet closed, or one a process outside
 * opened through the instance's ptmx).  A slave still held after its
 * master closed has no entry; it is hung up and reaches no later
 * terminal, which gets another index (SECURITY.md).  The unit is gone by
 * then, so no process of that session can make a terminal later.
 * Otherwise, or if the mount was never seen, the instance is given up
 * (its mount unit stopped, its empty mount point removed at the slot's
 * next start) and a new one asked for.  The supervisor's stop unmounts
 * every instance (pts_stop_all); PID 1's BindsTo= is the second line.
 * Posts PEV_PTS_READY or PEV_START_FAILED.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/statfs.h>
#include <sys/time.h>

#include <dirent.h>
#include <errno.h>
#include <linux/magic.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/* PID 1 forks mount(8): a few milliseconds, then 50 ms steps. */
#define PTS_POLL_FIRST_USEC	2000
#define PTS_POLL_MAX_USEC	50000
#define PTS_MOUNT_TIMEOUT_USEC	(10ULL * 1000000)

/* Mounted is what the kernel says of the mount point, nothing else. */
void
pts_timer(int fd, short ev, void *arg)
{
	struct session	*s = arg;
	struct statfs	 sf;
	struct timeval	 tv = { 0, (suseconds_t)s->pts_wait_usec };

	(void)fd;
	(void)ev;
	if (statfs(s->pts.where, &sf) == 0 &&
	    sf.f_type == DEVPTS_SUPER_MAGIC) {
		s->pts_ready = 1;
		parent_session_post(s, PEV_PTS_READY, 0);
		return;
	}
	if (now_usec() > s->pts_deadline) {
		log_warnx("session %u: %s not mounted after %llu s", s->sid,
		    s->pts.unit, PTS_MOUNT_TIMEOUT_USEC / 1000000);
		parent_session_post(s, PEV_START_FAILED, 0);
		return;
	}
	evtimer_add(s->pts_timer, &tv);
	if (s->pts_wait_usec < PTS_POLL_MAX_USEC)
		s->pts_wait_usec *= 2;
}

/* PID 1 took the mount unit (its job runs) or refused it. */
static void
pts_started(struct dbusd_req *req, void *arg)
{
	struct session	*s = arg;
	char		 job[128];
	int		 r;

	r = dbusd_start_end(req, job, sizeof(job));
	dbusd_req_free(req);
	s->pts_req = NULL;
	if (r < 0) {
		log_warnx("session %u: StartTransientUnit %s: %s", s->sid,
		    s->pts.unit, strerror(-r));
		parent_session_post(s, PEV_START_FAILED, 0);
		return;
	}
	s->pts_deadline = now_usec() + PTS_MOUNT_TIMEOUT_USEC;
	s->pts_wait_usec = PTS_POLL_FIRST_USEC;
	pts_timer(-1, 0, s);
}

/* The mount point of an instance given up, once it is unmounted. */
static void
pts_tidy(struct session *s)
{
	if (s->pts_old[0] == '\0')
		return;
	if (rmdir(s->pts_old) == -1 && errno != ENOENT)
		log_warn("rmdir %s", s->pts_old);
	s->pts_old[0] = '\0';
}

/*
 * The slot's instance, mounted and holding nothing but its ptmx: no
 * master of any of its terminals is open anywhere.
 */
static int
pts_reusable(struct session *s)
{
	struct statfs	 sf;
	struct dirent	*e;
	DIR		*d;
	int		 held = 0;

	if (!s->pts_ready)
		return 0;
	if (statfs(s->pts.where, &sf) == -1 ||
	    sf.f_type != DEVPTS_SUPER_MAGIC ||
	    (d = opendir(s->pts.where)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, "ptmx") != 0)
			held++;
	closedir(d);
	if (held > 0)
		log_warnx("session %u: %s still holds %d terminal(s) of an "
		    "earlier session: a new instance", s->sid, s->pts.where,
		    held);
	return held == 0;
}

/*
 * The slot's instance, if any, is unmounted, lazily, so that a
 * descriptor still open does not hold it.  Not waited for.
 */
static void
pts_give_up(struct session *s)
{
	int	 r;

	if (s->pts_of[0] == '\0')
		return;
	s->pts_ready = 0;
	if ((r = dbusd_unit_call(parent->bus, UM_PTS_STOP, s->pts_of, 0,
	    NULL, NULL, NULL)) < 0)
		log_warnx("session %u: StopUnit %s: %s", s->sid, s->pts.unit,
		    strerror(-r));
	memcpy(s->pts_old, s->pts.where, sizeof(s->pts_old));
	s->pts_of[0] = '\0';
}

/*
 * s->u.name is named: the slot's instance is reused, just seen mounted,
 * or a new one asked for, whose PEV_PTS_READY comes from the poll.
 * Either way the table meets it once this transition is over.  0, or
 * an ERR_ code.
 */
int
pts_begin(struct session *s)
{
	int	 r;

	pts_tidy(s);
	if (pts_reusable(s)) {
		parent_session_post(s, PEV_PTS_READY, 0);
		return 0;
	}
	pts_give_up(s);
	if ((r = unit_pts_names(s->u.name, &s->pts)) < 0) {
		log_warnx("session %u: devpts mount: %s", s->sid,
		    strerror(-r));
		return ERR_INTERNAL;
	}
	/* From here on a mount unit of that name may exist. */
	memcpy(s->pts_of, s->u.name, sizeof(s->pts_of));
	if ((r = dbusd_pts_start(parent->bus, s->pts_of, parent->user_uid,
	    parent->tty_gid, pts_started, s, &s->pts_req)) < 0) {
		log_warnx("session %u: StartTransientUnit %s: %s", s->sid,
		    s->pts.unit, strerror(-r));
		return ERR_START;
	}
	return 0;
}

/*
 * The session is over (its unit gone, or never made).  An instance seen
 * mounted stays for the slot's next session; one asked for and not seen
 * is given up.
 */
void
pts_end(struct session *s)
{
	dbusd_req_free(s->pts_req);
	s->pts_req = NULL;
	evtimer_del(s->pts_timer);
	if (!s->pts_ready)
		pts_give_up(s);
}

/*
 * The supervisor stops: every slot's instance is stopped, seen unmounted
 * and its mount point removed before the parent exits.  PID 1 would stop
 * them too (BindsTo=), but only once the supervisor is gone, after
 * systemd removed the run directory, which cannot cross a mount: the
 * mount points would be left behind.  Blocking, as the rest of the stop.
 */
void
pts_stop_all(void)
{
	struct session	*s;
	struct statfs	 sf;
	uint64_t	 deadline;
	int		 i, r;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		pts_tidy(s);
		if (s->pts_of[0] != '\0' &&
		    (r = dbusd_unit_wait(parent->bus, UM_PTS_STOP,
		    s->pts_of)) < 0)
			log_warnx("StopUnit %s: %s", s->pts.unit, strerror(-r));
	}
	deadline = now_usec() + PTS_MOUNT_TIMEOUT_USEC;
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		if (s->pts_of[0] == '\0')
			continue;
		while (statfs(s->pts.where, &sf) == 0 &&
		    sf.f_type == DEVPTS_SUPER_MAGIC && now_usec() < deadline)
			usleep(20000);
		if (rmdir(s->pts.where) == -1 && errno != ENOENT)
			log_warn("rmdir %s", s->pts.where);
	}
}
