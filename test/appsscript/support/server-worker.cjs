// The add-on tests' API server, in a worker thread: the tests call it through a synchronous
// UrlFetchApp shim that blocks the main thread, so the server must not live there. tsx's
// require hook loads the TypeScript sources of the server and the test helpers.
require('tsx/cjs/api').register();
require('./server-main.ts');
