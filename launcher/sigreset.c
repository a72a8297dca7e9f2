/*
 * sigreset.c: gives the command the signal state a plain service gets
 * (session user, last step before execve).  Ignored signals and the
 * blocked mask survive execve: the command's state is decided here, not
 * by whatever started the launcher (systemd resets them today), so that
 * ^C on the terminal reaches it.
 */
#include <sys/syscall.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "launcher/launcher.h"

/*
 * glibc keeps 32 and 33 for itself and sigaction(2) through it refuses
 * them, yet an ignored one is inherited across execve like any other:
 * only the raw system call puts them back to SIG_DFL for the command,
 * which may not be a glibc program at all.
 */
static void
sig_reset_reserved(int sig)
{
	/* The kernel's struct sigaction (generic layout: x86_64, aarch64):
	 * handler, flags, restorer, mask; all zero is SIG_DFL. */
	unsigned long	ksa[4] = { 0, 0, 0, 0 };

	(void)syscall(SYS_rt_sigaction, sig, ksa, NULL, sizeof(ksa[3]));
}

int
sig_reset(void)
{
	struct sigaction	sa;
	sigset_t		none;
	int			sig;

	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	/* SIGKILL and SIGSTOP refuse: harmless. */
	for (sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, &sa, NULL) == -1 && sig != SIGKILL &&
		    sig != SIGSTOP)
			sig_reset_reserved(sig);
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL);
}
