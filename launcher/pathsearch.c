/*
 * pathsearch.c: finds argv[0] of the command (session user, inside the
 * PTY).  execvp(3) would search the PATH of the *caller's* environment
 * and fall back to a built-in default; this searches only the fixed
 * PATH it is given, never the current directory, and a name with a
 * slash is taken as it is (relative names then resolve against the
 * approved directory, which is the cwd).
 */
#include <sys/stat.h>

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"

static int
is_executable(const char *p)
{
	struct stat	st;

	if (stat(p, &st) == -1 || !S_ISREG(st.st_mode))
		return 0;
	return access(p, X_OK) == 0;
}

int
path_lookup(const char *name, const char *path, char *out, size_t outsz)
{
	const char	*dir, *end;
	size_t		 nlen, dlen;

	nlen = strlen(name);
	if (nlen == 0)
		return PATH_E_EMPTY;
	if (strchr(name, '/') != NULL) {
		if (nlen >= outsz)
			return PATH_E_TOOLONG;
		memcpy(out, name, nlen + 1);
		return PATH_OK;
	}
	if (nlen > NAME_MAX)
		return PATH_E_TOOLONG;

	for (dir = path; ; dir = end + 1) {
		if ((end = strchr(dir, ':')) == NULL)
			end = dir + strlen(dir);
		dlen = (size_t)(end - dir);
		/* An empty element would mean ".": never search there. */
		if (dlen > 0 && dlen < outsz && nlen < outsz - dlen - 1) {
			memcpy(out, dir, dlen);
			out[dlen] = '/';
			memcpy(out + dlen + 1, name, nlen + 1);
			if (is_executable(out))
				return PATH_OK;
		}
		if (*end == '\0')
			break;
	}
	return PATH_E_NOTFOUND;
}
