/*
 * relay.c: opencode-pty-relay, the unprivileged half of the supervisor.
 * Exec'd as root by the root parent with the parent channel on fd 3, the
 * listening client socket on fd 4, its own journal stream on fd 2 and
 * its numeric uid and gid on the command line; it prepares what its loop needs,
 * locks itself into an empty chroot as its own user under a seccomp
 * allowlist (sandbox.c), and from then on parses every untrusted client
 * frame and moves bytes between clients and unit streams.  main() wires
 * the layers: the channel (chan.c) hands each parent message to the
 * slot table (slot.c), which drives everything else.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/config.h"
#include "proto/log.h"
#include "relay/relay.h"
#include "relay/sandbox.h"

static void __attribute__((noreturn))
usage(void)
{
	log_warnx("usage: opencode-pty-relay [-v] -u uid -g gid");
	exit(2);
}

/*
 * A numeric id from the parent: decimal digits only, no sign, no
 * leading zero, no root (0) and not (uid_t)-1, which the kernel reads as
 * "unchanged".  The relay never resolves a name (no NSS in it).
 */
static unsigned int
parse_id(const char *arg, const char *what)
{
	unsigned long long	 v = 0;
	const char		*p;

	if (arg[0] < '1' || arg[0] > '9' || strlen(arg) > 10)
		fatalx("bad %s '%s'", what, arg);
	for (p = arg; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			fatalx("bad %s '%s'", what, arg);
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (v >= 0xffffffffULL)
		fatalx("bad %s '%s'", what, arg);
	return (unsigned int)v;
}

static int
sock_opt(int fd, int opt)
{
	socklen_t	len;
	int		val;

	len = sizeof(val);
	if (getsockopt(fd, SOL_SOCKET, opt, &val, &len) == -1)
		fatal("fd %d is not a socket", fd);
	return val;
}

/* Refuses to run on anything but what the parent hands over. */
static void
check_fds(void)
{
	if (sock_opt(RELAY_FD_PARENT, SO_DOMAIN) != AF_UNIX ||
	    sock_opt(RELAY_FD_PARENT, SO_TYPE) != SOCK_SEQPACKET)
		fatalx("fd %d is not an AF_UNIX SOCK_SEQPACKET socket",
		    RELAY_FD_PARENT);
	if (sock_opt(RELAY_FD_LISTEN, SO_DOMAIN) != AF_UNIX ||
	    sock_opt(RELAY_FD_LISTEN, SO_TYPE) != SOCK_STREAM ||
	    sock_opt(RELAY_FD_LISTEN, SO_ACCEPTCONN) != 1)
		fatalx("fd %d is not a listening AF_UNIX stream socket",
		    RELAY_FD_LISTEN);
	/* Nothing else should be open; make sure nothing else is. */
	if (close_range(RELAY_FD_LISTEN + 1, ~0U, 0) == -1)
		fatal("close_range");
}

static void
set_flags(int fd)
{
	int	fl;

	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		fatal("fcntl fd %d", fd);
}

/*
 * systemd sends SIGTERM to the whole cgroup on stop, the relay
 * included.  The relay ignores it and ends only when the parent closes
 * the channel: the parent first stops every unit and collects their
 * results, and the streams and clients must stay up until then.  A
 * dead socket peer is an error return, never a signal.
 */
static void
ignore_signals(void)
{
	static const int	 sigs[] = { SIGPIPE, SIGTERM, SIGINT, SIGHUP };
	struct sigaction	 sa;
	size_t			 i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) == -1)
			fatal("sigaction");
}

/* epoll, created now: the sandbox allows no epoll_create afterwards. */
static struct event_base *
make_base(void)
{
	struct event_config	*cfg;
	struct event_base	*base;

	if ((cfg = event_config_new()) == NULL)
		fatalx("event_config_new");
	if (event_config_set_flag(cfg, EVENT_BASE_FLAG_IGNORE_ENV) == -1 ||
	    event_config_set_flag(cfg, EVENT_BASE_FLAG_NOLOCK) == -1)
		fatalx("event_config_set_flag");
	if ((base = event_base_new_with_config(cfg)) == NULL)
		fatalx("event_base_new");
	event_config_free(cfg);
	if (strcmp(event_base_get_method(base), "epoll") != 0)
		fatalx("libevent chose %s, the sandbox allows only epoll",
		    event_base_get_method(base));
	return base;
}

int
main(int argc, char *argv[])
{
	struct event_base	*base;
	uid_t			 uid = 0;
	gid_t			 gid = 0;
	int			 ch, verbose = 0;

	log_init("relay", 0);
	while ((ch = getopt(argc, argv, "g:u:v")) != -1) {
		switch (ch) {
		case 'g':
			if (gid != 0)
				usage();
			gid = parse_id(optarg, "gid");
			break;
		case 'u':
			if (uid != 0)
				usage();
			uid = parse_id(optarg, "uid");
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || uid == 0 || gid == 0)
		usage();
	log_init("relay", verbose);

	check_fds();
	set_flags(RELAY_FD_PARENT);
	set_flags(RELAY_FD_LISTEN);
	ignore_signals();
	base = make_base();
	chan_init(base, RELAY_FD_PARENT, slot_handle, slot_start_sent);
	slot_init(base, RELAY_FD_LISTEN);

	relay_sandbox(OPTY_EMPTY_DIR, uid, gid);
	log_debug("sandboxed, serving");

	chan_open();
	slot_listen();
	if (event_base_dispatch(base) == -1)
		fatalx("event loop failed");
	fatalx("event loop ended");
}
