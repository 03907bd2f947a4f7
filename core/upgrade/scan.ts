// The upgrade check for release 2022.1 over a folder an operator points it at: a site's custom
// applications and adapters, its service configs and properties files, and exported workflows.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { UPGRADE_RULES, type UpgradeReport } from '../contract/upgrade';
import { RUNNING_RELEASE } from '../release';
import { parseJsonDoc } from './json-doc';
import { checkActivate } from './rules/activate';
import { checkCode, CODE_EXTENSIONS } from './rules/code';
import { checkHtml } from './rules/html';
import { checkPackageScripts, checkShellText } from './rules/npm-index';
import { checkWorkflows } from './rules/workflows';
import type { Finding } from './types';
import { MAX_FILES, walkFolder } from './walk';
import { errorMessage, systemErrorCode } from '../errors';

type Kind = 'code' | 'json' | 'html' | 'shell script' | 'Dockerfile' | 'Makefile' | 'YAML file' | 'maybe-shell';

function kindOf(relative: string): Kind | undefined {
  const base = path.posix.basename(relative);
  const ext = path.posix.extname(base).toLowerCase();
  if (CODE_EXTENSIONS.includes(ext)) return 'code';
  if (ext === '.json') return 'json';
  if (ext === '.html' || ext === '.htm') return 'html';
  if (['.sh', '.bash', '.zsh', '.ksh'].includes(ext)) return 'shell script';
  if (ext === '.yml' || ext === '.yaml') return 'YAML file';
  if (/^dockerfile/i.test(base) || ext === '.dockerfile') return 'Dockerfile';
  if (base === 'Makefile' || base === 'makefile' || ext === '.mk') return 'Makefile';
  if (ext === '' && !base.startsWith('.')) return 'maybe-shell';
  return undefined;
}

export interface ScanOptions {
  /** Called while the folder is listed, with the number of files to read found so far. */
  onListing?: (found: number) => void;
  /** Called after each file with the number read so far and the total to read. */
  onProgress?: (done: number, total: number, file: string) => void;
  /** Most files read (default and ceiling: MAX_FILES). */
  maxFiles?: number;
  /** Time budget: the check stops at this time (ms since epoch), the files not read listed as skipped. */
  deadline?: number;
  /** Cancels the check: it ends with an AbortError. */
  signal?: AbortSignal;
}

export class ScanCanceled extends Error {
  constructor() {
    super('the check was canceled');
    this.name = 'AbortError';
  }
}

function checkFile(kind: Kind, file: string, text: string): Finding[] {
  switch (kind) {
    case 'code':
      return checkCode(file, text);
    case 'json': {
      const doc = parseJsonDoc(file, text);
      if (!doc) return [];
      const found = [...checkActivate(file, doc), ...checkWorkflows(file, doc)];
      if (path.posix.basename(file) === 'package.json') found.push(...checkPackageScripts(file, doc.value, doc.lineOf));
      return found;
    }
    case 'html':
      return checkHtml(file, text);
    case 'maybe-shell':
      return /^#!.*\b(sh|bash|zsh|dash|ksh)\b/.test(text) ? checkShellText(file, text, 'shell script') : [];
    default:
      return checkShellText(file, text, kind);
  }
}

const RULE_ORDER = Object.keys(UPGRADE_RULES);

/** Scans `root`; throws an Error naming the path when it is not a readable folder. */
export async function scanFolder(root: string, options: ScanOptions = {}): Promise<UpgradeReport> {
  const absoluteRoot = path.resolve(root);
  const stat = await fs.stat(absoluteRoot).catch(() => undefined);
  if (!stat) throw new Error(`${root} does not exist`);
  if (!stat.isDirectory()) throw new Error(`${root} is not a folder`);

  const budgetSpent = () => {
    if (options.signal?.aborted) throw new ScanCanceled();
    if (options.deadline !== undefined && Date.now() > options.deadline) return 'the time budget of the check was spent';
    return undefined;
  };
  const maxFiles = Math.min(options.maxFiles ?? MAX_FILES, MAX_FILES);
  const { files, skipped } = await walkFolder(absoluteRoot, (relative) => kindOf(relative) !== undefined, { onFound: options.onListing, shouldStop: budgetSpent, maxFiles });
  const findings: Finding[] = [];
  let done = 0;
  for (const [index, entry] of files.entries()) {
    const stop = budgetSpent();
    if (stop) {
      skipped.push({ file: entry.relative, reason: `${stop}: ${files.length - index} files were not read` });
      break;
    }
    const kind = kindOf(entry.relative);
    if (!kind) continue; // listed only when it has a kind
    let text: string;
    try {
      text = await fs.readFile(entry.absolute, 'utf8');
    } catch (error) {
      skipped.push({ file: entry.relative, reason: `cannot read: ${systemErrorCode(error) ?? errorMessage(error)}` });
      continue;
    }
    if (text.includes('\u0000')) {
      if (kind !== 'maybe-shell') skipped.push({ file: entry.relative, reason: 'binary content' });
    } else {
      try {
        findings.push(...checkFile(kind, entry.relative, text));
      } catch (error) {
        skipped.push({ file: entry.relative, reason: `cannot be checked: ${errorMessage(error)}` });
      }
    }
    done += 1;
    options.onProgress?.(done, files.length, entry.relative);
  }

  findings.sort(
    (a, b) => RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line,
  );
  const byRule: Record<string, number> = {};
  for (const f of findings) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
  const blocking = findings.filter((f) => f.blocking).length;
  return {
    findings,
    summary: {
      root: absoluteRoot,
      release: RUNNING_RELEASE,
      filesScanned: done,
      skipped,
      findings: findings.length,
      blocking,
      warnings: findings.length - blocking,
      byRule,
      blocked: blocking > 0,
    },
  };
}
