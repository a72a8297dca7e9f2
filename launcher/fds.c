/*
 * fds.c: descriptor hygiene of the launcher (session user).  Stage 1
 * hands /usr/bin/script exactly fd 0-2 plus the running image on fd 3;
 * stage 2 hands the command exactly fd 0-2.  systemd gives us nothing
 * else today, but what reaches the command is decided here, not by
 * whatever our parents happened to leave open.
 */
#include <fcntl.h>
#include <unistd.h>

#include "launcher/launcher.h"

int
fds_stdio_open(void)
{
	int	fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1)
			return -1;
	return 0;
}

int
fds_close_from(int lo)
{
	return close_range((unsigned int)lo, ~0U, 0);
}

/*
 * Opens what is running, not a path: /proc/self/exe is the image this
 * process was started from even if the file was replaced since.  The
 * descriptor is born close-on-exec and only the copy on fd 3, which
 * must survive script(1) and sh, loses the flag.  Callers have already
 * closed everything from fd 3 up.
 */
int
fds_bind_self(void)
{
	int	fd, flags;

	if ((fd = open(LAUNCHER_SELF_EXE, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fd == LAUNCHER_SELF_FD) {
		if (fcntl(fd, F_SETFD, 0) == -1) {
			close(fd);
			return -1;
		}
	} else {
		if (dup2(fd, LAUNCHER_SELF_FD) == -1) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	if ((flags = fcntl(LAUNCHER_SELF_FD, F_GETFD)) == -1 ||
	    (flags & FD_CLOEXEC) != 0)
		return -1;
	return 0;
}
