#!/usr/bin/env node
// The CLI's bundle (scripts/bundle-cli.mjs): the same modules as dist/, loaded as a handful of files.
import '../dist/bundle/main.js';
