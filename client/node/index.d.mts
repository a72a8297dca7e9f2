// index.d.mts: the TypeScript declarations of index.mjs, the ESM face of
// index.js: the same names as index.d.ts, and the module as default.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

import cjs from './index.js';

export * from './index.js';
export default cjs;
