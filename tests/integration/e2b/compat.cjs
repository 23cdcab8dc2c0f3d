// What the SDK scripts share: running a script to an explicit exit, and the
// few places where the SDK versions the e2b tier runs (the newest, pinned in
// tools/e2b/install-sdk.sh, and 2.14.0, the oldest that runs every script:
// it_e2b_oldest) differ in API but not in what hangar did. The scripts
// print behaviour ("not-found", "killed true"); each version must still
// show it the way that version does, so the newest is held to its own classes.
const { Sandbox } = require('e2b');

const version = require('e2b/package.json').version.split('.').map(Number);

// True if this SDK is older than v ("2.15.0").
function olderThan(v) {
  const w = v.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (version[i] !== w[i]) return version[i] < w[i];
  return false;
}

// 'not-found' if err is the SDK's error for a missing kind ('File' or
// 'Sandbox'): FileNotFoundError / SandboxNotFoundError from 2.15, their
// base NotFoundError before; otherwise err's class name (printed, so a
// wrong error shows in the test's output).
function notFound(err, kind) {
  const want = olderThan('2.15.0') ? 'NotFoundError' : kind + 'NotFoundError';
  const name = err && err.name ? err.name : String(err);
  return name === want ? 'not-found' : name;
}

// sbx.kill(), then the API must no longer know the sandbox. The newest SDK
// answers true; older ones (at least through 2.23) return nothing, so the
// lookup is what shows the kill there. Returns true, or what went wrong.
async function kill(sbx) {
  const r = await sbx.kill();
  if (r !== true && !(r === undefined && olderThan('2.51.0'))) return 'returned ' + r;
  try {
    await Sandbox.getInfo(sbx.sandboxId);
    return 'still-there';
  } catch (e) {
    const nf = notFound(e, 'Sandbox');
    return nf === 'not-found' ? true : nf;
  }
}

// Runs an async script and exits: 0 after its last line, 1 on an error
// (printed). Explicit, because some SDKs (2.14) keep a handle open that
// would hold node alive until the test's timeout.
function main(f) {
  f().then(
    () => process.exit(0),
    (e) => {
      console.log('error ' + ((e && e.stack) || e));
      process.exit(1);
    });
}

module.exports = { version: version.join('.'), olderThan, notFound, kill, main };
