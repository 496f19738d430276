import { useState, type FormEvent } from 'react';
import { pathOf, type AnswerOf, CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { download } from '../../api/download';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { shownText } from '@portico/platform/hidden-characters';
import { ConfirmButton } from '../../components/confirm-button';
import { DataTable, Pager } from '../../components/data-table';
import { OutcomeLine } from '../../components/outcome';
import { VisibleText } from '../../components/visible-text';
import type { ConsoleText } from '../../i18n/console-text';
import { formatInstant } from '../../i18n/format';
import { marketOf } from '@portico/contract/languages';
import { useConsoleLanguage } from '../../i18n/use-console-text';

const PAGE_SIZE = 50;
/** How much of a name and of a message a row shows; the opened message shows all of it. */
const NAME_SHOWN = 40;
const MESSAGE_SHOWN = 80;
type Message = AnswerOf<typeof CONTROL_API.messages.get>;

/** Its delivery in words; waiting with no channel set, it goes nowhere, and says so ("waiting (0 attempts)" read as on its way). */
function deliveryText(message: Message, t: ConsoleText['inbox'], nowhere: boolean): string {
  const { status, attempts, lastError } = message.delivery;
  if (status === 'queued' && nowhere) return t.notSent;
  const state = status === 'delivered' ? t.delivered : status === 'queued' ? t.queued : fill(t.failed, { error: lastError ?? '' });
  return `${state} (${fill(t.attempts, { attempts: String(attempts) })})`;
}

/** The page the visitor wrote from: its language and market (one follows the other: ?type=1 English for India, ?type=2 Indonesian for Indonesia). */
function fromPage(message: Message, text: ConsoleText): string {
  return fill(text.inbox.languageMarket, { language: text.language[message.language], market: text.inbox.markets[marketOf(message.language)] });
}

/** A visitor's name inside a sentence: its hidden characters shown, isolated (FSI … PDI) so it cannot reorder the words around it. */
const isolated = (name: string) => `\u2068${shownText(name)}\u2069`;

/** The lender's inbox: newest first, searched, opened, exported and erased; the API audits each read, export and deletion. */
export function InboxPage() {
  const { language, text } = useConsoleLanguage();
  const t = text.inbox;
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const messages = useLoad(
    (session) => session.client.call(CONTROL_API.messages.list, { query: { q: q || undefined, limit: String(PAGE_SIZE), before: cursors[page] } }),
    [q, page],
    ['messages'],
  );
  const delivery = useLoad((session) => session.client.call(CONTROL_API.messages.delivery, {}), [], []);
  const nowhere = delivery.data?.channels.length === 0;
  const [open, setOpen] = useState<Message>();
  const action = useAction();
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(draft.trim());
    setCursors([undefined]);
  };
  const rows = messages.data ?? [];
  return (
    <>
      <h1>{t.heading}</h1>
      {nowhere && <p className="notice">{t.nowhere}</p>}
      <form onSubmit={search} role="search" className="inline">
        <label htmlFor="inbox-search">{t.search}</label>
        <input id="inbox-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit" className="primary">
          {text.audit.apply}
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            void action.run(
              (session) => download(session, pathOf(CONTROL_API.messages.list), { export: 'csv', q: q || undefined }, 'messages.csv'),
              () => text.common.exported,
            )
          }
        >
          {t.exportCsv}
        </button>
      </form>
      <OutcomeLine outcome={action.outcome} />
      {messages.error && <p role="alert">{messages.error}</p>}
      {open && (
        <article className="message" aria-labelledby="message-heading">
          <h2 id="message-heading">
            <VisibleText text={open.name} />
          </h2>
          <dl>
            <dt>{t.received}</dt>
            <dd>{formatInstant(open.receivedAt.toISOString(), language)}</dd>
            <dt>{t.telephone}</dt>
            <dd>
              <VisibleText text={open.telephone} />
            </dd>
            <dt>{t.from}</dt>
            <dd>{fromPage(open, text)}</dd>
            <dt>{t.delivery}</dt>
            <dd>
              <VisibleText text={deliveryText(open, t, nowhere)} />
            </dd>
          </dl>
          <p className="message-text">
            <VisibleText text={open.message} keepLineBreaks />
          </p>
          <div className="row-actions">
            <button type="button" onClick={() => setOpen(undefined)}>
              {t.close}
            </button>
            <ConfirmButton
              label={t.delete}
              danger
              question={fill(t.deleteConfirm, { name: isolated(open.name) })}
              disabled={action.busy}
              onConfirm={() =>
                void action
                  .run(
                    (session) => session.client.call(CONTROL_API.messages.delete, { params: { id: open.id } }),
                    () => fill(t.deleted, { name: isolated(open.name) }),
                  )
                  .then((answer) => {
                    if (answer) setOpen(undefined);
                    messages.reload();
                  })
              }
            />
          </div>
        </article>
      )}
      {messages.data && (
        <DataTable
          caption={t.heading}
          captionHidden
          rows={rows}
          rowKey={(message) => message.id}
          empty={q ? fill(t.noMatch, { q }) : t.empty}
          pageSize={PAGE_SIZE}
          columns={[
            {
              key: 'received',
              header: t.received,
              cell: (message) => formatInstant(message.receivedAt.toISOString(), language),
              sortValue: (message) => message.receivedAt.getTime(),
            },
            {
              key: 'name',
              header: t.name,
              cell: (message) => (
                <button
                  type="button"
                  className="link"
                  aria-label={fill(t.open, { name: shownText(message.name) })}
                  onClick={() =>
                    void action
                      .run(
                        (session) => session.client.call(CONTROL_API.messages.get, { params: { id: message.id } }),
                        () => '',
                      )
                      .then((one) => one && setOpen(one))
                  }
                >
                  <VisibleText text={message.name} limit={NAME_SHOWN} />
                </button>
              ),
              sortValue: (message) => message.name,
            },
            { key: 'telephone', header: t.telephone, cell: (message) => <VisibleText text={message.telephone} /> },
            // Its line breaks are spaces in the row: the opened message has its lines.
            { key: 'message', header: t.message, cell: (message) => <VisibleText text={message.message} limit={MESSAGE_SHOWN} keepLineBreaks /> },
            { key: 'from', header: t.from, cell: (message) => fromPage(message, text), sortValue: (message) => message.language },
            {
              key: 'delivery',
              header: t.delivery,
              cell: (message) => <VisibleText text={deliveryText(message, t, nowhere)} />,
              sortValue: (message) => message.delivery.status,
            },
          ]}
        />
      )}
      {(page > 0 || rows.length === PAGE_SIZE) && (
        <Pager
          page={page}
          hasNext={rows.length === PAGE_SIZE}
          onPage={(next) => setCursors(next < page ? cursors.slice(0, next + 1) : [...cursors, rows.at(-1)?.id])}
        />
      )}
    </>
  );
}
