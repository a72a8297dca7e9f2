/*
 * opty-nodesim.c: test and demo tool (never installed) that does what
 * the Node service does: connects to the supervisor socket, opens the
 * working directory, runs opencode-pty-client with exactly fds 3 and 4,
 * then speaks the frame protocol: input from -i, output to stdout, and
 * a last line on stderr with the exit or error frame.  Runs as the
 * session user, normally as the MainPID of opencode-v2.service.
 *
 *	opty-nodesim [-n runs] [-q] [-t sec] [-i input] [-d dir]
 *	    [-c client] [-w file] [-r file] [-F forgery] [-W rowsxcols]
 *	    [-R [^]resize] [-S [^]signal] [-X [^]frame] [-D msec] [-O]
 *	    -- command [arg ...]
 *
 * -w: wait for a file to exist after connecting, before the start frame.
 * -r: "replaced client": after connecting, fork; the parent exits after
 *     a second (so the service can be restarted) and the child goes on
 *     once the file exists.
 * -P: open that many connections first (all from this process), then run
 *     one session on each in parallel children; each prints its own line.
 * -s: slow reader: read at most that many bytes per second.
 * -F: a FORGED client: instead of running opencode-pty-client it sends
 *     its own start frame with a chosen defect: nofd, twofd, notdir,
 *     mismatch, early-input, garbage (garbage bytes after the start).
 * -W: pass -s ROWSxCOLS to opencode-pty-client (its own RESIZE frame).
 * -R, -S: extra RESIZE (6) / SIGNAL (7) frames, written by this tool on
 *     the connection, in command-line order, any number up to 16.  With
 *     a leading '^' before the start frame (before the client helper
 *     runs, so the directory descriptor then no longer rides on the
 *     stream's first byte), otherwise after it.  The value is sent as
 *     given, unchecked, so invalid frames can be forged:
 *       -R ROWSxCOLS   rows and cols 0..65535, big-endian u16 each
 *       -S SIGNO       one byte 0..255
 *       -R hex:HEX, -S hex:HEX   any payload of 0..16 bytes, the header
 *                      length being the payload's (over the cap too).
 * -X: the same for a frame of any type byte, frames of another kind than
 *     RESIZE and SIGNAL (a second start, a relay-to-client type):
 *       -X [^]TYPE:hex:HEX   TYPE 0..255, then a payload as above
 *       -X [^]TYPE:len:N     a header alone that claims N payload bytes
 * -D: wait that many milliseconds after the start before the frames that
 *     follow it (default 0).
 * -O: send the frames that follow the start, and the -i input, only once
 *     the first output frame arrived (the command is running); -D then
 *     counts from there.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "regress/framepeer.h"

#define CLIENT_PATH	OPTY_LIBEXECDIR "/opencode-pty-client"
#define MAX_EXTRA	16	/* -R and -S frames */
#define EXTRA_MAX_PAYLOAD	16

/* One forged RESIZE or SIGNAL frame of -R / -S. */
struct extra {
	uint8_t		 frame[FRAME_HDR_LEN + EXTRA_MAX_PAYLOAD];
	size_t		 len;
	int		 pre;		/* before the start frame */
};

struct nodesim {
	const char	*dir;
	const char	*client;
	const char	*input;
	const char	*runtime;
	const char	*waitfile;
	const char	*replfile;
	const char	*forgery;
	const char	*winsize;	/* -W, for the client's -s */
	struct extra	 extra[MAX_EXTRA];
	int		 nextra;
	int		 delay_ms;
	int		 after_output;
	int		 quiet;
	int		 parallel;
	int		 slow;
	int		 runs;
	char		**argv;
	int		 argc;
};

static void __attribute__((noreturn))
die(const char *what)
{
	fprintf(stderr, "opty-nodesim: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* A non-negative decimal option value; anything else is a usage error. */
static int
num(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > INT_MAX) {
		fprintf(stderr, "opty-nodesim: bad number '%s'\n", s);
		exit(2);
	}
	return (int)v;
}

static void __attribute__((noreturn))
bad_extra(const char *s)
{
	fprintf(stderr, "opty-nodesim: bad -R/-S value '%s'\n", s);
	exit(2);
}

/* A decimal 0..max and where it ended; no sign, at least one digit. */
static const char *
extra_num(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long	v = 0;
	const char	*p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return NULL;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t
extra_hex(const char *s, uint8_t *out)
{
	size_t	n = 0;
	int	hi, lo;

	if (strlen(s) % 2 != 0 || strlen(s) / 2 > EXTRA_MAX_PAYLOAD)
		bad_extra(s);
	for (; *s != '\0'; s += 2) {
		if ((hi = hexval(s[0])) == -1 || (lo = hexval(s[1])) == -1)
			bad_extra(s);
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	return n;
}

/* -R (type 6) or -S (type 7): [^](ROWSxCOLS | SIGNO | hex:HEX). */
static struct extra *
add_extra(struct nodesim *ns, uint8_t type, const char *arg)
{
	struct extra	*x;
	uint8_t		*pl;
	unsigned long	 a, b;
	const char	*s = arg, *p;
	size_t		 n;

	if (ns->nextra >= MAX_EXTRA) {
		fprintf(stderr, "opty-nodesim: at most %d -R/-S frames\n",
		    MAX_EXTRA);
		exit(2);
	}
	x = &ns->extra[ns->nextra++];
	pl = x->frame + FRAME_HDR_LEN;
	if ((x->pre = (*s == '^')))
		s++;
	if (strncmp(s, "hex:", 4) == 0)
		n = extra_hex(s + 4, pl);
	else if (type == FRAME_RESIZE) {
		if ((p = extra_num(s, 0xffff, &a)) == NULL || *p != 'x' ||
		    (p = extra_num(p + 1, 0xffff, &b)) == NULL || *p != '\0')
			bad_extra(arg);
		pl[0] = (uint8_t)(a >> 8);
		pl[1] = (uint8_t)a;
		pl[2] = (uint8_t)(b >> 8);
		pl[3] = (uint8_t)b;
		n = 4;
	} else {
		if ((p = extra_num(s, 255, &a)) == NULL || *p != '\0')
			bad_extra(arg);
		pl[0] = (uint8_t)a;
		n = 1;
	}
	frame_hdr_encode(x->frame, type, (uint32_t)n);
	x->len = FRAME_HDR_LEN + n;
	return x;
}

/* -X [^]TYPE:hex:HEX or [^]TYPE:len:N. */
static void
add_raw(struct nodesim *ns, const char *arg)
{
	struct extra	*x;
	unsigned long	 type, n;
	const char	*p = arg + (*arg == '^');
	char		 buf[64];

	if ((p = extra_num(p, 255, &type)) == NULL || *p++ != ':')
		bad_extra(arg);
	if (strncmp(p, "len:", 4) == 0) {
		if ((p = extra_num(p + 4, UINT32_MAX, &n)) == NULL ||
		    *p != '\0')
			bad_extra(arg);
		x = add_extra(ns, (uint8_t)type, *arg == '^' ? "^hex:" :
		    "hex:");
		frame_hdr_encode(x->frame, (uint8_t)type, (uint32_t)n);
		return;
	}
	if (strncmp(p, "hex:", 4) != 0 ||
	    snprintf(buf, sizeof(buf), "%s%s", *arg == '^' ? "^" : "", p) >=
	    (int)sizeof(buf))
		bad_extra(arg);
	(void)add_extra(ns, (uint8_t)type, buf);
}

/* Writes the -R/-S frames of one side of the start frame, in order. */
static void
send_extra(const struct nodesim *ns, int conn, int pre)
{
	int	i;

	for (i = 0; i < ns->nextra; i++) {
		if (ns->extra[i].pre != pre)
			continue;
		if (write(conn, ns->extra[i].frame, ns->extra[i].len) !=
		    (ssize_t)ns->extra[i].len)
			die("write -R/-S frame");
	}
}

static void	sim_send_input(int, const char *);

static void
send_post(const struct nodesim *ns, int conn)
{
	if (ns->delay_ms > 0)
		usleep((useconds_t)ns->delay_ms * 1000);
	send_extra(ns, conn, 0);
	if (ns->after_output && ns->input != NULL)
		sim_send_input(conn, ns->input);
}

static int
sim_connect(void)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, OPTY_SOCKET_PATH, sizeof(OPTY_SOCKET_PATH));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		die("connect");
	return fd;
}

static void
sim_wait_file(const char *path)
{
	struct stat	 st;

	while (stat(path, &st) == -1)
		usleep(10000);
}

/* The Node service's part: fds 3 and 4 and nothing else. */
static void
sim_spawn_client(const struct nodesim *ns, int conn, int dirfd)
{
	char	*av[START_MAX_ARGS + 7];
	int	 n = 0, i, status;
	pid_t	 pid;

	av[n++] = "opencode-pty-client";
	if (ns->runtime != NULL) {
		av[n++] = "-t";
		av[n++] = (char *)(uintptr_t)ns->runtime;
	}
	if (ns->winsize != NULL) {
		av[n++] = "-s";
		av[n++] = (char *)(uintptr_t)ns->winsize;
	}
	av[n++] = "--";
	for (i = 0; i < ns->argc && n < START_MAX_ARGS + 4; i++)
		av[n++] = ns->argv[i];
	av[n] = NULL;
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		/* Above 4 first: dup2(3, 3) would keep FD_CLOEXEC. */
		if ((conn = fcntl(conn, F_DUPFD_CLOEXEC, 10)) == -1 ||
		    (dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 10)) == -1 ||
		    dup2(conn, 3) == -1 || dup2(dirfd, 4) == -1)
			_exit(126);
		close_range(5, ~0U, 0);
		execv(ns->client, av);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) == -1)
		die("waitpid");
	/* The relay may have answered (and closed) before the helper was
	 * done writing: like Node, read what the socket says anyway. */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "opty-nodesim: note: client helper exited "
		    "with status 0x%x\n", status);
}

static size_t
forged_frame(const struct nodesim *ns, int dirfd, uint8_t *buf, size_t len)
{
	struct start_req	 sr;
	struct stat		 st;
	int			 i, n;

	if (fstat(dirfd, &st) == -1)
		die("fstat");
	memset(&sr, 0, sizeof(sr));
	sr.dev = st.st_dev;
	sr.ino = st.st_ino;
	if (strcmp(ns->forgery, "mismatch") == 0)
		sr.ino++;
	sr.argc = (uint16_t)ns->argc;
	for (i = 0; i < ns->argc; i++) {
		sr.argv[i] = (const uint8_t *)ns->argv[i];
		sr.arglen[i] = (uint16_t)strlen(ns->argv[i]);
	}
	if ((n = start_encode(&sr, buf + FRAME_HDR_LEN,
	    len - FRAME_HDR_LEN)) < 0) {
		fprintf(stderr, "opty-nodesim: start_encode: %s\n",
		    frame_strerror(n));
		exit(2);
	}
	frame_hdr_encode(buf, FRAME_START, (uint32_t)n);
	return FRAME_HDR_LEN + (size_t)n;
}

/* Sends buf with the descriptors attached, the way a client must not. */
static void
forged_sendfds(int conn, const uint8_t *buf, size_t len, const int *fds,
    int nfds)
{
	struct iovec	 iov = { (void *)(uintptr_t)buf, len };
	struct msghdr	 msg;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(2 * sizeof(int))];
	}		 cm;
	struct cmsghdr	*c;

	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	if (sendmsg(conn, &msg, MSG_NOSIGNAL) != (ssize_t)len)
		die("sendmsg");
}

static void
sim_forge(const struct nodesim *ns, int conn, int dirfd)
{
	static uint8_t	 buf[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD];
	const char	 junk[] = "GARBAGE!GARBAGE!";
	int		 fds[2] = { dirfd, dirfd };
	size_t		 len;

	len = forged_frame(ns, dirfd, buf, sizeof(buf));
	if (strcmp(ns->forgery, "nofd") == 0)
		forged_sendfds(conn, buf, len, NULL, 0);
	else if (strcmp(ns->forgery, "twofd") == 0)
		forged_sendfds(conn, buf, len, fds, 2);
	else if (strcmp(ns->forgery, "notdir") == 0) {
		if ((fds[0] = open("/etc/hostname", O_RDONLY | O_CLOEXEC)) ==
		    -1)
			die("/etc/hostname");
		forged_sendfds(conn, buf, len, fds, 1);
	} else if (strcmp(ns->forgery, "mismatch") == 0)
		forged_sendfds(conn, buf, len, fds, 1);
	else if (strcmp(ns->forgery, "early-input") == 0) {
		frame_hdr_encode(buf, FRAME_INPUT, 2);
		memcpy(buf + FRAME_HDR_LEN, "hi", 2);
		forged_sendfds(conn, buf, FRAME_HDR_LEN + 2, fds, 1);
	} else if (strcmp(ns->forgery, "garbage") == 0) {
		forged_sendfds(conn, buf, len, fds, 1);
		sleep(1);
		if (write(conn, junk, sizeof(junk)) == -1)
			die("write");
	} else {
		fprintf(stderr, "opty-nodesim: unknown forgery %s\n",
		    ns->forgery);
		exit(2);
	}
}

static void
sim_send_input(int conn, const char *input)
{
	uint8_t	 hdr[FRAME_HDR_LEN];
	size_t	 len = strlen(input);

	if (len > FRAME_MAX_INPUT) {
		fprintf(stderr, "opty-nodesim: input too long\n");
		exit(2);
	}
	frame_hdr_encode(hdr, FRAME_INPUT, (uint32_t)len);
	if (write(conn, hdr, sizeof(hdr)) != sizeof(hdr) ||
	    write(conn, input, len) != (ssize_t)len)
		die("write input");
}

/* Returns 0 after an exit frame, 3 after an error frame, 4 on EOF. */
static int
sim_frame(const struct nodesim *ns, struct frame_reader *fr,
    uint64_t *bytes)
{
	struct exit_info	 ex;
	struct error_info	 er;

	switch (fr->hdr.type) {
	case FRAME_OUTPUT:
		*bytes += fr->hdr.len;
		if (!ns->quiet && fwrite(fr->payload, 1, fr->hdr.len,
		    stdout) != fr->hdr.len)
			die("stdout");
		return -1;
	case FRAME_EXIT:
		if (exit_decode(fr->payload, fr->hdr.len, &ex) != 0)
			break;
		(void)fflush(stdout);
		fprintf(stderr, "opty-nodesim: exit code=%u status=%u "
		    "result=%s bytes=%llu\n", ex.code, ex.status, ex.result,
		    (unsigned long long)*bytes);
		return 0;
	case FRAME_ERROR:
		if (error_decode(fr->payload, fr->hdr.len, &er) != 0)
			break;
		(void)fflush(stdout);
		fprintf(stderr, "opty-nodesim: error code=%u text=%s\n",
		    er.code, er.text);
		return 3;
	}
	fprintf(stderr, "opty-nodesim: unexpected frame type %u\n",
	    fr->hdr.type);
	return 4;
}

static int
sim_read(const struct nodesim *ns, int conn)
{
	static struct frame_reader	 fr;
	uint8_t				 buf[16384];
	uint64_t			 bytes = 0;
	ssize_t				 n;
	long				 used;
	size_t				 off;
	int				 r, post = ns->after_output;

	frame_reader_init(&fr);
	for (;;) {
		if (ns->slow > 0)
			sleep(1);
		if ((n = read(conn, buf, ns->slow > 0 && (size_t)ns->slow <
		    sizeof(buf) ? (size_t)ns->slow : sizeof(buf))) == -1) {
			if (errno == EINTR)
				continue;
			die("read");
		}
		if (n == 0) {
			fprintf(stderr, "opty-nodesim: EOF without exit frame "
			    "bytes=%llu\n", (unsigned long long)bytes);
			return 4;
		}
		for (off = 0; off < (size_t)n; off += (size_t)used) {
			used = frame_reader_feed(&fr, buf + off, n - off);
			if (used < 0) {
				fprintf(stderr, "opty-nodesim: bad frame: %s\n",
				    frame_strerror((int)used));
				return 4;
			}
			if (!fr.ready)
				continue;
			if ((r = sim_frame(ns, &fr, &bytes)) >= 0)
				return r;
			if (post && fr.hdr.type == FRAME_OUTPUT) {
				post = 0;
				send_post(ns, conn);
			}
			frame_reader_next(&fr);
		}
	}
}

/* The MainPID goes away after admission; a child carries on. */
static void
sim_replaced(const char *file)
{
	pid_t	 pid;

	if ((pid = fork()) == -1)
		die("fork");
	if (pid > 0) {
		sleep(1);
		exit(0);
	}
	sim_wait_file(file);
}

static int
sim_session(const struct nodesim *ns, int conn)
{
	int	 dirfd, r;

	if ((dirfd = open(ns->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		die(ns->dir);
	if (ns->waitfile != NULL)
		sim_wait_file(ns->waitfile);
	if (ns->replfile != NULL)
		sim_replaced(ns->replfile);
	send_extra(ns, conn, 1);
	if (ns->forgery != NULL)
		sim_forge(ns, conn, dirfd);
	else
		sim_spawn_client(ns, conn, dirfd);
	close(dirfd);
	if (!ns->after_output) {
		send_post(ns, conn);
		if (ns->input != NULL)
			sim_send_input(conn, ns->input);
	}
	r = sim_read(ns, conn);
	close(conn);
	return r;
}

static int
sim_run(const struct nodesim *ns)
{
	return sim_session(ns, sim_connect());
}

/* All connections come from this process: the one systemd knows. */
static int
sim_parallel(const struct nodesim *ns)
{
	int	 conns[64], i, status, r = 0;
	pid_t	 pid;

	if (ns->parallel > 64)
		exit(2);
	for (i = 0; i < ns->parallel; i++)
		conns[i] = sim_connect();
	for (i = 0; i < ns->parallel; i++) {
		if ((pid = fork()) == -1)
			die("fork");
		if (pid == 0)
			_exit(sim_session(ns, conns[i]));
		close(conns[i]);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			r = 1;
	return r;
}

int
main(int argc, char *argv[])
{
	static struct nodesim	 ns = { .dir = ".", .client = CLIENT_PATH,
				    .runs = 1 };
	int			 ch, i, r = 0;

	while ((ch = getopt(argc, argv, "c:D:d:F:i:n:OP:qR:r:S:s:t:W:w:X:")) !=
	    -1) {
		switch (ch) {
		case 'c': ns.client = optarg; break;
		case 'D': ns.delay_ms = num(optarg); break;
		case 'O': ns.after_output = 1; break;
		case 'R': (void)add_extra(&ns, FRAME_RESIZE, optarg); break;
		case 'S': (void)add_extra(&ns, FRAME_SIGNAL, optarg); break;
		case 'X': add_raw(&ns, optarg); break;
		case 'W': ns.winsize = optarg; break;
		case 'd': ns.dir = optarg; break;
		case 'F': ns.forgery = optarg; break;
		case 'r': ns.replfile = optarg; break;
		case 'P': ns.parallel = num(optarg); break;
		case 's': ns.slow = num(optarg); break;
		case 'i': ns.input = optarg; break;
		case 'n': ns.runs = num(optarg); break;
		case 'q': ns.quiet = 1; break;
		case 't': ns.runtime = optarg; break;
		case 'w': ns.waitfile = optarg; break;
		default:
			fprintf(stderr, "usage: opty-nodesim [-n runs] [-q] "
			    "[-t sec] [-i input] [-d dir] [-c client] "
			    "[-w file] [-r file] [-P n] [-s bps] [-F forgery] "
			    "[-W rowsxcols] [-R [^]rowsxcols|[^]hex:HEX] "
			    "[-S [^]signo|[^]hex:HEX] [-X [^]type:hex:HEX|"
			    "[^]type:len:N] [-D msec] [-O] "
			    "-- command [arg ...]\n");
			return 2;
		}
	}
	ns.argv = argv + optind;
	ns.argc = argc - optind;
	(void)setvbuf(stderr, NULL, _IOLBF, 0);
	if (ns.parallel > 0)
		return sim_parallel(&ns);
	for (i = 0; i < ns.runs && r == 0; i++)
		r = sim_run(&ns);
	return r;
}
