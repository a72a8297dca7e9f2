/*
 * unit.c: the life of a session's transient unit (root parent), as one
 * table: phase x input -> action, next phase.  The inputs are start.c's
 * call and PID 1's answer to it, the session's wish to stop, and what a
 * state read back from systemd shows; D-Bus signals only ask for such a
 * read.  The table's only news for the session is posted to the
 * session queue (sessq.c): the start job's end, the command's end, the
 * unit gone, a refused start.  Only this file assigns a unit's phase.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/time.h>

#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "proto/config.h"
#include "proto/log.h"
#include "parent/parent.h"

#define POLL_SLOW_USEC	1000000		/* running: signals do the rest */
/* A stop or a drop of the reference that PID 1 may not have had. */
#define RESEND_USEC	1000000

typedef void (*unit_action)(struct session *);

/* The session's news a row posts (PEV_NONE: none), then its action. */
struct unit_row {
	enum unit_phase		 phase;
	enum unit_input		 in;
	enum parent_session_ev	 post;
	enum unit_phase		 next;
	unit_action		 action;
};

static void	unit_checked(struct dbusd_req *, void *);

static void
unit_arm(struct session *s, uint64_t usec)
{
	struct timeval	 tv;

	/* Both fit: UINT64_MAX / 10^6 is far below the time_t maximum. */
	tv.tv_sec = (time_t)(usec / 1000000);
	tv.tv_usec = (suseconds_t)(usec % 1000000);
	evtimer_add(s->u_timer, &tv);
}

/* Not waited for: a failure PID 1 or the bus answers is logged. */
static void
unit_call(struct session *s, enum unit_method um)
{
	int	 r;

	if ((r = dbusd_unit_call(parent->bus, um, s->u.name, 0, NULL, NULL,
	    NULL)) < 0)
		log_warnx("session %u: %s %s: %s", s->sid,
		    um == UM_STOP ? "StopUnit" : "UnrefUnit", s->u.name,
		    strerror(-r));
}

/*
 * The unit was started with AddRef=yes: PID 1 keeps it, inactive or
 * failed, with its end readable, until this reference is dropped; then
 * CollectMode=inactive-or-failed removes it as soon as no process of it
 * is left.  Dropped once (the stop budget set says it was), when the
 * session no longer needs the unit's end: read already, or not wanted
 * (a stop); from then on its end is only waited for within the budget.
 */
static void
unit_release(struct session *s)
{
	if (s->u.deadline != 0)
		return;
	s->u.deadline = now_usec() + OPTY_STOP_TIMEOUT_USEC;
	s->u.resend_at = now_usec() + RESEND_USEC;
	unit_call(s, UM_UNREF);
}

/*
 * StopUnit kills what is left (TERM, then KILL per the unit's own
 * properties); PID 1 takes our calls in order, so a stop sent while the
 * start call is in flight comes after it.  After the command's end the
 * unit is released already.
 */
static void
act_stop(struct session *s)
{
	unit_call(s, UM_STOP);
	unit_release(s);
}

/* One state read in flight, none before PID 1 answered the start call. */
static void
unit_read(struct session *s)
{
	int	 r;

	if (s->u.phase == UP_NONE)
		return;
	if (s->u.phase == UP_CALLED || s->u.phase == UP_CALLED_STOP ||
	    s->u.read != NULL) {
		s->u.reread = 1;
		return;
	}
	s->u.reread = 0;
	r = dbusd_unit_state_begin(parent->bus, s->u.name, unit_checked, s,
	    &s->u.read);
	if (r < 0) {
		log_warnx("session %u: unit state: %s", s->sid, strerror(-r));
		unit_arm(s, POLL_SLOW_USEC);
	}
}

/*
 * The next look: a read asked meanwhile, or the timer the phase wants;
 * while the start job runs (JOB) its end is told by JobRemoved.
 */
static void
act_follow(struct session *s)
{
	if (s->u.phase == UP_NONE)
		return;
	if (s->u.reread)
		unit_read(s);
	else if (s->u.phase == UP_JOB)
		unit_arm(s, POLL_START_USEC);
	else
		unit_arm(s, s->u.deadline != 0 || s->u.seen.job_id != 0 ?
		    POLL_FAST_USEC : POLL_SLOW_USEC);
}

/*
 * RemainAfterExit=no: a unit whose main exited stops by itself.  The
 * first end seen is kept: for the exit frame and the journal.
 */
static void
act_exited(struct session *s)
{
	if (!unit_exited(s)) {
		s->u.result = s->u.seen;
		if (!s->u.seen.loaded)
			strcpy(s->u.result.result, "gone");
	}
	unit_release(s);
}

static void
act_gone(struct session *s)
{
	log_info("session %u: unit %s gone (result %s, code %d, status %d)",
	    s->sid, s->u.name, s->u.result.result, s->u.result.exec_code,
	    s->u.result.exec_status);
}

/*
 * Every (phase, input) pair that changes something; any other changes
 * nothing (a read showing what is already known, a second stop).
 *
 * The start job's end gives the relay the master: with Type=exec that
 * is after systemd has set the terminal up as the unit's stdin, which on
 * systemd 252 discards input already written to the master (seen: a
 * typed line lost in 1 start of 3), so the client's first input, held
 * by the relay until then, is never lost.  A command can be seen ended
 * while its start job still runs (a fast one, its exit processed by
 * PID 1 before its exec): the job's end and the command's are then told
 * on every read after, so that a session still starting gets the
 * master (and the output in it) and then the end; a session past that
 * point has no row for them.  A refused start is stopped blind: after a
 * timeout the unit may exist all the same.
 */
#define ROW(ph, in, post, act, next) \
	{ UP_ ## ph, U_ ## in, PEV_ ## post, UP_ ## next, act }

static const struct unit_row unit_table[] = {
	/* phase	input	    posts	  action	   next */
	ROW(NONE,	CALLED,	    NONE,	  NULL,		   CALLED),
	ROW(CALLED,	ACCEPTED,   NONE,	  act_follow,	   JOB),
	ROW(CALLED,	REFUSED,    START_FAILED, act_stop,	   NONE),
	ROW(CALLED,	STOP,	    NONE,	  act_stop,	   CALLED_STOP),
	ROW(CALLED_STOP, ACCEPTED,  NONE,	  unit_read,	   STOPPING),
	ROW(CALLED_STOP, REFUSED,   START_FAILED, NULL,		   NONE),
	ROW(JOB,	JOB_DONE,   JOB_DONE,	  NULL,		   RUNNING),
	ROW(JOB,	MAIN_EXITED, NONE,	  act_exited,	   EXITED),
	ROW(JOB,	STOP,	    NONE,	  act_stop,	   STOPPING),
	ROW(RUNNING,	MAIN_EXITED, NONE,	  act_exited,	   EXITED),
	ROW(RUNNING,	STOP,	    NONE,	  act_stop,	   STOPPING),
	ROW(EXITED,	JOB_DONE,   JOB_DONE,	  NULL,		   EXITED),
	ROW(EXITED,	QUIET,	    EXITED,	  NULL,		   OVER),
	ROW(EXITED,	STOP,	    NONE,	  act_stop,	   STOPPING),
	ROW(EXITED,	ENDED,	    GONE,	  act_gone,	   NONE),
	ROW(OVER,	JOB_DONE,   JOB_DONE,	  NULL,		   OVER),
	ROW(OVER,	QUIET,	    EXITED,	  NULL,		   OVER),
	/* Over, then running again: someone started it anew. */
	ROW(OVER,	BUSY,	    NONE,	  act_stop,	   STOPPING),
	ROW(OVER,	ENDED,	    GONE,	  act_gone,	   NONE),
	ROW(STOPPING,	MAIN_EXITED, NONE,	  act_exited,	   STOPPING),
	ROW(STOPPING,	ENDED,	    GONE,	  act_gone,	   NONE),
};

/* One input; start.c gives the call (CALLED) and PID 1's answer. */
void
unit_step(struct session *s, enum unit_input in)
{
	const struct unit_row	*row;
	size_t			 i;

	for (i = 0; i < sizeof(unit_table) / sizeof(unit_table[0]); i++) {
		row = &unit_table[i];
		if (row->phase != s->u.phase || row->in != in)
			continue;
		log_debug("session %u: unit phase %d, input %d -> %d",
		    s->sid, row->phase, in, row->next);
		s->u.phase = row->next;
		if (row->action != NULL)
			row->action(s);
		if (row->post != PEV_NONE)
			parent_session_post(s, row->post, 0);
		return;
	}
}

static int
unit_quiet(const struct unit_state *st)
{
	return !st->loaded || strcmp(st->active, "inactive") == 0 ||
	    strcmp(st->active, "failed") == 0;
}

/*
 * The main process was reaped (ExecMainCode is a CLD_ code, read in the
 * same batch as its status and the result), or the start job ended
 * without ever forking it.
 */
static int
main_exited(const struct unit_state *st)
{
	if (!st->loaded || st->exec_code != 0)
		return 1;
	return st->job_id == 0 && st->exec_start_usec == 0 && unit_quiet(st);
}

/*
 * A call PID 1 never had (the bus refuses calls past its limit of
 * pending replies) would leave the unit running, or ended and kept:
 * while it is still there, the stop (if asked) or the drop goes again,
 * once a second.  PID 1 collects a released unit as soon as it is
 * quiet, so a quiet unit still there a second later was not released.
 */
static void
unit_resend(struct session *s, const struct unit_state *st)
{
	uint64_t	 now = now_usec();

	if (now < s->u.resend_at)
		return;
	s->u.resend_at = now + RESEND_USEC;
	if (unit_quiet(st))
		unit_call(s, UM_UNREF);
	else if (s->u.phase == UP_STOPPING)
		unit_call(s, UM_STOP);
	else if (s->u.phase == UP_OVER)
		unit_step(s, U_BUSY);
}

/*
 * Released, a unit is collected once quiet.  Past the stop budget it
 * must at least be inactive: a failed one is reset to get there.
 */
static int
unit_ended(struct session *s, const struct unit_state *st)
{
	if (!st->loaded)
		return 1;
	unit_resend(s, st);
	if (now_usec() < s->u.deadline)
		return 0;
	if (strcmp(st->active, "failed") == 0) {
		dbusd_unit_call(parent->bus, UM_RESET_FAILED, s->u.name, 0,
		    NULL, NULL, NULL);
		return 0;
	}
	if (strcmp(st->active, "inactive") == 0)
		return 1;
	if (!s->u.late) {
		s->u.late = 1;
		log_warnx("session %u: unit %s still %s/%s past the stop "
		    "budget; slot stays taken", s->sid, s->u.name, st->active,
		    st->sub);
	}
	return 0;
}

/* What one read shows, as inputs in the order the facts build on. */
static void
unit_seen(struct session *s, const struct unit_state *st)
{
	s->u.seen = *st;
	if (st->job_id == 0)
		unit_step(s, U_JOB_DONE);
	if (main_exited(st))
		unit_step(s, U_MAIN_EXITED);
	if (unit_quiet(st))
		unit_step(s, U_QUIET);
	if (s->u.deadline != 0 && unit_ended(s, st))
		unit_step(s, U_ENDED);
	act_follow(s);
}

static void
unit_checked(struct dbusd_req *req, void *arg)
{
	struct session		*s = arg;
	struct unit_state	 st;
	int			 r;

	r = dbusd_unit_state_end(req, &st);	/* fills st when 0 */
	dbusd_req_free(req);
	s->u.read = NULL;
	if (r < 0) {
		log_warnx("session %u: unit state: %s", s->sid, strerror(-r));
		unit_arm(s, POLL_SLOW_USEC);
		return;
	}
	unit_seen(s, &st);
}

/* session.c, shutdown.c: the command is no longer wanted. */
void
unit_stop(struct session *s)
{
	unit_step(s, U_STOP);
	unit_read(s);
}

/* The command's end was read (shutdown.c: the exit a session holds). */
int
unit_exited(const struct session *s)
{
	return s->u.result.result[0] != '\0';
}

void
unit_timer(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	unit_read(arg);
}

/*
 * A hint names a unit; only our own sessions' units are looked at.
 * PID 1 sends a unit's signals in bursts, and a hint is acted on in the
 * loop's next pass, so the signals that arrived together cost one state
 * read (waiting 2 ms for the rest of a burst saved a fifth of the reads
 * but delayed each exit frame by as much: docs/BENCHMARKS.md).  Returns
 * how many sessions it concerned.
 */
int
unit_hint(const struct hint *h)
{
	struct session	*s;
	int		 i, n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		if (s->u.phase == UP_NONE || strcmp(s->u.name, h->unit) != 0)
			continue;
		if (h->kind == HINT_JOB_REMOVED &&
		    strcmp(h->job, s->u.job) == 0) {
			unit_step(s, U_JOB_DONE);
			if (strcmp(h->result, "done") != 0)
				log_info("session %u: start job of %s: %s",
				    s->sid, s->u.name, h->result);
		} else if (s->u.phase == UP_JOB)
			continue;	/* nothing to decide before its end */
		unit_arm(s, 0);
		n++;
	}
	return n;
}
