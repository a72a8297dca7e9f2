/*
 * dirsock.h: how a session unit receives its approved directory (root
 * parent sends, launcher receives).  The directory travels as the only
 * descriptor of a one-byte message on a socket pair the root parent
 * made, whose other end is the unit's standard error: PID 1 takes any
 * socket as StandardErrorFileDescriptor=, while systemd 262 refuses a
 * directory there.  See docs/LAUNCHER.md.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_DIRSOCK_H
#define OPTY_DIRSOCK_H

#define DIRSOCK_BYTE	'D'

/*
 * Root parent: a new socket whose queued message carries dirfd (the
 * caller keeps its own dirfd).  Close-on-exec; -1 with errno set.
 */
int	dirsock_make(int);

enum dirsock_status {
	DS_OK = 0,
	DS_E_NOTSOCK = -1,	/* the descriptor is not a socket (err) */
	DS_E_PEER = -2,		/* its peer is not root (err) */
	DS_E_RECV = -3,		/* recvmsg failed or hit EOF (err) */
	DS_E_TRUNC = -4,	/* control data truncated (MSG_CTRUNC) */
	DS_E_BYTE = -5,		/* not exactly the one expected byte */
	DS_E_NOFD = -6,		/* no descriptor came with it */
	DS_E_FDS = -7,		/* more than one descriptor, or foreign data */
	DS_E_NOTDIR = -8,	/* the descriptor is not a directory */
};

/*
 * Launcher: takes the directory from sock.  The directory (close-on-exec)
 * or an enum dirsock_status; *errp is the errno where one applies, else 0.
 * Nothing received is kept on failure.
 */
int	dirsock_take(int, int *);
const char *dirsock_strerror(int);

#endif
