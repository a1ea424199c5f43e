import { describe, expect, it } from 'vitest';
import { commandOutcome } from './command-outcome';

describe('commandOutcome', () => {
  it('tells a command the board carried out', () => {
    expect(commandOutcome('Reboot', 'Board A', { correlationId: 'c', ok: true })).toEqual({ ok: true, text: 'Board A answered: Reboot done.' });
  });

  it('tells a command the board did not answer in time', () => {
    expect(commandOutcome('Identify', 'Board A', { correlationId: 'c', ok: false, error: 'timeout' })).toEqual({
      ok: false,
      text: 'Board A did not answer Identify within 10 seconds.',
    });
  });

  it('tells a command the board refused, with its reason', () => {
    expect(commandOutcome('Sync Hardware Values', 'Board A', { correlationId: 'c', ok: false, error: 'busy' }).text).toBe(
      'Sync Hardware Values failed on Board A: busy.',
    );
  });
});
