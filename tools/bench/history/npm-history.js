'use strict';
// A real history without a Git remote: the released versions of one npm package committed
// oldest first, one commit per version (the tarball's contents replace the working tree;
// the version is the message; the author date is the registry's time for that version).
// Made once under the work directory and reused; the tarballs are cached beside it.
const fs = require('node:fs');
const path = require('node:path');
const { run } = require('../../lib/proc');
const { untar } = require('../../lib/corpus');
const { git } = require('./common');

const STABLE = /^(\d+)\.(\d+)\.(\d+)$/;

/** Version precedence for stable versions (no pre-release, no build). */
function compareVersions(a, b) {
  const x = STABLE.exec(a).slice(1).map(Number);
  const y = STABLE.exec(b).slice(1).map(Number);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

const npm = (argv, cwd) => run('npm', argv, { cwd, maxBuffer: 1 << 28 });

/**
 * The package's last `count` stable versions by precedence (oldest first), with the
 * registry's time of each. Precedence, not publish time, orders them: a backport such as
 * semver 5.7.2 (published after 7.5.1) sits on its own line, before 6.0.0.
 */
function releasedVersions(pkg, count) {
  const view = JSON.parse(npm(['view', pkg, 'versions', 'time', '--json']));
  const stable = view.versions.filter((v) => STABLE.test(v) && view.time[v]).sort(compareVersions);
  if (stable.length < count)
    throw new Error(`${pkg} has ${stable.length} stable versions with a time; --versions ${count} asks for more`);
  return stable.slice(stable.length - count).map((version) => ({ version, time: view.time[version] }));
}

const tarballName = (pkg, version) => `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** Every version's tarball in `dir` (`npm pack PKG@V ...` once for the missing ones). */
function fetchTarballs(pkg, versions, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const missing = versions.filter((v) => !fs.existsSync(path.join(dir, tarballName(pkg, v.version))));
  for (let i = 0; i < missing.length; i += 20) {
    npm(['pack', '--silent', ...missing.slice(i, i + 20).map((v) => `${pkg}@${v.version}`)], dir);
  }
  for (const v of versions) {
    if (!fs.existsSync(path.join(dir, tarballName(pkg, v.version))))
      throw new Error(`npm pack ${pkg}@${v.version} left no ${tarballName(pkg, v.version)} in ${dir}`);
  }
  return missing.length;
}

function clearWorkingTree(root) {
  for (const name of fs.readdirSync(root)) {
    if (name !== '.git') fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/**
 * The repository of `count` versions of `pkg` under `work` (made when missing or when its
 * stamp names other versions): { root, versions, made, fetched, backwards }. Author and
 * committer dates are the registry's time, as it has them: `backwards` counts commits dated
 * before their parent (a registry or mirror whose times are out of version order). On a
 * first-parent chain Git walks parents whatever the dates say.
 */
function packageHistoryRepo(pkg, count, work) {
  const versions = releasedVersions(pkg, count);
  const safe = pkg.replace(/^@/, '').replace('/', '-');
  const root = path.join(work, `repo-${safe}-${versions[0].version}-${versions[versions.length - 1].version}`);
  const stampFile = `${root}.json`;
  const stamp = JSON.stringify(versions.map((v) => v.version));
  if (
    fs.existsSync(path.join(root, '.git')) &&
    fs.existsSync(stampFile) &&
    JSON.parse(fs.readFileSync(stampFile, 'utf8')).versions === stamp
  ) {
    return {
      root,
      versions,
      made: false,
      fetched: 0,
      backwards: JSON.parse(fs.readFileSync(stampFile, 'utf8')).backwards,
    };
  }
  const tarballs = path.join(work, 'tarballs');
  const fetched = fetchTarballs(pkg, versions, tarballs);
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(stampFile, { force: true });
  fs.mkdirSync(root, { recursive: true });
  git(root, ['init', '-q', '-b', 'main']);
  let previous = 0;
  let backwards = 0;
  for (const { version, time } of versions) {
    clearWorkingTree(root);
    untar(path.join(tarballs, tarballName(pkg, version)), root, { extra: ['--no-same-owner'] });
    const when = `@${Math.floor(Date.parse(time) / 1000)} +0000`;
    if (Date.parse(time) < previous) backwards++;
    previous = Date.parse(time);
    const who = { name: `${pkg} releases`, email: `${safe}@registry.npmjs.org` };
    git(root, ['add', '-A', '-f', '.']);
    git(
      root,
      ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', version],
      undefined,
      {
        GIT_AUTHOR_NAME: who.name,
        GIT_AUTHOR_EMAIL: who.email,
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_NAME: who.name,
        GIT_COMMITTER_EMAIL: who.email,
        GIT_COMMITTER_DATE: when,
      },
    );
  }
  git(root, ['gc', '-q']); // packed, as a clone would be
  fs.writeFileSync(stampFile, JSON.stringify({ versions: stamp, backwards }));
  return { root, versions, made: true, fetched, backwards };
}

module.exports = { packageHistoryRepo, releasedVersions, compareVersions };
