/*
 * opty-argenc.c: a test tool (never installed; runs as
 * whoever runs the tests).  Prints the launcher encoding of each of its
 * arguments, one per line, so shell tests can build exactly the argv
 * the parent would put on an ExecStart line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "proto/argcodec.h"

int
main(int argc, char *argv[])
{
	static char	out[ARG_ENC_MAX + 1];
	int		i, r;

	for (i = 1; i < argc; i++) {
		r = arg_encode((const uint8_t *)argv[i], strlen(argv[i]), out,
		    sizeof(out));
		if (r < 0) {
			fprintf(stderr, "opty-argenc: argument %d: %s\n", i,
			    arg_strerror(r));
			return 1;
		}
		if (puts(out) == EOF) {
			perror("opty-argenc: stdout");
			return 1;
		}
	}
	if (fflush(stdout) == EOF) {
		perror("opty-argenc: stdout");
		return 1;
	}
	return 0;
}
