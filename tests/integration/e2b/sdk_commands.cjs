// The unmodified E2B JS SDK: envd's process RPCs beyond Start (it_e2b.c
// runs this as sdk_background_connect_list_kill_stdin): a background
// command listed, left (disconnect) and re-attached by pid (connect) for
// its further output and exit code; kill; stdin to a cat; a counter
// re-attached after pause and connect; the errors for pids envd never
// started and for bad bodies. Prints one line per step; the test asserts them.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

const until = async (f) => {
  for (let i = 0; i < 600 && !f(); i++) await new Promise((r) => setTimeout(r, 100));
};

main(async () => {
  const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000 });
  // ~10 s of lines, then exit 7
  const bg = await sbx.commands.run(
    'for i in $(seq 1 20); do echo line$i; sleep 0.5; done; exit 7',
    { background: true, envs: { MARK: 'm1' }, cwd: '/tmp' });
  console.log('bg-pid ' + (Number.isInteger(bg.pid) && bg.pid > 0));
  const mine = (await sbx.commands.list()).find((p) => p.pid === bg.pid);
  console.log('listed ' + (mine ? mine.cmd + ' ' + mine.args[2].slice(0, 5) + ' ' +
                           mine.envs.MARK + ' ' + mine.cwd : 'none'));
  await bg.disconnect();
  let seen = '';
  const h = await sbx.commands.connect(bg.pid, { onStdout: (d) => { seen += d; } });
  console.log('connected ' + (h.pid === bg.pid));
  try {
    await h.wait();
    console.log('connect-wait no-error');
  } catch (e) {
    console.log('connect-exit ' + e.exitCode);
  }
  console.log('connect-saw-later ' + seen.includes('line20\n'));
  console.log('listed-after ' + (await sbx.commands.list()).some((p) => p.pid === bg.pid));
  try {
    await sbx.commands.connect(bg.pid);
    console.log('connect-ended ok');
  } catch (e) {
    console.log('connect-ended ' + e.constructor.name);
  }

  // kill: SIGKILL through SendSignal; true, then false once it is gone
  const sl = await sbx.commands.run('sleep 600', { background: true });
  console.log('kill ' + await sbx.commands.kill(sl.pid));
  try {
    await sl.wait();
    console.log('killed-wait no-error');
  } catch (e) {
    console.log('killed-exit ' + e.exitCode);
  }
  console.log('kill-again ' + await sbx.commands.kill(sl.pid));

  // stdin: a cat echoes what SendInput sends; CloseStdin ends it
  let echoed = '';
  const cat = await sbx.commands.run('cat', { background: true, stdin: true,
                                              onStdout: (d) => { echoed += d; } });
  await sbx.commands.sendStdin(cat.pid, 'hello stdin\n');
  await until(() => echoed.includes('hello stdin\n'));
  console.log('stdin-echo ' + JSON.stringify(echoed));
  await sbx.commands.closeStdin(cat.pid);
  const r = await cat.wait();
  console.log('cat-exit ' + r.exitCode + ' ' + JSON.stringify(r.stdout));

  // commands that have exited: their pids are gone, as in E2B's envd
  // (SendInput, CloseStdin: not_found; SendSignal too: kill says false)
  for (const [name, f] of [['stdin', (pid) => sbx.commands.sendStdin(pid, 'x')],
                           ['close', (pid) => sbx.commands.closeStdin(pid)],
                           ['kill', (pid) => sbx.commands.kill(pid)]]) {
    const h = await sbx.commands.run('true', { background: true, stdin: true });
    await h.wait();
    try {
      console.log(name + '-exited ' + await f(h.pid));
    } catch (e) {
      console.log(name + '-exited ' + e.constructor.name);
    }
  }

  // stdin of a command started without stdin: true; pids envd never started
  const nostdin = await sbx.commands.run('sleep 600', { background: true });
  try {
    await sbx.commands.sendStdin(nostdin.pid, 'x');
    console.log('stdin-closed ok');
  } catch (e) {
    console.log('stdin-closed ' + e.constructor.name + ' ' + /stdin is closed/.test(e.message));
  }
  await nostdin.kill();
  console.log('kill-unknown ' + await sbx.commands.kill(999999));
  for (const [name, f] of [['connect', () => sbx.commands.connect(999999)],
                           ['stdin', () => sbx.commands.sendStdin(999999, 'x')]]) {
    try {
      await f();
      console.log(name + '-unknown ok');
    } catch (e) {
      console.log(name + '-unknown ' + e.constructor.name + ' ' + /pid 999999/.test(e.message));
    }
  }
  // a counter in the background across pause (hangar's suspend) and
  // connect (its resume): still listed, re-attached, still counting
  let before = '';
  const ctr = await sbx.commands.run('i=0; while :; do i=$((i+1)); echo $i; sleep 0.3; done',
                                     { background: true, onStdout: (d) => { before += d; } });
  await until(() => before.split('\n').length > 3);
  await ctr.disconnect();
  const last = Math.max(...before.split('\n').filter((l) => l).map(Number));
  console.log('paused ' + await sbx.pause({ requestTimeoutMs: 300000 }));
  const back = await Sandbox.connect(sbx.sandboxId, { requestTimeoutMs: 300000 });
  console.log('resumed-listed ' + (await back.commands.list()).some((p) => p.pid === ctr.pid));
  let after = '';
  const ch = await back.commands.connect(ctr.pid, { onStdout: (d) => { after += d; } });
  await until(() => after.split('\n').length > 3);
  const counts = after.split('\n').filter((l) => l).map(Number);
  console.log('resumed-counting ' + (counts.length > 1 && counts[0] > last &&
                                      counts[counts.length - 1] > counts[0]));
  console.log('resumed-kill ' + await back.commands.kill(ctr.pid));
  await ch.wait().catch(() => {});

  // bad bodies, as raw HTTP: Connect's error shapes (unary: the status and
  // {"code"}; stream: a 200 whose end-of-stream envelope carries the error)
  const envd = (m, ctype, body) => fetch(new URL('/process.Process/' + m, process.env.E2B_SANDBOX_URL), {
    method: 'POST', body,
    headers: { 'Content-Type': ctype, 'E2b-Sandbox-Id': sbx.sandboxId,
               'X-Access-Token': process.env.E2B_API_KEY, 'Connect-Protocol-Version': '1' } });
  let res = await envd('SendSignal', 'application/json', '{bad');
  console.log('bad-json ' + res.status + ' ' + (await res.json()).code);
  res = await envd('SendSignal', 'application/json', '{"process":{"pid":1},"signal":"SIGNAL_SIGHUP"}');
  console.log('bad-signal ' + res.status + ' ' + (await res.json()).code);
  res = await envd('Connect', 'application/connect+json', 'nope');
  const raw = Buffer.from(await res.arrayBuffer());
  console.log('bad-envelope ' + res.status + ' ' + res.headers.get('content-type') + ' ' + raw[0] +
              ' ' + JSON.parse(raw.subarray(5).toString()).error.code);
  console.log('killed ' + await kill(sbx));
});
