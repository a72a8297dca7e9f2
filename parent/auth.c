/*
 * auth.c: authenticates a client connection from kernel facts (root
 * parent).  The peer's credentials and pidfd come from the socket the
 * relay handed over (the parent reads no byte from it and closes it as
 * soon as they are taken); the expected identity comes from systemd.
 * Admission is one read followed by the dumpability and liveness checks
 * of the peer; the start is one more read, made after the start request
 * arrived, followed by the same checks.  So no unit is asked for before
 * systemd was read, the peer found alive and systemd read again, as the
 * seed's authenticate() does.  The reads do not block the parent: other
 * sessions are served while systemd answers.  Each check ends in one
 * PEV_AUTH_DONE event for session.c, with 0 or the refusal's code.
 *
 * systemd is asked only about peers that kernel facts leave possible:
 * the session user's uid, and the client service's cgroup when it
 * exists; and at most OPTY_AUTH_INFLIGHT admission reads are in flight,
 * the others wait their turn in arrival order.  A flood of connections
 * thus costs PID 1 nothing from outside the client service, and a
 * bounded queue from inside it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/wire.h"
#include "proto/log.h"
#include "parent/parent.h"

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	auth_refusals;

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD	77
#endif

/*
 * PIDFD_GET_INFO (Linux 6.13; the coredump mask 6.16), not in the
 * headers of the build host: struct pidfd_info up to its coredump
 * mask.  The kernel copies what both sides know and says in .mask what
 * it filled in.
 */
struct auth_pidfd_info {
	uint64_t	mask;
	uint64_t	cgroupid;
	/* pid, tgid, ppid, the 8 ids and exit_code: the kernel's layout. */
	/* cppcheck-suppress unusedStructMember */
	uint32_t	unread[12];
	uint32_t	coredump[2];	/* the mask, then padding */
};
#define AUTH_PIDFD_GET_INFO	_IOWR(0xFF, 11, struct auth_pidfd_info)
#define AUTH_INFO_CGROUPID	(1ULL << 2)
#define AUTH_INFO_COREDUMP	(1ULL << 4)
#define AUTH_COREDUMP_SKIP	(1U << 1)	/* SUID_DUMP_DISABLE */
#define AUTH_COREDUMP_USER	(1U << 2)	/* SUID_DUMP_USER: attachable */
#define AUTH_COREDUMP_ROOT	(1U << 3)	/* SUID_DUMP_ROOT */

#define AUTH_CGROUP_DIR		"/sys/fs/cgroup" OPTY_CLIENT_CGROUP

static int
ident_check(const struct client_ident *id, pid_t pid)
{
	if (strcmp(id->active, "active") != 0 ||
	    strcmp(id->sub, "running") != 0)
		return ERR_AUTH_STATE;
	if (strcmp(id->cgroup, OPTY_CLIENT_CGROUP) != 0)
		return ERR_AUTH_CGROUP;
	if (pid <= 0 || id->main_pid == 0 || (pid_t)id->main_pid != pid)
		return ERR_AUTH_PID;
	return 0;
}

/* Both facts are required; a kernel without SO_PEERPIDFD is refused. */
static int
peer_facts(int conn, struct ucred *cr, int *pidfdp)
{
	socklen_t	 len = sizeof(*cr);
	int		 pidfd = -1;

	*pidfdp = -1;
	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, cr, &len) == -1 ||
	    len != sizeof(*cr)) {
		log_warn("SO_PEERCRED");
		return ERR_AUTH_PEER;
	}
	len = sizeof(pidfd);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) == -1) {
		if (errno == ENOPROTOOPT || errno == EINVAL)
			log_warn("SO_PEERPIDFD: this kernel cannot name the "
			    "peer by pidfd, every client is refused: Linux "
			    ">= 6.5 is required");
		else
			log_warn("SO_PEERPIDFD");
		return ERR_AUTH_PEER;
	}
	if (len != sizeof(pidfd) || pidfd < 0)
		return ERR_AUTH_PEER;
	if (fcntl(pidfd, F_SETFD, FD_CLOEXEC) == -1) {
		close(pidfd);
		return ERR_INTERNAL;
	}
	*pidfdp = pidfd;
	return 0;
}

/*
 * The kernel's facts about the process behind the pidfd: they belong to
 * that process or to none (ESRCH once it is gone), whatever pid it had.
 */
static int
pidfd_info(int pidfd, uint64_t want, struct auth_pidfd_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->mask = want;
	if (ioctl(pidfd, AUTH_PIDFD_GET_INFO, pi) == -1)
		return -1;
	if ((pi->mask & want) != want) {
		errno = ENOTSUP;
		return -1;
	}
	return 0;
}

/*
 * A peer outside the client service's cgroup cannot be its MainPID, and
 * a running client service has that cgroup: both are refused without
 * asking systemd, so such a peer costs PID 1 nothing however often it
 * connects.  What the kernel cannot tell (no cgroup id on this kernel,
 * the cgroup file system unreadable) is left to systemd, whose answer
 * decides in any case.
 */
static int
peer_cgroup(int pidfd)
{
	struct auth_pidfd_info	 pi;
	struct stat		 st;

	if (stat(AUTH_CGROUP_DIR, &st) == -1)
		return errno == ENOENT ? ERR_AUTH_STATE : 0;
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (pidfd_info(pidfd, AUTH_INFO_CGROUPID, &pi) == -1)
		return 0;
	/* A cgroup2 directory's inode number is the cgroup's id. */
	return pi.cgroupid == (uint64_t)st.st_ino ? 0 : ERR_AUTH_PID;
}

/* Yama's ptrace_scope is 1 to 3; absent or unreadable, it is not. */
static int
yama_restricts(void)
{
	char	 buf[8];
	ssize_t	 n;
	int	 fd;

	if ((fd = open(OPTY_YAMA_SCOPE_PATH, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n >= 1 && buf[0] >= '1' && buf[0] <= '3';
}

/*
 * The client's MainPID must not be attachable by an unrelated process
 * of the same uid (pidfd_getfd of its socket, ptrace): it is
 * non-dumpable, or Yama restricts ptrace to descendants.  The operator
 * may relax this in the unit (docs/UNITS.md); each relaxed admission
 * says so.
 */
static int
auth_dumpable(const struct session *s, const char *when)
{
	struct auth_pidfd_info	 pi;

	if (pidfd_info(s->pidfd, AUTH_INFO_COREDUMP, &pi) == -1) {
		if (errno == ESRCH)
			return ERR_AUTH_CHANGED;
		log_warn("session %u: dumpability of pid %ld (needs Linux "
		    ">= 6.16)", s->sid, (long)s->client_pid);
		pi.coredump[0] = AUTH_COREDUMP_USER;
	}
	/* Not dumpable: marked so, or it has no memory map (exiting). */
	if (!(pi.coredump[0] & AUTH_COREDUMP_USER))
		return (pi.coredump[0] & (AUTH_COREDUMP_SKIP |
		    AUTH_COREDUMP_ROOT)) ? 0 : ERR_AUTH_CHANGED;
	if (yama_restricts())
		return 0;
	if (parent->allow_dumpable) {
		log_warnx("session %u: %s of DUMPABLE client pid %ld: any %s "
		    "process can take its socket or ptrace it; allowed only "
		    "because %s=1 is set", s->sid, when, (long)s->client_pid,
		    OPTY_USER, OPTY_ALLOW_DUMPABLE_ENV);
		return 0;
	}
	log_warnx("session %u: client pid %ld refused: it is dumpable, so "
	    "any %s process can take its socket (pidfd_getfd) or ptrace it; "
	    "install the Node service's binary root-owned and not readable "
	    "by %s (mode 0711 or 0111) so that it runs non-dumpable, or set "
	    "kernel.yama.ptrace_scope >= 1", s->sid, (long)s->client_pid,
	    OPTY_USER, OPTY_USER);
	return ERR_AUTH_DUMPABLE;
}

static void	auth_read_done(struct dbusd_req *, void *);

/*
 * The admission that waited longest, if one waits and fewer than
 * OPTY_AUTH_INFLIGHT admission reads are in flight.
 */
static void
auth_next(void)
{
	struct session	*s, *next = NULL;
	int		 i, reading = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		if (s->auth_admission != 0 && s->auth_req != NULL)
			reading++;
		else if (s->auth_admission != 0 && (next == NULL ||
		    s->auth_admission < next->auth_admission))
			next = s;
	}
	if (next != NULL && reading < OPTY_AUTH_INFLIGHT)
		auth_read(next);
}

/* The session leaves the admission queue or gives its read back. */
void
auth_drop(struct session *s)
{
	dbusd_req_free(s->auth_req);	/* cancels what is in flight */
	s->auth_req = NULL;
	s->auth_admission = 0;
}

static void
auth_finish(struct session *s, int code)
{
	auth_drop(s);
	if (code != 0)
		log_info_limited(&auth_refusals, "session %u: peer pid %ld "
		    "refused: %s", s->sid, (long)s->client_pid,
		    frame_error_text(code));
	parent_session_post(s, PEV_AUTH_DONE, code);
	auth_next();
}

/* Admission's read (auth_next) or the start's; PEV_AUTH_DONE follows. */
void
auth_read(struct session *s)
{
	int	 r;

	r = dbusd_client_ident_begin(parent->bus, auth_read_done, s,
	    &s->auth_req);
	if (r < 0) {
		log_warnx("client identity: %s", strerror(-r));
		auth_finish(s, ERR_INTERNAL);
	}
}

/*
 * The peer is alive after systemd named its pid: the pid was not reused
 * in between, so systemd named this very process.  A pidfd polls
 * readable once its process has exited; asking needs no privilege.
 */
static int
auth_alive(const struct session *s)
{
	struct pollfd	 pfd;
	int		 r;

	pfd.fd = s->pidfd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	do {
		r = poll(&pfd, 1, 0);
	} while (r == -1 && errno == EINTR);
	if (r == -1) {
		log_warn("poll pidfd");
		return ERR_INTERNAL;
	}
	return r == 0 ? 0 : ERR_AUTH_CHANGED;
}

/*
 * Each read is followed by the dumpability check and then the liveness
 * check: the process systemd named, and whose dumpability was read, is
 * the peer.  At start the read also shows the admitted process still
 * the main process of the admitted invocation: nothing changed since the
 * admission's read.
 */
static void
auth_read_done(struct dbusd_req *req, void *arg)
{
	struct session		*s = arg;
	struct client_ident	 id;
	int			 r, code;

	memset(&id, 0, sizeof(id));
	r = dbusd_client_ident_end(req, &id);
	dbusd_req_free(req);
	s->auth_req = NULL;
	if (r == -ENOENT)
		code = ERR_AUTH_STATE;
	else if (r < 0) {
		log_warnx("client identity: %s", strerror(-r));
		code = ERR_INTERNAL;
	} else if ((code = ident_check(&id, s->client_pid)) == 0 &&
	    !s->auth_admission && memcmp(id.invocation, s->invocation,
	    sizeof(s->invocation)) != 0)
		code = ERR_AUTH_CHANGED;
	if (code == 0)
		code = auth_dumpable(s, s->auth_admission ? "admission" :
		    "start");
	if (code == 0)
		code = auth_alive(s);
	if (code != 0 || !s->auth_admission) {
		auth_finish(s, code);
		return;
	}
	memcpy(s->invocation, id.invocation, sizeof(s->invocation));
	/*
	 * Below Landlock ABI 6, by the operator's opt-in only (features.c):
	 * each admission says so, lest a reader take it for a scoped one.
	 */
	if (parent->landlock_unscoped)
		log_warnx("session %u: admission of client pid %ld: the "
		    "session runs WITHOUT Landlock signal and abstract UNIX "
		    "socket scoping (kernel below Landlock ABI 6); allowed "
		    "only because %s=1 is set", s->sid, (long)s->client_pid,
		    OPTY_ALLOW_UNSCOPED_ENV);
	auth_finish(s, code);
}

/*
 * One connection, one slot: the relay hands over the socket it
 * accepted, and a relay that hands the same socket (by SO_COOKIE, which
 * no dup or SCM_RIGHTS changes) to a second slot while the first still
 * holds it breaks the protocol.  Fail closed, like any relay violation.
 */
static void
conn_once(struct session *s, int conn)
{
	uint64_t	 cookie;
	socklen_t	 len = sizeof(cookie);
	int		 i;

	if (getsockopt(conn, SOL_SOCKET, SO_COOKIE, &cookie, &len) == -1 ||
	    len != sizeof(cookie) || cookie == 0)
		fatal("relay: SO_COOKIE of session %u's connection", s->sid);
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (&parent->sessions[i] != s &&
		    parent->sessions[i].conn_cookie == cookie)
			fatalx("relay: connection admitted twice (sessions %u "
			    "and %u)", parent->sessions[i].sid, s->sid);
	s->conn_cookie = cookie;
}

/*
 * Starts admitting the connection; PEV_AUTH_DONE tells the result,
 * from here for a refusal on kernel facts, otherwise once systemd has
 * answered.  The connection is only read from here: session.c closes
 * it before the relay's next message, so the relay's copy is the only
 * one and the client sees its end as soon as the relay closes it.  The
 * peer's pidfd is kept for the start.
 */
void
auth_begin(struct session *s, int conn)
{
	struct ucred	 cr;
	int		 code;

	conn_once(s, conn);
	code = peer_facts(conn, &cr, &s->pidfd);
	if (code == 0) {
		s->client_pid = cr.pid;
		/* Another uid is refused before anything else is asked. */
		code = cr.uid != parent->user_uid ? ERR_AUTH_PID :
		    peer_cgroup(s->pidfd);
	}
	if (code != 0) {
		auth_finish(s, code);
		return;
	}
	s->auth_admission = ++parent->auth_seq;
	auth_next();
}
