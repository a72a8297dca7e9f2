/*
 * test_dbusd_req.c: cmocka tests of the budget of calls in flight
 * (dbusd/req.c).  A child process plays PID 1 on the other end of a
 * socketpair (a peer-to-peer sd-bus server, no daemon) and holds its
 * answers until told to look: it must then hold exactly the budget's
 * worth of calls (plus those a freed request gave back), and see every
 * later call in the order the requests asked for them, none of a request
 * freed before its calls went out.  Another plays a bus set up with a
 * lower limit, refusing calls past it: the budget must learn it, and the
 * next calls must all go through.  Runs unprivileged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dbusd/priv.h"
#include "proto/log.h"

#define NREQ		30	/* requests asked at once */
#define NCALL		5	/* calls in each */
#define FREED_SENT	0	/* freed while its calls are in flight */
#define FREED_HELD	(NREQ - 1)	/* freed before its calls go out */
/* What the fake PID 1 must hold when told to look. */
#define FIRST_SEEN	(REQ_INFLIGHT_MAX + NCALL)
/* Every call but those of the request freed while held. */
#define ALL_SEEN	((NREQ - 1) * NCALL)

/* The server end of the socketpair fd; exit 2 if it cannot start. */
static sd_bus *
fake_open(int fd)
{
	sd_bus		*b = NULL;
	sd_id128_t	 id;

	if (sd_id128_randomize(&id) < 0 || sd_bus_new(&b) < 0 ||
	    sd_bus_set_fd(b, fd, fd) < 0 || sd_bus_set_server(b, 1, id) < 0 ||
	    sd_bus_start(b) < 0)
		_exit(2);
	return b;
}

/* The next call's number, which must be seq; exit 3 otherwise. */
static void
fake_take(sd_bus_message *m, uint32_t seq)
{
	uint32_t	 n;

	if (!sd_bus_message_is_method_call(m, "t.Budget", "Call") ||
	    sd_bus_message_read(m, "u", &n) <= 0 || n != seq)
		_exit(3);
}

/*
 * Holds every call until a byte arrives on ctl (the bus is served all
 * the while: its handshake, the calls), then reads what is left there.
 * The calls taken, or exit 2 on an error.
 */
static uint32_t
fake_hold(sd_bus *b, int ctl, sd_bus_message **held)
{
	struct pollfd	 pfd[2];
	sd_bus_message	*m;
	uint32_t	 seq = 0;
	int		 r, told = 0;
	char		 c;

	pfd[0].fd = sd_bus_get_fd(b);
	pfd[1].fd = ctl;
	pfd[1].events = POLLIN;
	for (;;) {
		m = NULL;
		if ((r = sd_bus_process(b, &m)) < 0)
			_exit(2);
		if (m != NULL) {
			if (seq >= ALL_SEEN)
				_exit(3);	/* more calls than asked */
			fake_take(m, seq);
			held[seq++] = m;
			continue;
		}
		if (r > 0)
			continue;
		if (told)
			return seq;
		pfd[0].events = (short)sd_bus_get_events(b);
		if (poll(pfd, 2, -1) < 0)
			_exit(2);
		if (pfd[1].revents != 0) {
			if (read(ctl, &c, 1) != 1)
				_exit(2);
			told = 1;
		}
	}
}

/*
 * Holds every answer until a byte arrives on ctl, then checks what it
 * holds, answers it all, and answers each later call at once.  Exit 0
 * only if it saw ALL_SEEN calls, numbered in order.
 */
static void __attribute__((noreturn))
fake_pid1(int fd, int ctl)
{
	static sd_bus_message	*held[ALL_SEEN];
	sd_bus			*b;
	sd_bus_message		*m;
	uint32_t		 seq, i;
	int			 r;

	b = fake_open(fd);
	if ((seq = fake_hold(b, ctl, held)) != FIRST_SEEN)
		_exit(4);
	for (i = 0; i < seq; i++)
		if (sd_bus_reply_method_return(held[i], "u", i) < 0)
			_exit(2);
	for (;;) {
		m = NULL;
		if ((r = sd_bus_process(b, &m)) < 0 || (m != NULL &&
		    sd_bus_message_is_signal(m, "org.freedesktop.DBus.Local",
		    "Disconnected")))
			_exit(seq == ALL_SEEN ? 0 : 5);
		if (m != NULL) {
			if (seq >= ALL_SEEN)
				_exit(3);
			fake_take(m, seq);
			if (sd_bus_reply_method_return(m, "u", seq++) < 0)
				_exit(2);
			sd_bus_message_unref(m);
			continue;
		}
		if (r == 0 && sd_bus_wait(b, UINT64_MAX) < 0)
			_exit(2);
	}
}

/*
 * A bus with a limit of LIMIT replies pending, before a PID 1 that
 * answers nothing until a byte arrives on ctl: it holds LIMIT calls and
 * refuses the rest at once, as the bus does.  Then it answers those it
 * holds and every later call at once.  Exit 0 when the peer leaves.
 */
#define LIMIT	8
static void __attribute__((noreturn))
fake_limited(int fd, int ctl)
{
	sd_bus_message	*held[LIMIT], *m;
	struct pollfd	 pfd[2];
	sd_bus		*b;
	uint32_t	 n;
	size_t		 nh = 0, i;
	int		 r, told = 0;
	char		 c;

	b = fake_open(fd);
	pfd[0].fd = sd_bus_get_fd(b);
	pfd[1].fd = ctl;
	pfd[1].events = POLLIN;
	for (;;) {
		m = NULL;
		if ((r = sd_bus_process(b, &m)) < 0 || (m != NULL &&
		    sd_bus_message_is_signal(m, "org.freedesktop.DBus.Local",
		    "Disconnected")))
			_exit(0);
		if (m != NULL) {
			if (sd_bus_message_read(m, "u", &n) <= 0)
				_exit(3);
			if (told)
				r = sd_bus_reply_method_return(m, "u", n);
			else if (nh < LIMIT) {
				held[nh++] = m;
				continue;
			} else
				r = sd_bus_reply_method_errorf(m,
				    SD_BUS_ERROR_LIMITS_EXCEEDED, "limit");
			if (r < 0)
				_exit(2);
			sd_bus_message_unref(m);
			continue;
		}
		if (r > 0)
			continue;
		pfd[0].events = (short)sd_bus_get_events(b);
		pfd[1].fd = told ? -1 : ctl;
		if (poll(pfd, 2, -1) < 0)
			_exit(2);
		if (told || pfd[1].revents == 0)
			continue;
		if (read(ctl, &c, 1) != 1)
			_exit(2);
		told = 1;
		for (i = 0; i < nh; i++) {
			if (sd_bus_message_rewind(held[i], 1) < 0 ||
			    sd_bus_message_read(held[i], "u", &n) <= 0 ||
			    sd_bus_reply_method_return(held[i], "u", n) < 0)
				_exit(2);
			sd_bus_message_unref(held[i]);
		}
	}
}

/* A request of NCALL calls numbered from first. */
static struct dbusd_req *
ask(struct dbusd *d, uint32_t first)
{
	struct dbusd_req	*req;
	sd_bus_message		*m;
	uint32_t		 i;

	assert_non_null(req = req_new(d, NULL, NULL));
	for (i = 0; i < NCALL; i++) {
		assert_true(sd_bus_message_new_method_call(d->bus, &m, NULL,
		    "/t", "t.Budget", "Call") >= 0);
		assert_true(sd_bus_message_append(m, "u", first + i) >= 0);
		assert_int_equal(req_call(req, m), 0);
		sd_bus_message_unref(m);
	}
	return req;
}

/*
 * Every answer of req is the number of its call, or the bus's refusal;
 * how many were refused.
 */
static unsigned
answers(struct dbusd_req *req, uint32_t first)
{
	sd_bus_message	*m;
	uint32_t	 i, n;
	unsigned	 refused = 0;
	int		 r;

	assert_int_equal(req_wait(req, NULL), 0);
	for (i = 0; i < NCALL; i++) {
		if ((r = req_result(req, i, &m)) == -ENOBUFS) {
			refused++;
			continue;
		}
		assert_int_equal(r, 0);
		assert_true(sd_bus_message_read(m, "u", &n) > 0);
		assert_int_equal(n, first + i);
	}
	return refused;
}

/* The bus for d, with fake_pid1 or fake_limited; ctl tells it to look. */
static pid_t
fake_start(struct dbusd *d, int *ctl, int limited)
{
	pid_t	pid;
	int	sp[2], pp[2];

	memset(d, 0, sizeof(*d));
	req_init(d);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	assert_int_equal(pipe2(pp, O_CLOEXEC), 0);
	if ((pid = fork()) == 0) {
		close(sp[0]);
		close(pp[1]);
		if (limited)
			fake_limited(sp[1], pp[0]);
		fake_pid1(sp[1], pp[0]);
	}
	assert_true(pid > 0);
	close(sp[1]);
	close(pp[0]);
	assert_true(sd_bus_new(&d->bus) >= 0);
	assert_true(sd_bus_set_fd(d->bus, sp[0], sp[0]) >= 0);
	assert_true(sd_bus_start(d->bus) >= 0);
	*ctl = pp[1];
	return pid;
}

static void
fake_end(struct dbusd *d, pid_t pid, int ctl)
{
	int	 st;

	sd_bus_close_unref(d->bus);	/* the child ends */
	close(ctl);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/*
 * 150 calls asked at once: the budget's worth go out, the rest wait;
 * freeing a request in flight gives its calls' room to the next ones,
 * freeing a held one sends none of its calls; every answer reaches the
 * request that asked.
 */
static void
test_budget(void **state)
{
	struct dbusd		 d;
	struct dbusd_req	*req[NREQ];
	pid_t			 pid;
	uint32_t		 i;
	int			 ctl;

	(void)state;
	pid = fake_start(&d, &ctl, 0);
	for (i = 0; i < NREQ; i++)
		req[i] = ask(&d, i * NCALL);
	assert_int_equal(d.inflight, REQ_INFLIGHT_MAX);
	assert_false(TAILQ_EMPTY(&d.waiting));
	dbusd_req_free(req[FREED_HELD]);
	dbusd_req_free(req[FREED_SENT]);
	assert_int_equal(d.inflight, REQ_INFLIGHT_MAX);
	assert_true(sd_bus_flush(d.bus) >= 0);
	assert_int_equal(write(ctl, "x", 1), 1);
	for (i = 0; i < NREQ; i++)
		if (i != FREED_SENT && i != FREED_HELD)
			assert_int_equal(answers(req[i], i * NCALL), 0);
	assert_int_equal(d.inflight, 0);
	assert_true(TAILQ_EMPTY(&d.waiting));
	for (i = 0; i < NREQ; i++)
		if (i != FREED_SENT && i != FREED_HELD)
			dbusd_req_free(req[i]);
	fake_end(&d, pid, ctl);
}

/*
 * A bus whose limit is below the budget: of the budget's worth of calls
 * sent, it refuses all but LIMIT, and the budget comes down to exactly
 * that before any held call goes out.  Those go through once PID 1
 * answers, LIMIT at a time, and so do the next ones.
 */
static void
test_learns_limit(void **state)
{
	struct dbusd		 d;
	struct dbusd_req	*req[NREQ];
	pid_t			 pid;
	uint32_t		 i;
	unsigned		 refused = 0;
	int			 ctl, r;

	(void)state;
	pid = fake_start(&d, &ctl, 1);
	for (i = 0; i < NREQ; i++)
		req[i] = ask(&d, i * NCALL);
	while (d.inflight > LIMIT) {
		assert_true((r = sd_bus_process(d.bus, NULL)) >= 0);
		if (r == 0)
			assert_true(sd_bus_wait(d.bus, UINT64_MAX) >= 0);
	}
	assert_int_equal(d.budget, LIMIT);
	assert_false(TAILQ_EMPTY(&d.waiting));
	assert_int_equal(write(ctl, "x", 1), 1);
	for (i = 0; i < NREQ; i++)
		refused += answers(req[i], i * NCALL);
	assert_int_equal(refused, REQ_INFLIGHT_MAX - LIMIT);
	for (i = 0; i < NREQ; i++) {
		dbusd_req_free(req[i]);
		req[i] = ask(&d, i * NCALL);
	}
	for (i = 0; i < NREQ; i++) {
		assert_int_equal(answers(req[i], i * NCALL), 0);
		dbusd_req_free(req[i]);
	}
	assert_int_equal(d.inflight, 0);
	assert_int_equal(d.budget, LIMIT);
	fake_end(&d, pid, ctl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_learns_limit),
	};

	log_init("test_dbusd_req", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
