/*
 * landlock.c: the Landlock domain of a session (session user, in the
 * launcher, before the command exists).
 *
 * The domain exists for what Landlock does to any process inside one:
 * ptrace-class access (ptrace, pidfd_getfd, process_vm_readv/writev,
 * /proc/<pid>/root, cwd, fd, mem, environ) reaches only processes in
 * the same domain or below, so the command keeps tracing its own
 * children but cannot touch the Node service or any other process of
 * the session user.  From ABI 6 signals and abstract UNIX sockets are
 * scoped the same way.  File access must stay as it is, so the ruleset
 * handles only what a valid ruleset needs:
 *  - ABI >= 6: no file system right at all, the scopes alone;
 *  - ABI 2..5: a ruleset needs one handled right, and every domain with
 *    a handled file system right denies renames and links across
 *    directories (REFER) unless a rule grants it; so REFER is the one
 *    right handled, and one rule grants it beneath "/".  Nothing else is
 *    handled, so nothing else is denied;
 *  - ABI 1: REFER cannot be granted; refused (OPTY_LANDLOCK_ABI_MIN).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"

/* The kernel's UAPI values (include/uapi/linux/landlock.h). */
#define LL_ACCESS_FS_REFER		(1ULL << 13)
#define LL_RULE_PATH_BENEATH		1
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET	(1ULL << 0)
#define LL_SCOPE_SIGNAL			(1ULL << 1)

struct ll_ruleset_attr {
	uint64_t	handled_access_fs;
	uint64_t	handled_access_net;	/* ABI 4 */
	uint64_t	scoped;			/* ABI 6 */
};

struct ll_path_beneath_attr {
	uint64_t	allowed_access;
	int32_t		parent_fd;
} __attribute__((packed));

/* The one rule of ABI 2..5: renames and links allowed beneath "/". */
static int
ll_allow_refer(int rs)
{
	struct ll_path_beneath_attr	pb;
	int				root, r, saved;

	if ((root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = LL_ACCESS_FS_REFER;
	pb.parent_fd = root;
	r = (int)syscall(SYS_landlock_add_rule, rs, LL_RULE_PATH_BENEATH,
	    &pb, 0);
	saved = errno;
	close(root);
	errno = saved;
	return r == 0 ? 0 : -1;
}

int
landlock_enter(int abi)
{
	struct ll_ruleset_attr	attr;
	size_t			size;
	int			rs, saved;

	if (abi < OPTY_LANDLOCK_ABI_MIN) {
		errno = EOPNOTSUPP;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	/* Never handled: the network stays as the unit allows it. */
	attr.handled_access_net = 0;
	if (abi >= OPTY_LANDLOCK_ABI_SCOPE) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	} else {
		attr.handled_access_fs = LL_ACCESS_FS_REFER;
		size = sizeof(attr.handled_access_fs);
	}
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0U);
	if (rs == -1)
		return -1;
	/* The ruleset descriptor is close-on-exec from birth (kernel). */
	if ((abi < OPTY_LANDLOCK_ABI_SCOPE && ll_allow_refer(rs) == -1) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    syscall(SYS_landlock_restrict_self, rs, 0U) == -1) {
		saved = errno;
		close(rs);
		errno = saved;
		return -1;
	}
	close(rs);
	return 0;
}
