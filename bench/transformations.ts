// Transformations: documents run per second for the project's own JST document (test/fixtures/iap)
// and two mid-size real JST documents of the corpus (read at run time from ../shared/corpus/iap,
// skipped with the reason when it is absent), beside a plain JavaScript
// function doing the same mapping in the same run. The ratio (plain / interpreter)
// is the figure: how many times slower the interpreter is than hand-written code.
// "interpreter" reuses the document's plan; "interpreter, fresh doc" reads a new
// copy of the document each run, as a task that loads it from the store would.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runTransformation } from '../core/transformations/interpreter';
import type { JstDocument } from '../core/transformations/types';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus/iap/prebuilts');
const FIXTURES = path.resolve(import.meta.dirname, '../test/fixtures/iap/prebuilts');

function load(file: string): JstDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as JstDocument;
}

function perSecond(run: () => unknown, minMs = 1_500): number {
  for (let i = 0; i < 200; i++) run(); // warm up
  let n = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 100; i++) run();
    n += 100;
    elapsed = performance.now() - started;
  }
  return (n / elapsed) * 1000;
}

interface Case {
  name: string;
  /** The document's file, in the corpus or the project's fixtures. */
  file: string;
  incoming: Record<string, unknown>;
  plain: (incoming: Record<string, unknown>) => Record<string, unknown>;
}

const groups = Array.from({ length: 50 }, (_, i) => ({ groupId: `sg-${i}`, groupName: i === 0 ? 'default' : `group-${i}`, description: 'x' }));

const STATES: Record<string, number> = { new: -5, assess: -4, authorize: -3, scheduled: -2, implement: -1, review: 0, closed: -6, canceled: -7 };

const FIXTURE_STATES: Record<string, number> = { draft: 1, review: 2, approved: 3, scheduled: 4, done: 5, withdrawn: 9 };

const CASES: Case[] = [
  {
    name: 'Build Change Update Payload - Example (8 methods, JSON.parse; the project\'s fixture)',
    file: path.join(FIXTURES, 'Instance-Check-Example/bundles/transformations/Build Change Update Payload - Example.json'),
    incoming: { changeRequest: { response: [{ id: 'chg-1', current_state: '1' }] }, comments: 'done', state: 'Review' },
    plain: (incoming) => {
      const first = (incoming.changeRequest as { response: { id: string; current_state: string }[] }).response[0]!;
      const table = JSON.parse(JSON.stringify(FIXTURE_STATES)) as Record<string, number>;
      return { changeId: first.id, updatePayload: { comments: incoming.comments, state: table[String(incoming.state).toLowerCase()] ?? Number.parseInt(first.current_state) } };
    },
  },
  {
    name: 'Build SG Delete Array (filter + map over 50 groups, 2 nested functions)',
    file: path.join(CORPUS, 'AWS-EC2-REST/bundles/transformations/Build SG Delete Array.json'),
    incoming: { sgResponse: { response: { DescribeSecurityGroupsResponse: { securityGroupInfo: { item: groups } } } } },
    plain: (incoming) => {
      const items = (incoming.sgResponse as { response: { DescribeSecurityGroupsResponse: { securityGroupInfo: { item: typeof groups } } } }).response.DescribeSecurityGroupsResponse.securityGroupInfo.item;
      return { sgDeleteArray: items.filter((g) => g.groupName !== 'default').map((g) => ({ groupId: g.groupId })) };
    },
  },
  {
    name: 'Build CR Update Payload - ServiceNow (8 methods, JSON.parse)',
    file: path.join(CORPUS, 'Kentik-REST-Example/bundles/transformations/Build CR Update Payload - ServiceNow.json'),
    incoming: { changeRequestResponse: { response: [{ id: 'cr1', current_state: '-5' }] }, comments: 'done', state: 'Review' },
    plain: (incoming) => {
      const first = (incoming.changeRequestResponse as { response: { id: string; current_state: string }[] }).response[0]!;
      const table = JSON.parse(JSON.stringify(STATES)) as Record<string, number>;
      return { crSysId: first.id, crUpdatePayload: { comments: incoming.comments, state: table[String(incoming.state).toLowerCase()] ?? Number.parseInt(first.current_state) } };
    },
  },
];

export async function benchTransformations() {
  const rows = [];
  for (const c of CASES) {
    if (!existsSync(c.file)) {
      const why = `skipped: no corpus at ${CORPUS} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`;
      console.warn(`${c.name}: ${why}`);
      rows.push({ document: c.name, 'interpreter runs/s': why });
      continue;
    }
    const doc = load(c.file);
    const text = JSON.stringify(doc);
    // Same answer from both before timing them.
    const a = JSON.stringify(runTransformation(doc, c.incoming).outgoing);
    const b = JSON.stringify(c.plain(c.incoming));
    if (a !== b) throw new Error(`${c.name}: the interpreter answers ${a}, the plain function ${b}`);
    const interpreter = perSecond(() => runTransformation(doc, c.incoming));
    const fresh = perSecond(() => runTransformation(JSON.parse(text) as JstDocument, c.incoming));
    const plain = perSecond(() => c.plain(c.incoming));
    rows.push({
      document: c.name,
      'interpreter runs/s': Math.round(interpreter),
      'interpreter, fresh doc runs/s': Math.round(fresh),
      'plain JS runs/s': Math.round(plain),
      'plain / interpreter': `${(plain / interpreter).toFixed(1)}x`,
    });
  }
  return rows;
}
