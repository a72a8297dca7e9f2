/*
 * shutdown.c: the ways the root parent ends (root).  Whether asked to
 * stop or failing closed, every unit it started is stopped and confirmed
 * gone before it exits; the units' BindsTo= on the supervisor is the
 * second line should the parent die before that.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "proto/config.h"
#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/*
 * Synchronous on purpose: there is nothing else left to serve, and
 * fatal() calls it from inside any callback, where the loop cannot be
 * entered again.  The stops all go first; then each unit is read until
 * it is gone, a failed one reset so that PID 1 collects it, within one
 * deadline; past it, each unit left is still read and reset once.
 */
static void
stop_all(void)
{
	struct session		*s;
	struct unit_state	 st;
	uint64_t		 deadline;
	int			 i, late = 0;

	if (parent->bus == NULL)
		return;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		unit_stop(&parent->sessions[i]);
	deadline = now_usec() + OPTY_STOP_TIMEOUT_USEC + 2000000;
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		while (s->u.phase != UP_NONE) {
			memset(&st, 0, sizeof(st));
			if (dbusd_unit_state(parent->bus, s->u.name,
			    &st) == 0 && !st.loaded)
				break;
			if (strcmp(st.active, "failed") == 0)
				dbusd_unit_wait(parent->bus, UM_RESET_FAILED,
				    s->u.name);
			if (now_usec() > deadline) {
				late = 1;
				break;
			}
			usleep(20000);
		}
	}
	if (late)
		log_warnx("units still present after the stop budget");
	else
		pts_stop_all();
}

/*
 * The parent holds no capability and cannot signal the relay (another
 * uid): the relay ends on channel EOF, and if it does not, on our exit,
 * through its parent-death signal (SIGKILL, relay/sandbox.c); systemd's
 * KillMode=control-group is the last word.
 */
static void
shutdown_relay(void)
{
	int	 i;

	if (parent->relay_pid <= 0)
		return;
	close(parent->relay_fd);
	for (i = 0; i < 100; i++) {
		if (waitpid(parent->relay_pid, NULL, WNOHANG) ==
		    parent->relay_pid)
			return;
		usleep(10000);
	}
	log_warnx("relay still running after its channel closed: it dies "
	    "with the parent");
}

/* fatal()'s last act: nothing we started may outlive a broken parent. */
void
parent_failclosed(void)
{
	sd_notify(0, "STOPPING=1\nSTATUS=failing closed");
	log_warnx("failing closed: stopping every unit");
	stop_all();
	/* A hostile relay is not waited for: fatal()'s exit closes it. */
}

/* Every unit stopped and confirmed gone, then the relay, then us. */
static void __attribute__((noreturn))
shutdown_finish(void)
{
	sd_notify(0, "STATUS=stopping units");
	log_setexit(NULL);
	stop_all();
	shutdown_relay();
	exit(0);
}

static void
shutdown_timeout(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	(void)arg;
	log_warnx("the relay did not confirm within %d ms that every client "
	    "was told; stopping the units all the same",
	    OPTY_SHUTDOWN_TELL_MSEC);
	shutdown_finish();
}

/*
 * The relay first gives every live client the output it has already
 * read, then ERR_SHUTDOWN, then closes it (IMSG_SHUTDOWN); only then are
 * the units stopped, so no client sees its command die before it is
 * told why.  A client that does not read is not waited for beyond the
 * budget.
 */
static void
shutdown_begin(void)
{
	struct timeval	 tv;

	if (parent->stopping)
		return;
	parent->stopping = 1;
	sd_notify(0, "STOPPING=1\nSTATUS=telling clients");
	if (imsg_send(parent->relay_fd, IMSG_SHUTDOWN, 0, -1, NULL, 0) == -1) {
		log_warn("send SHUTDOWN to relay");
		shutdown_finish();
	}
	tv.tv_sec = OPTY_SHUTDOWN_TELL_MSEC / 1000;
	tv.tv_usec = (OPTY_SHUTDOWN_TELL_MSEC % 1000) * 1000;
	if (event_base_once(parent->base, -1, EV_TIMEOUT, shutdown_timeout,
	    NULL, &tv) == -1)
		shutdown_finish();
}

/*
 * SIGTERM, SIGINT.  When systemd stops the supervisor, the signal often
 * comes while the clients are being told (parent_self_job began it):
 * that one does not cut the telling short; a second signal does.
 */
void
parent_shutdown(int sig, short ev, void *arg)
{
	static int	signals;

	(void)ev;
	(void)arg;
	log_info("signal %d: stopping", sig);
	if (++signals > 1)
		shutdown_finish();
	shutdown_begin();
}

/*
 * A command killed by a signal the parent did not send may be one PID 1
 * stopped for our own stop: theirs run first, and the end of one can be
 * read before the hint of our job is acted on (seen under load: a client
 * got its command's SIGTERM instead of ERR_SHUTDOWN).  Such an exit
 * waits in the session table for one ListJobs asked after it was seen,
 * whose answer has our stop job if there is one: then every client is
 * told first, as for the hint, and PEV_EXIT_CHECKED lets the exit go on.
 */
static struct dbusd_req	*exit_check[OPTY_MAX_SLOTS];

/* ListJobs answered, for our job's hint (s NULL) or a session's exit. */
static void
jobs_read(struct dbusd_req *req, void *arg)
{
	struct session	*s = arg;
	char		 type[32];
	int		 r;

	r = dbusd_self_job_end(req, type, sizeof(type));
	dbusd_req_free(req);
	if (r < 0 && s == NULL)
		log_debug("job of %s: %s", OPTY_SUPERVISOR_UNIT, strerror(-r));
	else if (r < 0)
		log_warnx("session %u: jobs of %s: %s", s->sid,
		    OPTY_SUPERVISOR_UNIT, strerror(-r));
	else if (r > 0 && (strcmp(type, "stop") == 0 ||
	    strcmp(type, "restart") == 0 ||
	    strcmp(type, "try-restart") == 0)) {
		if (s == NULL)
			log_info("%s job for %s: telling every client before "
			    "its command is stopped", type,
			    OPTY_SUPERVISOR_UNIT);
		else
			log_info("%s job for %s seen at the end of session "
			    "%u: telling every client", type,
			    OPTY_SUPERVISOR_UNIT, s->sid);
		shutdown_begin();
	}
	if (s == NULL)
		return;
	exit_check[s->sid] = NULL;
	/* Only an exit still waiting: a slot taken again has none. */
	if (unit_exited(s))
		parent_session_post(s, PEV_EXIT_CHECKED, 0);
}

/*
 * A job for our own unit.  A stop is queued in one transaction with the
 * stops of the session units bound to us, and PID 1 runs theirs first
 * (they are ordered after us), before our SIGTERM: waiting for the
 * signal would let commands die untold.  The type of our unit's job,
 * from ListJobs, says whether it is a stop; a start job on our running
 * unit (another unit requiring us) is not.
 */
void
parent_self_job(const char *job)
{
	struct dbusd_req	*req;
	int			 r;

	if (parent->stopping)
		return;
	if ((r = dbusd_self_job_begin(parent->bus, jobs_read, NULL,
	    &req)) < 0)
		log_warnx("job %s of %s: %s", job, OPTY_SUPERVISOR_UNIT,
		    strerror(-r));
}

/*
 * 1 while the exit of a running session waits for that answer.  A
 * RUNNING session's unit was never asked to stop: only a close (which
 * leaves RUNNING) and stop_all (which never returns to the loop) do.
 */
int
parent_exit_check(struct session *s)
{
	int	 r;

	if (exit_check[s->sid] != NULL)
		return 1;
	if (parent->stopping || (s->u.result.exec_code != CLD_KILLED &&
	    s->u.result.exec_code != CLD_DUMPED))
		return 0;
	if ((r = dbusd_self_job_begin(parent->bus, jobs_read, s,
	    &exit_check[s->sid])) < 0) {
		log_warnx("session %u: jobs of %s: %s", s->sid,
		    OPTY_SUPERVISOR_UNIT, strerror(-r));
		return 0;
	}
	return 1;
}

/* The relay has told every client (or found none to tell). */
void
parent_shutdown_done(void)
{
	if (!parent->stopping)
		fatalx("relay violated the message table: SHUTDOWN_DONE "
		    "without a shutdown");
	log_info("every client told: stopping the units");
	shutdown_finish();
}
