/*
 * auth.c: authenticates a client connection from kernel facts (root
 * parent).  The peer's credentials and pidfd come from the socket the
 * relay handed over (the parent reads no byte from it); the expected
 * identity comes from systemd, read twice around a liveness check so a
 * client replaced in between is refused.
 */
#include <sys/types.h>
#include <sys/pidfd.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
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

static int
ident_same(const struct client_ident *a, const struct client_ident *b)
{
	return a->main_pid == b->main_pid &&
	    memcmp(a->invocation, b->invocation, sizeof(a->invocation)) == 0 &&
	    strcmp(a->active, b->active) == 0 &&
	    strcmp(a->sub, b->sub) == 0 &&
	    strcmp(a->cgroup, b->cgroup) == 0;
}

static int
ident_read(struct dbusd *bus, struct client_ident *id)
{
	int	 r;

	memset(id, 0, sizeof(*id));
	if ((r = dbusd_client_ident(bus, id)) == 0)
		return 0;
	if (r == -ENOENT)
		return ERR_AUTH_STATE;
	log_warnx("client identity: %s", strerror(-r));
	return ERR_INTERNAL;
}

/* Both facts are required; a kernel without SO_PEERPIDFD is refused. */
static int
peer_facts(int conn, struct ucred *cr, int *pidfd)
{
	socklen_t	 len = sizeof(*cr);

	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, cr, &len) == -1 ||
	    len != sizeof(*cr)) {
		log_warn("SO_PEERCRED");
		return ERR_AUTH_PEER;
	}
	len = sizeof(*pidfd);
	if (getsockopt(conn, SOL_SOCKET, SO_PEERPIDFD, pidfd, &len) == -1) {
		log_warn("SO_PEERPIDFD");
		return ERR_AUTH_PEER;
	}
	if (len != sizeof(*pidfd) || *pidfd < 0)
		return ERR_AUTH_PEER;
	if (fcntl(*pidfd, F_SETFD, FD_CLOEXEC) == -1) {
		close(*pidfd);
		return ERR_INTERNAL;
	}
	return 0;
}

static int
auth_compare(struct dbusd *bus, const struct ucred *cr, int pidfd,
    struct client_ident *id)
{
	struct client_ident	 again;
	int			 code;

	if (cr->uid != parent->user_uid)
		return ERR_AUTH_PID;
	if ((code = ident_read(bus, id)) != 0)
		return code;
	if ((code = ident_check(id, cr->pid)) != 0)
		return code;
	/* The pidfd pins the process that connected, not a reused pid. */
	if (pidfd_send_signal(pidfd, 0, NULL, 0) == -1)
		return ERR_AUTH_CHANGED;
	if ((code = ident_read(bus, &again)) != 0)
		return code;
	if (!ident_same(id, &again))
		return ERR_AUTH_CHANGED;
	return 0;
}

/* Returns 0 and the client's pid and invocation id, or an ERR_ code. */
int
auth_peer(struct dbusd *bus, int conn, pid_t *pidp, uint8_t inv[16])
{
	struct ucred		 cr;
	struct client_ident	 id;
	int			 pidfd = -1, code;

	if ((code = peer_facts(conn, &cr, &pidfd)) != 0)
		return code;
	code = auth_compare(bus, &cr, pidfd, &id);
	close(pidfd);
	if (code != 0) {
		log_info("peer pid %ld uid %ld refused: %s", (long)cr.pid,
		    (long)cr.uid, frame_error_text(code));
		return code;
	}
	*pidp = cr.pid;
	memcpy(inv, id.invocation, sizeof(id.invocation));
	return 0;
}
