/*
 * args.c: the encoded argument vector of the launcher (session user).
 * systemd hands the launcher the encoded arguments as its own argv;
 * every one of them goes through the canonical decoder before any is
 * used, and a single refusal stops the session.
 */
#include <stdlib.h>
#include <string.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"

int
args_check(int n, char *const enc[], struct argfault *af)
{
	static char	scratch[START_MAX_ARGLEN + 1];
	int		i, r;

	af->index = -1;
	af->status = ARG_OK;
	if (n < 1 || n > START_MAX_ARGS)
		return -1;
	for (i = 0; i < n; i++) {
		r = arg_decode(enc[i], scratch, sizeof(scratch));
		if (r < 0) {
			af->index = i;
			af->status = r;
			return -1;
		}
	}
	return 0;
}

void
args_free(int n, char *dec[])
{
	int	i;

	for (i = 0; i < n; i++) {
		free(dec[i]);
		dec[i] = NULL;
	}
}

/*
 * Decodes n checked-or-not arguments into freshly allocated strings;
 * dec needs n + 1 slots and ends NULL-terminated.  On failure nothing
 * stays allocated.
 */
int
args_decode(int n, char *const enc[], char *dec[], struct argfault *af)
{
	size_t	len;
	int	i, r;

	if (args_check(n, enc, af) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		len = strlen(enc[i]);	/* bounded by args_check() */
		if ((dec[i] = malloc(len + 1)) == NULL) {
			args_free(i, dec);
			af->index = i;
			af->status = ARG_E_SPACE;
			return -1;
		}
		r = arg_decode(enc[i], dec[i], len + 1);
		if (r < 0) {
			args_free(i + 1, dec);
			af->index = i;
			af->status = r;
			return -1;
		}
	}
	dec[n] = NULL;
	return 0;
}
