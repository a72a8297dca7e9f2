// index.d.ts: TypeScript declarations of index.js (docs/NODE.md), for
// require(); index.d.mts gives the same to import.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

/// <reference types="node" />

export interface IDisposable {
	dispose(): void;
}

export type SignalName =
	| 'SIGHUP' | 'SIGINT' | 'SIGQUIT' | 'SIGKILL' | 'SIGUSR1' | 'SIGUSR2'
	| 'SIGTERM' | 'SIGCONT' | 'SIGSTOP' | 'SIGTSTP' | 'SIGWINCH'
	| 'HUP' | 'INT' | 'QUIT' | 'KILL' | 'USR1' | 'USR2' | 'TERM' | 'CONT'
	| 'STOP' | 'TSTP' | 'WINCH';
export type SignalNumber = 1 | 2 | 3 | 9 | 10 | 12 | 15 | 18 | 19 | 20 | 28;

export interface SpawnOptions {
	/** Directory the command starts in; opened here, passed as fd 4. */
	cwd: string;
	/** First terminal size (both or neither); default 24x80. */
	rows?: number;
	cols?: number;
	/** Seconds before systemd stops the command; 0/absent = no limit. */
	runtimeMaxSec?: number;
	/** onData gets strings in this encoding (default utf8), or Buffers if null. */
	encoding?: BufferEncoding | null;
	/** Default /run/opencode-pty/supervisor.sock. */
	socketPath?: string;
	/** Default HELPER_PATH: LIBEXECDIR/opencode-pty-client of the build. */
	helperPath?: string;
}

export interface ExitEvent {
	/** Exit status; 128 + signal number if killed; null on an error. */
	exitCode: number | null;
	/** Name of the signal that killed the command, else undefined. */
	signal: string | undefined;
	/** systemd's Result of the unit (success, exit-code, signal, ...). */
	result: string | undefined;
	/** Raw ExecMainCode (1 exited, 2 killed, 3 dumped) and ExecMainStatus. */
	code?: number;
	status?: number;
	/** Set when the session ended without an exit frame. */
	error?: SupervisorError | PtyError;
}

/** The names of docs/PROTOCOL.md's error table, and ERR_UNKNOWN. */
export type SupervisorErrorCode =
	| 'ERR_PROTOCOL' | 'ERR_UNEXPECTED' | 'ERR_BUSY' | 'ERR_AUTH_PEER'
	| 'ERR_AUTH_PID' | 'ERR_AUTH_STATE' | 'ERR_AUTH_CGROUP'
	| 'ERR_AUTH_CHANGED' | 'ERR_FD_MISSING' | 'ERR_FD_EXTRA' | 'ERR_NOTDIR'
	| 'ERR_DIR_MISMATCH' | 'ERR_START' | 'ERR_INTERNAL' | 'ERR_SHUTDOWN'
	| 'ERR_AUTH_DUMPABLE' | 'ERR_UNKNOWN';

export declare class SupervisorError extends Error {
	name: 'SupervisorError';
	/** e.g. 'ERR_BUSY'; 'ERR_UNKNOWN' for a number not in the table. */
	code: SupervisorErrorCode;
	/** The code on the wire, e.g. 3 for ERR_BUSY. */
	number: number;
	text: string;
}

export declare class PtyError extends Error {
	name: 'PtyError';
	/**
	 * EHELPER, EEOF, EPROTO, ENOFD, EDESTROYED, ELISTENER, or a socket
	 * errno name.
	 */
	code: string;
	status?: number | null;
	signal?: string | null;
}

export declare class FrameError extends Error {
	name: 'FrameError';
	/** e.g. 'FRAME_E_MAGIC'. */
	code: string;
	/** The C codec's status, e.g. -1. */
	number: number;
}

/** What onData gets: strings in the encoding asked for, Buffers for null. */
export type PtyData = string | Buffer;

export declare class Pty<T extends PtyData = string> {
	constructor(argv: string[], options: SpawnOptions);
	/** Always undefined: the command runs in a transient unit. */
	readonly pid: undefined;
	rows: number;
	cols: number;
	readonly exited: ExitEvent | null;
	/**
	 * What a listener returns is ignored (pause()/resume() are the
	 * back-pressure); one that throws ends the session (onExit with a
	 * PtyError ELISTENER) and its exception goes on up.
	 */
	onData(cb: (data: T) => void): IDisposable;
	onExit(cb: (ev: ExitEvent) => void): IDisposable;
	onError(cb: (err: SupervisorError | PtyError) => void): IDisposable;
	onDrain(cb: () => void): IDisposable;
	/**
	 * Input frames of at most 32768 bytes; false: wait for onDrain.
	 * Before the start, false past 64 KiB held; throws past 1 MiB.
	 */
	write(data: string | Uint8Array): boolean;
	resize(rows: number, cols: number): void;
	/** Throws RangeError for a signal outside the fixed set. */
	kill(signal?: SignalName | SignalNumber): void;
	pause(): void;
	resume(): void;
	/** Closes the connection; the supervisor stops and removes the unit. */
	destroy(): void;
}

/** encoding: null gives Buffers; a string encoding (default utf8), strings. */
export declare function spawn(argv: string[],
    options: SpawnOptions & { encoding: null }): Pty<Buffer>;
export declare function spawn(argv: string[],
    options: SpawnOptions & { encoding?: BufferEncoding }): Pty<string>;

export declare const ERRORS: Readonly<
    Record<Exclude<SupervisorErrorCode, 'ERR_UNKNOWN'>, number>>;
export declare const SIGNALS: Readonly<Record<string, SignalNumber>>;
export declare const SOCKET_PATH: string;
export declare const HELPER_PATH: string;
export declare const codec: any;
