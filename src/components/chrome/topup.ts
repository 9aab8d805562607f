/** The provider's hosted checkout for one package: the package id, the amount in fen and the currency as query parameters. */
export function checkoutUrl(base: string, pkg: { id: string; priceFen: number; diamonds: number }): string {
  const url = new URL(base);
  url.searchParams.set('package', pkg.id);
  url.searchParams.set('diamonds', String(pkg.diamonds));
  url.searchParams.set('amount', String(pkg.priceFen));
  url.searchParams.set('currency', 'CNY');
  return url.toString();
}
