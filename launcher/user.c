/*
 * user.c: the session-user check of stage 2 (session user).  The unit's
 * User= already decides who we are; this refuses to build an
 * environment for anyone else, so a launcher started by mistake under
 * another identity stops instead of running a command as that identity
 * with a HOME that is not its own.
 */
#include <pwd.h>
#include <string.h>

#include "launcher/launcher.h"

int
user_match(const struct passwd *pw, uid_t uid, const char *want)
{
	if (pw == NULL || pw->pw_name == NULL || pw->pw_dir == NULL)
		return -1;
	if (pw->pw_uid != uid)
		return -1;
	if (strcmp(pw->pw_name, want) != 0)
		return -1;
	return 0;
}
