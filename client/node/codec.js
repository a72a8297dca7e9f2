'use strict';
// codec.js: the opencode-pty client wire protocol (docs/PROTOCOL.md) in
// plain JavaScript: encoders and decoders of the 7 frame types and an
// incremental reader.  Runs in the Node service (user byk); every byte it
// decodes comes from the supervisor's relay and is checked in the same
// order as proto/frame.c, so both ends refuse a frame for the same reason.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const MAGIC = Buffer.from('OPTY', 'latin1');
const VERSION = 1;
const HDR_LEN = 12;
const MAX_PAYLOAD = 65536;
const MAX_INPUT = 32768;
const START_FIXED_LEN = 22;
const START_MAX_ARGS = 128;
const START_MAX_ARGLEN = 4096;
const START_MAX_RUNTIME = 3600;
const EXIT_FIXED_LEN = 9;
const EXIT_MAX_RESULT = 64;
const ERROR_FIXED_LEN = 4;
const ERROR_MAX_TEXT = 256;
const RESIZE_LEN = 4;
const SIGNAL_LEN = 1;
const WINSIZE_MAX = 4096;

const TYPE = Object.freeze({
	START: 1, INPUT: 2, OUTPUT: 3, EXIT: 4, ERROR: 5, RESIZE: 6, SIGNAL: 7,
});
const TYPE_NAMES = ['', 'start', 'input', 'output', 'exit', 'error',
	'resize', 'signal'];

// enum frame_status of proto/frame.h.
const FRAME_STATUS = Object.freeze({
	FRAME_E_MAGIC: -1, FRAME_E_VERSION: -2, FRAME_E_RESERVED: -3,
	FRAME_E_TYPE: -4, FRAME_E_TOOLARGE: -5, FRAME_E_TRUNCATED: -6,
	FRAME_E_TRAILING: -7, FRAME_E_ARGC: -8, FRAME_E_ARGLEN: -9,
	FRAME_E_EMPTYARG0: -10, FRAME_E_NUL: -11, FRAME_E_RUNTIME: -12,
	FRAME_E_STRING: -13, FRAME_E_SPACE: -14, FRAME_E_WINSIZE: -15,
	FRAME_E_SIGNAL: -16,
});

// The error frame codes of docs/PROTOCOL.md.
const ERRORS = Object.freeze({
	ERR_PROTOCOL: 1, ERR_UNEXPECTED: 2, ERR_BUSY: 3, ERR_AUTH_PEER: 4,
	ERR_AUTH_PID: 5, ERR_AUTH_STATE: 6, ERR_AUTH_CGROUP: 7,
	ERR_AUTH_CHANGED: 8, ERR_FD_MISSING: 9, ERR_FD_EXTRA: 10,
	ERR_NOTDIR: 11, ERR_DIR_MISMATCH: 12, ERR_START: 13,
	ERR_INTERNAL: 14, ERR_SHUTDOWN: 15, ERR_AUTH_DUMPABLE: 16,
});
const ERROR_NAMES = new Map(Object.entries(ERRORS).map(([k, v]) => [v, k]));

// The fixed set of the signal frame (proto/wire.c), x86-64/arm64.
const SIGNALS = Object.freeze({
	SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGUSR1: 10,
	SIGUSR2: 12, SIGTERM: 15, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20,
	SIGWINCH: 28,
});
const ALLOWED_SIGNALS = new Set(Object.values(SIGNALS));

// code: the FRAME_E_ name; number: the C codec's status for it.
class FrameError extends Error {
	constructor(code) {
		super(`malformed frame: ${code}`);
		this.name = 'FrameError';
		this.code = code;
		this.number = FRAME_STATUS[code];
	}
}

function fail(name) {
	throw new FrameError(name);
}

function typeCap(type) {
	switch (type) {
	case TYPE.START: return MAX_PAYLOAD;
	case TYPE.INPUT: case TYPE.OUTPUT: return MAX_INPUT;
	case TYPE.EXIT: return EXIT_FIXED_LEN + EXIT_MAX_RESULT;
	case TYPE.ERROR: return ERROR_FIXED_LEN + ERROR_MAX_TEXT;
	case TYPE.RESIZE: return RESIZE_LEN;
	case TYPE.SIGNAL: return SIGNAL_LEN;
	default: return 0;
	}
}

function winsizeValid(rows, cols) {
	return Number.isInteger(rows) && Number.isInteger(cols) &&
	    rows >= 1 && rows <= WINSIZE_MAX && cols >= 1 && cols <= WINSIZE_MAX;
}

function signalAllowed(n) {
	return ALLOWED_SIGNALS.has(n);
}

// Header: magic, version, reserved, type, cap; in that order.
function decodeHeader(buf) {
	if (buf.length < HDR_LEN)
		fail('FRAME_E_TRUNCATED');
	if (!buf.subarray(0, 4).equals(MAGIC))
		fail('FRAME_E_MAGIC');
	if (buf[4] !== VERSION)
		fail('FRAME_E_VERSION');
	if (buf[6] !== 0 || buf[7] !== 0)
		fail('FRAME_E_RESERVED');
	const cap = typeCap(buf[5]);
	if (cap === 0)
		fail('FRAME_E_TYPE');
	const len = buf.readUInt32BE(8);
	if (len > cap)
		fail('FRAME_E_TOOLARGE');
	return { type: buf[5], length: len };
}

function encodeHeader(type, len) {
	const h = Buffer.alloc(HDR_LEN);
	MAGIC.copy(h, 0);
	h[4] = VERSION;
	h[5] = type;
	h.writeUInt32BE(len, 8);
	return h;
}

// NUL first, then printable ASCII, as check_text() in proto/frame.c.
function checkText(b) {
	if (b.includes(0))
		fail('FRAME_E_NUL');
	for (const c of b)
		if (c < 0x20 || c > 0x7e)
			fail('FRAME_E_STRING');
}

function checkArg(b, idx) {
	if (b.length > START_MAX_ARGLEN)
		fail('FRAME_E_ARGLEN');
	if (idx === 0 && b.length === 0)
		fail('FRAME_E_EMPTYARG0');
	if (b.includes(0))
		fail('FRAME_E_NUL');
}

function decodeStart(p) {
	if (p.length > MAX_PAYLOAD)
		fail('FRAME_E_TOOLARGE');
	if (p.length < START_FIXED_LEN)
		fail('FRAME_E_TRUNCATED');
	const dev = p.readBigUInt64BE(0);
	const ino = p.readBigUInt64BE(8);
	const runtime = p.readUInt32BE(16);
	const argc = p.readUInt16BE(20);
	if (runtime > START_MAX_RUNTIME)
		fail('FRAME_E_RUNTIME');
	if (argc < 1 || argc > START_MAX_ARGS)
		fail('FRAME_E_ARGC');
	const argv = [];
	let off = START_FIXED_LEN;
	for (let i = 0; i < argc; i++) {
		if (p.length - off < 2)
			fail('FRAME_E_TRUNCATED');
		const alen = p.readUInt16BE(off);
		off += 2;
		if (alen > START_MAX_ARGLEN)
			fail('FRAME_E_ARGLEN');
		if (alen > p.length - off)
			fail('FRAME_E_TRUNCATED');
		const a = p.subarray(off, off + alen);
		checkArg(a, i);
		argv.push(Buffer.from(a));
		off += alen;
	}
	if (off !== p.length)
		fail('FRAME_E_TRAILING');
	return { type: TYPE.START, dev, ino, runtime, argv };
}

function encodeStart({ dev, ino, runtime, argv }) {
	if (!Number.isInteger(runtime) || runtime < 0 ||
	    runtime > START_MAX_RUNTIME)
		fail('FRAME_E_RUNTIME');
	if (!Array.isArray(argv) || argv.length < 1 ||
	    argv.length > START_MAX_ARGS)
		fail('FRAME_E_ARGC');
	const args = argv.map((a) => Buffer.isBuffer(a) ? a : Buffer.from(a));
	let need = START_FIXED_LEN;
	args.forEach((a, i) => {
		checkArg(a, i);
		if (a.length + 2 > MAX_PAYLOAD - need)
			fail('FRAME_E_TOOLARGE');
		need += 2 + a.length;
	});
	const p = Buffer.alloc(need);
	p.writeBigUInt64BE(BigInt(dev), 0);
	p.writeBigUInt64BE(BigInt(ino), 8);
	p.writeUInt32BE(runtime, 16);
	p.writeUInt16BE(args.length, 20);
	let off = START_FIXED_LEN;
	for (const a of args) {
		p.writeUInt16BE(a.length, off);
		a.copy(p, off + 2);
		off += 2 + a.length;
	}
	return p;
}

function decodeData(type, p) {
	if (p.length > MAX_INPUT)
		fail('FRAME_E_TOOLARGE');
	return { type, data: Buffer.from(p) };
}

function decodeExit(p) {
	if (p.length < EXIT_FIXED_LEN)
		fail('FRAME_E_TRUNCATED');
	const rlen = p.readUInt32BE(5);
	if (rlen > EXIT_MAX_RESULT)
		fail('FRAME_E_STRING');
	if (rlen > p.length - EXIT_FIXED_LEN)
		fail('FRAME_E_TRUNCATED');
	if (rlen < p.length - EXIT_FIXED_LEN)
		fail('FRAME_E_TRAILING');
	const r = p.subarray(EXIT_FIXED_LEN);
	checkText(r);
	return { type: TYPE.EXIT, code: p[0], status: p.readUInt32BE(1),
	    result: r.toString('latin1') };
}

function encodeExit({ code, status, result }) {
	const r = Buffer.from(result, 'latin1');
	if (r.length > EXIT_MAX_RESULT)
		fail('FRAME_E_STRING');
	checkText(r);
	const p = Buffer.alloc(EXIT_FIXED_LEN + r.length);
	p[0] = code;
	p.writeUInt32BE(status, 1);
	p.writeUInt32BE(r.length, 5);
	r.copy(p, EXIT_FIXED_LEN);
	return p;
}

function decodeError(p) {
	if (p.length < ERROR_FIXED_LEN)
		fail('FRAME_E_TRUNCATED');
	const tlen = p.readUInt16BE(2);
	if (tlen > ERROR_MAX_TEXT)
		fail('FRAME_E_STRING');
	if (tlen > p.length - ERROR_FIXED_LEN)
		fail('FRAME_E_TRUNCATED');
	if (tlen < p.length - ERROR_FIXED_LEN)
		fail('FRAME_E_TRAILING');
	const t = p.subarray(ERROR_FIXED_LEN);
	checkText(t);
	return { type: TYPE.ERROR, code: p.readUInt16BE(0),
	    text: t.toString('latin1') };
}

function encodeError(code, text) {
	const t = Buffer.from(text, 'latin1');
	if (t.length > ERROR_MAX_TEXT)
		fail('FRAME_E_STRING');
	checkText(t);
	const p = Buffer.alloc(ERROR_FIXED_LEN + t.length);
	p.writeUInt16BE(code, 0);
	p.writeUInt16BE(t.length, 2);
	t.copy(p, ERROR_FIXED_LEN);
	return p;
}

function decodeResize(p) {
	if (p.length < RESIZE_LEN)
		fail('FRAME_E_TRUNCATED');
	if (p.length > RESIZE_LEN)
		fail('FRAME_E_TRAILING');
	const rows = p.readUInt16BE(0), cols = p.readUInt16BE(2);
	if (!winsizeValid(rows, cols))
		fail('FRAME_E_WINSIZE');
	return { type: TYPE.RESIZE, rows, cols };
}

function encodeResize(rows, cols) {
	if (!winsizeValid(rows, cols))
		fail('FRAME_E_WINSIZE');
	const p = Buffer.alloc(RESIZE_LEN);
	p.writeUInt16BE(rows, 0);
	p.writeUInt16BE(cols, 2);
	return p;
}

function decodeSignal(p) {
	if (p.length < SIGNAL_LEN)
		fail('FRAME_E_TRUNCATED');
	if (p.length > SIGNAL_LEN)
		fail('FRAME_E_TRAILING');
	if (!signalAllowed(p[0]))
		fail('FRAME_E_SIGNAL');
	return { type: TYPE.SIGNAL, signal: p[0] };
}

function encodeSignal(n) {
	if (!signalAllowed(n))
		fail('FRAME_E_SIGNAL');
	return Buffer.from([n]);
}

// decodePayload(type, payload): the payload decoder of a known type.
function decodePayload(type, p) {
	switch (type) {
	case TYPE.START: return decodeStart(p);
	case TYPE.INPUT: case TYPE.OUTPUT: return decodeData(type, p);
	case TYPE.EXIT: return decodeExit(p);
	case TYPE.ERROR: return decodeError(p);
	case TYPE.RESIZE: return decodeResize(p);
	case TYPE.SIGNAL: return decodeSignal(p);
	default: return fail('FRAME_E_TYPE');
	}
}

// encodePayload(frame): the inverse of decodePayload.
function encodePayload(f) {
	switch (f.type) {
	case TYPE.START: return encodeStart(f);
	case TYPE.INPUT: case TYPE.OUTPUT:
		if (f.data.length > MAX_INPUT)
			fail('FRAME_E_TOOLARGE');
		return Buffer.from(f.data);
	case TYPE.EXIT: return encodeExit(f);
	case TYPE.ERROR: return encodeError(f.code, f.text);
	case TYPE.RESIZE: return encodeResize(f.rows, f.cols);
	case TYPE.SIGNAL: return encodeSignal(f.signal);
	default: return fail('FRAME_E_TYPE');
	}
}

function encodeFrame(f) {
	const p = encodePayload(f);
	return Buffer.concat([encodeHeader(f.type, p.length), p]);
}

// decodeFrame(buf): exactly one whole frame, header then payload.
function decodeFrame(buf) {
	const h = decodeHeader(buf);
	if (buf.length - HDR_LEN < h.length)
		fail('FRAME_E_TRUNCATED');
	if (buf.length - HDR_LEN > h.length)
		fail('FRAME_E_TRAILING');
	return decodePayload(h.type, buf.subarray(HDR_LEN));
}

/*
 * FrameReader: frames a byte stream.  push() takes any chunk; next()
 * returns one decoded frame, or null until one is whole.  The header is
 * judged as soon as its 12 bytes are there, so a length over the cap is
 * refused before its payload is waited for.  The first error sticks.
 */
class FrameReader {
	constructor() {
		this.buf = Buffer.alloc(0);
		this.error = null;
	}

	push(chunk) {
		this.buf = this.buf.length === 0 ? chunk :
		    Buffer.concat([this.buf, chunk]);
	}

	get pending() {
		return this.buf.length;
	}

	next() {
		if (this.error)
			throw this.error;
		try {
			if (this.buf.length < HDR_LEN)
				return null;
			const h = decodeHeader(this.buf);
			if (this.buf.length < HDR_LEN + h.length)
				return null;
			const end = HDR_LEN + h.length;
			const f = decodePayload(h.type,
			    this.buf.subarray(HDR_LEN, end));
			this.buf = this.buf.subarray(end);
			return f;
		} catch (e) {
			this.error = e;
			throw e;
		}
	}
}

module.exports = {
	HDR_LEN, MAX_PAYLOAD, MAX_INPUT, START_MAX_ARGS, START_MAX_ARGLEN,
	START_MAX_RUNTIME, WINSIZE_MAX, TYPE, TYPE_NAMES, FRAME_STATUS,
	ERRORS, ERROR_NAMES, SIGNALS, FrameError, FrameReader, typeCap,
	winsizeValid, signalAllowed, decodeHeader, encodeHeader,
	decodePayload, encodePayload, decodeFrame, encodeFrame, encodeStart,
	decodeStart, encodeExit, decodeExit, encodeError, decodeError,
	encodeResize, decodeResize, encodeSignal, decodeSignal,
};
