/*
 * opty-escape.c: a FORGED ATTACKER, test-only, never installed.  Run as
 * byk, inside a session unit (the attack) and in an unrelated byk
 * service (the positive control), it tries to reach what lies outside
 * the session: sockets by any path, and other processes by pidfd_getfd,
 * ptrace, process_vm_readv and kill.  It trusts its command line and
 * its operations file; regress/it/72-isolation.sh drives it.
 *
 *	opty-escape [-w file] -f opsfile	run each operation line
 *	opty-escape listen path			fake daemon (root)
 *	opty-escape abi				print the Landlock ABI
 *
 * Operations, one a line, words separated by single spaces:
 *	connect PATH		connect(2) a stream UNIX socket to PATH
 *				(@NAME: to the abstract name NAME)
 *	getfd PID FD		pidfd_open(PID) then pidfd_getfd(FD)
 *	ptrace PID		PTRACE_ATTACH, wait for the stop, detach
 *	vmread PID ADDR		process_vm_readv of 8 bytes at hex ADDR
 *	kill PID SIG		kill(2)
 * For each it prints the line, then " ok" or " err ENAME" (the errno's
 * name), so the same file run inside and outside compares line by line.
 *
 * -w waits (inotify, no polling) until the file exists, up to 120 s, so
 * that the test can start a session and prepare the targets before the
 * attack.  listen binds PATH (unlinking a socket already there) and
 * makes it connectable by anyone, or binds the abstract @NAME; then it
 * tells systemd READY=1 and accepts and closes connections until
 * killed: a stand-in for the Docker daemon or any other local service.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/inotify.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS		120000
#define LINE_MAX_OP	1024
/* The kernel headers of Debian 12 predate these numbers. */
#define LL_CREATE_RULESET	444
#define LL_CREATE_RULESET_VERSION	1U

static void __attribute__((noreturn))
die(const char *what)
{
	fprintf(stderr, "opty-escape: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: opty-escape [-w file] -f opsfile | "
	    "listen path | abi\n");
	exit(2);
}

/* A decimal pid or signal; anything else ends the run. */
static int
num(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > INT_MAX) {
		fprintf(stderr, "opty-escape: bad number '%s'\n", s);
		exit(2);
	}
	return (int)v;
}

/*
 * The address of PATH, or of an abstract name if PATH starts with '@';
 * its length, or -1.
 */
static socklen_t
fill_sun(struct sockaddr_un *sun, const char *path)
{
	size_t	len = strlen(path);

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (len >= sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return (socklen_t)-1;
	}
	memcpy(sun->sun_path, path, len);
	if (path[0] == '@') {
		sun->sun_path[0] = '\0';
		return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	}
	return (socklen_t)sizeof(*sun);
}

/* Each operation returns 0 if it reached its target, else -1 with errno. */
static int
op_connect(const char *path)
{
	struct sockaddr_un	 sun;
	socklen_t		 len;
	int			 fd, r, e;

	if ((len = fill_sun(&sun, path)) == (socklen_t)-1)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	r = connect(fd, (struct sockaddr *)&sun, len);
	e = errno;
	close(fd);
	errno = e;
	return r;
}

static int
op_getfd(int pid, int tfd)
{
	int	pfd, fd, e;

	if ((pfd = (int)syscall(SYS_pidfd_open, pid, 0)) == -1)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pfd, tfd, 0);
	e = errno;
	close(pfd);
	if (fd == -1) {
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

/* Attach, wait for the attach's SIGSTOP and detach, suppressing it. */
static int
op_ptrace(int pid)
{
	int	st;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == -1)
		return -1;
	while (waitpid(pid, &st, __WALL) == -1)
		if (errno != EINTR)
			die("waitpid");
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) == -1)
		die("PTRACE_DETACH");
	return 0;
}

static int
op_vmread(int pid, const char *addr)
{
	struct iovec		 local, remote;
	unsigned long long	 a;
	char			 buf[8], *end;

	errno = 0;
	a = strtoull(addr, &end, 16);
	if (errno != 0 || end == addr || *end != '\0') {
		fprintf(stderr, "opty-escape: bad address '%s'\n", addr);
		exit(2);
	}
	local.iov_base = buf;
	local.iov_len = sizeof(buf);
	remote.iov_base = (void *)(uintptr_t)a;
	remote.iov_len = sizeof(buf);
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) == -1)
		return -1;
	return 0;
}

static int
run_op(char *line)
{
	char	*w[4];
	int	 n;

	for (n = 0; n < 4 && (w[n] = strsep(&line, " ")) != NULL; n++)
		;
	if (line != NULL)
		n = -1;
	if (n == 2 && strcmp(w[0], "connect") == 0)
		return op_connect(w[1]);
	if (n == 3 && strcmp(w[0], "getfd") == 0)
		return op_getfd(num(w[1]), num(w[2]));
	if (n == 2 && strcmp(w[0], "ptrace") == 0)
		return op_ptrace(num(w[1]));
	if (n == 3 && strcmp(w[0], "vmread") == 0)
		return op_vmread(num(w[1]), w[2]);
	if (n == 3 && strcmp(w[0], "kill") == 0)
		return kill(num(w[1]), num(w[2]));
	fprintf(stderr, "opty-escape: bad operation\n");
	exit(2);
}

static void
run_ops(const char *file)
{
	FILE	*f;
	char	 line[LINE_MAX_OP], copy[LINE_MAX_OP];
	size_t	 len;

	if ((f = fopen(file, "re")) == NULL)
		die(file);
	while (fgets(line, sizeof(line), f) != NULL) {
		len = strlen(line);
		if (len == 0 || line[len - 1] != '\n') {
			fprintf(stderr, "opty-escape: line too long\n");
			exit(2);
		}
		line[len - 1] = '\0';
		memcpy(copy, line, len);
		errno = 0;
		if (run_op(line) == 0)
			printf("%s ok\n", copy);
		else
			printf("%s err %s\n", copy, strerrorname_np(errno) ?
			    strerrorname_np(errno) : "?");
		if (fflush(stdout) == EOF)
			die("stdout");
	}
	if (ferror(f))
		die(file);
	(void)fclose(f);
}

static long long
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until FILE exists: a watch on its directory, then a check. */
static void
wait_file(const char *file)
{
	struct pollfd	 pfd;
	char		 dir[PATH_MAX], buf[4096], *slash;
	long long	 end, left;
	int		 fd;

	if (strlen(file) >= sizeof(dir))
		usage();
	memcpy(dir, file, strlen(file) + 1);
	if ((slash = strrchr(dir, '/')) == NULL)
		memcpy(dir, ".", 2);
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if ((fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK)) == -1)
		die("inotify_init1");
	if (inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO) == -1)
		die(dir);
	end = now_ms() + WAIT_MS;
	while (access(file, F_OK) == -1) {
		if ((left = end - now_ms()) <= 0) {
			fprintf(stderr, "opty-escape: %s did not appear\n",
			    file);
			exit(3);
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) == -1 && errno != EINTR)
			die("poll");
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	}
	close(fd);
}

/* READY=1 to $NOTIFY_SOCKET, a path or an abstract name ('@'). */
static void
notify_ready(void)
{
	struct sockaddr_un	 sun;
	const char		*p;
	socklen_t		 len;
	int			 fd;

	if ((p = getenv("NOTIFY_SOCKET")) == NULL)
		return;
	if ((len = fill_sun(&sun, p)) == (socklen_t)-1)
		die("NOTIFY_SOCKET");
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	if (sendto(fd, "READY=1", 7, 0, (struct sockaddr *)&sun, len) != 7)
		die("sendto NOTIFY_SOCKET");
	close(fd);
}

static void __attribute__((noreturn))
listen_on(const char *path)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	socklen_t		 len;
	int			 fd, c;

	if ((len = fill_sun(&sun, path)) == (socklen_t)-1)
		die(path);
	if (path[0] != '@' && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    unlink(path) == -1)
		die(path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	if (bind(fd, (struct sockaddr *)&sun, len) == -1)
		die(path);
	if ((path[0] != '@' && chmod(path, 0666) == -1) || listen(fd, 64) == -1)
		die(path);
	notify_ready();
	for (;;) {
		/* accept4(2) takes a NULL addrlen with a NULL addr. */
		/* cppcheck-suppress nullPointer */
		if ((c = accept4(fd, NULL, NULL, SOCK_CLOEXEC)) == -1) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			die("accept4");
		}
		close(c);
	}
}

int
main(int argc, char *argv[])
{
	const char	*waitfile = NULL, *ops = NULL;
	long		 abi;
	int		 ch;

	if (argc == 3 && strcmp(argv[1], "listen") == 0)
		listen_on(argv[2]);
	if (argc == 2 && strcmp(argv[1], "abi") == 0) {
		abi = syscall(LL_CREATE_RULESET, NULL, 0,
		    LL_CREATE_RULESET_VERSION);
		if (abi == -1)
			die("landlock_create_ruleset");
		printf("%ld\n", abi);
		return 0;
	}
	while ((ch = getopt(argc, argv, "f:w:")) != -1) {
		switch (ch) {
		case 'f': ops = optarg; break;
		case 'w': waitfile = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || ops == NULL)
		usage();
	if (waitfile != NULL)
		wait_file(waitfile);
	run_ops(ops);
	return 0;
}
