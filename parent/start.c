/*
 * start.c: IMSG_START_REQ (root parent).  Re-authenticates the client,
 * checks the directory descriptor against what the client claimed, and
 * asks systemd for the transient unit.  The relay's decoding is not
 * trusted: the request is decoded again here from the imsg payload.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <string.h>
#include <unistd.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

static int
start_reauth(struct session *s)
{
	uint8_t	 inv[16];
	pid_t	 pid;
	int	 code;

	if ((code = auth_peer(parent->bus, s->conn_fd, &pid, inv)) != 0)
		return code;
	if (pid != s->client_pid || memcmp(inv, s->invocation, 16) != 0)
		return ERR_AUTH_CHANGED;
	return 0;
}

static int
start_dircheck(int dirfd, const struct msg_start *ms)
{
	struct stat	 st;

	if (fstat(dirfd, &st) == -1) {
		log_warn("fstat directory");
		return ERR_NOTDIR;
	}
	if (!S_ISDIR(st.st_mode))
		return ERR_NOTDIR;
	if ((uint64_t)st.st_dev != ms->dev || (uint64_t)st.st_ino != ms->ino)
		return ERR_DIR_MISMATCH;
	return 0;
}

static void
start_fail(struct session *s, int code)
{
	struct imsg_code	 c;

	log_info("session %u: start refused: %s", s->sid,
	    frame_error_text(code));
	memset(&c, 0, sizeof(c));
	c.code = code;
	s->state = SS_ENDED;
	parent_send(s, IMSG_START_FAIL, -1, &c, sizeof(c));
}

static int
start_unit(struct session *s, const struct start_args *a, int dirfd)
{
	struct unit_spec	 spec;
	int			 sp[2], r;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1) {
		log_warn("socketpair");
		return ERR_INTERNAL;
	}
	if (unit_name_new(s->unit) < 0) {
		log_warn("unit name");
		close(sp[0]);
		close(sp[1]);
		return ERR_INTERNAL;
	}
	memset(&spec, 0, sizeof(spec));
	spec.name = s->unit;
	spec.runtime_sec = a->fixed.runtime;
	spec.stream_fd = sp[1];
	spec.dir_fd = dirfd;
	spec.argc = a->fixed.argc;
	spec.argv = a->argv;
	r = dbusd_start_unit(parent->bus, &spec, s->job, sizeof(s->job));
	/* sd-bus made its own copies; the unit's end is not ours to keep. */
	close(sp[1]);
	if (r < 0) {
		log_warnx("session %u: StartTransientUnit %s: %s", s->sid,
		    s->unit, strerror(-r));
		close(sp[0]);
		return ERR_START;
	}
	s->relay_end = sp[0];
	s->unit_made = 1;
	return 0;
}

void
session_start_req(struct session *s, struct imsg *m)
{
	struct start_args	 a;
	int			 dirfd = m->fd, code;

	m->fd = -1;
	if (msg_start_decode(m->data, m->hdr.len, &a) != 0) {
		close(dirfd);
		fatalx("relay violated the message table: malformed %s "
		    "(session %u)", imsg_type_name(m->hdr.type), s->sid);
	}
	s->state = SS_STARTING;
	s->runtime = a.fixed.runtime;
	s->argc = a.fixed.argc;
	argv_digest(&a, s->argv_hash);
	if ((code = start_reauth(s)) == 0 &&
	    (code = start_dircheck(dirfd, &a.fixed)) == 0)
		code = start_unit(s, &a, dirfd);
	close(dirfd);
	if (code != 0) {
		start_fail(s, code);
		return;
	}
	s->started_usec = now_usec();
	log_info("session %u: unit %s started for client pid %ld", s->sid,
	    s->unit, (long)s->client_pid);
	session_arm(s, 20000);
}
