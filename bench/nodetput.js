'use strict';
// nodetput.js: make bench's Node comparison (never installed; run by
// bench/nodebench.sh under the exact Node release).  Runs one command on
// a terminal and reads all its output as Buffers, either with node-pty
// in this process (a local PTY) or with the module client/node through
// the supervisor, and prints one line:
//
//	N PATH BYTES FIRST_US LAST_US EXIT_US EXITCODE SIGNAL
//
// times in microseconds from just before spawn() (node-pty forks there;
// the module opens the directory and connects there).  Usage:
//
//	node nodetput.js nodepty NODEPTY_DIR CWD -- ARGV...
//	node nodetput.js module MODULE_DIR CWD -- ARGV...
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const path = require('node:path');

const [mode, lib, cwd, dash, ...argv] = process.argv.slice(2);
if (!['nodepty', 'module'].includes(mode) || dash !== '--' || !argv.length) {
	process.stderr.write('usage: nodetput.js nodepty|module DIR CWD -- ' +
	    'ARGV...\n');
	process.exit(2);
}
const now = () => process.hrtime.bigint() / 1000n;
let bytes = 0;
let first = -1n;
let last = -1n;
const t0 = now();
const onData = (d) => {
	const t = now();
	if (first < 0n)
		first = t - t0;
	last = t - t0;
	bytes += d.length;
};
const done = (code, sig) => {
	const t = now() - t0;
	process.stdout.write(`N ${mode} ${bytes} ${first} ${last} ${t} ` +
	    `${code} ${sig || '-'}\n`);
	process.exit(0);
};

if (mode === 'nodepty') {
	const pty = require(path.resolve(lib));
	// Same size and environment as the supervisor's session
	// (docs/UNITS.md: 24x80, a fixed small environment).
	const p = pty.spawn(argv[0], argv.slice(1), { cols: 80, rows: 24, cwd,
	    encoding: null, env: { PATH: '/usr/bin:/bin', TERM: 'xterm-256color',
	    LANG: 'C.UTF-8' } });
	p.onData(onData);
	// node-pty reports the exit once the master reached its end, after
	// the last data event (lib/unixTerminal.js waits for 'close').
	p.onExit((e) => done(e.exitCode, e.signal));
} else {
	const mod = require(path.resolve(lib));
	const p = mod.spawn(argv, { cwd, encoding: null });
	p.onData(onData);
	p.onExit((e) => {
		if (e.error)
			process.stderr.write(`nodetput: ${e.error.code}: ` +
			    `${e.error.message}\n`);
		done(e.error ? -1 : e.exitCode, e.signal);
	});
}
