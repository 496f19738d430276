import { useState, type FormEvent } from 'react';
import { MARKETS } from '@portico/contract/languages';
import { sectionIdProblem } from '@portico/contract/section-entries';
import { ApiRefusal, CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { useSectionList } from '../../app/section-list-context';
import { useAction } from '../../api/use-action';
import { OutcomeLine } from '../../components/outcome';
import { useConsoleLanguage } from '../../i18n/use-console-text';
import { draftProblems, Field, FIRST, originsOf, refusedField, SectionFields, type Problems, type SectionDraft } from './section-fields';

const EMPTY: SectionDraft = { labels: { en: '', id: '' }, origins: '', interactive: false, after: '', markets: [...MARKETS] };

/**
 * The integrator's "Add a section" (`POST /api/sections`). The shared rules
 * check the id, the labels and the markets before anything is sent; a
 * refusal's reason stands beside the field it names. The form keeps what
 * was typed until the section is added.
 */
export function AddSectionForm() {
  const { language, text } = useConsoleLanguage();
  const t = text.sectionForm;
  const { sections = [], reload } = useSectionList();
  const action = useAction(reload);
  const [id, setId] = useState('');
  const [draft, setDraft] = useState<SectionDraft>(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
  const [added, setAdded] = useState<{ id: string; name: string }>();
  // Unchosen, "Place after" is the last section: where an add without `after` goes.
  const after = draft.after || sections.at(-1)?.id || FIRST;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setAdded(undefined);
    const idProblem = sectionIdProblem(id);
    const found: Problems = { ...(idProblem ? { id: idProblem } : {}), ...draftProblems(draft) };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const name = draft.labels[language];
    const answer = await action.run(
      (session) =>
        session.client.call(CONTROL_API.sections.add, {
          body: {
            id,
            labels: draft.labels,
            origins: originsOf(draft),
            interactive: draft.interactive,
            after: after === FIRST ? null : after,
            markets: draft.markets,
          },
        }),
      () => fill(t.added, { name }),
      (error) => {
        const field = refusedField(error);
        if (field && error instanceof ApiRefusal) setProblems({ [field]: error.message });
        return error instanceof ApiRefusal ? fill(t.addRefused, { reason: error.message }) : undefined;
      },
    );
    if (answer) {
      setAdded({ id: answer.id, name });
      setId('');
      setDraft(EMPTY);
    }
  };

  return (
    <section aria-labelledby="add-section-heading">
      <h2 id="add-section-heading">{t.addHeading}</h2>
      <p>{t.addIntro}</p>
      <form onSubmit={(event) => void add(event)} className="stacked" noValidate>
        <Field label={t.id} hint={t.idHint} problem={problems.id}>
          {(props) => <input {...props} type="text" autoComplete="off" spellCheck={false} value={id} onChange={(event) => setId(event.target.value)} />}
        </Field>
        <SectionFields draft={{ ...draft, after }} onChange={setDraft} problems={problems} others={sections} />
        <button type="submit" className="primary" disabled={action.busy}>
          {t.add}
        </button>
      </form>
      <OutcomeLine outcome={action.outcome} />
      {added && (
        <p>
          <a href={`#/sections/${added.id}`}>{fill(t.openAdded, { name: added.name })}</a>
        </p>
      )}
    </section>
  );
}
