#!/usr/bin/env node
// `serve` runs the modules as tsc built them (dist/), every other command the bundle of the CLI, the server
// and the SDK (scripts/bundle-cli.mjs): the same code, loaded as a few files instead of ~200. The service
// starts once, and keeps the launch path as measured (callgrind counted up to 3 % more instructions per
// v2 launch from the bundle, within its noise side by side: docs/performance.md, "The test suite's time").
if (process.argv[2] === 'serve') await import('../dist/main.js');
else await import('../dist/bundle/main.js');
