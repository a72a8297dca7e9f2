/*
 * startframe.c: builds the one start frame opencode-pty-client sends
 * (header + start payload, docs/PROTOCOL.md) in a caller's buffer.
 * Runs as byk inside the client's seccomp filter: pure computation.
 */
#include <stdio.h>

#include "client/client.h"

/* Returns the frame length, or -1 with a reason in err. */
int
client_frame(const struct client_opts *o, const struct client_dir *dir,
    uint8_t *buf, size_t buflen, char *err, size_t errlen)
{
	struct start_req	req;
	int			i, n;

	if (buflen < FRAME_HDR_LEN || o->argc < 1 ||
	    o->argc > START_MAX_ARGS) {
		snprintf(err, errlen, "start frame: bad arguments");
		return -1;
	}
	req.dev = dir->dev;
	req.ino = dir->ino;
	req.runtime = o->runtime;
	req.argc = (uint16_t)o->argc;
	for (i = 0; i < o->argc; i++) {
		req.argv[i] = (const uint8_t *)o->argv[i];
		req.arglen[i] = o->arglen[i];
	}
	n = start_encode(&req, buf + FRAME_HDR_LEN, buflen - FRAME_HDR_LEN);
	if (n < 0) {
		snprintf(err, errlen, "start frame: %s", frame_strerror(n));
		return -1;
	}
	frame_hdr_encode(buf, FRAME_START, (uint32_t)n);
	return FRAME_HDR_LEN + n;
}
