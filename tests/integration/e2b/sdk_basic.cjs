// The unmodified E2B JS SDK against a hangar node (it_e2b.c runs this with
// E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY set). Prints one line per
// step; the test asserts the lines.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

main(async () => {
  const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000,
                                     metadata: { suite: 'it_e2b' } });
  console.log('created ' + /^sb-[0-9a-f]{16}$/.test(sbx.sandboxId));
  let seen = '';
  try {
    await sbx.commands.run('echo hi; exit 3', { onStdout: (d) => { seen += d; } });
    console.log('run no-error');
  } catch (e) {
    console.log('exit ' + e.exitCode + ' stdout ' + JSON.stringify(e.stdout));
  }
  console.log('callback ' + JSON.stringify(seen));
  const r = await sbx.commands.run('echo err >&2; echo ok');
  console.log('run ' + r.exitCode + ' ' + JSON.stringify(r.stdout) + ' ' + JSON.stringify(r.stderr));
  const w = await sbx.files.write('/tmp/e2b.txt', 'hello from e2b');
  console.log('wrote ' + w.path);
  console.log('read ' + JSON.stringify(await sbx.files.read('/tmp/e2b.txt')));
  // envd's REST calls with the access token alone, no E2b-Sandbox-Id (SDKs
  // 2.7-2.14 send them so): the token names its sandbox. A token naming
  // another sandbox, or this one's secret under another id, is refused.
  const base = process.env.E2B_SANDBOX_URL + '/files?path=/tmp/e2b.txt';
  const tok = sbx.envdAccessToken;
  let res = await fetch(base, { headers: { 'X-Access-Token': tok } });
  console.log('token-only ' + res.status + ' ' + JSON.stringify(await res.text()));
  const secret = tok.slice(tok.indexOf('.') + 1);
  res = await fetch(base, { headers: { 'X-Access-Token': 'sb-0123456789abcdef.' + secret } });
  const other = await res.json();
  res = await fetch(base, { headers: { 'X-Access-Token': 'sb-0123456789abcdef.' + secret,
                                       'E2b-Sandbox-Id': sbx.sandboxId } });
  console.log('token-other ' + other.code + ' ' + (await res.json()).code);
  try {
    await sbx.files.read('/tmp/no-such-file');
    console.log('missing read ok');
  } catch (e) {
    console.log('missing ' + notFound(e, 'File'));
  }
  console.log('mkdir ' + await sbx.files.makeDir('/tmp/d/e'));
  await sbx.files.write('/tmp/d/e/f.txt', 'x');
  const ls = await sbx.files.list('/tmp/d/e');
  console.log('list ' + ls.map((e) => e.name + ':' + e.type + ':' + e.path).join(','));
  const fi = await sbx.files.getInfo('/tmp/d/e/f.txt');
  console.log('stat ' + fi.type + ' ' + fi.size);
  console.log('exists ' + await sbx.files.exists('/tmp/d/e/f.txt'));
  await sbx.files.remove('/tmp/d');
  console.log('exists-after ' + await sbx.files.exists('/tmp/d/e/f.txt'));
  const info = await sbx.getInfo();
  console.log('info ' + info.state + ' ' + info.metadata.suite);
  const items = await Sandbox.list({ query: { metadata: { suite: 'it_e2b' } } }).nextItems();
  console.log('listed ' + items.some((s) => s.sandboxId === sbx.sandboxId));
  console.log('running ' + await sbx.isRunning());
  // getInfo().endAt follows setTimeout: 10 min from now, not the start.
  await sbx.setTimeout(600000);
  const end = (await sbx.getInfo()).endAt.getTime();
  console.log('endAt-follows ' + (end > Date.now() + 300000 && end < Date.now() + 900000));
  // setTimeout: the deadline, idle from now. Created without autoPause
  // (E2B's default), the sandbox is killed once 2 s pass idle, as in E2B.
  await sbx.setTimeout(2000);
  let gone = '';
  for (let i = 0; i < 120 && !gone; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      await sbx.getInfo();
    } catch (e) {
      gone = notFound(e, 'Sandbox');
    }
  }
  console.log('timeout-killed ' + gone);
  console.log('kill-again ' + await Sandbox.kill(sbx.sandboxId));
});
