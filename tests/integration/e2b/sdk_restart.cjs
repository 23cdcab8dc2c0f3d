// E2B's connect after hangard restarted (it_e2b.c runs this twice around
// hg_it_node_restart): PHASE=create makes a sandbox and a file and prints
// its id; PHASE=connect (SANDBOX_ID set) connects with the API key alone.
// The daemon has not seen the sandbox's token since it started: connect
// still hands it back, so envd's calls (a command, a file) go through.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

main(async () => {
  if (process.env.PHASE === 'create') {
    const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000 });
    await sbx.files.write('/tmp/before-restart.txt', 'kept across the restart');
    console.log('id ' + sbx.sandboxId);
    return;
  }
  const sbx = await Sandbox.connect(process.env.SANDBOX_ID, { requestTimeoutMs: 300000 });
  console.log('token ' + (typeof sbx.envdAccessToken === 'string' &&
                          sbx.envdAccessToken.startsWith(sbx.sandboxId + '.')));
  console.log('read ' + JSON.stringify(await sbx.files.read('/tmp/before-restart.txt')));
  const r = await sbx.commands.run('echo after');
  console.log('run ' + r.exitCode + ' ' + JSON.stringify(r.stdout));
  console.log('killed ' + await kill(sbx));
});
