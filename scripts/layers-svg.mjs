// Draws docs/layers.svg: the console's folders (main, renderer, each capability of core/) and
// which depends on which, from dependency-cruiser's own analysis (the rules of
// .dependency-cruiser.cjs), laid out top-down with dagre. `npm run docs:layers` regenerates it;
// `node scripts/layers-svg.mjs --check` (test/unit/docs-layers.test.ts) fails when the committed
// picture is not what the code draws, naming the folders and dependencies that differ.
// The picture holds folders and the dependencies between them only (no module counts), so it
// changes when the map does, not with every new file.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import dagre from '@dagrejs/dagre';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'layers.svg');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');

const json = execFileSync(depcruise, ['core', 'main', 'renderer', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
  cwd: root,
  maxBuffer: 64 * 1024 * 1024,
  encoding: 'utf8',
});
const { modules } = JSON.parse(json);

/** The folder a module belongs to in the picture: main, renderer, or core/<capability>. */
function layerOf(source) {
  const parts = source.split('/');
  if (parts[0] === 'core') return parts.length > 2 ? `core/${parts[1]}` : 'core';
  if (parts[0] === 'main' || parts[0] === 'renderer') return parts[0];
  return undefined;
}

const counts = new Map();
const found = new Map();
for (const module of modules) {
  const from = layerOf(module.source);
  if (!from) continue;
  counts.set(from, (counts.get(from) ?? 0) + 1);
  for (const dependency of module.dependencies) {
    const to = layerOf(dependency.resolved);
    if (!to || to === from) continue;
    const key = `${from}\u0000${to}`;
    const edge = found.get(key) ?? { from, to, typeOnly: true };
    edge.typeOnly &&= dependency.dependencyTypes.includes('type-only');
    found.set(key, edge);
  }
}
// In a fixed order, so the same code always draws the same picture.
const edges = new Map([...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const graph = new dagre.graphlib.Graph();
graph.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 56, marginx: 16, marginy: 16 });
graph.setDefaultEdgeLabel(() => ({}));
const WIDTH = 132;
const HEIGHT = 32;
for (const name of [...counts.keys()].sort()) graph.setNode(name, { width: WIDTH, height: HEIGHT });
for (const edge of edges.values()) graph.setEdge(edge.from, edge.to);
dagre.layout(graph);

const colour = (name) =>
  name === 'core/host' || name === 'core/cli' ? '#fff1d6' : name === 'main' || name === 'renderer' ? '#dbeafe' : name === 'core/contract' ? '#dcfce7' : '#f3f4f6';
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
// Edges may bend outside dagre's box: the picture's bounds are taken from everything drawn.
const xs = [];
const ys = [];
for (const name of graph.nodes()) {
  const node = graph.node(name);
  xs.push(node.x - WIDTH / 2, node.x + WIDTH / 2);
  ys.push(node.y - HEIGHT / 2, node.y + HEIGHT / 2);
}
for (const edge of edges.values()) {
  for (const p of graph.edge(edge.from, edge.to).points) {
    xs.push(p.x);
    ys.push(p.y);
  }
}
const left = Math.floor(Math.min(...xs)) - 16;
const top = Math.floor(Math.min(...ys)) - 16;
const width = Math.ceil(Math.max(...xs)) + 16 - left;
const height = Math.ceil(Math.max(...ys)) + 16 - top;
const parts = [];
for (const edge of edges.values()) {
  const points = graph.edge(edge.from, edge.to).points;
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const dash = edge.typeOnly ? ' stroke-dasharray="4 3"' : '';
  parts.push(`<path d="${d}" fill="none" stroke="#6b7280" stroke-width="1"${dash} marker-end="url(#arrow)"><title>${escape(edge.from)} → ${escape(edge.to)}${edge.typeOnly ? ' (types only)' : ''}</title></path>`);
}
for (const name of graph.nodes()) {
  const node = graph.node(name);
  const x = node.x - WIDTH / 2;
  const y = node.y - HEIGHT / 2;
  parts.push(
    `<g><title>${escape(name)}</title><rect x="${x}" y="${y}" width="${WIDTH}" height="${HEIGHT}" rx="6" fill="${colour(name)}" stroke="#374151"/>` +
      `<text x="${node.x}" y="${node.y + 4}" text-anchor="middle" font-size="12" font-family="sans-serif">${escape(name)}</text></g>`,
  );
}
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + 24}" viewBox="${left} ${top} ${width} ${height + 24}">
<title>Layers of the console: each folder and the folders it imports (arrows point at what is used; dashed: types only)</title>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker></defs>
<rect x="${left}" y="${top}" width="${width}" height="${height + 24}" fill="#ffffff"/>
${parts.join('\n')}
<text x="${left + 16}" y="${top + height + 16}" font-size="10" fill="#6b7280" font-family="sans-serif">Generated by npm run docs:layers from dependency-cruiser (.dependency-cruiser.cjs). Arrows point at what is used; dashed: types only.</text>
</svg>
`;
const relative = path.relative(root, out);
if (process.argv.includes('--check')) {
  const committed = existsSync(out) ? readFileSync(out, 'utf8') : '';
  if (committed === svg) {
    console.log(`${relative} is current: ${counts.size} folders, ${edges.size} dependencies between them`);
  } else {
    // Name what differs: the folders and dependencies in one picture and not the other.
    const drawn = (text) => new Set([...text.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]).slice(1));
    const now = drawn(svg);
    const before = drawn(committed);
    const missing = [...now].filter((t) => !before.has(t));
    const gone = [...before].filter((t) => !now.has(t));
    console.error(`${relative} is stale: it is not the picture the code draws now. Run \`npm run docs:layers\` and commit ${relative}.`);
    if (missing.length) console.error(`  not in it yet: ${missing.join('; ')}`);
    if (gone.length) console.error(`  in it, no longer in the code: ${gone.join('; ')}`);
    if (!missing.length && !gone.length) console.error('  (the same folders and dependencies, laid out differently)');
    process.exitCode = 1;
  }
} else {
  writeFileSync(out, svg);
  console.log(`wrote ${relative}: ${counts.size} folders, ${edges.size} dependencies between them`);
}
