'use strict';
// codec.test.js: client/node/codec.js against the vectors proto/frame.c
// is tested with (regress/data/frame-vectors.txt), plus the reader fed
// byte by byte and the encoders' refusals.  Test code.  The file's
// format is in its own header.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const test = require('node:test');
const assert = require('node:assert/strict');
const codec = require('../codec.js');
const fs = require('node:fs');
const path = require('node:path');

const FILE = path.join(__dirname, '..', '..', '..', 'regress', 'data',
    'frame-vectors.txt');

function load() {
	const out = [];
	fs.readFileSync(FILE, 'latin1').split('\n').forEach((line, i) => {
		if (line === '' || line.startsWith('#'))
			return;
		const w = line.split(' ');
		const v = { line: i + 1, text: line };
		if (w[0] === 'frame') {
			v.kind = 'frame';
			v.bytes = Buffer.from(w[1], 'hex');
			v.expect = w.slice(2).join(' ');
		} else if (w[0] === 'payload') {
			v.kind = 'payload';
			v.type = Number(w[1]);
			v.bytes = Buffer.from(w[2], 'hex');
			v.expect = w.slice(3).join(' ');
		} else {
			throw new Error(`${FILE}:${i + 1}: unknown line kind`);
		}
		out.push(v);
	});
	return out;
}

function render(f) {
	const h = (b) => Buffer.from(b).toString('hex');
	switch (f.type) {
	case codec.TYPE.START:
		return `ok start dev=${f.dev} ino=${f.ino} runtime=${f.runtime} ` +
		    `args=${f.argv.map(h).join(',')}`;
	case codec.TYPE.INPUT: return `ok input data=${h(f.data)}`;
	case codec.TYPE.OUTPUT: return `ok output data=${h(f.data)}`;
	case codec.TYPE.EXIT:
		return `ok exit code=${f.code} status=${f.status} ` +
		    `result=${h(Buffer.from(f.result, 'latin1'))}`;
	case codec.TYPE.ERROR:
		return `ok error code=${f.code} ` +
		    `text=${h(Buffer.from(f.text, 'latin1'))}`;
	case codec.TYPE.RESIZE: return `ok resize rows=${f.rows} cols=${f.cols}`;
	case codec.TYPE.SIGNAL: return `ok signal sig=${f.signal}`;
	default: throw new Error(`no rendering for type ${f.type}`);
	}
}


const vectors = load();

function judge(v) {
	try {
		const f = v.kind === 'frame' ? codec.decodeFrame(v.bytes) :
		    codec.decodePayload(v.type, v.bytes);
		return { got: render(f), f };
	} catch (e) {
		if (!(e instanceof codec.FrameError))
			throw e;
		assert.equal(e.name, 'FrameError');
		assert.equal(e.number, codec.FRAME_STATUS[e.code]);
		return { got: e.code };
	}
}

test('the vector file has every frame type and every decoder status', () => {
	assert.ok(vectors.length >= 100, `only ${vectors.length} vectors`);
	for (const n of ['start', 'input', 'output', 'exit', 'error',
	    'resize', 'signal'])
		assert.ok(vectors.some((v) => v.expect.startsWith(`ok ${n} `)),
		    `no ok ${n} vector`);
	for (const name of Object.keys(codec.FRAME_STATUS))
		if (name !== 'FRAME_E_SPACE')
			assert.ok(vectors.some((v) => v.expect === name),
			    `no vector for ${name}`);
});

test('every vector decodes as expected', () => {
	for (const v of vectors) {
		const { got } = judge(v);
		assert.equal(got, v.expect, `line ${v.line}: ${v.text}`);
	}
});

test('every ok frame encodes back to the same bytes', () => {
	for (const v of vectors) {
		if (v.kind !== 'frame' || !v.expect.startsWith('ok '))
			continue;
		const { f } = judge(v);
		assert.deepEqual(codec.encodeFrame(f), v.bytes, `line ${v.line}`);
	}
});

test('the reader frames the ok frames fed one byte at a time', () => {
	const ok = vectors.filter((v) => v.kind === 'frame' &&
	    v.expect.startsWith('ok '));
	const r = new codec.FrameReader();
	const got = [];
	for (const b of Buffer.concat(ok.map((v) => v.bytes))) {
		r.push(Buffer.from([b]));
		let f;
		while ((f = r.next()) !== null)
			got.push(render(f));
	}
	assert.deepEqual(got, ok.map((v) => v.expect));
	assert.equal(r.pending, 0);
});

test('the reader judges a header before its payload arrives', () => {
	for (const v of vectors) {
		if (v.kind !== 'frame' || v.bytes.length < 12)
			continue;
		let hdrErr = null;
		try {
			codec.decodeHeader(v.bytes);
		} catch (e) {
			hdrErr = e.code;
		}
		if (hdrErr === null)
			continue;
		const r = new codec.FrameReader();
		r.push(v.bytes.subarray(0, 12));
		assert.throws(() => r.next(), { code: v.expect },
		    `line ${v.line}`);
		// The error sticks.
		assert.throws(() => r.next(), { code: v.expect });
	}
});

test('encoders refuse what decoders refuse', () => {
	assert.throws(() => codec.encodeResize(0, 80), { code: 'FRAME_E_WINSIZE' });
	assert.throws(() => codec.encodeResize(24, 4097),
	    { code: 'FRAME_E_WINSIZE' });
	assert.throws(() => codec.encodeSignal(11), { code: 'FRAME_E_SIGNAL' });
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 3601,
	    argv: ['ls'] }), { code: 'FRAME_E_RUNTIME' });
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 0,
	    argv: [] }), { code: 'FRAME_E_ARGC' });
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 0,
	    argv: [''] }), { code: 'FRAME_E_EMPTYARG0' });
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 0,
	    argv: ['a\0b'] }), { code: 'FRAME_E_NUL' });
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 0,
	    argv: ['ls', 'x'.repeat(4097)] }), { code: 'FRAME_E_ARGLEN' });
	const big = Array(17).fill('x'.repeat(4000));
	assert.throws(() => codec.encodeStart({ dev: 1, ino: 2, runtime: 0,
	    argv: big }), { code: 'FRAME_E_TOOLARGE' });
	assert.throws(() => codec.encodeExit({ code: 1, status: 0,
	    result: 'x'.repeat(65) }), { code: 'FRAME_E_STRING' });
	assert.throws(() => codec.encodeError(3, 'a\nb'),
	    { code: 'FRAME_E_STRING' });
});

test('the largest start payload (65536 bytes) round-trips', () => {
	// 15 words of 4096 + 2 and one that fills the rest exactly.
	const argv = Array(15).fill('y'.repeat(4096));
	argv.push('z'.repeat(65536 - 22 - 15 * 4098 - 2));
	const f = { type: codec.TYPE.START, dev: 5n, ino: 6n, runtime: 0, argv };
	const b = codec.encodeFrame(f);
	assert.equal(b.length, 12 + 65536);
	const d = codec.decodeFrame(b);
	assert.deepEqual(d.argv.map(String), argv);
	const over = Buffer.concat([b, Buffer.from('x')]);
	over.writeUInt32BE(65537, 8);
	assert.throws(() => codec.decodeFrame(over), { code: 'FRAME_E_TOOLARGE' });
});
