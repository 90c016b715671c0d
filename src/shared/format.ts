// Numbers as the panel and the CLI both show them.

/** `$0.0123` below a dollar (a cheap turn stays visible), `$1.23` above. */
export const formatUsd = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
