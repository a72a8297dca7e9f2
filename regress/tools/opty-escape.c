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
 *	opty-escape addkey desc			add a byk-readable "user" key
 *						to the user keyring, print its
 *						serial
 *	opty-escape mkipc key name		SysV shm and msg queue KEY and
 *						POSIX mqueue /NAME, mode 0600
 *	opty-escape rmipc key name		remove them again
 *	opty-escape revokekey serial		revoke the key addkey made
 *
 * Operations, one a line, words separated by single spaces:
 *	connect PATH		connect(2) a stream UNIX socket to PATH
 *				(@NAME: to the abstract name NAME)
 *	getfd PID FD		pidfd_open(PID) then pidfd_getfd(FD)
 *	ptrace PID		PTRACE_ATTACH, wait for the stop, detach
 *	vmread PID ADDR		process_vm_readv of 8 bytes at hex ADDR
 *	kill PID SIG		kill(2)
 * and for regress/it/78-sameuid.sh, each one harmless: it reads a
 * value and writes the same value back (or only opens, or only asks):
 *	prlimit PID		prlimit64 RLIMIT_NOFILE, read then set
 *	getprio WHICH WHO	getpriority (WHICH: process, pgrp, user)
 *	setprio WHICH WHO	getpriority, then setpriority to that
 *	setaffinity PID		sched_getaffinity, then set that mask
 *	setsched PID		sched_setscheduler with the current policy
 *	setattr PID		sched_getattr, then sched_setattr
 *	ioprio PID		ioprio_get, then ioprio_set to that
 *	migrate PID		migrate_pages from node 0 to node 0
 *	movepages PID ADDR	move_pages asking the node of ADDR's page
 *	madvise PID ADDR	process_madvise MADV_COLD on ADDR's page
 *	kcmp PID		kcmp KCMP_VM of this process and PID
 *	keyread SERIAL		keyctl KEYCTL_READ
 *	unshare-user		unshare(CLONE_NEWUSER) in a child
 *	read PATH		open and read one byte
 *	openw PATH		open O_WRONLY and close without writing
 *	write PATH VALUE	open O_WRONLY and write VALUE
 *	shmat KEY		shmget the existing KEY, shmat, shmdt
 *	msgq KEY		msgget the existing KEY, IPC_STAT
 *	mqopen NAME		mq_open the existing /NAME read-only
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
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <poll.h>
#include <sched.h>
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
/* <linux/ioprio.h>, <linux/kcmp.h>, <linux/keyctl.h>: no libc wrapper. */
#define IOPRIO_WHO_PROCESS_	1
#define KCMP_VM_		1
#define KEY_SPEC_SESSION_KEYRING_ (-3)
#define KEY_SPEC_USER_KEYRING_	(-4)
#define KEYCTL_LINK_		8
#define KEYCTL_REVOKE_		3
#define KEYCTL_SETPERM_		5
#define KEYCTL_READ_		11
/* Possessor and user: all; group and other: nothing. */
#define KEY_PERM_BYK		0x3f3f0000U
/*
 * sched_setattr(2)'s struct, version 1 (56 bytes), and its flags: what
 * the kernel gives back is written back as it is but for these two.
 */
struct esc_sched_attr {
	uint32_t	size;
	/* policy; then nice, priority, runtime, deadline, period, clamps. */
	/* cppcheck-suppress unusedStructMember */
	uint32_t	policy;
	uint64_t	flags;
	/* cppcheck-suppress unusedStructMember */
	uint32_t	rest[10];
};
#define SCHED_FLAG_RESET_ON_FORK_	0x01

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
	    "listen path | abi | addkey desc | mkipc|rmipc key name\n");
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

/* A hex address, as vmread takes it. */
static void *
hexaddr(const char *addr)
{
	unsigned long long	 a;
	char			*end;

	errno = 0;
	a = strtoull(addr, &end, 16);
	if (errno != 0 || end == addr || *end != '\0') {
		fprintf(stderr, "opty-escape: bad address '%s'\n", addr);
		exit(2);
	}
	return (void *)(uintptr_t)a;
}

static int
op_prlimit(int pid)
{
	struct rlimit	rl;

	if (prlimit(pid, RLIMIT_NOFILE, NULL, &rl) == -1)
		return -1;
	return prlimit(pid, RLIMIT_NOFILE, &rl, NULL);
}

static int
prio_which(const char *w)
{
	if (strcmp(w, "process") == 0)
		return PRIO_PROCESS;
	if (strcmp(w, "pgrp") == 0)
		return PRIO_PGRP;
	if (strcmp(w, "user") == 0)
		return PRIO_USER;
	fprintf(stderr, "opty-escape: bad priority class '%s'\n", w);
	exit(2);
}

/* getpriority(2) returns the nice value: -1 is one, if errno stays 0. */
static int
op_prio(const char *which, int who, int set)
{
	int	w = prio_which(which), nice;

	errno = 0;
	nice = getpriority(w, (id_t)who);
	if (nice == -1 && errno != 0)
		return -1;
	if (!set)
		return 0;
	return setpriority(w, (id_t)who, nice);
}

static int
op_affinity(int pid)
{
	cpu_set_t	set;

	if (sched_getaffinity(pid, sizeof(set), &set) == -1)
		return -1;
	return sched_setaffinity(pid, sizeof(set), &set);
}

static int
op_setsched(int pid)
{
	struct sched_param	sp;
	int			pol;

	if ((pol = sched_getscheduler(pid)) == -1 ||
	    sched_getparam(pid, &sp) == -1)
		return -1;
	return sched_setscheduler(pid, pol, &sp);
}

/* The utilisation clamps are left as they are (their flags cleared). */
static int
op_setattr(int pid)
{
	struct esc_sched_attr	a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, pid, &a, sizeof(a), 0) == -1)
		return -1;
	a.size = sizeof(a);
	a.flags &= SCHED_FLAG_RESET_ON_FORK_;
	return (int)syscall(SYS_sched_setattr, pid, &a, 0);
}

static int
op_ioprio(int pid)
{
	long	v;

	if ((v = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS_, pid)) == -1)
		return -1;
	return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS_, pid, v);
}

/* From node 0 to node 0: the kernel checks, then has nothing to move. */
static int
op_migrate(int pid)
{
	unsigned long	nodes = 1;

	return (int)syscall(SYS_migrate_pages, pid, 8 * sizeof(nodes),
	    &nodes, &nodes);
}

/* No target nodes: move_pages(2) only reports where the page is. */
static int
op_movepages(int pid, const char *addr)
{
	void	*page = hexaddr(addr);
	int	 status = 0;

	return (int)syscall(SYS_move_pages, pid, 1UL, &page, NULL, &status,
	    0);
}

static int
op_madvise(int pid, const char *addr)
{
	struct iovec	iov;
	int		pfd, r, e;

	iov.iov_base = hexaddr(addr);
	iov.iov_len = (size_t)sysconf(_SC_PAGESIZE);
	if ((pfd = (int)syscall(SYS_pidfd_open, pid, 0)) == -1)
		return -1;
	r = (int)syscall(SYS_process_madvise, pfd, &iov, 1UL, MADV_COLD, 0U);
	e = errno;
	close(pfd);
	errno = e;
	return r == -1 ? -1 : 0;
}

static int
op_kcmp(int pid)
{
	return syscall(SYS_kcmp, getpid(), pid, KCMP_VM_, 0UL, 0UL) == -1 ?
	    -1 : 0;
}

static int
op_keyread(const char *serial)
{
	char	buf[64];

	return syscall(SYS_keyctl, KEYCTL_READ_, num(serial), buf,
	    sizeof(buf)) == -1 ? -1 : 0;
}

/* In a child: a new user namespace would change this process's view. */
static int
op_unshare_user(void)
{
	pid_t	pid;
	int	st;

	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) == -1 ? errno : 0);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(st))
		die("unshare child");
	errno = WEXITSTATUS(st);
	return errno == 0 ? 0 : -1;
}

/* Opens PATH with FLAGS; reads one byte or writes VALUE if asked. */
static int
op_file(const char *path, int flags, const char *value)
{
	char	c;
	ssize_t	n = 0;
	int	fd, e;

	if ((fd = open(path, flags | O_CLOEXEC | O_NOCTTY)) == -1)
		return -1;
	if (flags == O_RDONLY)
		n = read(fd, &c, 1);
	else if (value != NULL)
		n = write(fd, value, strlen(value));
	e = errno;
	close(fd);
	errno = e;
	return n == -1 ? -1 : 0;
}

static int
op_shmat(const char *key)
{
	void	*p;
	int	 id;

	if ((id = shmget((key_t)num(key), 0, 0)) == -1 ||
	    (p = shmat(id, NULL, SHM_RDONLY)) == (void *)-1)
		return -1;
	return shmdt(p);
}

static int
op_msgq(const char *key)
{
	struct msqid_ds	ds;
	int		id;

	if ((id = msgget((key_t)num(key), 0)) == -1)
		return -1;
	return msgctl(id, IPC_STAT, &ds);
}

static int
op_mqopen(const char *name)
{
	mqd_t	q;

	if ((q = mq_open(name, O_RDONLY)) == (mqd_t)-1)
		return -1;
	return mq_close(q);
}

static int
run_op_sameuid(int n, char **w)
{
	if (n == 2 && strcmp(w[0], "prlimit") == 0)
		return op_prlimit(num(w[1]));
	if (n == 3 && strcmp(w[0], "getprio") == 0)
		return op_prio(w[1], num(w[2]), 0);
	if (n == 3 && strcmp(w[0], "setprio") == 0)
		return op_prio(w[1], num(w[2]), 1);
	if (n == 2 && strcmp(w[0], "setaffinity") == 0)
		return op_affinity(num(w[1]));
	if (n == 2 && strcmp(w[0], "setsched") == 0)
		return op_setsched(num(w[1]));
	if (n == 2 && strcmp(w[0], "setattr") == 0)
		return op_setattr(num(w[1]));
	if (n == 2 && strcmp(w[0], "ioprio") == 0)
		return op_ioprio(num(w[1]));
	if (n == 2 && strcmp(w[0], "migrate") == 0)
		return op_migrate(num(w[1]));
	if (n == 3 && strcmp(w[0], "movepages") == 0)
		return op_movepages(num(w[1]), w[2]);
	if (n == 3 && strcmp(w[0], "madvise") == 0)
		return op_madvise(num(w[1]), w[2]);
	if (n == 2 && strcmp(w[0], "kcmp") == 0)
		return op_kcmp(num(w[1]));
	if (n == 2 && strcmp(w[0], "keyread") == 0)
		return op_keyread(w[1]);
	if (n == 1 && strcmp(w[0], "unshare-user") == 0)
		return op_unshare_user();
	if (n == 2 && strcmp(w[0], "read") == 0)
		return op_file(w[1], O_RDONLY, NULL);
	if (n == 2 && strcmp(w[0], "openw") == 0)
		return op_file(w[1], O_WRONLY, NULL);
	if (n == 3 && strcmp(w[0], "write") == 0)
		return op_file(w[1], O_WRONLY, w[2]);
	if (n == 2 && strcmp(w[0], "shmat") == 0)
		return op_shmat(w[1]);
	if (n == 2 && strcmp(w[0], "msgq") == 0)
		return op_msgq(w[1]);
	if (n == 2 && strcmp(w[0], "mqopen") == 0)
		return op_mqopen(w[1]);
	fprintf(stderr, "opty-escape: bad operation\n");
	exit(2);
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
	return run_op_sameuid(n, w);
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

/*
 * A "user" key in the user keyring that every byk process may read by
 * its serial (printed), as a program that keeps a token there would.
 */
static void __attribute__((noreturn))
add_key_mode(const char *desc)
{
	long	k;

	/*
	 * Made in the session keyring, where this process possesses it and
	 * so may set its permissions, then linked into the user keyring,
	 * which outlives this service.
	 */
	k = syscall(SYS_add_key, "user", desc, "opty-sameuid-secret", 19,
	    KEY_SPEC_SESSION_KEYRING_);
	if (k == -1)
		die("add_key");
	if (syscall(SYS_keyctl, KEYCTL_SETPERM_, k, KEY_PERM_BYK) == -1)
		die("KEYCTL_SETPERM");
	if (syscall(SYS_keyctl, KEYCTL_LINK_, k, KEY_SPEC_USER_KEYRING_) == -1)
		die("KEYCTL_LINK");
	printf("%ld\n", k);
	exit(0);
}

static void __attribute__((noreturn))
ipc_mode(int make, const char *key, const char *name)
{
	struct mq_attr	qa;
	int		id, fl = make ? IPC_CREAT | 0600 : 0;
	mqd_t		q;

	if ((id = shmget((key_t)num(key), 4096, fl)) == -1)
		die("shmget");
	if (!make && shmctl(id, IPC_RMID, NULL) == -1)
		die("shmctl IPC_RMID");
	if ((id = msgget((key_t)num(key), fl)) == -1)
		die("msgget");
	if (!make && msgctl(id, IPC_RMID, NULL) == -1)
		die("msgctl IPC_RMID");
	if (!make) {
		if (mq_unlink(name) == -1)
			die("mq_unlink");
		exit(0);
	}
	memset(&qa, 0, sizeof(qa));
	qa.mq_maxmsg = 1;
	qa.mq_msgsize = 16;
	if ((q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &qa)) ==
	    (mqd_t)-1)
		die("mq_open");
	mq_close(q);
	exit(0);
}

int
main(int argc, char *argv[])
{
	const char	*waitfile = NULL, *ops = NULL;
	long		 abi;
	int		 ch;

	if (argc == 3 && strcmp(argv[1], "listen") == 0)
		listen_on(argv[2]);
	if (argc == 3 && strcmp(argv[1], "addkey") == 0)
		add_key_mode(argv[2]);
	if (argc == 3 && strcmp(argv[1], "revokekey") == 0) {
		if (syscall(SYS_keyctl, KEYCTL_REVOKE_, num(argv[2])) == -1)
			die("KEYCTL_REVOKE");
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "mkipc") == 0)
		ipc_mode(1, argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "rmipc") == 0)
		ipc_mode(0, argv[2], argv[3]);
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
