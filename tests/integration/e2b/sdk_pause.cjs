// E2B's pause and connect on hangar (pause is hangar's suspend): a file
// written before the pause is there after the connect resumed it.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

main(async () => {
  // lifecycle onTimeout 'pause' is E2B's autoPause (SDK 2.14 on; before,
  // only betaCreate takes autoPause and this create ignores the option)
  const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000,
                                     lifecycle: { onTimeout: 'pause' } });
  await sbx.commands.run('echo kept > /tmp/kept');
  console.log('paused ' + await sbx.pause({ requestTimeoutMs: 300000 }));
  console.log('paused-again ' + await sbx.pause({ requestTimeoutMs: 300000 }));
  console.log('info ' + (await sbx.getInfo()).state);
  const again = await Sandbox.connect(sbx.sandboxId, { requestTimeoutMs: 300000 });
  console.log('connected ' + (again.sandboxId === sbx.sandboxId));
  const r = await again.commands.run('cat /tmp/kept');
  console.log('after ' + JSON.stringify(r.stdout));
  const c2 = await Sandbox.connect(sbx.sandboxId, { requestTimeoutMs: 300000 });
  console.log('connect-running ' + (c2.sandboxId === sbx.sandboxId));
  // created with autoPause: its timeout pauses it (hangar's suspend)
  await again.setTimeout(2000);
  let st = '';
  for (let i = 0; i < 120 && st !== 'paused'; i++) {
    await new Promise((r) => setTimeout(r, 500));
    st = (await again.getInfo()).state;
  }
  console.log('timeout ' + st);
  console.log('killed ' + await kill(again));
  try {
    await Sandbox.connect(sbx.sandboxId);
    console.log('connect-gone ok');
  } catch (e) {
    console.log('connect-gone ' + notFound(e, 'Sandbox'));
  }
});
