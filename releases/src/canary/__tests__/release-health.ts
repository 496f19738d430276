import type { ReleaseHealth } from '../../release';

/** An aggregate as the health source gives it: `failures` of `visits` (all render failures), and p75 vitals where given. */
export const health = (visits: number, failures: number, vitals: Partial<Pick<ReleaseHealth, 'lcpP75' | 'inpP75' | 'clsP75'>> = {}): ReleaseHealth => ({
  visits,
  failures,
  failureRate: visits === 0 ? 0 : failures / visits,
  failuresByClass: failures === 0 ? {} : { render: failures },
  lcpP75: null,
  inpP75: null,
  clsP75: null,
  ...vitals,
});
