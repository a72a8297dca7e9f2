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

#endif
