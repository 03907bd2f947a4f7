// Preflight of `npm start`, `npm run serve` and `npm test`: the console needs Node >= 22.13
// (node:sqlite backs the embedded store). Says which Node was found and which is needed.
const NEEDED = [22, 13];
const found = process.versions.node.split('.').map(Number);
const ok = found[0] > NEEDED[0] || (found[0] === NEEDED[0] && found[1] >= NEEDED[1]);
if (!ok) {
  console.error(
    `Node ${process.versions.node} found at ${process.execPath}; the console needs Node >= ${NEEDED.join('.')}.\n` +
      'Install a newer Node (for example `npm i --prefix ~/.node22 node@22` and put ~/.node22/node_modules/.bin first on PATH).',
  );
  process.exit(1);
}
