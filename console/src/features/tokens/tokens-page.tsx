import { useState, type FormEvent } from 'react';
import { CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { useSectionList } from '../../app/section-list-context';
import { useSignedIn } from '../../app/session-context';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { ConfirmButton } from '../../components/confirm-button';
import { CopyButton } from '../../components/copy-button';
import { DataTable } from '../../components/data-table';
import { OutcomeLine } from '../../components/outcome';
import { formatInstant } from '../../i18n/format';
import { useConsoleLanguage } from '../../i18n/use-console-text';

/** A token's scope, as the form offers them: one role each. */
type ScopeChoice = 'releases' | 'messages' | 'metrics' | `section:${string}`;

/** The integrator's tokens: the live ones (never their secrets), a new one shown once with a copy button, revocation. */
export function TokensPage() {
  const { language, text } = useConsoleLanguage();
  const t = text.tokens;
  const tokens = useLoad((session) => session.client.call(CONTROL_API.tokens.list, {}), [], ['tokens']);
  const action = useAction();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ScopeChoice>('releases');
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const { sections = [], nameOf } = useSectionList();
  const me = useSignedIn().session.actor.name;
  // What makes a revocation unlike the others: it ends this very session, or the install's owner token goes (issue 49).
  const warningFor = (token: { name: string; owner?: boolean }) =>
    [...(token.name === me ? [t.revokeOwn] : []), ...(token.owner ? [t.revokeOwner] : [])].join(' ') || undefined;
  // A section token for each section listed, added ones included.
  const scopeChoices: ScopeChoice[] = ['releases', 'messages', 'metrics', ...sections.map((section) => `section:${section.id}` as const)];
  const scopeText = (choice: string) =>
    choice === 'releases'
      ? t.scopeReleases
      : choice === 'messages'
        ? t.scopeMessages
        : choice === 'metrics'
          ? t.scopeMetrics
          : fill(t.scopeSection, { section: nameOf(choice.slice('section:'.length)) });
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreated(undefined);
    const answer = await action.run(
      (session) => session.client.call(CONTROL_API.tokens.create, { body: { name, scopes: [scope] } }),
      (made) => fill(t.created_, { name: made.name }),
    );
    if (answer) {
      setCreated({ name: answer.name, token: answer.token });
      setName('');
      tokens.reload();
    }
  };
  return (
    <>
      <h1>{t.heading}</h1>
      <OutcomeLine outcome={action.outcome} />
      {created && (
        <p className="secret">
          <label htmlFor="new-token">{t.shownOnce}</label>
          <input id="new-token" type="text" readOnly value={created.token} />
          <CopyButton value={created.token} what={t.copyWhat} />
        </p>
      )}
      {tokens.error && <p role="alert">{tokens.error}</p>}
      {tokens.data && (
        <DataTable
          caption={t.heading}
          captionHidden
          rows={tokens.data}
          rowKey={(token) => token.name}
          empty={t.empty}
          initialSort="created"
          columns={[
            { key: 'name', header: t.name, cell: (token) => token.name, sortValue: (token) => token.name },
            { key: 'scope', header: t.scope, cell: (token) => token.scopes.map(scopeText).join('; '), sortValue: (token) => token.scopes.join() },
            { key: 'created', header: t.created, cell: (token) => formatInstant(token.createdAt, language), sortValue: (token) => token.createdAt },
            { key: 'by', header: t.by, cell: (token) => token.createdBy, sortValue: (token) => token.createdBy },
            {
              key: 'revoke',
              header: text.section.actions,
              cell: (token) => (
                <ConfirmButton
                  label={fill(t.revoke, { name: token.name })}
                  danger
                  question={fill(t.revokeConfirm, { name: token.name })}
                  warning={warningFor(token)}
                  disabled={action.busy}
                  onConfirm={() =>
                    void action
                      .run(
                        (session) => session.client.call(CONTROL_API.tokens.revoke, { params: { name: token.name } }),
                        () => fill(t.revoked, { name: token.name }),
                      )
                      .then(() => tokens.reload())
                  }
                />
              ),
            },
          ]}
        />
      )}
      <section aria-labelledby="token-create">
        <h2 id="token-create">{t.createHeading}</h2>
        <form onSubmit={(event) => void create(event)} className="stacked">
          <label htmlFor="token-name">{t.name}</label>
          <input id="token-name" type="text" required maxLength={64} value={name} onChange={(event) => setName(event.target.value)} />
          <label htmlFor="token-scope">{t.scope}</label>
          <select id="token-scope" value={scope} onChange={(event) => setScope(event.target.value as ScopeChoice)}>
            {scopeChoices.map((choice) => (
              <option key={choice} value={choice}>
                {scopeText(choice)}
              </option>
            ))}
          </select>
          <button type="submit" className="primary" disabled={action.busy}>
            {t.create}
          </button>
        </form>
      </section>
    </>
  );
}
