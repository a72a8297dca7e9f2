/*
 * startframe.c: builds the frames opencode-pty-client sends (header +
 * payload, docs/PROTOCOL.md) in a caller's buffer: with -s one RESIZE
 * frame, then the start frame.  Runs as byk inside the client's seccomp
 * filter: pure computation.
 */
#include <stdio.h>

#include "client/client.h"

/* The RESIZE frame of -s; returns its length, or -1 with err. */
static int
resize_frame(const struct client_opts *o, uint8_t *buf, size_t buflen,
    char *err, size_t errlen)
{
	struct winsize_req	ws;
	int			n;

	if (buflen < FRAME_HDR_LEN) {
		snprintf(err, errlen, "resize frame: %s",
		    frame_strerror(FRAME_E_SPACE));
		return -1;
	}
	ws.rows = o->rows;
	ws.cols = o->cols;
	n = resize_encode(&ws, buf + FRAME_HDR_LEN, buflen - FRAME_HDR_LEN);
	if (n < 0) {
		snprintf(err, errlen, "resize frame: %s", frame_strerror(n));
		return -1;
	}
	frame_hdr_encode(buf, FRAME_RESIZE, (uint32_t)n);
	return FRAME_HDR_LEN + n;
}

/* Returns the length of all frames, or -1 with a reason in err. */
int
client_frame(const struct client_opts *o, const struct client_dir *dir,
    uint8_t *buf, size_t buflen, char *err, size_t errlen)
{
	struct start_req	req;
	int			i, n, pre = 0;

	if (o->rows != 0 || o->cols != 0) {
		if ((pre = resize_frame(o, buf, buflen, err, errlen)) == -1)
			return -1;
		buf += pre;
		buflen -= (size_t)pre;
	}
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
	return pre + FRAME_HDR_LEN + n;
}
