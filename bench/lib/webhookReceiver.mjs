// A webhook receiver for bench:webhook in a process of its own, so its work is not counted as the server's:
// `node webhookReceiver.mjs [hold]` listens on 127.0.0.1:0, prints its port, answers every POST 200 (or holds
// it unanswered with `hold`), and prints the count of POSTs it got when its stdin closes.
import http from 'node:http';

const hold = process.argv[2] === 'hold';
let posts = 0;
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    posts++;
    if (!hold) response.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.stdin.on('end', () => {
  process.stdout.write(`${posts}\n`);
  process.exit(0);
});
process.stdin.resume();
