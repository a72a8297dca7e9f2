'use strict';
// index.js: a node-pty-like client of the opencode-pty supervisor for the
// Node service (opencode-v2.service, user byk).  Dependency-free: it
// opens the directory, connects to the supervisor's socket, runs the
// fixed helper with exactly that socket as fd 3 and the directory as
// fd 4 (the helper sends the start frame), then speaks the frames of
// docs/PROTOCOL.md on the socket itself.  Trusts the supervisor's frames
// only after codec.js has checked them.  See docs/NODE.md.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const fs = require('node:fs');
const net = require('node:net');
const childProcess = require('node:child_process');
const { StringDecoder } = require('node:string_decoder');
const os = require('node:os');
const codec = require('./codec.js');

const SOCKET_PATH = '/run/opencode-pty/supervisor.sock';
// The build's LIBEXECDIR (client/node/build.mk rewrites this one line in
// the copy it installs: $(BUILD)/nodejs); here, the GNUmakefile's default,
// so that the module as it stands in the tree is the default install's.
const HELPER_PATH = '/usr/local/libexec/opencode-pty-client';
const STDERR_MAX = 4096;
// Input written before the start frame is held here: write() returns
// false past PRESTART_HWM bytes held (onDrain follows once they are on
// the socket) and throws past PRESTART_MAX.
const PRESTART_HWM = 65536;
const PRESTART_MAX = 1048576;
const HELPER_GRACE_MS = 500;	// see _helperDone
// The helper's status for a descriptor above 4 it should not have
// (docs/CLIENT.md, client/client.h: CLIENT_EXIT_EXTRA_FD).
const HELPER_EXIT_EXTRA_FD = 5;

// An error frame from the supervisor: code is the name of PROTOCOL.md
// ('ERR_BUSY'; 'ERR_UNKNOWN' for a number not in the table), as Node's
// own errors carry theirs, and number the code on the wire.
class SupervisorError extends Error {
	constructor(number, text) {
		const code = codec.ERROR_NAMES.get(number) || 'ERR_UNKNOWN';
		super(`${code} (${number}): ${text}`);
		this.name = 'SupervisorError';
		this.code = code;
		this.number = number;
		this.text = text;
	}
}

// A failure on this side: the helper refused, the connection broke, or
// the supervisor sent a frame the codec refuses (cause: a FrameError).
class PtyError extends Error {
	constructor(code, message, extra) {
		super(message);
		this.name = 'PtyError';
		this.code = code;
		Object.assign(this, extra);
	}
}

function signalNumber(sig) {
	if (typeof sig === 'number') {
		if (codec.signalAllowed(sig))
			return sig;
	} else if (typeof sig === 'string') {
		const name = sig.startsWith('SIG') ? sig : `SIG${sig}`;
		if (Object.hasOwn(codec.SIGNALS, name))
			return codec.SIGNALS[name];
	}
	throw new RangeError(`signal not allowed: ${String(sig)} (one of ` +
	    `${Object.keys(codec.SIGNALS).join(' ')})`);
}

// The name of any Linux signal number, for the exit of a killed command.
function signalName(n) {
	for (const [k, v] of Object.entries(os.constants.signals))
		if (v === n)
			return k;
	return `SIG${n}`;
}

function checkOptions(argv, o) {
	if (!Array.isArray(argv) || argv.length < 1 ||
	    argv.length > codec.START_MAX_ARGS)
		throw new TypeError('argv must be an array of 1..128 strings');
	for (const a of argv)
		if (typeof a !== 'string' || a.includes('\0'))
			throw new TypeError('argv: strings without NUL only');
	if (argv[0] === '')
		throw new TypeError('argv[0] must not be empty');
	if (typeof o.cwd !== 'string' || o.cwd === '')
		throw new TypeError('cwd is required');
	if ((o.rows !== undefined || o.cols !== undefined) &&
	    !codec.winsizeValid(o.rows, o.cols))
		throw new RangeError('rows and cols: both 1..4096');
	const rt = o.runtimeMaxSec;
	if (rt !== undefined && rt !== 0 && !(Number.isInteger(rt) &&
	    rt >= 1 && rt <= codec.START_MAX_RUNTIME))
		throw new RangeError('runtimeMaxSec: 0 or 1..3600');
	// The start frame the helper will send, built here once so that an
	// argument over 4096 bytes or a frame over 64 KiB throws now.
	try {
		codec.encodeStart({ dev: 0, ino: 0, runtime: rt || 0, argv });
	} catch (e) {
		if (!(e instanceof codec.FrameError))
			throw e;
		throw new RangeError(`argv: ${e.code === 'FRAME_E_ARGLEN' ?
		    'an argument over 4096 bytes' : 'over the start frame\'s ' +
		    '64 KiB'} (${e.code})`, { cause: e });
	}
}

function helperArgs(argv, o) {
	const args = [];
	if (o.runtimeMaxSec)
		args.push('-t', String(o.runtimeMaxSec));
	if (o.rows !== undefined)
		args.push('-s', `${o.rows}x${o.cols}`);
	return args.concat('--', argv);
}

/*
 * The supervisor closes right after its exit or error frame, and a write
 * made before that frame is read fails with EPIPE (or ECONNRESET).  A
 * stream destroys itself on a write error, and the frame already in the
 * socket's receive buffer would be lost with it.  Such a write is
 * dropped instead, as input to a terminal that is gone, and the read
 * side says how the session ended: its frame, or EEOF without one.
 */
const PEER_GONE = new Set(['EPIPE', 'ECONNRESET']);

function readSideEnds(sock) {
	const keep = (cb) => (err) => cb(err && PEER_GONE.has(err.code) ?
	    null : err);
	const write = sock._write;
	const writev = sock._writev;
	sock._write = (data, enc, cb) => write.call(sock, data, enc, keep(cb));
	if (typeof writev === 'function')
		sock._writev = (chunks, cb) => writev.call(sock, chunks,
		    keep(cb));
}

// A small listener list with node-pty's IDisposable shape.
class Emitter {
	constructor() {
		this.list = [];
	}

	add(cb) {
		if (typeof cb !== 'function')
			throw new TypeError('listener must be a function');
		this.list.push(cb);
		return { dispose: () => {
			this.list = this.list.filter((f) => f !== cb);
		} };
	}

	// What a listener returns is ignored; an exception it throws goes
	// on up at once, as from an EventEmitter's emit().
	fire(v) {
		for (const cb of this.list.slice())
			cb(v);
	}
}

class Pty {
	constructor(argv, options) {
		const o = { ...options };
		checkOptions(argv, o);
		this.pid = undefined;	// no pid: see docs/NODE.md
		this.cols = o.cols ?? 80;
		this.rows = o.rows ?? 24;
		this._data = new Emitter();
		this._exit = new Emitter();
		this._error = new Emitter();
		this._drain = new Emitter();
		this._reader = new codec.FrameReader();
		this._decoder = o.encoding === null ? null :
		    new StringDecoder(o.encoding || 'utf8');
		this._queue = [];	// frames held until the helper is done
		this._queued = 0;	// their input bytes
		this._drainOwed = false;	// write() said false before the start
		this._started = false;
		this._paused = false;
		this._ended = false;
		this._exitInfo = null;
		this._stderr = '';
		this._helperError = null;	// reported unless a refusal comes
		this._graceTimer = undefined;
		this._helperRuns = 0;
		this._helperPath = o.helperPath || HELPER_PATH;
		this._args = helperArgs(argv, o);
		// Throws on a missing or unreadable directory: nothing is open yet.
		this._dirFd = fs.openSync(o.cwd,
		    fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
		this._sock = net.connect(o.socketPath || SOCKET_PATH);
		readSideEnds(this._sock);
		this._sock.on('connect', () => this._spawnHelper());
		this._sock.on('data', (b) => this._onBytes(b));
		this._sock.on('end', () => this._onEnd());
		this._sock.on('error', (e) => this._onSocketError(e));
		this._sock.on('drain', () => this._emitDrain());
		this._sock.on('close', () => this._closeDir());
	}

	_closeDir() {
		if (this._dirFd !== -1) {
			fs.closeSync(this._dirFd);
			this._dirFd = -1;
		}
	}

	/*
	 * The socket's own descriptor goes to the helper as a plain fd number:
	 * the child gets a dup2() of it at index 3 and the socket here is left
	 * as it is.  Passing the net.Socket object instead would make Node
	 * stop reading it (it treats a stream given as stdio as the child's).
	 */
	_spawnHelper() {
		const fd = this._sock._handle && this._sock._handle.fd;
		if (!Number.isInteger(fd) || fd < 0) {
			this._fail(new PtyError('ENOFD',
			    'the socket exposes no descriptor (_handle.fd)'));
			return;
		}
		let child;
		this._helperRuns++;
		this._stderr = '';
		try {
			child = childProcess.spawn(this._helperPath, this._args, {
				stdio: ['ignore', 'ignore', 'pipe', fd, this._dirFd],
			});
		} catch (e) {
			this._closeDir();
			this._fail(new PtyError('EHELPER',
			    `cannot run the helper: ${e.message}`, { cause: e }));
			return;
		}
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (s) => {
			if (this._stderr.length < STDERR_MAX)
				this._stderr += s.slice(0, STDERR_MAX -
				    this._stderr.length);
		});
		child.on('error', (e) => this._fail(new PtyError('EHELPER',
		    `cannot run the helper: ${e.message}`, { cause: e })));
		child.on('close', (status, sig) => this._helperDone(status, sig));
	}

	/*
	 * A helper whose send failed because the supervisor had already
	 * refused the connection (ERR_BUSY, say) leaves that error frame and
	 * the end in the socket's buffer, though its exit may be seen here
	 * first: the refusal is the answer, so the connection gets a moment
	 * to deliver it before the helper's failure is reported.
	 */
	_helperDone(status, sig) {
		if (this._retryHelper(status))
			return;
		this._closeDir();
		if (status !== 0) {
			const why = sig ? `killed by ${sig}` : `exit ${status}`;
			const err = new PtyError('EHELPER', `helper failed (${why}): ` +
			    this._stderr.trim(), { status, signal: sig });
			if (this._ended || this._sock.destroyed) {
				this._fail(err);
				return;
			}
			this._helperError = err;
			this._graceTimer = setTimeout(() => this._fail(err),
			    HELPER_GRACE_MS);
			return;
		}
		this._started = true;
		const q = this._queue;
		this._queue = [];
		this._queued = 0;
		let flowing = true;
		for (const b of q)
			flowing = this._send(b);
		// The socket's own drain comes when it has taken them all.
		if (flowing && this._drainOwed)
			setImmediate(() => this._emitDrain());
	}

	/*
	 * A descriptor without close-on-exec that another thread of this
	 * process had open for a moment (a worker's spawn, a native addon)
	 * can reach the helper spawned at that moment; the helper then
	 * refuses before it sends anything.  The helper is run once more; a
	 * descriptor that stays (an inherited one) is refused again, and
	 * that is the error.
	 */
	_retryHelper(status) {
		if (status !== HELPER_EXIT_EXTRA_FD || this._helperRuns !== 1 ||
		    this._ended || this._sock.destroyed)
			return false;
		this._spawnHelper();
		return true;
	}

	// Frames from this side wait until the helper has sent the start
	// frame on the same socket: bytes must not interleave with it.
	_send(buf) {
		if (this._ended || this._sock.destroyed)
			return false;
		if (!this._started) {
			this._queue.push(buf);
			return true;
		}
		return this._sock.write(buf);
	}

	_emitDrain() {
		this._drainOwed = false;
		if (!this._ended)
			this._listen(this._drain, undefined);
	}

	/*
	 * A listener that throws ends the session as an error would (the
	 * socket closed, so the supervisor stops the unit; onError, onExit
	 * with a PtyError ELISTENER), then its exception goes on up.
	 */
	_listen(em, v) {
		try {
			em.fire(v);
		} catch (e) {
			if (!this._ended) {
				try {
					this._fail(new PtyError('ELISTENER',
					    `a listener threw: ${e && e.message}`,
					    { cause: e }));
				} catch {
					// the first exception is the one that goes on
				}
			}
			throw e;
		}
	}

	_onBytes(b) {
		this._reader.push(b);
		this._pump();
	}

	_pump() {
		while (!this._paused && !this._ended) {
			let f;
			try {
				f = this._reader.next();
			} catch (e) {
				this._fail(new PtyError('EPROTO',
				    `bad frame from the supervisor: ${e.code}`,
				    { cause: e }));
				return;
			}
			if (f === null)
				return;
			this._frame(f);
		}
	}

	_frame(f) {
		switch (f.type) {
		case codec.TYPE.OUTPUT: {
			const v = this._decoder ? this._decoder.write(f.data) : f.data;
			if (v.length > 0 || !this._decoder)
				this._listen(this._data, v);
			break;
		}
		case codec.TYPE.EXIT:
			this._finish(this._exitEvent(f));
			break;
		case codec.TYPE.ERROR: {
			const e = new SupervisorError(f.code, f.text);
			this._fail(e);
			break;
		}
		default:
			this._fail(new PtyError('EPROTO',
			    `unexpected frame type ${f.type} from the supervisor`));
		}
	}

	_exitEvent(f) {
		const ev = { exitCode: null, signal: undefined, result: f.result,
		    code: f.code, status: f.status };
		if (f.code === 1) {
			ev.exitCode = f.status;
		} else {
			ev.signal = signalName(f.status);
			ev.exitCode = 128 + f.status;
		}
		return ev;
	}

	_flushDecoder() {
		if (this._decoder) {
			const rest = this._decoder.end();
			if (rest.length > 0)
				this._listen(this._data, rest);
		}
	}

	_finish(ev) {
		if (this._ended)
			return;
		clearTimeout(this._graceTimer);
		this._flushDecoder();
		this._ended = true;
		this._exitInfo = ev;
		this._sock.destroy();
		this._closeDir();
		this._exit.fire(ev);
	}

	/*
	 * The end, whatever its error listeners do: one that throws does not
	 * keep the session from ending; its exception goes on up after.
	 */
	_fail(err) {
		if (this._ended)
			return;
		let thrown = null;
		try {
			this._error.fire(err);
		} catch (e) {
			thrown = { e };
		}
		this._finish({ exitCode: null, signal: undefined,
		    result: undefined, error: err });
		if (thrown)
			throw thrown.e;
	}

	_onEnd() {
		// Frames still held while paused are delivered on resume().
		if (this._reader.pending === 0 || !this._paused)
			this._eof();
	}

	_eof() {
		if (this._reader.pending > 0 && !this._ended) {
			this._pump();
			if (this._paused)
				return;
		}
		this._fail(this._helperError || new PtyError('EEOF',
		    'connection closed without an exit or error frame'));
	}

	_onSocketError(e) {
		this._fail(this._helperError || new PtyError(e.code || 'ESOCKET',
		    `supervisor socket: ${e.message}`, { cause: e }));
	}

	onData(cb) { return this._data.add(cb); }
	onExit(cb) { return this._exit.add(cb); }
	onError(cb) { return this._error.add(cb); }
	onDrain(cb) { return this._drain.add(cb); }

	get exited() { return this._exitInfo; }

	/*
	 * write(data): string (UTF-8) or Buffer, split into input frames of at
	 * most 32768 bytes.  Returns false like stream.write when the socket's
	 * buffer is full, or before the start when more than PRESTART_HWM
	 * bytes are held: wait for onDrain before writing more.  Once the
	 * session is over, the data is dropped and the answer is true.
	 */
	write(data) {
		const b = typeof data === 'string' ? Buffer.from(data, 'utf8') :
		    Buffer.from(data);
		// Over: there is no terminal to write to, nothing to wait for
		// (node-pty drops such input too); resize() and kill() do
		// nothing either.
		if (this._ended)
			return true;
		if (!this._started) {
			if (this._queued + b.length > PRESTART_MAX)
				throw new RangeError('write(): over ' +
				    `${PRESTART_MAX} bytes held before the start`);
			this._queued += b.length;
		}
		let ok = !(this._queued > PRESTART_HWM);
		if (!ok)
			this._drainOwed = true;
		for (let off = 0; off < b.length; off += codec.MAX_INPUT) {
			const p = b.subarray(off, off + codec.MAX_INPUT);
			const h = codec.encodeHeader(codec.TYPE.INPUT, p.length);
			if (!this._send(Buffer.concat([h, p])))
				ok = false;
		}
		return ok;
	}

	resize(rows, cols) {
		if (!codec.winsizeValid(rows, cols))
			throw new RangeError('rows and cols: both 1..4096');
		if (this._ended)
			return;
		this.rows = rows;
		this.cols = cols;
		this._send(codec.encodeFrame({ type: codec.TYPE.RESIZE, rows,
		    cols }));
	}

	kill(signal = 'SIGHUP') {
		const n = signalNumber(signal);
		this._send(codec.encodeFrame({ type: codec.TYPE.SIGNAL,
		    signal: n }));
	}

	// Stop reading: the supervisor's relay stalls, nothing is dropped.
	pause() {
		this._paused = true;
		this._sock.pause();
	}

	resume() {
		if (!this._paused)
			return;
		this._paused = false;
		this._pump();
		if (!this._paused && !this._ended) {
			if (this._sock.readableEnded)
				this._eof();
			else
				this._sock.resume();
		}
	}

	// Closes the connection: the supervisor stops and removes the unit.
	destroy() {
		this._fail(new PtyError('EDESTROYED', 'destroyed by the caller'));
	}
}

function spawn(argv, options) {
	return new Pty(argv, options);
}

module.exports = {
	spawn, Pty, SupervisorError, PtyError,
	FrameError: codec.FrameError, ERRORS: codec.ERRORS,
	SIGNALS: codec.SIGNALS, SOCKET_PATH, HELPER_PATH, codec,
};
