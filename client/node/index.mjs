// index.mjs: the ESM face of index.js (same objects, no second copy).
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)
import cjs from './index.js';

export const {
	spawn, Pty, SupervisorError, PtyError, FrameError, ERRORS, SIGNALS,
	SOCKET_PATH, HELPER_PATH, codec,
} = cjs;
export default cjs;
