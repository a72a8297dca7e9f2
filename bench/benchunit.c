/*
 * benchunit.c: opty-benchunit, the bare-D-Bus reference path of the
 * benchmarks (never installed).  Runs as root inside the disposable test
 * systemd and trusts its command line.  It sends PID 1 exactly the
 * StartTransientUnit call the supervisor's parent sends (dbusd/props.c
 * through bench/benchprops.c: same properties but PrivatePIDs=, which
 * only the parent asks PID 1 about, same launcher), with a terminal made
 * as the parent makes it (parent/pty.c: the master here, the peer the
 * unit's stdin and stdout; in one devpts instance PID 1 mounts before
 * the first run, as a slot's serves its sessions) and the directory's
 * socket as stderr, and
 * reads the master itself until EIO, so the difference to opty-benchc is
 * what the supervisor adds: admission, the parent-relay hops and the
 * relaying.
 *
 *	opty-benchunit [-n runs] [-i inbytes] [-d dir]
 *	    [-M | -s launcher | -x property] -- command [arg ...]
 *
 * -s: the old script path: the stream is one end of a socketpair, as it
 * was before the terminal moved to the parent, and ExecStart is the
 * given launcher (an older build that runs the command through
 * script(1)); everything else as above.  -M: the parent's property set without the mount sandbox
 * (TemporaryFileSystem=, BindReadOnlyPaths=, InaccessiblePaths=), to
 * tell its share of a start.  -x: the parent's set without that one
 * fixed property (its name as in dbusd/props.c).
 *
 * Per run, times in microseconds from the start of the session (the
 * terminal or the socketpair is made, then the D-Bus call):
 *	U idx first last exit eof bytes
 * exit: the main process is seen gone and the unit over (a
 * PropertiesChanged hint, then ExecMainCode and ActiveState asked;
 * ExecMainCode is set once systemd reaped it, and with RemainAfterExit=no
 * the unit then goes inactive or failed by itself, as the parent's rule);
 * eof: the master reads EIO (the socketpair EOF) once PID 1 let the unit's
 * copy go; the supervisor sends its exit frame after both.  -i writes that many bytes to the master (the stream)
 * once the first output byte came.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/statfs.h>

#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "bench/bench.h"
#include "bench/benchprops.h"
#include "dbusd/dbusd.h"
#include "parent/parent.h"
#include "proto/cmsgfd.h"
#include "proto/config.h"
#include "proto/log.h"

#define SD_DEST		"org.freedesktop.systemd1"
#define SD_PATH		"/org/freedesktop/systemd1"
#define SD_MANAGER	"org.freedesktop.systemd1.Manager"
#define SD_UNIT		"org.freedesktop.systemd1.Unit"
#define SD_SERVICE	"org.freedesktop.systemd1.Service"

struct urun {
	char		 name[64];
	char		*path;
	int		 stream;	/* the master, or the socketpair */
	int		 check;		/* a hint came: ask the state */
	int		 exited, eof;
	uint64_t	 t0, tfirst, tlast, texit, teof, bytes;
	uint64_t	 in_left;
};

static sd_bus	*bus;
static uint8_t	 buf[256 * 1024];
static uint8_t	 ibuf[32 * 1024];
static int	 script_path;		/* -s */
static int	 variant = BP_PARENT;	/* -M: BP_NOMOUNT, -x: BP_SKIP */
static struct pty_spec	 pspec = { .rows = 24, .cols = 80 };
static char		 pts_of[64];	/* the unit the instance is named by */
static struct pts_names	 pts;

static int
on_changed(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct urun	*u = arg;

	(void)m;
	(void)e;
	u->check = 1;
	return 0;
}

static char *
unit_prop(struct urun *u, const char *prop)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	char		*s = NULL;
	int		 r;

	if ((r = sd_bus_get_property_string(bus, SD_DEST, u->path, SD_UNIT,
	    prop, &e, &s)) < 0)
		fatalx("%s %s: %s", u->name, prop, e.message ? e.message :
		    strerror(-r));
	return s;
}

static void
manager_call(struct urun *u, const char *method, int mode)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 r;

	if (mode)
		r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER,
		    method, &e, NULL, "ss", u->name, "replace");
	else
		r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER,
		    method, &e, NULL, "s", u->name);
	if (r < 0 && !sd_bus_error_has_name(&e,
	    "org.freedesktop.systemd1.NoSuchUnit"))
		log_warnx("%s %s: %s", method, u->name, e.message ?
		    e.message : strerror(-r));
	sd_bus_error_free(&e);
}

static int32_t
main_code(struct urun *u)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int32_t		 code = 0;
	int		 r;

	if ((r = sd_bus_get_property_trivial(bus, SD_DEST, u->path,
	    SD_SERVICE, "ExecMainCode", &e, 'i', &code)) < 0)
		fatalx("%s ExecMainCode: %s", u->name, e.message ?
		    e.message : strerror(-r));
	return code;
}

/*
 * ExecMainCode is set once systemd reaped the main process (right after
 * the call the unit is inactive with its start job queued: that is no
 * exit); the unit then goes inactive or failed by itself.
 */
static void
check_state(struct urun *u)
{
	char	*active;
	int	 code, failed, quiet;

	u->check = 0;
	code = main_code(u);
	active = unit_prop(u, "ActiveState");
	failed = strcmp(active, "failed") == 0;
	quiet = failed || strcmp(active, "inactive") == 0;
	free(active);
	if (!(code != 0 || failed) || !quiet)
		return;
	u->exited = 1;
	u->texit = bench_now_us();
}

/* EIO on the master: every peer is closed, the output is over. */
static void
stream_io(struct urun *u, short revents)
{
	size_t	ilen;
	ssize_t	n;

	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		n = script_path ? recv(u->stream, buf, sizeof(buf),
		    MSG_DONTWAIT) : read(u->stream, buf, sizeof(buf));
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
			u->eof = 1;
			u->teof = bench_now_us();
		} else if (n > 0) {
			u->tlast = bench_now_us();
			if (u->tfirst == 0)
				u->tfirst = u->tlast;
			u->bytes += (uint64_t)n;
		}
	}
	if ((revents & POLLOUT) && u->in_left > 0) {
		ilen = u->in_left < sizeof(ibuf) ? (size_t)u->in_left :
		    sizeof(ibuf);
		n = script_path ? send(u->stream, ibuf, ilen,
		    MSG_DONTWAIT | MSG_NOSIGNAL) : write(u->stream, ibuf, ilen);
		if (n > 0)
			u->in_left -= (uint64_t)n;
		else if (n == -1 && errno != EAGAIN && errno != EINTR)
			u->in_left = 0;
	}
}

/*
 * A synchronous call (the state reads) may have read signals into
 * sd-bus's queue: those are handled before the socket is polled, or a
 * hint would wait for the poll's timeout.
 */
static void
pump(struct urun *u)
{
	struct pollfd	pfd[2];
	int		r;

	while ((r = sd_bus_process(bus, NULL)) > 0)
		;
	if (r < 0)
		fatalx("sd_bus_process: %s", strerror(-r));
	if (u->check && !u->exited)
		return;
	pfd[0].fd = u->eof ? -1 : u->stream;
	pfd[0].events = POLLIN | (u->in_left > 0 && u->tfirst ? POLLOUT : 0);
	pfd[1].fd = sd_bus_get_fd(bus);
	pfd[1].events = (short)sd_bus_get_events(bus);
	if (poll(pfd, 2, 100) == -1 && errno != EINTR)
		fatal("poll");
	if (pfd[0].revents)
		stream_io(u, pfd[0].revents);
}

/* The unit's end of the stream; *sp the end read here (non-blocking). */
static int
stream_make(int *sp)
{
	const char	*what;
	int		 sv[2], peer;

	if (script_path) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
		    sv) == -1)
			fatal("socketpair");
		*sp = sv[0];
		return sv[1];
	}
	if ((*sp = pty_open(&pspec, &peer, &what)) == -1)
		fatal("terminal: %s", what);
	return peer;
}

static void
start(struct urun *u, const char *dir, int argc, char **argv)
{
	struct unit_spec	 in;
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 unit_end, dirfd, ds, r;

	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("%s", dir);
	/* The launcher takes its directory as the supervisor sends it. */
	ds = dirsock_make(dirfd);
	close(dirfd);
	if ((dirfd = ds) == -1)
		fatal("directory socket");
	u->t0 = bench_now_us();
	unit_end = stream_make(&u->stream);
	memset(&in, 0, sizeof(in));
	in.name = u->name;
	in.pts_of = pts_of;
	in.tty_fd = unit_end;
	in.dirsock_fd = dirfd;
	in.argc = (uint32_t)argc;
	in.argv = (const char *const *)argv;
	if ((r = bench_props_message(bus, &in, variant, &m)) < 0)
		fatalx("StartTransientUnit message: %s", strerror(-r));
	r = sd_bus_call(bus, m, 0, &e, NULL);
	/* The message holds duplicates of both descriptors. */
	sd_bus_message_unref(m);
	close(unit_end);
	close(dirfd);
	if (r < 0)
		fatalx("StartTransientUnit: %s", e.message ? e.message :
		    strerror(-r));
	u->check = 1;
}

static int
unit_gone(struct urun *u)
{
	sd_bus_error	e = SD_BUS_ERROR_NULL;
	int		r, gone;

	r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "GetUnit",
	    &e, NULL, "s", u->name);
	gone = r < 0 && sd_bus_error_has_name(&e,
	    "org.freedesktop.systemd1.NoSuchUnit");
	sd_bus_error_free(&e);
	return gone;
}

/* Not timed: the unit is stopped and collected before the next run. */
static void
cleanup(struct urun *u)
{
	int	i;

	/* AddRef=yes holds the unit until its starter lets go. */
	if (!u->exited)
		manager_call(u, "StopUnit", 1);
	manager_call(u, "UnrefUnit", 0);
	for (i = 0; i < 1000 && !unit_gone(u); i++) {
		if (i % 50 == 49)
			manager_call(u, "ResetFailedUnit", 0);
		usleep(10000);
	}
	close(u->stream);
	free(u->path);
}

/* The peer goes to the session user with the tty group (parent.c). */
static void
pty_user(void)
{
	struct passwd	*pw;

	if ((pw = getpwnam(OPTY_USER)) == NULL)
		fatalx("user %s not found", OPTY_USER);
	pspec.uid = pw->pw_uid;
	pspec.tty_gid = pty_check();
}

/*
 * One devpts instance for every run, mounted by PID 1 before the first
 * one and not timed, as a slot's instance serves its next sessions
 * (parent/pts.c): each run's terminal is made in it and each unit binds
 * it by the name of the unit it is named from.  Stopped at the end, as
 * the supervisor's stop does.
 */
static void
pts_mount(void)
{
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	struct statfs	 sf;
	int		 i, r;

	if ((r = unit_name_new(pts_of)) < 0 ||
	    (r = unit_pts_names(pts_of, &pts)) < 0 ||
	    (r = props_pts_message(bus, &pts, pspec.uid, pspec.tty_gid,
	    &m)) < 0)
		fatalx("devpts mount unit message: %s", strerror(-r));
	r = sd_bus_call(bus, m, 0, &e, NULL);
	sd_bus_message_unref(m);
	if (r < 0)
		fatalx("devpts mount unit: %s", e.message ? e.message :
		    strerror(-r));
	sd_bus_error_free(&e);
	/* PID 1 forks mount(8): seen from the kernel, within 10 s. */
	for (i = 0; i < 1000; i++) {
		if (statfs(pts.where, &sf) == 0 &&
		    sf.f_type == DEVPTS_SUPER_MAGIC)
			break;
		(void)usleep(10000);
	}
	if (i == 1000)
		fatalx("devpts instance %s: not mounted after 10 s", pts.where);
	pspec.pts_dir = pts.where;
}

static void
pts_unmount(void)
{
	int	r;

	if ((r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER,
	    "StopUnit", NULL, NULL, "ss", pts.unit, "replace")) < 0)
		log_warnx("StopUnit %s: %s", pts.unit, strerror(-r));
}

static uint64_t
rel(const struct urun *u, uint64_t t)
{
	return t == 0 ? 0 : t - u->t0;
}

static void
run_one(unsigned idx, const char *dir, uint64_t inbytes,
    int argc, char **argv)
{
	struct urun	 u;
	sd_bus_slot	*slot = NULL;
	int		 r;

	memset(&u, 0, sizeof(u));
	u.in_left = inbytes;
	if ((r = unit_name_new(u.name)) < 0 ||
	    (r = sd_bus_path_encode("/org/freedesktop/systemd1/unit", u.name,
	    &u.path)) < 0)
		fatalx("unit name: %s", strerror(-r));
	if ((r = sd_bus_match_signal(bus, &slot, SD_DEST, u.path,
	    "org.freedesktop.DBus.Properties", "PropertiesChanged",
	    on_changed, &u)) < 0)
		fatalx("match: %s", strerror(-r));
	start(&u, dir, argc, argv);
	while (!u.exited || !u.eof) {
		pump(&u);
		if (u.check && !u.exited)
			check_state(&u);
	}
	printf("U %u %llu %llu %llu %llu %llu\n", idx,
	    (unsigned long long)rel(&u, u.tfirst),
	    (unsigned long long)rel(&u, u.tlast),
	    (unsigned long long)rel(&u, u.texit),
	    (unsigned long long)rel(&u, u.teof), (unsigned long long)u.bytes);
	sd_bus_slot_unref(slot);
	cleanup(&u);
}

int
main(int argc, char *argv[])
{
	const char	*dir = ".";
	uint64_t	 runs = 1, inbytes = 0, i;
	int		 ch, r;

	log_init("opty-benchunit", 0);
	while ((ch = getopt(argc, argv, "Md:i:n:s:x:")) != -1) {
		switch (ch) {
		case 'M': variant = BP_NOMOUNT; break;
		case 'x':
			variant = BP_SKIP;
			bench_skip = optarg;
			break;
		case 'd': dir = optarg; break;
		case 's':
			script_path = 1;
			bench_launcher = optarg;
			break;
		case 'i': inbytes = bench_num("-i", optarg); break;
		case 'n': runs = bench_num("-n", optarg); break;
		default:
			fprintf(stderr, "usage: opty-benchunit [-n runs] "
			    "[-i inbytes] [-d dir] [-M | -s launcher | "
			    "-x property] -- "
			    "command [arg ...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		fatalx("no command");
	if (script_path && variant != BP_PARENT)
		fatalx("-M, -x and -s: one path at a time");
	pty_user();
	(void)setvbuf(stdout, NULL, _IOLBF, 0);
	memset(ibuf, 'a', sizeof(ibuf));
	if ((r = sd_bus_open_system(&bus)) < 0)
		fatalx("system bus: %s", strerror(-r));
	if ((r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER,
	    "Subscribe", NULL, NULL, "")) < 0)
		fatalx("Subscribe: %s", strerror(-r));
	/* The old script path's unit binds one too: the same properties. */
	pts_mount();
	for (i = 0; i < runs; i++)
		run_one((unsigned)i, dir, inbytes, argc, argv);
	pts_unmount();
	sd_bus_flush_close_unref(bus);
	return 0;
}
