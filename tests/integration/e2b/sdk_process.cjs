// The unmodified E2B JS SDK: envd's Filesystem/Move (files.rename) and
// multi-file writes, their answers and errors (it_e2b.c runs this as
// sdk_rename_multi_write). Prints one line per step; the test asserts them.
const { Sandbox } = require('e2b');
const { main, notFound, kill } = require('./compat.cjs');

main(async () => {
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
    console.log('missing ' + notFound(err, 'File'));
  }
  try {
    await sbx.files.rename('relative', '/tmp/x');
    console.log('relative rename ok');
  } catch (err) {
    console.log('relative ' + err.constructor.name);
  }
  // files.write([...]): one multipart body, a part per file, filename = path;
  // the missing /tmp/m is made, as E2B's envd makes parent directories.
  const ws = await sbx.files.write([{ path: '/tmp/m/one.txt', data: 'first' },
                                    { path: '/tmp/m/two.txt', data: 'second' }]);
  console.log('multi ' + ws.map((w) => w.name + ':' + w.path).join(','));
  console.log('multi-read ' + JSON.stringify(await sbx.files.read('/tmp/m/one.txt')) + ' ' +
              JSON.stringify(await sbx.files.read('/tmp/m/two.txt')));
  // one file (an octet-stream upload) under directories that do not exist
  const deep = await sbx.files.write('/tmp/deep/er/f.txt', 'deep bytes');
  console.log('deep ' + deep.path + ' ' + JSON.stringify(await sbx.files.read('/tmp/deep/er/f.txt')));
  try {
    await sbx.files.write([{ path: 'relative.txt', data: 'x' }, { path: '/tmp/m/3', data: 'y' }]);
    console.log('multi-relative ok');
  } catch (err) {
    console.log('multi-relative ' + err.constructor.name);
  }
  console.log('killed ' + await kill(sbx));
});
