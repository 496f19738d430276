import { createContext, useContext } from 'react';
import type { ConsoleSession } from '../api/console-session';
import type { Role } from '../api/roles';

export interface SignedIn {
  session: ConsoleSession;
  role: Role;
  /** The session is over (a 401): back to sign-in, saying so. */
  expired(): void;
}

export const SessionContext = createContext<SignedIn | undefined>(undefined);

export function useSignedIn(): SignedIn {
  const signedIn = useContext(SessionContext);
  if (!signedIn) throw new Error('useSignedIn: outside a signed-in console');
  return signedIn;
}
