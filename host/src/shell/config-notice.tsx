import { isDocumentProblem, usePortico } from '@portico/shared-config';

/**
 * Says on the page that config.json itself could not be read (missing,
 * unreachable, not JSON), so the visitor knows why nothing is configured. A
 * field that fails validation is the operator's to read (the server's log,
 * `npm run check-remotes`, `GET /api/config`): the page is rendered from
 * what is valid and says nothing of it.
 */
export function ConfigNotice() {
  const { problems, text } = usePortico();
  const unreadable = problems.filter(isDocumentProblem);
  if (unreadable.length === 0) return null;
  return (
    <aside className="config-notice" aria-label={text.configNoticeLabel}>
      <p>{text.configProblem}</p>
      <p className="config-notice__fields">{unreadable.map((problem) => problem.field).join(', ')}</p>
    </aside>
  );
}
