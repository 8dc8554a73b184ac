// Preloaded with --require: at exit, writes the files of every CommonJS module the process loaded (ES modules
// importing a CommonJS package put it in require.cache too) to the file RECORD_LOADED_MODULES names.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.RECORD_LOADED_MODULES, Object.keys(require.cache).join('\n'));
});
