// `npm run index` (release notes, section 4 rule 4): the indexing script is removed in 2022.1.
// Found in a package's scripts, in shell-like files (comments stripped) and in strings of code.
import { finding, type Finding } from '../types';

/** `npm run index` / `npm run-script index`, options allowed between; not `index:build` or `indexer`. */
const NPM_RUN_INDEX = /\bnpm\s+(?:[^\s;&|]+\s+)*?(?:run|run-script)\s+index(?![\w.:-])/;

export function mentionsNpmRunIndex(text: string): boolean {
  return NPM_RUN_INDEX.test(text);
}

const FIX =
  'Replace it with POST {base_url}/indexes/:collectionName (no request body) for each collection its application declares ' +
  '(jobs, job_history, tasks, workflows, wfe_job_metrics, wfe_task_metrics, mop_templates, mop_analytic_templates, catalog_store), ' +
  'then check GET {base_url}/indexes/:collectionName/status; or use the Indexing tab of the active profile';

export function npmRunIndexFinding(file: string, line: number, where: string): Finding {
  return finding({
    rule: 'npm-run-index',
    file,
    line,
    message: `${where} runs \`npm run index\`, the indexing script removed in 2022.1 (app-workflow_engine, app-mop, app-service_catalog)`,
    fix: FIX,
    blocking: true,
  });
}

/** The scripts of a package.json that run `npm run index`. */
export function checkPackageScripts(file: string, pkg: unknown, lineOf: (path: string) => number): Finding[] {
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) return [];
  const scripts: unknown = Reflect.get(pkg, 'scripts');
  if (!scripts || typeof scripts !== 'object' || Array.isArray(scripts)) return [];
  const found: Finding[] = [];
  for (const [name, command] of Object.entries(scripts)) {
    if (typeof command === 'string' && mentionsNpmRunIndex(command)) {
      found.push(npmRunIndexFinding(file, lineOf(`$.scripts.${name}`), `The package script "${name}"`));
    }
  }
  return found;
}

/**
 * Each line of a shell-like file (shell scripts, Dockerfile, Makefile, YAML) with its `#` comments
 * removed, tracking quotes across lines so a `#` inside a string is kept.
 */
export function stripHashComments(text: string, quotesSpanLines = true): string[] {
  const out: string[] = [];
  let quote: '"' | "'" | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!quotesSpanLines) quote = undefined;
    let code = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line.charAt(i);
      if (quote) {
        if (ch === '\\' && quote === '"') {
          code += ch + (line[i + 1] ?? '');
          i++;
          continue;
        }
        if (ch === quote) quote = undefined;
        code += ch;
        continue;
      }
      if (ch === '\\') {
        code += ch + (line[i + 1] ?? '');
        i++;
        continue;
      }
      if (ch === '"' || ch === "'") {
        quote = ch;
        code += ch;
        continue;
      }
      if (ch === '#' && (i === 0 || /\s/.test(line.charAt(i - 1)))) break;
      code += ch;
    }
    out.push(code);
  }
  return out;
}

/** `kind` names the file in the message; quotes span lines only in shell scripts. */
export function checkShellText(file: string, text: string, kind: 'shell script' | 'Dockerfile' | 'Makefile' | 'YAML file'): Finding[] {
  const found: Finding[] = [];
  stripHashComments(text, kind === 'shell script').forEach((code, index) => {
    if (mentionsNpmRunIndex(code)) found.push(npmRunIndexFinding(file, index + 1, `The ${kind}`));
  });
  return found;
}
