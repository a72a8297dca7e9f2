/*
 * config.h: the fixed names, paths and limits every opencode-pty process
 * agrees on.  Compile-time only: nothing here is read from a client.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_CONFIG_H
#define OPTY_CONFIG_H

/*
 * OPTY_LIBEXECDIR, OPTY_USER (runs the client and the session units) and
 * the other settings of the install come from the GNUmakefile (PREFIX,
 * LIBEXECDIR, SESSION_USER...), through the header it generates from
 * them: one set of settings for the programs, the units and the pages.
 */
#include "opty-paths.h"
#if !defined(OPTY_LIBEXECDIR) || !defined(OPTY_USER)
#error "opty-paths.h does not define the settings (see the GNUmakefile)"
#endif
#ifndef OPTY_RELAY_USER
#define OPTY_RELAY_USER		"opencode-pty-relay"
#endif

#define OPTY_RELAY_PATH		OPTY_LIBEXECDIR "/opencode-pty-relay"
#define OPTY_LAUNCHER_PATH	OPTY_LIBEXECDIR "/opencode-pty-launcher"
#define OPTY_RUNDIR		"/run/opencode-pty"
#define OPTY_SOCKET_PATH	OPTY_RUNDIR "/supervisor.sock"
#define OPTY_EMPTY_DIR		OPTY_RUNDIR "/empty"	/* relay's chroot */
/*
 * Each session's own devpts instance is mounted by PID 1 (a transient
 * mount unit) at OPTY_PTS_DIR/<the session unit's hex id>, a directory
 * only root can enter; the session sees it as its /dev/pts.  The unit's
 * name is that path, escaped as systemd names mount units.
 */
#define OPTY_PTS_DIR		OPTY_RUNDIR "/pts"
#define OPTY_PTS_UNIT_PREFIX	"run-opencode\\x2dpty-pts-"
#define OPTY_PTS_UNIT_SUFFIX	".mount"
/*
 * Terminals one session may hold, its own included (devpts max=).  The
 * kernel keeps kernel.pty.reserve (1024) of kernel.pty.max (4096) for
 * the host's own instance: 16 sessions of 128 leave the rest to others.
 */
#define OPTY_PTS_MAX		128

#define OPTY_CLIENT_UNIT	"opencode-v2.service"
#define OPTY_CLIENT_CGROUP	"/system.slice/opencode-v2.service"
#define OPTY_SUPERVISOR_UNIT	"opencode-pty-supervisor.service"
#define OPTY_SLICE		"opencode-pty.slice"
#define OPTY_UNIT_PREFIX	"opencode-pty-"
#define OPTY_UNIT_SUFFIX	".service"

#define OPTY_MAX_SESSIONS	16	/* admitted sessions: units */
/*
 * Connections waiting for authentication have slots of their own, so a
 * flood of peers that will be refused never takes a session's slot.
 */
#define OPTY_MAX_AUTH		16
#define OPTY_MAX_SLOTS		(OPTY_MAX_SESSIONS + OPTY_MAX_AUTH)
/* systemd reads in flight for the one uid that may be authenticated. */
#define OPTY_AUTH_INFLIGHT	2
/* The operator's relaxation of the non-dumpable rule (docs/UNITS.md). */
#define OPTY_ALLOW_DUMPABLE_ENV	"OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT"
#define OPTY_YAMA_SCOPE_PATH	"/proc/sys/kernel/yama/ptrace_scope"
#define OPTY_STOP_TIMEOUT_USEC	(15ULL * 1000000)
/* How long a stopping supervisor waits for every client to be told. */
#define OPTY_SHUTDOWN_TELL_MSEC	1000

/* Descriptors the relay finds at exec. */
#define RELAY_FD_PARENT		3	/* SOCK_SEQPACKET to the parent */
#define RELAY_FD_LISTEN		4	/* the listening client socket */

#endif
