/*
 * opty-unitrun.c: test-only tool, never installed.  Runs as root inside the
 * disposable test container and trusts its command line.  Starts ARGV as a
 * transient service whose stdin/stdout are the slave of a PTY allocated the
 * way the supervisor's parent allocates one (/dev/ptmx, TIOCGPTPEER, the
 * window size, the peer given to the unit's user and group tty, 0620),
 * writes the input to the master and copies what the master reads to
 * stdout, waits for the main process to exit, stops the unit, drains the
 * master to EIO (every slave closed: the unit's processes and PID 1's copy
 * are gone) and reports ExecMainCode/ExecMainStatus/Result on a last
 * stderr line.  -d gives the unit the directory itself as stderr; -D gives
 * it a socket carrying the directory, made by the supervisor's own
 * proto/dirsock.c, which is what the launcher takes.  -w sets the window
 * size (default 24x80).  -m socket gives the unit one end of a socketpair
 * as stdin and stdout instead (no terminal, as the seeds did); -m split
 * the PTY's slave as stdin and a socketpair as stdout, whose other end is
 * then the output read: both for the launcher's refusals.  -W holds the
 * input back until the unit's first output byte has been read, so that a
 * command can say it is ready (for ^C, which the terminal turns into
 * SIGINT for its foreground group only once there is one).
 *
 * opty-unitrun [-u user] [-s slice] [-d dir | -D dir] [-i input]
 *     [-W] [-m pty|socket|split] [-w ROWSxCOLS] [-t timeout_sec]
 *     [-p Name=value ...] -- ARGV...
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "proto/dirsock.h"

#include "proto/log.h"

#define SD_DEST		"org.freedesktop.systemd1"
#define SD_PATH		"/org/freedesktop/systemd1"
#define SD_MANAGER	"org.freedesktop.systemd1.Manager"
#define SD_UNIT		"org.freedesktop.systemd1.Unit"
#define SD_SERVICE	"org.freedesktop.systemd1.Service"
#define POLL_MS		20
#define MAX_PROPS	32
#define EXIT_TIMEOUT	124
#define WINSZ_MAX	4096

enum stdio_mode {
	MODE_PTY,	/* fd 0/1 the PTY's slave, as the supervisor does */
	MODE_SOCKET,	/* fd 0/1 one end of a socketpair: no terminal */
	MODE_SPLIT,	/* fd 0 the PTY's slave, fd 1 a socketpair's end */
};

struct opts {
	const char	*user;
	const char	*slice;
	const char	*dir;
	int		 dirsock;	/* -D: dir through proto/dirsock.c */
	const char	*input;
	int		 wait_out;	/* -W */
	enum stdio_mode	 mode;
	unsigned short	 rows, cols;
	unsigned long	 timeout;
	const char	*props[MAX_PROPS];
	size_t		 nprops;
	char		**argv;
};

/* Global so that fatal() can stop the unit before exiting. */
static struct {
	sd_bus		*bus;
	char		 unit[64];
	char		*path;
	int		 started;
	int		 out;		/* read until EOF or EIO */
	int		 in;		/* input written here */
	int		 eof;
	int		 held;		/* -W and no output yet */
	int		 sigfd;
	const char	*in_p;
	size_t		 inlen;
	uint64_t	 deadline;
} run = { .out = -1, .in = -1, .sigfd = -1 };

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: opty-unitrun [-u user] [-s slice] "
	    "[-d dir | -D dir] [-i input] [-W] [-m pty|socket|split] "
	    "[-w ROWSxCOLS] [-t timeout_sec] [-p Name=value ...] "
	    "-- ARGV...\n");
	exit(2);
}

static unsigned short
winsz_field(const char *s, char **end, const char *arg)
{
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, end, 10);
	if (errno != 0 || *end == s || v == 0 || v > WINSZ_MAX)
		fatalx("-w: bad size '%s' (ROWSxCOLS, each 1..%d)", arg,
		    WINSZ_MAX);
	return (unsigned short)v;
}

static void
parse_winsz(const char *arg, struct opts *o)
{
	char	*end;

	o->rows = winsz_field(arg, &end, arg);
	if (*end != 'x')
		fatalx("-w: bad size '%s' (ROWSxCOLS)", arg);
	o->cols = winsz_field(end + 1, &end, arg);
	if (*end != '\0')
		fatalx("-w: bad size '%s' (ROWSxCOLS)", arg);
}

static void
parse_mode(const char *arg, struct opts *o)
{
	if (strcmp(arg, "pty") == 0)
		o->mode = MODE_PTY;
	else if (strcmp(arg, "socket") == 0)
		o->mode = MODE_SOCKET;
	else if (strcmp(arg, "split") == 0)
		o->mode = MODE_SPLIT;
	else
		fatalx("-m: expected pty, socket or split, got '%s'", arg);
}

static void
parse_opts(int argc, char *argv[], struct opts *o)
{
	char		*end;
	int		 ch;

	o->user = "root";
	o->slice = "system.slice";
	o->timeout = 30;
	o->mode = MODE_PTY;
	o->rows = 24;
	o->cols = 80;
	while ((ch = getopt(argc, argv, "u:s:d:D:i:Wm:w:t:p:")) != -1) {
		switch (ch) {
		case 'u':
			o->user = optarg;
			break;
		case 's':
			o->slice = optarg;
			break;
		case 'd':
		case 'D':
			o->dir = optarg;
			o->dirsock = ch == 'D';
			break;
		case 'i':
			o->input = optarg;
			break;
		case 'W':
			o->wait_out = 1;
			break;
		case 'm':
			parse_mode(optarg, o);
			break;
		case 'w':
			parse_winsz(optarg, o);
			break;
		case 't':
			errno = 0;
			o->timeout = strtoul(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    o->timeout == 0 || o->timeout > 86400)
				fatalx("-t: bad timeout '%s'", optarg);
			break;
		case 'p':
			if (o->nprops == MAX_PROPS)
				fatalx("-p: more than %d properties", MAX_PROPS);
			end = strchr(optarg, '=');
			if (end == NULL || end == optarg)
				fatalx("-p: expected Name=value, got '%s'",
				    optarg);
			o->props[o->nprops++] = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	o->argv = argv + optind;
	if (o->argv[0][0] != '/')
		fatalx("ARGV[0] must be an absolute path: %s", o->argv[0]);
}

static uint64_t
now_usec(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		fatal("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void
make_unit_name(void)
{
	unsigned char	 r[8];
	char		*p;
	size_t		 i;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		fatal("getrandom");
	p = run.unit + snprintf(run.unit, sizeof(run.unit), "opty-unitrun-");
	for (i = 0; i < sizeof(r); i++, p += 2)
		snprintf(p, 3, "%02x", r[i]);
	snprintf(p, sizeof(run.unit) - (size_t)(p - run.unit), ".service");
	if (sd_bus_path_encode(SD_PATH "/unit", run.unit, &run.path) < 0)
		fatalx("cannot encode the unit's object path");
}

static void __attribute__((noreturn))
bus_fatal(const char *what, const sd_bus_error *e, int r)
{
	if (e != NULL && sd_bus_error_is_set(e))
		fatalx("%s: %s", what, e->message);
	fatalx("%s: %s", what, strerror(-r));
}

static int
append_exec_start(sd_bus_message *m, char **argv)
{
	int	 r;

	if ((r = sd_bus_message_open_container(m, 'r', "sv")) < 0 ||
	    (r = sd_bus_message_append(m, "s", "ExecStart")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'v', "a(sasb)")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'a', "(sasb)")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'r', "sasb")) < 0 ||
	    (r = sd_bus_message_append(m, "s", argv[0])) < 0 ||
	    (r = sd_bus_message_append_strv(m, argv)) < 0 ||
	    (r = sd_bus_message_append(m, "b", 0)) < 0 ||
	    (r = sd_bus_message_close_container(m)) < 0 ||
	    (r = sd_bus_message_close_container(m)) < 0 ||
	    (r = sd_bus_message_close_container(m)) < 0)
		return r;
	return sd_bus_message_close_container(m);
}

/* -p Name=value: a string property; systemd rejects a wrong type. */
static int
append_extra(sd_bus_message *m, const char *prop)
{
	const char	*eq = strchr(prop, '=');
	char		 name[128];

	if ((size_t)(eq - prop) >= sizeof(name))
		fatalx("-p: property name too long: %s", prop);
	memcpy(name, prop, eq - prop);
	name[eq - prop] = '\0';
	return sd_bus_message_append(m, "(sv)", name, "s", eq + 1);
}

static int
append_props(sd_bus_message *m, const struct opts *o, int infd, int outfd,
    int errfd)
{
	size_t	 i;
	int	 r;

	if ((r = sd_bus_message_open_container(m, 'a', "(sv)")) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "Type", "s", "exec")) < 0 ||
	    (r = append_exec_start(m, o->argv)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)(sv)(sv)",
	    "User", "s", o->user, "Group", "s", o->user,
	    "Slice", "s", o->slice)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)(sv)(sv)",
	    "RemainAfterExit", "b", 1,
	    "CollectMode", "s", "inactive-or-failed",
	    /* keep the unit loaded until we have read its results */
	    "AddRef", "b", 1)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)(sv)(sv)",
	    "StandardInputFileDescriptor", "h", infd,
	    "StandardOutputFileDescriptor", "h", outfd,
	    "StandardErrorFileDescriptor", "h", errfd)) < 0)
		return r;
	for (i = 0; i < o->nprops; i++)
		if ((r = append_extra(m, o->props[i])) < 0)
			return r;
	return sd_bus_message_close_container(m);
}

/* The directory replaced by a socket that carries it (-D). */
static int
dirsock_swap(int dirfd)
{
	int	ds;

	ds = dirsock_make(dirfd);
	close(dirfd);
	return ds;
}

/*
 * The PTY as the supervisor's parent makes it: the master never becomes
 * anybody's controlling terminal, the slave is opened from the master
 * (TIOCGPTPEER: no path lookup in /dev/pts), has its window size before
 * the unit exists, and belongs to the unit's user and group tty, 0620,
 * as a login terminal does.  An unknown user keeps root's: systemd
 * refuses the unit before anything opens it.  Only the master is
 * non-blocking; the slave is another open file description.
 */
static int
make_pty(const struct opts *o, int *master)
{
	static char	 pwbuf[16384], grbuf[16384];
	struct winsize	 ws;
	struct passwd	 pwd, *pw = NULL;
	struct group	 grp, *gr = NULL;
	int		 m, peer;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		fatal("posix_openpt");
	if (unlockpt(m) == -1)
		fatal("unlockpt");
	if ((peer = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC)) ==
	    -1)
		fatal("TIOCGPTPEER");
	memset(&ws, 0, sizeof(ws));
	ws.ws_row = o->rows;
	ws.ws_col = o->cols;
	if (ioctl(m, TIOCSWINSZ, &ws) == -1)
		fatal("TIOCSWINSZ");
	if (getgrnam_r("tty", &grp, grbuf, sizeof(grbuf), &gr) != 0 ||
	    gr == NULL)
		fatalx("no group tty");
	if (getpwnam_r(o->user, &pwd, pwbuf, sizeof(pwbuf), &pw) == 0 &&
	    pw != NULL && fchown(peer, pw->pw_uid, gr->gr_gid) == -1)
		fatal("fchown the pty's slave");
	if (fchmod(peer, 0620) == -1)
		fatal("fchmod the pty's slave");
	if (fcntl(m, F_SETFL, O_NONBLOCK) == -1)
		fatal("fcntl");
	*master = m;
	return peer;
}

/* Only our end is non-blocking: the unit's must stay blocking. */
static int
make_socket(int *ours)
{
	int	sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		fatal("socketpair");
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) == -1)
		fatal("fcntl");
	*ours = sv[0];
	return sv[1];
}

/* The unit's fd 0 and fd 1 (maybe one), ours in run.in and run.out. */
static void
make_stdio(const struct opts *o, int *infd, int *outfd)
{
	switch (o->mode) {
	case MODE_PTY:
		*infd = *outfd = make_pty(o, &run.out);
		run.in = run.out;
		break;
	case MODE_SOCKET:
		*infd = *outfd = make_socket(&run.out);
		run.in = run.out;
		break;
	case MODE_SPLIT:
	default:
		*infd = make_pty(o, &run.in);
		*outfd = make_socket(&run.out);
		break;
	}
}

static void
start_unit(const struct opts *o)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	sd_bus_message	*m = NULL, *reply = NULL;
	int		 infd, outfd, dirfd = -1, r;

	make_stdio(o, &infd, &outfd);
	if (o->dir != NULL &&
	    (dirfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("%s", o->dir);
	if (o->dirsock && (dirfd = dirsock_swap(dirfd)) == -1)
		fatal("directory socket");

	if ((r = sd_bus_message_new_method_call(run.bus, &m, SD_DEST, SD_PATH,
	    SD_MANAGER, "StartTransientUnit")) < 0 ||
	    (r = sd_bus_message_append(m, "ss", run.unit, "fail")) < 0 ||
	    (r = append_props(m, o, infd, outfd,
	    dirfd == -1 ? outfd : dirfd)) < 0 ||
	    (r = sd_bus_message_append(m, "a(sa(sv))", 0)) < 0)
		bus_fatal("building StartTransientUnit", NULL, r);
	r = sd_bus_call(run.bus, m, 0, &e, &reply);
	/*
	 * sd-bus holds duplicates of the appended descriptors until the
	 * message is freed: drop them now or the output never ends.
	 */
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	close(infd);
	if (outfd != infd)
		close(outfd);
	if (dirfd != -1)
		close(dirfd);
	if (r < 0)
		bus_fatal("StartTransientUnit", &e, r);
	run.started = 1;
	sd_bus_error_free(&e);
}

static char *
unit_string(const char *iface, const char *prop)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	char		*s = NULL;
	int		 r;

	r = sd_bus_get_property_string(run.bus, SD_DEST, run.path, iface,
	    prop, &e, &s);
	if (r < 0)
		bus_fatal(prop, &e, r);
	return s;
}

static int32_t
service_int(const char *prop)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int32_t		 v = 0;
	int		 r;

	r = sd_bus_get_property_trivial(run.bus, SD_DEST, run.path,
	    SD_SERVICE, prop, &e, 'i', &v);
	if (r < 0)
		bus_fatal(prop, &e, r);
	return v;
}

static uint32_t
unit_job(void)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	sd_bus_message	*reply = NULL;
	const char	*jpath;
	uint32_t	 id = 0;
	int		 r;

	r = sd_bus_get_property(run.bus, SD_DEST, run.path, SD_UNIT, "Job",
	    &e, &reply, "(uo)");
	if (r < 0)
		bus_fatal("Job", &e, r);
	if ((r = sd_bus_message_read(reply, "(uo)", &id, &jpath)) < 0)
		bus_fatal("reading Job", NULL, r);
	sd_bus_message_unref(reply);
	return id;
}

/*
 * The main process is gone once the unit is failed, or active/exited
 * (RemainAfterExit), or inactive with its start job finished.  Before the
 * job runs the unit is inactive too, hence the job check, which must come
 * first: a job seen finished before an inactive state means the unit ran.
 */
static int
main_exited(void)
{
	char		*active, *sub;
	uint32_t	 job;
	int		 done;

	job = unit_job();
	active = unit_string(SD_UNIT, "ActiveState");
	sub = unit_string(SD_UNIT, "SubState");
	done = strcmp(active, "failed") == 0 || strcmp(sub, "exited") == 0 ||
	    (strcmp(active, "inactive") == 0 && job == 0);
	free(active);
	free(sub);
	return done;
}

static int
unit_gone(void)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 r, gone;

	r = sd_bus_call_method(run.bus, SD_DEST, SD_PATH, SD_MANAGER,
	    "GetUnit", &e, NULL, "s", run.unit);
	gone = r < 0 &&
	    sd_bus_error_has_name(&e, "org.freedesktop.systemd1.NoSuchUnit");
	if (r < 0 && !gone)
		bus_fatal("GetUnit", &e, r);
	sd_bus_error_free(&e);
	return gone;
}

static void
manager_call(const char *method, const char *mode)
{
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 r;

	if (mode != NULL)
		r = sd_bus_call_method(run.bus, SD_DEST, SD_PATH, SD_MANAGER,
		    method, &e, NULL, "ss", run.unit, mode);
	else
		r = sd_bus_call_method(run.bus, SD_DEST, SD_PATH, SD_MANAGER,
		    method, &e, NULL, "s", run.unit);
	if (r < 0 && !sd_bus_error_has_name(&e,
	    "org.freedesktop.systemd1.NoSuchUnit"))
		log_warnx("%s %s: %s", method, run.unit,
		    sd_bus_error_is_set(&e) ? e.message : strerror(-r));
	sd_bus_error_free(&e);
}

/*
 * systemd keeps its copy of the stdio descriptors while the unit is loaded and not
 * inactive: stop an active unit, reset a failed one, drop our reference
 * so that CollectMode= lets it go.
 */
static void
finish_unit(void)
{
	char	*active;

	active = unit_string(SD_UNIT, "ActiveState");
	if (strcmp(active, "failed") == 0)
		manager_call("ResetFailedUnit", NULL);
	else if (strcmp(active, "inactive") != 0)
		manager_call("StopUnit", "replace");
	free(active);
	manager_call("UnrefUnit", NULL);
}

/* fatal() hook: never leave a running unit behind. */
static void
stop_on_exit(void)
{
	if (run.bus == NULL || !run.started)
		return;
	manager_call("StopUnit", "replace");
	manager_call("ResetFailedUnit", NULL);
	manager_call("UnrefUnit", NULL);
}

static void
write_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("write to stdout");
		}
		p += n;
		len -= n;
	}
}

/*
 * The end of the output: EOF on a socket; EIO on a PTY master once no
 * slave is open any more (what was written before is read first).
 */
static void
out_read(void)
{
	char	 buf[65536];
	ssize_t	 n;

	n = read(run.out, buf, sizeof(buf));
	if (n == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		if (errno != EIO)
			fatal("read the unit's output");
		n = 0;
	}
	if (n == 0) {
		if (run.in == run.out)
			run.in = -1;
		close(run.out);
		run.out = -1;
		run.eof = 1;
		return;
	}
	run.held = 0;
	write_all(STDOUT_FILENO, buf, n);
}

static void
in_write(void)
{
	ssize_t	 n;

	n = write(run.in, run.in_p, run.inlen);
	if (n == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		log_warn("input dropped");
		run.inlen = 0;
		return;
	}
	run.in_p += n;
	run.inlen -= n;
}

static void
on_signal(void)
{
	struct signalfd_siginfo	 si;

	if (read(run.sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	log_warnx("signal %u: stopping %s", si.ssi_signo, run.unit);
	stop_on_exit();
	exit(128 + (int)si.ssi_signo);
}

/* One round of at most POLL_MS: move the bytes, handle signals. */
static void
pump(void)
{
	struct pollfd	 pfd[3];
	int		 wr;

	wr = run.in != -1 && run.inlen > 0 && !run.held;
	pfd[0].fd = run.sigfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = run.out;
	pfd[1].events = POLLIN | (wr && run.in == run.out ? POLLOUT : 0);
	/* A negative fd is ignored by poll(2). */
	pfd[2].fd = wr && run.in != run.out ? run.in : -1;
	pfd[2].events = POLLOUT;
	if (poll(pfd, 3, POLL_MS) == -1) {
		if (errno == EINTR)
			return;
		fatal("poll");
	}
	if (pfd[0].revents & POLLIN)
		on_signal();
	if (run.out != -1 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
		out_read();
	if (run.in != -1 && ((pfd[1].revents | pfd[2].revents) & POLLOUT))
		in_write();
}

/* Like one pump(), but past the -t deadline: stop, confirm, exit 124. */
static void
step(void)
{
	uint64_t	 limit;

	if (now_usec() < run.deadline) {
		pump();
		return;
	}
	log_warnx("timeout: stopping %s", run.unit);
	stop_on_exit();
	limit = now_usec() + 10 * 1000000;
	while (!unit_gone() && now_usec() < limit)
		pump();
	exit(EXIT_TIMEOUT);
}

static void
setup_signals(void)
{
	sigset_t	 set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1)
		fatal("sigprocmask");
	if ((run.sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) == -1)
		fatal("signalfd");
	/* A closed stdout is a write error, not a silent death. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		fatal("signal");
}

int
main(int argc, char *argv[])
{
	struct opts	 o;
	char		*result;
	int32_t		 code, status;
	int		 r;

	log_init("opty-unitrun", 0);
	memset(&o, 0, sizeof(o));
	parse_opts(argc, argv, &o);
	setup_signals();
	run.deadline = now_usec() + (uint64_t)o.timeout * 1000000;
	if (o.input != NULL) {
		run.in_p = o.input;
		run.inlen = strlen(o.input);
		run.held = o.wait_out;
	}
	make_unit_name();
	if ((r = sd_bus_open_system(&run.bus)) < 0)
		bus_fatal("connecting to the system bus", NULL, r);
	log_setexit(stop_on_exit);
	start_unit(&o);

	while (!main_exited())
		step();
	code = service_int("ExecMainCode");
	status = service_int("ExecMainStatus");
	result = unit_string(SD_SERVICE, "Result");
	finish_unit();
	while (!unit_gone())
		step();
	while (!run.eof)
		step();

	if (run.in != -1 && run.in != run.out)
		close(run.in);
	dprintf(STDERR_FILENO, "opty-unitrun: unit=%s code=%d status=%d "
	    "result=%s\n", run.unit, code, status, result);
	free(result);
	free(run.path);
	sd_bus_flush_close_unref(run.bus);
	return 0;
}
