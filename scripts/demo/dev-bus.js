// A tiny NATS-protocol server for the demo on machines with neither a NATS
// server nor a nats-server binary. It speaks just enough of the core protocol
// (CONNECT with its echo option, PING/PONG, SUB, UNSUB, PUB, HPUB, wildcards) for the services'
// ordinary NATS client, so the apps run unchanged. It keeps nothing, has no
// JetStream, no auth and no clustering: development only, one machine.
'use strict';
const net = require('node:net');

const CRLF = '\r\n';

/** True when a subscription pattern matches a concrete subject. */
function subjectMatches(pattern, subject) {
  const want = pattern.split('.');
  const have = subject.split('.');
  for (let i = 0; i < want.length; i += 1) {
    if (want[i] === '>') return have.length > i;
    if (i >= have.length) return false;
    if (want[i] !== '*' && want[i] !== have[i]) return false;
  }
  return want.length === have.length;
}

class Connection {
  constructor(socket, bus) {
    this.socket = socket;
    this.bus = bus;
    this.buffer = Buffer.alloc(0);
    /** sid → { subject, remaining } */
    this.subscriptions = new Map();
    this.pending = null;
    /** The client's `echo` option: false means it must not receive its own messages. */
    this.echo = true;
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => bus.connections.delete(this));
    this.write(
      `INFO ${JSON.stringify({
        server_id: 'demo-dev-bus',
        server_name: 'demo-dev-bus',
        version: '2.10.0',
        proto: 1,
        headers: true,
        max_payload: 1048576,
        host: '127.0.0.1',
        port: bus.port,
      })}${CRLF}`,
    );
  }

  write(data) {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  receive(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.pending) {
        const needed = this.pending.size + 2;
        if (this.buffer.length < needed) return;
        const body = this.buffer.subarray(0, this.pending.size);
        this.buffer = this.buffer.subarray(needed);
        this.bus.route(this.pending, body, this);
        this.pending = null;
        continue;
      }
      const end = this.buffer.indexOf(CRLF);
      if (end < 0) return;
      const line = this.buffer.subarray(0, end).toString('utf8');
      this.buffer = this.buffer.subarray(end + 2);
      this.command(line);
    }
  }

  command(line) {
    const [verb, ...args] = line.trim().split(/\s+/);
    switch ((verb ?? '').toUpperCase()) {
      case 'CONNECT': {
        try {
          this.echo = JSON.parse(line.slice(line.indexOf('{'))).echo !== false;
        } catch {
          this.echo = true;
        }
        return;
      }
      case 'PING':
        return this.write(`PONG${CRLF}`);
      case 'PONG':
        return;
      case 'SUB': {
        const sid = args[args.length - 1];
        this.subscriptions.set(sid, { subject: args[0], remaining: Infinity });
        return;
      }
      case 'UNSUB': {
        const [sid, max] = args;
        const subscription = this.subscriptions.get(sid);
        if (!subscription) return;
        if (max === undefined) this.subscriptions.delete(sid);
        else subscription.remaining = Number(max);
        return;
      }
      case 'PUB': {
        const size = Number(args[args.length - 1]);
        const reply = args.length === 3 ? args[1] : undefined;
        this.pending = { subject: args[0], reply, size, headerSize: 0 };
        return;
      }
      case 'HPUB': {
        const size = Number(args[args.length - 1]);
        const headerSize = Number(args[args.length - 2]);
        const reply = args.length === 4 ? args[1] : undefined;
        this.pending = { subject: args[0], reply, size, headerSize };
        return;
      }
      default:
        this.write(`-ERR 'Unknown Protocol Operation'${CRLF}`);
    }
  }

  deliver(message, body) {
    for (const [sid, subscription] of this.subscriptions) {
      if (!subjectMatches(subscription.subject, message.subject)) continue;
      const reply = message.reply ? ` ${message.reply}` : '';
      const head = message.headerSize
        ? `HMSG ${message.subject} ${sid}${reply} ${message.headerSize} ${message.size}${CRLF}`
        : `MSG ${message.subject} ${sid}${reply} ${message.size}${CRLF}`;
      this.write(Buffer.concat([Buffer.from(head), body, Buffer.from(CRLF)]));
      subscription.remaining -= 1;
      if (subscription.remaining <= 0) this.subscriptions.delete(sid);
    }
  }
}

class DevBus {
  constructor() {
    this.connections = new Set();
    this.server = net.createServer((socket) => this.connections.add(new Connection(socket, this)));
    this.port = 0;
  }

  /** Listens on 127.0.0.1 (port 0 picks a free one) and resolves the port. */
  listen(port = 0) {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = this.server.address().port;
        resolve(this.port);
      });
    });
  }

  route(message, body, from) {
    for (const connection of this.connections) {
      if (connection !== from || from.echo) connection.deliver(message, body);
    }
  }

  close() {
    for (const connection of this.connections) connection.socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

module.exports = { DevBus, subjectMatches };
