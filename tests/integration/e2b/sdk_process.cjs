// The unmodified E2B JS SDK: envd's Filesystem/Move (files.rename), its
// answer and its errors (it_e2b.c runs this as sdk_rename). Prints one line
// per step; the test asserts the lines.
const { Sandbox } = require('e2b');

(async () => {
  const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000 });
  await sbx.files.write('/tmp/mv-a.txt', 'moved bytes');
  const e = await sbx.files.rename('/tmp/mv-a.txt', '/tmp/mv-b.txt');
  console.log('renamed ' + e.name + ' ' + e.path + ' ' + e.type);
  console.log('read-new ' + JSON.stringify(await sbx.files.read('/tmp/mv-b.txt')));
  console.log('old-exists ' + await sbx.files.exists('/tmp/mv-a.txt'));
  await sbx.files.makeDir('/tmp/mv-d/sub');
  const d = await sbx.files.rename('/tmp/mv-d', '/tmp/mv-e');
  console.log('renamed-dir ' + d.path + ' ' + d.type);
  console.log('dir-kept ' + await sbx.files.exists('/tmp/mv-e/sub'));
  try {
    await sbx.files.rename('/tmp/no-such-file', '/tmp/x');
    console.log('missing rename ok');
  } catch (err) {
    console.log('missing ' + err.constructor.name);
  }
  try {
    await sbx.files.rename('relative', '/tmp/x');
    console.log('relative rename ok');
  } catch (err) {
    console.log('relative ' + err.constructor.name);
  }
  console.log('killed ' + await sbx.kill());
})().catch((e) => {
  console.log('error ' + ((e && e.stack) || e));
  process.exit(1);
});
