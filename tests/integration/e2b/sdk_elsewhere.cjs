// The unmodified E2B JS SDK pointed at a node that does not own the
// sandbox (it_e2b_cluster.c sets SANDBOX_ID and the URLs): connect, a
// command with its stdout callback, a file written and read back, info and
// kill all reach the owner through this node.
const { Sandbox } = require('e2b');

(async () => {
  const sbx = await Sandbox.connect(process.env.SANDBOX_ID, { requestTimeoutMs: 300000 });
  console.log('connected ' + (sbx.sandboxId === process.env.SANDBOX_ID));
  let seen = '';
  const r = await sbx.commands.run('echo $((6 * 7)); hostname >&2',
                                   { onStdout: (d) => { seen += d; } });
  console.log('run ' + r.exitCode + ' ' + JSON.stringify(r.stdout) + ' callback ' +
              JSON.stringify(seen));
  await sbx.files.write('/tmp/elsewhere.txt', 'through another node');
  console.log('read ' + JSON.stringify(await sbx.files.read('/tmp/elsewhere.txt')));
  console.log('info ' + (await sbx.getInfo()).state);
  console.log('killed ' + await sbx.kill());
})().catch((e) => {
  console.log('error ' + ((e && e.stack) || e));
  process.exit(1);
});
