import { describe, expect, it } from 'vitest';
import { checkoutUrl } from './topup.ts';

describe('checkoutUrl', () => {
  it('adds the package, diamonds, amount in fen and currency to the provider’s checkout', () => {
    const url = new URL(
      checkoutUrl('https://pay.example.com/checkout?merchant=sy', { id: 'd60', diamonds: 60, priceFen: 600 }),
    );
    expect(url.origin + url.pathname).toBe('https://pay.example.com/checkout');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      merchant: 'sy',
      package: 'd60',
      diamonds: '60',
      amount: '600',
      currency: 'CNY',
    });
  });
  it('refuses a checkout that is not a URL', () => {
    expect(() => checkoutUrl('not a url', { id: 'x', diamonds: 1, priceFen: 1 })).toThrow();
  });
});
