/**
 * The fields a market may give its own value of (config.json's `byMarket`):
 * in a module of its own, without the schema, so the page script's
 * `reportConfigToConsole` (config-warnings.ts) does not carry zod.
 */
export const MARKET_DETAILS = ['comName', 'email', 'address', 'copyright'] as const;
