'use strict';
// xterm.js: test only, never installed.  A real terminal emulator as
// the client of sessions (regress/it/87-xterm.sh): run by the exact
// Node release as the MainPID of opencode-v2.service (user byk), it is
// both halves of a web terminal of the shape node-pty's xterm.js
// example has.  The server spawns each session with the module's
// node-pty interface (opencode-pty/node-pty), sends the session's
// output to its connection, writes what arrives from it into the
// session and resizes the session on a resize message.  The "browser"
// holds xterm.js's headless terminal (@xterm/headless), writes what
// the server sends into it, and sends what the terminal emits (the
// keys typed with term.input(), and its own answers to the program's
// queries) to the server.  The two talk over a UNIX socket, one JSON
// message a line, where the example has a WebSocket.
//
// It runs vim on a new file and less on a long one, resizes both, and
// checks the emulator's screen: its size, the redraw, the status
// line, the prompt.  Each check waits for the screen by polling the
// emulator's buffer with a timeout.  One line per check on stdout:
//
//	xterm: ok NAME detail
//	xterm: FAIL NAME detail		(the screen follows on stderr)
//
// and `xterm: done` last.  The controls (NAME control-...) are checks
// of the same predicates that must fail on the screen at hand.
//
//	node xterm.js --xterm DIR --cwd DIR --vim PATH --less PATH
//	    [--vim-file NAME] [--less-file NAME] [--less-lines N]
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

function usage(why) {
	process.stderr.write(`xterm: usage: ${why}\n`);
	process.exit(2);
}

const o = { vimFile: 'xt-vim.txt', lessFile: 'xt-less.txt', lessLines: 200 };
{
	const a = process.argv.slice(2);
	for (let i = 0; i < a.length; i++) {
		const v = () => (i + 1 < a.length ? a[++i] : usage(`${a[i]} needs a value`));
		switch (a[i]) {
		case '--xterm': o.xterm = v(); break;
		case '--cwd': o.cwd = v(); break;
		case '--vim': o.vim = v(); break;
		case '--less': o.less = v(); break;
		case '--vim-file': o.vimFile = v(); break;
		case '--less-file': o.lessFile = v(); break;
		case '--less-lines': o.lessLines = Number(v()); break;
		default: usage(`unknown option ${a[i]}`);
		}
	}
	for (const k of ['xterm', 'cwd', 'vim', 'less'])
		if (!o[k])
			usage(`--${k} is required`);
}

// OPTY_NODE_MODULE names the installed copy of the module (itlib.sh's
// node_entry); node-pty.js in it is what the package's exports give
// for require('opencode-pty/node-pty').
const pty = require(path.join(process.env.OPTY_NODE_MODULE ||
    path.join(__dirname, '../../client/node'), 'node-pty.js'));
const { Terminal } = require(o.xterm);

// One JSON message a line, both ways.
function send(conn, msg) {
	if (!conn.destroyed)
		conn.write(JSON.stringify(msg) + '\n');
}
function receive(conn, cb) {
	let buf = '';
	conn.setEncoding('utf8');
	conn.on('data', (s) => {
		buf += s;
		let n;
		while ((n = buf.indexOf('\n')) >= 0) {
			const line = buf.slice(0, n);
			buf = buf.slice(n + 1);
			cb(JSON.parse(line));
		}
	});
}

// The server: one session a connection, opened by the connection's
// first message (the example's POST /terminals with cols and rows),
// killed when the connection closes first (the page went away).
function server(sock, cwd) {
	const srv = net.createServer((conn) => {
		let p = null, ended = false;
		receive(conn, (m) => {
			if (m.t === 'open' && p === null) {
				p = pty.spawn(m.file, m.args, { name: 'xterm-256color',
				    cols: m.cols, rows: m.rows, cwd });
				p.onData((d) => send(conn, { t: 'data', d }));
				p.onExit((e) => {
					ended = true;
					send(conn, { t: 'exit', exitCode: e.exitCode,
					    signal: e.signal,
					    error: e.error ? String(e.error.code) : undefined });
					conn.end();
				});
			} else if (m.t === 'data' && p !== null) {
				p.write(m.d);
			} else if (m.t === 'resize' && p !== null) {
				p.resize(m.cols, m.rows);
			}
		});
		conn.on('error', () => {});
		conn.on('close', () => {
			if (p !== null && !ended)
				p.kill();
		});
	});
	return new Promise((resolve, reject) => {
		srv.once('error', reject);
		srv.listen(sock, () => resolve(srv));
	});
}

// The browser: the emulator and its connection to the server.
class Browser {
	constructor(sock, cols, rows, file, args) {
		this.term = new Terminal({ cols, rows, allowProposedApi: true });
		this.conn = net.connect(sock);
		this.conn.on('error', (e) => { this.exit ??= { error: e.code }; });
		this.exited = new Promise((resolve) => {
			receive(this.conn, (m) => {
				if (m.t === 'data') {
					this.term.write(m.d);
				} else if (m.t === 'exit') {
					this.exit = m;
					resolve(m);
				}
			});
			this.conn.on('close', () => resolve(this.exit ?? null));
		});
		this.term.onData((d) => send(this.conn, { t: 'data', d }));
		send(this.conn, { t: 'open', file, args, cols, rows });
	}

	// Keys, as a user types them: the terminal emits them (onData).
	type(s) { this.term.input(s, true); }

	// The example's resize: the page's terminal, then the server's pty.
	resize(cols, rows) {
		this.term.resize(cols, rows);
		send(this.conn, { t: 'resize', cols, rows });
	}

	// The visible screen: its size and each row's text.
	screen() {
		const b = this.term.buffer.active;
		const lines = [];
		for (let y = 0; y < this.term.rows; y++) {
			const l = b.getLine(b.viewportY + y);
			// Without trailing blanks, cleared or written as
			// spaces (vim writes its ~ rows' blanks).
			lines.push(l ? l.translateToString(true).replace(/ +$/, '') : '');
		}
		return { cols: this.term.cols, rows: this.term.rows, lines };
	}

	// Polls the screen until pred(screen) is true, up to ms.
	async until(pred, ms = 15000) {
		const end = Date.now() + ms;
		for (;;) {
			const s = this.screen();
			if (pred(s))
				return { ok: true, s };
			if (Date.now() >= end || this.exit)
				return { ok: false, s };
			await new Promise((r) => setTimeout(r, 25));
		}
	}
}

let fails = 0;
function report(name, ok, detail, s) {
	console.log(`xterm: ${ok ? 'ok' : 'FAIL'} ${name} ${detail}`);
	if (!ok) {
		fails++;
		if (s) {
			process.stderr.write(`xterm: ${name}: screen ${s.rows}x${s.cols}:\n` +
			    s.lines.map((l, y) => `  ${String(y).padStart(2)}|${l}\n`).join(''));
		}
	}
}
async function expect(b, name, pred, detail) {
	const r = await b.until(pred);
	report(name, r.ok, detail(r.s), r.s);
	return r.ok;
}
// A control: pred must not hold on the screen as it is now.
function control(b, name, pred, what) {
	const s = b.screen();
	report(`control-${name}`, !pred(s), what, s);
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The screen has rows x cols, and no row is longer than cols.
function sized(s, rows, cols) {
	return s.rows === rows && s.cols === cols && s.lines.length === rows &&
	    s.lines.every((l) => l.length <= cols);
}

// vim's screen, 'laststatus=2' and 'ruler': the status line is the
// next to last row, the file's name, [+] when modified and the ruler
// (line,column and All) at its right, which vim places by the width it
// was told; the last row is the command line.  Text: the buffer's
// first rows.
function vimScreen(rows, cols, name, { modified, line, col = '\\d+(-\\d+)?',
    text = [], last }) {
	const st = new RegExp(`^${esc(name)}${modified ? ' \\[\\+\\]' : ''}` +
	    ` +${line},${col} +All$`);
	return (s) => sized(s, rows, cols) && st.test(s.lines[rows - 2]) &&
	    // The ruler ends near the right edge: vim drew at this width.
	    s.lines[rows - 2].length > cols - 12 &&
	    text.every((t, y) => s.lines[y] === t) &&
	    s.lines.slice(text.length, rows - 2).every((l) => l === '~') &&
	    (last === undefined || last.test(s.lines[rows - 1]));
}
const stat = (s) => `status "${s.lines[s.rows - 2]}" last "${s.lines[s.rows - 1]}"`;

// vim -u NONE: no vimrc of the tree's; its status line and ruler on,
// and the wait for the rest of a key sequence after an Esc short, as
// defaults.vim has it (else vim.tiny waits a second, in insert mode).
async function vim(sock) {
	const name = o.vimFile;
	const b = new Browser(sock, 80, 24, o.vim, ['-u', 'NONE', '-i', 'NONE',
	    '-n', '-N', '-c', 'set laststatus=2 ruler ttimeout ttimeoutlen=100',
	    name]);
	const at = (s) => `${s.rows}x${s.cols} ${stat(s)}`;
	// An empty buffer: one empty row, the ruler's line 0.
	if (!await expect(b, 'vim-start', vimScreen(24, 80, name, { line: 0,
	    text: [''], last: new RegExp(`^"${esc(name)}" \\[New( File)?\\]`) }), at))
		return b;
	b.type('i');
	await expect(b, 'vim-insert', vimScreen(24, 80, name, { line: 0,
	    text: [''], last: /^-- INSERT --/ }), at);
	const text = ['hello from xterm.js', 'second line'];
	b.type(text.join('\r'));
	b.type('\x1b');
	// Normal mode again: the cursor back on the last character (2,11)
	// and the mode message gone.
	await expect(b, 'vim-typed', vimScreen(24, 80, name, { modified: true,
	    line: 2, col: 11, text, last: /^$/ }), (s) => `rows 0-1 "${s.lines[0]}" ` +
	    `"${s.lines[1]}" ${at(s)}`);
	// Larger: the status line moves to the new next to last row, its
	// ruler past the old width; the old status row is a ~ row now.
	b.resize(100, 30);
	const big = vimScreen(30, 100, name, { modified: true, line: 2,
	    col: 11, text, last: /^$/ });
	await expect(b, 'vim-resize', big, (s) => `${at(s)} ` +
	    `old status row 22 "${s.lines[22]}"`);
	control(b, 'vim-old-size', vimScreen(24, 80, name, { modified: true,
	    line: 2, col: 11, text }), 'the 24x80 screen check fails on the 30x100 screen');
	control(b, 'vim-no-status', (s) => big({ ...s, lines: s.lines.map(
	    (l, y) => (y === s.rows - 2 ? '~' : l)) }),
	    'the check fails on the screen without its status line');
	b.type(':wq\r');
	const e = await Promise.race([b.exited,
	    new Promise((r) => setTimeout(() => r('timeout'), 15000))]);
	report('vim-exit', e && e.exitCode === 0 && e.signal === 0,
	    `onExit ${JSON.stringify(e)}`, b.screen());
	return b;
}

// less -M: the file's first page, its prompt (name, lines a-b/N) on the
// last row; a-b is one screenful less the prompt's row.
function lessScreen(rows, cols, name, first, total) {
	const pr = new RegExp(`^${esc(name)} lines ${first}-${first + rows - 2}` +
	    `/${total} `);
	return (s) => sized(s, rows, cols) && pr.test(s.lines[rows - 1]) &&
	    s.lines.slice(0, rows - 1).every((l, y) => l === `line ${first + y}`);
}

async function less(sock) {
	const name = o.lessFile, n = o.lessLines;
	const b = new Browser(sock, 80, 24, o.less, ['-M', name]);
	const at = (s) => `${s.rows}x${s.cols} row 0 "${s.lines[0]}" ` +
	    `prompt "${s.lines[s.rows - 1]}"`;
	if (!await expect(b, 'less-start', lessScreen(24, 80, name, 1, n), at))
		return b;
	b.type(' ');
	await expect(b, 'less-page', lessScreen(24, 80, name, 24, n), at);
	control(b, 'less-first-page', lessScreen(24, 80, name, 1, n),
	    'the first page check fails on the second page');
	// Smaller: less keeps its top line and fits the page to 16 rows.
	b.resize(70, 16);
	await expect(b, 'less-resize', lessScreen(16, 70, name, 24, n), at);
	control(b, 'less-old-size', lessScreen(24, 80, name, 24, n),
	    'the 24x80 page check fails on the 16x70 screen');
	b.type('q');
	const e = await Promise.race([b.exited,
	    new Promise((r) => setTimeout(() => r('timeout'), 15000))]);
	report('less-exit', e && e.exitCode === 0 && e.signal === 0,
	    `onExit ${JSON.stringify(e)}`, b.screen());
	return b;
}

async function main() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opty-xterm-'));
	const sock = path.join(dir, 'server.sock');
	const srv = await server(sock, o.cwd);
	for (const run of [vim, less]) {
		const b = await run(sock);
		b.conn.destroy();
	}
	srv.close();
	fs.rmSync(dir, { recursive: true, force: true });
	console.log(`xterm: done ${fails} failed`);
	process.exit(fails ? 1 : 0);
}

main().catch((e) => {
	console.log(`xterm: FAIL internal ${e && e.stack ? e.stack.split('\n')[0] : e}`);
	process.exit(1);
});
