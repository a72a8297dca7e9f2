/*
 * test_parent_unit.c: the root parent's unit table (parent/unit.c),
 * compiled into this test with the D-Bus calls and the session queue
 * replaced by recorders; the clock is the real one, and what is due is
 * set in the unit's own deadlines.  Test only; any user.  Walks a unit
 * through each way its life goes, read by read, and checks the calls
 * made to PID 1 and the news posted for the session.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <event2/event.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): the table is static */
#include "parent/unit.c"

static struct parent	 t_parent;
struct parent		*parent = &t_parent;

static char		 t_log[512];	/* calls and posts, in order */
static struct unit_state t_st;		/* what the next read answers */
static int		 t_reads;	/* reads begun and not yet answered */

static void
rec(const char *what)
{
	strncat(t_log, what, sizeof(t_log) - strlen(t_log) - 1);
	strncat(t_log, " ", sizeof(t_log) - strlen(t_log) - 1);
}

int
dbusd_unit_call(struct dbusd *d, enum unit_method um, const char *unit,
    int sig, dbusd_req_cb cb, void *arg, struct dbusd_req **out)
{
	(void)d;
	(void)unit;
	(void)sig;
	(void)cb;
	(void)arg;
	(void)out;
	rec(um == UM_STOP ? "STOP" : um == UM_UNREF ? "UNREF" : "RESET");
	return 0;
}

int
dbusd_unit_state_begin(struct dbusd *d, const char *unit, dbusd_req_cb cb,
    void *arg, struct dbusd_req **out)
{
	(void)d;
	(void)unit;
	(void)cb;
	(void)arg;
	rec("READ");
	t_reads++;
	*out = (struct dbusd_req *)&t_reads;	/* any non-NULL handle */
	return 0;
}

int
dbusd_unit_state_end(struct dbusd_req *req, struct unit_state *out)
{
	(void)req;
	*out = t_st;
	return 0;
}

/* The prototype is dbusd.h's, which frees what it is given. */
void
dbusd_req_free(struct dbusd_req *req)	/* cppcheck-suppress constParameter */
{
	if (req != NULL)
		t_reads--;
}

void
parent_session_post(struct session *s, enum parent_session_ev ev, int code)
{
	static const char *const n[] = {
		[PEV_JOB_DONE] = "job_done", [PEV_EXITED] = "exited",
		[PEV_GONE] = "gone", [PEV_START_FAILED] = "start_failed",
	};

	(void)s;
	(void)code;
	assert_non_null(n[ev]);
	rec(n[ev]);
}

/* The read in flight is answered with t_st. */
static void
answer(struct session *s)
{
	assert_non_null(s->u.read);
	unit_checked(s->u.read, s);
}

static void
st_running(void)
{
	memset(&t_st, 0, sizeof(t_st));
	t_st.loaded = 1;
	snprintf(t_st.active, sizeof(t_st.active), "%s", "active");
	snprintf(t_st.sub, sizeof(t_st.sub), "%s", "running");
	t_st.exec_start_usec = 5;
}

static void
st_exited(const char *active)
{
	st_running();
	snprintf(t_st.active, sizeof(t_st.active), "%s", active);
	snprintf(t_st.sub, sizeof(t_st.sub), "%s", "dead");
	snprintf(t_st.result, sizeof(t_st.result), "%s", "success");
	t_st.exec_code = 1;
	t_st.exec_status = 3;
}

static void
st_gone(void)
{
	memset(&t_st, 0, sizeof(t_st));
}

static struct session *
fresh(void)
{
	static struct session	 s;
	static struct event_base *base;

	if (base == NULL)
		assert_non_null(base = event_base_new());
	if (s.u_timer != NULL)
		event_free(s.u_timer);
	memset(&s, 0, sizeof(s));
	assert_non_null(s.u_timer = evtimer_new(base, unit_timer, &s));
	snprintf(s.u.name, sizeof(s.u.name), "%s", "opencode-pty-x.service");
	snprintf(s.u.job, sizeof(s.u.job), "%s",
	    "/org/freedesktop/systemd1/job/7");
	memset(t_log, 0, sizeof(t_log));
	t_reads = 0;
	return &s;
}

static struct hint
job_removed(const struct session *s)
{
	struct hint	 h;

	memset(&h, 0, sizeof(h));
	h.kind = HINT_JOB_REMOVED;
	snprintf(h.unit, sizeof(h.unit), "%s", s->u.name);
	snprintf(h.job, sizeof(h.job), "%s", s->u.job);
	snprintf(h.result, sizeof(h.result), "%s", "done");
	return h;
}

/* Called, accepted, its job's end hinted, run, exited, collected. */
static void
test_life(void **state)
{
	struct session	*s = fresh();
	struct hint	 h = job_removed(s);

	(void)state;
	unit_step(s, U_CALLED);
	assert_int_equal(s->u.phase, UP_CALLED);
	unit_step(s, U_ACCEPTED);
	assert_int_equal(s->u.phase, UP_JOB);
	parent->sessions[0] = *s;	/* unit_hint looks in the table */
	assert_int_equal(unit_hint(&h), 1);
	assert_int_equal(parent->sessions[0].u.phase, UP_RUNNING);
	s->u.phase = UP_RUNNING;
	unit_timer(-1, 0, s);
	st_exited("inactive");
	answer(s);
	assert_int_equal(s->u.phase, UP_OVER);
	assert_int_equal(s->u.result.exec_status, 3);
	assert_true(unit_exited(s));
	/*
	 * Still there next read: the job's end and the command's told
	 * again (a session still starting takes them), nothing resent yet.
	 */
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_OVER);
	st_gone();
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_int_equal(s->u.phase, UP_NONE);
	/* The ended command's result, not the gone unit's. */
	assert_string_equal(s->u.result.result, "success");
	assert_string_equal(t_log, "job_done READ UNREF exited READ job_done "
	    "exited READ job_done exited gone ");
	memset(&parent->sessions[0], 0, sizeof(parent->sessions[0]));
}

/* A stop asked while the call is in flight: read once PID 1 answers. */
static void
test_stop_while_called(void **state)
{
	struct session	*s = fresh();

	(void)state;
	unit_step(s, U_CALLED);
	unit_stop(s);
	assert_int_equal(s->u.phase, UP_CALLED_STOP);
	assert_null(s->u.read);
	assert_int_equal(s->u.reread, 1);
	unit_step(s, U_ACCEPTED);
	assert_int_equal(s->u.phase, UP_STOPPING);
	st_exited("failed");
	answer(s);
	assert_int_equal(s->u.phase, UP_STOPPING);
	assert_true(unit_exited(s));
	st_gone();
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_string_equal(t_log, "STOP UNREF READ READ gone ");
}

/* Refused: stopped blind (a timeout may have made it), start failed. */
static void
test_refused(void **state)
{
	struct session	*s = fresh();

	(void)state;
	unit_step(s, U_CALLED);
	unit_step(s, U_REFUSED);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_string_equal(t_log, "STOP UNREF start_failed ");
	s = fresh();
	unit_step(s, U_CALLED);
	unit_stop(s);
	unit_step(s, U_REFUSED);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_string_equal(t_log, "STOP UNREF start_failed ");
}

/*
 * Over, then running again (someone started it anew): stopped once the
 * resend is due.  Past the stop budget a failed unit is reset and an
 * inactive one counts as ended.
 */
static void
test_restarted_and_late(void **state)
{
	struct session	*s = fresh();

	(void)state;
	unit_step(s, U_CALLED);
	unit_step(s, U_ACCEPTED);
	s->u.phase = UP_RUNNING;
	unit_timer(-1, 0, s);
	st_exited("inactive");
	answer(s);
	assert_int_equal(s->u.phase, UP_OVER);
	st_running();
	s->u.resend_at = 0;		/* the resend is due */
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_STOPPING);
	s->u.deadline = 1;		/* past the stop budget */
	st_exited("failed");
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_STOPPING);
	st_exited("inactive");
	unit_timer(-1, 0, s);
	answer(s);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_string_equal(t_log, "READ UNREF exited READ job_done STOP READ "
	    "RESET READ gone ");
}

/*
 * A command seen ended while its start job still runs: the job's end,
 * once read, is told after all (the master, and the output in it, reach
 * a session still starting), and the command's end with it.
 */
static void
test_exit_before_job(void **state)
{
	struct session	*s = fresh();

	(void)state;
	unit_step(s, U_CALLED);
	unit_step(s, U_ACCEPTED);
	unit_timer(-1, 0, s);
	st_exited("inactive");
	t_st.job_id = 9;
	answer(s);
	assert_int_equal(s->u.phase, UP_OVER);
	t_st.job_id = 0;
	unit_timer(-1, 0, s);
	answer(s);
	assert_string_equal(t_log, "READ UNREF exited READ job_done exited ");
}

/* A second stop, or a stop of an ended unit, sends nothing more. */
static void
test_stop_after_exit(void **state)
{
	struct session	*s = fresh();

	(void)state;
	unit_step(s, U_CALLED);
	unit_step(s, U_ACCEPTED);
	s->u.phase = UP_RUNNING;
	unit_timer(-1, 0, s);
	st_exited("inactive");
	answer(s);
	assert_int_equal(s->u.phase, UP_OVER);
	unit_stop(s);
	assert_int_equal(s->u.phase, UP_OVER);
	answer(s);
	unit_stop(s);
	assert_string_equal(t_log, "READ UNREF exited READ job_done exited "
	    "READ ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life),
		cmocka_unit_test(test_stop_while_called),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_restarted_and_late),
		cmocka_unit_test(test_exit_before_job),
		cmocka_unit_test(test_stop_after_exit),
	};

	log_init("test_parent_unit", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
