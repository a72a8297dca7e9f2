/*
 * shutdown.c: the ways the root parent ends (root).  Whether asked to
 * stop or failing closed, every unit it started is stopped and confirmed
 * gone before it exits; the units' BindsTo= on the supervisor is the
 * second line should the parent die before that.
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "proto/config.h"
#include "proto/log.h"
#include "parent/parent.h"

static int
stop_all_pending(void)
{
	struct session		*s;
	struct unit_state	 st;
	int			 i, left = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		if (!s->unit_made)
			continue;
		memset(&st, 0, sizeof(st));
		if (dbusd_unit_state(parent->bus, s->unit, &st) == 0 &&
		    !st.loaded) {
			s->unit_made = 0;
			continue;
		}
		if (strcmp(st.active, "failed") == 0)
			dbusd_unit_method(parent->bus, UM_RESET_FAILED, s->unit);
		left++;
	}
	return left;
}

/* Synchronous on purpose: there is nothing else left to serve. */
void
parent_stop_all(void)
{
	uint64_t	 deadline;
	int		 i;

	if (parent->bus == NULL)
		return;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (parent->sessions[i].unit_made)
			session_stop(&parent->sessions[i]);
	deadline = now_usec() + OPTY_STOP_TIMEOUT_USEC + 2000000;
	while (stop_all_pending() > 0) {
		if (now_usec() > deadline) {
			log_warnx("units still present after the stop budget");
			return;
		}
		usleep(20000);
	}
}

/*
 * The parent holds no capability and cannot signal the relay (another
 * uid): the relay ends on channel EOF, and if it does not, on our exit,
 * through its parent-death signal (SIGKILL, relay/sandbox.c); systemd's
 * KillMode=control-group is the last word.
 */
static void
relay_stop(void)
{
	int	 i;

	if (parent->relay_pid <= 0)
		return;
	close(parent->relay_fd);
	parent->relay_fd = -1;
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
	parent_stop_all();
	/* A hostile relay is not waited for: it dies with us. */
	if (parent->relay_fd != -1)
		close(parent->relay_fd);
	parent->relay_fd = -1;
}

void
parent_shutdown(int sig, short ev, void *arg)
{
	(void)ev;
	(void)arg;
	log_info("signal %d: stopping", sig);
	sd_notify(0, "STOPPING=1\nSTATUS=stopping units");
	log_setexit(NULL);
	parent_stop_all();
	relay_stop();
	exit(0);
}
