/*
 * sigreset.c: gives the command the signal state a plain service gets
 * (session user, inside the PTY).  The interactive sh between script(1)
 * and stage 2 may ignore SIGINT/SIGQUIT/SIGTERM, and ignored signals
 * survive execve: without this, ^C on the PTY might not reach the
 * command.
 */
#include <signal.h>
#include <stddef.h>

#include "launcher/launcher.h"

int
sig_reset(void)
{
	struct sigaction	sa;
	sigset_t		none;
	int			sig;

	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	/* SIGKILL, SIGSTOP and libc's reserved signals refuse: harmless. */
	for (sig = 1; sig < NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL);
}
