/*
 * config.h: the fixed names, paths and limits every opencode-pty process
 * agrees on.  Compile-time only: nothing here is read from a client.
 */
#ifndef OPTY_CONFIG_H
#define OPTY_CONFIG_H

#ifndef OPTY_LIBEXECDIR
#define OPTY_LIBEXECDIR		"/usr/local/libexec"
#endif
#ifndef OPTY_USER
#define OPTY_USER		"byk"		/* runs the client and units */
#endif
#ifndef OPTY_RELAY_USER
#define OPTY_RELAY_USER		"opencode-pty-relay"
#endif

#define OPTY_RELAY_PATH		OPTY_LIBEXECDIR "/opencode-pty-relay"
#define OPTY_LAUNCHER_PATH	OPTY_LIBEXECDIR "/opencode-pty-launcher"
#define OPTY_RUNDIR		"/run/opencode-pty"
#define OPTY_SOCKET_PATH	OPTY_RUNDIR "/supervisor.sock"
#define OPTY_EMPTY_DIR		OPTY_RUNDIR "/empty"	/* relay's chroot */

#define OPTY_CLIENT_UNIT	"opencode-v2.service"
#define OPTY_CLIENT_CGROUP	"/system.slice/opencode-v2.service"
#define OPTY_SUPERVISOR_UNIT	"opencode-pty-supervisor.service"
#define OPTY_SLICE		"opencode-pty.slice"
#define OPTY_UNIT_PREFIX	"opencode-pty-"
#define OPTY_UNIT_SUFFIX	".service"

#define OPTY_MAX_SESSIONS	16
#define OPTY_STOP_TIMEOUT_USEC	(15ULL * 1000000)

/* Descriptors the relay finds at exec. */
#define RELAY_FD_PARENT		3	/* SOCK_SEQPACKET to the parent */
#define RELAY_FD_LISTEN		4	/* the listening client socket */

#endif
