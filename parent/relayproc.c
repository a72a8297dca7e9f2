/*
 * relayproc.c: starts the unprivileged relay (root parent side): the
 * session and relay users' ids, the run directory, the relay's empty
 * root and the listening socket it alone will hold, then the relay
 * itself.  The relay is a fresh image executed from a descriptor whose
 * whole content the parent has just hashed and compared with the
 * SHA-256 embedded at build time (the relay this supervisor was built
 * with), with only the channel, the listening socket and its own
 * journal stream open and its numeric ids on the command line; it drops
 * its own privileges before it reads a client byte.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include "opty-relay-sha256.h"	/* generated: OPTY_RELAY_SHA256 */
#include "proto/config.h"
#include "proto/log.h"
#include "proto/sha256.h"
#include "parent/parent.h"

#define RELAY_IDENT	"opencode-pty-relay"

struct relayproc_args {
	int	 chfd, lfd, logfd, exefd;
	char	 uid[16], gid[16];
	int	 verbose;
};

/*
 * Child side.  fds 1 and 2 become the relay's own journal stream, so
 * nothing it writes reaches the supervisor's stream; everything above 4
 * is close-on-exec, the executable's descriptor included (an ELF image
 * needs no path to itself after exec, unlike a script).
 */
static void __attribute__((noreturn))
relayproc_exec(struct relayproc_args *x)
{
	char		*argv[] = { "opencode-pty-relay", "-u", x->uid, "-g",
			    x->gid, NULL, NULL };
	char		*envp[] = { NULL };
	int		*fds[] = { &x->chfd, &x->lfd, &x->logfd, &x->exefd };
	sigset_t	 mask;
	size_t		 i;

	if (x->verbose)
		argv[5] = "-v";
	/* Each above the fixed slots, so the dup2()s cannot clobber one. */
	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if ((*fds[i] = fcntl(*fds[i], F_DUPFD_CLOEXEC, 10)) == -1)
			_exit(126);
	if (dup2(x->logfd, STDOUT_FILENO) == -1 ||
	    dup2(x->logfd, STDERR_FILENO) == -1 ||
	    dup2(x->chfd, RELAY_FD_PARENT) == -1 ||
	    dup2(x->lfd, RELAY_FD_LISTEN) == -1)
		_exit(126);
	if (close_range(RELAY_FD_LISTEN + 1, ~0U, CLOSE_RANGE_CLOEXEC) == -1)
		_exit(126);
	sigemptyset(&mask);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	fexecve(x->exefd, argv, envp);
	log_warn("exec %s", OPTY_RELAY_PATH);
	_exit(127);
}

/*
 * The start-up's user look-ups: the session user's ids, for the run
 * directory, the socket and every session; the relay user's, for the
 * relay's command line.
 */
static void
relayproc_ids(struct relayproc_args *x)
{
	struct passwd	*pw;

	if ((pw = getpwnam(OPTY_USER)) == NULL)
		fatalx("user %s not found", OPTY_USER);
	parent->user_uid = pw->pw_uid;
	parent->user_gid = pw->pw_gid;
	if ((pw = getpwnam(OPTY_RELAY_USER)) == NULL)
		fatalx("relay user %s not found", OPTY_RELAY_USER);
	if (pw->pw_uid == 0 || pw->pw_gid == 0)
		fatalx("relay user %s must not be root or in group root",
		    OPTY_RELAY_USER);
	(void)snprintf(x->uid, sizeof(x->uid), "%u", (unsigned)pw->pw_uid);
	(void)snprintf(x->gid, sizeof(x->gid), "%u", (unsigned)pw->pw_gid);
	endpwent();
}

/*
 * Opens the installed relay and hashes all of it through the descriptor
 * that will be executed, so what runs is what was compared: the path is
 * not looked up again.  Only root can change the file (root-owned, not
 * writable by group or other, checked here too) and exec refuses a file
 * open for writing (ETXTBSY), so the content cannot change in between
 * except by root.  Mapped, its whole size is hashed in one call.
 */
static int
relayproc_open_verified(void)
{
	char			 hex[SHA256_HEX_LEN + 1];
	uint8_t			 d[SHA256_DIGEST_LEN];
	struct sha256_ctx	 ctx;
	struct stat		 st;
	void			*map;
	int			 fd;

	if ((fd = open(OPTY_RELAY_PATH, O_RDONLY | O_NOCTTY | O_CLOEXEC)) ==
	    -1)
		fatal("open %s", OPTY_RELAY_PATH);
	if (fstat(fd, &st) == -1)
		fatal("fstat %s", OPTY_RELAY_PATH);
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		fatalx("%s: not a regular file owned by root and writable "
		    "only by root", OPTY_RELAY_PATH);
	if ((map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
	    0)) == MAP_FAILED)
		fatal("mmap %s", OPTY_RELAY_PATH);
	sha256_init(&ctx);
	sha256_update(&ctx, map, (size_t)st.st_size);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	munmap(map, (size_t)st.st_size);
	if (strcmp(hex, OPTY_RELAY_SHA256) != 0)
		fatalx("relay binary does not match the one this supervisor "
		    "was built with: %s has sha256 %s, expected %s",
		    OPTY_RELAY_PATH, hex, OPTY_RELAY_SHA256);
	log_info("relay %s sha256 %s verified", OPTY_RELAY_PATH, hex);
	return fd;
}

static void
rundir_own(const char *path, gid_t gid, mode_t mode)
{
	struct stat	 st;

	if (mkdir(path, mode) == -1 && errno != EEXIST)
		fatal("mkdir %s", path);
	if (lstat(path, &st) == -1)
		fatal("lstat %s", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0)
		fatalx("%s: not a root-owned directory", path);
	if (chown(path, 0, gid) == -1 || chmod(path, mode) == -1)
		fatal("chown/chmod %s", path);
}

/*
 * The relay's chroot must be empty: anything in it is an attack
 * (must_be_empty).  The devpts directory may hold mount points a
 * supervisor that died left behind: PID 1 unmounted them (BindsTo=) but
 * the run directory's removal stops at a mount point still there at
 * that moment; they are removed, and one still mounted stays (EBUSY).
 */
static void
rundir_sweep(const char *path, int must_be_empty)
{
	DIR		*d;
	struct dirent	*de;

	if ((d = opendir(path)) == NULL)
		fatal("opendir %s", path);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (must_be_empty)
			fatalx("%s is not empty (%s)", path, de->d_name);
		if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == -1 &&
		    errno != EBUSY)
			log_warn("%s/%s", path, de->d_name);
	}
	closedir(d);
}

static void
rundir_make(void)
{
	rundir_own(OPTY_RUNDIR, parent->user_gid, 0750);
	rundir_own(OPTY_EMPTY_DIR, 0, 0555);
	rundir_sweep(OPTY_EMPTY_DIR, 1);
	/* Sessions' devpts mount points: root's alone (parent/pts.c). */
	rundir_own(OPTY_PTS_DIR, 0, 0700);
	rundir_sweep(OPTY_PTS_DIR, 0);
}

/* Only root and the group of the session user may connect. */
static int
relay_listen(void)
{
	struct sockaddr_un	 sun;
	mode_t			 old;
	int			 fd;

	_Static_assert(sizeof(OPTY_SOCKET_PATH) <= sizeof(sun.sun_path),
	    "the socket path fits sun_path");
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, OPTY_SOCKET_PATH, sizeof(OPTY_SOCKET_PATH));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1)
		fatal("socket");
	if (unlink(OPTY_SOCKET_PATH) == -1 && errno != ENOENT)
		fatal("unlink %s", OPTY_SOCKET_PATH);
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("bind %s", OPTY_SOCKET_PATH);
	umask(old);
	/* The directory is root:group 0750, so nobody else can swap it. */
	if (chown(OPTY_SOCKET_PATH, 0, parent->user_gid) == -1 ||
	    chmod(OPTY_SOCKET_PATH, 0660) == -1)
		fatal("chown/chmod %s", OPTY_SOCKET_PATH);
	if (listen(fd, 64) == -1)
		fatal("listen");
	return fd;
}

/* The relay alone keeps the listening socket: the parent never accepts. */
void
relayproc_start(int verbose)
{
	struct relayproc_args	 x;
	int			 ch[2];
	pid_t			 pid;

	memset(&x, 0, sizeof(x));
	relayproc_ids(&x);
	rundir_make();
	x.lfd = relay_listen();
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch) == -1)
		fatal("socketpair");
	x.chfd = ch[1];
	x.verbose = verbose;
	x.exefd = relayproc_open_verified();
	/*
	 * The relay's stderr is a journal stream of its own, opened here by
	 * the parent (the relay could not: no socket call after its drop),
	 * with the identifier opencode-pty-relay and the "<N>" level
	 * prefixes parsed; libsystemd creates the socket SOCK_CLOEXEC.
	 */
	if ((x.logfd = sd_journal_stream_fd(RELAY_IDENT, LOG_INFO, 1)) < 0)
		fatalx("relay journal stream: %s", strerror(-x.logfd));
	if ((pid = fork()) == -1)
		fatal("fork relay");
	if (pid == 0)
		relayproc_exec(&x);
	parent->relay_pid = pid;
	close(x.exefd);
	close(x.logfd);
	close(x.chfd);
	close(x.lfd);
	parent->relay_fd = ch[0];
	if (fcntl(parent->relay_fd, F_SETFL, O_NONBLOCK) == -1)
		fatal("fcntl");
}

/*
 * The channel closed: the relay is dying or dead.  This is how its death
 * is seen (its end closes as it exits; no SIGCHLD handler is needed):
 * say how it died, so the log tells a crash from a kill; a relay that
 * lingers is fatal all the same.
 */
void
relayproc_lost(const char *why)
{
	int	 status, i;

	for (i = 0; i < 100 && parent->relay_pid > 0; i++) {
		if (waitpid(parent->relay_pid, &status, WNOHANG) !=
		    parent->relay_pid) {
			usleep(10000);
			continue;
		}
		parent->relay_pid = -1;
		if (WIFSIGNALED(status))
			fatalx("relay killed by signal %d", WTERMSIG(status));
		fatalx("relay exited with status %d", WEXITSTATUS(status));
	}
	fatalx("relay %s", why);
}
