/**
 * Which addresses a webhook may reach. Without the operator's leave (WEBHOOK_ALLOW_PRIVATE) a URL
 * must not lead into the service's own network: loopback, private, link-local, shared (CGNAT),
 * multicast, unspecified and reserved ranges are refused, in IPv4 and IPv6, IPv4-mapped and
 * NAT64 forms of an IPv4 address included.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** Why an address may not be reached without leave, or null when it may. */
export function refusedAddress(address: string): string | null {
  if (isIPv4(address)) return blocked.check(address, 'ipv4') ? `${address} is a loopback, private, link-local, multicast or reserved address` : null;
  if (!isIPv6(address)) return `${address} is not an IP address`;
  const inner = embeddedIpv4(address);
  if (inner) return refusedAddress(inner);
  return blocked.check(address, 'ipv6') ? `${address} is a loopback, private, link-local, multicast or reserved address` : null;
}
