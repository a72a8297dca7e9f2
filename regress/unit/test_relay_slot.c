/*
 * test_relay_slot.c: the relay's slot table (relay/slot.c), compiled
 * into this test with the real channel (relay/chan.c, over a socketpair
 * standing for the parent) and pump.c and conn.c replaced by recorders.
 * Test only; any user.  Checks that the table has a row for exactly the
 * (slot state, parent message) pairs a sane parent can send, that a
 * message without a row, or whose row's need is not met, is fatal and
 * changes nothing, and that the rows the relay needs to survive a
 * crossing close or a shutdown do their work.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): the table is static */
#include "relay/slot.c"

static struct event_base	*t_base;
static int			 t_parent = -1;	/* the parent's end */
static int			 t_listen = -1;
static jmp_buf			 t_jmp;
static uint16_t			 t_error;	/* conn_send_error()'s code */
static int			 t_pump_exit;	/* pump_exit() calls */

/* The files slot.c calls besides chan.c. */
int
pump_input(struct slot *s)
{
	(void)s;
	return PUMP_WAIT;
}

int
pump_output(struct slot *s)
{
	(void)s;
	return PUMP_WAIT;
}

int
pump_master_read(struct slot *s)
{
	(void)s;
	return PUMP_WAIT;
}

int
pump_master_write(struct slot *s)
{
	(void)s;
	return PUMP_WAIT;
}

int
pump_exit(struct slot *s)
{
	(void)s;
	t_pump_exit++;
	return PUMP_WAIT;
}

void
pump_resize(struct slot *s, const struct winsize_req *ws)
{
	(void)s;
	(void)ws;
}

void
pump_watch(struct slot *s)
{
	(void)s;
}

void
conn_send_frame(int fd, uint8_t type, const uint8_t *p, size_t len)
{
	(void)fd;
	(void)type;
	(void)p;
	(void)len;
}

void
conn_send_error(int fd, uint16_t code)
{
	(void)fd;
	t_error = code;
}

static int
setup(void **state)
{
	int	sp[2];

	(void)state;
	if (t_base == NULL)
		assert_non_null(t_base = event_base_new());
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC,
	    0, sp), 0);
	t_parent = sp[1];
	assert_true((t_listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC,
	    0)) != -1);
	chan_init(t_base, sp[0], slot_handle, slot_start_sent);
	slot_init(t_base, t_listen);
	shutting = shutdown_told = 0;
	t_error = 0;
	t_pump_exit = 0;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	close(t_parent);
	close(t_listen);
	return 0;
}

static void
t_fatal(void)
{
	longjmp(t_jmp, 1);
}

/* A parent message for slot sid: 1 if the relay found it fatal. */
static int
parent_sends(uint32_t type, uint32_t sid, int fd, const void *p,
    uint32_t len)
{
	static struct imsg	 m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = type;
	m.hdr.sid = sid;
	m.hdr.len = len;
	m.fd = fd;
	if (len > 0)
		memcpy(m.data, p, len);
	log_setexit(t_fatal);
	if (setjmp(t_jmp) != 0)
		return 1;
	slot_handle(&m);
	log_setexit(NULL);
	return 0;
}

static int
parent_sends_code(uint32_t type, uint32_t sid, uint32_t code)
{
	struct imsg_code	 c = { code };

	return parent_sends(type, sid, -1, &c, sizeof(c));
}

static int
parent_sends_exit(uint32_t sid)
{
	struct imsg_exit	 x;

	memset(&x, 0, sizeof(x));
	x.code = 1;
	strncpy(x.result, "exit-code", sizeof(x.result) - 1);
	return parent_sends(IMSG_EXIT, sid, -1, &x, sizeof(x));
}

/* The parent's next message: its type. */
static uint32_t
parent_reads(uint32_t sid)
{
	static struct imsg	 m;

	assert_int_equal(imsg_recv(t_parent, TO_PARENT, &m), 1);
	assert_int_equal(m.hdr.sid, sid);
	return m.hdr.type;
}

static struct slot *
slot_in(uint32_t sid, enum slot_state st, uint32_t pending, int start_sent)
{
	struct slot	*s = &slots[sid];

	s->state = st;
	s->pending = pending;
	s->start_sent = start_sent;
	return s;
}

/*
 * A row for exactly these pairs, written out here rather than read
 * from the table: each answer in the state that waits for it, the
 * answers that crossed a close in CLOSING, and SHUTDOWN everywhere.
 */
static void
test_rows(void **state)
{
	static const uint32_t	 want[SLOT_NSTATES][6] = {
		[SLOT_FREE] = { IMSG_SHUTDOWN },
		[SLOT_AUTH] = { IMSG_AUTH_OK, IMSG_AUTH_DENY, IMSG_SHUTDOWN },
		[SLOT_ADMITTED] = { IMSG_SHUTDOWN },
		[SLOT_STARTING] = { IMSG_START_OK, IMSG_START_FAIL, IMSG_EXIT,
		    IMSG_SHUTDOWN },
		[SLOT_RUNNING] = { IMSG_EXIT, IMSG_SHUTDOWN },
		[SLOT_CLOSING] = { IMSG_START_OK, IMSG_START_FAIL, IMSG_EXIT,
		    IMSG_CLOSED, IMSG_SHUTDOWN },
	};
	uint32_t	 t;
	size_t		 i;
	int		 st, expect;

	(void)state;
	for (st = 0; st < SLOT_NSTATES; st++)
		for (t = 0; t <= IMSG_TYPE_MAX; t++) {
			expect = 0;
			for (i = 0; i < 6; i++)
				if (t != 0 && want[st][i] == t)
					expect = 1;
			assert_int_equal(slot_row((enum slot_state)st, t) !=
			    NULL, expect);
		}
}

/* No row: fatal, the state as it was; with a row: taken. */
static void
test_no_row_fatal(void **state)
{
	struct slot	*s;
	int		 p[2];

	(void)state;
	s = slot_in(3, SLOT_RUNNING, 0, 1);
	assert_int_equal(parent_sends(IMSG_CLOSED, 3, -1, NULL, 0), 1);
	assert_int_equal(s->state, SLOT_RUNNING);
	s = slot_in(3, SLOT_ADMITTED, 0, 0);
	assert_int_equal(parent_sends(IMSG_AUTH_OK, 3, -1, NULL, 0), 1);
	assert_int_equal(s->state, SLOT_ADMITTED);
	s = slot_in(3, SLOT_FREE, 0, 0);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(parent_sends(IMSG_START_OK, 3, p[0], NULL, 0), 1);
	assert_int_equal(s->state, SLOT_FREE);
	close(p[0]);
	close(p[1]);
	s = slot_in(3, SLOT_AUTH, 0, 0);
	assert_int_equal(parent_sends_exit(3), 1);
	assert_int_equal(s->state, SLOT_AUTH);

	/* The same messages where a row allows them. */
	s = slot_in(3, SLOT_CLOSING, 0, 1);
	assert_int_equal(parent_sends(IMSG_CLOSED, 3, -1, NULL, 0), 0);
	assert_int_equal(s->state, SLOT_FREE);
	s = slot_in(3, SLOT_AUTH, 0, 0);
	assert_int_equal(parent_sends_code(IMSG_AUTH_DENY, 3, ERR_AUTH_PID),
	    0);
	assert_int_equal(s->state, SLOT_FREE);
	assert_int_equal(t_error, ERR_AUTH_PID);
}

/* A row whose need is not met is fatal too; met, it is taken. */
static void
test_needs(void **state)
{
	struct slot	*s;

	(void)state;
	/* CLOSED before our CLOSE_REQ left. */
	s = slot_in(4, SLOT_CLOSING, IMSG_CLOSE_REQ, 1);
	assert_int_equal(parent_sends(IMSG_CLOSED, 4, -1, NULL, 0), 1);
	assert_int_equal(s->state, SLOT_CLOSING);
	/* An answer to an AUTH_REQ still queued here. */
	s = slot_in(4, SLOT_AUTH, IMSG_AUTH_REQ, 0);
	assert_int_equal(parent_sends(IMSG_AUTH_OK, 4, -1, NULL, 0), 1);
	assert_int_equal(s->state, SLOT_AUTH);
	/* A crossing answer to a start request the parent never saw. */
	s = slot_in(4, SLOT_CLOSING, IMSG_CLOSE_REQ, 0);
	assert_int_equal(parent_sends_exit(4), 1);
	assert_int_equal(s->state, SLOT_CLOSING);
	/* A second exit report. */
	s = slot_in(4, SLOT_RUNNING, 0, 1);
	assert_int_equal(parent_sends_exit(4), 0);
	assert_int_equal(t_pump_exit, 1);
	assert_int_equal(s->state, SLOT_RUNNING);
	assert_int_equal(parent_sends_exit(4), 1);
	assert_int_equal(t_pump_exit, 1);
	/* The crossing answer once the start request had left. */
	s = slot_in(4, SLOT_CLOSING, IMSG_CLOSE_REQ, 1);
	assert_int_equal(parent_sends_exit(4), 0);
	assert_int_equal(s->state, SLOT_CLOSING);
}

/* A master that crossed our close is closed; CLOSING stays. */
static void
test_crossed_master(void **state)
{
	struct slot	*s = slot_in(5, SLOT_CLOSING, 0, 1);
	int		 p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(parent_sends(IMSG_START_OK, 5, p[0], NULL, 0), 0);
	assert_int_equal(s->state, SLOT_CLOSING);
	assert_int_equal(fcntl(p[0], F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	close(p[1]);
}

/* START_FAIL: the client told the code, the parent asked to close. */
static void
test_start_fail(void **state)
{
	struct slot	*s = slot_in(6, SLOT_STARTING, 0, 1);

	(void)state;
	assert_int_equal(parent_sends_code(IMSG_START_FAIL, 6, ERR_START), 0);
	assert_int_equal(s->state, SLOT_CLOSING);
	assert_int_equal(t_error, ERR_START);
	assert_int_equal(parent_reads(6), IMSG_CLOSE_REQ);
}

/*
 * SHUTDOWN names no slot: whatever slot 0 is doing, even waiting to
 * send its AUTH_REQ, it is taken; a second one is fatal.
 */
static void
test_shutdown(void **state)
{
	struct slot	*s = slot_in(0, SLOT_AUTH, IMSG_AUTH_REQ, 0);

	(void)state;
	assert_int_equal(parent_sends(IMSG_SHUTDOWN, 0, -1, NULL, 0), 0);
	assert_int_equal(s->state, SLOT_AUTH);
	assert_int_equal(shutting, 1);
	assert_int_equal(parent_sends(IMSG_SHUTDOWN, 0, -1, NULL, 0), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test_setup_teardown(test_no_row_fatal, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_needs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crossed_master, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_start_fail, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_shutdown, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
