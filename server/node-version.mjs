// Loaded first by `npm start`, `npm run sandbox` and `npm run backup` (node --import), before any
// module that loads better-sqlite3: its Node-API build for Node 22 and 24 crashes on older Nodes,
// so an old Node gets one clear line instead of a segfault.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(
    `session host needs Node 22 or 24 (this is ${process.version}); Node 24 from the npm registry: ` +
      'npm install --prefix /opt/node24 node@24 && export PATH=/opt/node24/node_modules/node/bin:$PATH (then npm ci again)',
  );
  process.exit(1);
}
