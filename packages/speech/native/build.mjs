// Builds the whisper.cpp addon (Rust, through whisper-rs and napi-rs) into native/verbatim-whisper.node.
// Cargo rebuilds only what changed, so this is quick after the first build (~1–2 minutes).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
if (cargo.status !== 0) {
  console.error(
    'The speech engine needs a Rust toolchain to build whisper.cpp (cargo, plus cmake and a C++ compiler).\n' +
      'Install Rust with rustup (https://rustup.rs) or your distribution (apt-get install -y cargo cmake g++), then run npm run build again.',
  );
  process.exit(1);
}
// whisper-rs-sys passes CMAKE_* variables on to CMake, but its build script does not run again when
// they change: a build made without these options (or with others) cleans that crate's build first.
const ggmlOptions = path.join(here, 'ggml-options.cmake');
const optionsStamp = path.join(here, 'target', 'release', 'ggml-options.sha256');
// It includes the patches of whisper.cpp's sources (every .cmake file here): a change to any of them
// rebuilds.
const optionsHash = readdirSync(here)
  .filter((name) => name.endsWith('.cmake'))
  .sort()
  .reduce((hash, name) => hash.update(name).update(readFileSync(path.join(here, name))), createHash('sha256'))
  .digest('hex');
const builtWith = existsSync(optionsStamp) ? readFileSync(optionsStamp, 'utf8') : '';
if (builtWith !== optionsHash) {
  spawnSync('cargo', ['clean', '--release', '--quiet', '-p', 'whisper-rs-sys'], {
    cwd: here,
    stdio: 'inherit',
  });
}
const build = spawnSync('cargo', ['build', '--release', '--quiet'], {
  cwd: here,
  stdio: 'inherit',
  env: { ...process.env, WHISPER_DONT_GENERATE_BINDINGS: '1', CMAKE_PROJECT_INCLUDE: ggmlOptions },
});
if (build.status !== 0) process.exit(build.status ?? 1);
mkdirSync(path.dirname(optionsStamp), { recursive: true });
writeFileSync(optionsStamp, optionsHash);
const built = path.join(here, 'target', 'release', 'libverbatim_whisper.so');
if (!existsSync(built)) {
  console.error(`cargo finished but ${built} is missing`);
  process.exit(1);
}
// A process that has the addon loaded (a running server, a test) crashes if its file is rewritten
// in place: the new build is renamed over it instead, and only when it changed.
const target = path.join(here, 'verbatim-whisper.node');
if (!existsSync(target) || !readFileSync(built).equals(readFileSync(target))) {
  const staging = `${target}.${process.pid}.tmp`;
  copyFileSync(built, staging);
  renameSync(staging, target);
}
