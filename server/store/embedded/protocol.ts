/**
 * Just enough of the PostgreSQL wire protocol to share PGlite on a socket: cutting what a client
 * sends into messages, and reading from what PGlite answers whether the session is idle again
 * (ReadyForQuery) and which notifications it carries (NotificationResponse).
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

export type FrontendMessage =
  /** SSLRequest or GSSENCRequest: answered "no" by the relay itself. */
  | { kind: 'encryption-request' }
  /** PGlite has no other backend to cancel. */
  | { kind: 'cancel-request' }
  | { kind: 'startup'; bytes: Uint8Array }
  | { kind: 'message'; type: string; bytes: Uint8Array };

/** Messages after which the client waits for an answer: the relay runs what it has collected. */
const ANSWERED_AFTER = new Set(['S' /* Sync */, 'Q' /* Query */, 'H' /* Flush */, 'X' /* Terminate */]);

export function endsUnit(message: FrontendMessage): boolean {
  return message.kind !== 'message' || ANSWERED_AFTER.has(message.type);
}

/** Cuts a client's byte stream into messages; the first ones have no type byte (startup phase). */
export function createFrontendReader() {
  let buffer: Buffer = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer): FrontendMessage[] => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    const messages: FrontendMessage[] = [];
    for (;;) {
      if (!started) {
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) break;
        const code = buffer.readInt32BE(4);
        const bytes = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) messages.push({ kind: 'encryption-request' });
        else if (code === CANCEL_REQUEST) messages.push({ kind: 'cancel-request' });
        else {
          started = true;
          messages.push({ kind: 'startup', bytes: new Uint8Array(bytes) });
        }
        continue;
      }
      if (buffer.length < 5) break;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) break;
      messages.push({ kind: 'message', type: String.fromCharCode(buffer[0] ?? 0), bytes: new Uint8Array(buffer.subarray(0, length)) });
      buffer = buffer.subarray(length);
    }
    return messages;
  };
}

export interface BackendEvents {
  /** ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' in a failed transaction. */
  onReady(status: string): void;
  onNotification(channel: string, payload: string): void;
}

/** Reads PGlite's answer as it streams out (a message may be split across chunks). */
export function createBackendScanner(events: BackendEvents) {
  let buffer: Buffer = Buffer.alloc(0);
  return (chunk: Uint8Array): void => {
    buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
    let offset = 0;
    while (buffer.length - offset >= 5) {
      const length = 1 + buffer.readInt32BE(offset + 1);
      if (buffer.length - offset < length) break;
      const type = String.fromCharCode(buffer[offset] ?? 0);
      if (type === 'Z') events.onReady(String.fromCharCode(buffer[offset + 5] ?? 0));
      if (type === 'A') {
        // Int32 process id, then the channel and the payload, each NUL-terminated.
        const [channel = '', payload = ''] = buffer
          .subarray(offset + 9, offset + length)
          .toString('utf8')
          .split('\0');
        events.onNotification(channel, payload);
      }
      offset += length;
    }
    buffer = buffer.subarray(offset);
  };
}

/** A Sync message: ends whatever extended-protocol exchange a vanished client left half done. */
export const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
