import { useMemo, useState, type ReactNode } from 'react';
import { fill } from '@portico/shared-config';
import { useConsoleText } from '../i18n/use-console-text';

interface Column<Row> {
  key: string;
  header: string;
  /** The cell as shown. */
  cell(row: Row): ReactNode;
  /** What the column sorts by; none: it does not sort. */
  sortValue?(row: Row): string | number;
}

export interface DataTableProps<Row> {
  caption: string;
  /** The caption says what the heading right above it says: kept as the table's name, not shown a second time. */
  captionHidden?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  /** Rows per page; the table pages itself. */
  pageSize?: number;
  /** What to do next when there are no rows, in words. */
  empty: string;
  /** The column sorted by at first, descending (newest first). */
  initialSort?: string;
}

type Direction = 'ascending' | 'descending';

/** A table that sorts by its headers' buttons and pages itself: every table of the console. */
export function DataTable<Row>({ caption, captionHidden, columns, rows, rowKey, pageSize = 20, empty, initialSort }: DataTableProps<Row>) {
  const [sort, setSort] = useState<{ key: string; direction: Direction } | undefined>(initialSort ? { key: initialSort, direction: 'descending' } : undefined);
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => {
    const column = columns.find((candidate) => candidate.key === sort?.key);
    if (!column?.sortValue || !sort) return rows;
    const value = column.sortValue;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const left = value(a);
      const right = value(b);
      return (
        sign * (typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right), undefined, { numeric: true }))
      );
    });
  }, [columns, rows, sort]);
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  const pages = Math.max(1, Math.ceil(sorted.length / pageSize));
  const shown = Math.min(page, pages - 1);
  const visible = sorted.slice(shown * pageSize, (shown + 1) * pageSize);
  const toggle = (key: string) => {
    setSort((current) => ({ key, direction: current?.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));
    setPage(0);
  };
  return (
    <div className="table-wrap">
      <table>
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" aria-sort={sort?.key === column.key ? sort.direction : undefined}>
                {column.sortValue ? (
                  <button type="button" className="sort" onClick={() => toggle(column.key)}>
                    {column.header}
                  </button>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.key}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 && <Pager page={shown} hasNext={shown < pages - 1} onPage={setPage} />}
    </div>
  );
}

export interface PagerProps {
  /** From 0. */
  page: number;
  hasNext: boolean;
  onPage(page: number): void;
}

/** Previous and next page, with the page's number in words. */
export function Pager({ page, hasNext, onPage }: PagerProps) {
  const text = useConsoleText();
  return (
    <nav className="pager" aria-label={fill(text.common.page, { page: String(page + 1) })}>
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {text.common.previousPage}
      </button>
      <span>{fill(text.common.page, { page: String(page + 1) })}</span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {text.common.nextPage}
      </button>
    </nav>
  );
}
