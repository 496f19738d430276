/**
 * Route keys of the wider loan app (specification, point 2). The site serves
 * only `/`; these name the app's screens so shared code can refer to them.
 *
 * The specification's values are obfuscated. Only
 * `/dragonpayPaymentInstructions` is given as it is; every other path suffix
 * here is Portico's plausible choice, the key in camelCase with a leading
 * slash. The spec describes a screen called "order" among the slash-valued
 * keys and also a key named `order` with a word value; a key cannot be both,
 * so the screen is `orders: '/orders'`.
 */
export const ROUTES = {
  dragonpayPaymentInstructions: '/dragonpayPaymentInstructions',
  errorNotice: '/errorNotice',
  loanDetail: '/loanDetail',
  confirm: '/confirm',
  whetherToRepay: '/whetherToRepay',
  orders: '/orders',
  recommendList: '/recommendList',
  customerService: '/customerService',
  repay: '/repay',
  repayDelay: '/repayDelay',
  repayChoice: '/repayChoice',
  loanAgreement: '/loanAgreement',
  privacyPolicy: '/privacyPolicy',
  aboutUs: '/aboutUs',
  complaint: '/complaint',
  bankCard: '/bankCard',
  complaintSubmit: '/complaintSubmit',
  product: '/product',

  // Words without a slash, as the specification says of these four keys.
  main: 'main',
  login: 'login',
  order: 'order',
  productDetail: 'productDetail',
} as const satisfies Record<string, string>;

export type RouteKey = keyof typeof ROUTES;
export type RoutePath = (typeof ROUTES)[RouteKey];

/** The keys whose values are words, not path suffixes. */
export const WORD_ROUTE_KEYS = ['main', 'login', 'order', 'productDetail'] as const satisfies readonly RouteKey[];

/**
 * Keys the specification lists without saying what they mean or hold. Kept
 * as names only: inventing values for them would pass a guess off as fact.
 */
export const UNDESCRIBED_ROUTE_KEYS = ['public', 'personal', 'job', 'ext', 'bank', 'enum', 'txt', 'citySelect', 'day'] as const;
