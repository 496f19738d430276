import type { ReactNode } from 'react';

export interface DetailListProps {
  /** Label and value pairs; a pair without a value is left out. */
  details: readonly (readonly [label: string, value: ReactNode])[];
}

export function DetailList({ details }: DetailListProps) {
  return (
    <dl className="detail-list">
      {details
        .filter(([, value]) => Boolean(value))
        .map(([label, value]) => (
          <div key={label} className="detail-list__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
