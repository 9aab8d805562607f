/** A bare node:http server with only the upload door, for the resume-after-kill test: prints its port, then serves. */
import http from 'node:http';
import { serveUpload } from '../../src/server/api/upload.ts';

const server = http.createServer((req, res) => {
  serveUpload(req, res).catch(() => res.destroy());
});
server.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : ''}\n`);
});
