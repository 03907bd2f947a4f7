// A log file that rotates by size: when a line would take it past `maxBytes`, `console.log`
// becomes `console.log.1` (`.1` becomes `.2`, ...) and at most `maxFiles` files are kept.
// Lines are appended synchronously: the file is the record, and a crash loses nothing written.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { systemErrorCode } from '../errors';

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;

  constructor(
    readonly file: string,
    readonly maxBytes: number,
    readonly maxFiles: number,
  ) {}

  private open() {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = statSync(this.file).size;
  }

  write(line: string) {
    const bytes = Buffer.byteLength(line);
    if (this.fd === undefined) this.open();
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    writeSync(this.fd!, line);
    this.size += bytes;
  }

  private rotate() {
    this.close();
    // The oldest goes; each other moves up one; the current file becomes .1.
    rmSync(`${this.file}.${Math.max(1, this.maxFiles - 1)}`, { force: true });
    for (let n = this.maxFiles - 2; n >= 1; n--) renameIfThere(`${this.file}.${n}`, `${this.file}.${n + 1}`);
    if (this.maxFiles > 1) renameIfThere(this.file, `${this.file}.1`);
    else rmSync(this.file, { force: true });
    this.open();
  }

  close() {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function renameIfThere(from: string, to: string) {
  try {
    renameSync(from, to);
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') throw error;
  }
}
