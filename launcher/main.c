/*
 * main.c: opencode-pty-launcher (session user, ExecStart of a session
 * unit).  Two stages in one reviewed binary: the first is what systemd
 * starts, the second is the same image re-executed through fd 3 inside
 * the PTY that script(1) made.  docs/LAUNCHER.md explains both.
 */
#include <string.h>

#include "launcher/launcher.h"

int
main(int argc, char *argv[])
{
	/* "--exec" is outside the argument grammar: no encoded argv is it. */
	if (argc == 2 && strcmp(argv[1], LAUNCHER_EXEC_FLAG) == 0)
		stage_inner();
	stage_outer(argc, argv);
}
