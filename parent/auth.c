/*
 * auth.c: authenticates a client connection from kernel facts (root
 * parent).  The peer's credentials and pidfd come from the socket the
 * relay handed over (the parent reads no byte from it); the expected
 * identity comes from systemd.  Admission is one read followed by a
 * liveness check of the peer; the start is one more read, made after the
 * start request arrived, followed by another liveness check.  So no unit
 * is asked for before systemd was read, the peer found alive and systemd
 * read again, as the seed's authenticate() does.  The reads do not block
 * the parent: other sessions are served while systemd answers.
 */
#include <sys/types.h>
#include <sys/pidfd.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "proto/log.h"
#include "parent/parent.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD	77
#endif

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

/* Which identity read is in flight. */
enum {
	AUTH_ADMIT = 1,		/* admission: must fit the peer */
	AUTH_START,		/* start: still the admitted identity */
};

static void	auth_read_done(struct dbusd_req *, void *);

static void
auth_finish(struct session *s, int code)
{
	s->auth_round = 0;
	if (code != 0) {
		log_info("session %u: peer pid %ld refused: %s", s->sid,
		    (long)s->auth_pid, frame_error_text(code));
		if (s->pidfd != -1)
			close(s->pidfd);
		s->pidfd = -1;
	}
	session_authed(s, code);
}

static void
auth_read(struct session *s, int round)
{
	int	 r;

	s->auth_round = round;
	r = dbusd_client_ident_begin(parent->bus, auth_read_done, s, &s->req);
	if (r < 0) {
		log_warnx("client identity: %s", strerror(-r));
		auth_finish(s, ERR_INTERNAL);
	}
}

static int
auth_read_code(int r)
{
	if (r == -ENOENT)
		return ERR_AUTH_STATE;
	log_warnx("client identity: %s", strerror(-r));
	return ERR_INTERNAL;
}

/*
 * The peer is alive after systemd named its pid: the pid was not reused
 * in between, so systemd named this very process.
 */
static int
auth_alive(const struct session *s)
{
	struct pollfd	pfd;

	/* A pidfd polls readable once its process has exited; no signal. */
	pfd.fd = s->pidfd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	return poll(&pfd, 1, 0) != 0 ? ERR_AUTH_CHANGED : 0;
}

/*
 * Each read is followed by the liveness check: the process systemd named
 * is the peer.  At start the read also shows the admitted process still
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
	s->req = NULL;
	if (r < 0)
		code = auth_read_code(r);
	else if (s->auth_round == AUTH_ADMIT) {
		if ((code = ident_check(&id, s->auth_pid)) == 0 &&
		    (code = auth_alive(s)) == 0)
			s->auth_id = id;
	} else if ((code = ident_check(&id, s->client_pid)) == 0) {
		if (memcmp(id.invocation, s->invocation, 16) != 0)
			code = ERR_AUTH_CHANGED;
		else
			code = auth_alive(s);
	}
	auth_finish(s, code);
}

/*
 * Starts admitting the session's connection; session_authed() gets the
 * result, from here for a refusal on kernel facts, otherwise once
 * systemd has answered.  The peer's pidfd is kept for the start.
 */
void
auth_begin(struct session *s)
{
	struct ucred	 cr;
	int		 code;

	s->auth_pid = 0;
	if ((code = peer_facts(s->conn_fd, &cr, &s->pidfd)) != 0) {
		auth_finish(s, code);
		return;
	}
	s->auth_pid = cr.pid;
	if (cr.uid != parent->user_uid) {
		auth_finish(s, ERR_AUTH_PID);
		return;
	}
	auth_read(s, AUTH_ADMIT);
}

/* The start's check of the admitted client; session_authed() follows. */
void
auth_revalidate(struct session *s)
{
	s->auth_pid = s->client_pid;
	auth_read(s, AUTH_START);
}
