'use strict';
// nodetput.js: make bench's Node comparison (never installed; run by
// bench/nodebench.sh under the exact Node release).  Runs one command on
// a terminal and reads all its output, either with node-pty in this
// process (a local PTY) or with the module client/node through the
// supervisor, as Buffers or as strings (each library's default, UTF-8),
// and prints one line:
//
//	N PATH BYTES FIRST_US LAST_US EXIT_US EXITCODE SIGNAL \
//	    CONNECT_US HELPER_US HELPER_EXIT_US CPU_US
//
// times in microseconds from just before spawn() (node-pty forks there;
// the module opens the directory and connects there); the library is
// loaded before.  BYTES counts string lengths in the -str paths: the
// commands of the bench write ASCII only.  The last three are the
// module's steps before the supervisor has the start frame: the socket
// connected, the helper forked and exec'd (its 'spawn' event), the
// helper gone (it has sent the start frame); '-' for node-pty.  They are
// seen from outside the module, by wrapping the two Node calls it makes
// (net.connect, child_process.spawn), so the module is the shipped one.
// CPU_US: the Node process's own CPU time (user + system) over the
// session, from process.cpuUsage(), so the reader's cost per byte is
// told apart from the path's.
// With -n N the process runs N sessions one after the other, as the
// long-lived service does, after one more that is not reported (the
// first session of a process also pays for loading and compiling the
// library's code paths), and prints a line for each.  Usage:
//
//	node nodetput.js [-n N] nodepty|nodepty-str NODEPTY_DIR CWD -- ARGV...
//	node nodetput.js [-n N] module|module-str MODULE_DIR CWD -- ARGV...
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const path = require('node:path');
const net = require('node:net');
const childProcess = require('node:child_process');

const PATHS = ['nodepty', 'nodepty-str', 'module', 'module-str'];
const args = process.argv.slice(2);
let sessions = 1;
let warm = 0;
if (args[0] === '-n') {
	sessions = Number(args[1]);
	warm = 1;
	args.splice(0, 2);
}
const [mode, lib, cwd, dash, ...argv] = args;
if (!PATHS.includes(mode) || dash !== '--' || !argv.length ||
    !Number.isInteger(sessions) || sessions < 1) {
	process.stderr.write('usage: nodetput.js [-n N] ' + PATHS.join('|') +
	    ' DIR CWD -- ARGV...\n');
	process.exit(2);
}
const encoding = mode.endsWith('-str') ? 'utf8' : null;
const now = () => process.hrtime.bigint() / 1000n;
const since = (t) => (t < 0n ? '-' : `${t}`);
let t0, cpu0, bytes, first, last, steps;

const onData = (d) => {
	const t = now();
	if (first < 0n)
		first = t - t0;
	last = t - t0;
	bytes += d.length;
};
const done = (code, sig) => {
	const t = now() - t0;
	const c = process.cpuUsage(cpu0);
	const s = mode.startsWith('module') ? steps : null;
	if (warm > 0) {
		warm--;
	} else {
		process.stdout.write(`N ${mode} ${bytes} ${first} ${last} ` +
		    `${t} ${code} ${sig || '-'} ${s ? since(s.connect) : '-'} ` +
		    `${s ? since(s.helper) : '-'} ` +
		    `${s ? since(s.helperExit) : '-'} ${c.user + c.system}\n`);
		sessions--;
	}
	if (sessions > 0)
		setImmediate(run);
	else
		process.exit(0);
};

// The module's two calls, timed from outside.
const connect = net.connect;
net.connect = function (...a) {
	const s = connect.apply(this, a);
	s.once('connect', () => { steps.connect = now() - t0; });
	return s;
};
const spawnChild = childProcess.spawn;
childProcess.spawn = function (...a) {
	const c = spawnChild.apply(this, a);
	c.once('spawn', () => { steps.helper = now() - t0; });
	c.once('exit', () => { steps.helperExit = now() - t0; });
	return c;
};

const lib0 = require(path.resolve(lib));
function run() {
	bytes = 0;
	first = -1n;
	last = -1n;
	steps = { connect: -1n, helper: -1n, helperExit: -1n };
	cpu0 = process.cpuUsage();
	t0 = now();
	if (mode.startsWith('nodepty')) {
		// Same size and environment as the supervisor's session
		// (docs/UNITS.md: 24x80, a fixed small environment).
		const p = lib0.spawn(argv[0], argv.slice(1), { cols: 80,
		    rows: 24, cwd, encoding, env: { PATH: '/usr/bin:/bin',
		    TERM: 'xterm-256color', LANG: 'C.UTF-8' } });
		p.onData(onData);
		// node-pty reports the exit once the master reached its end,
		// after the last data event (lib/unixTerminal.js waits for
		// 'close').
		p.onExit((e) => done(e.exitCode, e.signal));
		return;
	}
	const p = lib0.spawn(argv, { cwd, encoding });
	p.onData(onData);
	p.onExit((e) => {
		if (e.error)
			process.stderr.write(`nodetput: ${e.error.code}: ` +
			    `${e.error.message}\n`);
		done(e.error ? -1 : e.exitCode, e.signal);
	});
}
run();
