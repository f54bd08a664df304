// Run every test west of UTC, where a DATE turned into a local-midnight Date shows the day before
// once serialised: the store must hand dates back as the strings it holds.
//
// setupFiles run inside Jest's sandbox, whose `process.env` is a plain copy: assigning TZ there
// never reaches Node, and the tests would silently run in the host's zone. The process object of
// the main context is the real one, and Node applies a TZ assigned to its env at once.
const realProcess = require('node:vm').runInThisContext('process');
realProcess.env.TZ = 'America/Costa_Rica';
process.env.TZ = 'America/Costa_Rica';
