/*
 * test_dbusd_pid1.c: cmocka tests of what the root parent concludes from
 * PID 1's answers about itself (dbusd/ident.c).  A child process plays
 * PID 1 on the other end of a socketpair (a peer-to-peer sd-bus server,
 * no daemon) and answers Properties.Get of Manager.Version the way
 * each case needs: a version, of the wrong type, refused, or unknown.
 * Runs unprivileged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
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

enum answer {
	ANS_VERSION,		/* "257.1-1" */
	ANS_EMPTY,		/* "" */
	ANS_WRONG_TYPE,		/* Version as a boolean */
	ANS_DENIED,		/* AccessDenied */
	ANS_NO_VERSION,		/* UnknownProperty: no real systemd */
};

/* Answers one Properties.Get; anything else is a test failure (exit 3). */
static int
fake_answer(sd_bus_message *m, enum answer a)
{
	const char	*iface, *name;

	if (!sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties",
	    "Get") || sd_bus_message_read(m, "ss", &iface, &name) <= 0)
		_exit(3);
	if (strcmp(iface, SD_MANAGER) != 0 || strcmp(name, "Version") != 0 ||
	    strcmp(sd_bus_message_get_path(m), SD_PATH) != 0)
		_exit(3);
	switch (a) {
	case ANS_VERSION:
		return sd_bus_reply_method_return(m, "v", "s", "257.1-1");
	case ANS_EMPTY:
		return sd_bus_reply_method_return(m, "v", "s", "");
	case ANS_WRONG_TYPE:
		return sd_bus_reply_method_return(m, "v", "b", 0);
	case ANS_DENIED:
		return sd_bus_reply_method_errorf(m,
		    SD_BUS_ERROR_ACCESS_DENIED, "no");
	default:
		return sd_bus_reply_method_errorf(m,
		    SD_BUS_ERROR_UNKNOWN_PROPERTY, "Unknown property");
	}
}

static void __attribute__((noreturn))
fake_pid1(int fd, enum answer a)
{
	sd_bus		*b = NULL;
	sd_bus_message	*m;
	sd_id128_t	 id;
	int		 r;

	if (sd_id128_randomize(&id) < 0 || sd_bus_new(&b) < 0 ||
	    sd_bus_set_fd(b, fd, fd) < 0 || sd_bus_set_server(b, 1, id) < 0 ||
	    sd_bus_start(b) < 0)
		_exit(2);
	for (;;) {
		m = NULL;
		if ((r = sd_bus_process(b, &m)) < 0)
			_exit(0);	/* the parent closed its end */
		if (m != NULL && sd_bus_message_is_signal(m,
		    "org.freedesktop.DBus.Local", "Disconnected"))
			_exit(0);	/* the parent closed its end */
		if (m != NULL) {
			if (fake_answer(m, a) < 0)
				_exit(2);
			sd_bus_message_unref(m);
			continue;
		}
		if (r == 0 && sd_bus_wait(b, UINT64_MAX) < 0)
			_exit(0);
	}
}

/* pid1_probe() against a fake PID 1 answering a; its result. */
static int
probe(enum answer a, struct dbusd *d)
{
	pid_t	pid;
	int	sp[2], r, st;

	memset(d, 0, sizeof(*d));
	req_init(d);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	if ((pid = fork()) == 0) {
		close(sp[0]);
		fake_pid1(sp[1], a);
	}
	assert_true(pid > 0);
	close(sp[1]);
	assert_true(sd_bus_new(&d->bus) >= 0);
	assert_true(sd_bus_set_fd(d->bus, sp[0], sp[0]) >= 0);
	assert_true(sd_bus_start(d->bus) >= 0);
	r = pid1_probe(d);
	sd_bus_close_unref(d->bus);	/* closes sp[0]: the child ends */
	d->bus = NULL;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	return r;
}

static void
test_version(void **state)
{
	struct dbusd	d;

	(void)state;
	assert_int_equal(probe(ANS_VERSION, &d), 0);
	assert_string_equal(dbusd_pid1_version(&d), "257.1-1");
}

/* Anything but a version string: the open fails rather than guess. */
static void
test_not_a_version(void **state)
{
	const struct { enum answer a; int r; } c[] = {
		{ ANS_EMPTY, -EBADMSG },
		{ ANS_WRONG_TYPE, -EBADMSG },
		{ ANS_DENIED, -EACCES },
		{ ANS_NO_VERSION, -EBADR },	/* sd-bus: UnknownProperty */
	};
	struct dbusd	d;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(probe(c[i].a, &d), c[i].r);
		assert_string_equal(dbusd_pid1_version(&d), "");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_not_a_version),
	};

	log_init("test_dbusd_pid1", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
