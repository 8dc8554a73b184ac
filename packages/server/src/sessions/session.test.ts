import { describe, expect, it } from 'vitest';
import { storedFrameOrigins } from '../clients/client.repository.js';
import { storedLaunchOptions } from './session.js';

describe('JSON columns read back', () => {
  it('pass launch options on as stored, and refuse a damaged column', () => {
    expect(storedLaunchOptions(null)).toBeNull();
    expect(
      storedLaunchOptions('{"restoreSessionUrl":"https://casino.example/r","theme":{"dark":true}}'),
    ).toEqual({
      restoreSessionUrl: 'https://casino.example/r',
      theme: { dark: true },
    });
    expect(() => storedLaunchOptions('[1]')).toThrow('holds no JSON object');
    expect(() => storedLaunchOptions('"text"')).toThrow('holds no JSON object');
    expect(() => storedLaunchOptions('{"restoreSessionUrl":7}')).toThrow('not text');
  });

  it('pass frame origins on as stored, and refuse a damaged column', () => {
    expect(storedFrameOrigins('["https://casino.example"]')).toEqual(['https://casino.example']);
    expect(storedFrameOrigins('[]')).toEqual([]);
    expect(() => storedFrameOrigins('{"0":"https://casino.example"}')).toThrow(
      'clients.frame_origins holds no list',
    );
    expect(() => storedFrameOrigins('["https://casino.example",1]')).toThrow(
      'clients.frame_origins holds no list',
    );
  });
});
