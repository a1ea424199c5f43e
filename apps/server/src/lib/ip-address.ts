/**
 * The eight 16-bit groups of a valid IPv6 address (`::` expanded; a trailing dotted quad, as in
 * `::ffff:127.0.0.1`, and a zone such as `%eth0` allowed). Check the address with `net.isIP` first.
 */
export function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  return [...front, ...middle, ...back].map((group) => parseInt(group, 16));
}
