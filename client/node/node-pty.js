'use strict';
// node-pty.js: node-pty's spawn(file, args, options) and IPty members
// on Linux, as a thin layer over index.js (docs/NODE.md, "node-pty's
// interface"), for code written for node-pty.  What the design forbids
// (env, uid, gid, a TERM other than the fixed one) throws in spawn();
// nothing is ignored.  Runs in the Node service (user byk), untrusted by
// the supervisor like index.js.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const os = require('node:os');
const native = require('./index.js');

// The launcher sets TERM; a session cannot have another (docs/LAUNCHER.md).
const TERM = 'xterm-256color';
// node-pty's defaults for its flow control.
const XOFF = '\x13';
const XON = '\x11';
// The environment and the user are the supervisor's to fix; node-pty
// options that only Windows or macOS read are refused as well.
const REFUSED = {
	env: 'the environment is fixed by the supervisor (docs/LAUNCHER.md)',
	uid: 'sessions run as the session user only',
	gid: 'sessions run as the session user only',
	useConpty: 'Windows only', useConptyDll: 'Windows only',
	conptyInheritCursor: 'Windows only',
};
const KNOWN = new Set(['name', 'cols', 'rows', 'cwd', 'encoding',
	'handleFlowControl', 'flowControlPause', 'flowControlResume',
	'runtimeMaxSec', 'socketPath', 'helperPath']);

function checkCompat(file, args, o) {
	if (typeof file !== 'string' || file === '')
		throw new TypeError('file must be a non-empty string');
	if (!Array.isArray(args))
		throw new TypeError('args must be an array of strings (a ' +
		    'string is node-pty\'s Windows form)');
	for (const k of Object.keys(o)) {
		if (o[k] === undefined)
			continue;
		if (Object.hasOwn(REFUSED, k))
			throw new Error(`opencode-pty: option ${k} is not ` +
			    `supported: ${REFUSED[k]}`);
		if (!KNOWN.has(k))
			throw new Error(`opencode-pty: unknown option ${k}`);
	}
	if (o.name !== undefined && o.name !== TERM)
		throw new Error(`opencode-pty: option name must be '${TERM}' ` +
		    '(the TERM every session has) or absent');
}

function signalNumber(name) {
	return os.constants.signals[name] ?? 0;
}

class Terminal {
	constructor(file, args, options) {
		const o = { ...options };
		checkCompat(file, args, o);
		this._p = native.spawn([file, ...args], {
			cwd: o.cwd ?? process.cwd(),
			cols: o.cols ?? 80, rows: o.rows ?? 24,
			encoding: o.encoding === undefined ? 'utf8' : o.encoding,
			runtimeMaxSec: o.runtimeMaxSec,
			socketPath: o.socketPath, helperPath: o.helperPath,
		});
		this.process = file;
		this.handleFlowControl = !!o.handleFlowControl;
		this._xoff = o.flowControlPause ?? XOFF;
		this._xon = o.flowControlResume ?? XON;
	}

	// No PID of this process's world names the command (docs/NODE.md):
	// NaN, a number that prints and that process.kill() refuses.
	get pid() { return NaN; }
	get cols() { return this._p.cols; }
	get rows() { return this._p.rows; }

	onData(cb) { return this._p.onData(cb); }

	// node-pty's { exitCode, signal }, as its waitpid() gives them: the
	// status and signal 0 for an exit, 0 and the signal's number for a
	// death by signal.  A session that ended without an exit frame has
	// exitCode -1, signal 0 and its error here.
	onExit(cb) {
		return this._p.onExit((ev) => {
			const sig = ev.signal === undefined ? 0 :
			    signalNumber(ev.signal);
			cb({
				exitCode: ev.error ? -1 : sig ? 0 : ev.exitCode,
				signal: sig,
				...(ev.error ? { error: ev.error } : {}),
			});
		});
	}

	on(event, cb) {
		if (event === 'data')
			this.onData(cb);
		else if (event === 'exit')
			this.onExit((e) => cb(e.exitCode, e.signal));
		else
			throw new Error(`opencode-pty: no event '${event}'`);
	}

	write(data) {
		if (this.handleFlowControl) {
			if (data === this._xoff) {
				this.pause();
				return;
			}
			if (data === this._xon) {
				this.resume();
				return;
			}
		}
		this._p.write(data);
	}

	resize(columns, rows) { this._p.resize(rows, columns); }
	// node-pty's clear() acts on Windows only.
	clear() {}
	kill(signal) { this._p.kill(signal ?? 'SIGHUP'); }
	pause() { this._p.pause(); }
	resume() { this._p.resume(); }
	// Not node-pty's: the module's own disconnect (the unit is removed).
	destroy() { this._p.destroy(); }
}

function spawn(file, args, options) {
	return new Terminal(file, args ?? [], options ?? {});
}

module.exports = { spawn, Terminal, TERM };
