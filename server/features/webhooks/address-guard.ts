import dns from "node:dns";
import net from "node:net";

/**
 * Server-side request forgery (issue 30, docs/SECURITY.md "Webhooks"): a webhook URL must reach a
 * public address. Every address its host resolves to is checked, when the endpoint is saved and
 * again at each attempt's connection (the lookup the request itself uses, so a DNS answer that
 * changes in between cannot slip a private address through). WEBHOOKS_ALLOW_PRIVATE=true (tests,
 * a receiver on the same network) lets them through.
 */

const blocked = new net.BlockList();
for (const [net4, bits] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net4, bits, "ipv4");
}
for (const [net6, bits] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64: an IPv4 address inside
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net6, bits, "ipv6");
}

/**
 * Loopback, private, link-local, multicast or otherwise not a public address. (An IPv4-mapped IPv6
 * address, ::ffff:127.0.0.1, is checked by BlockList against the IPv4 rules; a ::ffff:0:0/96 rule
 * of its own would match every IPv4 address.)
 */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true; // not an address at all: refuse
}

export class PrivateAddressError extends Error {
  constructor(host: string) {
    super(`${host} resolves to a private address: refused`);
    this.name = "PrivateAddressError";
  }
}

/** The host of a URL as net wants it (an IPv6 literal without its brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Every address `host` resolves to (itself when it is an address); throws ENOTFOUND and the like. */
export async function addressesOf(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/** Throws PrivateAddressError when any address of `host` is private (unless allowed). */
export async function assertPublicHost(host: string, allowPrivate: boolean): Promise<void> {
  const addresses = await addressesOf(host);
  if (!allowPrivate && addresses.some(isPrivateAddress)) throw new PrivateAddressError(host);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` an attempt's request connects with: dns.lookup, then every address checked. Node
 * asks for all addresses (autoSelectFamily) or one; either is answered.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new PrivateAddressError(hostname), { code: "EPRIVATE" }), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
