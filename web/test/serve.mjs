// Starts `cqldb serve` on a free loopback port for the web tests (browser_test.mjs,
// load_check.mjs) and resolves once it prints its address.
import { spawn } from 'node:child_process';

/// Spawns `CQLDB serve --db DB --port 0 EXTRA...`; resolves to { server, base } with base the
/// "http://127.0.0.1:PORT" it listens on; rejects when it exits or prints no address in 10 s.
export function startServer(cqldb, db, extra = []) {
  const server = spawn(cqldb, ['serve', '--db', db, '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (chunk) => {
      text += chunk;
      const m = text.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ server, base: `http://127.0.0.1:${m[1]}` });
    });
    server.on('exit', (code) => reject(new Error(`cqldb serve exited with ${code}`)));
    setTimeout(() => reject(new Error('cqldb serve did not start in 10 s')), 10000);
  });
}
