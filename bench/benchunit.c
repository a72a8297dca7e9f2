/*
 * benchunit.c: opty-benchunit, the bare-D-Bus reference path of the
 * benchmarks (never installed).  Runs as root inside the disposable test
 * systemd and trusts its command line.  It sends PID 1 exactly the
 * StartTransientUnit call the supervisor's parent sends (dbusd/props.c:
 * same properties but PrivatePIDs=, which only the parent asks PID 1
 * about, same launcher, same script(1) PTY, the stream and
 * directory passed as descriptors) and reads the stream itself, so the
 * difference to opty-benchc is what the supervisor adds: admission,
 * the parent-relay hops and the relaying.
 *
 *	opty-benchunit [-n runs] [-i inbytes] [-d dir] -- command [arg ...]
 *
 * Per run, times in microseconds from the D-Bus call:
 *	U idx first last exit eof bytes
 * exit: the main process is seen gone (a PropertiesChanged hint, then
 * ActiveState/SubState asked, as the parent does); eof: after that the
 * unit is stopped (systemd holds the stream until then, RemainAfterExit)
 * and the stream reaches EOF, which is when the supervisor can send its
 * exit frame.  -i writes that many bytes to the stream once the first
 * output byte came.
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "bench/bench.h"
#include "dbusd/dbusd.h"
#include "dbusd/props.h"
#include "proto/config.h"
#include "proto/dirsock.h"
#include "proto/log.h"

#define SD_DEST		"org.freedesktop.systemd1"
#define SD_PATH		"/org/freedesktop/systemd1"
#define SD_MANAGER	"org.freedesktop.systemd1.Manager"
#define SD_UNIT		"org.freedesktop.systemd1.Unit"

struct urun {
	char		 name[64];
	char		*path;
	int		 stream;
	int		 check;		/* a hint came: ask the state */
	int		 exited, stopped, eof;
	uint64_t	 t0, tfirst, tlast, texit, teof, bytes;
	uint64_t	 in_left;
};

static sd_bus	*bus;
static uint8_t	 buf[256 * 1024];
static uint8_t	 ibuf[32 * 1024];

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

/* RemainAfterExit=yes: active/exited or failed once the command ended. */
static void
check_state(struct urun *u)
{
	char	*active, *sub;

	u->check = 0;
	active = unit_prop(u, "ActiveState");
	sub = unit_prop(u, "SubState");
	if (strcmp(active, "failed") == 0 || strcmp(sub, "exited") == 0 ||
	    strcmp(active, "inactive") == 0) {
		u->exited = 1;
		u->texit = bench_now_us();
		manager_call(u, "StopUnit", 1);
		u->stopped = 1;
	}
	free(active);
	free(sub);
}

static void
stream_io(struct urun *u, short revents)
{
	ssize_t	n;

	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		n = recv(u->stream, buf, sizeof(buf), MSG_DONTWAIT);
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
		n = send(u->stream, ibuf, u->in_left < sizeof(ibuf) ?
		    (size_t)u->in_left : sizeof(ibuf),
		    MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0)
			u->in_left -= (uint64_t)n;
		else if (n == -1 && errno != EAGAIN && errno != EINTR)
			u->in_left = 0;
	}
}

static void
pump(struct urun *u)
{
	struct pollfd	pfd[2];
	int		r;

	pfd[0].fd = u->eof ? -1 : u->stream;
	pfd[0].events = POLLIN | (u->in_left > 0 && u->tfirst ? POLLOUT : 0);
	pfd[1].fd = sd_bus_get_fd(bus);
	pfd[1].events = (short)sd_bus_get_events(bus);
	if (poll(pfd, 2, 100) == -1 && errno != EINTR)
		fatal("poll");
	if (pfd[0].revents)
		stream_io(u, pfd[0].revents);
	while ((r = sd_bus_process(bus, NULL)) > 0)
		;
	if (r < 0)
		fatalx("sd_bus_process: %s", strerror(-r));
}

static void
start(struct urun *u, const char *dir, int argc, char **argv)
{
	struct props_in	 in;
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 sv[2], dirfd, ds, r;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		fatal("socketpair");
	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("%s", dir);
	/* The launcher takes its directory as the supervisor sends it. */
	ds = dirsock_make(dirfd);
	close(dirfd);
	if ((dirfd = ds) == -1)
		fatal("directory socket");
	u->stream = sv[0];
	memset(&in, 0, sizeof(in));
	in.name = u->name;
	in.tty_fd = sv[1];
	in.dirsock_fd = dirfd;
	in.argc = (uint32_t)argc;
	in.argv = (const char *const *)argv;
	if ((r = props_start_message(bus, &in, &m)) < 0)
		fatalx("StartTransientUnit message: %s", strerror(-r));
	u->t0 = bench_now_us();
	r = sd_bus_call(bus, m, 0, &e, NULL);
	/* The message holds duplicates of both descriptors. */
	sd_bus_message_unref(m);
	close(sv[1]);
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

	if (!u->stopped)
		manager_call(u, "StopUnit", 1);
	for (i = 0; i < 1000 && !unit_gone(u); i++) {
		if (i % 50 == 49)
			manager_call(u, "ResetFailedUnit", 0);
		usleep(10000);
	}
	close(u->stream);
	free(u->path);
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
	while ((ch = getopt(argc, argv, "d:i:n:")) != -1) {
		switch (ch) {
		case 'd': dir = optarg; break;
		case 'i': inbytes = bench_num("-i", optarg); break;
		case 'n': runs = bench_num("-n", optarg); break;
		default:
			fprintf(stderr, "usage: opty-benchunit [-n runs] "
			    "[-i inbytes] [-d dir] -- command [arg ...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		fatalx("no command");
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(ibuf, 'a', sizeof(ibuf));
	if ((r = sd_bus_open_system(&bus)) < 0)
		fatalx("system bus: %s", strerror(-r));
	if ((r = sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MANAGER,
	    "Subscribe", NULL, NULL, "")) < 0)
		fatalx("Subscribe: %s", strerror(-r));
	for (i = 0; i < runs; i++)
		run_one((unsigned)i, dir, inbytes, argc, argv);
	sd_bus_flush_close_unref(bus);
	return 0;
}
