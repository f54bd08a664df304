// Run every test west of UTC, where a DATE turned into a local-midnight Date shows the day before
// once serialised: the store must hand dates back as the strings it holds.
process.env.TZ = 'America/Costa_Rica';
