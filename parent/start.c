/*
 * start.c: the start of a session's unit (root parent).  Checks the
 * directory descriptor, the client's, against what the client claimed
 * (a directory, of the claimed st_dev and st_ino) without waiting on
 * the client's file system, and keeps the request; once session.c has
 * had the client authenticated again, names the unit and has its
 * devpts instance mounted (pts.c); then opens the session's terminal in
 * it, builds the StartTransientUnit call and sends it without blocking
 * the parent's loop.  The relay's decoding is not trusted: the request
 * is decoded again here from the imsg payload.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"
#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

void
start_drop(struct session *s)
{
	dbusd_req_free(s->start_call);
	s->start_call = NULL;
	if (s->relay_end != -1)
		close(s->relay_end);
	s->relay_end = -1;
	free(s->start_msg);
	s->start_msg = NULL;
	s->start_len = 0;
	if (s->dirfd != -1)
		close(s->dirfd);
	s->dirfd = -1;
}

/* PID 1's answer to the call; only its failure is news for session.c. */
static void
start_done(struct dbusd_req *req, void *arg)
{
	struct session	*s = arg;
	int		 r;

	r = dbusd_start_end(req, s->u.job, sizeof(s->u.job));
	dbusd_req_free(req);
	s->start_call = NULL;
	if (r < 0) {
		log_warnx("session %u: StartTransientUnit %s: %s", s->sid,
		    s->u.name, strerror(-r));
		unit_step(s, U_REFUSED);
		return;
	}
	log_info("session %u: unit %s started for client pid %ld", s->sid,
	    s->u.name, (long)s->client_pid);
	/* Followed to its end whatever the session's state (a close). */
	unit_step(s, U_ACCEPTED);
}

/*
 * The client's identity was checked again (code: its result): the unit
 * is named and its terminal's instance asked for.  0, or the code to
 * refuse the start with (session.c then drops all it kept: start_drop).
 */
int
start_send(struct session *s, int code)
{
	if (code == 0)
		code = s->start_code;
	if (code == 0 && unit_name_new(s->u.name) < 0) {
		log_warn("unit name");
		code = ERR_INTERNAL;
	}
	if (code == 0)
		code = pts_begin(s);
	return code;
}

/*
 * The instance is mounted: the terminal is made in it and the call
 * built from the kept request, then sent.  0, or the code to refuse
 * the start with; what a failure leaves (the master) goes with the
 * refusal (start_drop).
 */
int
start_unit(struct session *s)
{
	struct start_args	 a;
	struct unit_spec	 spec;
	struct pty_spec		 ps;
	const char		*what;
	int			 peer, ds, r;

	if (msg_start_decode(s->start_msg, s->start_len, &a) != 0)
		fatalx("session %u: the kept start request no longer decodes",
		    s->sid);
	memset(&ps, 0, sizeof(ps));
	ps.rows = a.fixed.rows;
	ps.cols = a.fixed.cols;
	ps.uid = parent->user_uid;
	ps.tty_gid = parent->tty_gid;
	ps.pts_dir = s->pts.where;
	if ((s->relay_end = pty_open(&ps, &peer, &what)) == -1) {
		log_warn("session %u: terminal: %s", s->sid, what);
		return ERR_INTERNAL;
	}
	/* systemd 262 refuses a directory as a unit's stderr: a socket. */
	if ((ds = dirsock_make(s->dirfd)) == -1) {
		log_warn("directory socket");
		close(peer);
		return ERR_INTERNAL;
	}
	memset(&spec, 0, sizeof(spec));
	spec.name = s->u.name;
	spec.pts_of = s->pts_of;
	spec.runtime_sec = a.fixed.runtime;
	spec.tty_fd = peer;
	spec.dirsock_fd = ds;
	spec.argc = a.fixed.argc;
	spec.argv = a.argv;
	r = dbusd_start(parent->bus, &spec, start_done, s, &s->start_call);
	/* The message holds its own copies; the unit's ends are not ours. */
	close(peer);
	close(ds);
	if (r < 0) {
		log_warnx("session %u: StartTransientUnit %s: %s", s->sid,
		    s->u.name, strerror(-r));
		return ERR_START;
	}
	free(s->start_msg);
	s->start_msg = NULL;
	close(s->dirfd);
	s->dirfd = -1;
	/* From here on a unit of that name may exist until seen gone. */
	unit_step(s, U_CALLED);
	return 0;
}

/*
 * The directory is the client's: it may sit on a FUSE file system its
 * user runs, or on a hung NFS mount, and this runs in the root event
 * loop.  statx() with AT_STATX_DONT_SYNC asks for the type and inode
 * number the kernel already holds, without a round trip to the file
 * system's server (SECURITY.md, "The directory check").  A NULL path
 * (Linux >= 6.11) is the descriptor itself, with no path walk at all;
 * an older kernel answers EFAULT and is asked with "", the same
 * descriptor through an empty path walk.  0, ERR_NOTDIR or
 * ERR_DIR_MISMATCH.
 */
static int
dircheck_start(int dirfd, const struct msg_start *ms)
{
	const int	 fl = AT_EMPTY_PATH | AT_STATX_DONT_SYNC |
			    AT_NO_AUTOMOUNT;
	const unsigned	 mask = STATX_TYPE | STATX_INO;
	struct statx	 stx;

	memset(&stx, 0, sizeof(stx));
	/* glibc's statx() declares the path non-null: the raw call. */
	if (syscall(SYS_statx, dirfd, NULL, fl, mask, &stx) == -1 &&
	    (errno != EFAULT || statx(dirfd, "", fl, mask, &stx) == -1)) {
		log_warn("statx directory");
		return ERR_NOTDIR;
	}
	if ((stx.stx_mask & mask) != mask || !S_ISDIR(stx.stx_mode))
		return ERR_NOTDIR;
	/* st_dev as the client's fstat() encodes it (glibc's makedev). */
	if ((uint64_t)makedev(stx.stx_dev_major, stx.stx_dev_minor) !=
	    ms->dev || stx.stx_ino != ms->ino)
		return ERR_DIR_MISMATCH;
	return 0;
}

/*
 * The relay's START_REQ: the directory is checked and the request kept
 * until the start can be built; a failure is kept to be told after the
 * client's identity is checked again.
 */
void
start_prepare(struct session *s, struct imsg *m)
{
	struct start_args	 a;

	s->dirfd = m->fd;
	m->fd = -1;
	if (msg_start_decode(m->data, m->hdr.len, &a) != 0)
		fatalx("relay violated the message table: malformed %s "
		    "(session %u)", imsg_type_name(m->hdr.type), s->sid);
	s->runtime = a.fixed.runtime;
	s->argc = a.fixed.argc;
	argv_digest(&a, s->argv_hash);
	if ((s->start_code = dircheck_start(s->dirfd, &a.fixed)) != 0)
		return;
	if ((s->start_msg = malloc(m->hdr.len)) == NULL) {
		log_warn("session %u: start request", s->sid);
		s->start_code = ERR_INTERNAL;
		return;
	}
	memcpy(s->start_msg, m->data, m->hdr.len);
	s->start_len = m->hdr.len;
}
