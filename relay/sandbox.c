/*
 * sandbox.c: the relay's one-way drop from root to an unprivileged,
 * chrooted, capability-less, seccomp-confined process (docs/SANDBOX.md).
 * Runs once, as root, before the relay reads a single client byte;
 * every step is fatal on failure, so the relay never serves half-dropped.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/ioctl.h>
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

#include "proto/config.h"
#include "proto/log.h"
#include "relay/sandbox.h"

static void
sandbox_chroot(const char *root)
{
	if (chroot(root) == -1)
		fatal("chroot %s", root);
	if (chdir("/") == -1)
		fatal("chdir /");
}

/*
 * The bounding set is emptied while we still have CAP_SETPCAP, so that
 * nothing, not even a later exec of a file with capabilities (which the
 * filter forbids anyway), could hand a capability back.
 */
static void
sandbox_drop_bounding(void)
{
	int	cap, rv;

	for (cap = 0; (rv = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0;
	    cap++) {
		if (rv == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
			fatal("PR_CAPBSET_DROP %d", cap);
	}
	if (errno != EINVAL)
		fatal("PR_CAPBSET_READ");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == -1)
		fatal("PR_CAP_AMBIENT_CLEAR_ALL");
}

static void
sandbox_caps(int set)
{
	struct __user_cap_header_struct	hdr;
	struct __user_cap_data_struct	data[_LINUX_CAPABILITY_U32S_3];
	size_t				i;

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	hdr.pid = 0;
	if (set) {
		/* Permitted and effective went with the uid. */
		if (syscall(SYS_capset, &hdr, data) == -1)
			fatal("capset");
		return;
	}
	if (syscall(SYS_capget, &hdr, data) == -1)
		fatal("capget");
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective != 0 || data[i].permitted != 0 ||
		    data[i].inheritable != 0)
			fatalx("capabilities left after the drop");
}

static void
sandbox_ids(uid_t uid, gid_t gid)
{
	uid_t	ru, eu, su;
	gid_t	rg, eg, sg;

	if (setgroups(0, NULL) == -1)
		fatal("setgroups");
	sandbox_drop_bounding();
	if (setresgid(gid, gid, gid) == -1)
		fatal("setresgid %u", (unsigned)gid);
	if (setresuid(uid, uid, uid) == -1)
		fatal("setresuid %u", (unsigned)uid);
	sandbox_caps(1);

	/* Proof, not hope: the way back must be closed. */
	if (setuid(0) != -1 || setgid(0) != -1)
		fatalx("could regain root after the drop");
	if (getresuid(&ru, &eu, &su) == -1 || getresgid(&rg, &eg, &sg) == -1)
		fatal("getresuid");
	if (ru != uid || eu != uid || su != uid ||
	    rg != gid || eg != gid || sg != gid)
		fatalx("ids not dropped");
	if (getgroups(0, NULL) != 0)
		fatalx("supplementary groups left");
	sandbox_caps(0);
}

static void
sandbox_limit(int res, rlim_t val, const char *name)
{
	struct rlimit	rl;

	rl.rlim_cur = rl.rlim_max = val;
	if (setrlimit(res, &rl) == -1)
		fatal("setrlimit %s", name);
}

static void
sandbox_rlimits(void)
{
	struct sigaction	sa;

	sandbox_limit(RLIMIT_NOFILE, SANDBOX_NOFILE, "NOFILE");
	sandbox_limit(RLIMIT_NPROC, 0, "NPROC");
	sandbox_limit(RLIMIT_FSIZE, 0, "FSIZE");
	sandbox_limit(RLIMIT_CORE, 0, "CORE");
	sandbox_limit(RLIMIT_MEMLOCK, 0, "MEMLOCK");
	/* A log line to a file-backed stderr then fails, it does not kill. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXFSZ, &sa, NULL) == -1)
		fatal("sigaction SIGXFSZ");
}

static void
sandbox_allow(scmp_filter_ctx ctx, int nr, const char *name)
{
	int	rv;

	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) < 0)
		fatalx("seccomp allow %s: %s", name, strerror(-rv));
}

/* Memory calls may not make anything executable. */
static void
sandbox_allow_noexec(scmp_filter_ctx ctx, int nr, const char *name)
{
	int	rv;

	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0))) < 0)
		fatalx("seccomp allow %s: %s", name, strerror(-rv));
}

#define ALLOW(ctx, call)	sandbox_allow(ctx, SCMP_SYS(call), #call)

/*
 * Exactly what the event loop uses; docs/SANDBOX.md says why each one.
 * Anything else kills the whole process.  No call on the list takes a
 * path: a filter sees only the pointer, never the string, so a call
 * that resolves a name (newfstatat even with AT_EMPTY_PATH) cannot be
 * allowed half-way.  Log lines are one write(2) each (proto/log.c).
 */
static void
sandbox_seccomp(void)
{
	scmp_filter_ctx	ctx;
	int		rv;

	if ((ctx = seccomp_init(SCMP_ACT_KILL_PROCESS)) == NULL)
		fatalx("seccomp_init");
	if ((rv = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS)) < 0 ||
	    (rv = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1)) < 0)
		fatalx("seccomp_attr_set: %s", strerror(-rv));

	ALLOW(ctx, accept4);
	ALLOW(ctx, recvmsg);
	ALLOW(ctx, recvfrom);
	ALLOW(ctx, sendmsg);
	ALLOW(ctx, sendto);
	ALLOW(ctx, write);
	/* A PTY master is not a socket: recv*(2) fail on it (ENOTSOCK). */
	ALLOW(ctx, read);
	/* The one ioctl: a session's window size, on its master. */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
	    SCMP_A1(SCMP_CMP_EQ, TIOCSWINSZ))) < 0)
		fatalx("seccomp allow ioctl TIOCSWINSZ: %s", strerror(-rv));
	ALLOW(ctx, close);
	ALLOW(ctx, epoll_wait);
	ALLOW(ctx, epoll_pwait);
	ALLOW(ctx, epoll_ctl);
	ALLOW(ctx, clock_gettime);
	ALLOW(ctx, gettimeofday);
	ALLOW(ctx, brk);
	sandbox_allow_noexec(ctx, SCMP_SYS(mmap), "mmap");
	sandbox_allow_noexec(ctx, SCMP_SYS(mprotect), "mprotect");
	ALLOW(ctx, munmap);
	ALLOW(ctx, mremap);
	ALLOW(ctx, madvise);
	ALLOW(ctx, restart_syscall);
	ALLOW(ctx, exit);
	ALLOW(ctx, exit_group);
#ifdef __SANITIZE_ADDRESS__
	/*
	 * ASan builds only (make check-asan): the runtime asks where the
	 * alternate signal stack is before every noreturn call, exit
	 * included.  A query (no new stack), never in a production build.
	 */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sigaltstack),
	    1, SCMP_A0(SCMP_CMP_EQ, 0))) < 0)
		fatalx("seccomp allow sigaltstack: %s", strerror(-rv));
#endif

	if ((rv = seccomp_load(ctx)) < 0)
		fatalx("seccomp_load: %s", strerror(-rv));
	seccomp_release(ctx);
}

/*
 * root: an empty directory only root can write; uid, gid: the relay's
 * own account, resolved by the parent (the relay reads no user
 * database).  Order matters: chroot needs CAP_SYS_CHROOT, the bounding
 * set needs CAP_SETPCAP, the ids need CAP_SETUID/SETGID, so the
 * capability-using steps come first and the filter last.
 */
void
relay_sandbox(const char *root, uid_t uid, gid_t gid)
{
	pid_t	ppid = getppid();

	if (uid == 0 || gid == 0)
		fatalx("relay uid %u gid %u: must not be root or group root",
		    (unsigned)uid, (unsigned)gid);
	sandbox_chroot(root);
	sandbox_ids(uid, gid);
	/*
	 * The parent holds no capability once the relay runs, so it cannot
	 * signal us (another uid): its death kills us instead.  Set after
	 * the id change, which clears it; a parent already gone is checked.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == -1)
		fatal("PR_SET_PDEATHSIG");
	if (getppid() != ppid)
		fatalx("the parent exited while the relay was starting");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		fatal("PR_SET_NO_NEW_PRIVS");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		fatal("PR_SET_DUMPABLE");
	sandbox_rlimits();
	sandbox_seccomp();
}
