import { useCallback, useEffect, useMemo, useState } from 'react';
import { localeOf, type Language } from '@portico/contract/languages';
import { CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { ConsoleEventsContext, openConsoleEvents } from '../api/console-events';
import { forgetSession, isSessionOver, resumeSession, type ConsoleSession } from '../api/console-session';
import { roleOf, type Role } from '../api/roles';
import { AlertsPage } from '../features/alerts/alerts-page';
import { AuditPage } from '../features/audit/audit-page';
import { InboxPage } from '../features/inbox/inbox-page';
import { OverviewPage } from '../features/overview/overview-page';
import { SectionPage } from '../features/section/section-page';
import { SignIn } from '../features/sign-in/sign-in';
import { TokensPage } from '../features/tokens/tokens-page';
import { LanguageSwitch } from '../components/language-switch';
import { CONSOLE_TEXTS, ConsoleTextContext, useConsoleLanguage, useConsoleText } from '../i18n/use-console-text';
import { storedLanguage, storeLanguage } from '../i18n/stored-language';
import { LandingNoticeProvider } from './landing-notice';
import { SectionListProvider, useSectionList } from './section-list-context';
import { SessionContext, type SignedIn } from './session-context';
import { useHashRoute } from './use-hash-route';

/** The whole console: the language, then sign-in or the signed-in screens. */
export function ConsoleApp() {
  const [language, setShown] = useState<Language>(storedLanguage);
  const value = useMemo(() => {
    const setLanguage = (chosen: Language) => {
      storeLanguage(chosen);
      setShown(chosen);
    };
    return { language, text: CONSOLE_TEXTS[language], setLanguage };
  }, [language]);
  useEffect(() => {
    document.documentElement.lang = localeOf(language);
    document.title = value.text.title;
  }, [language, value.text.title]);
  return (
    <ConsoleTextContext.Provider value={value}>
      <SignedInOrNot />
    </ConsoleTextContext.Provider>
  );
}

type State = { phase: 'resuming' } | { phase: 'signed-out'; notice?: string } | { phase: 'signed-in'; session: ConsoleSession };

function SignedInOrNot() {
  const text = useConsoleText();
  const [state, setState] = useState<State>({ phase: 'resuming' });
  useEffect(() => {
    let current = true;
    void resumeSession().then((session) => {
      if (current) setState(session ? { phase: 'signed-in', session } : { phase: 'signed-out' });
    });
    return () => {
      current = false;
    };
  }, []);
  if (state.phase === 'resuming') return <p role="status">{text.common.loading}</p>;
  if (state.phase === 'signed-out') return <SignIn notice={state.notice} onSignedIn={(session) => setState({ phase: 'signed-in', session })} />;
  return (
    <Console
      session={state.session}
      onSignedOut={(notice) => {
        forgetSession();
        setState({ phase: 'signed-out', notice });
      }}
    />
  );
}

interface ConsoleProps {
  session: ConsoleSession;
  onSignedOut(notice: string): void;
}

function Console({ session, onSignedOut }: ConsoleProps) {
  const text = useConsoleText();
  const role = useMemo(() => roleOf(session.actor), [session]);
  const expiredText = text.signIn.expired;
  const expired = useCallback(() => onSignedOut(expiredText), [onSignedOut, expiredText]);
  const events = useMemo(
    () =>
      openConsoleEvents(session, (error) => {
        if (!isSessionOver(error)) return false;
        expired();
        return true;
      }),
    [session, expired],
  );
  useEffect(() => () => events.close(), [events]);
  const signedIn: SignedIn = useMemo(() => ({ session, role, expired }), [session, role, expired]);
  const signOut = async () => {
    await session.client.call(CONTROL_API.session.delete, {}).catch(() => undefined);
    onSignedOut(text.signIn.signedOut);
  };
  return (
    <SessionContext.Provider value={signedIn}>
      <ConsoleEventsContext.Provider value={events}>
        <SectionListProvider>
          <header className="top">
            <p className="brand">{text.title}</p>
            <Navigation role={role} />
            <div className="who">
              <span>{fill(text.nav.signedInAs, { name: session.actor.name })}</span>
              <LanguageSwitch />
              <button type="button" onClick={() => void signOut()}>
                {text.nav.signOut}
              </button>
            </div>
          </header>
          <main id="main">
            <LandingNoticeProvider>
              <Screen role={role} />
            </LandingNoticeProvider>
          </main>
        </SectionListProvider>
      </ConsoleEventsContext.Provider>
    </SessionContext.Provider>
  );
}

function Navigation({ role }: { role: Role }) {
  const { language, text } = useConsoleLanguage();
  const route = useHashRoute();
  const { sections = [] } = useSectionList();
  const { releases } = role;
  const links = [
    ...(releases ? [{ href: '/', label: text.nav.overview }] : []),
    ...sections.map((section) => ({ href: `/sections/${section.id}`, label: section.labels[language] })),
    ...(releases ? [{ href: '/audit', label: text.nav.audit }] : []),
    ...(role.integrator
      ? [
          { href: '/tokens', label: text.nav.tokens },
          { href: '/alerts', label: text.nav.alerts },
        ]
      : []),
    ...(role.inbox ? [{ href: '/inbox', label: text.nav.inbox }] : []),
  ];
  return (
    <nav aria-label={text.nav.label}>
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <a href={`#${link.href}`} aria-current={route === link.href ? 'page' : undefined}>
              {/* An added section's label is the integrator's text: isolated, so its direction cannot reorder the links around it. */}
              <bdi>{link.label}</bdi>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Screen({ role }: { role: Role }) {
  const text = useConsoleText();
  const route = useHashRoute();
  const { sections, error } = useSectionList();
  const section = /^\/sections\/([a-z][a-z0-9-]*)$/.exec(route)?.[1];
  const { releases } = role;
  // A deep link to a section waits for the list: an added section is known only once it is read.
  if (section && releases && !sections) return error ? <p role="alert">{error}</p> : <p role="status">{text.common.loading}</p>;
  const own = sections?.find((candidate) => candidate.id === section);
  if (own) return <SectionPage key={own.id} section={own.id} />;
  if (route === '/audit' && releases) return <AuditPage />;
  if (route === '/tokens' && role.integrator) return <TokensPage />;
  if (route === '/alerts' && role.integrator) return <AlertsPage />;
  if (route === '/inbox' && role.inbox) return <InboxPage />;
  // Anything else (a screen this role may not see included) is the role's first screen.
  return releases ? <OverviewPage /> : role.inbox ? <InboxPage /> : null;
}
