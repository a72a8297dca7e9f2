// index.d.ts: TypeScript declarations of index.js (docs/NODE.md).
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

export declare class SupervisorError extends Error {
	/** e.g. 'ERR_BUSY'; 'ERR_UNKNOWN' for a code not in the table. */
	name: string;
	/** e.g. 3 for ERR_BUSY. */
	code: number;
	text: string;
}

export declare class PtyError extends Error {
	/** EHELPER, EEOF, EPROTO, ENOFD, EDESTROYED, or a socket errno name. */
	name: string;
	code: string;
	status?: number | null;
	signal?: string | null;
}

export declare class FrameError extends Error {
	/** e.g. 'FRAME_E_MAGIC'. */
	name: string;
	/** e.g. -1. */
	code: number;
}

export declare class Pty {
	/** Always undefined: the command runs in a transient unit. */
	readonly pid: undefined;
	rows: number;
	cols: number;
	readonly exited: ExitEvent | null;
	/** Return false from a listener to pause reading (resume() restarts). */
	onData(cb: (data: string | Buffer) => boolean | void): IDisposable;
	onExit(cb: (ev: ExitEvent) => void): IDisposable;
	onError(cb: (err: SupervisorError | PtyError) => void): IDisposable;
	onDrain(cb: () => void): IDisposable;
	/** Input frames of at most 32768 bytes; false: wait for onDrain. */
	write(data: string | Uint8Array): boolean;
	resize(rows: number, cols: number): void;
	/** Throws RangeError for a signal outside the fixed set. */
	kill(signal?: SignalName | SignalNumber): void;
	pause(): void;
	resume(): void;
	/** Closes the connection; the supervisor stops and removes the unit. */
	destroy(): void;
}

export declare function spawn(argv: string[], options: SpawnOptions): Pty;

export declare const ERRORS: Readonly<Record<string, number>>;
export declare const SIGNALS: Readonly<Record<string, SignalNumber>>;
export declare const SOCKET_PATH: string;
export declare const HELPER_PATH: string;
export declare const codec: any;
