/*
 * test_parent_session.c: the root parent's session table
 * (parent/session.c), compiled into this test with the files it calls
 * replaced by recorders.  Test only; any user.  Checks that a relay
 * request in a state with no row is refused (parent_dispatch_relay, in
 * the same file, makes that fatal) and changes nothing, walks a
 * session's life through the real imsg channel (a socketpair standing
 * for the relay), and shows that
 * an event posted from inside a transition runs once that transition
 * is done, and that news from a step waits in the queue until drained.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): the table is static */
#include "parent/session.c"
/* NOLINTNEXTLINE(bugprone-suspicious-include): and so is the queue */
#include "parent/sessq.c"

static struct parent	 t_parent;
struct parent		*parent = &t_parent;

static int	 t_relay = -1;		/* the relay's end of the channel */
static int	 t_auth_code = -1;	/* auth_begin() refuses at once */
static int	 t_start_code;		/* start_send()'s answer */
static int	 t_unit_code;		/* start_unit()'s answer */
static int	 t_exit_hold;		/* parent_exit_check()'s answer */
static char	 t_calls[256];		/* the steps called, in order */

static void
called(const char *what)
{
	strncat(t_calls, what, sizeof(t_calls) - strlen(t_calls) - 1);
	strncat(t_calls, " ", sizeof(t_calls) - strlen(t_calls) - 1);
}

/* The files session.c calls. */
void
auth_begin(struct session *s, int conn)
{
	(void)conn;
	called("auth_begin");
	if (t_auth_code != -1)
		parent_session_post(s, PEV_AUTH_DONE, t_auth_code);
}

void
auth_read(struct session *s)
{
	(void)s;
	called("auth_read");
}

void
auth_drop(struct session *s)
{
	(void)s;
}

void
start_prepare(struct session *s, struct imsg *m)
{
	s->argc = 1;
	close(m->fd);
	m->fd = -1;
	called("start_prepare");
}

int
start_send(struct session *s, int code)
{
	(void)s;
	called("start_send");
	return code != 0 ? code : t_start_code;
}

int
start_unit(struct session *s)
{
	if (t_unit_code == 0)
		s->u.phase = UP_CALLED;
	called("start_unit");
	return t_unit_code;
}

void
start_drop(struct session *s)
{
	(void)s;
}

void
pts_end(struct session *s)
{
	(void)s;
}

void
pts_timer(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	(void)arg;
}

void
unit_stop(struct session *s)
{
	(void)s;
	called("unit_stop");
}

void
unit_timer(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	(void)arg;
}

int
parent_exit_check(struct session *s)
{
	(void)s;
	called("parent_exit_check");
	return t_exit_hold;
}

void
signal_request(struct session *s, struct imsg *m)
{
	(void)s;
	(void)m;
	called("signal_request");
}

void
signal_late(struct session *s, struct imsg *m)
{
	(void)s;
	(void)m;
	called("signal_late");
}

void
signal_end(struct session *s)
{
	(void)s;
}

/* And the relay's door's neighbours, which the table never reaches. */
void
relayproc_lost(const char *why)
{
	fail_msg("relay lost: %s", why);
	abort();
}

void
parent_shutdown_done(void)
{
	fail();
}

void
parent_status(void)
{
}

void
journal_session(const struct session *s)
{
	(void)s;
	called("journal_session");
}

void
dbusd_req_free(struct dbusd_req *req)
{
	assert_null(req);
}

static int
setup(void **state)
{
	int	sp[2];

	(void)state;
	memset(t_calls, 0, sizeof(t_calls));
	t_auth_code = -1;
	t_start_code = 0;
	t_exit_hold = 0;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC,
	    0, sp), 0);
	parent->relay_fd = sp[0];
	t_relay = sp[1];
	if (parent->base == NULL)
		assert_non_null(parent->base = event_base_new());
	parent_session_init();
	return 0;
}

static int
teardown(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		event_free(parent->sessions[i].u_timer);
	event_free(sessq_ev);
	sessq_ev = NULL;
	close(parent->relay_fd);
	close(t_relay);
	return 0;
}

/* The relay's next message: its type, its code if it has one. */
static uint32_t
relay_reads(uint32_t sid, int *fd, uint32_t *code)
{
	static struct imsg	 m;
	struct imsg_code	 c;

	assert_int_equal(imsg_recv(t_relay, TO_RELAY, &m), 1);
	assert_int_equal(m.hdr.sid, sid);
	if (fd != NULL)
		*fd = m.fd;
	else
		assert_int_equal(m.fd, -1);
	if (code != NULL) {
		assert_int_equal(m.hdr.len, sizeof(c));
		memcpy(&c, m.data, sizeof(c));
		*code = c.code;
	}
	return m.hdr.type;
}

static int
relay_sends(struct session *s, enum parent_session_ev ev, uint32_t type,
    int fd, const void *data, uint32_t len)
{
	static struct imsg	 m;
	int			 r;

	memset(&m, 0, sizeof(m));
	m.hdr.type = type;
	m.hdr.sid = s->sid;
	m.hdr.len = len;
	m.fd = fd;
	if (len > 0)
		memcpy(m.data, data, len);
	/* As parent_dispatch_relay() does. */
	r = session_step(s, ev, &m, 0);
	parent_session_drain();
	return r;
}

static int
has_row(enum sess_state st, enum parent_session_ev ev)
{
	size_t	 i;

	for (i = 0; i < sizeof(session_table) / sizeof(session_table[0]); i++)
		if (session_table[i].state == st && session_table[i].ev == ev)
			return 1;
	return 0;
}

/*
 * A step's news, posted as the step does and drained as the loop does:
 * -1 if the table has no row for it in the session's state.
 */
static int
news(struct session *s, enum parent_session_ev ev, int code)
{
	int	 row = has_row(s->state, ev);

	parent_session_post(s, ev, code);
	parent_session_drain();
	return row ? 0 : -1;
}

/*
 * A relay request with no row in the session's state is refused and
 * changes nothing; the same request where a row allows it is taken.
 */
static void
test_request_without_row(void **state)
{
	struct session		*s = &parent->sessions[4];
	struct imsg_close	 c = { 0, 0 };
	struct imsg_signal	 sg = { 2 };

	(void)state;
	assert_int_equal(relay_sends(s, PEV_CLOSE_REQ, IMSG_CLOSE_REQ, -1, &c,
	    sizeof(c)), -1);
	assert_int_equal(s->state, SS_FREE);
	s->state = SS_ADMITTED;
	assert_int_equal(relay_sends(s, PEV_SIGNAL_REQ, IMSG_SIGNAL_REQ, -1,
	    &sg, sizeof(sg)), -1);
	assert_int_equal(s->state, SS_ADMITTED);
	assert_int_equal(relay_sends(s, PEV_AUTH_REQ, IMSG_AUTH_REQ, -1, NULL,
	    0), -1);
	assert_int_equal(s->state, SS_ADMITTED);
	s->state = SS_CLOSING;
	assert_int_equal(relay_sends(s, PEV_SIGNAL_REQ, IMSG_SIGNAL_REQ, -1,
	    &sg, sizeof(sg)), -1);
	assert_int_equal(s->state, SS_CLOSING);
	assert_string_equal(t_calls, "");
	/* Where a row allows it. */
	s->state = SS_ADMITTED;
	assert_int_equal(relay_sends(s, PEV_CLOSE_REQ, IMSG_CLOSE_REQ, -1, &c,
	    sizeof(c)), 0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads(4, NULL, NULL), IMSG_CLOSED);
}

/* FREE -> AUTH -> ADMITTED -> STARTING -> RUNNING -> ENDED -> CLOSING. */
static void
test_life(void **state)
{
	struct session		*s = &parent->sessions[5];
	struct imsg_close	 c = { 10, 20 };
	int			 p[2], fd;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(relay_sends(s, PEV_AUTH_REQ, IMSG_AUTH_REQ, p[0],
	    NULL, 0), 0);
	assert_int_equal(s->state, SS_AUTH);
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(s->state, SS_ADMITTED);
	assert_int_equal(relay_reads(5, NULL, NULL), IMSG_AUTH_OK);
	assert_int_equal(relay_sends(s, PEV_START_REQ, IMSG_START_REQ, p[1],
	    NULL, 0), 0);
	assert_int_equal(s->state, SS_STARTING);
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(s->state, SS_STARTING);
	assert_int_equal(s->u.phase, UP_NONE);
	assert_int_equal(news(s, PEV_PTS_READY, 0), 0);
	assert_int_equal(s->state, SS_STARTING);
	assert_int_equal(s->u.phase, UP_CALLED);
	assert_true((s->relay_end = dup(2)) != -1);
	assert_int_equal(news(s, PEV_JOB_DONE, 0), 0);
	assert_int_equal(s->state, SS_RUNNING);
	assert_int_equal(s->relay_end, -1);
	assert_int_equal(relay_reads(5, &fd, NULL), IMSG_START_OK);
	assert_true(fd != -1);
	close(fd);
	assert_int_equal(news(s, PEV_EXITED, 0), 0);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(5, NULL, NULL), IMSG_EXIT);
	/* The unit going away after the exit was told changes nothing. */
	assert_int_equal(news(s, PEV_GONE, 0), -1);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_sends(s, PEV_CLOSE_REQ, IMSG_CLOSE_REQ, -1, &c,
	    sizeof(c)), 0);
	assert_int_equal(s->state, SS_CLOSING);
	assert_int_equal(news(s, PEV_GONE, 0), 0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads(5, NULL, NULL), IMSG_CLOSED);
	assert_string_equal(t_calls, "auth_begin start_prepare "
	    "auth_read start_send start_unit parent_exit_check "
	    "unit_stop journal_session ");
}

/* A running session brought to RUNNING through the table. */
static struct session *
running(int sid)
{
	struct session	*s = &parent->sessions[sid];
	int		 p[2], fd;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(relay_sends(s, PEV_AUTH_REQ, IMSG_AUTH_REQ, p[0],
	    NULL, 0), 0);
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(relay_reads((uint32_t)sid, NULL, NULL), IMSG_AUTH_OK);
	assert_int_equal(relay_sends(s, PEV_START_REQ, IMSG_START_REQ, p[1],
	    NULL, 0), 0);
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(news(s, PEV_PTS_READY, 0), 0);
	assert_true((s->relay_end = dup(2)) != -1);
	assert_int_equal(news(s, PEV_JOB_DONE, 0), 0);
	assert_int_equal(s->state, SS_RUNNING);
	assert_int_equal(relay_reads((uint32_t)sid, &fd, NULL), IMSG_START_OK);
	close(fd);
	return s;
}

/*
 * An exit held for shutdown.c's check stays RUNNING and tells the relay
 * nothing, however often it is seen again, until PEV_EXIT_CHECKED.
 */
static void
test_exit_held(void **state)
{
	struct session	*s = running(6);
	char		 b;

	(void)state;
	t_exit_hold = 1;
	assert_int_equal(news(s, PEV_EXITED, 0), 0);
	assert_int_equal(s->state, SS_RUNNING);
	assert_int_equal(news(s, PEV_EXITED, 0), 0);
	assert_int_equal(s->state, SS_RUNNING);
	assert_int_equal(recv(t_relay, &b, 1, MSG_DONTWAIT), -1);
	assert_int_equal(news(s, PEV_EXIT_CHECKED, 0),
	    0);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(6, NULL, NULL), IMSG_EXIT);
	/* A check answered after the end was told changes nothing. */
	assert_int_equal(news(s, PEV_EXIT_CHECKED, 0),
	    -1);
	assert_int_equal(s->state, SS_ENDED);
}

/*
 * News posted from a reply or a timer waits in the queue, the session
 * untouched, until the table drains it, in the order it was posted:
 * the exit is told once, and the unit's end after it finds ENDED, which
 * has no row for it.
 */
static void
test_news_queued(void **state)
{
	struct session	*s = running(7);
	char		 b;

	(void)state;
	parent_session_post(s, PEV_EXITED, 0);
	parent_session_post(s, PEV_GONE, 0);
	assert_int_equal(s->state, SS_RUNNING);
	assert_int_equal(recv(t_relay, &b, 1, MSG_DONTWAIT), -1);
	parent_session_drain();
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(7, NULL, NULL), IMSG_EXIT);
	assert_int_equal(recv(t_relay, &b, 1, MSG_DONTWAIT), -1);
	assert_null(sessq_pop());
}

/*
 * A refusal auth_begin() finds at once is posted inside the AUTH_REQ
 * transition: it runs after it, in AUTH, and frees the slot.
 */
static void
test_refused_at_once(void **state)
{
	struct session	*s = &parent->sessions[3];
	uint32_t	 code;
	int		 p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[1]);
	t_auth_code = ERR_AUTH_PID;
	assert_int_equal(relay_sends(s, PEV_AUTH_REQ, IMSG_AUTH_REQ, p[0],
	    NULL, 0), 0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads(3, NULL, &code), IMSG_AUTH_DENY);
	assert_int_equal(code, ERR_AUTH_PID);
}

/* The parent's own cap: a full table refuses an admission. */
static void
test_busy(void **state)
{
	struct session	*s = &parent->sessions[OPTY_MAX_SESSIONS];
	uint32_t	 code;
	int		 i;

	(void)state;
	for (i = 0; i < OPTY_MAX_SESSIONS; i++)
		parent->sessions[i].state = SS_RUNNING;
	s->state = SS_AUTH;
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads((uint32_t)OPTY_MAX_SESSIONS, NULL, &code),
	    IMSG_AUTH_DENY);
	assert_int_equal(code, ERR_BUSY);
	for (i = 0; i < OPTY_MAX_SESSIONS; i++)
		parent->sessions[i].state = SS_FREE;
}

/* A close crossing the start call: the slot waits for the unit's end. */
static void
test_close_while_starting(void **state)
{
	struct session		*s = &parent->sessions[1];
	struct imsg_close	 c = { 0, 0 };
	uint32_t		 code;

	(void)state;
	s->state = SS_STARTING;
	t_start_code = ERR_START;
	assert_int_equal(news(s, PEV_AUTH_DONE, 0), 0);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(1, NULL, &code), IMSG_START_FAIL);
	assert_int_equal(code, ERR_START);
	s->state = SS_STARTING;
	s->u.phase = UP_RUNNING;
	assert_int_equal(relay_sends(s, PEV_CLOSE_REQ, IMSG_CLOSE_REQ, -1, &c,
	    sizeof(c)), 0);
	assert_int_equal(s->state, SS_CLOSING);
	assert_int_equal(news(s, PEV_START_FAILED, 0),
	    0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads(1, NULL, NULL), IMSG_CLOSED);
}

/*
 * The terminal's instance mounted, the unit refused at once (no unit
 * made): the start fails; a mount that never came is a failed start too,
 * and a close then frees the slot at once.
 */
static void
test_pts_steps(void **state)
{
	struct session		*s = &parent->sessions[2];
	struct imsg_close	 c = { 0, 0 };
	uint32_t		 code;

	(void)state;
	t_start_code = 0;
	s->state = SS_STARTING;
	t_unit_code = ERR_INTERNAL;
	assert_int_equal(news(s, PEV_PTS_READY, 0), 0);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(2, NULL, &code), IMSG_START_FAIL);
	assert_int_equal(code, ERR_INTERNAL);
	t_unit_code = 0;
	s->state = SS_STARTING;
	assert_int_equal(news(s, PEV_START_FAILED, 0),
	    0);
	assert_int_equal(s->state, SS_ENDED);
	assert_int_equal(relay_reads(2, NULL, &code), IMSG_START_FAIL);
	assert_int_equal(code, ERR_START);
	assert_int_equal(relay_sends(s, PEV_CLOSE_REQ, IMSG_CLOSE_REQ, -1, &c,
	    sizeof(c)), 0);
	assert_int_equal(s->state, SS_FREE);
	assert_int_equal(relay_reads(2, NULL, NULL), IMSG_CLOSED);
	/* A mount ready after the close has no row: nothing happens. */
	assert_int_equal(news(s, PEV_PTS_READY, 0), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_without_row, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_life, setup, teardown),
		cmocka_unit_test_setup_teardown(test_news_queued, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_refused_at_once, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_busy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_held, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_close_while_starting,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_pts_steps, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
