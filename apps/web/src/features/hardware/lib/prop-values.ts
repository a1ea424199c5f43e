import { checkPropValue, LED_VALUE_COUNT, type Prop } from '@plinth/shared';

/** How a number prop is shown and typed (spec 2.13). */
export type DisplayType = 'hex' | 'bin' | 'int' | 'uint';

/** The prop types drawn as a number input with a display type. */
export const NUMBER_PROP_TYPES = ['number', 'uint', 'int'] as const;

export function isNumberProp(type: string): boolean {
  return (NUMBER_PROP_TYPES as readonly string[]).includes(type);
}

export function isLedProp(type: string): type is keyof typeof LED_VALUE_COUNT {
  return type === 'led' || type === 'addressable_led';
}

/** Unsigned props offer only hex, bin and uint; the others all four. */
export function displayTypesFor(propType: string): DisplayType[] {
  return propType === 'uint' ? ['hex', 'bin', 'uint'] : ['hex', 'bin', 'int', 'uint'];
}

/** The board's chosen display type when it is one this prop may use, else int (uint for unsigned props). */
export function defaultDisplayType(prop: Pick<Prop, 'type' | 'displayType'>): DisplayType {
  const allowed = displayTypesFor(prop.type);
  const wanted = prop.displayType as DisplayType | null;
  if (wanted && allowed.includes(wanted)) return wanted;
  return prop.type === 'uint' ? 'uint' : 'int';
}

/** A board value as a number, or null when it is not one. */
export function numericValue(value: Prop['value']): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** A number written in a display type: 0x.. for hex, 0b.. for bin, decimal otherwise. */
export function formatNumber(value: number, displayType: DisplayType): string {
  const negative = value < 0;
  const magnitude = Math.abs(value);
  if ((displayType === 'hex' || displayType === 'bin') && Number.isInteger(magnitude)) {
    const digits = displayType === 'hex' ? magnitude.toString(16).toUpperCase() : magnitude.toString(2);
    return `${negative ? '-' : ''}${displayType === 'hex' ? '0x' : '0b'}${digits}`;
  }
  return String(value);
}

/**
 * Keeps only what may be typed in a display type: hex digits, binary digits or decimal digits
 * (a point for the plain number type), a leading minus only in int display of a signed prop,
 * and the 0x / 0b prefix of hex and bin. Anything else typed is dropped.
 */
export function sanitizeNumberInput(text: string, displayType: DisplayType, propType: string): string {
  const allowMinus = displayType === 'int' && propType !== 'uint';
  let rest = text.trim();
  let sign = '';
  if (rest.startsWith('-')) {
    rest = rest.slice(1);
    if (allowMinus) sign = '-';
  }
  if (displayType === 'hex' || displayType === 'bin') {
    const prefix = displayType === 'hex' ? '0x' : '0b';
    const hasPrefix = rest.toLowerCase().startsWith(prefix);
    const body = hasPrefix ? rest.slice(2) : rest;
    const digits = body.replace(displayType === 'hex' ? /[^0-9a-fA-F]/g : /[^01]/g, '');
    return `${sign}${hasPrefix ? prefix : ''}${displayType === 'hex' ? digits.toUpperCase() : digits}`;
  }
  const decimal = propType === 'number';
  let seenPoint = false;
  const digits = [...rest]
    .filter((c) => {
      if (/\d/.test(c)) return true;
      if (c === '.' && decimal && !seenPoint) {
        seenPoint = true;
        return true;
      }
      return false;
    })
    .join('');
  return `${sign}${digits}`;
}

/** Reads typed text in its display type; null when it is empty or not a number. */
export function parseNumberInput(text: string, displayType: DisplayType): number | null {
  let body = text.trim();
  const negative = body.startsWith('-');
  if (negative) body = body.slice(1);
  if (displayType === 'hex' || displayType === 'bin') {
    const prefix = displayType === 'hex' ? '0x' : '0b';
    if (body.toLowerCase().startsWith(prefix)) body = body.slice(2);
    if (!(displayType === 'hex' ? /^[0-9a-f]+$/i : /^[01]+$/).test(body)) return null;
    const value = parseInt(body, displayType === 'hex' ? 16 : 2);
    return negative ? -value : value;
  }
  if (!/^\d+(\.\d+)?$/.test(body)) return null;
  return negative ? -Number(body) : Number(body);
}

export type PropCheck = { ok: true; value: string | number } | { ok: false; message: string };

/**
 * Checks typed text for a number prop: the min/max messages of spec section 5, unsigned props
 * never negative. The value to send is a number.
 */
export function checkNumberInput(prop: Prop, text: string, displayType: DisplayType): PropCheck {
  const value = parseNumberInput(text, displayType);
  if (value === null) return { ok: false, message: 'The value must be a number.' };
  return checkPropValue(prop, value);
}

/** The channels of an LED value ("b,r,g,b" or "i,b,w,r,g,b"), padded with empty strings. */
export function splitLedValue(value: Prop['value'], count: number): string[] {
  const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()) : [];
  return Array.from({ length: count }, (_, i) => parts[i] ?? '');
}

/** An LED send needs every channel numeric and non-empty (spec section 5). */
export function isCompleteLedValue(parts: string[], count: number): boolean {
  return parts.length === count && parts.every((p) => /^\d+$/.test(p.trim()));
}

/** Channel names of the LED types: the simple type has brightness and RGB, the addressable one adds index and white. */
export function ledChannels(type: 'led' | 'addressable_led'): string[] {
  return type === 'led' ? ['Brightness', 'Red', 'Green', 'Blue'] : ['Index', 'Brightness', 'White', 'Red', 'Green', 'Blue'];
}

/** A button prop is pressed when its value is 1, true or 'pressed'. */
export function isPressed(value: unknown): boolean {
  return value === 1 || value === true || value === '1' || value === 'true' || value === 'pressed';
}

/** A toggle prop is on when its value is 1 or true. */
export function isOn(value: unknown): boolean {
  return value === 1 || value === true || value === '1' || value === 'true';
}
