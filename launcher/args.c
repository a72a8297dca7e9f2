/*
 * args.c: the encoded argument vector of the launcher (session user).
 * Both stages run every argument through the same canonical decoder
 * before doing anything with any of them; stage 1 joins the encoded
 * forms with single spaces (the grammar has none) and stage 2 splits
 * them again, accepting only exactly that join.
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

/*
 * Only for arguments args_check() accepted: each is at most
 * ARG_ENC_MAX bytes and there are at most START_MAX_ARGS, so the
 * running length below cannot wrap.
 */
int
args_join(int n, char *const enc[], char *out, size_t outsz)
{
	size_t	o, len;
	int	i;

	if (outsz == 0)
		return -1;
	o = 0;
	for (i = 0; i < n; i++) {
		len = strlen(enc[i]);
		if (i > 0) {
			if (outsz - o < 2)
				return -1;
			out[o++] = ' ';
		}
		if (len >= outsz - o)
			return -1;
		memcpy(out + o, enc[i], len);
		o += len;
	}
	out[o] = '\0';
	return 0;
}

/*
 * Splits s in place at single spaces.  An empty field (leading,
 * trailing or doubled space) cannot come from args_join(): refuse it
 * rather than guess.  Returns the count, or -1.
 */
int
args_split(char *s, char *vec[], int max)
{
	char	*p, *sp;
	int	 n;

	n = 0;
	p = s;
	for (;;) {
		if (n == max)
			return -1;
		sp = strchr(p, ' ');
		if (sp == p || *p == '\0')
			return -1;
		vec[n++] = p;
		if (sp == NULL)
			break;
		*sp = '\0';
		p = sp + 1;
	}
	vec[n] = NULL;
	return n;
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
