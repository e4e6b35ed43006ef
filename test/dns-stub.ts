import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A DNS server for tests, over UDP on 127.0.0.1: answers A queries for the names it is given with
 * their addresses (every one, as Docker's DNS answers a service name with each copy's address),
 * NXDOMAIN for any other name, and no records for other types. `set` changes a name's addresses
 * at once; `queries` counts the questions asked for a name, to see a resolver come back.
 */
export interface DnsStub {
  port: number;
  set(name: string, addresses: string[] | undefined): void;
  queries(name: string): number;
  close(): Promise<void>;
}

export async function startDnsStub(records: Record<string, string[]>): Promise<DnsStub> {
  const names = new Map(Object.entries(records).map(([name, addresses]) => [name.toLowerCase(), addresses]));
  const asked = new Map<string, number>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    if (query.length < 12) return;
    // The question: length-prefixed labels up to a zero byte, then type and class.
    let offset = 12;
    const labels: string[] = [];
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += 1 + length;
    }
    const questionEnd = offset + 5;
    if (questionEnd > query.length) return;
    const name = labels.join('.').toLowerCase();
    const type = query.readUInt16BE(offset + 1);
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const addresses = names.get(name);
    const answers = type === 1 && addresses ? addresses : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0); // the query's id
    // QR, opcode 0, AA, RD copied, RA; rcode 3 (NXDOMAIN) for an unknown name
    header.writeUInt16BE(0x8480 | (query.readUInt16BE(2) & 0x0100) | (addresses ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(1, 6); // TTL 1 s
      record.writeUInt16BE(4, 10);
      for (const [i, part] of address.split('.').entries()) record.writeUInt8(Number(part), 12 + i);
      return record;
    });
    socket.send(
      Buffer.concat([header, query.subarray(12, questionEnd), ...records]),
      peer.port,
      peer.address,
    );
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (socket.address() as AddressInfo).port,
    set(name, addresses) {
      if (addresses) names.set(name.toLowerCase(), addresses);
      else names.delete(name.toLowerCase());
    },
    queries: (name) => asked.get(name.toLowerCase()) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
