/*
 * intake.h: the client-input state machine of one relay session: frame
 * boundaries, the start frame and its single descriptor, input frames.
 * Runs in the unprivileged, sandboxed relay on untrusted client bytes.
 * Pure (no I/O except closing surplus descriptors) so it can be tested.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef RELAY_INTAKE_H
#define RELAY_INTAKE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"

enum intake_phase {
	INTAKE_START = 0,	/* admitted: start or resize frames */
	INTAKE_INPUT,		/* start accepted: input, resize, signal */
};

/* What intake_feed() found; errors carry an enum frame_error in *code. */
enum intake_event {
	INTAKE_MORE = 0,	/* all bytes taken, frame not complete */
	INTAKE_STARTED,		/* a valid start frame; see in->start */
	INTAKE_DATA,		/* an input frame; see intake_data() */
	INTAKE_RESIZE,		/* a resize frame; see in->ws */
	INTAKE_SIGNAL,		/* a signal frame; see in->sig */
	INTAKE_ERROR,		/* session must end; *code for the client */
};

struct intake {
	enum intake_phase	 phase;
	int			 dirfd;		/* the one descriptor, or -1 */
	unsigned int		 nfds;		/* descriptors ever received */
	int			 failed;	/* an error was reported */
	struct start_req	 start;		/* points into fr.payload */
	struct winsize_req	 ws;		/* the last resize frame */
	uint8_t			 sig;		/* the last signal frame */
	struct frame_reader	 fr;
};

void	intake_init(struct intake *);
void	intake_reset(struct intake *);	/* closes dirfd if still held */
int	intake_fds(struct intake *, const int *, size_t, uint16_t *);
int	intake_feed(struct intake *, const uint8_t *, size_t, size_t *,
	    uint16_t *);
void	intake_done(struct intake *);
const uint8_t *intake_data(const struct intake *, size_t *);
int	intake_take_dirfd(struct intake *);

#endif
