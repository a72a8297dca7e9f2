/*
 * test_launcher.c: cmocka tests of the launcher's parts: the encoded
 * argv (count, decode), the fixed-PATH lookup, the fixed environment,
 * the session-user check, the terminal on fd 0/1 (one PTY, made the
 * controlling terminal in forked children), the re-anchoring of the
 * directory, and the Landlock domain (entered in forked children, each
 * refusal next to the same probe succeeding from outside), and the
 * system call filter (each refusal of another process next to the same
 * call on the caller itself and the control without the filter).
 * launcher/command.c and launcher/reanchor.c are compiled in, for their
 * static parts.  Runs as any user on a kernel with Landlock (none is a
 * failure); the file tests work in private directories under $TMPDIR or
 * /tmp.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): its parts are static */
#include "launcher/command.c"
/* NOLINTNEXTLINE(bugprone-suspicious-include): so are these */
#include "launcher/reanchor.c"

#include "launcher/launcher.h"
#include "proto/argcodec.h"
#include "proto/cmsgfd.h"
#include "proto/dirtake.h"

static char	*many[START_MAX_ARGS + 2];

static void
fill_many(int n, char *v)
{
	int	i;

	for (i = 0; i < n; i++)
		many[i] = v;
	many[n] = NULL;
}

static void
test_args_count_zero(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(0, "a");
	assert_int_equal(args_check(0, many, &af), -1);
	assert_int_equal(af.index, -1);
}

static void
test_args_count_129(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(START_MAX_ARGS + 1, "aZm9v");
	assert_int_equal(args_check(START_MAX_ARGS + 1, many, &af), -1);
	assert_int_equal(af.index, -1);
}

static void
test_args_count_bounds_ok(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(START_MAX_ARGS, "aZm9v");
	assert_int_equal(args_check(START_MAX_ARGS, many, &af), 0);
	assert_int_equal(args_check(1, many, &af), 0);
}

/* Every argument is checked, not just the first. */
static void
test_args_bad_one_of_many(void **state)
{
	char		*v[] = { "acHJpbnRm", "a", "aQR", "aZm9v", NULL };
	struct argfault	 af;

	(void)state;
	assert_int_equal(args_check(4, v, &af), -1);
	assert_int_equal(af.index, 2);
	assert_int_equal(af.status, ARG_E_BITS);
	v[2] = "a";
	v[3] = "bad=";
	assert_int_equal(args_check(4, v, &af), -1);
	assert_int_equal(af.index, 3);
	assert_int_equal(af.status, ARG_E_PREFIX);
}

static void
test_args_decode_vector(void **state)
{
	char		*v[] = { "acHJpbnRm", "aJXMK", "aYSdiOyAkKGlkKQ", "a",
			    NULL };
	/* Zeroed: clang-tidy does not know a failed assert ends the test. */
	char		*dec[START_MAX_ARGS + 1] = { NULL };
	struct argfault	 af;

	(void)state;
	assert_int_equal(args_decode(4, v, dec, &af), 0);
	assert_string_equal(dec[0], "printf");
	assert_string_equal(dec[1], "%s\n");
	assert_string_equal(dec[2], "a'b; $(id)");
	assert_string_equal(dec[3], "");
	assert_null(dec[4]);
	args_free(4, dec);

	v[1] = "aAA";
	assert_int_equal(args_decode(4, v, dec, &af), -1);
	assert_int_equal(af.index, 1);
	assert_int_equal(af.status, ARG_E_NUL);
}

/* A private directory tree for the PATH tests. */
struct pathfix {
	char	root[PATH_MAX];
	char	d1[PATH_MAX], d2[PATH_MAX], path[2 * PATH_MAX];
};

/* dir + "/" + name into dst, which must hold it. */
static void
join2(char *dst, size_t sz, const char *dir, const char *name)
{
	int	len;

	len = snprintf(dst, sz, "%s/%s", dir, name);
	assert_true(len > 0 && (size_t)len < sz);
}

static void
mkfile(const char *dir, const char *name, mode_t mode)
{
	char	p[PATH_MAX];
	int	fd;

	join2(p, sizeof(p), dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int
pathfix_setup(void **state)
{
	struct pathfix	*f;
	const char	*tmp;
	char		 p[PATH_MAX];

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(f->root, sizeof(f->root), "%s/test_launcher.XXXXXX", tmp);
	if (mkdtemp(f->root) == NULL)
		goto bad;
	join2(f->d1, sizeof(f->d1), f->root, "d1");
	join2(f->d2, sizeof(f->d2), f->root, "d2");
	if (mkdir(f->d1, 0755) == -1 || mkdir(f->d2, 0755) == -1)
		goto bad;
	snprintf(f->path, sizeof(f->path), "%s:%s", f->d1, f->d2);
	mkfile(f->d1, "plain", 0644);	/* not executable */
	mkfile(f->d2, "plain", 0755);
	mkfile(f->d2, "only2", 0755);
	join2(p, sizeof(p), f->d1, "isdir");
	if (mkdir(p, 0755) == -1)
		goto bad;
	mkfile(f->d2, "isdir", 0755);
	mkfile(f->root, "incwd", 0755);
	*state = f;
	return 0;
bad:
	/* cmocka runs no teardown after a failed setup. */
	free(f);
	return -1;
}

static void
rmpath(const char *dir, const char *name, int isdir)
{
	char	p[PATH_MAX];

	join2(p, sizeof(p), dir, name);
	assert_int_equal(isdir ? rmdir(p) : unlink(p), 0);
}

static int
pathfix_teardown(void **state)
{
	struct pathfix	*f = *state;

	rmpath(f->d1, "plain", 0);
	rmpath(f->d1, "isdir", 1);
	rmpath(f->d2, "plain", 0);
	rmpath(f->d2, "only2", 0);
	rmpath(f->d2, "isdir", 0);
	rmpath(f->root, "incwd", 0);
	rmpath(f->root, "d1", 1);
	rmpath(f->root, "d2", 1);
	if (rmdir(f->root) == -1)
		return -1;
	free(f);
	return 0;
}

static void
test_path_slash_verbatim(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("/no/such/cmd", LAUNCHER_PATH, out,
	    sizeof(out)), PATH_OK);
	assert_string_equal(out, "/no/such/cmd");
	assert_int_equal(path_lookup("./rel", LAUNCHER_PATH, out,
	    sizeof(out)), PATH_OK);
	assert_string_equal(out, "./rel");
	assert_int_equal(path_lookup("./rel", LAUNCHER_PATH, out, 5),
	    PATH_E_TOOLONG);
}

static void
test_path_empty_name(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("", LAUNCHER_PATH, out, sizeof(out)),
	    PATH_E_EMPTY);
}

static void
test_path_order_and_mode(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], want[PATH_MAX];

	/* d1/plain is not executable, d1/isdir is a directory: d2 wins. */
	join2(want, sizeof(want), f->d2, "plain");
	assert_int_equal(path_lookup("plain", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
	join2(want, sizeof(want), f->d2, "isdir");
	assert_int_equal(path_lookup("isdir", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
	join2(want, sizeof(want), f->d2, "only2");
	assert_int_equal(path_lookup("only2", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
}

static void
test_path_not_found(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX];

	assert_int_equal(path_lookup("nosuch", f->path, out, sizeof(out)),
	    PATH_E_NOTFOUND);
	/* Only d1 on the PATH: its "plain" is not executable. */
	assert_int_equal(path_lookup("plain", f->d1, out, sizeof(out)),
	    PATH_E_NOTFOUND);
}

/* Empty PATH elements mean "." to a shell; here they mean nothing. */
static void
test_path_never_cwd(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], old[PATH_MAX];

	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(f->root), 0);
	assert_int_equal(path_lookup("incwd", "", out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("incwd", "::", out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("incwd", f->d1, out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(chdir(old), 0);
}

static void
test_path_too_long(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], name[NAME_MAX + 2];

	memset(name, 'x', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	assert_int_equal(path_lookup(name, f->path, out, sizeof(out)),
	    PATH_E_TOOLONG);
	/* A result that does not fit is skipped, never truncated. */
	assert_int_equal(path_lookup("only2", f->path, out,
	    strlen(f->d2) + 6), PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("only2", f->path, out,
	    strlen(f->d2) + 7), PATH_OK);
}

static void
test_path_real_fixed_path(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("sh", LAUNCHER_PATH, out, sizeof(out)),
	    PATH_OK);
	/* Debian: /bin/sh, or /usr/bin/sh first when /usr is merged. */
	assert_true(strcmp(out, "/usr/local/bin/sh") == 0 ||
	    strcmp(out, "/usr/bin/sh") == 0 || strcmp(out, "/bin/sh") == 0);
}

static void
test_env_exact(void **state)
{
	static struct fixedenv	fe;
	const char		*want[] = {
		"HOME=/home/byk", "LANG=C.UTF-8", "LOGNAME=byk",
		"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=xterm-256color",
		"USER=byk",
	};
	int			i;

	(void)state;
	assert_int_equal(env_build(&fe, "byk", "/home/byk"), 0);
	for (i = 0; i < ENV_COUNT; i++)
		assert_string_equal(fe.vec[i], want[i]);
	assert_null(fe.vec[ENV_COUNT]);
}

static void
test_env_rejects(void **state)
{
	static struct fixedenv	fe;
	static char		home[ENV_STRMAX + 1];

	(void)state;
	assert_int_equal(env_build(&fe, "", "/home/byk"), -1);
	assert_int_equal(env_build(&fe, "byk", ""), -1);
	assert_int_equal(env_build(&fe, "byk", "home/byk"), -1);
	assert_int_equal(env_build(&fe, NULL, "/home/byk"), -1);
	memset(home, 'h', ENV_STRMAX);
	home[0] = '/';
	assert_int_equal(env_build(&fe, "byk", home), -1);
	assert_null(fe.vec[0]);
}

static void
test_user_match(void **state)
{
	struct passwd	pw;

	(void)state;
	memset(&pw, 0, sizeof(pw));
	pw.pw_name = "byk";
	pw.pw_dir = "/home/byk";
	pw.pw_uid = 1001;
	assert_int_equal(user_match(&pw, 1001, "byk"), 0);
	assert_int_equal(user_match(&pw, 1000, "byk"), -1);
	assert_int_equal(user_match(&pw, 1001, "root"), -1);
	assert_int_equal(user_match(&pw, 1001, "by"), -1);
	assert_int_equal(user_match(NULL, 1001, "byk"), -1);
	pw.pw_dir = NULL;
	assert_int_equal(user_match(&pw, 1001, "byk"), -1);
}

/*
 * sig_reset() in a child that inherited glibc's reserved signal 32 as
 * ignored and 2 (SIGINT) as ignored: both are SIG_DFL afterwards, as
 * /proc says, and nothing is blocked.
 */
static void
test_sig_reset_reserved(void **state)
{
	/* Kernel struct sigaction: handler, flags, restorer, mask. */
	unsigned long	 ign[4] = { (unsigned long)(uintptr_t)SIG_IGN, 0, 0,
			    0 };
	char		 line[256];
	FILE		*f;
	pid_t		 pid;
	int		 status, ok;

	(void)state;
	if ((pid = fork()) == 0) {
		if (syscall(SYS_rt_sigaction, 32, ign, NULL, 8) != 0 ||
		    signal(SIGINT, SIG_IGN) == SIG_ERR || sig_reset() != 0 ||
		    (f = fopen("/proc/self/status", "r")) == NULL)
			_exit(2);
		ok = 0;
		while (fgets(line, sizeof(line), f) != NULL)
			if (strcmp(line, "SigIgn:\t0000000000000000\n") == 0 ||
			    strcmp(line, "SigBlk:\t0000000000000000\n") == 0)
				ok++;
		_exit(ok == 2 ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* --- the terminal on fd 0/1 (tty.c) ------------------------------------------ */

/* A PTY the way the root parent makes one: master, then its peer. */
static int
pty_pair(int *master)
{
	int	m, peer;

	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(m >= 0);
	assert_int_equal(unlockpt(m), 0);
	peer = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(peer >= 0);
	*master = m;
	return peer;
}

/*
 * tty_reopen() on fds 0 and 1 of this process, saved and put back
 * before anything is asserted (cmocka writes to fd 1): a terminal comes
 * back as its /dev/pts/N, the same inode; a pipe or a master does not.
 */
static void
test_tty_reopen(void **state)
{
	struct stat	 a, b;
	char		 link[64];
	ssize_t		 n;
	int		 m, p, pp[2], save0, save1, r_ok, r_pipe, r_master;

	(void)state;
	p = pty_pair(&m);
	assert_int_equal(pipe2(pp, O_CLOEXEC), 0);
	assert_true((save0 = fcntl(0, F_DUPFD_CLOEXEC, 3)) >= 0);
	assert_true((save1 = fcntl(1, F_DUPFD_CLOEXEC, 3)) >= 0);
	(void)dup2(p, 0);
	(void)dup2(p, 1);
	r_ok = tty_reopen();
	n = readlink("/proc/self/fd/0", link, sizeof(link) - 1);
	(void)fstat(0, &a);
	(void)dup2(pp[0], 0);
	r_pipe = tty_reopen();
	(void)dup2(m, 0);
	r_master = tty_reopen();
	(void)dup2(save0, 0);
	(void)dup2(save1, 1);
	assert_int_equal(r_ok, TTY_OK);
	assert_true(n > 0);
	link[n] = '\0';
	assert_int_equal(strncmp(link, "/dev/pts/", 9), 0);
	assert_int_equal(fstat(p, &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	assert_int_equal(r_pipe, TTY_E_PTS);
	assert_int_equal(r_master, TTY_E_PTS);
	close(save0);
	close(save1);
	close(pp[0]);
	close(pp[1]);
	close(p);
	close(m);
}

static void
test_tty_check(void **state)
{
	int	m1, m2, p1, p1b, p1c, p2, pp[2], sp[2];

	(void)state;
	p1 = pty_pair(&m1);
	p2 = pty_pair(&m2);
	assert_true((p1b = fcntl(p1, F_DUPFD_CLOEXEC, 3)) >= 0);
	/* Another open file description of the same slave. */
	p1c = ioctl(m1, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(p1c >= 0);
	assert_int_equal(pipe2(pp, O_CLOEXEC), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);

	assert_int_equal(tty_check(p1, p1), TTY_OK);
	assert_int_equal(tty_check(p1, p1b), TTY_OK);
	assert_int_equal(tty_check(p1c, p1), TTY_OK);
	assert_int_equal(tty_check(p1, p2), TTY_E_OTHER);
	/* The master is a terminal too, but not the slave's device. */
	assert_int_equal(tty_check(p1, m1), TTY_E_OTHER);
	assert_int_equal(tty_check(pp[0], p1), TTY_E_IN);
	assert_int_equal(tty_check(sp[0], sp[0]), TTY_E_IN);
	assert_int_equal(tty_check(p1, pp[1]), TTY_E_OUT);
	assert_int_equal(tty_check(p1, sp[1]), TTY_E_OUT);
	assert_int_equal(tty_check(-1, p1), TTY_E_IN);
	assert_string_equal(tty_strerror(TTY_E_IN), "stdin is not a terminal");
	assert_string_equal(tty_strerror(TTY_E_OTHER),
	    "stdin and stdout are not the same terminal");
	close(p1c);
	close(p1b);
	close(p1);
	close(p2);
	close(m1);
	close(m2);
	close(pp[0]);
	close(pp[1]);
	close(sp[0]);
	close(sp[1]);
}

/*
 * In a child: is fd our controlling terminal, with us in front?  The
 * kernel's word for it is tty_nr in /proc/self/stat (field 7, the
 * device number in the kernel's new encoding); /dev/tty must open.
 */
static int
tty_is_ours(int fd)
{
	struct stat	 st;
	unsigned long	 nr, want;
	char		 buf[512], *p, *end;
	ssize_t		 n;
	int		 t, i;

	if (tcgetpgrp(fd) != getpgrp() || tcgetsid(fd) != getsid(0) ||
	    fstat(fd, &st) == -1)
		return 0;
	if ((t = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(t, buf, sizeof(buf) - 1);
	close(t);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* After "(comm)": state, ppid, pgrp, session, then tty_nr. */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (i = 0; i < 5; i++)
		if ((p = strchr(p + 1, ' ')) == NULL)
			return 0;
	errno = 0;
	nr = strtoul(p + 1, &end, 10);
	if (errno != 0 || end == p + 1 || *end != ' ')
		return 0;
	want = (minor(st.st_rdev) & 0xff) | (major(st.st_rdev) << 8) |
	    ((unsigned long)(minor(st.st_rdev) & ~0xffU) << 12);
	if (nr != want)
		return 0;
	if ((t = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1)
		return 0;
	close(t);
	return 1;
}

/* Runs fn(peer) in a forked child; returns its exit status. */
static int
tty_child(int (*fn)(int))
{
	pid_t	pid;
	int	m, peer, st;

	peer = pty_pair(&m);
	if ((pid = fork()) == 0)
		_exit(fn(peer));
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(peer);
	close(m);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* Not a group leader: tty_acquire() makes the session itself. */
static int
acq_plain(int peer)
{
	if (tty_acquire(peer) == -1)
		return 1;
	return tty_is_ours(peer) && getsid(0) == getpid() ? 0 : 2;
}

/* Already a session leader, as systemd starts a service. */
static int
acq_leader(int peer)
{
	if (setsid() == -1 || tty_acquire(peer) == -1)
		return 1;
	return tty_is_ours(peer) ? 0 : 2;
}

/* A group leader that leads no session cannot take a terminal. */
static int
acq_group_leader(int peer)
{
	if (setpgid(0, 0) == -1)
		return 3;
	if (tty_acquire(peer) != -1 || errno != EPERM)
		return 1;
	return tcgetsid(peer) == -1 ? 0 : 2;
}

/* Another session's controlling terminal is never taken. */
static int
acq_steal(int peer)
{
	pid_t	pid;
	int	st;

	if (setsid() == -1 || tty_acquire(peer) == -1)
		return 3;
	if ((pid = fork()) == 0)
		_exit(tty_acquire(peer) != -1 || errno != EPERM ? 1 : 0);
	if (pid == -1 || waitpid(pid, &st, 0) != pid)
		return 4;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	/* Still ours, the first session's. */
	return tty_is_ours(peer) ? 0 : 2;
}

static void
test_tty_acquire(void **state)
{
	(void)state;
	assert_int_equal(tty_child(acq_plain), 0);
	assert_int_equal(tty_child(acq_leader), 0);
	assert_int_equal(tty_child(acq_group_leader), 0);
	assert_int_equal(tty_child(acq_steal), 0);
}

/* --- re-anchoring the directory (reanchor.c) -------------------------------- */

/* A private, canonical directory (readlink never shows a symlink). */
struct rafix {
	char	root[PATH_MAX];
	char	d[PATH_MAX], e[PATH_MAX], link[PATH_MAX], ld[PATH_MAX];
};

static int
rafix_setup(void **state)
{
	struct rafix	*f;
	const char	*tmp;
	char		 t[PATH_MAX];

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(t, sizeof(t), "%s/test_reanchor.XXXXXX", tmp);
	if (mkdtemp(t) == NULL || realpath(t, f->root) == NULL) {
		free(f);
		return -1;
	}
	join2(f->d, sizeof(f->d), f->root, "d");
	join2(f->e, sizeof(f->e), f->root, "e");
	join2(f->link, sizeof(f->link), f->root, "link");
	join2(f->ld, sizeof(f->ld), f->root, "ld");
	if (mkdir(f->d, 0755) == -1) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int
rafix_teardown(void **state)
{
	struct rafix	*f = *state;

	/* Each test leaves a different subset behind. */
	(void)unlink(f->link);
	(void)unlink(f->ld);
	(void)rmdir(f->d);
	(void)rmdir(f->e);
	if (rmdir(f->root) == -1)
		return -1;
	free(f);
	return 0;
}

static void
assert_same_inode(int a, int b)
{
	struct stat	sa, sb;

	assert_int_equal(fstat(a, &sa), 0);
	assert_int_equal(fstat(b, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_true(sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

static int
opendir_fd(const char *path)
{
	int	fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static void
test_reanchor_same(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd, nfd, flags;

	fd = opendir_fd(f->d);
	nfd = reanchor(fd, &ra);
	assert_true(nfd >= 0);
	assert_int_equal(ra.status, RA_OK);
	assert_string_equal(ra.path, f->d);
	assert_same_inode(fd, nfd);
	flags = fcntl(nfd, F_GETFD);
	assert_true(flags != -1 && (flags & FD_CLOEXEC) != 0);
	close(nfd);
	close(fd);
}

/* The kernel's path follows a rename made before start: still accepted. */
static void
test_reanchor_renamed(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd, nfd;

	fd = opendir_fd(f->d);
	assert_int_equal(rename(f->d, f->e), 0);
	nfd = reanchor(fd, &ra);
	assert_true(nfd >= 0);
	assert_string_equal(ra.path, f->e);
	assert_same_inode(fd, nfd);
	close(nfd);
	close(fd);
}

/* A live directory whose name looks like a removed one's path. */
static void
test_reanchor_named_deleted(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	char		 p[PATH_MAX];
	int		 fd, nfd;

	join2(p, sizeof(p), f->root, "e (deleted)");
	fd = opendir_fd(f->d);
	assert_int_equal(rename(f->d, p), 0);
	nfd = reanchor(fd, &ra);
	assert_true(nfd >= 0);
	assert_string_equal(ra.path, p);
	assert_same_inode(fd, nfd);
	close(nfd);
	close(fd);
	assert_int_equal(rename(p, f->d), 0);
}

/*
 * Renamed and replaced between reading the path and opening it (the
 * race the inode comparison closes): the path now leads elsewhere.
 */
static void
test_reanchor_replaced(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd;

	fd = opendir_fd(f->d);
	assert_int_equal(reanchor_path(fd, &ra), 0);
	assert_string_equal(ra.path, f->d);
	assert_int_equal(rename(f->d, f->e), 0);
	assert_int_equal(mkdir(f->d, 0755), 0);
	assert_int_equal(reanchor_at(fd, &ra), -1);
	assert_int_equal(ra.status, RA_E_OTHER);
	/* Control: the path read now is the renamed one, and it is fine. */
	assert_int_equal(reanchor_path(fd, &ra), 0);
	assert_string_equal(ra.path, f->e);
	close(fd);
}

/* A symlink as the last component, both openers; the link itself works. */
static void
test_reanchor_symlink_last(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd, lfd;

	fd = opendir_fd(f->d);
	assert_int_equal(symlink("d", f->link), 0);
	/* Control: followed, the link leads to the very same directory. */
	lfd = opendir_fd(f->link);
	assert_same_inode(fd, lfd);
	close(lfd);
	errno = 0;
	assert_int_equal(reanchor_open_resolve(f->link), -1);
	assert_int_equal(errno, ELOOP);
	errno = 0;
	assert_int_equal(reanchor_open_nofollow(f->link), -1);
	assert_int_equal(errno, ELOOP);
	snprintf(ra.path, sizeof(ra.path), "%s", f->link);
	assert_int_equal(reanchor_at(fd, &ra), -1);
	assert_int_equal(ra.status, RA_E_SYMLINK);
	close(fd);
}

/* A symlink earlier in the path: openat2 refuses it too. */
static void
test_reanchor_symlink_middle(void **state)
{
	struct rafix	*f = *state;
	char		 p[PATH_MAX];
	int		 fd, nfd;

	fd = opendir_fd(f->d);
	assert_int_equal(symlink(".", f->ld), 0);
	join2(p, sizeof(p), f->ld, "d");
	errno = 0;
	assert_int_equal(reanchor_open_resolve(p), -1);
	assert_int_equal(errno, ELOOP);
	/* The fallback follows it; the inode comparison then decides. */
	nfd = reanchor_open_nofollow(p);
	assert_true(nfd >= 0);
	assert_same_inode(fd, nfd);
	close(nfd);
	close(fd);
}

static void
test_reanchor_deleted(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd;

	fd = opendir_fd(f->d);
	assert_int_equal(rmdir(f->d), 0);
	assert_int_equal(reanchor(fd, &ra), -1);
	assert_int_equal(ra.status, RA_E_DELETED);
	close(fd);
}

/* The path does not exist "here" (as when the unit hides it). */
static void
test_reanchor_unreachable(void **state)
{
	struct rafix	*f = *state;
	struct reanchor	 ra;
	int		 fd;

	fd = opendir_fd(f->d);
	join2(ra.path, sizeof(ra.path), f->root, "nosuch");
	assert_int_equal(reanchor_at(fd, &ra), -1);
	assert_int_equal(ra.status, RA_E_OPEN);
	assert_int_equal(ra.err, ENOENT);
	close(fd);
}

static void
test_reanchor_notdir(void **state)
{
	struct reanchor	 ra;
	int		 p[2];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(reanchor(p[0], &ra), -1);
	assert_int_equal(ra.status, RA_E_NOTDIR);
	close(p[0]);
	close(p[1]);
}

static void
test_reanchor_reason(void **state)
{
	struct reanchor	 ra;
	char		 buf[256];

	(void)state;
	memset(&ra, 0, sizeof(ra));
	ra.status = RA_E_OPEN;
	ra.err = ENOENT;
	snprintf(ra.path, sizeof(ra.path), "/run/user/1000/a\nb\177");
	reanchor_reason(&ra, buf, sizeof(buf));
	assert_string_equal(buf, "the directory '/run/user/1000/a?b?' is not "
	    "reachable by its path inside the unit: No such file or "
	    "directory");
	ra.status = RA_E_TOOLONG;
	ra.err = 0;
	ra.path[0] = '\0';
	reanchor_reason(&ra, buf, sizeof(buf));
	assert_string_equal(buf,
	    "the directory has a path longer than PATH_MAX");
	reanchor_reason(&ra, buf, 8);
	assert_string_equal(buf, "the dir");
}

/* --- the Landlock domain (landlock.c) ---------------------------------------- */

#define LL_MARKER	0x5eed

static volatile int	ll_marker = LL_MARKER;

/* Where the file system probes rename and link, made by the parent. */
struct llfix {
	char	root[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	char	af[PATH_MAX], bf[PATH_MAX], ag[PATH_MAX];
};

static int
llfix_setup(void **state)
{
	struct llfix	*f;
	const char	*tmp;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(f->root, sizeof(f->root), "%s/test_landlock.XXXXXX", tmp);
	if (mkdtemp(f->root) == NULL) {
		free(f);
		return -1;
	}
	join2(f->a, sizeof(f->a), f->root, "a");
	join2(f->b, sizeof(f->b), f->root, "b");
	join2(f->af, sizeof(f->af), f->a, "f");
	join2(f->ag, sizeof(f->ag), f->a, "g");
	join2(f->bf, sizeof(f->bf), f->b, "f");
	if (mkdir(f->a, 0755) == -1 || mkdir(f->b, 0755) == -1) {
		free(f);
		return -1;
	}
	mkfile(f->a, "f", 0644);
	*state = f;
	return 0;
}

static int
llfix_teardown(void **state)
{
	struct llfix	*f = *state;

	(void)unlink(f->af);
	(void)unlink(f->ag);
	(void)unlink(f->bf);
	if (rmdir(f->a) == -1 || rmdir(f->b) == -1 || rmdir(f->root) == -1)
		return -1;
	free(f);
	return 0;
}

/* In a probe child: a failed check is reported and is the exit status. */
static void
ll_check(int n, int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "probe %d failed: %s (errno: %s)\n", n, what,
	    strerror(errno));
	_exit(n);
}

/* The ptrace-class probes: 0 if the access worked, else -1 and errno. */
static int
probe_proc_root(pid_t pid)
{
	char	p[64];
	int	fd;

	snprintf(p, sizeof(p), "/proc/%d/root", (int)pid);
	if ((fd = open(p, O_PATH | O_CLOEXEC)) == -1)
		return -1;
	close(fd);
	return 0;
}

static int
probe_getfd(pid_t pid, int target)
{
	int	pfd, fd, saved;

	if ((pfd = (int)syscall(SYS_pidfd_open, pid, 0)) == -1)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pfd, target, 0);
	saved = errno;
	close(pfd);
	errno = saved;
	if (fd == -1)
		return -1;
	close(fd);
	return 0;
}

static int
probe_vm_read(pid_t pid)
{
	struct iovec	local, remote;
	int		v = 0;

	local.iov_base = &v;
	local.iov_len = sizeof(v);
	remote.iov_base = (void *)(uintptr_t)&ll_marker;
	remote.iov_len = sizeof(v);
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) !=
	    (ssize_t)sizeof(v))
		return -1;
	return v == LL_MARKER ? 0 : -1;
}

/* PTRACE_SEIZE: the same access check as ATTACH, but it never stops. */
static int
probe_seize(pid_t pid)
{
	return ptrace(PTRACE_SEIZE, pid, NULL, NULL) == -1 ? -1 : 0;
}

/* The rest of the kill family, signal 0: 0 if it reached, else -1. */
static int
probe_signals(pid_t pid, int which)
{
	siginfo_t	si;
	int		pfd, r, saved;

	memset(&si, 0, sizeof(si));
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	switch (which) {
	case 0:
		return (int)syscall(SYS_tkill, pid, 0);
	case 1:
		return (int)syscall(SYS_tgkill, pid, pid, 0);
	case 2:
		return (int)syscall(SYS_rt_sigqueueinfo, pid, 0, &si);
	default:
		if ((pfd = (int)syscall(SYS_pidfd_open, pid, 0)) == -1)
			return -1;
		r = (int)syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0U);
		saved = errno;
		close(pfd);
		errno = saved;
		return r;
	}
}

static void
ll_signals(int abi, pid_t parent)
{
	static const char *const	what[] = { "tkill", "tgkill",
		"rt_sigqueueinfo", "pidfd_send_signal" };
	int				i, r;

	for (i = 0; i < 4; i++) {
		errno = 0;
		r = probe_signals(parent, i);
		if (abi >= OPTY_LANDLOCK_ABI_SCOPE)
			ll_check(17 + i, r == -1 && errno == EPERM, what[i]);
		else
			ll_check(17 + i, r == 0, what[i]);
	}
}

/* Outside the domain: the parent, refused every ptrace-class access. */
static void
ll_probe_parent(int abi, pid_t parent, int fdnum)
{
	errno = 0;
	ll_check(2, probe_proc_root(parent) == -1 && errno == EACCES,
	    "open /proc/<parent>/root is refused with EACCES");
	errno = 0;
	ll_check(3, probe_seize(parent) == -1 && errno == EPERM,
	    "ptrace(PTRACE_SEIZE, parent) is refused with EPERM");
	errno = 0;
	ll_check(4, probe_getfd(parent, fdnum) == -1 && errno == EPERM,
	    "pidfd_getfd on the parent is refused with EPERM");
	errno = 0;
	ll_check(5, probe_vm_read(parent) == -1 && errno == EPERM,
	    "process_vm_readv of the parent is refused with EPERM");
	errno = 0;
	if (abi >= OPTY_LANDLOCK_ABI_SCOPE)
		ll_check(6, kill(parent, 0) == -1 && errno == EPERM,
		    "kill(parent, 0) is refused with EPERM from ABI 6");
	else
		ll_check(6, kill(parent, 0) == 0,
		    "kill(parent, 0) still works below ABI 6");
	ll_signals(abi, parent);
}

/* Inside the domain: its own child stays fully debuggable. */
static void
ll_probe_own_child(int fdnum)
{
	pid_t	g;

	if ((g = fork()) == 0) {
		for (;;)
			pause();
	}
	ll_check(7, g > 0, "fork");
	ll_check(8, probe_proc_root(g) == 0, "open /proc/<own child>/root");
	ll_check(9, probe_getfd(g, fdnum) == 0,
	    "pidfd_getfd on its own child");
	ll_check(10, probe_vm_read(g) == 0,
	    "process_vm_readv of its own child");
	ll_check(11, probe_seize(g) == 0,
	    "ptrace(PTRACE_SEIZE) of its own child");
	ll_check(12, kill(g, 0) == 0, "kill(own child, 0)");
	(void)kill(g, SIGKILL);
	(void)waitpid(g, NULL, 0);
}

/*
 * A child enters the domain built for abi and probes; once done it
 * tells the test process, which probes it from outside, and waits.
 */
static void
ll_run(const struct llfix *f, int abi)
{
	pid_t	pid, parent = getpid();
	int	up[2], down[2], status;
	char	c;

	assert_int_equal(pipe2(up, O_CLOEXEC), 0);
	assert_int_equal(pipe2(down, O_CLOEXEC), 0);
	if ((pid = fork()) == 0) {
		ll_check(1, landlock_enter(abi) == 0, "landlock_enter");
		ll_probe_parent(abi, parent, down[0]);
		ll_probe_own_child(down[0]);
		/* The file system is not restricted: not even REFER. */
		ll_check(13, rename(f->af, f->bf) == 0,
		    "rename across directories");
		ll_check(14, link(f->bf, f->ag) == 0,
		    "link across directories");
		ll_check(15, write(up[1], "r", 1) == 1, "write");
		ll_check(16, read(down[0], &c, 1) == 1, "read");
		_exit(0);
	}
	assert_true(pid > 0);
	close(up[1]);
	close(down[0]);
	if (read(up[0], &c, 1) == 1) {
		/* Positive control: from outside, the same probes work. */
		assert_int_equal(probe_proc_root(pid), 0);
		assert_int_equal(probe_getfd(pid, up[1]), 0);
		assert_int_equal(probe_vm_read(pid), 0);
		assert_int_equal(kill(pid, 0), 0);
	}
	assert_int_equal(write(down[1], "x", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(up[0]);
	close(down[1]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_landlock_abi(void **state)
{
	int	abi;

	(void)state;
	if ((abi = landlock_abi()) < OPTY_LANDLOCK_ABI_MIN)
		fail_msg("this kernel has no usable Landlock (%d): the "
		    "launcher refuses every session here", abi);
}

/* The ruleset of the running kernel's ABI (scopes only from ABI 6). */
static void
test_landlock_domain(void **state)
{
	int	abi;

	if ((abi = landlock_abi()) < OPTY_LANDLOCK_ABI_MIN)
		fail_msg("no usable Landlock (%d)", abi);
	ll_run(*state, abi);
}

/* The ruleset of ABI 2..5 (REFER handled, granted beneath "/"). */
static void
test_landlock_domain_abi2(void **state)
{
	if (landlock_abi() < OPTY_LANDLOCK_ABI_MIN)
		fail_msg("no usable Landlock");
	ll_run(*state, OPTY_LANDLOCK_ABI_MIN);
}

/* Control: without the domain, every probe of the parent succeeds. */
static void
test_landlock_control(void **state)
{
	pid_t	pid, parent = getpid();
	int	status, p[2];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	if ((pid = fork()) == 0) {
		ll_check(2, probe_proc_root(parent) == 0,
		    "open /proc/<parent>/root");
		ll_check(4, probe_getfd(parent, p[0]) == 0,
		    "pidfd_getfd on the parent");
		ll_check(5, probe_vm_read(parent) == 0,
		    "process_vm_readv of the parent");
		ll_check(6, kill(parent, 0) == 0, "kill(parent, 0)");
		ll_signals(0, parent);
		/* Last: exiting detaches the tracee. */
		ll_check(3, probe_seize(parent) == 0,
		    "ptrace(PTRACE_SEIZE, parent)");
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(p[0]);
	close(p[1]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_landlock_refuses_abi1(void **state)
{
	(void)state;
	errno = 0;
	assert_int_equal(landlock_enter(1), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_int_equal(landlock_enter(0), -1);
	assert_int_equal(errno, EOPNOTSUPP);
}

static void
test_landlock_describe(void **state)
{
	char	buf[256];

	(void)state;
	landlock_describe(1, buf, sizeof(buf));
	assert_string_equal(buf, "Landlock ABI 1 refused: it cannot allow "
	    "renames across directories (need ABI 2)");
	landlock_describe(2, buf, sizeof(buf));
	assert_string_equal(buf, "Landlock ABI 2: ptrace-class access "
	    "scoped to the session; signals and abstract UNIX sockets not "
	    "scoped (ABI 6); file system unrestricted");
	landlock_describe(5, buf, sizeof(buf));
	assert_non_null(strstr(buf, "not scoped (ABI 6)"));
	landlock_describe(6, buf, sizeof(buf));
	assert_string_equal(buf, "Landlock ABI 6: ptrace-class access, "
	    "signals and abstract UNIX sockets scoped to the session; file "
	    "system unrestricted");
	landlock_describe(7, buf, sizeof(buf));
	assert_non_null(strstr(buf, "ABI 7: ptrace-class access, signals"));
	assert_int_equal(landlock_describe(7, buf, 4), (int)strlen(
	    "Landlock ABI 7: ptrace-class access, signals and abstract UNIX "
	    "sockets scoped to the session; file system unrestricted"));
	assert_string_equal(buf, "Lan");
}

/* --- the directory message on fd 2 (proto/dirsock.c) ------------------------ */

/* Sends len bytes of data with nfd copies of fd on a new socket pair. */
static int
ds_send(const char *data, size_t len, int fd, int nfd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(3 * sizeof(int))];
	} cb;
	struct msghdr	 mh;
	struct cmsghdr	*cm;
	struct iovec	 iov;
	int		 sp[2], fds[3] = { fd, fd, fd };

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = (void *)(uintptr_t)data;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfd > 0) {
		memset(&cb, 0, sizeof(cb));
		mh.msg_control = cb.buf;
		mh.msg_controllen = CMSG_SPACE((size_t)nfd * sizeof(int));
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN((size_t)nfd * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, (size_t)nfd * sizeof(int));
	}
	if (len > 0 || nfd > 0)
		assert_true(sendmsg(sp[0], &mh, 0) == (ssize_t)len);
	close(sp[0]);
	return sp[1];
}

/* The lowest free descriptor: a refusal must leave none behind. */
static int
ds_lowfree(void)
{
	int	fd, low;

	fd = fcntl(0, F_DUPFD_CLOEXEC, 0);
	assert_true(fd >= 0);
	low = fd;	/* the number, not the descriptor, is the answer */
	close(fd);
	return low;
}

static void
ds_expect(int sock, int want)
{
	int	r, err, low;

	low = ds_lowfree();
	r = dirsock_take(sock, &err);
	if (want == DS_OK) {
		struct stat	st;

		assert_true(r >= 0);
		assert_int_equal(fstat(r, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_true((fcntl(r, F_GETFD) & FD_CLOEXEC) != 0);
		close(r);
	} else {
		assert_int_equal(r, want);
		assert_int_equal(ds_lowfree(), low);
	}
	close(sock);
}

static void
test_dirsock_good(void **state)
{
	int	dir, ds;

	(void)state;
	dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dir >= 0);
	/* The parent's own function, then the same message by hand. */
	ds = dirsock_make(dir);
	assert_true(ds >= 0);
	ds_expect(ds, DS_OK);
	ds_expect(ds_send("D", 1, dir, 1), DS_OK);
	close(dir);
}

static void
test_dirsock_refusals(void **state)
{
	int	dir, file, sock;

	(void)state;
	dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	file = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(dir >= 0 && file >= 0);
	ds_expect(ds_send("D", 1, dir, 0), DS_E_NOFD);
	ds_expect(ds_send("D", 1, dir, 2), DS_E_FDS);
	/* Three do not fit the space for one: the kernel truncates. */
	ds_expect(ds_send("D", 1, dir, 3), DS_E_TRUNC);
	ds_expect(ds_send("X", 1, dir, 1), DS_E_BYTE);
	ds_expect(ds_send("DD", 2, dir, 1), DS_E_BYTE);
	ds_expect(ds_send("D", 1, file, 1), DS_E_NOTDIR);
	/* Nothing queued: refused at once, never waited for. */
	ds_expect(ds_send("", 0, dir, 0), DS_E_RECV);
	/* The directory itself where the socket should be. */
	sock = dup(dir);
	ds_expect(sock, DS_E_NOTSOCK);
	close(dir);
	close(file);
}

/* Every refusal has its own reason line. */
static void
test_dirsock_reasons(void **state)
{
	const char	*other;
	int		 i, j;

	(void)state;
	other = dirsock_strerror(1);
	for (i = DS_E_NOTDIR; i <= DS_E_NOTSOCK; i++) {
		assert_string_not_equal(dirsock_strerror(i), other);
		for (j = i + 1; j <= DS_E_NOTSOCK; j++)
			assert_string_not_equal(dirsock_strerror(i),
			    dirsock_strerror(j));
	}
}

/* A socket pair made by anybody but root is not the parent's. */
static void
test_dirsock_peer_not_root(void **state)
{
	struct passwd	*pw;
	pid_t		 pid;
	int		 st, dir, sp[2];

	(void)state;
	if (geteuid() != 0) {
		/* Our own pair then has a non-root peer already. */
		dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(dir >= 0);
		ds_expect(ds_send("D", 1, dir, 1), DS_E_PEER);
		close(dir);
		return;
	}
	assert_non_null(pw = getpwnam("nobody"));
	if ((pid = fork()) == 0) {
		if (setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) == -1 ||
		    socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
			_exit(2);
		dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir == -1 || dirsock_take(sp[1], &st) != DS_E_PEER)
			_exit(1);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/*
 * The session's system call filter (launcher/seccomp.c), loaded in
 * forked children.  Each cross-process probe names the test process,
 * another process; the same probe on the child itself still works, and
 * the control runs every probe of another process without the filter.
 * Probes that would need privilege outside the filter use an argument
 * the kernel refuses with another errno (EBADF, EFAULT, E2BIG...), so
 * EPERM can only be the filter's.
 */
#define SF_IOPRIO_PROCESS	1
#define SF_IOPRIO_PGRP		2
#define SF_IOPRIO_USER		3
#define SF_KCMP_VM		1
#define SF_PERF_PID_CGROUP	(1UL << 2)
#define SF_X32_BIT		0x40000000L

/* struct sched_attr, the kernel's first version: 48 bytes, size first. */
#define SF_SCHED_ATTR_WORDS	12

/* -1 with errno, or 0. */
static int
sf_ret(long r)
{
	return r == -1 ? -1 : 0;
}

static int
sf_prlimit(pid_t p)
{
	struct rlimit	rl;

	return prlimit(p, RLIMIT_NOFILE, NULL, &rl);
}

static int
sf_setprio(pid_t p)
{
	return setpriority(PRIO_PROCESS, (id_t)p,
	    getpriority(PRIO_PROCESS, 0));
}

static int
sf_getprio(pid_t p)
{
	errno = 0;
	(void)getpriority(PRIO_PROCESS, (id_t)p);
	return errno == 0 ? 0 : -1;
}

static int
sf_setaffinity(pid_t p)
{
	cpu_set_t	set;

	if (sched_getaffinity(0, sizeof(set), &set) == -1)
		return -1;
	return sched_setaffinity(p, sizeof(set), &set);
}

static int
sf_setscheduler(pid_t p)
{
	struct sched_param	sp = { 0 };

	return sched_setscheduler(p, SCHED_OTHER, &sp);
}

static int
sf_setparam(pid_t p)
{
	struct sched_param	sp = { 0 };

	return sched_setparam(p, &sp);
}

static int
sf_getattr(pid_t p)
{
	uint32_t	a[SF_SCHED_ATTR_WORDS];

	return sf_ret(syscall(SYS_sched_getattr, p, a, sizeof(a), 0));
}

static int
sf_setattr(pid_t p)
{
	uint32_t	a[SF_SCHED_ATTR_WORDS];

	if (syscall(SYS_sched_getattr, 0, a, sizeof(a), 0) == -1)
		return -1;
	a[0] = sizeof(a);
	return sf_ret(syscall(SYS_sched_setattr, p, a, 0));
}

static int
sf_rrinterval(pid_t p)
{
	struct timespec	ts;

	return sched_rr_get_interval(p, &ts);
}

static int
sf_ioprio_get(pid_t p)
{
	return sf_ret(syscall(SYS_ioprio_get, SF_IOPRIO_PROCESS, p));
}

static int
sf_ioprio_set(pid_t p)
{
	long	cur;

	if ((cur = syscall(SYS_ioprio_get, SF_IOPRIO_PROCESS, 0)) == -1)
		return -1;
	return sf_ret(syscall(SYS_ioprio_set, SF_IOPRIO_PROCESS, p, cur));
}

/* From node 0 to node 0: nothing moves, but the target is checked. */
static int
sf_migrate(pid_t p)
{
	unsigned long	node0 = 1;

	return sf_ret(syscall(SYS_migrate_pages, p, 64UL, &node0, &node0));
}

static int
sf_movepages(pid_t p)
{
	return sf_ret(syscall(SYS_move_pages, p, 0UL, NULL, NULL, NULL, 0));
}

static int
sf_robust(pid_t p)
{
	void	*head;
	size_t	 len;

	return sf_ret(syscall(SYS_get_robust_list, p, &head, &len));
}

static const struct sf_probe {
	const char	*name;
	int		(*fn)(pid_t);
} sf_probes[] = {
	{ "prlimit64", sf_prlimit },
	{ "setpriority", sf_setprio },
	{ "getpriority", sf_getprio },
	{ "sched_setaffinity", sf_setaffinity },
	{ "sched_setscheduler", sf_setscheduler },
	{ "sched_setparam", sf_setparam },
	{ "sched_getattr", sf_getattr },
	{ "sched_setattr", sf_setattr },
	{ "sched_rr_get_interval", sf_rrinterval },
	{ "ioprio_get", sf_ioprio_get },
	{ "ioprio_set", sf_ioprio_set },
	{ "migrate_pages", sf_migrate },
	{ "move_pages", sf_movepages },
	{ "get_robust_list", sf_robust },
};
#define SF_NPROBES	(sizeof(sf_probes) / sizeof(sf_probes[0]))

/* In a child: the call fails with want, or (want 0) does not. */
static void
sf_expect(int n, const char *what, long r, int want)
{
	int	saved = errno;

	if (want == 0 && r != -1)
		return;
	if (want != 0 && r == -1 && saved == want)
		return;
	fprintf(stderr, "probe %d failed: %s: got %ld (%s), want %s\n", n,
	    what, r, r == -1 ? strerror(saved) : "no error",
	    want == 0 ? "success" : strerror(want));
	_exit(n);
}

/*
 * A size the kernel refuses before any permission check (and writes
 * back the size it wants: so a fresh one on every call).
 */
static long
sf_perf(unsigned long pid, int cpu, unsigned long flags)
{
	uint32_t	pa[2] = { 0, 1 };	/* type, size */

	return syscall(SYS_perf_event_open, pa, pid, cpu, -1, flags);
}

/* The calls that name no process, or refused whatever they name. */
static void
sf_flagged(int n, int filtered)
{
	int	bad = filtered ? EPERM : 0;

	errno = 0;
	sf_expect(n, "getpriority(PRIO_PGRP, 0)",
	    (getpriority(PRIO_PGRP, 0), errno ? -1 : 0), bad);
	errno = 0;
	sf_expect(n + 1, "getpriority(PRIO_USER, 0)",
	    (getpriority(PRIO_USER, 0), errno ? -1 : 0), bad);
	sf_expect(n + 2, "ioprio_get(IOPRIO_WHO_PGRP, 0)",
	    syscall(SYS_ioprio_get, SF_IOPRIO_PGRP, 0), bad);
	sf_expect(n + 3, "ioprio_get(IOPRIO_WHO_USER, 0)",
	    syscall(SYS_ioprio_get, SF_IOPRIO_USER, 0), bad);
	sf_expect(n + 4, "process_madvise(-1)", syscall(SYS_process_madvise,
	    -1, NULL, 0UL, 0, 0U), filtered ? EPERM : EBADF);
	sf_expect(n + 5, "process_mrelease(-1)",
	    syscall(SYS_process_mrelease, -1, 0U), filtered ? EPERM : EBADF);
	sf_expect(n + 6, "keyctl(-1)", syscall(SYS_keyctl, -1, 0, 0, 0, 0),
	    filtered ? EPERM : EOPNOTSUPP);
	sf_expect(n + 7, "add_key(NULL)", syscall(SYS_add_key, NULL, NULL,
	    NULL, 0UL, 0), filtered ? EPERM : EFAULT);
	sf_expect(n + 8, "request_key(NULL)", syscall(SYS_request_key, NULL,
	    NULL, NULL, 0), filtered ? EPERM : EFAULT);
	sf_expect(n + 9, "setns(-1)", syscall(SYS_setns, -1, 0),
	    filtered ? EPERM : EBADF);
	sf_expect(n + 10, "perf_event_open(pid -1)", sf_perf(~0UL, 0, 0),
	    filtered ? EPERM : E2BIG);
	sf_expect(n + 11, "perf_event_open(pid 0xffffffff)",
	    sf_perf(0xffffffffUL, 0, 0), filtered ? EPERM : E2BIG);
	sf_expect(n + 12, "perf_event_open(PERF_FLAG_PID_CGROUP)",
	    sf_perf(0, 0, SF_PERF_PID_CGROUP), filtered ? EPERM : E2BIG);
	sf_expect(n + 13, "perf_event_open(pid 0)", sf_perf(0, -1, 0), E2BIG);
	sf_expect(n + 14, "clone3(NULL, 0)", syscall(SYS_clone3, NULL, 0UL),
	    filtered ? ENOSYS : EINVAL);
	sf_expect(n + 15, "kcmp(self, self, KCMP_VM)", syscall(SYS_kcmp,
	    getpid(), getpid(), SF_KCMP_VM, 0UL, 0UL), bad);
}

static void *
sf_thread(void *arg)
{
	return arg;
}

/* What the command itself keeps: its own process, fork, threads. */
static void
sf_own(int n, pid_t other)
{
	pthread_t	t;
	void		*res = NULL;
	pid_t		g;
	size_t		i;
	int		st;
	cpu_set_t	set;

	for (i = 0; i < SF_NPROBES; i++)
		sf_expect(n, sf_probes[i].name, sf_probes[i].fn(0), 0);
	/* A read-only fact, also in /proc/<pid>/status: never filtered. */
	sf_expect(n + 1, "sched_getaffinity(other)",
	    sched_getaffinity(other, sizeof(set), &set), 0);
	sf_expect(n + 2, "nice(1)", (errno = 0, nice(1) == -1 && errno ?
	    -1 : 0), 0);
	if ((g = fork()) == 0)
		_exit(7);
	sf_expect(n + 3, "fork", g, 0);
	sf_expect(n + 4, "waitpid", waitpid(g, &st, 0), 0);
	sf_expect(n + 5, "the forked child's status", WIFEXITED(st) &&
	    WEXITSTATUS(st) == 7 ? 0 : (errno = ECHILD, -1), 0);
	errno = pthread_create(&t, NULL, sf_thread, &st);
	sf_expect(n + 6, "pthread_create", errno ? -1 : 0, 0);
	sf_expect(n + 7, "pthread_join", pthread_join(t, &res) == 0 &&
	    res == &st ? 0 : -1, 0);
	errno = pthread_getattr_np(pthread_self(), &(pthread_attr_t){ 0 });
	sf_expect(n + 8, "pthread_getattr_np", errno ? -1 : 0, 0);
}

/* Under the filter: every probe of another process is EPERM. */
static void
sf_child(pid_t other)
{
	size_t	i;
	int	rv;

	if ((rv = session_filter_load()) != 0) {
		errno = -rv;
		sf_expect(1, "session_filter_load", -1, 0);
	}
	for (i = 0; i < SF_NPROBES; i++)
		sf_expect(2, sf_probes[i].name, sf_probes[i].fn(other), EPERM);
	/* Garbage above the pid: refused, whatever the low half says. */
	sf_expect(3, "prlimit64(pid | 1 << 32)", syscall(SYS_prlimit64,
	    (1UL << 32) | (unsigned long)other, RLIMIT_NOFILE, NULL,
	    &(struct rlimit){ 0, 0 }), EPERM);
	sf_expect(4, "unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER), EPERM);
	sf_expect(5, "unshare(CLONE_NEWNS)", unshare(CLONE_NEWNS), EPERM);
	sf_expect(6, "clone(CLONE_NEWUSER)", syscall(SYS_clone,
	    CLONE_NEWUSER | SIGCHLD, 0UL, NULL, NULL, 0UL), EPERM);
	sf_flagged(10, 1);
	sf_own(30, other);
	_exit(0);
}

/* The control: the same probes, no filter, all allowed. */
static void
sf_control(pid_t other)
{
	size_t	i;

	for (i = 0; i < SF_NPROBES; i++)
		sf_expect(2, sf_probes[i].name, sf_probes[i].fn(other), 0);
	sf_flagged(10, 0);
	/*
	 * The kernel refuses a user namespace to a chrooted caller
	 * whatever the filter (the matrix tests in a chroot, as root):
	 * root's control is the mount namespace, refused by the filter too.
	 */
	if (geteuid() == 0)
		sf_expect(4, "unshare(CLONE_NEWNS) (as root)",
		    unshare(CLONE_NEWNS), 0);
	else
		sf_expect(4, "unshare(CLONE_NEWUSER) (needs user namespaces "
		    "on this host)", unshare(CLONE_NEWUSER), 0);
	_exit(0);
}

static void
sf_run(void (*fn)(pid_t))
{
	pid_t	pid, parent = getpid();
	int	st;

	if ((pid = fork()) == 0)
		fn(parent);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_filter_refuses(void **state)
{
	(void)state;
	sf_run(sf_child);
}

static void
test_filter_control(void **state)
{
	(void)state;
	sf_run(sf_control);
}

/*
 * A call of another ABI kills the process (SIGSYS): x32's getpid, which
 * a native filter must not read as a native number.
 */
static void
test_filter_badarch(void **state)
{
	pid_t	pid;
	int	st;

	(void)state;
	if ((pid = fork()) == 0) {
		if (session_filter_load() != 0)
			_exit(1);
		(void)syscall(SF_X32_BIT | SYS_getpid);
		_exit(2);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	/* Control: without the filter the same call returns. */
	errno = 0;
	(void)syscall(SF_X32_BIT | SYS_getpid);
	assert_true(errno == 0 || errno == ENOSYS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_count_zero),
		cmocka_unit_test(test_args_count_129),
		cmocka_unit_test(test_args_count_bounds_ok),
		cmocka_unit_test(test_args_bad_one_of_many),
		cmocka_unit_test(test_args_decode_vector),
		cmocka_unit_test(test_path_slash_verbatim),
		cmocka_unit_test(test_path_empty_name),
		cmocka_unit_test_setup_teardown(test_path_order_and_mode,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_not_found,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_never_cwd,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_too_long,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test(test_path_real_fixed_path),
		cmocka_unit_test(test_env_exact),
		cmocka_unit_test(test_env_rejects),
		cmocka_unit_test(test_user_match),
		cmocka_unit_test(test_sig_reset_reserved),
		cmocka_unit_test(test_tty_check),
		cmocka_unit_test(test_tty_reopen),
		cmocka_unit_test(test_tty_acquire),
		cmocka_unit_test_setup_teardown(test_reanchor_same,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_renamed,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_named_deleted,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_replaced,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_symlink_last,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_symlink_middle,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_deleted,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test_setup_teardown(test_reanchor_unreachable,
		    rafix_setup, rafix_teardown),
		cmocka_unit_test(test_reanchor_notdir),
		cmocka_unit_test(test_reanchor_reason),
		cmocka_unit_test(test_landlock_abi),
		cmocka_unit_test_setup_teardown(test_landlock_domain,
		    llfix_setup, llfix_teardown),
		cmocka_unit_test_setup_teardown(test_landlock_domain_abi2,
		    llfix_setup, llfix_teardown),
		cmocka_unit_test(test_landlock_control),
		cmocka_unit_test(test_landlock_refuses_abi1),
		cmocka_unit_test(test_landlock_describe),
		cmocka_unit_test(test_dirsock_good),
		cmocka_unit_test(test_dirsock_refusals),
		cmocka_unit_test(test_dirsock_reasons),
		cmocka_unit_test(test_dirsock_peer_not_root),
		cmocka_unit_test(test_filter_refuses),
		cmocka_unit_test(test_filter_control),
		cmocka_unit_test(test_filter_badarch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
