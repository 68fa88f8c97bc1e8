'use strict';
/**
 * Preloaded into an agent's Node processes (`NODE_OPTIONS=--require …/netGuard.cjs`, inherited by the processes
 * it starts): every TCP connection to a host other than loopback is written, one `host:port` a line, to the
 * file named by ATS_NET_GUARD_LOG, and sent to a closed loopback port instead, so a test both sees that the
 * agent tried to leave the machine and never does. Connections go through `net.Socket.prototype.connect`
 * (http, https, tls and undici's fetch alike), before any DNS lookup.
 */
const fs = require('node:fs');
const net = require('node:net');

const logFile = process.env.ATS_NET_GUARD_LOG;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

if (logFile) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
    if (typeof options.path !== 'string' || options.path === '') {
      const host = typeof options.host === 'string' && options.host !== '' ? options.host : 'localhost';
      if (!LOOPBACK.has(host)) {
        try {
          fs.appendFileSync(logFile, `${host}:${options.port}\n`);
        } catch {
          // The test's folder is gone: nothing to tell anymore.
        }
        const callback = Array.isArray(args[0]) ? args[0][1] : args.find((arg) => typeof arg === 'function');
        const refused = { ...options, host: '127.0.0.1', port: 9 };
        return typeof callback === 'function' ? connect.call(this, refused, callback) : connect.call(this, refused);
      }
    }
    return connect.apply(this, args);
  };
}
