/*
 * pty.c: each session's terminal, made by the root parent as sshd's
 * monitor makes one (trust level: root parent).  The master is opened
 * from the session's own devpts instance (mounted by PID 1 for it, see
 * dbusd/props.c), the peer taken from it with TIOCGPTPEER (no path is
 * looked up, so no name can be raced), and the first window size set.
 * The instance's mount options make every terminal in it the session
 * user's, group tty, 0620: no chown, so the parent keeps no capability
 * for it; what the kernel made is read back and checked.  The peer goes
 * to the unit as its terminal, the master to the relay; the parent keeps
 * neither once the unit's start is decided (start.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "proto/log.h"
#include "parent/parent.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER	_IO('T', 0x41)	/* Linux 4.13 */
#endif

#define PTY_GROUP	"tty"
#define PTY_PEER_MODE	0620

/*
 * Non-blocking master: the relay reads and writes it from its event
 * loop and has no fcntl() in its sandbox.  The peer stays blocking, as
 * a command expects of its terminal.
 */
static int
pty_master(const char *ptmx, int oflags, int *peerp)
{
	int	 master, unlock = 0;

	if ((master = open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC |
	    O_NONBLOCK | oflags)) == -1)
		return -1;
	if (ioctl(master, TIOCSPTLCK, &unlock) == -1 ||
	    (*peerp = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY |
	    O_CLOEXEC)) == -1) {
		close(master);
		return -1;
	}
	return master;
}

/*
 * The peer as the command will be given it, read back from the kernel:
 * a terminal of the session's instance, the user's, group tty, 0620.
 */
static int
pty_peer_ok(const struct pty_spec *ps, int master, int peer)
{
	struct statfs	 sf;
	struct stat	 st, dir;

	if (fstatfs(master, &sf) == -1 || fstat(peer, &st) == -1 ||
	    stat(ps->pts_dir, &dir) == -1)
		return -1;
	if (sf.f_type != DEVPTS_SUPER_MAGIC || st.st_dev != dir.st_dev ||
	    !S_ISCHR(st.st_mode) || st.st_uid != ps->uid ||
	    st.st_gid != ps->tty_gid ||
	    (st.st_mode & 07777) != PTY_PEER_MODE) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* On failure *whatp names the step, for the caller's log line. */
int
pty_open(const struct pty_spec *ps, int *peerp, const char **whatp)
{
	struct winsize	 ws;
	struct termios	 t;
	char		 ptmx[PATH_MAX];
	int		 master, peer, saved;

	*whatp = "the instance's ptmx, TIOCGPTPEER";
	if (snprintf(ptmx, sizeof(ptmx), "%s/ptmx", ps->pts_dir) >=
	    (int)sizeof(ptmx)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* The instance's own node, never a link out of it. */
	if ((master = pty_master(ptmx, O_NOFOLLOW, &peer)) == -1)
		return -1;
	memset(&ws, 0, sizeof(ws));
	ws.ws_row = ps->rows;
	ws.ws_col = ps->cols;
	*whatp = "TIOCSWINSZ";
	if (ioctl(master, TIOCSWINSZ, &ws) == -1)
		goto fail;
	/*
	 * The kernel's defaults for a new terminal, plus what systemd gives
	 * a service's terminal and node-pty gives its own: IUTF8, so that
	 * line editing erases a whole UTF-8 character, and IMAXBEL.
	 */
	*whatp = "termios";
	if (tcgetattr(peer, &t) == -1)
		goto fail;
	t.c_iflag |= IUTF8 | IMAXBEL;
	if (tcsetattr(peer, TCSANOW, &t) == -1)
		goto fail;
	*whatp = "the peer's instance, owner or mode read back";
	if (pty_peer_ok(ps, master, peer) == -1)
		goto fail;
	*peerp = peer;
	return master;
fail:
	saved = errno;
	close(peer);
	close(master);
	errno = saved;
	return -1;
}

/*
 * Start-up: the group of terminals, and proof that this kernel and this
 * unit's /dev can make one (TIOCGPTPEER is Linux 4.13).  Refused here,
 * with the reason, rather than at the first session.
 */
gid_t
pty_check(void)
{
	struct group	*gr;
	int		 master, peer;

	/* Start-up, one thread: the static result is read at once. */
	/* cppcheck-suppress getgrnamCalled */
	if ((gr = getgrnam(PTY_GROUP)) == NULL)
		fatalx("group %s not found: the session's terminal is given "
		    "to it", PTY_GROUP);
	/* The unit's private /dev: systemd makes ptmx a link to pts/ptmx. */
	if ((master = pty_master("/dev/ptmx", 0, &peer)) == -1)
		fatal("a terminal cannot be made (/dev/ptmx, TIOCGPTPEER: "
		    "Linux >= 4.13 is required)");
	close(peer);
	close(master);
	return gr->gr_gid;
}
