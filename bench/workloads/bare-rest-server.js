// The bare baseline of the REST figures: Express answering GET ROUTE (default /v1/matches) with
// the very bytes and content type the product answered for the same request (read from
// BODY_FILE), no key check, no database. Environment: PORT, BODY_FILE, CONTENT_TYPE, ROUTE.
'use strict';
const fs = require('node:fs');
const express = require('express');

const body = fs.readFileSync(process.env.BODY_FILE);
const contentType = process.env.CONTENT_TYPE;
const server = express();
server.get(process.env.ROUTE ?? '/v1/matches', (_req, res) =>
  res.set('content-type', contentType).send(body),
);
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
