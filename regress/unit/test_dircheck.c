/*
 * test_dircheck.c: the parent's directory check (dircheck_start() of
 * parent/start.c, compiled in; the rest of that file is not reached
 * here, what it calls replaced).  Test only; any user.  The verdicts on
 * real descriptors, and proof that the check asks the kernel with
 * statx(AT_STATX_DONT_SYNC) and nothing else: a child runs it under a
 * seccomp filter that kills any stat call able to ask the file system
 * for fresh attributes, and the same filter is shown to kill a plain
 * fstat() (positive control).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <seccomp.h>

#include "proto/frame.h"
/* NOLINTNEXTLINE(bugprone-suspicious-include): the check is static */
#include "parent/start.c"

struct parent	*parent;

/* The start's steps are not reached by these tests. */
void
dbusd_req_free(struct dbusd_req *req)
{
	(void)req;
	abort();
}

int
dbusd_start(struct dbusd *bus, const struct unit_spec *spec,
    dbusd_req_cb cb, void *arg, struct dbusd_req **reqp)
{
	(void)bus, (void)spec, (void)cb, (void)arg, (void)reqp;
	abort();
}

int
dbusd_start_end(struct dbusd_req *req, char *job, size_t len)
{
	(void)req, (void)job, (void)len;
	abort();
}

int
unit_name_new(char name[64])
{
	(void)name;
	abort();
}

void
unit_step(struct session *s, enum unit_input in)
{
	(void)s, (void)in;
	abort();
}

int
pts_begin(struct session *s)
{
	(void)s;
	abort();
}

int
pty_open(const struct pty_spec *ps, int *peer, const char **what)
{
	(void)ps, (void)peer, (void)what;
	abort();
}

int
dirsock_make(int fd)
{
	(void)fd;
	abort();
}

int
msg_start_decode(const uint8_t *p, size_t len, struct start_args *a)
{
	(void)p, (void)len, (void)a;
	abort();
}

void
argv_digest(const struct start_args *a, char hash[65])
{
	(void)a, (void)hash;
	abort();
}

static char	dc_dir[] = "/tmp/opty-dircheck.XXXXXX";
static char	dc_file[sizeof(dc_dir) + 8];

static int
setup(void **state)
{
	int	fd;

	(void)state;
	if (mkdtemp(dc_dir) == NULL) {
		fprintf(stderr, "test_dircheck: mkdtemp: %s\n",
		    strerror(errno));
		return -1;
	}
	(void)snprintf(dc_file, sizeof(dc_file), "%s/file", dc_dir);
	if ((fd = open(dc_file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		fprintf(stderr, "test_dircheck: %s: %s\n", dc_file,
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
	unlink(dc_file);
	rmdir(dc_dir);
	return 0;
}

/* What the client puts in its start frame: its own fstat() of fd. */
static void
claim(int fd, struct msg_start *ms)
{
	struct stat	st;

	assert_int_equal(fstat(fd, &st), 0);
	memset(ms, 0, sizeof(*ms));
	ms->dev = (uint64_t)st.st_dev;
	ms->ino = (uint64_t)st.st_ino;
}

static void
test_verdicts(void **state)
{
	struct msg_start	ms, bad;
	int			dfd, pfd, ffd;

	(void)state;
	assert_true((dfd = open(dc_dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) != -1);
	assert_true((pfd = open(dc_dir, O_PATH | O_CLOEXEC)) != -1);
	assert_true((ffd = open(dc_file, O_RDONLY | O_CLOEXEC)) != -1);
	claim(dfd, &ms);
	assert_int_equal(dircheck_start(dfd, &ms), 0);
	assert_int_equal(dircheck_start(pfd, &ms), 0);
	bad = ms;
	bad.ino++;
	assert_int_equal(dircheck_start(dfd, &bad), ERR_DIR_MISMATCH);
	bad = ms;
	bad.dev ^= 1;
	assert_int_equal(dircheck_start(dfd, &bad), ERR_DIR_MISMATCH);
	claim(ffd, &bad);
	assert_int_equal(dircheck_start(ffd, &bad), ERR_NOTDIR);
	close(ffd);
	assert_int_equal(dircheck_start(ffd, &ms), ERR_NOTDIR);	/* EBADF */
	close(dfd);
	close(pfd);
}

/*
 * Kills fstat, newfstatat, and statx without AT_STATX_DONT_SYNC; the
 * rest of the process is left alone (default allow).
 */
static void
load_nosync_filter(void)
{
	scmp_filter_ctx	ctx;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL ||
	    seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(fstat),
	    0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(newfstatat),
	    0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(statx), 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, AT_STATX_DONT_SYNC, 0)) < 0 ||
	    seccomp_load(ctx) < 0)
		_exit(90);
	seccomp_release(ctx);
}

static int
child_dircheck(const char *dir, int plain_fstat)
{
	struct msg_start	ms;
	struct stat		st;
	int			dfd, rc;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return 91;
	if (fstat(dfd, &st) == -1) {
		close(dfd);
		return 91;
	}
	memset(&ms, 0, sizeof(ms));
	ms.dev = (uint64_t)st.st_dev;
	ms.ino = (uint64_t)st.st_ino;
	load_nosync_filter();
	if (plain_fstat) {
		(void)fstat(dfd, &st);
		rc = 92;
	} else
		rc = dircheck_start(dfd, &ms) == 0 ? 0 : 93;
	close(dfd);
	return rc;
}

static int
run_child(int plain_fstat)
{
	pid_t	pid;
	int	status;

	pid = fork();
	assert_true(pid != -1);
	if (pid == 0)
		_exit(child_dircheck(dc_dir, plain_fstat));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void
test_only_dont_sync(void **state)
{
	int	status;

	(void)state;
	status = run_child(0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("dircheck under the no-sync filter: %s %d",
		    WIFSIGNALED(status) ? "signal" : "exit",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
	/* Positive control: the filter does stop a syncing stat. */
	status = run_child(1);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSYS)
		fail_msg("plain fstat under the filter was not killed: %s %d",
		    WIFSIGNALED(status) ? "signal" : "exit",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_only_dont_sync),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
