import type { Database, Sql } from '@portico/platform/database';

/**
 * `db` whose transactions lose their connection at the first statement
 * starting with `statement` (what a database restarted under a change
 * looks like to the store): the transaction rolls back, whatever it wrote
 * before. Everything else is `db`'s.
 */
export function losingConnectionAt(db: Database, statement: string): Database {
  const lost = (sql: Sql): Sql => ({
    query: <Row>(text: string, values?: readonly unknown[]) =>
      text.trimStart().startsWith(statement) ? Promise.reject(new Error('Connection terminated unexpectedly')) : sql.query<Row>(text, values),
    exec: (text: string) => sql.exec(text),
  });
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') return <T>(work: (sql: Sql) => Promise<T>) => target.transaction((sql) => work(lost(sql)));
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
