/**
 * Where a webhook may be sent. A URL is checked when it is subscribed and again at every delivery,
 * after resolving its name: the connection then goes to the very address that was checked (the
 * socket's `lookup` is this check), so a name that resolves elsewhere between the check and the
 * connection (DNS rebinding) reaches nothing private.
 */
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { refusedAddress } from '../domain/webhooks/address';

export interface TargetPolicy {
  /** `http://` URLs too (WEBHOOK_ALLOW_HTTP), for tests and private networks. */
  allowHttp: boolean;
  /** Loopback, private and link-local addresses too (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** The URL's own rules (scheme, no credentials), without resolving it. Throws TargetRefused. */
export function parseTarget(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('must be an absolute URL such as https://example.com/hooks');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw new TargetRefused(policy.allowHttp ? 'must use https:// or http://' : 'must use https:// (http:// is not allowed on this server)');
  }
  if (url.username || url.password) throw new TargetRefused('must not carry a user name or password');
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Every address `host` resolves to, each one checked; throws TargetRefused naming the first refused one. */
export async function resolveTarget(host: string, policy: TargetPolicy): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(`has a host name that does not resolve (${host})`);
    }
  }
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const reason = refusedAddress(address);
      if (reason) throw new TargetRefused(`resolves to a private address: ${reason} (WEBHOOK_ALLOW_PRIVATE is off)`);
    }
  }
  return addresses;
}

/** Checks a URL as a subscription is made: its scheme, and every address its host resolves to now. */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = parseTarget(raw, policy);
  await resolveTarget(hostOf(url), policy);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves and checks the host, then hands the socket the checked
 * addresses only. (An IP literal never reaches a lookup: `deliver` checks it before.)
 */
export function checkedLookup(policy: TargetPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveTarget(hostname, policy).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, (addresses[0] as LookupAddress).address, (addresses[0] as LookupAddress).family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EWEBHOOKREFUSED' }), ''),
    );
  };
}

export { hostOf };
