/*
 * env.c: who the command runs as and its whole environment (session
 * user).  The unit's User= already decides who we are; user_match()
 * refuses to build an environment for anyone else, so a launcher
 * started by mistake under another identity stops instead of running a
 * command as that identity with a HOME that is not its own.  Nothing is
 * inherited: the six variables are fixed but for the user's name and
 * home, which come from the password database for the real uid, never
 * from the environment systemd gave us.
 */
#include <pwd.h>
#include <stdio.h>
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

static int
env_set(struct fixedenv *fe, int i, const char *name, const char *value)
{
	int	len;

	len = snprintf(fe->buf[i], sizeof(fe->buf[i]), "%s=%s", name, value);
	if (len < 0 || (size_t)len >= sizeof(fe->buf[i]))
		return -1;
	fe->vec[i] = fe->buf[i];
	return 0;
}

int
env_build(struct fixedenv *fe, const char *user, const char *home)
{
	memset(fe, 0, sizeof(*fe));
	if (user == NULL || home == NULL || *user == '\0' || home[0] != '/')
		return -1;
	/* Sorted, as env(1) and the tests list them. */
	if (env_set(fe, 0, "HOME", home) == -1 ||
	    env_set(fe, 1, "LANG", LAUNCHER_LANG) == -1 ||
	    env_set(fe, 2, "LOGNAME", user) == -1 ||
	    env_set(fe, 3, "PATH", LAUNCHER_PATH) == -1 ||
	    env_set(fe, 4, "TERM", LAUNCHER_TERM) == -1 ||
	    env_set(fe, 5, "USER", user) == -1) {
		memset(fe, 0, sizeof(*fe));
		return -1;
	}
	fe->vec[ENV_COUNT] = NULL;
	return 0;
}
