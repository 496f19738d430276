import { useState, type FormEvent } from 'react';
import { ApiRefusal } from '@portico/control-contract';
import { signIn, type ConsoleSession } from '../../api/console-session';
import { describeError } from '../../api/describe-error';
import { LanguageSwitch } from '../../components/language-switch';
import { useConsoleText } from '../../i18n/use-console-text';

export interface SignInProps {
  onSignedIn(session: ConsoleSession): void;
  /** Why the person is here again: the session ended, or they signed out. */
  notice?: string;
}

/** The token pasted once; the API answers with the session cookie, the page keeps the rest in memory. */
export function SignIn({ onSignedIn, notice }: SignInProps) {
  const text = useConsoleText();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(token.trim());
      // The token leaves the page's state as soon as it has done its work.
      setToken('');
      onSignedIn(session);
    } catch (failure) {
      setError(failure instanceof ApiRefusal && (failure.status === 401 || failure.status === 403) ? text.signIn.refused : describeError(failure, text));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <LanguageSwitch />
      <h1>{text.signIn.heading}</h1>
      {notice && <p role="status">{notice}</p>}
      <p>{text.signIn.intro}</p>
      <form onSubmit={(event) => void submit(event)}>
        <label htmlFor="token">{text.signIn.token}</label>
        <input
          id="token"
          name="token"
          type="text"
          autoComplete="off"
          spellCheck={false}
          required
          value={token}
          onChange={(event) => setToken(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {text.signIn.submit}
        </button>
      </form>
      <p role="alert">{error}</p>
    </main>
  );
}
