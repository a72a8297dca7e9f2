/*
 * watch.c: follows each session's transient unit to its end (root
 * parent).  D-Bus signals only say "look again"; every decision is taken
 * on the unit's state as read back from systemd, and what it means for
 * the session goes to session.c as an event: the start job's end, the
 * command's end, the unit gone.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/time.h>

#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/config.h"
#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

#define POLL_SLOW_USEC	1000000		/* running: signals do the rest */
/*
 * PID 1 sends a unit's signals in bursts; a hint is acted on in the
 * loop's next pass, so the signals that arrived together cost one state
 * read.  Waiting 2 ms for the rest of a burst saved a fifth of the reads
 * but delayed each exit frame by as much (docs/BENCHMARKS.md).
 */
/* A stop or a drop of the reference that PID 1 may not have had. */
#define RESEND_USEC	1000000

static void
watch_arm(struct session *s, uint64_t usec)
{
	struct timeval	 tv;

	/* Both fit: UINT64_MAX / 10^6 is far below the time_t maximum. */
	tv.tv_sec = (time_t)(usec / 1000000);
	tv.tv_usec = (suseconds_t)(usec % 1000000);
	evtimer_add(s->timer, &tv);
}

/*
 * A unit's state comes from two GetAll calls, Unit first, then Service
 * (dbusd_unit_state_begin), which PID 1 answers in that order, so each
 * decision below rests on facts that stay consistent whichever way
 * systemd moved in between.
 */

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
	return st->job_id == 0 && st->exec_start_usec == 0 &&
	    (strcmp(st->active, "inactive") == 0 ||
	    strcmp(st->active, "failed") == 0);
}

/* Not waited for: a failure PID 1 or the bus answers is logged. */
static void
watch_call(struct session *s, enum unit_method um)
{
	int	 r;

	if ((r = dbusd_unit_method_send(parent->bus, um, s->unit)) < 0)
		log_warnx("session %u: %s %s: %s", s->sid,
		    um == UM_STOP ? "StopUnit" : "UnrefUnit", s->unit,
		    strerror(-r));
}

/*
 * The unit was started with AddRef=yes: PID 1 keeps it, inactive or
 * failed, with its end readable, until this reference is dropped; then
 * CollectMode=inactive-or-failed removes it as soon as no process of it
 * is left.  Dropped when the session no longer needs the unit's end:
 * read already, or not wanted (a stop).
 */
static void
watch_release(struct session *s)
{
	if (!s->stopping) {
		s->stopping = 1;
		s->stop_deadline = now_usec() + OPTY_STOP_TIMEOUT_USEC;
	}
	if (s->released)
		return;
	s->released = 1;
	s->resend_at = now_usec() + RESEND_USEC;
	watch_call(s, UM_UNREF);
}

/*
 * StopUnit kills what is left (TERM, then KILL per the unit's own
 * properties); PID 1 takes our calls in order, so the reference goes
 * after the stop is queued and the unit is collected once it is over.
 * A unit already seen over after its command's end gets no StopUnit:
 * it would only cost PID 1 a call (a client closes right after the exit
 * frame, often before the unit's collection is read back).
 */
void
watch_stop(struct session *s)
{
	if (!s->over) {
		s->stop_sent = 1;
		watch_call(s, UM_STOP);
	}
	watch_release(s);
}

static void
watch_gone(struct session *s)
{
	log_info("session %u: unit %s gone (result %s, code %d, status %d)",
	    s->sid, s->unit, s->result.result, s->result.exec_code,
	    s->result.exec_status);
	s->unit_made = 0;
	parent_session_post(s, PEV_GONE, 0);
}

/* No process of the unit is left: inactive, failed or collected. */
static int
unit_quiet(const struct unit_state *st)
{
	return !st->loaded || strcmp(st->active, "inactive") == 0 ||
	    strcmp(st->active, "failed") == 0;
}

/*
 * The master goes to the relay once the start job is over: with
 * Type=exec that is after systemd has set the terminal up as the unit's
 * stdin, which on systemd 252 discards input already written to the
 * master (seen: a typed line lost in 1 start of 3).  So the client's
 * first input, held by the relay until then, is never lost.
 */
static void
watch_job_done(struct session *s)
{
	s->start_job = 0;
	parent_session_post(s, PEV_JOB_DONE, 0);
}

static void
watch_record_exit(struct session *s, const struct unit_state *st)
{
	s->exited = 1;
	s->result = *st;
	if (!st->loaded)
		strcpy(s->result.result, "gone");
	log_debug("session %u: main process of %s exited (%s/%s)", s->sid,
	    s->unit, st->loaded ? st->active : "gone", st->sub);
}

/*
 * A call PID 1 never had (the bus refuses calls past its limit of
 * pending replies) would leave the unit running, or ended and kept: while
 * it is still there, the stop (if asked) or the drop goes again, once a
 * second.  PID 1 collects a released unit as soon as it is quiet, so a
 * quiet unit still there a second later was not released.
 */
static void
watch_resend(struct session *s, const struct unit_state *st)
{
	uint64_t	 now = now_usec();

	if (now < s->resend_at)
		return;
	s->resend_at = now + RESEND_USEC;
	if (unit_quiet(st))
		watch_call(s, UM_UNREF);
	else if (s->stop_sent || s->over) {
		/* Over, then running again: someone started it anew. */
		s->stop_sent = 1;
		watch_call(s, UM_STOP);
	}
}

/*
 * Released, a unit is collected once quiet.  Past the stop budget it
 * must at least be inactive: a failed one is reset to get there.
 */
static int
stop_confirmed(struct session *s, const struct unit_state *st)
{
	if (!st->loaded)
		return 1;
	watch_resend(s, st);
	if (now_usec() < s->stop_deadline)
		return 0;
	if (strcmp(st->active, "failed") == 0) {
		dbusd_unit_method_send(parent->bus, UM_RESET_FAILED, s->unit);
		return 0;
	}
	if (strcmp(st->active, "inactive") == 0)
		return 1;
	if (!s->stop_late) {
		s->stop_late = 1;
		log_warnx("session %u: unit %s still %s/%s past the stop "
		    "budget; slot stays taken", s->sid, s->unit, st->active,
		    st->sub);
	}
	return 0;
}

static void
watch_decide(struct session *s, const struct unit_state *st)
{
	if (s->start_job && st->job_id == 0)
		watch_job_done(s);
	if (!s->exited && main_exited(st))
		watch_record_exit(s, st);
	if (s->exited && unit_quiet(st)) {
		s->over = 1;
		parent_session_post(s, PEV_EXITED, 0);
	}
	/* RemainAfterExit=no: a unit whose main exited stops by itself. */
	if (s->exited && !s->stopping)
		watch_release(s);
	if (s->stopping && stop_confirmed(s, st)) {
		watch_gone(s);
		return;
	}
	if (s->recheck)
		watch_check(s);
	else if (s->start_job && !s->stopping)
		watch_arm(s, POLL_START_USEC);
	else
		watch_arm(s, s->stopping || st->job_id != 0 ?
		    POLL_FAST_USEC : POLL_SLOW_USEC);
}

static void
watch_checked(struct dbusd_req *req, void *arg)
{
	struct session		*s = arg;
	struct unit_state	 st;
	int			 r;

	memset(&st, 0, sizeof(st));
	r = dbusd_unit_state_end(req, &st);
	dbusd_req_free(req);
	s->watch_req = NULL;
	if (r < 0) {
		log_warnx("session %u: unit state: %s", s->sid, strerror(-r));
		watch_arm(s, POLL_SLOW_USEC);
		return;
	}
	watch_decide(s, &st);
}

/*
 * One state read in flight per session; asks made meanwhile coalesce.
 * None while the start call is in flight: the unit's name means nothing
 * to PID 1 before it has answered that (start.c calls watch_follow()).
 */
void
watch_check(struct session *s)
{
	int	 r;

	if (!s->unit_made)
		return;
	if (s->watch_req != NULL || s->start_call != NULL) {
		s->recheck = 1;
		return;
	}
	s->recheck = 0;
	r = dbusd_unit_state_begin(parent->bus, s->unit, watch_checked, s,
	    &s->watch_req);
	if (r < 0) {
		log_warnx("session %u: unit state: %s", s->sid, strerror(-r));
		watch_arm(s, POLL_SLOW_USEC);
	}
}

void
watch_timer(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	watch_check(arg);
}

/*
 * The start call was accepted.  Its start job's end gives the relay the
 * master and brings the next look.
 */
void
watch_follow(struct session *s)
{
	s->start_job = 1;
	if (s->recheck)
		watch_check(s);
	else
		watch_arm(s, POLL_START_USEC);
}

/*
 * A hint names a unit; only our own sessions' units are looked at.
 * Returns how many sessions it concerned.
 */
int
watch_hint(const struct hint *h)
{
	struct session	*s;
	int		 i, n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		if (!s->unit_made || strcmp(s->unit, h->unit) != 0)
			continue;
		if (h->kind == HINT_JOB_REMOVED &&
		    strcmp(h->job, s->job) == 0) {
			watch_job_done(s);
			if (strcmp(h->result, "done") != 0)
				log_info("session %u: start job of %s: %s",
				    s->sid, s->unit, h->result);
		} else if (s->start_job && !s->stopping)
			continue;	/* nothing to decide before its end */
		watch_arm(s, 0);
		n++;
	}
	return n;
}
