/*
 * main.c: main() of opencode-pty-client.  Runs as byk, spawned by the
 * Node service with fd 3 = its connected supervisor socket and fd 4 =
 * the approved directory.  Checks its descriptors, seccomp-confines
 * itself, then sends one start frame carrying fd 4 (with -s, one RESIZE
 * frame first; the descriptor rides on the first byte sent) and exits.
 * It never connects, opens, stats or resolves a path and never reads a
 * frame: docs/CLIENT.md says how regress/ proves that.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/prctl.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"

/* Raw write(2): stdio would fstat, lseek and malloc under seccomp. */
static void __attribute__((noreturn))
die(int status, const char *why)
{
	char	line[CLIENT_ERRLEN + 64];
	int	n;

	n = snprintf(line, sizeof(line), "opencode-pty-client: %s\n", why);
	if (n > 0 && (size_t)n < sizeof(line))
		(void)!write(STDERR_FILENO, line, (size_t)n);
	_exit(status);
}

int
main(int argc, char *argv[])
{
	static uint8_t		frame[CLIENT_FRAME_MAX];
	struct client_opts	opts;
	struct client_dir	dir;
	char			err[CLIENT_ERRLEN];
	int			len, r;

	/*
	 * fd 3 is an authenticated connection to the supervisor: no other
	 * process of byk may take it (pidfd_getfd, ptrace, /proc/PID/fd).
	 * Installed 0711, the kernel already made this process
	 * non-dumpable at execve; this covers a readable copy too.
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		die(CLIENT_EXIT_SANDBOX, "prctl(PR_SET_DUMPABLE)");
	/* Before anything else, including reading argv. */
	if ((r = fd_check_all(&dir, err, sizeof(err))) == -2)
		die(CLIENT_EXIT_EXTRA_FD, err);
	if (r == -1)
		die(CLIENT_EXIT_FDS, err);
	if (sandbox_enter(err, sizeof(err)) == -1)
		die(CLIENT_EXIT_SANDBOX, err);

	if (cli_parse(argc, argv, &opts, err, sizeof(err)) == -1)
		die(CLIENT_EXIT_USAGE, err);
	if ((len = client_frame(&opts, &dir, frame, sizeof(frame), err,
	    sizeof(err))) == -1)
		die(CLIENT_EXIT_USAGE, err);
	if (client_send(CLIENT_FD_SOCK, CLIENT_FD_DIR, frame, (size_t)len,
	    err, sizeof(err)) == -1)
		die(CLIENT_EXIT_SEND, err);
	_exit(CLIENT_EXIT_OK);
}
