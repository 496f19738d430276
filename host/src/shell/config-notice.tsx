import { usePortico } from '@portico/shared-config';

/** Tells the operator, on the page itself, that config.json needs fixing. */
export function ConfigNotice() {
  const { problems, text } = usePortico();
  if (problems.length === 0) return null;
  return (
    <aside className="config-notice" aria-label={text.configNoticeLabel}>
      <p>{text.configProblem}</p>
      <p className="config-notice__fields">{problems.map((problem) => problem.field).join(', ')}</p>
    </aside>
  );
}
