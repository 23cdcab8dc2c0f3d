// The unmodified E2B JS SDK pointed at a node that does not own the
// sandbox (it_e2b_cluster.c sets SANDBOX_ID and the URLs): connect, a
// command with its stdout callback, a file written and read back, a
// background command listed, re-attached and killed, info and kill all
// reach the owner through this node.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

main(async () => {
  const sbx = await Sandbox.connect(process.env.SANDBOX_ID, { requestTimeoutMs: 300000 });
  console.log('connected ' + (sbx.sandboxId === process.env.SANDBOX_ID));
  let seen = '';
  const r = await sbx.commands.run('echo $((6 * 7)); hostname >&2',
                                   { onStdout: (d) => { seen += d; } });
  console.log('run ' + r.exitCode + ' ' + JSON.stringify(r.stdout) + ' callback ' +
              JSON.stringify(seen));
  await sbx.files.write('/tmp/elsewhere.txt', 'through another node');
  console.log('read ' + JSON.stringify(await sbx.files.read('/tmp/elsewhere.txt')));
  // the access token alone, no E2b-Sandbox-Id (SDKs 2.7-2.14 read files so):
  // this node tells the sandbox from the token and forwards to the owner
  const res = await fetch(process.env.E2B_SANDBOX_URL + '/files?path=/tmp/elsewhere.txt', {
    headers: { 'X-Access-Token': process.env.SANDBOX_ID + '.' + process.env.SANDBOX_TOKEN } });
  console.log('token-only ' + res.status + ' ' + JSON.stringify(await res.text()));
  // envd's process RPCs reach the owner too (its table of pids)
  const bg = await sbx.commands.run('while :; do echo tick; sleep 0.3; done', { background: true });
  await bg.disconnect();
  console.log('listed ' + (await sbx.commands.list()).some((p) => p.pid === bg.pid));
  let ticks = '';
  const h = await sbx.commands.connect(bg.pid, { onStdout: (d) => { ticks += d; } });
  for (let i = 0; i < 600 && !ticks.includes('tick\n'); i++)
    await new Promise((r) => setTimeout(r, 100));
  console.log('connect-ticks ' + ticks.includes('tick\n'));
  console.log('kill ' + await sbx.commands.kill(bg.pid));
  try {
    await h.wait();
  } catch (e) {
    console.log('killed-exit ' + e.exitCode);
  }
  console.log('info ' + (await sbx.getInfo()).state);
  console.log('killed ' + await kill(sbx));
});
