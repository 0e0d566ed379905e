/**
 * Stops the CLI with a plain message on a Node.js older than the supported one (22.12, the oldest
 * that every dependency accepts: oidc-provider wants an LTS from 22 on, Vite 22.12). cli.ts imports
 * this module first, so the message comes before any dependency is loaded and starts warning.
 * `npm start` and the other npm scripts already run on the Node.js 22 that `npm ci` installs in
 * node_modules; this catches the CLI started by hand with an older system `node`.
 */
const minimum = { major: 22, minor: 12 };

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < minimum.major || (major === minimum.major && minor < minimum.minor)) {
  process.stderr.write(
    `Verbatim needs Node.js ${minimum.major}.${minimum.minor} or later; this is Node.js ${process.version} ` +
      `(${process.execPath}).\n` +
      'The npm scripts (npm start, npm run worker, …) use the Node.js 22 that `npm ci` installs; to run the ' +
      'CLI by hand, start it with that one: npx node apps/server/dist/cli.js <command>\n',
  );
  process.exit(1);
}

export {};
