import { describe, expect, it } from 'vitest';
import { PROFILE_COLUMNS, type ProfileColumnMap } from '../db/profile-columns.js';
import type { PlayerProfile } from './player.js';

const FULL_PROFILE: Required<PlayerProfile> = {
  nick: 'Ada',
  name: 'Ada King',
  email: 'ada@example.com',
  referredBy: 'Charles',
  referralCode: 'REF-1',
  bonusCode: 'BONUS-1',
  avatar: 7,
  phoneNumber: '+44 20 7946 0000',
  tag: 'vip',
  active: false,
  verified: true,
  trustedLevel: 3,
  currency: 'EUR',
  preferredCurrency: 'GBP',
  country: 'GB',
};

describe('the profile column map', () => {
  it('must name every profile field, each in a column that holds its type (tsc checks the lines below)', () => {
    const { country: _left, ...incomplete } = PROFILE_COLUMNS;
    // @ts-expect-error a map that leaves out a profile field (country) does not compile
    const missing: ProfileColumnMap = incomplete;
    // @ts-expect-error avatar is a number: a text column cannot hold it
    const mistyped: ProfileColumnMap = { ...PROFILE_COLUMNS, avatar: 'nick' };
    expect(Object.keys(missing)).not.toContain('country');
    expect(mistyped.avatar).toBe('nick');
    expect(Object.keys(PROFILE_COLUMNS).sort()).toEqual(Object.keys(FULL_PROFILE).sort());
  });
});
