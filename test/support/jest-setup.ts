// Integration tests start real processes and talk to real services.
jest.setTimeout(30_000);
