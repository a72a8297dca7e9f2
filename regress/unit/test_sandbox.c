/*
 * test_sandbox.c: proves the relay's sandbox (relay/sandbox.c) from the
 * outside.  Runs as root (it must: the drop starts from root); each
 * check forks a child that calls relay_sandbox() on an empty root-owned
 * directory as "nobody" and then does one thing.  Not root is a
 * failure with a message, never a skip.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "proto/log.h"
#include "relay/sandbox.h"

static char	sbx_dir[] = "/tmp/opty-sandbox.XXXXXX";
static pid_t	sbx_other;		/* a pid the child may not signal */
static uid_t	sbx_uid;		/* nobody's ids, as the parent passes */
static gid_t	sbx_gid;
static char	sbx_probe_dir[] = "/tmp/opty-sandbox-probe.XXXXXX";
static int	sbx_dirfd = -1;		/* a directory opened before the drop */
#define SBX_PROBE	"name"		/* a file in it */

static int
setup(void **state)
{
	struct passwd	*pw;
	int		 fd;

	(void)state;
	if (geteuid() != 0) {
		fprintf(stderr, "test_sandbox: must run as root: the sandbox "
		    "drop starts from root (run it with sudo)\n");
		return -1;
	}
	if ((pw = getpwnam("nobody")) == NULL) {
		fprintf(stderr, "test_sandbox: no user nobody\n");
		return -1;
	}
	sbx_uid = pw->pw_uid;
	sbx_gid = pw->pw_gid;
	if (mkdtemp(sbx_dir) == NULL || chown(sbx_dir, 0, 0) == -1 ||
	    chmod(sbx_dir, 0555) == -1) {
		fprintf(stderr, "test_sandbox: %s: %s\n", sbx_dir,
		    strerror(errno));
		return -1;
	}
	if (mkdtemp(sbx_probe_dir) == NULL || (sbx_dirfd = open(sbx_probe_dir,
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (fd = openat(sbx_dirfd, SBX_PROBE, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0644)) == -1) {
		fprintf(stderr, "test_sandbox: %s: %s\n", sbx_probe_dir,
		    strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rmdir(sbx_dir);
	if (sbx_dirfd != -1) {
		(void)unlinkat(sbx_dirfd, SBX_PROBE, 0);
		close(sbx_dirfd);
	}
	rmdir(sbx_probe_dir);
	return 0;
}

/* Forks; the child sandboxes itself and runs fn, whose value is exit. */
static int
run_sandboxed(int (*fn)(void *), void *arg)
{
	pid_t	pid;
	int	status;

	sbx_other = getpid();
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		relay_sandbox(sbx_dir, sbx_uid, sbx_gid);
		_exit(fn(arg));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void
assert_killed_by_sigsys(int status, const char *what)
{
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSYS)
		fail_msg("%s: expected death by SIGSYS, got %s %d", what,
		    WIFSIGNALED(status) ? "signal" : "exit",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
}

static int
try_openat(void *arg)
{
	(void)arg;
	syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY);
	return 100;
}

static int
try_open_libc(void *arg)
{
	(void)arg;
	/* The child dies by SIGSYS in this call: nothing to keep. */
	/* cppcheck-suppress leakReturnValNotUsed */
	(void)open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	return 100;
}

static int
try_socket(void *arg)
{
	(void)arg;
	syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	return 100;
}

static int
try_connect(void *arg)
{
	(void)arg;
	syscall(SYS_connect, 0, NULL, 0);
	return 100;
}

static int
try_execve(void *arg)
{
	char	*const argv[] = { "true", NULL };

	(void)arg;
	syscall(SYS_execve, "/bin/true", argv, argv + 1);
	return 100;
}

static int
try_ptrace(void *arg)
{
	(void)arg;
	syscall(SYS_ptrace, PTRACE_TRACEME, 0, NULL, NULL);
	return 100;
}

static int
try_setuid(void *arg)
{
	(void)arg;
	syscall(SYS_setuid, 0);
	return 100;
}

static int
try_mount(void *arg)
{
	(void)arg;
	syscall(SYS_mount, "none", "/", "tmpfs", 0, NULL);
	return 100;
}

static int
try_kill(void *arg)
{
	(void)arg;
	syscall(SYS_kill, sbx_other, 0);
	return 100;
}

static int
try_bpf(void *arg)
{
	(void)arg;
	syscall(SYS_bpf, 0, NULL, 0);
	return 100;
}

static int
try_fork(void *arg)
{
	(void)arg;
	syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	return 100;
}

static int
try_mmap_exec(void *arg)
{
	(void)arg;
	/* The child dies by SIGSYS in this call: nothing to keep. */
	/* cppcheck-suppress leakReturnValNotUsed */
	(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return 100;
}

static int
try_mprotect_exec(void *arg)
{
	void	*p = arg;

	mprotect(p, 4096, PROT_READ | PROT_EXEC);
	return 100;
}

static int
try_fcntl(void *arg)
{
	(void)arg;
	syscall(SYS_fcntl, 0, F_GETFL);
	return 100;
}

/* Every ioctl but TIOCSWINSZ: TIOCSTI would type into a terminal. */
static int
try_ioctl_tiocsti(void *arg)
{
	char	c = 'x';

	(void)arg;
	syscall(SYS_ioctl, 0, TIOCSTI, &c);
	return 100;
}

static int
try_ioctl_tcgets(void *arg)
{
	struct termios	t;

	(void)arg;
	syscall(SYS_ioctl, 0, TCGETS, &t);
	return 100;
}

static int
try_ioctl_fionbio(void *arg)
{
	int	on = 1;

	(void)arg;
	syscall(SYS_ioctl, 0, FIONBIO, &on);
	return 100;
}

/*
 * Path-taking calls on a directory descriptor opened before the drop
 * (as the relay holds a client's directory for a moment): none may
 * read metadata beside it.  test_path_probe_control shows the same
 * probes succeed outside the filter.
 */
static int
try_newfstatat_name(void *arg)
{
	struct stat	st;

	(void)arg;
	syscall(SYS_newfstatat, sbx_dirfd, SBX_PROBE, &st, 0);
	return 100;
}

/* AT_EMPTY_PATH with a non-empty name still resolves the name. */
static int
try_newfstatat_emptypath_name(void *arg)
{
	struct stat	st;

	(void)arg;
	syscall(SYS_newfstatat, sbx_dirfd, SBX_PROBE, &st, AT_EMPTY_PATH);
	return 100;
}

static int
try_fstat_libc(void *arg)
{
	struct stat	st;

	(void)arg;
	(void)fstat(sbx_dirfd, &st);
	return 100;
}

static int
try_statx(void *arg)
{
	struct statx	stx;

	(void)arg;
	syscall(SYS_statx, sbx_dirfd, SBX_PROBE, 0, STATX_BASIC_STATS, &stx);
	return 100;
}

static int
try_readlinkat(void *arg)
{
	char	buf[64];

	(void)arg;
	syscall(SYS_readlinkat, sbx_dirfd, SBX_PROBE, buf, sizeof(buf));
	return 100;
}

static int
try_faccessat(void *arg)
{
	(void)arg;
	syscall(SYS_faccessat, sbx_dirfd, SBX_PROBE, F_OK);
	return 100;
}

struct forbidden {
	const char	*name;
	int		(*fn)(void *);
};

static const struct forbidden forbidden[] = {
	{ "openat", try_openat },
	{ "open (libc)", try_open_libc },
	{ "socket", try_socket },
	{ "connect", try_connect },
	{ "execve", try_execve },
	{ "ptrace", try_ptrace },
	{ "setuid(0)", try_setuid },
	{ "mount", try_mount },
	{ "kill(other pid)", try_kill },
	{ "bpf", try_bpf },
	{ "clone (fork)", try_fork },
	{ "mmap PROT_EXEC", try_mmap_exec },
	{ "fcntl", try_fcntl },
	{ "ioctl TIOCSTI", try_ioctl_tiocsti },
	{ "ioctl TCGETS", try_ioctl_tcgets },
	{ "ioctl FIONBIO", try_ioctl_fionbio },
	{ "newfstatat(dirfd, name, 0)", try_newfstatat_name },
	{ "newfstatat(dirfd, name, AT_EMPTY_PATH)",
	    try_newfstatat_emptypath_name },
	{ "fstat (libc: newfstatat AT_EMPTY_PATH)", try_fstat_libc },
	{ "statx(dirfd, name)", try_statx },
	{ "readlinkat(dirfd, name)", try_readlinkat },
	{ "faccessat(dirfd, name)", try_faccessat },
};

/*
 * Positive control: outside the filter the same probes find the file
 * beside the descriptor, so the SIGSYS above is the filter's doing.
 */
static void
test_path_probe_control(void **state)
{
	struct stat	st;
	struct statx	stx;

	(void)state;
	assert_int_equal(syscall(SYS_newfstatat, sbx_dirfd, SBX_PROBE, &st,
	    0), 0);
	assert_int_equal(syscall(SYS_newfstatat, sbx_dirfd, SBX_PROBE, &st,
	    AT_EMPTY_PATH), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(syscall(SYS_statx, sbx_dirfd, SBX_PROBE, 0,
	    STATX_BASIC_STATS, &stx), 0);
	assert_int_equal(syscall(SYS_faccessat, sbx_dirfd, SBX_PROBE, F_OK),
	    0);
}

/* Every one of these is stopped by the filter itself: SIGSYS. */
static void
test_forbidden_calls_kill(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++)
		assert_killed_by_sigsys(run_sandboxed(forbidden[i].fn, NULL),
		    forbidden[i].name);
}

static void
test_mprotect_exec_kills(void **state)
{
	void	*p;

	(void)state;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_killed_by_sigsys(run_sandboxed(try_mprotect_exec, p),
	    "mprotect PROT_EXEC");
	munmap(p, 4096);
}

struct allowed_ctx {
	int			 master;	/* a PTY master */
	int			 pipefd[2];
	int			 sp[2];
	struct event_base	*base;
	struct event		*ev;
	int			 fired;
};

static void
allowed_cb(int fd, short what, void *arg)
{
	struct allowed_ctx	*c = arg;

	(void)fd;
	if (what & EV_READ)
		c->fired = 1;
}

static int
do_allowed(void *arg)
{
	struct allowed_ctx	*c = arg;
	struct msghdr		 mh;
	struct iovec		 iov;
	char			 b = 'x', r = 0;
	void			*big;
	struct winsize		 ws = { 30, 100, 0, 0 };

	if (write(c->pipefd[1], "x", 1) != 1)
		return 1;
	/* The relay's one ioctl, on a PTY master made before the drop. */
	if (ioctl(c->master, TIOCSWINSZ, &ws) == -1)
		return 7;
	if (read(c->master, &r, 0) != 0)
		return 8;
	/* A log line is one write(2): no stat, seek or ioctl first. */
	log_info("test_sandbox: a log line from inside the filter");
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = &b;
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (sendmsg(c->sp[0], &mh, 0) != 1)
		return 2;
	iov.iov_base = &r;
	if (recvmsg(c->sp[1], &mh, 0) != 1 || r != 'x')
		return 3;
	if (event_add(c->ev, NULL) == -1)
		return 4;
	if (event_base_loop(c->base, EVLOOP_ONCE) == -1 || !c->fired)
		return 5;
	/* Large enough for malloc to use mmap, then munmap. */
	if ((big = malloc(1 << 20)) == NULL)
		return 6;
	memset(big, 1, 1 << 20);
	free(big);
	return 0;
}

static void
test_allowed_calls_work(void **state)
{
	struct allowed_ctx	c;
	int			status;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_true((c.master = posix_openpt(O_RDWR | O_NOCTTY |
	    O_CLOEXEC)) != -1);
	assert_int_equal(pipe2(c.pipefd, O_CLOEXEC), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    c.sp), 0);
	assert_non_null(c.base = event_base_new());
	assert_non_null(c.ev = event_new(c.base, c.pipefd[0], EV_READ,
	    allowed_cb, &c));
	status = run_sandboxed(do_allowed, &c);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("allowed calls: status %#x (exit %d = failing step)",
		    status, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	event_free(c.ev);
	event_base_free(c.base);
	close(c.pipefd[0]);
	close(c.pipefd[1]);
	close(c.sp[0]);
	close(c.sp[1]);
	close(c.master);
}

/* The child reports ready, then waits for the parent to look at it. */
static int
do_wait(void *arg)
{
	int	fd = *(int *)arg;
	char	b = 'r';

	if (send(fd, &b, 1, 0) != 1)
		return 1;
	if (recv(fd, &b, 1, 0) != 1)
		return 2;
	return 0;
}

static char *
status_field(const char *status, const char *name)
{
	static char	 val[256];
	const char	*p, *e;
	size_t		 nlen = strlen(name);

	for (p = status; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, name, nlen) == 0 && p[nlen] == ':') {
			p += nlen + 1;
			p += strspn(p, "\t ");
			e = strchr(p, '\n');
			if (e == NULL)
				e = p + strlen(p);
			snprintf(val, sizeof(val), "%.*s", (int)(e - p), p);
			return val;
		}
	}
	fail_msg("no %s in status", name);
	return NULL;
}

static void
check_status(pid_t pid)
{
	char		 path[64], buf[8192], want[128], root[PATH_MAX];
	struct passwd	*pw = getpwnam("nobody");
	const char	*caps[] = { "CapInh", "CapPrm", "CapEff", "CapBnd",
			    "CapAmb" };
	ssize_t		 n;
	size_t		 i;
	int		 fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	assert_true((fd = open(path, O_RDONLY | O_CLOEXEC)) != -1);
	assert_true((n = read(fd, buf, sizeof(buf) - 1)) > 0);
	buf[n] = '\0';
	close(fd);

	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", (unsigned)pw->pw_uid,
	    (unsigned)pw->pw_uid, (unsigned)pw->pw_uid, (unsigned)pw->pw_uid);
	assert_string_equal(status_field(buf, "Uid"), want);
	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", (unsigned)pw->pw_gid,
	    (unsigned)pw->pw_gid, (unsigned)pw->pw_gid, (unsigned)pw->pw_gid);
	assert_string_equal(status_field(buf, "Gid"), want);
	assert_string_equal(status_field(buf, "Groups"), "");
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		assert_string_equal(status_field(buf, caps[i]),
		    "0000000000000000");
	assert_string_equal(status_field(buf, "NoNewPrivs"), "1");
	assert_string_equal(status_field(buf, "Seccomp"), "2");

	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	assert_true((n = readlink(path, root, sizeof(root) - 1)) > 0);
	root[n] = '\0';
	assert_string_equal(root, sbx_dir);
}

static void
test_status_after_drop(void **state)
{
	int	sp[2], status;
	pid_t	pid;
	char	b;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		close(sp[0]);
		relay_sandbox(sbx_dir, sbx_uid, sbx_gid);
		_exit(do_wait(&sp[1]));
	}
	close(sp[1]);
	assert_int_equal(recv(sp[0], &b, 1, 0), 1);
	check_status(pid);
	b = 'g';
	assert_int_equal(send(sp[0], &b, 1, 0), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(sp[0]);
}

/* Root's uid or root's gid never gets a sandbox: exit 1, no drop. */
static void
test_root_ids_fatal(void **state)
{
	pid_t	pid;
	int	status, i;

	(void)state;
	for (i = 0; i < 2; i++) {
		pid = fork();
		assert_true(pid != -1);
		if (pid == 0) {
			relay_sandbox(sbx_dir, i == 0 ? 0 : sbx_uid,
			    i == 0 ? sbx_gid : 0);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_probe_control),
		cmocka_unit_test(test_forbidden_calls_kill),
		cmocka_unit_test(test_mprotect_exec_kills),
		cmocka_unit_test(test_allowed_calls_work),
		cmocka_unit_test(test_status_after_drop),
		cmocka_unit_test(test_root_ids_fatal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
